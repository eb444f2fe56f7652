"""Compare a baseline run and a candidate run of one study: the gates that decide, and the rest.

The verdict comes from the gates (reports/regression/gates.py): deck and matchup win rates per form and
the changed cards' own effects, compared game by game when the runs share their seeds. The summary
metrics of the history (reports/regression/summary.py: randomized, ablation, controlled and descriptive)
are shown too, ranked within their kind, but never gate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from scipy import stats

from reports.dataset import open_runs
from reports.regression.dataset import card_fingerprints
from reports.regression.gates import Gate, card_gates, decide, deck_gates, runs_are_paired, seat_outcomes
from reports.regression.identity import identity_differences
from reports.regression.summary import Metric, run_metrics
from reports.regression.thresholds import Thresholds
from reports.stats import Z95, benjamini_hochberg, two_proportion_p
from sim.errors import UserError


class DifferentStudiesError(UserError):
    """Baseline and candidate are runs of different studies: their metrics differ for other reasons."""

    def __init__(self, baseline: Path | str, candidate: Path | str, differences: list[str]):
        super().__init__(
            f"{baseline} and {candidate} are runs of different studies, so their metrics differ for reasons "
            f"other than the cards: {'; '.join(differences)}. Compare two runs of the same study (only the card "
            "set or the code may differ), or pass --allow-different-studies to compare them anyway")
        self.differences = differences


@dataclass(frozen=True)
class Change:
    """A summary metric in both runs (informative only: these never gate)."""

    base: Metric
    cand: Metric
    p_value: float
    q_value: float
    beyond_threshold: bool

    @property
    def difference(self) -> float:
        return self.cand.value - self.base.value


@dataclass
class Regression:
    baseline: str
    candidate: str
    thresholds: Thresholds
    paired: bool = False
    gates: list[Gate] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)  # the other metrics, not gating
    untested: int = 0  # other metrics present in both runs with too few trials or no interval (a mean)
    only_in_one: int = 0  # other metrics present in one run only
    changed_cards: list[str] = field(default_factory=list)
    added_cards: list[str] = field(default_factory=list)
    removed_cards: list[str] = field(default_factory=list)
    different_study: list[str] = field(default_factory=list)  # identity differences, when overridden

    @property
    def moved(self) -> list[Gate]:
        """The gates that moved: the verdict."""
        return [g for g in self.gates if g.moved]

    @property
    def underpowered(self) -> list[Gate]:
        """Tested gates whose detectable effect is larger than the threshold they gate on."""
        return [g for g in self.gates if g.tested and g.mde > self.thresholds.min_difference]


def compare_runs(baseline: Path | str, candidate: Path | str, thresholds: Thresholds, *,
                 allow_different_studies: bool = False) -> Regression:
    """Compare two runs of one study; runs of different studies are refused unless explicitly allowed."""
    runs, con = open_runs([Path(baseline), Path(candidate)])
    try:
        differences = identity_differences(runs[0].manifest, runs[1].manifest)
        if differences and not allow_different_studies:
            raise DifferentStudiesError(baseline, candidate, differences)
        result = Regression(str(baseline), str(candidate), thresholds, different_study=differences)
        base_fp, cand_fp = card_fingerprints(baseline), card_fingerprints(candidate)
        result.changed_cards = sorted(k for k in base_fp.keys() & cand_fp.keys() if base_fp[k] != cand_fp[k])
        result.added_cards = sorted(cand_fp.keys() - base_fp.keys())
        result.removed_cards = sorted(base_fp.keys() - cand_fp.keys())
        seats = seat_outcomes(con)
        result.paired = runs_are_paired(runs, seats)
        result.gates = deck_gates(seats, result.paired) + card_gates(con, result.changed_cards, result.paired)
    finally:
        con.close()
    decide(result.gates, thresholds.min_difference, thresholds.alpha, thresholds.min_trials)
    _other_metrics(result, baseline, candidate)
    return result


def _other_metrics(result: Regression, baseline: Path | str, candidate: Path | str) -> None:
    t = result.thresholds
    base = {m.key: m for m in run_metrics(baseline)}
    cand = {m.key: m for m in run_metrics(candidate)}
    result.only_in_one = len(base.keys() ^ cand.keys())
    pairs = []
    for key in sorted(base.keys() & cand.keys()):
        b, c = base[key], cand[key]
        if min(b.n, c.n) < t.min_trials or None in (b.low, b.high, c.low, c.high):
            result.untested += 1
            continue
        pairs.append((b, c, _change_p(b, c)))
    q_values, _ = benjamini_hochberg([p for _, _, p in pairs], t.alpha)
    for (b, c, p), q in zip(pairs, q_values, strict=True):
        beyond = q < t.alpha and abs(c.value - b.value) >= t.min_difference
        result.changes.append(Change(b, c, p, q, beyond))


def _change_p(b: Metric, c: Metric) -> float:
    """Two-sided p-value of no change: the two-proportion test for rates, else a z test of the difference of
    two independent estimates with standard errors read off their 95% intervals."""
    if b.successes is not None and b.trials is not None and c.successes is not None and c.trials is not None:
        return two_proportion_p(b.successes, b.trials, c.successes, c.trials)
    se = math.hypot(b.high - b.low, c.high - c.low) / (2 * Z95)  # type: ignore[operator]
    diff = c.value - b.value
    if se == 0.0:
        return 1.0 if diff == 0.0 else 0.0
    return float(2 * stats.norm.sf(abs(diff) / se))
