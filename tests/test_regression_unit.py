"""Regression's summary metrics and the rule that marks one as changed beyond the threshold, on hand-made
runs (tests/handmade.py), without Ray: every expected number is worked out by hand from the rows written
here. These metrics are shown, never gating: the gates are tested in tests/test_regression_gates.py."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reports.regression.compare import Change, Regression, Thresholds, compare_runs
from reports.regression.render import render_markdown
from reports.regression.summary import run_metrics
from sim.cli import app
from tests.handmade import game, write_run

DM, HF = "deathmatch", "high-form"
IMP, SYL = "imperial", "sylvan"
SWORD, DRAGON, FLARE = "imperial/swordmaster", "legend/fire-dragon", "flare/01"
TA, TB = "task/destruction", "task/devastation"


def _card(game_id: int, seat: int, card_id: str, event: str, turn: int = 1) -> dict:
    return {"game_id": game_id, "seat": seat, "turn": turn, "card_id": card_id, "event": event}


def test_run_metrics_on_a_small_run(tmp_path: Path) -> None:
    games = [
        game(0, DM, (IMP, SYL), first=0, winner=0),
        game(1, DM, (IMP, SYL), first=1, winner=0),  # the second player wins
        game(2, DM, (SYL, IMP), first=1, winner=-1),  # a tie: nobody's win
        game(3, HF, (IMP, IMP), first=0, winner=1),
    ]
    card_events = [
        _card(0, 0, SWORD, "drawn"), _card(0, 0, SWORD, "drawn", 4),  # twice: one seat-game
        _card(0, 0, SWORD, "played", 5), _card(0, 0, SWORD, "played", 6),
        _card(1, 0, SWORD, "drawn"),
        _card(2, 1, SWORD, "drawn"), _card(2, 1, SWORD, "played"),
        _card(0, 1, FLARE, "drawn"), _card(0, 1, FLARE, "invoked"),
        _card(3, 1, SWORD, "drawn"),
        _card(3, 0, DRAGON, "played"),
    ]
    task_events = [
        {"game_id": 3, "seat": -1, "task_id": TA, "event": "revealed"},
        {"game_id": 3, "seat": -1, "task_id": TB, "event": "revealed"},
        {"game_id": 3, "seat": 1, "task_id": TA, "event": "claimed", "points": 2},
    ]
    run = write_run(tmp_path / "run", games, card_events=card_events, task_events=task_events)
    got = [(m.metric, m.kind, m.mode, m.subject, m.context, m.successes, m.trials) for m in run_metrics(run)]
    assert got == [
        # the report's deck win rate against the other decks: DM seat-games 0/0 won, 1/0 won, 2/1 tied; the
        # High Form mirror has no games against another deck
        ("deck_win_rate", "controlled", DM, IMP, "random vs random", 2, 3),
        ("deck_win_rate", "controlled", DM, SYL, "random vs random", 0, 3),
        ("first_player_win_rate", "randomized", DM, "first player", "random vs random", 1, 3),  # only game 0's
        ("first_player_win_rate", "randomized", HF, "first player", "random vs random", 0, 1),
        # played / drawn seat-games: DM swordmaster drawn in 0/0, 1/0, 2/1, played in 0/0 and 2/1.
        ("card_play_rate_when_drawn", "descriptive", DM, FLARE, "", 1, 1),
        ("card_play_rate_when_drawn", "descriptive", DM, SWORD, "", 2, 3),
        ("card_play_rate_when_drawn", "descriptive", HF, SWORD, "", 0, 1),
        ("card_win_rate_when_drawn", "descriptive", DM, FLARE, "", 0, 1),
        ("card_win_rate_when_drawn", "descriptive", DM, SWORD, "", 2, 3),  # 0/0 won, 1/0 won, 2/1 tied
        ("card_win_rate_when_drawn", "descriptive", HF, SWORD, "", 1, 1),
        ("card_win_rate_when_played", "descriptive", DM, FLARE, "", 0, 1),
        ("card_win_rate_when_played", "descriptive", DM, SWORD, "", 1, 2),
        ("card_win_rate_when_played", "descriptive", HF, DRAGON, "", 0, 1),
        ("task_claim_rate_when_revealed", "descriptive", HF, TA, "", 1, 1),
        ("task_claim_rate_when_revealed", "descriptive", HF, TB, "", 0, 1),
    ]  # no randomized card or task estimate: nothing was dealt in an opening hand, no deck order was written


def _split_run(path: Path, first_wins_each_seat: int, cards: dict[str, str], drawn: bool = False) -> Path:
    """200 Deathmatch games, imperial in seat 0; seat 0 goes first in games 0-99, seat 1 in 100-199.
    The first player wins ``first_wins_each_seat`` games of each half, so seat 0 (imperial) wins
    exactly 100 games whatever the first player's rate: only the first-player metric changes."""
    games = []
    for i in range(200):
        first = 0 if i < 100 else 1
        first_won = i % 100 < first_wins_each_seat
        games.append(game(i, DM, (IMP, SYL), first=first, winner=first if first_won else 1 - first))
    events = [_card(0, 0, SWORD, "drawn")] if drawn else []
    return write_run(path, games, manifest={"name": path.name, "card_set": {"cards": cards}}, card_events=events)


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("regress")
    base = _split_run(tmp / "base", 50, {"a": "1", "b": "2", "c": "3"})  # the first player wins 100 of 200
    cand = _split_run(tmp / "cand", 75, {"a": "1", "b": "9", "d": "4"}, drawn=True)  # 150 of 200
    return base, cand


