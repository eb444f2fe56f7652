"""The ``tashkalar report`` command."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from sim.errors import UserError, fail_cleanly
from sim.files import check_writable
from sim.options import CardsOpt, json_flag, print_json

RunsArg = Annotated[list[Path], typer.Argument(
    metavar="RUN_DIR", help="run directories (runs/NAME) or s3:// or gs:// URIs; several are combined")]
OutOpt = Annotated[Path | None, typer.Option("--out", metavar="FILE.html", help="the HTML report",
                                             show_default="RUN_DIR/report.html, of the first RUN_DIR")]
HtmlOpt = Annotated[bool, typer.Option(help="write the HTML report (--no-html: only what --md, --csv or --json "
                                            "ask for)")]
MdOpt = Annotated[Path | None, typer.Option("--md", metavar="FILE.md", help="also write the report as Markdown")]
CsvOpt = Annotated[Path | None, typer.Option("--csv", metavar="DIR",
                                             help="also write every table as CSV in this directory")]
MixedOpt = Annotated[bool, typer.Option(
    "--allow-mixed-runs", help="pool runs of different card sets, code versions or players under one label "
                               "(refused otherwise); the report's header and summary then say how they differ")]


def register(app: typer.Typer) -> None:
    from reports.regression.thresholds import DEFAULTS

    @app.command("plan")
    @fail_cleanly
    def plan_cli(study: Annotated[Path, typer.Argument(metavar="STUDY.toml", help="the study config")],
                 effect: Annotated[float, typer.Option(
                     metavar="RATE", help="the win-rate difference to detect (0.05: 5 points)")] = 0.05,
                 discordance: Annotated[float, typer.Option(
                     metavar="SHARE", help="ablation: share of paired games whose result differs")] = 0.5,
                 min_difference: Annotated[float, typer.Option(
                     metavar="RATE", help="regression gates: the change that counts (as regress)")]
                 = DEFAULTS.min_difference,
                 alpha: Annotated[float, typer.Option(
                     metavar="Q", help="regression gates: the false discovery rate (as regress)")] = DEFAULTS.alpha,
                 json_out: bool = json_flag("the estimates and gates"),
                 ) -> None:
        """How many games a study gives each estimate, its minimal detectable effect, and the games needed;
        and for a regression study every gate's power."""
        from reports.plan import plan_command  # its statistics import SciPy: not at every command's start

        out = plan_command(study, effect, discordance, min_difference, alpha, as_json=json_out)
        if json_out:
            print_json(out)
        else:
            typer.echo(out)

    @app.command()
    @fail_cleanly
    def report(runs: RunsArg, out: OutOpt = None, html: HtmlOpt = True, md: MdOpt = None, csv_dir: CsvOpt = None,
               cards_dir: CardsOpt = None, allow_mixed: MixedOpt = False,
               json_out: bool = json_flag("the report's title, facts and what stands out")) -> None:
        """Balance report over runs: per card, per task and per game, as HTML (and Markdown, CSV); the card
        pages show each card's trend from the history ($TASHKALAR_HISTORY or ~/.local/share/tashkalar)."""
        from pipelines.storage import local_run
        from pipelines.store import check_recorded
        from reports.build import write_report
        from reports.regression.history import default_history_path

        runs = [local_run(run) for run in runs]  # a run at a URI: its local copy, brought up to date
        if not html:
            if out is not None:
                raise UserError("--out names the HTML report: leave out --no-html")
            if md is None and csv_dir is None and not json_out:
                raise UserError("--no-html leaves nothing to write: give --md, --csv or --json")
        else:
            out = out or runs[0] / "report.html"
        for path, option in ((out, "--out"), (md, "--md")):  # before the work, not after it
            if path is not None:
                check_writable(path, option, makes_folders=True)
        if csv_dir is not None and csv_dir.exists() and not csv_dir.is_dir():
            raise UserError(f"--csv: {csv_dir} is a file, expected a directory")
        start = time.perf_counter()
        for run in runs:  # every file as written, before any query reads only some of its pages
            for warning in check_recorded(run):
                typer.echo(f"warning: {warning}", err=True)
        try:
            rep = write_report(runs, html=out, md=md, csv_dir=csv_dir, cards_dir=cards_dir, allow_mixed=allow_mixed,
                               history=default_history_path())
        except OSError as e:
            raise UserError(f"cannot write {e.filename or 'the report'}: {e.strerror or e}") from None
        written = {k: v for k, v in (("html", out), ("md", md), ("csv", csv_dir)) if v is not None}
        if json_out:
            print_json({"title": rep.title, "written": written, "facts": dict(rep.facts), "summary": rep.summary})
            return
        for path in written.values():
            typer.echo(f"wrote {path}")
        typer.echo(f"{dict(rep.facts)['Games']} games in {time.perf_counter() - start:.1f} s")
        for line in rep.summary:
            typer.echo(f"- {line}")
