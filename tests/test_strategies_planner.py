"""The default player ``planner`` (builder choosing its actions by short rollouts) and ``planner-classic``
(the planner before issue 25): registration, parameters, determinism, the hidden-information guarantee,
and the blind spots it no longer has (Herald's optional moves, returns at a discard), through the Python
API."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pipelines.study import StudyConfigError, parse_study
from sim import board
from sim.cards import load_card_set
from sim.decisions import DISCARD, SUMMON, Action, Decision
from sim.game import Game
from sim.scenario import load_scenario
from sim.state import DEATHMATCH, HIGH_FORM
from strategies import STRATEGIES, StrategyConfigError, make_strategy
from strategies.registry import DEFAULT_STRATEGY
from tests.test_strategies import _after_some_turns, _with_hidden_order_changed

FEW = {"rollouts": 2}


def test_the_default_is_the_shipped_swift_preset_and_planner_keeps_its_parameters():
    assert DEFAULT_STRATEGY == "swift_tuned" and make_strategy(DEFAULT_STRATEGY, 0, 1).name == "swift"
    s = make_strategy("planner", 0, 1)
    assert "planner" in STRATEGIES
    assert s.native and (s.player.setting("rollouts"), s.player.setting("shortlist")) == (4.0, 4.0)
    assert make_strategy("planner", 1, 1, {"shortlist": 6}).player.setting("shortlist") == 6.0
    assert s.player.setting("effect_runs") == 12.0


def test_planner_classic_keeps_the_old_parameters():
    s = make_strategy("planner-classic", 0, 1, {"rollouts": 3})
    assert s.name == "planner-classic" and "planner-classic" in STRATEGIES
    assert (s.player.setting("rollouts"), s.player.setting("effect_runs")) == (3.0, None)
    with pytest.raises(StrategyConfigError, match="strategy 'planner-classic' has no parameter 'effect_runs'; "
                                                  "its parameters: pass_control, pass_margin, rollouts, shortlist"):
        make_strategy("planner-classic", 0, 0, {"effect_runs": 1})


@pytest.mark.parametrize("params, message", [
    ({"rollouts": 0}, "parameter 'rollouts' must be at least 1"),
    ({"shortlist": 2.5}, "parameter 'shortlist' must be a whole number"),
    ({"base": "greedy"}, "strategy 'planner' has no parameter 'base'; its parameters: effect_runs, halving, "
                         "pass_control, pass_margin, rollouts, shortlist"),
    ({"effect_runs": -1}, "parameter 'effect_runs' must be at least 0"),
])
def test_planner_parameter_errors(params, message):
    with pytest.raises(StrategyConfigError, match=message):
        make_strategy("planner", 0, 0, params)


def test_a_study_can_use_planner():
    data = {"forms": ["high-form"], "deck_pairings": [["imperial", "sylvan"]], "games_per_cell": 2,
            "base_seed": 7, "players": {"planner.wide": {"strategy": "planner", "params": {"shortlist": 8}}},
            "strategy_pairings": [["planner.wide", "planner"]]}
    s = parse_study(data, Path("/studies/planner.toml"))
    assert s.players["planner.wide"].params == {"shortlist": 8}
    data["players"]["planner.wide"]["params"] = {"rollouts": -1}
    with pytest.raises(StudyConfigError, match="rollouts"):
        parse_study(data, Path("/studies/planner.toml"))


def _play(seed: int, mode: str, name: str):
    players = [make_strategy(name, 0, seed, FEW), make_strategy("builder", 1, seed)]
    return Game(load_card_set(), mode, ["imperial", "highland"], players, seed).play()


@pytest.mark.parametrize("name", ["planner", "planner-classic"])
@pytest.mark.parametrize("mode", [HIGH_FORM, DEATHMATCH])
def test_planner_games_are_reproducible_from_the_seed(mode, name):
    a, b = _play(4, mode, name), _play(4, mode, name)
    assert a.events == b.events and a.winner == b.winner


@pytest.mark.parametrize("name", ["planner", "planner-classic"])
def test_planner_decisions_do_not_depend_on_hidden_information(name):
    for seed in range(3):
        one, two = _after_some_turns(seed, 8), _after_some_turns(seed, 8)
        _with_hidden_order_changed(two, random.Random(seed))
        assert one.state.hand[1] != two.state.hand[1] or one.state.deck[0] != two.state.deck[0]
        picks = []
        for game in (one, two):
            strategy = make_strategy(name, 0, seed, FEW)
            d = Decision("action", 0, game.action_options(0))
            picks.append((strategy.choose(game.views[0], d), strategy.plan))
        assert picks[0] == picks[1]


# Herald ("up to two moves onto empty squares with its owner's pieces") summoned at d4 from e5, f5, e6,
# while the player's heroic on g8 stands next to an enemy legendary piece on h8: moving it away is worth
# a piece at risk, though it destroys nothing. Deathmatch, so no task square makes the move pay at once.
HERALD = """mode: deathmatch
decks: imperial, highland
active: 1
turn: 5
actions: 1
ask: all
hand 1: imperial/herald
arena:
  a  b  c  d  e  f  g  h  i
