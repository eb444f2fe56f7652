"""The statistics of the report: Wilson intervals, Newcombe's interval for a difference of two rates, the
two-proportion test, paired differences, a dose-response slope, the Benjamini-Hochberg procedure,
minimal detectable effects, and Cochran's test that one estimate differs across strength levels.
Distributions and tests come from scipy. See docs/reports.md."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
from scipy import optimize, special, stats

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal distribution


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of ``k`` successes in ``n`` trials; (0, 1) when there are no trials. ``k`` may be
    fractional (a ladder's score counts a tie as half a win). The closed form is scipy's ``binomtest(...)
    .proportion_ci(method="wilson")`` without the exact p-value scipy computes first."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval (his method 10) for ``k1/n1 - k2/n2``, from the two Wilson
    intervals (neither scipy nor statsmodels' core offers it for two independent rates in this form)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    return d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value that k1/n1 and k2/n2 share one rate: the 2x2 chi-square test without continuity
    correction, which is the pooled two-proportion z-test. The statistic as scipy's ``chi2_contingency``
    computes it and its p-value from scipy's chi-square survival function (``chdtrc``), without that
    function's checks and result objects (a report asks this some thousand times)."""
    table = np.array([[k1, n1 - k1], [k2, n2 - k2]], dtype=float)
    if (table.sum(axis=0) == 0).any():
        return 1.0
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / table.sum()
    if (expected == 0).any():
        raise ValueError(f"two_proportion_p: no games on one side ({n1}, {n2})")
    return float(special.chdtrc(1, ((table - expected) ** 2 / expected).sum()))


def benjamini_hochberg(pvalues: Sequence[float], q: float = 0.05) -> tuple[list[float], list[bool]]:
    """BH-adjusted p-values (q-values, scipy) in the input order, and which are rejected at level ``q``."""
    if not pvalues:
        return [], []
    adjusted = [float(a) for a in stats.false_discovery_control(np.asarray(pvalues, dtype=float), method="bh")]
    return adjusted, [a <= q for a in adjusted]


POWER = 0.8


@functools.cache
def z_mde(alpha: float = 0.05, power: float = POWER) -> float:
    """An MDE over its standard error: a two-sided test at ``alpha`` with probability ``power`` (cached: a report
    asks it thousands of times, and scipy's quantiles cost a fraction of a millisecond each)."""
    return float(stats.norm.isf(alpha / 2) + stats.norm.ppf(power))


Z_MDE = z_mde()  # 5% two-sided, 80% power


def mde_two_rates(n1: int, n2: int, p: float, alpha: float = 0.05, power: float = POWER) -> float | None:
    """The smallest difference of two independent rates near ``p`` that a two-sided test at ``alpha``
    detects with probability ``power``, with ``n1`` and ``n2`` trials (normal approximation)."""
    if n1 <= 0 or n2 <= 0:
        return None
    p = min(max(p, 0.01), 0.99)
    return z_mde(alpha, power) * math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))


@functools.cache
def _t_975(df: int) -> float:
    return float(stats.t.ppf(0.975, df))


def mean_interval(mean: float, sd: float, n: int) -> tuple[float, float]:
    """The 95% t interval of a mean of ``n >= 2`` values whose sample standard deviation is ``sd``."""
    half = _t_975(n - 1) * sd / math.sqrt(n)
    return mean - half, mean + half


def mde_paired(sd: float, n: int, alpha: float = 0.05, power: float = POWER) -> float | None:
    """The smallest mean paired difference a two-sided test at ``alpha`` detects with probability
    ``power``, with ``n`` pairs whose differences have standard deviation ``sd``."""
    if n <= 1:
        return None
    return z_mde(alpha, power) * sd / math.sqrt(n)


def games_needed_paired(effect: float, sd: float, alpha: float = 0.05, power: float = POWER) -> int:
    """Pairs needed for ``mde_paired`` to reach ``effect``."""
    return math.ceil((z_mde(alpha, power) * sd / effect) ** 2)


