"""Open one or more run datasets in DuckDB as views with a ``run`` column, refusing unusable ones clearly.

Each run directory holds ``<table>/*.parquet`` (one file per shard) for every table of
``pipelines.schema.TABLES`` and, optionally, the runner's ``manifest.json``. ``game_id`` is unique only
within a run, so the views add ``run`` (the run's position on the command line) and every join uses both.

Runs of older schema versions are read too (``reports.legacy``: versions 1 to today's): the columns later
versions added get their values in such a run and the tables they added are derived from its games. A run's
version is the one its manifest records, else its files' metadata, else the newest its games' columns fit; the
tables checked are those of that version, so a run is never asked for a table its version did not have.

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

from pipelines.compact import counted_blocks, dataset_files
from pipelines.schema import META_SCHEMA_VERSION, SCHEMA_VERSION, SUMMED, TABLES
from reports import legacy
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
    schema_version: int = SCHEMA_VERSION

    @property
    def label(self) -> str:
        return str(self.manifest.get("name") or self.path.name)

    @property
    def lacks(self) -> list[str]:
        """What this run's schema version lacks that the report would use."""
        return legacy.lacks(self.schema_version)


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


def _check_file(file: Path, table: str, version: int) -> int:
    """The file's row count, after checking that it is Parquet with the columns of the run's schema version."""
    try:
        meta = pq.read_metadata(file)
    except (OSError, ValueError) as e:
        raise DatasetError(f"{file}: not a readable Parquet file ({str(e).splitlines()[0]})") from None
    names = set(meta.schema.to_arrow_schema().names)
    expected = legacy.columns_of(table, version)
    missing = [c for c in expected if c not in names]
    if missing:
        raise DatasetError(f"{file}: not a {table} table of schema version {version} "
                           f"(missing columns: {', '.join(missing)})")
    later = [f.name for f in TABLES[table] if f.name in names and f.name not in expected]
    if later:
        raise DatasetError(f"{file}: has columns schema version {version} did not have ({', '.join(later)}); "
                           f"the files of {table}/ are of different schema versions")
    return meta.num_rows


def _schema_version(path: Path, manifest: dict[str, Any], games_file: Path) -> int:
    """The run's schema version: as its manifest records it, else its games file's metadata, else inferred
    from that file's columns; one this version cannot read is refused with the way forward."""
    declared: object = manifest.get("schema_version")
    where = path / "manifest.json"
    if declared is None:
        try:
            schema = pq.read_schema(games_file)
        except (OSError, ValueError) as e:
            raise DatasetError(f"{games_file}: not a readable Parquet file ({str(e).splitlines()[0]})") from None
        stored = (schema.metadata or {}).get(META_SCHEMA_VERSION)
        if stored is None:
            return legacy.infer_version(set(schema.names))
        declared, where = stored.decode(errors="replace"), games_file
    try:
        version = int(str(declared))
    except ValueError:
        raise DatasetError(f"{where}: schema_version: expected an integer, got {declared!r}") from None
    if version not in legacy.READ_VERSIONS:
        code = manifest.get("code_version")
        by = f" (tashkalar {code['package']})" if isinstance(code, dict) and code.get("package") else ""
        newer = "a newer tashkalar, or " if version > SCHEMA_VERSION else ""
        raise DatasetError(f"{path}: schema {version} run; this version reads {legacy.READ_VERSIONS.start} to "
                           f"{legacy.READ_VERSIONS.stop - 1}; report it with {newer}the version that wrote it{by}")
    return version


def _parquet_files(path: Path, table: str) -> list[Path]:
    """The table's files: one per shard, or per block of shards once a finished run is compacted (a block
    counts once its games file is written, and the shard files it covers are then left out)."""
    folder = path / table
    files = dataset_files(folder, counted_blocks(path)) if folder.is_dir() else []
    if not files:
        raise DatasetError(f"{path}: no Parquet files in {table}/ (is this a run directory, and has a shard "
                           "finished?)")
    return files


def find_run(path: Path, index: int) -> Run:
    """Check a run directory and list its files (the tables of its schema version); raises DatasetError saying
    what is wrong."""
    if not path.exists():
        raise DatasetError(f"{path}: no such run directory")
    if not path.is_dir():
        raise DatasetError(f"{path}: not a directory (expected a run directory with games/, "
                           "card_events/, ...)")
    manifest = _manifest(path)
    version = _schema_version(path, manifest, _parquet_files(path, "games")[0])
    files: dict[str, list[Path]] = dict.fromkeys(TABLES, [])  # a table of a later version: derived
    games = 0
    for table in legacy.tables_of(version):
        files[table] = _parquet_files(path, table)
        rows = sum(_check_file(f, table, version) for f in files[table])
        if table == "games":
            games = rows
    if games == 0:
        raise DatasetError(f"{path}: the dataset holds no games")
    return Run(index, path, files, games, manifest, version)


def _file_list(files: list[Path]) -> str:
    return "[" + ", ".join("'" + str(f).replace("'", "''") + "'" for f in files) + "]"


MIRRORS = "strategy_0 = strategy_1"  # both seats played by the same player: a strength level's games
DUELS, MELEES, TEAMS = "players = 2", "players > 2 AND NOT teams", "teams"


