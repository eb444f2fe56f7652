"""The game state: the compiled core's (``sim._core.CoreGame``, docs/core.md), read in place.

A ``GameState`` is a read-only handle: each attribute reads the core's field of that name when asked
(sequences as ``FrozenList``s, groups such as ``counters`` and ``teams`` as read-only namespaces), and ``record`` is the
game's ``GameRecord``, brought up to date with the core's when read. The fields are declared once, in the core
(``core/engine/src/state.rs``; how Python sees each: ``core/py/src/fields.rs``). A position is set up with a
``StateBuilder`` (``GameState.edit()``): every field as a plain Python value to change at will, written back
into the core, each value checked, when the ``with`` block ends.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

from sim import board
from sim.cards import CardSet
from sim.ranks import LEGENDARY
from sim.record import GameRecord, events_from_json

HIGH_FORM = "high-form"
DEATHMATCH = "deathmatch"
MODES = (HIGH_FORM, DEATHMATCH)
TOKENS = {HIGH_FORM: 17, DEATHMATCH: 16}  # a duel's stocks; a melee's Deathmatch stock is 18 - players
LEGENDARY_PIECES = 3
MAX_LEGENDS_IN_ARENA = 3
MAX_SEATS = 4
TEAM_SEATS = 4  # a team game: seats 0 and 2 (team A) against 1 and 3 (team B)
SIDEWAYS = 6  # a team game: the bottom cards of each deck that lie sideways
TEAM_NAMES = "AB"


def seat_name(seat: int) -> str:
    """A team game's seat as players call it: A1, B1, A2, B2 for seats 0-3 (clockwise; team A = 0 and 2)."""
    return f"{TEAM_NAMES[seat % 2]}{seat // 2 + 1}"


def stock_tokens(mode: str, seats: int) -> int:
    """Tokens in each stock: a Deathmatch score board holds one token of each opponent's colour."""
    return TOKENS[mode] if mode == HIGH_FORM else 18 - seats


class InvariantError(AssertionError):
    pass


class _Queries:
    """What the state says beyond its fields, read from them (``GameState`` and ``StateBuilder`` alike)."""

    seats: int
    pieces: Any
    teams: Any

    # ----- seats
    @property
    def melee(self) -> bool:
        """A Deathmatch melee: 3 or 4 players, every one for himself."""
        return self.seats > 2

    def opponents(self, player: int) -> list[int]:
        return [q for q in range(self.seats) if q != player]

    @property
    def team_game(self) -> bool:
        """A team game, 2 against 2: ``seats`` is 2 (the sides), ``players`` 4."""
        return self.teams is not None

    @property
    def players(self) -> int:
        """The players at the table: the seats, or 4 in a team game."""
        return TEAM_SEATS if self.teams is not None else self.seats

    def seat_of(self, side: int) -> int:
        """The seat that holds side ``side``'s personal cards now (``side`` itself outside team games): the seat
        whose turn it is for the active side (or the teammate who took control while he chooses), for the
        other side the member who plays its next turn."""
        return side if self.teams is None else self.teams.holder[side]

    @staticmethod
    def side_of(seat: int) -> int:
        """A team game: the side (team) of ``seat``: 0 = team A (seats 0, 2), 1 = team B (seats 1, 3)."""
        return seat % 2

    @staticmethod
    def teammate(seat: int) -> int:
        return (seat + 2) % TEAM_SEATS

    @property
    def control_passed(self) -> bool:
        """A team game: whether the active player has handed his turn to his teammate."""
        return self.teams is not None and self.teams.controller is not None

    # ----- the arena
    def occupied(self) -> int:
        m = 0
        for p in self.pieces:
            m |= p[0] | p[1] | p[2]
        return m

    def empty(self) -> int:
        return board.ARENA & ~self.occupied()

    def mine(self, player: int) -> int:
        p = self.pieces[player]
        return p[0] | p[1] | p[2]

    def upgraded(self, player: int) -> int:
        p = self.pieces[player]
        return p[1] | p[2]

    def piece_at(self, sq: int) -> tuple[int, int] | None:
        """(owner, rank) of the piece on ``sq``, or None."""
        bit = 1 << sq
        for owner, p in enumerate(self.pieces):
            for rank in (0, 1, 2):
                if p[rank] & bit:
                    return owner, rank
        return None

    def of_ranks(self, player: int, ranks) -> int:
        p = self.pieces[player]
        m = 0
        for r in ranks:
            m |= p[r]
        return m


class FrozenList(list):
    """A list of the read-only state: it compares, copies and adds as a list, and refuses to change."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("the game's state is read only (change it in a builder: GameState.edit())")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse  # type: ignore[assignment]
    append = extend = insert = remove = pop = clear = sort = reverse = _refuse  # type: ignore[assignment]


class _Group:
    """A group of the state's fields (``counters``, ``teams``, a team member), read only."""

    __slots__ = ("_values",)

    def __init__(self, values: dict[str, Any]):
        object.__setattr__(self, "_values", values)

    def __getattr__(self, name: str) -> Any:
        try:
            return _read_only(self._values[name])
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"the game's state is read only (set {name} in a builder: GameState.edit())")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Group) and self._values == other._values

    def __repr__(self) -> str:
        return "(" + ", ".join(f"{k}={_read_only(v)!r}" for k, v in self._values.items()) + ")"


def _read_only(value: Any) -> Any:
    """A field's value as ``GameState`` gives it: groups (dicts) as ``_Group``s, in sequences too."""
    t = type(value)
    if t is dict:
        return _Group(value)
    if t is FrozenList and value and type(value[0]) is dict:
        return FrozenList(_Group(v) for v in value)
    return value


