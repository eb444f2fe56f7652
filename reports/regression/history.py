"""The history database: every finished run's summary metrics, in one DuckDB file.

Each metric row carries its kind (randomized, ablation, controlled or descriptive: see
reports/regression/summary.py), its value, 95% interval, sample and, where tested, its detectable effect.
Each run row carries what the run was (study name and identity, card-set fingerprint, strategies, code
version), so a metric's history can be read within one study and never mixes unrelated studies.

DuckDB lets one process write a database file at a time, so writers take an exclusive file lock (a
``.lock`` file beside the database) around each write transaction; readers take it too, since a
DuckDB file cannot be opened while another process holds it for writing.
"""

from __future__ import annotations

import os
import re
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
from filelock import FileLock, Timeout

from reports.dataset import find_run
from reports.regression.identity import code_label, strategies_label, study_id
from reports.regression.summary import Metric, run_metrics
from reports.stats import wilson
from sim.errors import UserError

LOCK_TIMEOUT_S = 30.0


class HistoryError(UserError):
    """The history database cannot be used (locked by another process, damaged, not a DuckDB file)."""


@dataclass(frozen=True)
class RunIdentity:
    """What a recorded run was: enough to keep unrelated studies apart in the history."""

    study_name: str
    study_id: str
    card_set: str
    strategies: str
    code_version: str

    @classmethod
    def of_manifest(cls, manifest: dict[str, Any]) -> RunIdentity:
        return cls(str(manifest.get("name", "")), study_id(manifest),
                   str(manifest.get("card_set", {}).get("fingerprint", "")), strategies_label(manifest),
                   code_label(manifest))


@dataclass(frozen=True)
class HistoryRow:
    recorded_at: datetime
    run_path: str
    metric: str
    kind: str
    mode: str
    subject: str
    context: str
    value: float | None
    low: float | None
    high: float | None
    n: int | None
    mde: float | None
    successes: int | None
    trials: int | None
    study_name: str | None
    study_id: str | None
    card_set: str | None
    strategies: str | None
    code_version: str | None

SCHEMA_SQL = Path(__file__).with_name("history_schema.sql")
HISTORY_SQL = Path(__file__).with_name("history_query.sql")
METRIC_COLUMNS = ("run_id", "metric", "mode", "subject", "successes", "trials", "kind", "context", "value", "low",
                  "high", "n", "mde")
# The columns added after a table's first version, by table: (name, type), read off the schema's ALTER lines.
ADDED_COLUMNS = re.compile(r"ALTER TABLE (\w+) ADD COLUMN IF NOT EXISTS (\w+) (\w+)")


def default_history_path() -> Path:
    """``$TASHKALAR_HISTORY``, else ``~/.local/share/tashkalar/history.duckdb``."""
    env = os.environ.get("TASHKALAR_HISTORY")
    if env:
        return Path(env)
    return Path.home() / ".local" / "share" / "tashkalar" / "history.duckdb"


def _connect(db: Path, *, read_only: bool) -> duckdb.DuckDBPyConnection:
    try:
        return duckdb.connect(str(db), read_only=read_only)
    except duckdb.Error as e:
        raise HistoryError(f"{db}: cannot open the history database ({_first_line(e)}); "
                           "move it aside to start a new one") from None


def _lock(db: Path, timeout: float) -> FileLock:
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise HistoryError(f"{db.parent}: cannot create the history directory ({e.strerror})") from None
    return FileLock(str(db) + ".lock", timeout=timeout)


def _acquire(lock: FileLock, db: Path) -> None:
    try:
        lock.acquire()
    except Timeout:
        raise HistoryError(f"{db}: locked by another process for more than {lock.timeout:.0f} s") from None
    except OSError as e:
        raise HistoryError(f"{db}: cannot take the lock {lock.lock_file} ({e.strerror})") from None


