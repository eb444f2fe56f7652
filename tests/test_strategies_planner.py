"""The default player ``planner`` (builder choosing its actions by short rollouts): registration,
parameters, determinism and the hidden-information guarantee, through the Python API."""

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
from strategies.registry import DEFAULT_STRATEGY
from tests.test_strategies import _after_some_turns, _with_hidden_order_changed

FEW = {"rollouts": 2}


def test_planner_is_the_registered_default_with_its_parameters():
    s = make_strategy("planner", 0, 1)
    assert DEFAULT_STRATEGY == "planner" and "planner" in STRATEGIES
    assert s.native and (s.player.setting("rollouts"), s.player.setting("shortlist")) == (4.0, 4.0)
    assert make_strategy("planner", 1, 1, {"shortlist": 6}).player.setting("shortlist") == 6.0


@pytest.mark.parametrize("params, message", [
    ({"rollouts": 0}, "parameter 'rollouts' must be at least 1"),
    ({"shortlist": 2.5}, "parameter 'shortlist' must be a whole number"),
    ({"base": "greedy"}, "strategy 'planner' has no parameter 'base'; its parameters: pass_control, pass_margin, "
                         "rollouts, shortlist"),
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


def _play(seed: int, mode: str):
    players = [make_strategy("planner", 0, seed, FEW), make_strategy("builder", 1, seed)]
    return Game(load_card_set(), mode, ["imperial", "highland"], players, seed).play()


@pytest.mark.parametrize("mode", [HIGH_FORM, DEATHMATCH])
def test_planner_games_are_reproducible_from_the_seed(mode):
    a, b = _play(4, mode), _play(4, mode)
    assert a.events == b.events and a.winner == b.winner


def test_planner_decisions_do_not_depend_on_hidden_information():
    for seed in range(3):
        one, two = _after_some_turns(seed, 8), _after_some_turns(seed, 8)
        _with_hidden_order_changed(two, random.Random(seed))
        assert one.state.hand[1] != two.state.hand[1] or one.state.deck[0] != two.state.deck[0]
        picks = []
        for game in (one, two):
            strategy = make_strategy("planner", 0, seed, FEW)
            d = Decision("action", 0, game.action_options(0))
            picks.append((strategy.choose(game.views[0], d), strategy.plan))
        assert picks[0] == picks[1]
