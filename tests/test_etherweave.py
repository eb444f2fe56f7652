"""The Etherweave deck through the Python layers (``tashkalar cards --json`` against the reference in all 8
orientations: tests/test_card_export.py, with every deck's): the deck's loading, and strict games through the
Python API (the state, its pending
beings and stasis, and the new events crossing to and from the core). The rules themselves are tested in
the core (core/engine/src/effects/etherweave_tests.rs)."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from typer.testing import CliRunner

from sim import core
from sim.cards import BASE_DECKS, load_card_set
from sim.cli import app
from sim.decisions import WARP, Decision, PlayerView
from sim.game import Game
from sim.record import PendingEnd, Warp
from strategies.random_player import RandomStrategy
from tests.test_card_export import reference

DECK = "etherweave"


def reference_cards() -> list[dict[str, Any]]:
    return [dict(c, deck=DECK) for c in reference()["decks"][DECK]["cards"]]


@functools.cache
def exported() -> dict[str, dict[str, Any]]:
    result = CliRunner().invoke(app, ["cards", "--json", "--deck", DECK])
    assert result.exit_code == 0, result.output
    return {c["id"]: c for c in json.loads(result.stdout)["cards"]}


REF_IDS = [c["id"] for c in reference_cards()]


def test_the_deck_loads_after_the_base_decks_with_18_beings() -> None:
    cards = load_card_set()
    assert list(cards.decks)[:3] == sorted(BASE_DECKS) and DECK in cards.decks
    assert len(cards.deck(DECK)) == 18
    assert set(exported()) == set(REF_IDS)


# ----- games through the Python API
class PythonRandom(RandomStrategy):
    """The random player asked in Python at every decision (a subclass is not played by the core)."""

    warps = 0

    def choose(self, view: PlayerView, decision: Decision) -> int:
        i = super().choose(view, decision)
        if decision.kind == "action" and decision.options[i].kind == WARP:
            PythonRandom.warps += 1
        return i


def test_strict_etherweave_games_through_the_python_api() -> None:
    cards = load_card_set()
    PythonRandom.warps = 0
    pending_ends = 0
    for seed in range(200):
        mode = ("high-form", "deathmatch")[seed % 2]
        decks = (DECK, "imperial") if seed % 4 < 2 else ("sylvan", DECK)
        players = [PythonRandom(seed * 2), PythonRandom(seed * 2 + 1)]
        game = Game(cards, mode, decks, players, seed, strict=True)
        record = game.play()
        assert game.state.over
        pending_ends += len(record.of_kind(PendingEnd))
        for p, card in enumerate(game.state.pending):
            assert card is None or card in game.state.hand[p]
    assert PythonRandom.warps > 50 and pending_ends > 0


def test_python_records_of_etherweave_games_are_the_cores_records() -> None:
    cards = load_card_set()
    decks = (DECK, "highland")
    digests = core.record_digests(cards, "deathmatch", decks, ("random", "random"), (0, 30), 1)
    warps = 0
    for seed in range(30):
        from strategies import make_strategy

        players = [make_strategy("random", s, seed) for s in range(2)]
        record = Game(cards, "deathmatch", decks, players, seed, strict=True).play()
        warps += len(record.of_kind(Warp))
        line = json.dumps(record.to_dict(), separators=(",", ":"))
        assert hashlib.sha256(line.encode()).hexdigest()[:32] == digests[seed], seed
    assert warps > 0


def test_the_state_carries_the_pending_being_and_stasis_to_the_core_and_back() -> None:
    cards = load_card_set()
    players = [PythonRandom(1), PythonRandom(2)]
    game = Game(cards, "deathmatch", (DECK, "imperial"), players, 3, strict=True)
    game.setup()
    merchant = cards.by_id["etherweave/merchant-of-time"]
    with game.edit() as b:
        for pile in (b.deck[0], b.hand[0], b.discarded[0]):
            if merchant in pile:
                pile.remove(merchant)
        b.hand[0].append(merchant)
        b.pending[0] = merchant
        sq = next(s for s in range(81) if b.pieces[1][0] >> s & 1)
        b.pieces[1][0] &= ~(1 << sq)
        b.stasis[0] = (1, 0)
    state = game.state
    state.check_invariants()
    clone = state.clone(state.rng)
    assert clone.pending == state.pending and clone.stasis == state.stasis
    game.play_turn()
    assert game.state.pending[0] is merchant or merchant in game.state.discarded[0]
