"""The expert search player (core/engine/src/players/expert.rs) through the Python API: registered with its
parameters checked, reproducible from the seed, blind to what it cannot see, usable by studies."""

from __future__ import annotations

import random

import pytest

from sim.cards import load_card_set
from sim.decisions import Decision
from sim.errors import UserError
from sim.game import Game
from sim.state import DEATHMATCH, HIGH_FORM
from strategies import STRATEGIES, StrategyConfigError, make_strategy
from tests.test_strategies import _after_some_turns, _with_hidden_order_changed

SMALL = {"iterations": 16}


def _game(seed: int, mode: str = HIGH_FORM) -> Game:
    players = [make_strategy("expert", 0, seed, SMALL), make_strategy("builder", 1, seed)]
    return Game(load_card_set(), mode, ["imperial", "sylvan"], players, seed)


def test_the_expert_is_registered_with_its_parameters():
    s = make_strategy("expert", 0, 0, {"iterations": 1000, "exploration": 0.7, "depth": 3, "width": 2,
                                       "shortlist": 6, "effect_runs": 0})
    assert "expert" in STRATEGIES
    names = ("iterations", "exploration", "depth", "width", "shortlist", "effect_runs")
    assert [s.player.setting(n) for n in names] == [1000, 0.7, 3, 2, 6, 0]
    default = make_strategy("expert", 0, 0).player
    assert [default.setting(n) for n in names] == [1000, 0.5, 4, 5, 12, 1]


@pytest.mark.parametrize("params, message", [
    ({"iterations": 0}, "'iterations' must be at least 1"),
    ({"iterations": 2.5}, "'iterations' must be a whole number"),
    ({"exploration": "wide"}, "'exploration' must be a number"),
    ({"depth": 9}, "'depth' must be between 1 and 4"),
    ({"width": 0}, "'width' must be at least 1"),
    ({"shortlist": 1.5}, "'shortlist' must be a whole number"),
    ({"effect_runs": -1}, "'effect_runs' must be at least 0"),
    ({"patterns": 1.0}, "'expert' has no parameter 'patterns'; its parameters: depth, effect_runs, exploration, "
                        "iterations, pass_control, shortlist, width"),
])
def test_bad_parameters_are_refused(params, message):
    with pytest.raises(StrategyConfigError, match=message):
        make_strategy("expert", 0, 0, params)


def _study(tmp_path, params: str):
    from pipelines.study import load_study

    path = tmp_path / "study.toml"
    path.write_text(f"""
name = "expert"
forms = ["high-form"]
deck_pairings = [["imperial", "imperial"]]
strategy_pairings = [["searcher", "builder"]]
games_per_cell = 2
base_seed = 1
[players.searcher]
strategy = "expert"
params = {params}
""")
    return load_study(path)


def test_a_study_config_gives_expert_parameters(tmp_path):
    searcher = _study(tmp_path, "{ iterations = 1000 }").players["searcher"]
    assert make_strategy(searcher.strategy, 0, 0, searcher.params).player.setting("iterations") == 1000
    with pytest.raises(UserError, match="players.searcher.*has no parameter 'patterns'"):
        _study(tmp_path, "{ patterns = 2.5 }")


@pytest.mark.parametrize("mode", [HIGH_FORM, DEATHMATCH])
def test_games_are_reproducible_and_keep_every_invariant(mode):
    one, two = _game(4, mode), _game(4, mode)
    with one.edit() as s:
        s.strict = True
    a, b = one.play(), two.play()
    assert a.events == b.events and a.winner == b.winner
    assert a.end_reason in ("score", "deck", "turn-limit")


def test_decisions_do_not_depend_on_hidden_information():
    for seed in range(4):
        one, two = _after_some_turns(seed, 8), _after_some_turns(seed, 8)
        _with_hidden_order_changed(two, random.Random(seed))
        picks = []
        for game in (one, two):
            expert = make_strategy("expert", 0, seed, SMALL)
            choice = expert.choose(game.views[0], Decision("action", 0, game.action_options(0)))
            picks.append((choice, expert.plan))
        assert picks[0] == picks[1]
