"""The Python API over the core (docs/core.md, "The Python API over the core"): a ``Game`` plays exactly the
game the core plays whole, whoever plays its seats, and the state and streams it hands back are the game's."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from sim import core
from sim.cards import load_card_set
from sim.game import Game
from sim.state import HIGH_FORM, MODES, InvariantError
from strategies import make_strategy
from strategies.random_player import RandomStrategy
from tests.ruleset import FirstOption


class AskedRandom(RandomStrategy):
    """The random player, asked through Python at every decision (a subclass is never played natively)."""

    def choose(self, view, decision) -> int:
        assert view.turn == view._state.turn and decision.options  # the Python state is the game's now
        return super().choose(view, decision)


def _json(record) -> dict:
    return record.to_dict()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("names", [("random", "random"), ("builder", "random"), ("greedy", "brawler")])
def test_a_game_is_the_game_the_core_plays_whole(mode, names):
    cards = load_card_set()
    for seed in range(3):
        players = [make_strategy(n, seat, seed) for seat, n in enumerate(names)]
        record = Game(cards, mode, ("sylvan", "highland"), players, seed, strict=True).play()
        line = json.dumps(_json(record), separators=(",", ":")).encode()
        whole = core.record_digests(cards, mode, ("sylvan", "highland"), names, (seed, seed + 1), 1)
        assert whole == [hashlib.sha256(line).hexdigest()[:32]]


def test_a_python_player_and_its_native_twin_play_the_same_game_and_end_on_the_same_stream():
    cards = load_card_set()
    for seed in range(4):
        native = [RandomStrategy(seed * 2 + seat) for seat in (0, 1)]
        asked = [AskedRandom(seed * 2 + seat) for seat in (0, 1)]
        a = Game(cards, MODES[seed % 2], ("imperial", "sylvan"), native, seed).play()
        b = Game(cards, MODES[seed % 2], ("imperial", "sylvan"), asked, seed).play()
        assert _json(a)["events"] == _json(b)["events"]
        assert [p._rng.getstate() for p in native] == [p._rng.getstate() for p in asked]


def test_turn_by_turn_and_whole_play_agree_and_leave_the_same_state():
    cards = load_card_set()
    for seed in range(3):
        games = [Game(cards, HIGH_FORM, ("highland", "imperial"), [FirstOption(), AskedRandom(seed)], seed)
                 for _ in range(2)]
        games[0].play()
        games[1].turn_listeners.append(lambda g: None)  # a listener: one call into the core per turn
        games[1].play()
        a, b = (g.state for g in games)
        assert _json(a.record) == _json(b.record)
        assert a.rng.getstate() == b.rng.getstate() and _fields(a) == _fields(b)


def _fields(state) -> dict:
    """Every field of the core's state but the random stream (a ``random.Random``, compared by its state)."""
    return {k: v for k, v in state._core.fields().items() if k != "rng"}


def test_the_core_draws_from_the_python_stream_and_hands_it_back_advanced():
    def dealt(stream_seed: int) -> tuple[list[str], tuple]:
        game = Game(load_card_set(), HIGH_FORM, ("imperial", "imperial"), [FirstOption(), FirstOption()], 5)
        game.setup()
        with game.edit() as s:
            s.rng = random.Random(stream_seed)  # a stream set in Python is the one the core draws from next
        game._deal_task_row()  # shuffles the task deck
        return [t.id for t in game.state.task_deck], game.state.rng.getstate()

    (order, after), (again, after_again), (other, _) = dealt(11), dealt(11), dealt(12)
    assert order == again and after == after_again and order != other
    assert after != random.Random(11).getstate()  # the draws of the core went on in the Python stream


def test_a_broken_state_is_an_invariant_error_with_the_cores_message():
    game = Game(load_card_set(), HIGH_FORM, ("imperial", "imperial"), [FirstOption(), FirstOption()], 1)
    game.setup()
    with game.edit() as s:
        s.tokens[0] += 1
    with pytest.raises(InvariantError, match="player 0: 0 tokens on the arena"):
        game.state.check_invariants()


def test_every_custom_effect_has_a_source_fingerprint_and_a_card_follows_only_its_own_functions(monkeypatch):
    from sim import cards as card_module

    assert set(core.CUSTOM_FINGERPRINTS) == set(core.CUSTOM_EFFECTS)
    assert all(len(h) == 16 for h in core.CUSTOM_FINGERPRINTS.values())
    table = {"id": "x/one", "effect": [{"do": "custom", "fn": core.CUSTOM_EFFECTS[0]}]}
    other = {"id": "x/two", "effect": [{"do": "custom", "fn": core.CUSTOM_EFFECTS[1]}]}
    before = card_module._fingerprint(table), card_module._fingerprint(other)
    monkeypatch.setitem(core.CUSTOM_FINGERPRINTS, core.CUSTOM_EFFECTS[0], "0" * 16)
    assert card_module._fingerprint(table) != before[0] and card_module._fingerprint(other) == before[1]
