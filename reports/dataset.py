"""Open one or more run datasets in DuckDB as views with a ``run`` column, refusing unusable ones clearly.

Each run directory holds ``<table>/*.parquet`` (one file per shard) for every table of
``pipelines.schema.TABLES`` and, optionally, the runner's ``manifest.json``. ``game_id`` is unique only
within a run, so the views add ``run`` (the run's position on the command line) and every join uses both.
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

    @property
    def label(self) -> str:
        return str(self.manifest.get("name") or self.path.name)


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


def _check_file(file: Path, table: str) -> int:
    """The file's row count, after checking that it is Parquet with the table's columns."""
    try:
        meta = pq.read_metadata(file)
    except (OSError, ValueError) as e:
        raise DatasetError(f"{file}: not a readable Parquet file ({str(e).splitlines()[0]})") from None
    names = set(meta.schema.to_arrow_schema().names)
    missing = [f.name for f in TABLES[table] if f.name not in names]
    if missing:
        raise DatasetError(f"{file}: not a {table} table of this schema "
                           f"(missing columns: {', '.join(missing)})")
    return meta.num_rows


def find_run(path: Path, index: int) -> Run:
    """Check a run directory and list its files; raises DatasetError saying what is wrong."""
    if not path.exists():
        raise DatasetError(f"{path}: no such run directory")
    if not path.is_dir():
        raise DatasetError(f"{path}: not a directory (expected a run directory with games/, "
                           "card_events/, ...)")
    files: dict[str, list[Path]] = {}
    games = 0
    for table in TABLES:
        folder = path / table
        files[table] = sorted(folder.glob("*.parquet")) if folder.is_dir() else []
        if not files[table]:
            raise DatasetError(f"{path}: no Parquet files in {table}/ (is this a run directory, and "
                               "has a shard finished?)")
        rows = sum(_check_file(f, table) for f in files[table])
        if table == "games":
            games = rows
    if games == 0:
        raise DatasetError(f"{path}: the dataset holds no games")
    return Run(index, path, files, games, _manifest(path))


def _file_list(files: list[Path]) -> str:
    return "[" + ", ".join("'" + str(f).replace("'", "''") + "'" for f in files) + "]"


MIRRORS = "strategy_0 = strategy_1"  # both seats played by the same player: a strength level's games


def _game_filter(con: duckdb.DuckDBPyConnection, run: Run, conditions: list[str], unchanged: bool) -> str:
    """A WHERE clause keeping the run's games that meet ``conditions`` and, with ``unchanged``, only those
    of the unchanged card set ('' when it would keep every game)."""
    games = _file_list(run.files["games"])
    if unchanged and con.execute(f"SELECT count(*) FROM read_parquet({games}) WHERE variant <> ''").fetchone()[0]:
        conditions = [*conditions, "variant = ''"]
    if not conditions:
        return ""
    return f" WHERE game_id IN (SELECT game_id FROM read_parquet({games}) WHERE {' AND '.join(conditions)})"


def connect(runs: list[Run], threads: int | None = None, mirrors_only: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with one view per table over all runs; ``task_events`` also has ``seq``, the
    event's row number in its file (events are written in game order and a game lies in one file).

    The views hold the games of the unchanged card set; ``<table>_all`` views hold every game, ablation
    arms included (``games.variant``). With ``mirrors_only``, both keep only the games whose two seats
    were played by the same player (the strength levels' games, docs/reports.md)."""
    con = duckdb.connect(":memory:")
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    conditions = [MIRRORS] if mirrors_only else []
    filters = {run.index: _game_filter(con, run, conditions, unchanged=True) for run in runs}
    all_filters = {run.index: _game_filter(con, run, conditions, unchanged=False) for run in runs}
    for table, schema in TABLES.items():
        columns = ", ".join(f.name for f in schema)
        extra = ", file_row_number AS seq" if table == "task_events" else ""
        option = ", file_row_number = true" if table == "task_events" else ""
        parts = [f"SELECT {run.index}::USMALLINT AS run, {columns}{extra} "
                 f"FROM read_parquet({_file_list(run.files[table])}{option})" for run in runs]
        for view, by_run in ((f"{table}_all", all_filters), (table, filters)):
            con.execute(f"CREATE VIEW {view} AS " + " UNION ALL ".join(
                part + by_run[run.index] for part, run in zip(parts, runs, strict=True)))
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