def _expected_p() -> float:
    """The pooled two-proportion z-test of 100/200 against 150/200, by hand."""
    pooled = 250 / 400
    z = (150 / 200 - 100 / 200) / math.sqrt(pooled * (1 - pooled) * (2 / 200))
    return math.erfc(z / math.sqrt(2))


def _beyond(result: Regression) -> list[Change]:
    return [c for c in result.changes if c.beyond_threshold]


def test_only_the_first_player_metric_changes_and_it_does_not_gate(pair) -> None:
    result = compare_runs(*pair, Thresholds())
    assert Thresholds() == Thresholds(min_difference=0.03, alpha=0.05, min_trials=50)
    assert [(c.base.metric, c.base.subject) for c in result.changes] == [
        ("deck_win_rate", IMP), ("deck_win_rate", SYL), ("first_player_win_rate", "first player")]
    assert result.moved == []  # the deck gates did not move: the first player's rate is not a verdict
    [moved] = _beyond(result)
    assert (moved.base.successes, moved.base.trials, moved.cand.successes, moved.cand.trials) == (100, 200, 150, 200)
    assert moved.difference == 0.25
    assert moved.p_value == pytest.approx(_expected_p(), rel=1e-9)
    assert moved.q_value == pytest.approx(3 * _expected_p(), rel=1e-9)  # the smallest of 3 p-values
    assert [c.p_value for c in result.changes[:2]] == [1.0, 1.0]  # the deck rates did not change


def test_cards_and_metrics_in_one_run_only(pair) -> None:
    result = compare_runs(*pair, Thresholds())
    assert (result.changed_cards, result.added_cards, result.removed_cards) == (["b"], ["d"], ["c"])
    assert result.only_in_one == 2  # the candidate's drawn card: win rate and play rate when drawn
    assert result.untested == 0


@pytest.mark.parametrize(("min_difference", "moves"), [(0.25, True), (0.2500001, False)])
def test_a_move_needs_the_minimum_difference(pair, min_difference: float, moves: bool) -> None:
    result = compare_runs(*pair, Thresholds(min_difference=min_difference))
    assert bool(_beyond(result)) is moves


@pytest.mark.parametrize(("factor", "moves"), [(1.01, True), (0.99, False)])
def test_a_move_needs_a_q_value_below_alpha(pair, factor: float, moves: bool) -> None:
    result = compare_runs(*pair, Thresholds(alpha=3 * _expected_p() * factor))
    assert bool(_beyond(result)) is moves


@pytest.mark.parametrize(("min_trials", "tested"), [(200, 3), (201, 0)])
def test_metrics_with_too_few_trials_are_not_tested(pair, min_trials: int, tested: int) -> None:
    result = compare_runs(*pair, Thresholds(min_trials=min_trials))
    assert (len(result.changes), result.untested) == (tested, 3 - tested)


def test_markdown_and_exit_codes(pair, tmp_path: Path) -> None:
    text = render_markdown(compare_runs(*pair, Thresholds()))
    assert "below 0.05 and its change is not shown to be smaller than 0.030" in text
    assert ("3 metrics tested (1 randomized, 0 ablation, 2 controlled, 0 descriptive), 0 with too few trials or "
            "no interval, 2 in one run only") in text
    assert "- changed: `b`" in text and "- added: `d`" in text and "- removed: `c`" in text
    assert "## Changed cards" in text and "## Verdict: 0 gate(s) moved" in text
    assert ("| first_player_win_rate | deathmatch | first player | random vs random | 0.500 (n=200) | 0.750 (n=200) "
            "| +0.250 |") in text
    base, cand = (str(p) for p in pair)
    cli = CliRunner()
    calm = cli.invoke(app, ["regress", "--baseline", base, "--candidate", cand, "--md", str(tmp_path / "r.md")])
    assert calm.exit_code == 0, calm.output  # only a non-gating metric changed
    assert (tmp_path / "r.md").read_text() == text
    same = cli.invoke(app, ["regress", "--baseline", base, "--candidate", base])
    assert same.exit_code == 2 and "given twice" in same.output


def test_a_moved_deck_gate_exits_1(tmp_path: Path) -> None:
    def run(name: str, imperial_wins: int) -> str:
        games = [game(i, DM, (IMP, SYL), first=i % 2, winner=0 if i < imperial_wins else 1) for i in range(200)]
        return str(write_run(tmp_path / name, games, manifest={"name": name, "card_set": {"cards": {}}}))

    base, cand = run("base", 100), run("cand", 150)
    cli = CliRunner()
    moved = cli.invoke(app, ["regress", "--baseline", base, "--candidate", cand])
    assert moved.exit_code == 1, moved.output
    assert "| deck win rate (against other decks) | deathmatch | imperial | 0.500 | 0.750 |" in moved.output
    # +0.25 [+0.16, +0.34]: it may be a change of 0.3, so it moved; it is shown to be less than 0.4
    reaches = cli.invoke(app, ["regress", "--baseline", base, "--candidate", cand, "--min-difference", "0.3"])
    assert reaches.exit_code == 1, reaches.output
    calm = cli.invoke(app, ["regress", "--baseline", base, "--candidate", cand, "--min-difference", "0.4"])
    assert calm.exit_code == 0, calm.output
