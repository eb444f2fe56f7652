"""Open one or more run datasets in DuckDB as views with a ``run`` column, refusing unusable ones clearly.

Each run directory holds ``<table>/*.parquet`` (one file per shard) for every table of
``pipelines.schema.TABLES`` and, optionally, the runner's ``manifest.json``. ``game_id`` is unique only
within a run, so the views add ``run`` (the run's position on the command line) and every join uses both.

Runs of schema versions 2 (before the melee) and 3 (before team games) are read too: the columns later versions
added get their values in such a run (``LEGACY_COLUMNS``) and the tables they added are derived from the games
(``LEGACY_TABLES``).

The views hold either the duels (``games.players = 2``) every section of the report was written for, or
the 3-4 player melees, or the team games (``games.teams``, 2 against 2), which the report's melee and team
sections read apart (docs/reports.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq

from pipelines.schema import TABLES
from sim.errors import UserError


class DatasetError(UserError):
    """A run directory that cannot be reported on: missing, empty, corrupt or of another schema."""


@dataclass
class Run:
    index: int
    path: Path
    files: dict[str, list[Path]]
    games: int
    manifest: dict[str, Any] = field(default_factory=dict)
    missing: dict[str, set[str]] = field(default_factory=dict)  # an older run's absent columns, by table

    @property
    def label(self) -> str:
        return str(self.manifest.get("name") or self.path.name)


# Columns added in schema versions 3 and 4, with their value in an older run (version 2: duels only; 3: no
# team games).
LEGACY_COLUMNS: dict[str, dict[str, str]] = {
    "games": {"players": "2::TINYINT", "teams": "false"},
    "seat_results": {"team": "seat"},
    "flare_events": {"against": "-1::TINYINT"},
    "points": {"colour": "-1::TINYINT"},
}
# Tables added in schema versions 3 and 4, made from an older run's games ({games} is its games relation), their
# columns in the order of pipelines.schema (the views of several runs are unions by position).
LEGACY_TABLES: dict[str, str] = {
    "seat_results": """SELECT game_id, s::TINYINT AS seat, s::TINYINT AS team,
        CASE s WHEN 0 THEN deck_0 ELSE deck_1 END AS deck,
        CASE s WHEN 0 THEN strategy_0 ELSE strategy_1 END AS strategy,
        ((s - first_player + 2) % 2)::TINYINT AS position,
        CASE s WHEN 0 THEN score_0 ELSE score_1 END AS score,
        (CASE WHEN winner IN (-1, s) THEN 1 ELSE 2 END)::TINYINT AS place, 0::TINYINT AS improvised
        FROM ({games}) CROSS JOIN (VALUES (0), (1)) AS seat_numbers(s)""",
    "colour_points": """SELECT game_id, 0::TINYINT AS seat, 0::TINYINT AS colour, 0::SMALLINT AS points,
        false AS lowest FROM ({games}) WHERE false""",
    "pass_control": """SELECT game_id, 0::SMALLINT AS turn, 0::TINYINT AS seat, 0::TINYINT AS to_seat, '' AS during
        FROM ({games}) WHERE false""",
}


def _manifest(path: Path) -> dict[str, Any]:
    file = path / "manifest.json"
    if not file.exists():
        return {}
    try:
        data = json.loads(file.read_text())
    except (OSError, ValueError) as e:
        raise DatasetError(f"{file}: not readable JSON ({e})") from None
    if not isinstance(data, dict):
        raise DatasetError(f"{file}: expected a JSON object")
    return data


def _check_file(file: Path, table: str) -> tuple[int, set[str]]:
    """The file's row count and the columns an older schema lacks, after checking that it is Parquet with
    the table's columns."""
    try:
        meta = pq.read_metadata(file)
    except (OSError, ValueError) as e:
        raise DatasetError(f"{file}: not a readable Parquet file ({str(e).splitlines()[0]})") from None
    names = set(meta.schema.to_arrow_schema().names)
    missing = [f.name for f in TABLES[table] if f.name not in names]
    if any(m not in LEGACY_COLUMNS.get(table, {}) for m in missing):
        raise DatasetError(f"{file}: not a {table} table of this schema "
                           f"(missing columns: {', '.join(missing)})")
    return meta.num_rows, set(missing)


