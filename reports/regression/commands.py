"""Commands ``regress``, ``history`` and ``suite``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from reports.regression.thresholds import DEFAULTS
from sim.errors import fail_cleanly


def register(app: typer.Typer) -> None:
    @app.command()
    @fail_cleanly
    def regress(
        baseline: Annotated[Path, typer.Option(metavar="RUN_DIR", help="the baseline run directory")],
        candidate: Annotated[Path, typer.Option(metavar="RUN_DIR", help="the candidate run directory")],
        md: Annotated[Path | None, typer.Option(metavar="FILE.md",
                                                help="also write the Markdown page to this file")] = None,
        min_difference: Annotated[float, typer.Option(
            metavar="RATE", help="smallest change of a gate that counts, 0 to 1")] = DEFAULTS.min_difference,
        alpha: Annotated[float, typer.Option(
            metavar="Q", help="false discovery rate (Benjamini-Hochberg), above 0 and below 1")] = DEFAULTS.alpha,
        min_trials: Annotated[int, typer.Option(
            metavar="N", help="comparisons with fewer games are not tested")] = DEFAULTS.min_trials,
        allow_different_studies: Annotated[bool, typer.Option(
            help="compare runs of different studies anyway (every section then says so)")] = False,
    ) -> None:
        """Compare two runs of one study; exit 1 when a gate (deck, matchup, changed card) moved, else 0."""
        from pipelines.storage import local_run
        from reports.regression.compare import compare_runs
        from reports.regression.render import render_markdown
        from reports.regression.thresholds import ThresholdError, Thresholds
        from sim.errors import UserError

        try:
            thresholds = Thresholds(min_difference, alpha, min_trials)
        except ThresholdError as e:
            raise UserError(f"--{e.field.replace('_', '-')}: {e.problem}") from None
        baseline, candidate = local_run(baseline), local_run(candidate)  # a run at a URI: its local copy
        result = compare_runs(baseline, candidate, thresholds, allow_different_studies=allow_different_studies)
        text = render_markdown(result)
        typer.echo(text)
        if result.underpowered:
            typer.echo(f"warning: {len(result.underpowered)} gate(s) cannot detect a change of "
                       f"{thresholds.min_difference:.3f} with 80% power at this study's size (see the verdict)",
                       err=True)
        if md is not None:
            md.write_text(text)
        if result.moved:
            raise typer.Exit(1)

    @app.command()
    @fail_cleanly
    def history(
        card: Annotated[str | None, typer.Option(metavar="CARD_ID",
                                                 help="a card id, e.g. imperial/swordmaster")] = None,
        task: Annotated[str | None, typer.Option(metavar="TASK_ID", help="a task id")] = None,
        deck: Annotated[str | None, typer.Option(metavar="DECK", help="a deck name")] = None,
        study: Annotated[str | None, typer.Option(metavar="NAME|ID",
                                                  help="only runs of this study (its name or study id)")] = None,
        metric: Annotated[str | None, typer.Option(metavar="METRIC", help="only this metric")] = None,
        mode: Annotated[str | None, typer.Option(metavar="FORM", help="only this form")] = None,
        record: Annotated[Path | None, typer.Option(metavar="RUN_DIR",
                                                    help="record a finished run's metrics now, then exit")] = None,
        db: Annotated[Path | None, typer.Option(
            metavar="FILE.duckdb", help="the history database (default: $TASHKALAR_HISTORY or "
                                        "~/.local/share/tashkalar/history.duckdb)")] = None,
    ) -> None:
        """Show recorded metrics over time, one study at a time; or record a run (--record)."""
        from reports.regression.history import default_history_path, metric_history, record_run
        from reports.regression.history_view import render_history
        from sim.errors import UserError

        where = db or default_history_path()
        if record is not None:
            from pipelines.storage import local_run

            record_run(local_run(record), where)
            typer.echo(f"recorded {record}'s summary metrics in {where}")
            return
        subjects = [s for s in (card, task, deck) if s]
        if len(subjects) > 1 or not (subjects or study):
            raise UserError("give --study, or one of --card, --task or --deck (with --study to keep to one study)")
        rows = metric_history(where, subjects[0] if subjects else None, metric, mode, study)
        if not rows:
            typer.echo(f"no recorded metrics for {', '.join(subjects + ([f'study {study}'] if study else []))}")
            raise typer.Exit(1)
        typer.echo(render_history(rows))

    @app.command()
    @fail_cleanly
    def suite(
        suite_file: Annotated[Path, typer.Argument(metavar="SUITE.toml", help="the suite file")],
        promote: Annotated[bool, typer.Option(help="make every new run its study's baseline")] = False,
        promote_if_unchanged: Annotated[bool, typer.Option(
            help="make a new run the baseline when nothing moved")] = False,
        new_baseline: Annotated[bool, typer.Option(
            help="a study without a baseline is run and becomes the baseline (else the suite is refused)")] = False,
        address: Annotated[str | None, typer.Option(envvar="RAY_ADDRESS", metavar="HOST:PORT",
                                                    help="an existing Ray cluster")] = None,
        workers: Annotated[int | None, typer.Option(metavar="N", help="local Ray CPUs",
                                                    show_default="all cores")] = None,
        db: Annotated[Path | None, typer.Option(metavar="FILE.duckdb", help="the history database")] = None,
        progress: Annotated[bool, typer.Option(help="show live progress bars")] = True,
    ) -> None:
        """Run a suite's studies, reports and regressions; exit 1 when a gate moved or a study could not be compared,
        else 0. A study without a baseline is refused before anything runs, unless --new-baseline."""
        from reports.regression.suite import load_suite, run_suite
        from sim.errors import UserError
        from sim.options import at_least

        at_least("--workers", workers)
        if promote and promote_if_unchanged:
            raise UserError("give at most one of --promote and --promote-if-unchanged")
        mode = "always" if promote else "if-unchanged" if promote_if_unchanged else "never"
        outcomes, summary = run_suite(load_suite(suite_file), promote_mode=mode, new_baseline=new_baseline,
                                      address=address, workers=workers, history=db, show_progress=progress)
        typer.echo(summary.read_text())
        typer.echo(f"wrote {summary}")
        if any(o.regression is not None and o.regression.moved for o in outcomes):
            raise typer.Exit(1)
        if any(o.regression is None and not o.promoted for o in outcomes):
            typer.echo("error: a study was not compared (its baseline is of another study); give --new-baseline "
                       "to replace it", err=True)
            raise typer.Exit(1)
