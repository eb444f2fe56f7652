"""The game state's fields are declared once, in the core (docs/core.md, "The state and its builder"):
``GameState`` reads them and refuses changes; a ``StateBuilder`` edits a position, each value checked, and
writing back what it read changes nothing."""

from __future__ import annotations

import random
import re

import pytest

from sim.cards import load_card_set
from sim.game import Game
from sim.state import DEATHMATCH, HIGH_FORM
from strategies.random_player import RandomStrategy
from tests.ruleset import rules_cards

SHAPES = [
    (HIGH_FORM, ("imperial", "highland"), False),
    (DEATHMATCH, ("everfrost", "etherweave", "nethervoid"), False),
    (DEATHMATCH, ("imperial", "sylvan", "nethervoid", "etherweave"), True),
]


def _game(mode: str, decks: tuple[str, ...], teams: bool, turns: int = 6) -> Game:
    game = Game(load_card_set(), mode, decks, [RandomStrategy(s) for s in range(len(decks))], 5, strict=True,
                teams=teams)
    game.setup()
    for _ in range(turns):
        game.play_turn()
    return game


def _fields(game: Game) -> tuple:
    """Every field of the game's state, the random stream by its state."""
    values = game.state._core.fields()
    return values.pop("rng").getstate(), values


def test_the_state_reads_every_field_and_refuses_changes():
    game = _game(*SHAPES[0])
    s = game.state
    values = game.state._core.fields()
    assert s.rng.getstate() == values.pop("rng").getstate()
    result = values.pop("record")  # the record's result; GameState.record is the game's GameRecord
    assert (s.record.turns, list(s.record.scores)) == (result["turns"], result["scores"])
    for name, value in values.items():
        read = getattr(s, name)
        assert (read._values if isinstance(value, dict) else read) == value, name
    assert isinstance(s.tokens, list) and s.tokens == list(s.tokens)
    with pytest.raises(AttributeError, match="read only"):
        s.turn = 3
    with pytest.raises(TypeError, match="read only"):
        s.tokens[0] += 1
    with pytest.raises(TypeError, match="read only"):
        s.hand[0].append(s.deck[0][0])
    with pytest.raises(AttributeError, match="read only"):
        s.counters.extra_turn = True
    with pytest.raises(AttributeError, match="no field 'colour'"):
        _ = s.colour


@pytest.mark.parametrize(("mode", "decks", "teams"), SHAPES)
def test_writing_back_what_a_builder_read_changes_nothing(mode, decks, teams):
    edited, twin = _game(mode, decks, teams), _game(mode, decks, teams)
    before = _fields(edited)
    with edited.edit():
        pass
    assert _fields(edited) == before == _fields(twin)
    assert edited.play().to_dict() == twin.play().to_dict()


def test_a_builder_sets_a_position_the_game_goes_on_from():
    game = _game(*SHAPES[0])
    s = game.state
    p = s.active
    card = s.deck[p][0]
    with game.edit() as b:
        b.deck[p].remove(card)
        b.hand[p].append(card)
        b.actions_left = 1
        b.counters.extra_turn = True
        b.rng = random.Random(11)
    assert card in s.hand[p] and card not in s.deck[p] and s.actions_left == 1 and s.counters.extra_turn
    assert s.rng.getstate() == random.Random(11).getstate()
    s.check_invariants()


BAD = [
    (lambda s, c: s.tokens.append(3), "state field tokens: expected 2 values (one per seat), got 3"),
    (lambda s, c: s.hand[0].append(c.all_beings[0]), "is not a being of this game's card set"),
    (lambda s, c: s.flare_hand[0].append(s.deck[0][0]), "is not a flare of this game's card set"),
    (lambda s, c: setattr(s, "next_task", 3), "state field next_task: expected a task, got 3"),
    (lambda s, c: setattr(s, "mode", DEATHMATCH), "state field mode is the game's own"),
    (lambda s, c: setattr(s, "colour", 1), "unknown state field colour"),
    (lambda s, c: setattr(s, "end_trigger", "never"), "expected deck, score or turn-limit"),
    (lambda s, c: setattr(s.record, "tiebreak", "coin"), "state field record.tiebreak: expected one of"),
    (lambda s, c: setattr(s, "teams", {}), "state field teams: holder missing"),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_a_builder_checks_every_value_and_a_bad_one_changes_nothing(change, message):
    game = _game(*SHAPES[0])
    before = _fields(game)
    with pytest.raises(ValueError, match=re.escape(message)), game.edit() as s:
        change(s, rules_cards())
    assert _fields(game) == before


def test_a_game_is_a_team_game_or_not_from_the_start():
    game = _game(*SHAPES[2], turns=2)
    with pytest.raises(ValueError, match="a team game or not from the start"), game.edit() as s:
        s.teams = None
    with pytest.raises(ValueError, match="the bench of side 0 holds seat"), game.edit() as s:
        s.teams.holder[0] = (s.teams.holder[0] + 2) % 4  # the slots keep the other seat's cards