def record_metrics(db: Path, run_path: str, metrics: list[Metric], identity: RunIdentity,
                   when: datetime | None = None) -> str:
    """Store one run's metrics in a single transaction; returns the new run id."""
    run_id = uuid.uuid4().hex[:12]
    when = when or datetime.now(UTC).replace(tzinfo=None)
    lock = _lock(db, LOCK_TIMEOUT_S)
    _acquire(lock, db)
    try:
        con = _connect(db, read_only=False)
        try:
            con.execute(SCHEMA_SQL.read_text())
            con.execute("BEGIN TRANSACTION")
            con.execute("INSERT INTO runs BY NAME SELECT ? AS run_id, ? AS run_path, ? AS recorded_at, "
                        "? AS study_name, ? AS study_id, ? AS card_set, ? AS strategies, ? AS code_version",
                        [run_id, run_path, when, identity.study_name, identity.study_id, identity.card_set,
                         identity.strategies, identity.code_version])
            if metrics:
                con.executemany(
                    f"INSERT INTO metrics ({', '.join(METRIC_COLUMNS)}) "
                    f"VALUES ({', '.join('?' * len(METRIC_COLUMNS))})",
                    [[run_id, m.metric, m.mode, m.subject, m.successes, m.trials, m.kind, m.context, m.value, m.low,
                      m.high, m.n, m.mde] for m in metrics],
                )
            con.execute("COMMIT")
        except duckdb.Error as e:
            raise HistoryError(f"{db}: cannot write to the history database ({_first_line(e)})") from None
        finally:
            con.close()
    finally:
        lock.release()
    return run_id


def record_run(run_dir: Path | str, db: Path | None = None) -> str:
    """Compute a finished run's summary metrics and add them, with what the run was, to the history."""
    run = find_run(Path(run_dir), 0)
    return record_metrics(db or default_history_path(), str(run.path.resolve()), run_metrics(run_dir),
                          RunIdentity.of_manifest(run.manifest))


def record_run_or_warn(run_dir: Path, db: Path | None = None) -> str:
    """Record a finished run; a failure is a warning, never a failed run (the games are already played).

    Returns the line to print: where it was recorded, or the warning with the command that records it later.
    """
    where = db or default_history_path()
    try:
        record_run(run_dir, where)
    except UserError as e:
        return (f"warning: the run is complete, but its metrics were not recorded in the history: {e}\n"
                f"record them later with: tashkalar history --record {run_dir} --db {where}")
    return f"recorded the run's summary metrics in {where}"


def metric_history(db: Path, subject: str | None = None, metric: str | None = None, mode: str | None = None,
                   study: str | None = None) -> list[HistoryRow]:
    """Recorded metrics for one subject and/or one study (name or id), oldest first within a study."""
    if not db.exists():
        return []
    params = [subject, subject, metric, metric, mode, mode, study, study, study]
    lock = _lock(db, LOCK_TIMEOUT_S)
    _acquire(lock, db)
    try:
        con = _connect(db, read_only=True)
        try:
            rows = con.execute(_older_tables_view(con) + HISTORY_SQL.read_text(), params).fetchall()
        except duckdb.Error as e:
            raise HistoryError(f"{db}: not a history database this version can read ({_first_line(e)})") from None
        finally:
            con.close()
    finally:
        lock.release()
    return [_with_interval(HistoryRow(*row)) for row in rows]


def _with_interval(row: HistoryRow) -> HistoryRow:
    """A rate recorded before metrics carried their interval gets its Wilson interval from its counts."""
    if row.low is not None or row.successes is None or row.trials is None:
        return row
    low, high = wilson(row.successes, row.trials)
    return replace(row, low=low, high=high)


def _older_tables_view(con: duckdb.DuckDBPyConnection) -> str:
    """``runs`` and ``metrics`` views with NULL for the columns a database recorded before they existed lacks
    (the schema's ALTER ... ADD COLUMN lines), so that an older database reads without being changed."""
    present: dict[str, set[str]] = {}
    for table, column in con.execute("SELECT table_name, column_name FROM information_schema.columns").fetchall():
        present.setdefault(table, set()).add(column)
    missing: dict[str, list[str]] = {}
    for table, column, kind in ADDED_COLUMNS.findall(SCHEMA_SQL.read_text()):
        if column not in present.get(table, set()):
            missing.setdefault(table, []).append(f"NULL::{kind} AS {column}")
    if not missing:
        return ""
    return "WITH " + ", ".join(f"{table} AS (SELECT *, {', '.join(nulls)} FROM main.{table})"
                               for table, nulls in missing.items()) + " "


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
