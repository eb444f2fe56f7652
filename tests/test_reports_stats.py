"""The report's statistics against published values (Newcombe 1998; Benjamini and Hochberg 1995)."""

from __future__ import annotations

import math

import pytest

from reports.stats import (
    MIN_TEST_SAMPLE,
    Diff,
    Rate,
    benjamini_hochberg,
    flag,
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
