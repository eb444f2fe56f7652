"""The schema versions the report reads, and how an older run's absent columns and tables are filled in.

``pipelines.schema`` declares only today's tables. This module declares, per version, what that version
added; a run of an older version gets each later column as a constant (its value in every game such a run
could hold: a schema 2 run has no melees, so ``players`` is 2) and each later table derived from its games.
The summed tables (version 7: seat_cards, deck_positions and seat_tasks, summed within each shard) are computed on
the fly for an older run, by the code the shard writer runs (pipelines/summaries.py), and held in memory while the
report runs: from its per-game seat_cards files (version 6) or its card events and points (before version 6: read
all again, as every report did then), its deck_order and its task events. Only one
addition cannot be filled in exactly: a schema 1 run has no ``deck_order`` (the setup shuffle was not recorded), so
its games give no position estimates; ``lacks`` says so for the report's header.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pipelines.schema import SCHEMA_VERSION, SEAT_CARD_ROWS, TABLES

if TYPE_CHECKING:  # the computing functions import Polars (through pipelines.summaries) when an older run needs them
    import polars as pl
    import pyarrow as pa

OLDEST_READ = 1
READ_VERSIONS = range(OLDEST_READ, SCHEMA_VERSION + 1)


@dataclass(frozen=True)
class DerivedTable:
    """A table a version added, made from an older run's tables (``{games}`` is its games relation, and so on
    for each table of ``reads``), its columns in the order of pipelines.schema (the views of several runs are
    unions by position)."""

    sql: str
    lacks: str = ""  # what an older run loses by it; "" when the derived table is exact
    reads: tuple[str, ...] = ("games",)
    # a table computed in Python, which ``sql`` reads as ``{computed}``, from the frames of the run's tables by
    # name: those of ``reads`` as their files hold them, games and seat_results as the reader gives them
    compute: Callable[[dict[str, pl.LazyFrame]], pa.Table] | None = None


def _seats(frames: dict[str, pl.LazyFrame]) -> pl.LazyFrame:
    from pipelines import summaries

    return summaries.seats(frames["games"], frames["seat_results"])


def _cards_from_events(frames: dict[str, pl.LazyFrame]) -> pa.Table:
    import polars as pl

    from pipelines import summaries

    rows = pl.from_arrow(summaries.summarize(frames["card_events"], frames["points"])).lazy()
    return summaries.seat_cards(rows, frames["flare_events"], _seats(frames))


def _cards_from_rows(frames: dict[str, pl.LazyFrame]) -> pa.Table:
    from pipelines import summaries

    return summaries.seat_cards(frames["seat_cards"], frames["flare_events"], _seats(frames))


def _positions_from_order(frames: dict[str, pl.LazyFrame]) -> pa.Table:
    from pipelines import summaries

    return summaries.deck_positions(frames["deck_order"], _seats(frames))


def _tasks_from_events(frames: dict[str, pl.LazyFrame]) -> pa.Table:
    from pipelines import summaries

    return summaries.seat_tasks(frames["task_events"], _seats(frames))


# The columns each version added, with their value in a run of an older version.
COLUMNS_ADDED: dict[int, dict[str, dict[str, str]]] = {
    2: {"games": {"variant": "''", "variant_seat": "-1::TINYINT"}},
    3: {"games": {"players": "2::TINYINT"}, "flare_events": {"against": "-1::TINYINT"},
        "points": {"colour": "-1::TINYINT"}},
    4: {"games": {"teams": "false"}, "seat_results": {"team": "seat"}},
}

_NO_ROWS = "FROM ({games}) WHERE false"
# The tables each version added.
TABLES_ADDED: dict[int, dict[str, DerivedTable]] = {
    2: {"deck_order": DerivedTable(
        f"SELECT game_id, 0::TINYINT AS seat, '' AS card_id, 0::TINYINT AS position {_NO_ROWS}",
        "no deck_order table (the setup shuffle was not recorded), so its games give no position "
        "(dose-response) estimates")},
    3: {"seat_results": DerivedTable("""SELECT game_id, s::TINYINT AS seat, s::TINYINT AS team,
            CASE s WHEN 0 THEN deck_0 ELSE deck_1 END AS deck,
            CASE s WHEN 0 THEN strategy_0 ELSE strategy_1 END AS strategy,
            ((s - first_player + 2) % 2)::TINYINT AS position,
            CASE s WHEN 0 THEN score_0 ELSE score_1 END AS score,
            (CASE WHEN winner IN (-1, s) THEN 1 ELSE 2 END)::TINYINT AS place, 0::TINYINT AS improvised
            FROM ({games}) CROSS JOIN (VALUES (0), (1)) AS seat_numbers(s)"""),
        "colour_points": DerivedTable(
            f"SELECT game_id, 0::TINYINT AS seat, 0::TINYINT AS colour, 0::SMALLINT AS points, false AS lowest "
            f"{_NO_ROWS}")},
    4: {"pass_control": DerivedTable(
        f"SELECT game_id, 0::SMALLINT AS turn, 0::TINYINT AS seat, 0::TINYINT AS to_seat, '' AS during {_NO_ROWS}")},
    6: {"seat_cards": DerivedTable("SELECT * FROM {computed}", reads=("card_events", "points", "flare_events"),
                                   compute=_cards_from_events)},
    7: {"deck_positions": DerivedTable("SELECT * FROM {computed}", reads=("deck_order",),
                                       compute=_positions_from_order),
        "seat_tasks": DerivedTable("SELECT * FROM {computed}", reads=("task_events",), compute=_tasks_from_events)},
}
# The tables whose rows a version changed (their grain), with the columns of the older versions' files and the
# table computed from them.
TABLES_REGRAINED: dict[int, dict[str, tuple[list[str], DerivedTable]]] = {
    7: {"seat_cards": (SEAT_CARD_ROWS.names, DerivedTable(
        "SELECT * FROM {computed}", reads=("seat_cards", "flare_events"), compute=_cards_from_rows))},
}


def _added_after(version: int) -> list[int]:
    return [v for v in sorted(COLUMNS_ADDED.keys() | TABLES_ADDED.keys()) if v > version]


def _regrained(table: str, version: int) -> tuple[list[str], DerivedTable] | None:
    """The older columns and the derived table of ``table`` when a version after ``version`` changed its rows."""
    return next((t[table] for v, t in sorted(TABLES_REGRAINED.items()) if v > version and table in t), None)


def tables_of(version: int) -> list[str]:
    """The tables a run of ``version`` has files for, in the order of pipelines.schema."""
    later = {t for v in _added_after(version) for t in TABLES_ADDED.get(v, {})}
    return [t for t in TABLES if t not in later]


def filled_columns(table: str, version: int) -> dict[str, str]:
    """The columns of ``table`` a run of ``version`` lacks, with the value the reader gives them."""
    return {c: value for v in _added_after(version) for c, value in COLUMNS_ADDED.get(v, {}).get(table, {}).items()}


def columns_of(table: str, version: int) -> list[str]:
    """The columns a ``version`` file of ``table`` must hold."""
    if (regrained := _regrained(table, version)) is not None:
        return regrained[0]
    filled = filled_columns(table, version)
    return [f.name for f in TABLES[table] if f.name not in filled]


def derived_table(table: str, version: int) -> DerivedTable | None:
    """How a run of ``version`` gets ``table`` when its files do not hold today's: made from its other tables
    (a table a later version added) or from its own files (one whose rows a later version changed); None
    when they do."""
    if table not in tables_of(version):
        return next(added[table] for added in TABLES_ADDED.values() if table in added)
    regrained = _regrained(table, version)
    return regrained[1] if regrained is not None else None


def lacks(version: int) -> list[str]:
    """What a run of ``version`` lacks that the report would use (empty for today's version)."""
    return [d.lacks for v in _added_after(version) for d in TABLES_ADDED.get(v, {}).values() if d.lacks]


def infer_version(columns: set[str]) -> int:
    """The newest version whose games columns are all among ``columns``, for a run without a manifest or file
    metadata to say (the newest version when none fits, so that the check names what is missing)."""
    fits = [v for v in READ_VERSIONS if set(columns_of("games", v)) <= columns]
    return max(fits, default=SCHEMA_VERSION)
