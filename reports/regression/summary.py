"""A run's summary metrics (reports/regression/metrics.sql) as rows."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reports.dataset import open_runs

METRICS_SQL = Path(__file__).with_name("metrics.sql")


@dataclass(frozen=True)
class Metric:
    metric: str
    mode: str
    subject: str
    successes: int
    trials: int

    @property
    def key(self) -> tuple[str, str, str]:
        return self.metric, self.mode, self.subject

    @property
    def rate(self) -> float:
        return self.successes / self.trials if self.trials else 0.0


def run_metrics(run_dir: Path | str) -> list[Metric]:
    _, con = open_runs([Path(run_dir)])
    try:
        rows = con.execute(METRICS_SQL.read_text()).fetchall()
    finally:
        con.close()
    return [Metric(m, mode, subject, int(x), int(n)) for m, mode, subject, x, n in rows]