1 -- -- .. .. .. .. .. -- --
2 -- .. .. .. .. .. .. .. --
3 .. .. .. .. .. .. .. .. ..
4 .. .. .. .. .. .. .. .. ..
5 .. .. .. .. 1c 1c .. .. ..
6 .. .. .. .. 1c .. .. .. ..
7 .. .. .. .. .. .. .. .. ..
8 -- .. .. .. .. .. 1h 2l --
9 -- -- .. .. .. .. .. -- --
"""


@pytest.mark.parametrize("name, moved", [("planner", True), ("planner-classic", False)])
def test_the_planner_takes_heralds_optional_move_when_the_position_gains(name, moved):
    for seed in range(3):
        players = [make_strategy(name, 0, seed, FEW), make_strategy("builder", 1, seed)]
        game = load_scenario(HERALD, players)
        game.apply_action(0, Action(SUMMON, game.state.hand[0][0]))
        heroic = game.state.pieces[0][1]
        assert (heroic != 1 << board.parse_square("g8")) == moved
        assert bool(board.ADJACENT[board.parse_square("h8")] & heroic) != moved  # out of the legendary's reach


# Three heroics in hand that need pieces the player lacks, while the commons on d4, f4, d6 and f6 are
# already patterns for cheap cards of the deck (Swordmaster, Messenger): cycling a far card is worth it.
CYCLE = """mode: deathmatch
decks: imperial, imperial
active: 1
turn: 9
actions: 1
hand 1: imperial/summoner, imperial/cannon, imperial/gun-tower
legends 1: legend/titan
arena:
  a  b  c  d  e  f  g  h  i
1 -- -- .. .. .. .. .. -- --
2 -- .. .. .. .. .. .. .. --
3 .. .. .. .. .. .. .. .. ..
4 .. .. .. 1c .. 1c .. .. ..
5 .. .. .. .. .. .. .. .. ..
6 .. .. .. 1c .. 1c .. .. ..
7 .. .. .. .. .. .. .. .. ..
8 -- .. .. .. .. .. 2c 2c --
9 -- -- .. .. .. .. .. -- --
"""


@pytest.mark.parametrize("name, returns", [("planner", True), ("planner-classic", False)])
def test_the_planner_returns_a_far_card_when_it_discards(name, returns):
    players = [make_strategy(name, 0, 1, FEW), make_strategy("builder", 1, 1)]
    game = load_scenario(CYCLE, players)
    held = list(game.state.hand[0])
    players[0].choose(game.views[0], Decision("action", 0, [Action(DISCARD)]))
    game.apply_action(0, Action(DISCARD))
    s = game.state
    returned = [c for c in held if c in s.deck[0]]
    assert bool(returned) == returns and len(s.discarded[0]) == 1
    if returns:
        assert s.deck[0][0] == returned[0]  # to the bottom of the deck
