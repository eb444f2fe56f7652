"""Decisions offered to players, the strategy interface, and what a player may see."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from sim import _core

if TYPE_CHECKING:
    from sim.cards import Being
    from sim.state import GameState

PLACE, SUMMON, DISCARD, FLARE, END = "place", "summon", "discard", "flare", "end"
PASS = "pass"  # a team game: hand the rest of the turn to the teammate
WARP = "warp"  # Etherweave: a card's warp text played from hand (a free play)


class IllegalChoice(ValueError):
    """A decision without options, or a strategy's answer that is not one of them."""


class Action(NamedTuple):
    """An option of the main "action" decision. ``card`` is set for SUMMON and WARP. In a team game
    ``Action("pass")`` hands the turn to the teammate; it is also the last option of the active player's
    decisions inside an effect until control has passed."""

    kind: str
    card: Being | None = None

    def __repr__(self) -> str:
        return f"{self.kind}({self.card.id})" if self.card else self.kind


class Decision(NamedTuple):
    """A choice a player must make: pick one of ``options``.

    ``kind`` says what the options are: "action" (Action), "place"/"take"/effect squares (int squares),
    "summon" (Placement), "discard"/"return" (cards; None ends returning), "claim" (Task or None),
    "direction" (0..7, see sim.board.DIRECTIONS), "move"/"leap" ((from, to) squares), "branch" (labels).
    Melee only: "melee-start" ((colour, square)), "flare-opponent", "legend-colour" and "leftover-colour"
    (seats), a "place" of an enemy piece ((colour, square)), and among "summon" options (Placement, colour)
    for an improvised summoning paid with that colour's improvisation.
    Team games: ``player`` is the side (0 = team A, 1 = team B); the view says which seat answers
    (``PlayerView.seat``). While control may still be passed inside an effect, ``Action("pass")`` is the
    last option of the active side's decisions.
    In effect decisions, None means "stop" or "do nothing" where the card allows it.
    """

    kind: str
    player: int
    options: list[Any]
    card: str = ""
    prompt: str = ""


class SeatState(NamedTuple):
    """A team member's public personal expansion state (``PlayerView.seat_state``)."""

    frozen: Being | None
    pending: Being | None
    stasis: tuple[int, int] | None  # (owner side, rank) of the piece on his pending Merchant of Time
    hound_return: Being | None


class Strategy(Protocol):
    name: str

    def choose(self, view: PlayerView, decision: Decision) -> int:
        """The index of the chosen option."""
        ...


class PlayerView(_core.PlayerView):
    """What one player may know: the arena, stocks, scores, tasks, own hand; never hidden orders. Read from
    the core's state in place (``sim._core.PlayerView``: every query and its documentation); made over a
    ``sim.state.GameState``.

    In a team game ``player`` is the side (the team colour the player plays, 0 = team A, 1 = team B) and
    ``seat`` the seat answering (0-3); hands and decks are those of the side's slots, which hold the
    answering seat's cards while he chooses."""

    __slots__ = ("_state",)

    def __new__(cls, state: GameState, player: int, seat: int | None = None) -> PlayerView:
        view = super().__new__(cls, state._core, player, seat)
        view._state = state
        return view

    def seat_state(self, seat: int) -> SeatState:
        """A team game: ``seat``'s public personal state (0-3), his cards in his side's slots or benched."""
        return SeatState(*super().seat_state(seat))

    def sandbox(self, rng: random.Random) -> GameState:
        """A copy of the game for lookahead that holds nothing this player may not know: what is hidden
        from them (the opponent's hands, every deck's order, the next shuffles) is dealt anew from ``rng`` out
        of the cards that could be there, so the copy depends only on what the player knows. ``rng`` advances
        by the draws; the copy's own stream goes on from there, apart from ``rng``."""
        from sim.state import GameState

        return GameState(super().sandbox(rng))
