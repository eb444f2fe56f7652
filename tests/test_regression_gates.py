"""The regression gates on hand-made runs whose answers are worked out by hand (no Ray)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from reports.dataset import open_runs
from reports.regression.compare import Thresholds, compare_runs
from reports.regression.effects import Estimate, minimal_detectable_effect, paired_difference, unpaired_difference
from reports.regression.gates import ABLATION_SQL, Gate, decide, seat_outcomes
from reports.regression.render import render_markdown
from tests.handmade import game
from tests.handmade import write_run as write_handmade
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
    t = stats.ttest_ind(cand, base, equal_var=False)
    assert est.difference == pytest.approx(0.2) and est.p_value == pytest.approx(t.pvalue)
    paired = paired_difference(base, cand)
    assert paired.p_value == pytest.approx(stats.ttest_rel(cand, base).pvalue)


KNIGHT, SUMMONER = "imperial/knight", "imperial/summoner"
BLOCKS = 12  # games in blocks of 18: in each, Imperial's being sits at positions 0-17 in turn


def _position(i: int) -> int:
    return i % 18


def _flat() -> list[tuple[str, str, str, int]]:
    """Imperial (seat 0) wins every game of the even blocks: half its games, whatever the card's position."""
    return _games_won_where(lambda i: (i // 18) % 2 == 0)


def _games_won_where(won) -> list[tuple[str, str, str, int]]:
    return [(DM, "imperial", "highland", 0 if won(i) else 1) for i in range(18 * BLOCKS)]


def _early(low: int, high: int):
    """Imperial wins the even blocks, and in the odd ones the games where the card lay at ``low``-``high``."""
    return lambda i: (i // 18) % 2 == 0 or low <= _position(i) <= high


def _positions_of(card: str) -> list[tuple[int, int, str, int]]:
    return [(i, 0, card, _position(i)) for i in range(18 * BLOCKS)]


def _expected_change(base_won, cand_won) -> float:
    """The change of the position effect by hand: minus 17 times the slope of the per-game change on the
    position (np.polyfit), as the fitted result at the top of the deck minus at its bottom."""
    x = np.array([_position(i) for i in range(18 * BLOCKS)], dtype=float)
    d = np.array([float(cand_won(i)) - float(base_won(i)) for i in range(18 * BLOCKS)])
    return -17 * float(np.polyfit(x, d, 1)[0])


def test_a_changed_beings_own_effect_is_the_change_of_its_shuffled_position_effect(tmp_path):
    # The planted strong Knight wins the odd blocks' games where it lay at positions 3-8: after the opening
    # hand (0-2) but early. Held in the opening hand it gains nothing, so an opening-hand comparison would
    # call it weaker (-0.2); the dose-response sees it stronger, and the opening hand never gates.
    flat, strong = (lambda i: (i // 18) % 2 == 0), _early(3, 8)
    opening = [(i, 0, KNIGHT) for i in range(18 * BLOCKS) if _position(i) < 3]
    a = write_run(tmp_path / "a", _flat(), opening=opening, positions=_positions_of(KNIGHT))
    b = write_run(tmp_path / "b", _games_won_where(strong), opening=opening, positions=_positions_of(KNIGHT),
                  cards={KNIGHT: "k2"})
    r = compare_runs(a, b, Thresholds())
    assert r.changed_cards == [KNIGHT] and r.paired
    (gate,) = [g for g in r.gates if g.subject == KNIGHT]
    assert gate.metric == "card_position_effect" and gate.estimate.n == 18 * BLOCKS
    assert gate.estimate.baseline == pytest.approx(0.0, abs=1e-12)  # no slope in the baseline
    assert gate.estimate.difference == pytest.approx(_expected_change(flat, strong))
    assert gate.estimate.difference == pytest.approx(17 * 0.5 / ((18**2 - 1) / 12))  # cov(x, d) = -0.5, by hand
    assert gate.moved and gate.estimate.low > 0
    page = render_markdown(r)
    assert "own effect (shuffled position)" in page and "**moved up**" in page and "opening hand" not in page
    assert page.index("changed: `imperial/knight`") < page.index("## Verdict")


def _tied_early(i: int) -> float:
    """Imperial's result when it ties, rather than loses, the odd blocks' games with the card at 3-8."""
    if (i // 18) % 2 == 0:
        return 1.0
    return 0.5 if 3 <= _position(i) <= 8 else 0.0


def test_a_tie_counts_half_a_win_in_the_position_effect(tmp_path):
    winner = {1.0: 0, 0.5: -1, 0.0: 1}
    games = [(DM, "imperial", "highland", winner[_tied_early(i)]) for i in range(18 * BLOCKS)]
    a = write_run(tmp_path / "a", _flat(), positions=_positions_of(KNIGHT))
    b = write_run(tmp_path / "b", games, positions=_positions_of(KNIGHT), cards={KNIGHT: "k2"})
    (gate,) = [g for g in compare_runs(a, b, Thresholds()).gates if g.subject == KNIGHT]
    assert gate.metric == "card_position_effect"
    assert gate.estimate.difference == pytest.approx(_expected_change(lambda i: (i // 18) % 2 == 0, _tied_early))
    assert gate.estimate.difference == pytest.approx(0.5 * 17 * 0.5 / ((18**2 - 1) / 12))  # half the win's


@pytest.mark.parametrize("paired", [True, False])
def test_planted_strong_and_useless_cards_move_every_card_gate_the_right_way(tmp_path, paired):
    """The sign of every gate that can move for a card: a card made stronger never moves down, a card made
    useless never moves up; for both kinds of card gate, paired (same seeds) and not."""
    seed = 1 if paired else 2
    both = _positions_of(KNIGHT) + _positions_of(SUMMONER)
    flat = write_run(tmp_path / "flat", _flat(), positions=both)
    summoner = write_run(tmp_path / "summoner", _games_won_where(_early(0, 5)), positions=both,
                         cards={KNIGHT: "k1", SUMMONER: "s1"})  # the Summoner helps when it comes early
    strong = write_run(tmp_path / "strong", _games_won_where(_early(0, 8)), base_seed=seed, positions=both,
                       cards={KNIGHT: "strong"})  # the Knight now wins the games where it comes in the top half
    useless = write_run(tmp_path / "useless", _flat(), base_seed=seed, positions=both,
                        cards={KNIGHT: "k1", SUMMONER: "useless"})  # the Summoner's early wins are gone
    for base, cand, card, sign in ((flat, strong, KNIGHT, 1), (summoner, useless, SUMMONER, -1)):
        r = compare_runs(base, cand, Thresholds(min_trials=10))
        (gate,) = [g for g in r.gates if g.subject == card]
        assert gate.metric == "card_position_effect" and r.paired is paired
        assert gate.estimate.difference * sign > 0 and gate.moved, gate
    # ablation gates: with the vanilla copy Imperial wins 40 games of 100 in both runs; with the card, 50 then
    # 70 (stronger) or 40 (useless: no better than its vanilla copy)
    arm = [0 if i < 40 else 1 for i in range(100)]
    base = write_run(tmp_path / "ablation-base", _games(100, 50), ablation=(KNIGHT, 0, arm))
    for path, wins, sign in ((tmp_path / "strong-ablation", 70, 1), (tmp_path / "useless-ablation", 40, -1)):
        cand = write_run(path, _games(100, wins), base_seed=seed, ablation=(KNIGHT, 0, arm), cards={KNIGHT: "k2"})
        r = compare_runs(base, cand, Thresholds(min_trials=10))
        (gate,) = [g for g in r.gates if g.subject == KNIGHT]
        assert gate.metric == "card_ablation_effect" and gate.estimate.difference * sign > 0 and gate.moved


def test_a_changed_legend_without_an_ablation_has_no_own_effect_gate(tmp_path):
    a = write_run(tmp_path / "a", _games(100, 50), cards={"legend/fire-dragon": "d1"})
    b = write_run(tmp_path / "b", _games(100, 50), cards={"legend/fire-dragon": "d2"})
    r = compare_runs(a, b, Thresholds())
    assert r.changed_cards == ["legend/fire-dragon"]
    assert {g.metric for g in r.gates} == {"deck_win_rate"}
    assert "no own-effect gate: the runs do not both ablate it" in render_markdown(r)


def _decided(difference: float, low: float, high: float, p: float = 1e-6) -> Gate:
    gate = Gate("deck_win_rate", DM, "imperial", Estimate(0.5, 0.5 + difference, difference, low, high, p, 10_000,
                                                          True), 0.005)
    decide([gate], 0.03, 0.05, 50)
    return gate


def test_a_gate_moves_unless_its_change_is_shown_smaller_than_the_threshold():
    assert _decided(0.025, 0.012, 0.038).moved  # below the threshold, but it may be 3 points: moved
    assert _decided(-0.025, -0.038, -0.012).moved
    assert not _decided(0.02, 0.015, 0.025).moved  # shown to be less than 3 points
    assert not _decided(0.04, 0.001, 0.079, p=0.2).moved  # not significant
    assert _decided(0.03, 0.02, 0.04).power == pytest.approx(
        min(stats.norm.cdf(0.03 / 0.005 - stats.norm.isf(0.05 / 2)), 0.975))


def test_small_studies_say_what_they_cannot_detect(tmp_path):
    a = write_run(tmp_path / "a", _games(60, 30))
    b = write_run(tmp_path / "b", _games(60, 31))
    r = compare_runs(a, b, Thresholds(min_difference=0.03))
    assert len(r.underpowered) == 2 and all(g.mde > 0.2 for g in r.underpowered)
    assert "Too small to see the threshold" in render_markdown(r)


def test_where_the_study_ablates_a_changed_card_its_own_effect_is_the_ablations(tmp_path):
    # Imperial (seat 0) against Highland; the Knight's arm replays every seed with a vanilla Knight in seat 0.
    arm = [0 if i < 40 else 1 for i in range(100)]  # without the Knight, Imperial wins games 0-39
    a = write_run(tmp_path / "a", _games(100, 50), ablation=("imperial/knight", 0, arm))
    b = write_run(tmp_path / "b", _games(100, 70), ablation=("imperial/knight", 0, arm),
                  cards={"imperial/knight": "k2"})
    r = compare_runs(a, b, Thresholds(min_trials=10))
    (gate,) = [g for g in r.gates if g.subject == "imperial/knight"]
    assert gate.metric == "card_ablation_effect" and gate.estimate.paired
    assert gate.estimate.baseline == pytest.approx(0.1)  # won 10 more of 100 with the Knight
    assert gate.estimate.candidate == pytest.approx(0.3)
    assert gate.estimate.difference == pytest.approx(0.2) and gate.moved
    imperial = next(g for g in r.gates if g.subject == "imperial")
    assert imperial.estimate.difference == pytest.approx(0.2)  # arms never count as the study's games
    assert "own effect (ablation)" in render_markdown(r)


def test_ablation_units_pair_each_arm_game_with_its_unchanged_game_for_the_seats_the_card_matters_to(tmp_path):
    """ablation_units.sql against the rows of one run that ablates a being, a legend and a task: each card's
    units come from its own arm only; the being's from the seat of its vanilla copy, the legend's from the
    seats dealt it at setup, the task's from both seats (none in a mirror); the value is the seat's result
    with the card minus without it (1 win, 0.5 tie, 0 loss), worked out here from the winners written."""
    decks = ("imperial", "highland")
    base = [0, 1, -1, 0, 1, 0]
    arms = {KNIGHT: (0, [1, 1, 0, -1, 1, 0]), "legend/fire-dragon": (-1, [0, 0, 1, 1, -1, 1]),
            "task/destruction": (-1, [1, 0, 0, 0, -1, 1])}
    rows = [game(i, DM, decks, first=0, winner=w) | {"variant_seat": -1} for i, w in enumerate(base)]
    for card, (seat, winners) in arms.items():
        rows += [game(len(rows), DM, decks, first=0, winner=w) | {"seed": i, "variant": f"vanilla:{card}",
                                                                  "variant_seat": seat}
                 for i, w in enumerate(winners)]
    # A mirror's task pair: its two seats would cancel, so it gives no unit.
    rows += [game(len(rows), DM, ("imperial", "imperial"), first=0, winner=0) | {"seed": 6, "variant_seat": -1},
             game(len(rows) + 1, DM, ("imperial", "imperial"), first=0, winner=1)
             | {"seed": 6, "variant": "vanilla:task/destruction", "variant_seat": -1}]

    def drawn(game_id: int, seat: int, card: str, card_type: str, opening: bool) -> dict:
        return {"game_id": game_id, "seat": seat, "card_id": card, "card_type": card_type, "event": "drawn",
                "opening": opening, "turn": 0 if opening else 5}

    events = [drawn(1, 0, "legend/fire-dragon", "legend", True), drawn(3, 1, "legend/fire-dragon", "legend", True),
              drawn(4, 0, "legend/fire-dragon", "legend", False),  # drawn later, not dealt at setup
              drawn(5, 1, "legend/titan", "legend", True), drawn(0, 0, "flare/01", "flare", True)]
    run = write_handmade(tmp_path / "run", rows, card_events=events)
    seats = {KNIGHT: [(g, 0) for g in range(6)], "legend/fire-dragon": [(1, 0), (3, 1)],
             "task/destruction": [(g, s) for g in range(6) for s in (0, 1)]}

    def result(winner: int, seat: int) -> float:
        return 1.0 if winner == seat else 0.5 if winner == -1 else 0.0

    _, con = open_runs([run])
    try:
        for card, (_, winners) in arms.items():
            got = con.sql(ABLATION_SQL.read_text(), params={"card": card}).fetchall()
            want = [(0, DM, g, s, result(base[g], s) - result(winners[g], s)) for g, s in seats[card]]
            assert got == want, card
    finally:
        con.close()


def test_seat_outcomes_are_each_seats_result_from_the_winner(tmp_path):
    """seat_outcomes.sql against the rows: a win, a loss and a tie, seen from both seats."""
    rows = [game(0, DM, ("imperial", "highland"), first=0, winner=0),
            game(1, DM, ("sylvan", "imperial"), first=1, winner=1),
            game(2, DM, ("highland", "sylvan"), first=0, winner=-1)]
    _, con = open_runs([write_handmade(tmp_path / "run", rows)])
    try:
        got = seat_outcomes(con).rows()
    finally:
        con.close()
    assert got == [(0, 0, DM, 0, "imperial", "highland", 1.0), (0, 0, DM, 1, "highland", "imperial", 0.0),
                   (0, 1, DM, 0, "sylvan", "imperial", 0.0), (0, 1, DM, 1, "imperial", "sylvan", 1.0),
                   (0, 2, DM, 0, "highland", "sylvan", 0.5), (0, 2, DM, 1, "sylvan", "highland", 0.5)]
