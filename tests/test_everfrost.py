"""The Everfrost deck through the Python layers (its cards against the reference, ``cards --json`` and the 8
orientations of every pattern, are checked with every deck's in tests/test_card_export.py): strict games
through the Python API with a Python strategy (the frozen slot, removed pieces and the action loss go to the
core and come back at every decision), the records' new events as the core writes them, and the thaw option.
The rules themselves are tested in the core (core/engine/src/everfrost_tests.rs,
core/engine/src/effects/everfrost.rs)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from typer.testing import CliRunner

from sim import core
from sim.cards import load_card_set
from sim.cli import app
from sim.decisions import Action, Decision, PlayerView
from sim.game import Game
from sim.record import Freeze, Thaw
from strategies import make_strategy
from tests.test_card_export import reference

DECK = "everfrost"


# ----- the card file
def everfrost_reference() -> list[dict]:
    return [dict(c, deck=DECK) for c in reference()["decks"][DECK]["cards"]]


def test_the_base_cards_keep_their_indices_before_the_expansion() -> None:
    cards = load_card_set()
    assert list(cards.decks)[:3] == ["highland", "imperial", "sylvan"] and DECK in cards.decks
    assert cards.decks["highland"][0].index == 0 and cards.decks[DECK][0].index >= 54
    assert cards.legends[0].index == 18 * len(cards.decks)


def test_cards_text_shows_the_frozen_text() -> None:
    result = CliRunner().invoke(app, ["cards", "--deck", DECK])
    assert result.exit_code == 0 and "frozen: Thawed:" in result.stdout


# ----- games through the Python API
class ThawingRandom:
    """A random player written in Python (so the core hands it the state at every decision) that thaws
    whenever it may."""

    name = "thawing-random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.thaws_offered = 0

    def choose(self, view: PlayerView, decision: Decision) -> int:
        thaw = [i for i, o in enumerate(decision.options) if o == Action("thaw")]
        if thaw:
            self.thaws_offered += 1
            return thaw[0]
        return self.rng.randrange(len(decision.options))


@pytest.mark.parametrize("mode", ["high-form", "deathmatch"])
def test_strict_games_with_everfrost_play_through_the_python_api(mode: str) -> None:
    cards = load_card_set()
    offered = frozen_seen = 0
    for seed in range(150):
        decks = ("everfrost", "imperial") if seed % 2 else ("sylvan", "everfrost")
        players = [ThawingRandom(seed * 2 + i) for i in range(2)]
        game = Game(cards, mode, decks, players, seed, strict=True)
        record = game.play()
        assert record.turns > 0 and game.state.over
        offered += sum(p.thaws_offered for p in players)
        frozen_seen += len(record.of_kind(Freeze))
        assert len(record.of_kind(Thaw)) <= len(record.of_kind(Freeze))
        game.state.check_invariants()  # the state as Python holds it goes back to the core intact
    assert offered > 50 and frozen_seen > 50


def test_a_melee_with_everfrost_plays_through_the_python_api() -> None:
    cards = load_card_set()
    for seed in range(20):
        decks = ("imperial", "everfrost", "highland", "sylvan")[: 3 + seed % 2]
        players = [ThawingRandom(seed * 4 + i) for i in range(len(decks))]
        Game(cards, "deathmatch", decks, players, seed, strict=True).play()


def test_python_records_of_everfrost_games_are_the_cores_records() -> None:
    """The new events (freeze, thaw, to_discard, remove, action_loss) read back into Python objects and
    write the same JSON as the core."""
    cards = load_card_set()
    decks = ("everfrost", "everfrost")
    for mode in ("high-form", "deathmatch"):
        digests = core.record_digests(cards, mode, decks, ("random", "random"), (0, 40), 1)
        kinds = set()
        for seed in range(40):
            players = [make_strategy("random", seat, seed) for seat in range(2)]
            record = Game(cards, mode, decks, players, seed, strict=True).play()
            kinds |= {e.kind for e in record.events}
            line = json.dumps(record.to_dict(), separators=(",", ":"))
            assert hashlib.sha256(line.encode()).hexdigest()[:32] == digests[seed], seed
        assert {"freeze", "thaw"} <= kinds


def test_the_thaw_option_is_offered_beside_end_when_no_action_is_left() -> None:
    cards = load_card_set()
    game = Game(cards, "high-form", ("everfrost", "imperial"),
                [make_strategy("random", s, 1) for s in range(2)], 1, strict=True)
    game.setup()
    s = game.state
    p = s.active
    card = next(b for b in cards.decks[DECK] if b.frozen is not None and b in s.deck[p])
    with game.edit() as b:
        b.deck[p].remove(card)
        b.frozen[p] = card
        b.actions_left = 0
        b.flare_used_this_turn = True
    assert game.action_options(p) == [Action("thaw"), Action("end")]
    game.apply_action(p, Action("thaw"))
    assert s.frozen[p] is None and s.discarded[p][-1] is card
    assert s.record.of_kind(Thaw)[-1].card == card.id
