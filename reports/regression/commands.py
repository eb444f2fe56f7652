"""Commands ``regress``, ``history`` and ``suite``."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from reports.regression.thresholds import DEFAULTS
from sim.errors import fail_cleanly
from sim.files import check_writable, write_text
from sim.options import AddressOpt, HistoryDbOpt, json_flag, print_json

if TYPE_CHECKING:
    from reports.regression.compare import Regression
    from reports.regression.gates import Gate


def gate_json(g: Gate) -> dict[str, Any]:
    """A gate as ``regress --json`` and ``suite --json`` print it (docs/cli.md)."""
    return {"gate": g.metric, "form": g.mode, "subject": g.subject, **asdict(g.estimate), "tested": g.tested,
            "q": g.q_value, "mde": g.mde, "power": g.power, "moved": g.moved}


def regression_json(r: Regression) -> dict[str, Any]:
    return {"baseline": r.baseline, "candidate": r.candidate, "paired": r.paired, "thresholds": r.thresholds,
            "moved": len(r.moved), "underpowered": len(r.underpowered), "gates": [gate_json(g) for g in r.gates],
            "changed_cards": r.changed_cards, "added_cards": r.added_cards, "removed_cards": r.removed_cards,
            "different_study": r.different_study}


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
            "--allow-different-studies",
            help="compare runs of different studies anyway (every section then says so)")] = False,
        json_out: bool = json_flag("the verdict and every gate"),
    ) -> None:
        """Compare two runs of one study; exit 1 when a gate (deck, matchup, changed card) moved, else 0."""
        from pipelines.storage import local_run
        from reports.regression.compare import compare_runs
        from reports.regression.render import render_markdown
        from reports.regression.thresholds import ThresholdError, Thresholds
        from sim.errors import UserError

        if md is not None:
            check_writable(md, "--md")  # before the work, as every command's output files
        try:
            thresholds = Thresholds(min_difference, alpha, min_trials)
        except ThresholdError as e:
            raise UserError(f"--{e.field.replace('_', '-')}: {e.problem}") from None
        baseline, candidate = local_run(baseline), local_run(candidate)  # a run at a URI: its local copy
        result = compare_runs(baseline, candidate, thresholds, allow_different_studies=allow_different_studies)
        text = render_markdown(result)
        if json_out:
            print_json(regression_json(result))
        else:
            typer.echo(text)
        if result.underpowered:
            typer.echo(f"warning: {len(result.underpowered)} gate(s) cannot detect a change of "
                       f"{thresholds.min_difference:.3f} with 80% power at this study's size (see the verdict)",
                       err=True)
        if md is not None:
            write_text(md, text, "--md")
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
        form: Annotated[str | None, typer.Option(metavar="FORM", help="only this form")] = None,
        record: Annotated[Path | None, typer.Option(metavar="RUN_DIR",
                                                    help="record a finished run's metrics now, then exit")] = None,
        db: HistoryDbOpt = None,
        json_out: bool = json_flag("the recorded metrics by study"),
    ) -> None:
        """Show recorded metrics over time, one study at a time; or record a run (--record)."""
        from reports.regression.history import default_history_path, metric_history, record_run
        from reports.regression.history_view import by_study, render_history
        from sim.errors import UserError

        where = db or default_history_path()
        if record is not None:
            from pipelines.storage import local_run

            record_run(local_run(record), where)
            if json_out:
                print_json({"recorded": record, "db": where})
            else:
                typer.echo(f"recorded {record}'s summary metrics in {where}")
            return
        subjects = [s for s in (card, task, deck) if s]
        if len(subjects) > 1 or not (subjects or study):
            raise UserError("give --study, or one of --card, --task or --deck (with --study to keep to one study)")
        rows = metric_history(where, subjects[0] if subjects else None, metric, form, study)
        if json_out:
            print_json({"studies": [{"study_id": sid, "names": names, "rows": block}
                                    for sid, names, block in by_study(rows)]})
        if not rows:
            typer.echo(f"no recorded metrics for {', '.join(subjects + ([f'study {study}'] if study else []))}",
                       err=json_out)
            raise typer.Exit(1)
        if not json_out:
            typer.echo(render_history(rows))

    @app.command()
    @fail_cleanly
    def suite(
        suite_file: Annotated[Path, typer.Argument(metavar="SUITE.toml", help="the suite file")],
        promote: Annotated[bool, typer.Option("--promote", help="make every new run its study's baseline")] = False,
        promote_if_unchanged: Annotated[bool, typer.Option(
            "--promote-if-unchanged", help="make a new run the baseline when nothing moved")] = False,
        new_baseline: Annotated[bool, typer.Option(
            "--new-baseline",
            help="a study without a baseline is run and becomes the baseline (else the suite is refused)")] = False,
        address: AddressOpt = None,
        workers: Annotated[int | None, typer.Option(metavar="N", help="local Ray CPUs",
                                                    show_default="all cores")] = None,
        db: HistoryDbOpt = None,
        progress: Annotated[bool, typer.Option(help="show live progress bars")] = True,
        json_out: bool = json_flag("each study's outcome"),
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
        if json_out:
            print_json({"summary": summary, "studies": [
                {"study": o.study.name, "config": o.study.config, "run": o.run, "report": o.report,
                 "promoted": o.promoted, "stale_baseline": o.stale_baseline,
                 "regression": None if o.regression is None else regression_json(o.regression)}
                for o in outcomes]})
        else:
            typer.echo(summary.read_text())
            typer.echo(f"wrote {summary}")
        if any(o.regression is not None and o.regression.moved for o in outcomes):
            raise typer.Exit(1)
        if any(o.regression is None and not o.promoted for o in outcomes):
            typer.echo("error: a study was not compared (its baseline is of another study); give --new-baseline "
                       "to replace it", err=True)
            raise typer.Exit(1)