def games_needed_two_rates(effect: float, share: float, p: float = 0.5, alpha: float = 0.05,
                           power: float = POWER) -> int:
    """Seat-games needed so that a comparison of the ``share`` of them exposed against the rest detects
    ``effect`` (a difference of rates near ``p``)."""
    return math.ceil((z_mde(alpha, power) / effect) ** 2 * p * (1 - p) * (1 / share + 1 / (1 - share)))


@dataclass(frozen=True)
class Rate:
    """``k`` of ``n``: a rate with its 95% Wilson interval; undefined (None) when ``n`` is 0."""

    k: int
    n: int

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.k, self.n)


MIN_TEST_SAMPLE = 20  # below this many games on either side, a comparison is shown but not tested


@dataclass
class Estimate:
    """A tested estimate (a difference, in win-rate points): value, 95% interval, p-value, the minimal
    detectable effect at 80% power, and the BH ``q`` and ``flagged`` set by ``flag`` within its family."""

    q: float | None = field(default=None, kw_only=True)
    flagged: bool = field(default=False, kw_only=True)

    @property
    def defined(self) -> bool:
        return self.value is not None

    @property
    def varied(self) -> bool:
        """Whether its outcomes vary at all. One without variation (no pair differs in result, every game won
        or every game lost) has no value, interval or test: it is not a measured zero (docs/reports.md)."""
        return True

    @property
    def value(self) -> float | None:
        raise NotImplementedError

    @property
    def interval(self) -> tuple[float, float]:
        raise NotImplementedError

    @property
    def p(self) -> float | None:
        raise NotImplementedError

    @property
    def mde(self) -> float | None:
        raise NotImplementedError

    @property
    def n(self) -> int:
        """The sample behind it (the smaller side of a comparison)."""
        raise NotImplementedError

    @property
    def se(self) -> float:
        """Its standard error, read off its own 95% interval (width / 2z), so that Newcombe, t and OLS
        intervals compare alike across strength levels; 0 for an interval of no width."""
        lo, hi = self.interval
        return (hi - lo) / (2 * Z95)


@dataclass
class Diff(Estimate):
    """The difference of two disjoint rates ``a - b`` with Newcombe's interval and a two-proportion test.

    A ``descriptive`` difference (games grouped by what happened in them, e.g. whether a card was played)
    is shown with its interval but never tested or flagged (docs/reports.md, "Descriptive columns")."""

    a: Rate
    b: Rate
    descriptive: bool = field(default=False, kw_only=True)

    @property
    def varied(self) -> bool:
        return 0 < self.a.k + self.b.k < self.a.n + self.b.n

    @property
    def defined(self) -> bool:
        return self.a.n > 0 and self.b.n > 0 and self.varied

    @property
    def testable(self) -> bool:
        return (not self.descriptive and self.varied and self.a.n >= MIN_TEST_SAMPLE
                and self.b.n >= MIN_TEST_SAMPLE)

    @property
    def value(self) -> float | None:
        return self.a.k / self.a.n - self.b.k / self.b.n if self.defined else None

    @property
    def interval(self) -> tuple[float, float]:
        return newcombe(self.a.k, self.a.n, self.b.k, self.b.n) if self.defined else (-1.0, 1.0)

    @cached_property
    def p(self) -> float | None:
        return two_proportion_p(self.a.k, self.a.n, self.b.k, self.b.n) if self.testable else None

    @property
    def mde(self) -> float | None:
        if not self.testable:
            return None
        return mde_two_rates(self.a.n, self.b.n, (self.a.k + self.b.k) / (self.a.n + self.b.n))

    @property
    def n(self) -> int:
        return min(self.a.n, self.b.n)


