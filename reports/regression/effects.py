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

POWER = 0.80


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


def effect_change(d_in: np.ndarray, d_out: np.ndarray, paired: bool,
                  before: Estimate, after: Estimate) -> Estimate:
    """How the gap between two groups of seats changed from baseline to candidate.

    Used for a changed card's own effect: the groups are the seats dealt the card in their opening hand and
    the others; the shuffle made that assignment, identically in both runs, so the groups are comparable.
    Paired: ``d_in``/``d_out`` are per-seat changes and the change is mean(d_in) - mean(d_out) (Welch).
    Unpaired: the two runs' gaps are independent, so their variances add.
    """
    if paired:
        est = unpaired_difference(d_out, d_in)
        return Estimate(before.difference, after.difference, est.difference, est.low, est.high, est.p_value,
                        est.n, True)
    diff = after.difference - before.difference
    se_b, se_a = (before.high - before.low) / 3.92, (after.high - after.low) / 3.92
    se = math.hypot(se_b, se_a)
    p = float(2 * stats.norm.sf(abs(diff) / se)) if se > 0 else (1.0 if diff == 0 else 0.0)
    return Estimate(before.difference, after.difference, diff, diff - 1.96 * se, diff + 1.96 * se, p,
                    min(before.n, after.n), False)


def minimal_detectable_effect(standard_error: float, alpha: float) -> float:
    """Smallest true change a two-sided test at ``alpha`` detects with 80% power, given the estimate's
    standard error."""
    z = float(stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(POWER))
    return z * standard_error


def _mean(values: np.ndarray) -> float:
    return float(values.mean()) if len(values) else math.nan
