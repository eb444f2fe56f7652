"""The Nethervoid deck through the Python layers (its cards against the reference in all 8 orientations:
tests/test_card_export.py, with every deck's): the deck's loading, its state (the
Gateway, possession, a waiting Hell Hound) both ways through the API, its events in the record, and strict
games through the API. The rules themselves are tested in the core (core/engine/src/effects/
nethervoid_tests.rs: every card, every rule, thousands of strict random games)."""

from __future__ import annotations

import functools
import hashlib
import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from sim import board, core
from sim.cards import BASE_DECKS, load_card_set
from sim.cli import app
from sim.decisions import Decision, PlayerView
from sim.game import Game
from sim.record import EVENT_KINDS, Gateway, UnderDeck
from strategies import make_strategy
from tests.helpers import arena, setup, sq, summon
from tests.test_card_export import reference

DECK = "nethervoid"


@functools.cache
def exported() -> dict[str, Any]:
    result = CliRunner().invoke(app, ["cards", "--deck", DECK, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


REFS = [dict(c, deck=DECK) for c in reference()["decks"][DECK]["cards"]]


def test_the_deck_loads_after_the_base_decks_leaving_their_indices() -> None:
    cards = load_card_set()
    assert list(cards.decks)[: len(BASE_DECKS)] == sorted(BASE_DECKS)
    assert len(cards.decks[DECK]) == 18
    assert [c["id"] for c in exported()["cards"]] == [c["id"] for c in REFS]


def test_the_record_mirror_knows_the_decks_events() -> None:
    for kind in ("gateway", "under_deck", "possess", "flare_discard", "legend_credit"):
        assert kind in EVENT_KINDS


# ----- the state both ways
def position(card: str, pieces: str) -> str:
    at = dict(p.split("=") for p in pieces.split())
    rows = [" ".join(at.pop(board.name(board.square(x, y)), "..") if board.on_arena(x, y) else "--"
                     for x in range(1, 10)) for y in range(1, 10)]
    return "\n".join([f"decks: {DECK}, imperial", f"hand 1: {card}", "arena:", *rows])


def test_a_gateway_set_in_python_reaches_the_core_and_comes_back_moved() -> None:
    # Shadow Imp on e5 (pattern d4, f5) steps north; the Gateway on c7 follows to c6
    game, me = setup(position("nethervoid/shadow-imp", "d4=1c f5=1c c7=1h"), ("e5", "e4"), ("c7", "c6"))
    with game.edit() as s:
        s.gateway[0] = sq("c7")
    summon(game, "nethervoid/shadow-imp", "e5", 0)
    assert game.state.gateway == [sq("c6"), None]
    assert arena(game) == {"d4": "1c", "e4": "1c", "f5": "1c", "c6": "1h"}


def test_hell_hound_waits_in_the_python_state_then_goes_under_the_deck() -> None:
    game, me = setup(position("nethervoid/hell-hound", "d5=1c e5=1c c6=1c f6=1c g5=2c"), "g5")
    summon(game, "nethervoid/hell-hound", "f5", 0)
    hound = load_card_set().by_id["nethervoid/hell-hound"]
    assert game.state.gateway == [sq("f5"), None]
    assert game.state.hound_return == [hound, None]
    game.end_turn(0)
    assert game.state.hound_return == [None, None]
    assert game.state.record.of_kind(UnderDeck)[0].card == hound.id
    assert game.state.deck[0][0] is hound
    game.state.check_invariants()


def test_possession_set_in_python_chooses_the_pattern_colour() -> None:
    game, me = setup(position("nethervoid/flame-imp", "c5=2c d6=2c c8=1c d9=1c"))
    imp = load_card_set().by_id["nethervoid/flame-imp"]
    assert {pl.origin for pl in game.legal_placements(0, imp) if pl.orientation == 0} == {sq("e8")}
    with game.edit() as s:
        s.possessed[0] = 1
    assert {pl.origin for pl in game.legal_placements(0, imp) if pl.orientation == 0} == {sq("e5")}
    clone = game.state.clone(random.Random(1))
    assert clone.possessed == [1, None] and clone.possessed is not game.state.possessed


# ----- strict games through the API
class PythonRandom:
    """A random player the core must ask in Python: every decision hands the state over both ways."""

    name = "python-random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, decision: Decision) -> int:
        return self.rng.randrange(len(decision.options))


@pytest.mark.parametrize("mode", ["high-form", "deathmatch"])
def test_strict_games_with_nethervoid_through_the_api(mode: str) -> None:
    cards = load_card_set()
    gateways = 0
    for seed in range(150):
        decks = (DECK, BASE_DECKS[seed % 3]) if seed % 2 else (BASE_DECKS[seed % 3], DECK)
        players = [make_strategy("random", seat, seed) for seat in range(2)]
        record = Game(cards, mode, decks, players, seed, strict=True).play()
        gateways += len(record.of_kind(Gateway))
    assert gateways > 0
    for seed in range(25):
        players = [PythonRandom(seed), PythonRandom(seed + 100)]
        game = Game(cards, mode, (DECK, DECK), players, seed, strict=True)
        game.play()
        game.state.check_invariants()


def test_python_records_of_nethervoid_games_are_the_cores_records() -> None:
    cards = load_card_set()
    for decks in ((DECK, "imperial"), ("sylvan", DECK)):
        digests = core.record_digests(cards, "deathmatch", decks, ("random", "random"), (0, 10), 1)
        for seed in range(10):
            players = [make_strategy("random", seat, seed) for seat in range(2)]
            record = Game(cards, "deathmatch", decks, players, seed).play()
            line = json.dumps(record.to_dict(), separators=(",", ":"))
            assert hashlib.sha256(line.encode()).hexdigest()[:32] == digests[seed], (decks, seed)
