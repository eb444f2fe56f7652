"""The ``tashkalar`` command line. Each area adds its commands from its own module."""

from __future__ import annotations

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Tash-Kalar balance: simulate games, run studies, report on cards and tasks.")


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