def find_run(path: Path, index: int) -> Run:
    """Check a run directory and list its files; raises DatasetError saying what is wrong."""
    if not path.exists():
        raise DatasetError(f"{path}: no such run directory")
    if not path.is_dir():
        raise DatasetError(f"{path}: not a directory (expected a run directory with games/, "
                           "card_events/, ...)")
    files: dict[str, list[Path]] = {}
    missing: dict[str, set[str]] = {}
    games = 0
    for table in TABLES:
        folder = path / table
        files[table] = sorted(folder.glob("*.parquet")) if folder.is_dir() else []
        if not files[table]:
            if table in LEGACY_TABLES and missing.get("games"):
                continue  # a run of schema version 2: derived from its games
            raise DatasetError(f"{path}: no Parquet files in {table}/ (is this a run directory, and "
                               "has a shard finished?)")
        checked = [_check_file(f, table) for f in files[table]]
        gaps = {frozenset(m) for _, m in checked}
        if len(gaps) > 1:
            raise DatasetError(f"{path}: the files of {table}/ are of different schema versions")
        missing[table] = set(gaps.pop())
        if table == "games":
            games = sum(rows for rows, _ in checked)
    if games == 0:
        raise DatasetError(f"{path}: the dataset holds no games")
    return Run(index, path, files, games, _manifest(path), {t: m for t, m in missing.items() if m})


def _file_list(files: list[Path]) -> str:
    return "[" + ", ".join("'" + str(f).replace("'", "''") + "'" for f in files) + "]"


MIRRORS = "strategy_0 = strategy_1"  # both seats played by the same player: a strength level's games
DUELS, MELEES, TEAMS = "players = 2", "players > 2 AND NOT teams", "teams"


def _relation(run: Run, table: str, option: str = "") -> str:
    """A SELECT of the table's columns over the run's files (an older run's absent columns filled in), or
    the table derived from an older run's games."""
    if not run.files[table]:
        return LEGACY_TABLES[table].format(games=_relation(run, "games"))
    absent = run.missing.get(table, set())
    columns = ", ".join(f"{LEGACY_COLUMNS[table][f.name]} AS {f.name}" if f.name in absent else f.name
                        for f in TABLES[table])
    extra = ", file_row_number AS seq" if option else ""
    return f"SELECT {columns}{extra} FROM read_parquet({_file_list(run.files[table])}{option})"


def _game_filter(con: duckdb.DuckDBPyConnection, run: Run, conditions: list[str], unchanged: bool) -> str:
    """A WHERE clause keeping the run's games that meet ``conditions`` and, with ``unchanged``, only those
    of the unchanged card set ('' when it would keep every game). A condition every game meets is left out
    (most runs hold duels only)."""
    games = _relation(run, "games")
    kept = []
    for condition in [*conditions, *(["variant = ''"] if unchanged else [])]:
        if con.execute(f"SELECT count(*) FROM ({games}) WHERE NOT ({condition})").fetchone()[0]:
            kept.append(condition)
    if not kept:
        return ""
    return f" WHERE game_id IN (SELECT game_id FROM ({games}) WHERE {' AND '.join(kept)})"


def connect(runs: list[Run], threads: int | None = None, mirrors_only: bool = False,
            melee: bool = False, teams: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with one view per table over all runs; ``task_events`` also has ``seq``, the
    event's row number in its file (events are written in game order and a game lies in one file).

    The views hold the duels of the unchanged card set (with ``melee``, the 3-4 player melees instead; with
    ``teams``, the team games);
    ``<table>_all`` views hold them all, ablation arms included (``games.variant``). With ``mirrors_only``,
    both keep only the games whose two seats were played by the same player (the strength levels' games,
    docs/reports.md)."""
    con = duckdb.connect(":memory:")
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    games = [TEAMS] if teams else [MELEES] if melee else [DUELS, MIRRORS] if mirrors_only else [DUELS]
    filters = {
        "": {run.index: _game_filter(con, run, games, unchanged=True) for run in runs},
        "_all": {run.index: _game_filter(con, run, games, unchanged=False) for run in runs},
    }
    for table in TABLES:
        option = ", file_row_number = true" if table == "task_events" else ""
        parts = {run.index: f"SELECT {run.index}::USMALLINT AS run, * FROM ({_relation(run, table, option)})"
                 for run in runs}
        for suffix, by_run in filters.items():
            con.execute(f"CREATE VIEW {table}{suffix} AS " + " UNION ALL ".join(
                parts[run.index] + by_run[run.index] for run in runs))
    return con


def open_runs(paths: list[Path]) -> tuple[list[Run], duckdb.DuckDBPyConnection]:
    if not paths:
        raise DatasetError("no run directory given")
    runs = [find_run(p, i) for i, p in enumerate(paths)]
    seen: dict[Path, Path] = {}
    for run in runs:
        real = run.path.resolve()
        if real in seen:
            raise DatasetError(f"{run.path}: given twice (as {seen[real]}); its games would count double")
        seen[real] = run.path
    return runs, connect(runs)
