"""Compare the summary metrics of a baseline run and a candidate run."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reports.regression.dataset import card_fingerprints
from reports.regression.summary import Metric, run_metrics
from reports.stats import benjamini_hochberg, two_proportion_p


@dataclass(frozen=True)
class Thresholds:
    min_difference: float = 0.05  # absolute change in a rate that matters
    alpha: float = 0.05  # false discovery rate for the Benjamini-Hochberg procedure
    min_trials: int = 30  # metrics with fewer trials in either run are not tested


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

    @property
    def moved(self) -> list[Change]:
        return [c for c in self.changes if c.moved]


def compare_runs(baseline: Path | str, candidate: Path | str, thresholds: Thresholds) -> Regression:
    base_fp, cand_fp = card_fingerprints(baseline), card_fingerprints(candidate)
    result = Regression(str(baseline), str(candidate), thresholds)
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
    lines = [
        "# Regression report",
        "",
        f"- Baseline: `{r.baseline}`",
        f"- Candidate: `{r.candidate}`",
        f"- Rule: a metric moved when its rate changed by at least {t.min_difference:.3f} and the "
        f"Benjamini-Hochberg q-value of a two-proportion z-test is below {t.alpha} "
        f"({len(r.changes)} metrics tested; {r.untested} with fewer than {t.min_trials} trials not tested).",
        "",
        "## Card definitions",
        "",
    ]
    if r.changed_cards or r.added_cards or r.removed_cards:
        lines += [f"- changed: `{c}`" for c in r.changed_cards]
        lines += [f"- added: `{c}`" for c in r.added_cards]
        lines += [f"- removed: `{c}`" for c in r.removed_cards]
    else:
        lines.append("No card changed definition.")
    lines += ["", f"## What moved ({len(r.moved)})", ""]
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
