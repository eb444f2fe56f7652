"""The ``tashkalar`` command line. Each area adds its commands from its own module.

One grammar for every command (docs/cli.md): help names a value by its metavar (``N``, ``RUN_DIR``), never
by a raw type label such as ``<int>``; a flag shows no value. ``App`` gives every command that help.
"""

from __future__ import annotations

from typing import Annotated, Any

from pipelines.interrupts import exit_on_stop_signals

exit_on_stop_signals()  # before the slow imports: a signal at any moment ends a command with one line

import typer  # noqa: E402
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption  # noqa: E402

RENAMED = {"--mode": ("--form", "--forms")}  # an old option: the names that replaced it (the study file's word)


def value_label(param: TyperOption | TyperArgument) -> str | None:
    """How help names a parameter's value: its metavar, else its name in capitals; nothing for a flag, nor
    for an argument (its name column already shows its metavar)."""
    if isinstance(param, TyperArgument) or param.is_flag or param.count:
        return None
    return param.metavar or (param.name or "").upper()


class _Option(TyperOption):
    def display_type_rich(self, ctx: Any) -> str | None:
        return value_label(self)


class _Argument(TyperArgument):
    def display_type_rich(self, ctx: Any) -> str | None:
        return value_label(self)


def _plain(params: list[Any]) -> list[Any]:
    """Typer builds its own parameter classes: give them this app's help labels."""
    for p in params:
        if type(p) is TyperOption:
            p.__class__ = _Option
        elif type(p) is TyperArgument:
            p.__class__ = _Argument
    return params


class Command(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _plain(super().get_params(ctx))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        names = {o for p in self.params for o in getattr(p, "opts", ())}
        for arg in args:
            if arg == "--":
                break
            new = [n for n in RENAMED.get(arg.split("=")[0], ()) if n in names]
            if new:
                typer.echo(f"error: {arg.split('=')[0]} is now {new[0]} (the study file's word)", err=True)
                raise typer.Exit(2)
        return super().parse_args(ctx, args)


class Group(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _plain(super().get_params(ctx))


class App(typer.Typer):
    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cls", Command)
        return super().command(*args, **kwargs)


app = App(cls=Group, no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]},
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
    for module in ("strategies.commands", "pipelines.commands", "pipelines.balance.command", "reports.commands",
                   "reports.regression.commands"):
        try:
            mod = __import__(module, fromlist=["register"])
        except ModuleNotFoundError as e:
            if e.name != module:
                raise
            continue
        mod.register(app)


_register_all()
