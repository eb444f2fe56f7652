"""The regression gates on hand-made runs whose answers are worked out by hand (no Ray)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reports.regression.compare import Thresholds, compare_runs
from reports.regression.effects import minimal_detectable_effect, paired_difference, unpaired_difference
from reports.regression.render import render_markdown
from tests.regression_runs import write_run

DM = "deathmatch"


def _games(n: int, imperial_wins: int) -> list[tuple[str, str, str, int]]:
    """``n`` Deathmatch games Imperial (seat 0) against Highland; the first ``imperial_wins`` won by Imperial."""
    return [(DM, "imperial", "highland", 0 if i < imperial_wins else 1) for i in range(n)]


def test_identical_runs_are_paired_and_nothing_moves(tmp_path):
    a = write_run(tmp_path / "a", _games(200, 100))
    b = write_run(tmp_path / "b", _games(200, 100))
    r = compare_runs(a, b, Thresholds())
    assert r.paired and not r.moved
    assert {(g.metric, g.subject) for g in r.gates} == {("deck_win_rate", "imperial"), ("deck_win_rate", "highland")}
    for g in r.gates:
        assert g.estimate.difference == 0 and g.estimate.p_value == 1.0 and g.q_value == 1.0


def test_a_paired_change_is_the_mean_of_per_game_changes(tmp_path):
    a = write_run(tmp_path / "a", _games(200, 100))
    b = write_run(tmp_path / "b", _games(200, 140))  # games 100-139 flip to Imperial: +0.2
    r = compare_runs(a, b, Thresholds())
    imperial = next(g for g in r.gates if g.subject == "imperial")
    d = np.array([1.0] * 40 + [0.0] * 160)
    se = d.std(ddof=1) / math.sqrt(200)
    assert imperial.estimate.difference == pytest.approx(0.2)
    assert imperial.estimate.high - imperial.estimate.difference == pytest.approx(1.9720 * se, rel=1e-3)
    assert imperial.moved and imperial.q_value < 1e-6
    assert imperial.mde == pytest.approx(minimal_detectable_effect(math.sqrt(0.5 / 200), 0.05 / 2))


def test_runs_with_other_seeds_are_compared_as_independent_samples(tmp_path):
    a = write_run(tmp_path / "a", _games(200, 100), base_seed=1)
    b = write_run(tmp_path / "b", _games(200, 100), base_seed=2)
    r = compare_runs(a, b, Thresholds())
    assert not r.paired and not r.moved
    assert "unpaired (the runs played different seeds)" in render_markdown(r)


def test_welch_against_a_direct_computation():
    base = np.array([1.0] * 30 + [0.0] * 70)
    cand = np.array([1.0] * 45 + [0.5] * 10 + [0.0] * 45)
    est = unpaired_difference(base, cand)
    from scipy import stats

    t = stats.ttest_ind(cand, base, equal_var=False)
    assert est.difference == pytest.approx(0.2) and est.p_value == pytest.approx(t.pvalue)
    paired = paired_difference(base, cand)
    assert paired.p_value == pytest.approx(stats.ttest_rel(cand, base).pvalue)


def test_a_changed_cards_own_effect_is_the_change_of_its_opening_hand_gap(tmp_path):
    # 100 games; seat 0 (Imperial) holds the Knight in its opening hand in games 0-49.
    opening = [(i, 0, "imperial/knight") for i in range(50)]
    a = write_run(tmp_path / "a", _games(100, 50), opening=opening)  # games 0-49 won by Imperial
    b_games = _games(100, 50)
    b_games[50:60] = [(DM, "imperial", "highland", -1)] * 10  # ties where the Knight was not held: +0.05
    b = write_run(tmp_path / "b", b_games, opening=opening, cards={"imperial/knight": "k2"})
    r = compare_runs(a, b, Thresholds(min_trials=10))
    assert r.changed_cards == ["imperial/knight"]
    (gate,) = [g for g in r.gates if g.metric == "card_opening_effect"]
    assert gate.estimate.baseline == pytest.approx(1.0)  # held: all won; not held: all lost
    assert gate.estimate.candidate == pytest.approx(1.0 - 0.1)  # not held: 10 ties of 50 = 0.1
    assert gate.estimate.difference == pytest.approx(-0.1)
    page = render_markdown(r)
    assert page.index("changed: `imperial/knight`") < page.index("## Verdict")


def test_small_studies_say_what_they_cannot_detect(tmp_path):
    a = write_run(tmp_path / "a", _games(60, 30))
    b = write_run(tmp_path / "b", _games(60, 31))
    r = compare_runs(a, b, Thresholds(min_difference=0.03))
    assert len(r.underpowered) == 2 and all(g.mde > 0.2 for g in r.underpowered)
    assert "Too small to see the threshold" in render_markdown(r)