@dataclass
class Paired(Estimate):
    """The mean of paired differences in {-1, 0, +1}, with scipy's one-sample t interval and test. Ablation:
    one per game seed, the result with the card minus the result in its ablation arm. A deck pairing: one
    per game, +1 when the first deck won, -1 when the second did, 0 for a tie (the first deck's win rate
    minus the second's)."""

    up: int  # pairs where the card's holder won with the card and not without it (the first deck won)
    down: int  # won without it, not with it (the second deck won)
    same: int  # same result in both games (a tie)

    @property
    def n(self) -> int:
        return self.up + self.down + self.same

    @cached_property
    def _sample(self) -> np.ndarray:
        return np.repeat(np.array([1.0, -1.0, 0.0]), [self.up, self.down, self.same])

    @property
    def varied(self) -> bool:
        return self.up + self.down > 0

    @property
    def value(self) -> float | None:
        return (self.up - self.down) / self.n if self.varied else None

    @property
    def sd(self) -> float:
        return float(self._sample.std(ddof=1)) if self.n > 1 else 1.0

    @property
    def interval(self) -> tuple[float, float]:
        if self.n < 2 or not self.varied:
            return -1.0, 1.0
        if self._constant:
            return self.value, self.value  # type: ignore[return-value]
        ci = stats.ttest_1samp(self._sample, 0.0).confidence_interval(0.95)
        return float(ci.low), float(ci.high)

    @property
    def p(self) -> float | None:
        if self.n < MIN_TEST_SAMPLE or not self.varied:
            return None
        if self._constant:
            return 0.0
        return float(stats.ttest_1samp(self._sample, 0.0).pvalue)

    @property
    def _constant(self) -> bool:
        """Every pair differs the same way (e.g. each one won only with the card): no spread to build a t
        interval on."""
        return sorted((self.up, self.down, self.same)).count(0) >= 2

    @property
    def mde(self) -> float | None:
        """None while all pairs differ alike (or none differs): the spread, and so the MDE, is unknown."""
        if self.n < MIN_TEST_SAMPLE or not self.varied or self._constant:
            return None
        return mde_paired(self.sd, self.n)


@dataclass
class Slope(Estimate):
    """Dose-response: the linear fit of the holder's win (0/1) on the card's shuffled position, from counts
    per position, shown as the fitted win rate at the top of the deck minus at its bottom (positive: the
    earlier the card comes, the better its holder does). Ordinary least squares; t test from scipy."""

    positions: tuple[tuple[int, int, int], ...]  # (position, seat-games, wins)

    @property
    def varied(self) -> bool:
        wins = sum(w for _, _, w in self.positions)
        return 0 < wins < sum(n for _, n, _ in self.positions)

    @cached_property
    def _fit(self) -> tuple[float, float, int, int] | None:
        if not self.varied:
            return None
        x, n, w = (np.array(c, dtype=float) for c in zip(*self.positions, strict=True))
        total = n.sum()
        if total < 3:
            return None
        xbar, ybar = (n * x).sum() / total, w.sum() / total
        sxx = (n * (x - xbar) ** 2).sum()
        if sxx == 0:
            return None
        slope = ((x - xbar) * (w - n * ybar)).sum() / sxx
        sse = max(w.sum() - total * ybar**2 - slope * slope * sxx, 0.0)
        se = math.sqrt(sse / (total - 2) / sxx)
        span = int(x.max() - x.min())
        return float(-slope * span), float(se * span), int(total), span

    @property
    def n(self) -> int:
        fit = self._fit
        return fit[2] if fit else 0

    @property
    def value(self) -> float | None:
        fit = self._fit
        return fit[0] if fit else None

    @property
    def interval(self) -> tuple[float, float]:
        fit = self._fit
        if fit is None:
            return -1.0, 1.0
        half = float(stats.t.isf(0.025, fit[2] - 2)) * fit[1]
        return fit[0] - half, fit[0] + half

    @property
    def p(self) -> float | None:
        fit = self._fit
        if fit is None or fit[2] < MIN_TEST_SAMPLE:
            return None
        if fit[1] == 0:
            return 1.0
        return float(2 * stats.t.sf(abs(fit[0] / fit[1]), fit[2] - 2))

    @property
    def mde(self) -> float | None:
        fit = self._fit
        if fit is None or fit[2] < MIN_TEST_SAMPLE:
            return None
        return Z_MDE * fit[1]


