"""The history database: every finished run's summary metrics, in one DuckDB file.

DuckDB lets one process write a database file at a time, so writers take an exclusive file lock (a
``.lock`` file beside the database) around each write transaction; readers take it too, since a
DuckDB file cannot be opened while another process holds it for writing.
"""

from __future__ import annotations

import os
import uuid
from datetime import UTC, datetime
from pathlib import Path

import duckdb
from filelock import FileLock

from reports.regression.summary import Metric, run_metrics

SCHEMA_SQL = Path(__file__).with_name("history_schema.sql")
HISTORY_SQL = Path(__file__).with_name("history_query.sql")


def default_history_path() -> Path:
    """``$TASHKALAR_HISTORY``, else ``~/.local/share/tashkalar/history.duckdb``."""
    env = os.environ.get("TASHKALAR_HISTORY")
    if env:
        return Path(env)
    return Path.home() / ".local" / "share" / "tashkalar" / "history.duckdb"


def _locked(db: Path) -> FileLock:
    db.parent.mkdir(parents=True, exist_ok=True)
    return FileLock(str(db) + ".lock", timeout=120)


def record_metrics(db: Path, run_path: str, metrics: list[Metric], when: datetime | None = None) -> str:
    """Store one run's metrics in a single transaction; returns the new run id."""
    run_id = uuid.uuid4().hex[:12]
    when = when or datetime.now(UTC).replace(tzinfo=None)
    with _locked(db):
        con = duckdb.connect(str(db))
        try:
            con.execute(SCHEMA_SQL.read_text())
            con.execute("BEGIN TRANSACTION")
            con.execute("INSERT INTO runs VALUES (?, ?, ?)", [run_id, run_path, when])
            con.executemany(
                "INSERT INTO metrics VALUES (?, ?, ?, ?, ?, ?)",
                [[run_id, m.metric, m.mode, m.subject, m.successes, m.trials] for m in metrics],
            )
            con.execute("COMMIT")
        finally:
            con.close()
    return run_id


def record_run(run_dir: Path | str, db: Path | None = None) -> str:
    """Compute a finished run's summary metrics and add them to the history."""
    return record_metrics(db or default_history_path(), str(Path(run_dir).resolve()), run_metrics(run_dir))


def metric_history(db: Path, subject: str, metric: str | None = None, mode: str | None = None) -> list[tuple]:
    """(recorded_at, run_path, metric, mode, successes, trials) for one subject, oldest first."""
    if not db.exists():
        return []
    params = [subject, metric, metric, mode, mode]
    with _locked(db):
        con = duckdb.connect(str(db), read_only=True)
        try:
            return con.execute(HISTORY_SQL.read_text(), params).fetchall()
        finally:
            con.close()
