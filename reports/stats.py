"""The statistics of the report: Wilson intervals, Newcombe's interval for a difference of two rates, the
two-proportion z-test and the Benjamini-Hochberg procedure. See docs/reports.md."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal distribution


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of ``k`` successes in ``n`` trials; (0, 1) when there are no trials."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denom = 1 + z * z / n
    return max(0.0, (centre - spread) / denom), min(1.0, (centre + spread) / denom)


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval (his method 10) for ``k1/n1 - k2/n2``, from the two Wilson
    intervals."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    return d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test that k1/n1 and k2/n2 share one rate."""
    pooled = (k1 + k2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var == 0:
        return 1.0
    z = (k1 / n1 - k2 / n2) / math.sqrt(var)
    return math.erfc(abs(z) / math.sqrt(2))


def benjamini_hochberg(pvalues: Sequence[float], q: float = 0.05) -> tuple[list[float], list[bool]]:
    """BH-adjusted p-values (q-values) in the input order, and which hypotheses are rejected at
    level ``q``."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, pvalues[i] * m / rank)
        adjusted[i] = running
    return adjusted, [a <= q for a in adjusted]


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
class Diff:
    """The difference of two disjoint rates ``a - b`` with Newcombe's interval and a z-test p-value.

    ``q`` (the Benjamini-Hochberg adjusted p-value) and ``flagged`` are set once all tests of a report are
    known (see ``flag``)."""

    a: Rate
    b: Rate
    q: float | None = None
    flagged: bool = False

    @property
    def defined(self) -> bool:
        return self.a.n > 0 and self.b.n > 0

    @property
    def testable(self) -> bool:
        return self.a.n >= MIN_TEST_SAMPLE and self.b.n >= MIN_TEST_SAMPLE

    @property
    def value(self) -> float | None:
        return self.a.k / self.a.n - self.b.k / self.b.n if self.defined else None

    @property
    def interval(self) -> tuple[float, float]:
        return newcombe(self.a.k, self.a.n, self.b.k, self.b.n) if self.defined else (-1.0, 1.0)

    @property
    def p(self) -> float | None:
        return two_proportion_p(self.a.k, self.a.n, self.b.k, self.b.n) if self.testable else None


def flag(diffs: Sequence[Diff], q: float = 0.05) -> None:
    """Benjamini-Hochberg over every testable comparison in ``diffs``: sets each one's ``q`` and
    ``flagged``."""
    tested = [d for d in diffs if d.p is not None]
    adjusted, rejected = benjamini_hochberg([d.p for d in tested], q)  # type: ignore[misc]
    for d, a, r in zip(tested, adjusted, rejected, strict=True):
        d.q, d.flagged = a, r
