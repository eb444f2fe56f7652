"""The fast player ``swift`` (builder playing out only its close decisions): registration, parameters,
determinism, the hidden-information guarantee and the positional effect choices it shares with the
planner, through the Python API."""

from __future__ import annotations

import random

import pytest

from sim import board
from sim.cards import load_card_set
from sim.decisions import SUMMON, Action, Decision
from sim.game import Game
from sim.scenario import load_scenario
from sim.state import DEATHMATCH, HIGH_FORM
from strategies import STRATEGIES, StrategyConfigError, make_strategy
from tests.test_strategies import _after_some_turns, _with_hidden_order_changed
from tests.test_strategies_planner import HERALD

# every decision close: the rollouts are exercised too
WIDE = {"margin": 1000.0}


def test_swift_is_registered_with_its_parameters():
    s = make_strategy("swift", 0, 1)
    assert "swift" in STRATEGIES and s.native and s.name == "swift"
    assert [s.player.setting(n) for n in ("rollouts", "shortlist", "margin", "effect_runs")] == [2.0, 2.0, 1.0, 3.0]
    assert make_strategy("swift", 1, 1, {"margin": 0.5}).player.setting("margin") == 0.5
    # its evaluation's weights: builder's unless given
    assert s.player.setting("heroic") == 2.5 and s.player.setting("patterns") == 1.5
    assert make_strategy("swift", 1, 1, {"heroic": 6.0}).player.setting("heroic") == 6.0


@pytest.mark.parametrize("params, message", [
    ({"rollouts": 0}, "parameter 'rollouts' must be at least 1"),
    ({"margin": -1.0}, "parameter 'margin' must be at least 0"),
    ({"rollout_placements": 1.5}, "parameter 'rollout_placements' must be a whole number"),
    ({"base": "greedy"}, "strategy 'swift' has no parameter 'base'; its parameters: common, destruction, "
                         "effect_runs, flare_margin, halving, heroic, legend_cards, legendary, margin, "
                         "pass_control, pass_margin, patterns, readiness_decay, rollout_placements, rollouts, "
                         "score, shortlist, tasks, threat"),
    ({"readiness_decay": 1.5}, "parameter 'readiness_decay' must be between 0.0 and 1.0"),
])
def test_swift_parameter_errors(params, message):
    with pytest.raises(StrategyConfigError, match=message):
        make_strategy("swift", 0, 0, params)


def _play(seed: int, mode: str):
    players = [make_strategy("swift", 0, seed, WIDE), make_strategy("builder", 1, seed)]
    return Game(load_card_set(), mode, ["imperial", "highland"], players, seed).play()


@pytest.mark.parametrize("mode", [HIGH_FORM, DEATHMATCH])
def test_swift_games_are_reproducible_from_the_seed(mode):
    a, b = _play(4, mode), _play(4, mode)
    assert a.events == b.events and a.winner == b.winner


def test_swift_decisions_do_not_depend_on_hidden_information():
    for seed in range(3):
        one, two = _after_some_turns(seed, 8), _after_some_turns(seed, 8)
        _with_hidden_order_changed(two, random.Random(seed))
        assert one.state.hand[1] != two.state.hand[1] or one.state.deck[0] != two.state.deck[0]
        picks = []
        for game in (one, two):
            strategy = make_strategy("swift", 0, seed, WIDE)
            d = Decision("action", 0, game.action_options(0))
            picks.append((strategy.choose(game.views[0], d), strategy.plan))
        assert picks[0] == picks[1]


@pytest.mark.parametrize("effect_runs, moved", [(3, True), (0, False)])
def test_swift_values_heralds_optional_move_by_position(effect_runs, moved):
    for seed in range(3):
        players = [make_strategy("swift", 0, seed, {"effect_runs": effect_runs}), make_strategy("builder", 1, seed)]
        game = load_scenario(HERALD, players)
        game.apply_action(0, Action(SUMMON, game.state.hand[0][0]))
        heroic = game.state.pieces[0][1]
        assert (heroic != 1 << board.parse_square("g8")) == moved
