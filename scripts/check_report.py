"""Check a run's balance report against what it may claim, with numbers recomputed from the Parquet files.

    python scripts/check_report.py runs/layout-7920

- No descriptive figure (drawn, in hand, played, claimer) is flagged: only randomized and ablation
  estimates carry flags, and every flag has a q-value below 5% and an interval that excludes 0.
- The first-player statement per form: recomputed from the games (ties count for neither player).
- The deck statements: each deck's win rate against the other decks per form, recomputed, and a deck is
  called stronger or weaker exactly when its 95% interval excludes one half.
Prints what it checked; exits 1 on the first disagreement.
"""

from __future__ import annotations

import sys
from dataclasses import fields, is_dataclass
from pathlib import Path

import duckdb

from reports.build import build_report
from reports.stats import Diff, Estimate, wilson


def _estimates(value: object) -> list[Estimate]:
    if isinstance(value, Estimate):
        return [value]
    if isinstance(value, dict):
        return [e for v in value.values() for e in _estimates(v)]
    if isinstance(value, list | tuple):
        return [e for v in value for e in _estimates(v)]
    if is_dataclass(value) and not isinstance(value, type):
        return [e for f in fields(value) for e in _estimates(getattr(value, f.name))]
    return []


def main(run: Path) -> int:
    report = build_report([run])
    # the same estimate object can appear in several tables: count each once
    estimates = list({id(e): e for t in report.tables() for row in t.rows for e in _estimates(row)}.values())
    flagged = [e for e in estimates if e.flagged]
    descriptive_flagged = [e for e in flagged if isinstance(e, Diff) and e.descriptive]
    bad = [e for e in flagged if e.q is None or e.q >= 0.05 or e.interval[0] <= 0 <= e.interval[1]]
    print(f"estimates in tables: {len(estimates)}; descriptive: "
          f"{sum(isinstance(e, Diff) and e.descriptive for e in estimates)}; flagged: {len(flagged)} "
          f"(descriptive among them: {len(descriptive_flagged)}; inconsistent flags: {len(bad)})")
    ok = not descriptive_flagged and not bad
    games = duckdb.sql(f"SELECT * FROM read_parquet('{run}/games/*.parquet') WHERE variant = ''")
    for mode, first, second, n in duckdb.sql(
            "SELECT mode, count(*) FILTER (winner = first_player), count(*) FILTER (winner = 1 - first_player), "
            "count(*) FROM games GROUP BY mode ORDER BY mode").fetchall():
        lo, hi = wilson(first, first + second)
        verdict = "an advantage" if lo > 0.5 else "a disadvantage" if hi < 0.5 else "no clear advantage"
        line = next(s for s in report.summary if s.startswith(f"{mode}: the first player"))
        agree = line.endswith(f": {verdict}.")
        ok &= agree
        print(f"{mode}: first player {first}, second {second}, ties {n - first - second} of {n}: {verdict} "
              f"({'agrees' if agree else 'DISAGREES'} with the report)")
    seats = duckdb.sql(
        "SELECT mode, deck, sum(won) AS won, count(*) AS n FROM ("
        " SELECT mode, deck_0 AS deck, deck_1 AS opp, (winner = 0)::INT AS won FROM games UNION ALL"
        " SELECT mode, deck_1, deck_0, (winner = 1)::INT FROM games) WHERE deck <> opp GROUP BY ALL ORDER BY ALL")
    for mode, deck, won, n in seats.fetchall():
        lo, hi = wilson(int(won), n)
        word = "stronger" if lo > 0.5 else "weaker" if hi < 0.5 else None
        said = [s for s in report.summary if s.startswith(f"{mode} (") and f": {deck} is " in s]
        agree = (word is None and not said) or (word is not None and len(said) == 1 and f"is {word}" in said[0])
        ok &= agree
        print(f"{mode}: {deck} wins {won}/{n} against other decks ({lo:.3f}-{hi:.3f}): "
              f"{word or 'not called'} ({'agrees' if agree else 'DISAGREES'} with the report)")
    del games
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