# The record's own fields that the core's record result sets (its events are read apart; config is Python's).
_RESULT = frozenset(f.name for f in dataclasses.fields(GameRecord)) - {"events", "config"}


class GameState(_Queries):
    """Everything about a game in progress, read from the core: a duel (2 seats), a Deathmatch melee (3-4) or
    a team game (2 sides of 2 seats, ``teams``). Pieces are bitboards per player and rank (per side in a team
    game). Every field of the core's state is an attribute (read only); ``edit()`` changes them."""

    __slots__ = ("_core", "cards", "_record")

    def __init__(self, core: Any, record: GameRecord | None = None):
        object.__setattr__(self, "_core", core)
        object.__setattr__(self, "cards", core.cards)
        object.__setattr__(self, "_record", GameRecord() if record is None else record)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return _read_only(self._core.field(name))
        except KeyError:
            raise AttributeError(f"the game's state has no field {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"the game's state is read only (set {name} in a builder: GameState.edit())")

    @property
    def record(self) -> GameRecord:
        """The game's record, brought up to date with the core's (its new events, its result)."""
        r = self._record
        core = self._core
        if core.event_count() > len(r.events):
            r.events.extend(events_from_json(core.events_json(len(r.events))))
        for name, value in core.field("record").items():
            if name in _RESULT:
                setattr(r, name, _tuples(value))
        return r

    @contextmanager
    def edit(self) -> Iterator[StateBuilder]:
        """A builder of this state: change its fields in the ``with`` block; they are written into the game
        when the block ends (each value checked; a wrong one raises ``ValueError`` and changes nothing)."""
        builder = StateBuilder(self._core.fields(), self.cards)
        yield builder
        builder.write(self._core)

    def clone(self, rng: random.Random) -> GameState:
        """A copy for lookahead: cards shared, the record empty, and ``rng``'s stream (copied) in place of the
        game's (a copy of it would predict the real shuffles)."""
        return GameState(self._core.clone(rng))

    def check_invariants(self) -> None:
        """Raise ``InvariantError`` if the state breaks a rule of the game (checked by the core)."""
        self._core.check_invariants()

    def meets(self, condition: str, player: int) -> bool:
        """Whether ``player`` meets the task condition named ``condition`` now (``sim.tasks.CONDITIONS``)."""
        return self._core.condition(condition, player)

    def seat_deck(self, seat: int) -> str:
        """The name of the deck ``seat`` plays."""
        return self.deck_names[seat]

    def member(self, seat: int) -> _Group:
        """A team game: ``seat``'s personal cards (deck_name, deck, hand, flare_hand, discarded, pending,
        stasis, frozen, hound_return), from his side's slots or the bench."""
        return _Group(self._core.member(seat))

    def upright(self, seat: int) -> int:
        """A team game: the cards of ``seat``'s deck that stand upright (above the 6 sideways ones); drawing the
        last of them triggers the end."""
        return max(0, len(self.member(seat).deck) - SIDEWAYS)

    def score(self, player: int) -> int:
        """The score that wins: in a melee, the player's lowest colour score."""
        return self._core.score(player)

    def can_have_piece(self, player: int, rank: int) -> bool:
        """Whether the stock holds a piece that can stand as ``rank``."""
        if rank == LEGENDARY:
            return self.legend_stock[player] > 0 and self.pieces[player][LEGENDARY].bit_count() < MAX_LEGENDS_IN_ARENA
        return self.tokens[player] > 0


class StateBuilder(_Queries):
    """A position set up field by field (scenarios and tests): every field of the state as a plain Python
    value (lists; groups such as ``counters``, ``teams`` and ``record`` as namespaces) to change at will.
    ``record_points`` and ``record_colour_points`` record points the way the rules do (the event and the
    total)."""

    def __init__(self, fields: dict[str, Any], cards: CardSet):
        for name, value in fields.items():
            setattr(self, name, _editable(value))
        self.cards = cards
        self._points: list[tuple[int, int, str, int, int | None]] = []

    def record_points(self, turn: int, seat: int, source: str, amount: int) -> None:
        """``seat`` scores ``amount`` (a Deathmatch's points, or task points), recorded with ``source``."""
        self._points.append((turn, seat, source, amount, None))

    def record_colour_points(self, turn: int, seat: int, colour: int, source: str, amount: int) -> None:
        """Melee: ``seat`` scores ``amount`` in ``colour``'s colour (recorded; ``colour_points`` is the total)."""
        self._points.append((turn, seat, source, amount, colour))

    def write(self, core: Any) -> None:
        """Write the position into ``core`` (a ``sim._core.CoreGame``), each value checked."""
        values = {k: _plain(v) for k, v in vars(self).items() if not k.startswith("_") and k != "cards"}
        core.load(values, self._points)
        self._points = []


def _tuples(value: Any) -> Any:
    """Lists as tuples, nested ones too (the record's result is a value)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _editable(value: Any) -> Any:
    """A field's value for a builder: dicts (groups) as namespaces, in lists too."""
    if type(value) is dict:
        return SimpleNamespace(**{k: _editable(v) for k, v in value.items()})
    if type(value) is list and value and type(value[0]) is dict:
        return [_editable(v) for v in value]
    return value


def _plain(value: Any) -> Any:
    """A builder's value as the core takes it: namespaces as dicts."""
    if isinstance(value, SimpleNamespace):
        return {k: _plain(v) for k, v in vars(value).items()}
    if type(value) in (list, tuple) and value and isinstance(value[0], SimpleNamespace):
        return [_plain(v) for v in value]
    return value
