"""The ``tashkalar`` command line. Each area adds its commands from its own module."""

from __future__ import annotations

from typing import Annotated

from pipelines.interrupts import exit_on_stop_signals

exit_on_stop_signals()  # before the slow imports: a signal at any moment ends a command with one line

import typer  # noqa: E402

app = typer.Typer(no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]},
                  help="Tash-Kalar balance: simulate games, run studies, report on cards and tasks.")


def _print_version(value: bool) -> None:
    if value:
        from importlib import metadata

        typer.echo(f"tashkalar {metadata.version('tashkalar-balance')}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Tash-Kalar balance: simulate games, run studies, report on cards and tasks."""


def _register_all() -> None:
    from sim import commands as sim_commands

    sim_commands.register(app)
    for module in ("strategies.commands", "pipelines.commands", "reports.commands", "reports.regression.commands"):
        try:
            mod = __import__(module, fromlist=["register"])
        except ModuleNotFoundError as e:
            if e.name != module:
                raise
            continue
        mod.register(app)


_register_all()
