"""Options shared by the commands, so the same option means the same thing everywhere (docs/cli.md).

``--workers N``: at least 1; leaving it out means one per core (there is no ``0`` for "all"). ``--games N``:
at least 1. Out-of-range values are user errors (``error: ...``, exit status 2), like every other mistake.
``--json``: a flag; the command prints one JSON document on stdout and nothing else there. ``--decks``: one
game's decks by seat joined with ``-`` (``imperial-sylvan``); commas separate the games' pairings or tables
where a command takes several.
"""

from __future__ import annotations

import dataclasses
import json
import math
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.errors import UserError

CardsOpt = Annotated[Path | None, typer.Option(
    "--cards", metavar="CARDS_DIR", help="a card-set directory", show_default="the built-in cards")]
HistoryDbOpt = Annotated[Path | None, typer.Option(
    "--db", metavar="FILE.duckdb", help="the history database",
    show_default="$TASHKALAR_HISTORY, else ~/.local/share/tashkalar/history.duckdb")]
AddressOpt = Annotated[str | None, typer.Option(
    envvar="RAY_ADDRESS", metavar="HOST:PORT", help="an existing Ray cluster to run on; without it, Ray starts "
                                                    "locally")]


def at_least(option: str, value: int | None, minimum: int = 1) -> int | None:
    """``value`` if it is at least ``minimum`` (None, the option left out, passes); a UserError otherwise."""
    if value is not None and value < minimum:
        raise UserError(f"{option}: expected an integer of at least {minimum}, got {value}")
    return value


def table_decks(text: str, option: str = "--decks") -> tuple[str, ...]:
    """One game's decks by seat from ``imperial-sylvan`` (a table: ``imperial-sylvan-highland``)."""
    if "," in text:
        raise UserError(f"{option}: one game's decks are joined with '-', e.g. imperial-sylvan (commas separate "
                        f"several pairings, as in bench and ladder), got {text!r}")
    names = tuple(n.strip() for n in text.split("-"))
    if not all(names):
        raise UserError(f"{option}: expected deck names joined with '-', e.g. imperial-sylvan, got {text!r}")
    return names


def json_flag(what: str) -> Any:
    """The ``--json`` option of every command that has one."""
    return typer.Option(False, "--json", help=f"print {what} as one JSON document on stdout, and nothing else "
                                              "there (docs/cli.md)")


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None  # JSON has no infinity: an undefined figure
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def print_json(value: Any) -> None:
    """``value`` (dicts, lists, dataclasses, paths) as one JSON document on stdout."""
    typer.echo(json.dumps(_plain(value), indent=1))