def heterogeneity_p(values: Sequence[float], ses: Sequence[float]) -> float:
    """Cochran's Q test that estimates with standard errors ``ses`` share one true value: the weighted sum of
    squared deviations from their inverse-variance mean against chi-square with one degree of freedom fewer
    than estimates (for two, the z test of their difference)."""
    v, w = np.asarray(values, dtype=float), 1 / np.square(np.asarray(ses, dtype=float))
    q = float((w * (v - (w * v).sum() / w.sum()) ** 2).sum())
    return float(stats.chi2.sf(q, len(v) - 1))


def mde_heterogeneity(ses: Sequence[float], alpha: float = 0.05, power: float = POWER) -> float:
    """The smallest difference between the two least precise estimates (the others midway) that Cochran's Q
    test at ``alpha`` detects with probability ``power`` (noncentral chi-square). For two estimates it is the
    usual MDE of their difference, ``(z(1 - alpha/2) + z(power)) x sqrt(se1^2 + se2^2)``."""
    s = np.sort(np.asarray(ses, dtype=float))[::-1]
    w = 1 / np.square(s)
    unit = np.zeros(len(s))
    unit[:2] = 0.5, -0.5
    per_unit = float((w * (unit - (w * unit).sum() / w.sum()) ** 2).sum())  # noncentrality of a difference of 1
    return math.sqrt(_noncentrality(len(s) - 1, alpha, power) / per_unit)


@lru_cache(maxsize=64)
def _noncentrality(df: int, alpha: float, power: float) -> float:
    """The noncentrality at which a chi-square test with ``df`` degrees of freedom at ``alpha`` rejects with
    probability ``power``."""
    critical = stats.chi2.isf(alpha, df)
    return float(optimize.brentq(lambda lam: stats.ncx2.sf(critical, df, lam) - power, 1e-9, 1e4))


@dataclass
class Heterogeneity(Estimate):
    """One estimate at several strength levels (in level order): shown as the last level minus the first,
    with the normal interval of that difference; tested with Cochran's Q over every level, and only when
    each level's estimate is tested itself and has a spread (its interval some width)."""

    levels: tuple[Estimate, ...]

    @cached_property
    def testable(self) -> bool:
        return len(self.levels) >= 2 and all(e.p is not None and e.se > 0 for e in self.levels)

    @property
    def defined(self) -> bool:
        return len(self.levels) >= 2 and self.levels[0].defined and self.levels[-1].defined

    @property
    def value(self) -> float | None:
        if not self.defined:
            return None
        return self.levels[-1].value - self.levels[0].value  # type: ignore[operator]

    @property
    def interval(self) -> tuple[float, float]:
        if not self.defined:
            return -2.0, 2.0
        half = Z95 * math.hypot(self.levels[0].se, self.levels[-1].se)
        return self.value - half, self.value + half  # type: ignore[operator]

    @cached_property
    def p(self) -> float | None:
        if not self.testable:
            return None
        return heterogeneity_p([e.value for e in self.levels], [e.se for e in self.levels])  # type: ignore[misc]

    @cached_property
    def mde(self) -> float | None:
        return mde_heterogeneity([e.se for e in self.levels]) if self.testable else None

    @property
    def n(self) -> int:
        return min((e.n for e in self.levels), default=0)


def flag(estimates: Sequence[Estimate], q: float = 0.05) -> None:
    """Benjamini-Hochberg over every tested estimate of one family: sets each one's ``q`` and ``flagged``."""
    tested = [d for d in estimates if d.p is not None]
    adjusted, rejected = benjamini_hochberg([d.p for d in tested], q)  # type: ignore[misc]
    for d, a, r in zip(tested, adjusted, rejected, strict=True):
        d.q, d.flagged = a, r
