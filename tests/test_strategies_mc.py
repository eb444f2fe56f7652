"""The ``mc`` player (one-step Monte Carlo over a scripted strategy): registration, parameters, determinism
and the hidden-information guarantee, through the Python API."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pipelines.study import StudyConfigError, parse_study
from sim.cards import load_card_set
from sim.decisions import Decision
from sim.game import Game
from sim.state import DEATHMATCH, HIGH_FORM
from strategies import STRATEGIES, StrategyConfigError, make_strategy
from strategies.params import parse_value
from tests.test_strategies import _after_some_turns, _with_hidden_order_changed

FEW = {"rollouts": 3}


def test_mc_is_registered_with_its_parameters():
    s = make_strategy("mc", 0, 1)
    assert "mc" in STRATEGIES
    assert s.native and s.player.setting("rollouts") == 55.0
    assert make_strategy("mc", 1, 1, {"base": "greedy", "rollouts": 8}).player.setting("rollouts") == 8.0
    assert parse_value("hunter") == "hunter"  # tashkalar ladder --param mc.base=hunter


@pytest.mark.parametrize("params, message", [
    ({"rollouts": 0}, "parameter 'rollouts' must be at least 1"),
    ({"rollouts": 2.5}, "parameter 'rollouts' must be a whole number"),
    ({"rollouts": True}, "parameter 'rollouts' must be a whole number"),
    ({"base": "random"}, "parameter 'base' must be one of brawler, builder, greedy, hunter, planner"),
    ({"base": 2}, "parameter 'base' must be a name"),
    ({"patterns": 1.0}, "strategy 'mc' has no parameter 'patterns'; its parameters: base, pass_control, rollouts"),
])
def test_mc_parameter_errors(params, message):
    with pytest.raises(StrategyConfigError, match=message):
        make_strategy("mc", 0, 0, params)


def test_a_study_can_use_mc():
    data = {"forms": ["high-form"], "deck_pairings": [["imperial", "sylvan"]], "games_per_cell": 2,
            "base_seed": 7, "players": {"mc.greedy": {"strategy": "mc", "params": {"base": "greedy"}}},
            "strategy_pairings": [["mc.greedy", "builder"]]}
    s = parse_study(data, Path("/studies/mc.toml"))
    assert s.players["mc.greedy"].params == {"base": "greedy"}
    data["players"]["mc.greedy"]["params"] = {"rollouts": 0}
    with pytest.raises(StudyConfigError, match="rollouts"):
        parse_study(data, Path("/studies/mc.toml"))


def _play(seed: int, mode: str):
    players = [make_strategy("mc", 0, seed, FEW), make_strategy("builder", 1, seed)]
    return Game(load_card_set(), mode, ["imperial", "highland"], players, seed).play()


@pytest.mark.parametrize("mode", [HIGH_FORM, DEATHMATCH])
def test_mc_games_are_reproducible_from_the_seed(mode):
    a, b = _play(4, mode), _play(4, mode)
    assert a.events == b.events and a.winner == b.winner


def test_mc_decisions_do_not_depend_on_hidden_information():
    for seed in range(3):
        one, two = _after_some_turns(seed, 8), _after_some_turns(seed, 8)
        _with_hidden_order_changed(two, random.Random(seed))
        assert one.state.hand[1] != two.state.hand[1] or one.state.deck[0] != two.state.deck[0]
        picks = []
        for game in (one, two):
            strategy = make_strategy("mc", 0, seed, FEW)
            d = Decision("action", 0, game.action_options(0))
            picks.append((strategy.choose(game.views[0], d), strategy.plan))
        assert picks[0] == picks[1]