def table_relation(run: Run, table: str) -> str:
    """A SELECT of the table's columns over the run's files (an older run's absent columns filled in), or
    the table an older run gets from its other tables or (computed in Python) its own files."""
    derived = legacy.derived_table(table, run.schema_version)
    if derived is not None:
        if derived.compute is not None:
            return derived.sql.format(computed=computed_name(run, table))
        return derived.sql.format(**{t: table_relation(run, t) for t in derived.reads})
    filled = legacy.filled_columns(table, run.schema_version)
    columns = ", ".join(f"{filled[f.name]} AS {f.name}" if f.name in filled else f.name for f in TABLES[table])
    return f"SELECT {columns} FROM read_parquet({_file_list(run.files[table])})"


def computed_name(run: Run, table: str) -> str:
    """The name under which ``connect`` registers an older run's table computed in Python (reports.legacy)."""
    return f"legacy_{table}_{run.index}"


_AS_READ = ("games", "seat_results")  # the tables a computed table reads as the reader gives them (filled in)


def _register_computed(con: duckdb.DuckDBPyConnection, run: Run) -> None:
    import polars as pl  # only older runs need it: the report of a current run does without its import

    for table in TABLES:
        derived = legacy.derived_table(table, run.schema_version)
        if derived is not None and derived.compute is not None:
            # the tables read as their files hold them (a table the run has no files of: as the reader derives it)
            frames = {t: pl.scan_parquet([str(f) for f in run.files[t]]) if run.files[t] else
                      con.sql(table_relation(run, t)).pl().lazy() for t in derived.reads}
            frames |= {t: con.sql(table_relation(run, t)).pl().lazy() for t in _AS_READ}
            con.register(computed_name(run, table), derived.compute(frames))


def _game_filter(con: duckdb.DuckDBPyConnection, run: Run, conditions: list[str], unchanged: bool) -> str:
    """A WHERE clause keeping the run's games that meet ``conditions`` and, with ``unchanged``, only those
    of the unchanged card set ('' when it would keep every game). A condition every game meets is left out
    (most runs hold duels only)."""
    conditions = [*conditions, *(["variant = ''"] if unchanged else [])]
    failing = con.execute(f"SELECT {', '.join(f'count(*) FILTER (NOT ({c}))' for c in conditions)} "
                          f"FROM {ALL_GAMES} WHERE run = {run.index}").fetchone()
    kept = [c for c, n in zip(conditions, failing, strict=True) if n]
    if not kept:
        return ""
    return f" WHERE game_id IN (SELECT game_id FROM {ALL_GAMES} WHERE run = {run.index} AND {' AND '.join(kept)})"


def _summary_filter(conditions: list[str], unchanged: bool) -> str:
    """The WHERE clause of ``_game_filter`` for a summed table (pipelines.schema.SUMMED), whose rows are sums over
    games that share the columns these conditions read (a mirror: ``mirror``)."""
    conditions = [*conditions, *(["variant = ''"] if unchanged else [])]
    return " WHERE " + " AND ".join(f"({'mirror' if c == MIRRORS else c})" for c in conditions)


ALL_GAMES = "every_game"  # the runs' games, read once into memory: every part of the report reads them


def open_dataset(runs: list[Run]) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB over the runs' files, opened once for the whole report: per run and table a view
    ``<table>_run<N>`` (with ``run``), the games read into memory. Then ``select_games`` makes the views the
    queries read."""
    con = duckdb.connect(":memory:")
    con.execute("SET parquet_metadata_cache = true")
    for run in runs:
        _register_computed(con, run)
    con.execute(f"CREATE VIEW {ALL_GAMES} AS " + " UNION ALL ".join(
        f"SELECT {run.index}::USMALLINT AS run, * FROM ({table_relation(run, 'games')})" for run in runs))
    for run in runs:
        for table in TABLES:
            body = (f"SELECT * FROM {ALL_GAMES} WHERE run = {run.index}" if table == "games" else
                    f"SELECT {run.index}::USMALLINT AS run, * FROM ({table_relation(run, table)})")
            con.execute(f"CREATE VIEW {table}_run{run.index} AS {body}")
    return con


def select_games(con: duckdb.DuckDBPyConnection, runs: list[Run], mirrors_only: bool = False,
                 melee: bool = False, teams: bool = False) -> None:
    """(Re)make the views the queries read, one per table over all runs of ``open_dataset``'s connection.

    The views hold the duels of the unchanged card set (with ``melee``, the 3-4 player melees instead; with
    ``teams``, the team games);
    ``<table>_all`` views hold them all, ablation arms included (``games.variant``). With ``mirrors_only``,
    both keep only the games whose two seats were played by the same player (the strength levels' games,
    docs/reports.md)."""
    games = [TEAMS] if teams else [MELEES] if melee else [DUELS, MIRRORS] if mirrors_only else [DUELS]
    filters = {
        "": {run.index: _game_filter(con, run, games, unchanged=True) for run in runs},
        "_all": {run.index: _game_filter(con, run, games, unchanged=False) for run in runs},
    }
    for table in TABLES:
        for suffix, by_run in filters.items():
            where = {run.index: _summary_filter(games, suffix == "") if table in SUMMED else by_run[run.index]
                     for run in runs}
            con.execute(f"CREATE OR REPLACE VIEW {table}{suffix} AS " + " UNION ALL ".join(
                f"SELECT * FROM {table}_run{run.index}{where[run.index]}" for run in runs))


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
    con = open_dataset(runs)
    select_games(con, runs)
    return runs, con
