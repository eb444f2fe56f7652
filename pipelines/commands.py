"""The ``run`` command: a study config to a Parquet dataset, on local Ray or a cluster."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from sim.errors import UserError, fail_cleanly
from sim.options import AddressOpt, HistoryDbOpt, at_least, json_flag, print_json


def register(app: typer.Typer) -> None:
    @app.command()
    @fail_cleanly
    def run(
        study_file: Annotated[Path, typer.Argument(metavar="STUDY.toml", help="the study config")],
        out: Annotated[Path | None, typer.Option(
            metavar="RUN_DIR", help="the run directory, or an s3:// or gs:// URI",
            show_default="runs/NAME, NAME the study's name")] = None,
        address: AddressOpt = None,
        workers: Annotated[int | None, typer.Option(
            metavar="N", help="local Ray: CPUs to use; cluster: most shards at once", show_default="all cores")] = None,
        force: Annotated[bool, typer.Option("--force", help="discard a run of a different study in --out")] = False,
        repair: Annotated[bool, typer.Option(
            "--repair", help="rebuild a damaged or missing manifest from the shard files, keeping every intact shard, "
                 "then resume")] = False,
        progress: Annotated[bool, typer.Option(help="show a live progress bar")] = True,
        history: Annotated[bool, typer.Option(help="record the finished run's summary metrics in the history")] = True,
        db: HistoryDbOpt = None,
        json_out: bool = json_flag("the run's figures (not its summary tables)"),
    ) -> None:
        """Run a study (or resume it: finished shards are kept) and write its Parquet dataset."""
        from rich.console import Console

        from pipelines.interrupts import StopSignals, Terminated, exit_status, quiet_ray_after_stop
        from pipelines.progress import print_summary
        from pipelines.runner import StudyRunError, run_study
        from pipelines.storage import uri_of
        from pipelines.study import load_study

        at_least("--workers", workers)
        if force and repair:
            raise UserError("give at most one of --force (discard the run) and --repair (keep its intact shards)")
        try:
            # From here on, SIGINT and SIGTERM stop the run, whatever the process inherited.
            with quiet_ray_after_stop(), StopSignals():
                study = load_study(study_file)
                target = out or Path("runs") / study.name
                report = run_study(study, target, address=address, workers=workers, force=force, repair=repair,
                                   console=Console(stderr=True), show_progress=progress)
        except StudyRunError as e:
            typer.echo(f"error: {e}\nfinished shards are kept; rerun the same command to resume", err=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt as e:
            what = "terminated" if isinstance(e, Terminated) else "interrupted"
            typer.echo(f"{what}; finished shards are kept: rerun the same command to resume", err=True)
            sys.stdout.flush()
            # Everything is written and Ray is stopped; the interpreter's own teardown can still crash in
            # Ray's native threads after an interrupted run (a segfault, about 1 run in 10), so leave now.
            os._exit(exit_status(e))
        except OSError as e:
            where = f"{e.filename}: " if e.filename else ""
            typer.echo(f"error: {where}{e.strerror or e}\nfinished shards are kept; rerun the same command "
                       f"to resume", err=True)
            raise typer.Exit(1) from None
        uri = uri_of(target)
        if json_out:
            print_json({"study": study.name, **dataclasses.asdict(report), "uri": uri})
        else:
            print_summary(Console(width=None if sys.stdout.isatty() else 120), report, study)
        if uri:
            typer.echo(f"the run is at {uri} (its local copy: {report.out})", err=json_out)
        if history and report.shards_run:
            from reports.regression.history import record_run_or_warn

            typer.echo(record_run_or_warn(report.out, db), err=json_out)  # a run at a URI: its local copy
