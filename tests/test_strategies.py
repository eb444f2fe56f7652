"""The scripted strategies: parameters, determinism, hidden information, and how they play."""

from __future__ import annotations

import math
import random

import pytest

from sim import board
from sim.cards import load_card_set
from sim.decisions import Decision
from sim.errors import UserError
from sim.game import Game
from sim.record import Place
from sim.scenario import load_scenario
from sim.state import DEATHMATCH, HIGH_FORM
from strategies import STRATEGIES, StrategyConfigError, make_strategy
from strategies.registry import DEFAULT_STRATEGY
from tests.helpers import Scripted, arena

SCRIPTED = ("greedy", "builder", "hunter", "brawler")


def _game(strategies: tuple[str, str], seed: int, mode: str = HIGH_FORM) -> Game:
    players = [make_strategy(name, seat, seed) for seat, name in enumerate(strategies)]
    return Game(load_card_set(), mode, ["imperial", "imperial"], players, seed)


# ----- names and parameters
def test_every_scripted_strategy_is_registered():
    make_strategy("random", 0, 0)
    assert set(SCRIPTED) | {"random"} <= set(STRATEGIES)
    assert make_strategy(DEFAULT_STRATEGY, 0, 0).label == DEFAULT_STRATEGY  # a shipped preset


def test_unknown_strategy_names_the_known_ones():
    with pytest.raises(StrategyConfigError, match="unknown strategy 'buildr'.*builder"):
        make_strategy("buildr", 0, 0)


def test_unknown_parameter_lists_the_strategy_parameters():
    with pytest.raises(StrategyConfigError, match=r"'builder' has no parameter 'pattern'.*patterns"):
        make_strategy("builder", 0, 0, {"pattern": 1.0})


@pytest.mark.parametrize("name, value", [("patterns", "high"), ("patterns", True), ("max_placements", 2.5),
                                         ("max_placements", 0), ("readiness_decay", 1.5)])
def test_parameter_of_the_wrong_type_is_refused(name, value):
    with pytest.raises(StrategyConfigError, match=f"parameter '{name}' must be"):
        make_strategy("builder", 0, 0, {name: value})


def test_parameters_are_a_user_error_and_reach_the_strategy():
    assert issubclass(StrategyConfigError, UserError)
    s = make_strategy("greedy", 0, 0, {"patterns": 2, "max_placements": 3})
    assert s.player.setting("patterns") == 2.0 and s.player.setting("max_placements") == 3  # the core's player
    assert make_strategy("greedy", 0, 0).player.setting("patterns") == 0.0
    assert make_strategy("builder", 0, 0).player.setting("patterns") > 0


# ----- determinism and hidden information
def test_games_are_reproducible_from_the_seed():
    a = _game(("builder", "greedy"), 11).play()
    b = _game(("builder", "greedy"), 11).play()
    assert a.events == b.events and a.winner == b.winner


def _with_hidden_order_changed(game: Game, rng: random.Random) -> None:
    """Change what player 1 cannot see: the opponent's hands and every deck's order."""
    with game.edit() as s:
        pool = s.hand[1] + s.deck[1]
        rng.shuffle(pool)
        s.hand[1], s.deck[1] = pool[:len(s.hand[1])], pool[len(s.hand[1]):]
        legends = s.legend_hand[1] + s.legend_deck
        rng.shuffle(legends)
        s.legend_hand[1], s.legend_deck = legends[:len(s.legend_hand[1])], legends[len(s.legend_hand[1]):]
        for deck in (s.deck[0], s.flare_deck, s.task_deck):
            rng.shuffle(deck)


def _after_some_turns(seed: int, turns: int) -> Game:
    """A game after ``turns`` random turns or a few more, at the start of player 1's turn."""
    game = _game(("random", "random"), seed)
    game.setup()
    s = game.state
    while s.turn < turns or s.active != 0:
        game.play_turn()
    game.begin_turn()
    return game


def test_the_sandbox_depends_only_on_what_the_player_knows():
    for seed in range(5):
        one, two = _after_some_turns(seed, 6), _after_some_turns(seed, 6)
        _with_hidden_order_changed(two, random.Random(seed))
        assert one.state.hand[1] != two.state.hand[1] or one.state.deck[0] != two.state.deck[0]
        a, b = one.views[0].sandbox(random.Random(1)), two.views[0].sandbox(random.Random(1))
        for field in ("hand", "deck", "legend_hand", "flare_hand", "pieces"):
            assert getattr(a, field) == getattr(b, field), field
        assert (a.legend_deck, a.flare_deck, a.task_deck) == (b.legend_deck, b.flare_deck, b.task_deck)
        assert len(a.record.events) == 0  # the history (with the opponent's draws) is not copied


@pytest.mark.parametrize("name", SCRIPTED)
def test_decisions_do_not_depend_on_hidden_information(name):
    for seed in range(4):
        one, two = _after_some_turns(seed, 8), _after_some_turns(seed, 8)
        _with_hidden_order_changed(two, random.Random(seed))
        picks = []
        for game in (one, two):
            strategy = make_strategy(name, 0, seed)
            d = Decision("action", 0, game.action_options(0))
            picks.append((strategy.choose(game.views[0], d), strategy.plan))
        assert picks[0] == picks[1]


