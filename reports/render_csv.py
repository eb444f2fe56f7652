"""The report's tables as CSV files, one per table, with every rate split into its numbers."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from reports.model import DIFF, RATE, Column, Report
from reports.stats import Estimate, Rate


def _headers(c: Column) -> list[str]:
    if c.kind == RATE:
        return [c.key, f"{c.key}_k", f"{c.key}_n", f"{c.key}_lo", f"{c.key}_hi"]
    if c.kind == DIFF:
        return [c.key, f"{c.key}_lo", f"{c.key}_hi", f"{c.key}_p", f"{c.key}_q", f"{c.key}_flagged",
                f"{c.key}_mde"]
    return [c.key]


def _values(v: Any, c: Column) -> list[Any]:
    if c.kind == RATE:
        r: Rate = v if v is not None else Rate(0, 0)
        lo, hi = r.interval if r.n else (None, None)
        return [r.value, r.k, r.n, lo, hi]
    if c.kind == DIFF:
        d: Estimate | None = v
        if d is None or d.value is None:
            return [None, None, None, None, None, False, None]
        lo, hi = d.interval
        return [d.value, lo, hi, d.p, d.q, d.flagged, d.mde]
    return [v]


def write_csv(report: Report, directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for table in report.tables():
        path = directory / f"{table.id}.csv"
        with path.open("w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow([h for c in table.columns for h in _headers(c)])
            for row in table.rows:
                cells = [x for c in table.columns for x in _values(row.get(c.key), c)]
                out.writerow(["" if x is None else x for x in cells])
        written.append(path)
    summary = directory / "summary.txt"
    summary.write_text("\n".join(report.summary) + "\n", encoding="utf-8")
    return [*written, summary]
