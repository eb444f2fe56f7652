"""Differences between a baseline and a candidate run, paired per game when the runs share game seeds.

Two runs of one study with the same base seed play the same games (same deals, same shuffles) until the
changed cards first matter, so comparing them game by game (a paired difference) removes most of the
noise of an unpaired comparison. Results are numbers per seat: 1 a win, 0.5 a tie, 0 a loss.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from reports.stats import z_mde


@dataclass(frozen=True)
class Estimate:
    """A change ``candidate - baseline`` with its 95% interval, p-value and sample."""

    baseline: float
    candidate: float
    difference: float
    low: float
    high: float
    p_value: float
    n: int  # games (pairs when paired) behind the estimate
    paired: bool


def paired_difference(base: np.ndarray, cand: np.ndarray) -> Estimate:
    """Mean of ``cand - base`` over matched games, with a t interval; identical runs give exactly 0."""
    diff = cand - base
    n = len(diff)
    mean = float(diff.mean()) if n else 0.0
    sd = float(diff.std(ddof=1)) if n > 1 else 0.0
    if sd == 0.0:
        return Estimate(_mean(base), _mean(cand), mean, mean, mean, 1.0 if mean == 0 else 0.0, n, True)
    se = sd / math.sqrt(n)
    t = float(stats.t.ppf(0.975, n - 1))
    p = float(2 * stats.t.sf(abs(mean) / se, n - 1))
    return Estimate(_mean(base), _mean(cand), mean, mean - t * se, mean + t * se, p, n, True)


def unpaired_difference(base: np.ndarray, cand: np.ndarray) -> Estimate:
    """Welch's comparison of two independent samples (runs with different seeds)."""
    b, c = _mean(base), _mean(cand)
    if len(base) < 2 or len(cand) < 2:
        return Estimate(b, c, c - b, -1.0, 1.0, 1.0, min(len(base), len(cand)), False)
    vb, vc = base.var(ddof=1) / len(base), cand.var(ddof=1) / len(cand)
    se = math.sqrt(vb + vc)
    if se == 0.0:
        return Estimate(b, c, c - b, c - b, c - b, 1.0 if c == b else 0.0, min(len(base), len(cand)), False)
    dof = (vb + vc) ** 2 / (vb**2 / (len(base) - 1) + vc**2 / (len(cand) - 1))
    t = float(stats.t.ppf(0.975, dof))
    p = float(2 * stats.t.sf(abs(c - b) / se, dof))
    return Estimate(b, c, c - b, c - b - t * se, c - b + t * se, p, min(len(base), len(cand)), False)


def position_effect_change(base: tuple[np.ndarray, np.ndarray], cand: tuple[np.ndarray, np.ndarray],
                           paired: bool, span: int) -> Estimate:
    """How a card's dose-response changed: its position effect (the linear fit of its holder's result on the
    card's shuffled position, read as the fitted result at the top of the deck minus at its bottom, ``span``
    positions apart) in the candidate minus in the baseline. Each side is (positions, results).

    Paired, both sides are the same seats with the same positions (same seeds, same shuffles): the change is
    the fit of the per-seat changes of result on position, so the noise the runs share cancels. Unpaired,
    the two runs' fits are independent and their variances add.
    """
    (x, y_base), (x_cand, y_cand) = base, cand
    before, after = _position_fit(x, y_base, span), _position_fit(x_cand, y_cand, span)
    n = min(len(x), len(x_cand))
    if paired:
        change, se, dof = _position_fit(x, y_cand - y_base, span)
    else:
        change, se, dof = after[0] - before[0], math.hypot(before[1], after[1]), min(before[2], after[2])
    if se == 0.0 or dof < 1:
        return Estimate(before[0], after[0], change, change, change, 1.0 if change == 0 else 0.0, n, paired)
    t = float(stats.t.ppf(0.975, dof))
    p = float(2 * stats.t.sf(abs(change) / se, dof))
    return Estimate(before[0], after[0], change, change - t * se, change + t * se, p, n, paired)


def _position_fit(x: np.ndarray, y: np.ndarray, span: int) -> tuple[float, float, int]:
    """Ordinary least squares of ``y`` on ``x``: minus the slope times ``span`` (positive when an earlier
    card does better), its standard error and degrees of freedom."""
    n = len(x)
    sxx = float(((x - x.mean()) ** 2).sum()) if n else 0.0
    if n < 3 or sxx == 0.0:
        return 0.0, 0.0, 0
    slope = float(((x - x.mean()) * (y - y.mean())).sum()) / sxx
    residual = y - y.mean() - slope * (x - x.mean())
    se = math.sqrt(float((residual**2).sum()) / (n - 2) / sxx)
    return -slope * span, se * span, n - 2


def minimal_detectable_effect(standard_error: float, alpha: float) -> float:
    """Smallest true change a two-sided test at ``alpha`` detects with 80% power (``reports.stats.POWER``),
    given the estimate's standard error."""
    return z_mde(alpha) * standard_error


def gate_power(threshold: float, standard_error: float, alpha: float) -> float:
    """The chance that a gate whose true change is exactly ``threshold`` moves (gates.py, ``decide``): its
    test at ``alpha`` rejects (the estimate beyond z x se) and its 95% interval reaches the threshold (the
    estimate beyond threshold - 1.96 se). Normal approximation; the opposite tail is neglected. At most
    97.5%: however large the study, an estimate below threshold - 1.96 se shows the change to be smaller."""
    if standard_error <= 0:
        return 1.0
    shift = threshold / standard_error
    return float(stats.norm.cdf(min(shift - stats.norm.isf(alpha / 2), stats.norm.isf(0.025))))


def _mean(values: np.ndarray) -> float:
    return float(values.mean()) if len(values) else math.nan
