"""Compare the summary metrics of a baseline run and a candidate run."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reports.dataset import find_run
from reports.regression.dataset import card_fingerprints
from reports.regression.identity import identity_differences
from reports.regression.summary import Metric, run_metrics
from reports.stats import benjamini_hochberg, two_proportion_p
from sim.errors import UserError


class ThresholdError(UserError):
    """A threshold out of its range; ``field`` names it so each caller can say where it came from."""

    def __init__(self, field_name: str, problem: str):
        super().__init__(f"{field_name}: {problem}")
        self.field = field_name
        self.problem = problem


class DifferentStudiesError(UserError):
    """Baseline and candidate are runs of different studies: their metrics differ for other reasons."""

    def __init__(self, baseline: Path | str, candidate: Path | str, differences: list[str]):
        super().__init__(
            f"{baseline} and {candidate} are runs of different studies, so their metrics differ for reasons "
            f"other than the cards: {'; '.join(differences)}. Compare two runs of the same study (only the card "
            "set or the code may differ), or pass --allow-different-studies to compare them anyway")
        self.differences = differences


@dataclass(frozen=True)
class Thresholds:
    min_difference: float = 0.05  # absolute change in a rate that matters
    alpha: float = 0.05  # false discovery rate for the Benjamini-Hochberg procedure
    min_trials: int = 30  # metrics with fewer trials in either run are not tested

    def __post_init__(self) -> None:
        if not 0.0 <= self.min_difference <= 1.0:
            raise ThresholdError("min_difference", "expected a difference of rates between 0 and 1, "
                                 f"got {self.min_difference}")
        if not 0.0 < self.alpha < 1.0:
            raise ThresholdError("alpha", f"expected a false discovery rate strictly between 0 and 1, got {self.alpha}")
        if self.min_trials < 1:
            raise ThresholdError("min_trials", f"expected a whole number of at least 1, got {self.min_trials}")


@dataclass(frozen=True)
class Change:
    base: Metric
    cand: Metric
    p_value: float
    q_value: float
    moved: bool

    @property
    def difference(self) -> float:
        return self.cand.rate - self.base.rate


@dataclass
class Regression:
    baseline: str
    candidate: str
    thresholds: Thresholds
    changes: list[Change] = field(default_factory=list)
    untested: int = 0  # metrics present in both runs with too few trials
    only_in_one: int = 0  # metrics present in one run only
    changed_cards: list[str] = field(default_factory=list)
    added_cards: list[str] = field(default_factory=list)
    removed_cards: list[str] = field(default_factory=list)
    different_study: list[str] = field(default_factory=list)  # identity differences, when overridden

    @property
    def moved(self) -> list[Change]:
        return [c for c in self.changes if c.moved]


def compare_runs(baseline: Path | str, candidate: Path | str, thresholds: Thresholds, *,
                 allow_different_studies: bool = False) -> Regression:
    """Compare two runs of one study; runs of different studies are refused unless explicitly allowed."""
    differences = identity_differences(find_run(Path(baseline), 0).manifest, find_run(Path(candidate), 1).manifest)
    if differences and not allow_different_studies:
        raise DifferentStudiesError(baseline, candidate, differences)
    base_fp, cand_fp = card_fingerprints(baseline), card_fingerprints(candidate)
    result = Regression(str(baseline), str(candidate), thresholds, different_study=differences)
    result.changed_cards = sorted(k for k in base_fp.keys() & cand_fp.keys() if base_fp[k] != cand_fp[k])
    result.added_cards = sorted(cand_fp.keys() - base_fp.keys())
    result.removed_cards = sorted(base_fp.keys() - cand_fp.keys())
    base = {m.key: m for m in run_metrics(baseline)}
    cand = {m.key: m for m in run_metrics(candidate)}
    result.only_in_one = len(base.keys() ^ cand.keys())
    pairs = []
    for key in sorted(base.keys() & cand.keys()):
        b, c = base[key], cand[key]
        if min(b.trials, c.trials) < thresholds.min_trials:
            result.untested += 1
            continue
        pairs.append((b, c, two_proportion_p(b.successes, b.trials, c.successes, c.trials)))
    q_values, _ = benjamini_hochberg([p for _, _, p in pairs], thresholds.alpha)
    for (b, c, p), q in zip(pairs, q_values, strict=True):
        moved = q < thresholds.alpha and abs(c.rate - b.rate) >= thresholds.min_difference
        result.changes.append(Change(b, c, p, q, moved))
    return result


def render_markdown(r: Regression) -> str:
    t = r.thresholds
    warning = ([f"> **Not the same study** ({'; '.join(r.different_study)}): differences below may come from "
                "the studies, not from the cards.", ""] if r.different_study else [])
    lines = [
        "# Regression report",
        "",
        *warning,
        f"- Baseline: `{r.baseline}`",
        f"- Candidate: `{r.candidate}`",
        f"- Rule: a metric moved when its rate changed by at least {t.min_difference:.3f} and the "
        f"Benjamini-Hochberg q-value of a two-proportion z-test is below {t.alpha} "
        f"({len(r.changes)} metrics tested; {r.untested} with fewer than {t.min_trials} trials not tested).",
        "",
        "## Card definitions",
        "",
        *warning,
    ]
    if r.changed_cards or r.added_cards or r.removed_cards:
        lines += [f"- changed: `{c}`" for c in r.changed_cards]
        lines += [f"- added: `{c}`" for c in r.added_cards]
        lines += [f"- removed: `{c}`" for c in r.removed_cards]
    else:
        lines.append("No card changed definition.")
    lines += ["", f"## What moved ({len(r.moved)})", "", *warning]
    if not r.moved:
        lines.append("Nothing moved beyond the threshold.")
    else:
        lines += ["| metric | mode | subject | baseline | candidate | change | q-value |",
                  "|---|---|---|---|---|---|---|"]
        for c in sorted(r.moved, key=lambda c: -abs(c.difference)):
            lines.append(
                f"| {c.base.metric} | {c.base.mode} | {_md(c.base.subject)} | "
                f"{c.base.rate:.3f} (n={c.base.trials}) | {c.cand.rate:.3f} (n={c.cand.trials}) | "
                f"{c.difference:+.3f} | {c.q_value:.2g} |")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