def test_thinking_leaves_the_real_game_untouched():
    game = _after_some_turns(3, 8)
    s = game.state
    before = (s.rng.getstate(), [list(b) for b in s.pieces], [list(h) for h in s.hand], list(s.legend_deck),
              len(s.record.events), s.actions_left, list(s.tokens))
    make_strategy(DEFAULT_STRATEGY, 0, 3).choose(game.views[0], Decision("action", 0, game.action_options(0)))
    after = (s.rng.getstate(), [list(b) for b in s.pieces], [list(h) for h in s.hand], list(s.legend_deck),
             len(s.record.events), s.actions_left, list(s.tokens))
    assert before == after


@pytest.mark.parametrize("name", SCRIPTED)
@pytest.mark.parametrize("mode", [HIGH_FORM, DEATHMATCH])
def test_scripted_games_keep_every_invariant(name, mode):
    game = _game((name, "random"), 5, mode)
    with game.edit() as b:
        b.strict = True
    record = game.play()
    assert record.turns > 0 and record.end_reason in ("score", "deck", "turn-limit")


# ----- how they play
def _scene(hand: str, pieces: str, *lines: str) -> str:
    where = dict(p.split("=") for p in pieces.split())
    rows = [" ".join(where.get(board.name(board.square(x, y)), ".." if board.on_arena(x, y) else "--")
                     for x in range(1, 10)) for y in range(1, 10)]
    return "\n".join([f"hand 1: {hand}", *lines, "arena:", *rows])


def _builder_turn(text: str) -> Game:
    """The builder takes the scenario's actions (as a turn does, without its start and end)."""
    game = load_scenario(text, [make_strategy("builder", 0, 1), Scripted()])
    while options := game.action_options(0):
        action = game.ask(0, "action", options)
        if action.kind == "end":
            break
        game.apply_action(0, action)
    return game


def test_builder_summons_and_takes_the_piece_its_effect_offers():
    game = _builder_turn(_scene("imperial/swordmaster", "e4=1c e6=1c d6=2c h2=2c", "actions: 1"))
    a = arena(game)
    assert a.get("e5") == "1h" and "d6" not in a


def test_builder_places_where_a_pattern_of_its_hand_completes():
    game = _builder_turn(_scene("imperial/swordmaster", "e4=1c h8=2c", "actions: 1"))
    placed = set(arena(game)) - {"e4", "h8"}
    assert placed <= {"e2", "e6", "c4", "g4"} and len(placed) == 1


def test_builder_explores_the_directions_it_cannot_judge():
    # the Cannon's first offered direction (north-west) would destroy its own piece on d4
    game = _builder_turn(_scene("imperial/cannon", "e5=1c d5=1c c6=1c d4=1c f6=2c g7=2c a5=2c",
                                "actions: 1"))
    a = arena(game)
    assert a.get("d4") == "1c" and "f6" not in a and "g7" not in a


def _binomial_tail(n: int, k: int) -> float:
    """P(X >= k) for X ~ Binomial(n, 1/2)."""
    return sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n


@pytest.mark.parametrize("mode", [HIGH_FORM, DEATHMATCH])
def test_default_strategy_beats_random(mode):
    """Over 40 games (20 deals from both seats) the default must win at least 35: a result that a
    strategy no better than random (win rate 1/2) reaches with probability below 1e-6."""
    n, need = 40, 35
    assert _binomial_tail(n, need) < 1e-6
    wins = 0
    for k in range(n):
        seats = (DEFAULT_STRATEGY, "random") if k % 2 == 0 else ("random", DEFAULT_STRATEGY)
        record = _game(seats, 1000 + k // 2, mode).play()
        wins += record.winner == k % 2
    assert wins >= need


# ----- strategy parameters in a study config
def _study(tmp_path, params: str):
    from pipelines.study import load_study

    path = tmp_path / "study.toml"
    path.write_text(f"""
name = "params"
forms = ["high-form"]
deck_pairings = [["imperial", "imperial"]]
strategy_pairings = [["tuned", "random"]]
games_per_cell = 2
base_seed = 1
[players.tuned]
strategy = "builder"
params = {params}
""")
    return load_study(path)


def test_a_study_config_gives_strategy_parameters(tmp_path):
    study = _study(tmp_path, "{ patterns = 2.5, explore = 0 }")
    tuned = study.players["tuned"]
    assert make_strategy(tuned.strategy, 0, 0, tuned.params).player.setting("patterns") == 2.5


@pytest.mark.parametrize("params, message", [("{ pattern = 2.5 }", "has no parameter 'pattern'"),
                                             ("{ patterns = 'lots' }", "'patterns' must be a number")])
def test_a_study_config_with_a_bad_parameter_fails_clearly(tmp_path, params, message):
    with pytest.raises(UserError, match=f"players.tuned.*{message}"):
        _study(tmp_path, params)


def test_a_clone_shares_no_mutable_state_with_the_game():
    game = _after_some_turns(2, 6)
    s = game.state
    before = (repr(s.pieces), repr(s.hand), repr(s.deck), repr(s.counters), list(s.tokens),
              len(s.record.events))
    c = s.clone(random.Random(0))
    with c.edit() as b:
        b.pieces[0][0] |= 1 << board.SQUARES[0]
        b.hand[0].clear()
        b.deck[1].pop()
        b.counters.destroyed[0] += 5
        b.tokens[0] -= 1
    c.record.add(Place(1, 0, "test", 0, 0))
    assert c.tokens[0] == s.tokens[0] - 1 and c.hand[0] == [] and len(c.record.events) == 1
    assert (repr(s.pieces), repr(s.hand), repr(s.deck), repr(s.counters), list(s.tokens),
            len(s.record.events)) == before
