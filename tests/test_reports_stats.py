"""The report's statistics against published values (Newcombe 1998; Benjamini and Hochberg 1995) and against
the hand-written formulas the scipy calls replaced."""

from __future__ import annotations

import math
import statistics

import pytest
from scipy import stats

from reports.stats import (
    MIN_TEST_SAMPLE,
    Diff,
    Paired,
    Rate,
    Slope,
    benjamini_hochberg,
    flag,
    games_needed_paired,
    games_needed_two_rates,
    mde_paired,
    mde_two_rates,
    newcombe,
    two_proportion_p,
    wilson,
)


@pytest.mark.parametrize(("k", "n", "lo", "hi"), [
    (81, 263, 0.2553, 0.3662),  # Newcombe (1998), single proportion, method 3 (score, no correction)
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_newcombe(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_without_trials_is_the_whole_range() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(("k1", "n1", "k2", "n2", "lo", "hi"), [
    (56, 70, 48, 80, 0.0524, 0.3339),  # Newcombe (1998), difference of proportions, method 10
    (9, 10, 3, 10, 0.1705, 0.8090),
    (6, 7, 2, 7, 0.0582, 0.8062),
    (5, 56, 0, 29, -0.0381, 0.1926),
])
def test_newcombe_difference_matches_published(k1: int, n1: int, k2: int, n2: int, lo: float,
                                               hi: float) -> None:
    assert newcombe(k1, n1, k2, n2) == pytest.approx((lo, hi), abs=5e-5)


def test_two_proportion_p_equals_the_chi_square_test_of_the_table() -> None:
    table = [[56, 14], [48, 32]]  # successes and failures of the two groups
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table, strict=True)]
    total = sum(rows)
    chi2 = sum((table[i][j] - rows[i] * cols[j] / total) ** 2 / (rows[i] * cols[j] / total)
               for i in range(2) for j in range(2))
    assert two_proportion_p(56, 70, 48, 80) == pytest.approx(math.erfc(math.sqrt(chi2 / 2)), rel=1e-9)
    assert two_proportion_p(56, 70, 48, 80) == pytest.approx(0.00805, abs=1e-5)
    assert two_proportion_p(0, 30, 0, 40) == 1.0


def test_benjamini_hochberg_on_the_1995_example() -> None:
    p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719,
         0.6528, 0.7590, 1.0]
    adjusted, rejected = benjamini_hochberg(p, 0.05)
    assert rejected == [True] * 4 + [False] * 11
    assert adjusted[:5] == pytest.approx([0.0015, 0.003, 0.0095, 0.035625, 0.0603])


def test_benjamini_hochberg_keeps_input_order() -> None:
    adjusted, rejected = benjamini_hochberg([0.01, 0.04, 0.03, 0.005], 0.03)
    assert adjusted == pytest.approx([0.02, 0.04, 0.04, 0.02])  # R: p.adjust(..., "BH")
    assert rejected == [True, False, False, True]


def test_flag_sets_q_values_only_for_comparisons_with_enough_games() -> None:
    strong = Diff(Rate(80, 100), Rate(40, 100))
    null = Diff(Rate(50, 100), Rate(49, 100))
    small = Diff(Rate(5, MIN_TEST_SAMPLE - 1), Rate(50, 100))
    flag([strong, null, small])
    assert strong.flagged and strong.q is not None and strong.q < 1e-6
    assert not null.flagged and null.q == pytest.approx(null.p)  # the largest p-value keeps its own
    assert small.q is None and not small.flagged


# Hand-written formulas kept as the cross-check of the library calls.
def _z_test_by_hand(k1: int, n1: int, k2: int, n2: int) -> float:
    pooled = (k1 + k2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    return 1.0 if var == 0 else math.erfc(abs(k1 / n1 - k2 / n2) / math.sqrt(var) / math.sqrt(2))


def _bh_by_hand(p: list[float]) -> list[float]:
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    adjusted, running = [1.0] * m, 1.0
    for rank in range(m, 0, -1):
        running = min(running, p[order[rank - 1]] * m / rank)
        adjusted[order[rank - 1]] = running
    return adjusted


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (3, 7), (50, 100), (999, 1000), (123456, 500000)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    ci = stats.binomtest(k, n).proportion_ci(method="wilson")
    assert wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


@pytest.mark.parametrize(("k1", "n1", "k2", "n2"), [(56, 70, 48, 80), (1, 20, 9, 25), (5000, 9000, 4000, 8000),
                                                    (20, 20, 19, 20)])
def test_scipy_two_proportion_test_matches_the_z_test(k1: int, n1: int, k2: int, n2: int) -> None:
    assert two_proportion_p(k1, n1, k2, n2) == pytest.approx(_z_test_by_hand(k1, n1, k2, n2), rel=1e-9)


def test_scipy_benjamini_hochberg_matches_the_procedure() -> None:
    p = [0.2, 0.001, 0.04, 0.04, 0.8, 0.0101, 0.03, 1.0, 0.5, 0.049]
    assert benjamini_hochberg(p)[0] == pytest.approx(_bh_by_hand(p), abs=1e-12)


def test_paired_estimate_matches_a_t_test_on_the_differences() -> None:
    d = [1.0] * 30 + [-1.0] * 12 + [0.0] * 158
    e = Paired(30, 12, 158)
    mean, sd = sum(d) / len(d), statistics.stdev(d)
    half = stats.t.isf(0.025, len(d) - 1) * sd / math.sqrt(len(d))
    assert e.value == pytest.approx(mean)
    assert e.interval == pytest.approx((mean - half, mean + half))
    assert e.p == pytest.approx(stats.ttest_1samp(d, 0.0).pvalue)
    assert e.mde == pytest.approx((1.959964 + 0.841621) * sd / math.sqrt(len(d)), rel=1e-5)
    assert Paired(50, 0, 0).interval == (1.0, 1.0) and Paired(50, 0, 0).p == 0.0


def test_an_estimate_without_variation_is_not_a_measured_zero() -> None:
    """No pair differs in result, every game won, every game lost: no value, no interval, no test, so
    Benjamini-Hochberg never counts it."""
    for e in (Paired(0, 0, 1600), Diff(Rate(0, 300), Rate(0, 900)), Diff(Rate(40, 40), Rate(60, 60)),
              Slope(((0, 100, 0), (9, 100, 0), (17, 100, 0)))):
        assert not e.varied and not e.defined and e.value is None and e.p is None and e.mde is None
        flag([e, Paired(30, 5, 100)])
        assert e.q is None and not e.flagged
    assert Paired(3, 1, 1600).varied and Paired(3, 1, 1600).p is not None


def test_mde_and_games_needed_agree() -> None:
    n = games_needed_two_rates(0.05, 1 / 6)
    exposed = round(n / 6)
    assert mde_two_rates(exposed, n - exposed, 0.5) == pytest.approx(0.05, rel=0.01)
    assert mde_paired(0.7, games_needed_paired(0.04, 0.7)) <= 0.04
    assert mde_two_rates(100, 100, 0.5) == pytest.approx((1.959964 + 0.841621) * math.sqrt(0.25 * 2 / 100),
                                                         rel=1e-5)


def test_descriptive_differences_are_never_tested() -> None:
    d = Diff(Rate(90, 100), Rate(10, 100), descriptive=True)
    flag([d])
    assert d.p is None and d.q is None and not d.flagged and d.value == pytest.approx(0.8)
