"""Decisions offered to players, the strategy interface, and what a player may see."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from sim.cards import Being, Flare, Task
    from sim.state import GameState

PLACE, SUMMON, DISCARD, FLARE, END = "place", "summon", "discard", "flare", "end"
WARP = "warp"  # Etherweave: a card's warp text played from hand (a free play)


class IllegalChoice(ValueError):
    """A decision without options, or a strategy's answer that is not one of them."""


class Action(NamedTuple):
    """An option of the main "action" decision. ``card`` is set for SUMMON and WARP."""

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
    In effect decisions, None means "stop" or "do nothing" where the card allows it.
    """

    kind: str
    player: int
    options: list[Any]
    card: str = ""
    prompt: str = ""


class Strategy(Protocol):
    name: str

    def choose(self, view: PlayerView, decision: Decision) -> int:
        """The index of the chosen option."""
        ...


class PlayerView:
    """What one player may know: the arena, stocks, scores, tasks, own hand; never hidden orders."""

    __slots__ = ("_state", "player")

    def __init__(self, state: GameState, player: int):
        self._state = state
        self.player = player

    @property
    def opponent(self) -> int:
        """The duel's opponent; a melee has several (``opponents``)."""
        if self._state.melee:
            raise ValueError("a melee has several opponents: use PlayerView.opponents")
        return 1 - self.player

    @property
    def seats(self) -> int:
        return self._state.seats

    @property
    def opponents(self) -> list[int]:
        return self._state.opponents(self.player)

    def colour_points(self, player: int, colour: int) -> int:
        """Melee: ``player``'s points in ``colour``."""
        return self._state.colour_points[player][colour]

    def can_improvise(self, player: int, colour: int) -> bool:
        """Melee: whether ``player`` may still improvise a summoning with a piece of ``colour``."""
        s = self._state
        return s.melee and player != colour and not s.improvised[player][colour]

    @property
    def mode(self) -> str:
        return self._state.mode

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def actions_left(self) -> int:
        return self._state.actions_left

    def pieces(self, player: int) -> tuple[int, int, int]:
        """Bitboards of ``player``'s common, heroic and legendary pieces."""
        p = self._state.pieces[player]
        return p[0], p[1], p[2]

    def piece_at(self, sq: int) -> tuple[int, int] | None:
        return self._state.piece_at(sq)

    def occupied(self) -> int:
        return self._state.occupied()

    def stock(self, player: int) -> tuple[int, int]:
        """Tokens and legendary pieces in ``player``'s stock."""
        return self._state.tokens[player], self._state.legend_stock[player]

    def score(self, player: int) -> int:
        return self._state.score(player)

    @property
    def hand(self) -> tuple[Being, ...]:
        return tuple(self._state.hand[self.player])

    @property
    def legend_hand(self) -> tuple[Being, ...]:
        return tuple(self._state.legend_hand[self.player])

    @property
    def flare_hand(self) -> tuple[Flare, ...]:
        return tuple(self._state.flare_hand[self.player])

    def hand_sizes(self, player: int) -> tuple[int, int, int]:
        s = self._state
        return len(s.hand[player]), len(s.legend_hand[player]), len(s.flare_hand[player])

    def deck_size(self, player: int) -> int:
        return len(self._state.deck[player])

    @property
    def task_row(self) -> tuple[Task, ...]:
        return tuple(self._state.task_row)

    @property
    def next_task(self) -> Task | None:
        return self._state.next_task

    @property
    def destroyed_this_turn(self) -> tuple[int, int, int]:
        d = self._state.counters.destroyed
        return d[0], d[1], d[2]

    @property
    def end_triggered(self) -> bool:
        return self._state.end_trigger is not None

    def sandbox(self, rng: random.Random) -> GameState:
        """A copy of the game for lookahead that holds nothing this player may not know: what is hidden
        from them (the opponent's hands, every deck's order, the next shuffles) is dealt anew from ``rng``
        out of the cards that could be there, so the copy depends only on what the player knows."""
        c = self._state.clone(rng)
        me = self.player
        c.deck[me] = _deal(rng, c.deck[me])
        if not c.melee:
            them = 1 - me
            c.hand[them], c.deck[them] = _redeal(rng, c.hand[them], c.deck[them])
            c.legend_hand[them], c.legend_deck = _redeal(rng, c.legend_hand[them], c.legend_deck)
            c.flare_hand[them], c.flare_deck = _redeal(rng, c.flare_hand[them], c.flare_deck)
        else:
            for them in c.opponents(me):
                c.hand[them], c.deck[them] = _redeal(rng, c.hand[them], c.deck[them])
            c.legend_deck = _redeal_shared(rng, c.legend_hand, me, c.legend_deck)
            c.flare_deck = _redeal_shared(rng, c.flare_hand, me, c.flare_deck)
        c.task_deck = _deal(rng, c.task_deck)
        return c


def _deal(rng: random.Random, cards: list) -> list:
    """The cards in an order drawn from ``rng`` alone, whatever order they came in."""
    out = sorted(cards, key=lambda card: card.index)
    rng.shuffle(out)
    return out


def _redeal_shared(rng: random.Random, hands: list[list], me: int, deck: list) -> list:
    """The hands of every player but ``me``, drawn from one shared deck, dealt anew with it (in place);
    returns the deck."""
    others = [p for p in range(len(hands)) if p != me]
    pool = _deal(rng, deck + [card for p in others for card in hands[p]])
    for p in others:
        n = len(hands[p])
        hands[p], pool = pool[:n], pool[n:]
    return pool


def _redeal(rng: random.Random, hand: list, deck: list) -> tuple[list, list]:
    """A hidden hand and its deck dealt anew from their cards: (hand, deck) of the same sizes."""
    pool = _deal(rng, hand + deck)
    return pool[:len(hand)], pool[len(hand):]
