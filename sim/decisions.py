"""Decisions offered to players, the strategy interface, and what a player may see."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from sim.cards import Being, Flare, Task
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


class PlayerView:
    """What one player may know: the arena, stocks, scores, tasks, own hand; never hidden orders.

    In a team game ``player`` is the side (the team colour the player plays, 0 = team A, 1 = team B) and
    ``seat`` the seat answering (0-3); hands and decks are those of the side's slots, which hold the
    answering seat's cards while he chooses."""

    __slots__ = ("_state", "player", "_seat")

    def __init__(self, state: GameState, player: int, seat: int | None = None):
        self._state = state
        self.player = player
        self._seat = seat

    # ----- team games
    @property
    def seat(self) -> int:
        """The seat answering: the view's own seat, or the seat holding the side's cards now."""
        return self._state.seat_of(self.player) if self._seat is None else self._seat

    @property
    def team_game(self) -> bool:
        return self._state.team_game

    @property
    def players(self) -> int:
        """Players at the table (4 in a team game, whose ``seats`` are the 2 sides)."""
        return self._state.players

    @property
    def teammate(self) -> int | None:
        """A team game: the seat of this player's teammate (None outside team games)."""
        return (self.seat + 2) % 4 if self._state.team_game else None

    @property
    def turn_seat(self) -> int:
        """The seat whose turn it is (the active side outside team games)."""
        t = self._state.teams
        return self._state.active if t is None else t.turn_seat

    @property
    def controller(self) -> int | None:
        """A team game: the teammate who took over the turn once control was passed (None before)."""
        t = self._state.teams
        return None if t is None else t.controller

    @property
    def control_passed(self) -> bool:
        return self._state.control_passed

    def upright(self, seat: int) -> int:
        """A team game: the upright cards of ``seat``'s deck (drawing the last one triggers the end)."""
        return self._state.upright(seat)

    def seat_hand_sizes(self, seat: int) -> tuple[int, int]:
        """A team game: how many beings and flares ``seat`` holds."""
        m = self._state.member(seat)
        return len(m.hand), len(m.flare_hand)

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

    # ----- the expansions' public state. /work/shared/EXPANSIONS.md ("Public information"): the frozen effect in
    # play, the pending being, the Gateway and a piece in stasis are visible to every player; so is the rest
    # here, which follows from cards played in the open (a Hell Hound waiting to go under its deck was just
    # summoned before everyone). In a team game ``player`` is a side: its slots hold its holder's personal
    # state; ``seat_state`` gives any seat's, benched or not.
    def frozen(self, player: int) -> Being | None:
        """Everfrost: the frozen effect in play in front of ``player``."""
        return self._state.frozen[player]

    def gateway(self, player: int) -> int | None:
        """Nethervoid: the square of ``player``'s Gateway (None: none, or suspended)."""
        return self._state.gateway[player]

    def gateway_suspended(self, player: int) -> bool:
        """Nethervoid: ``player``'s Gateway waits for its piece, put in stasis, to come back."""
        return self._state.gateway_suspended[player]

    def pending(self, player: int) -> Being | None:
        """Etherweave: ``player``'s pending being (a card of his hand whose warp text was played)."""
        return self._state.pending[player]

    def stasis(self, player: int) -> tuple[int, int] | None:
        """Etherweave: (owner, rank) of the piece in stasis on ``player``'s pending Merchant of Time."""
        x = self._state.stasis[player]
        return None if x is None else (x[0], x[1])

    def possessed(self, player: int) -> int | None:
        """Nethervoid: the colour whose pieces ``player``'s next summoning this turn must use (Possessed
        Summoner)."""
        return self._state.possessed[player]

    def removed(self, player: int) -> tuple[int, int]:
        """Everfrost: ``player``'s pieces removed from the game (Deathbringer): (tokens, legendary pieces)."""
        r = self._state.removed[player]
        return r[0], r[1]

    def action_loss(self, player: int) -> bool:
        """Everfrost: whether ``player``'s next turn has 1 action (an opponent's Everfrost Sentinel)."""
        return self._state.action_loss[player] != 0

    def hound_return(self, player: int) -> Being | None:
        """Nethervoid: ``player``'s Hell Hound waiting to go under his deck at the end of the turn."""
        return self._state.hound_return[player]

    @property
    def void_squares(self) -> int:
        """Etherweave: empty squares the active player's next summoning may count as commons (Void Summoner)."""
        return self._state.void_squares

    @property
    def extra_destruction(self) -> int:
        """Etherweave: extra counts of each enemy piece the active player destroys this turn (Gate of
        Oblivion's warp)."""
        return self._state.extra_destruction

    def seat_state(self, seat: int) -> SeatState:
        """A team game: ``seat``'s public personal state (0-3), his cards in his side's slots or benched."""
        m = self._state.member(seat)
        return SeatState(m.frozen, m.pending, None if m.stasis is None else (m.stasis[0], m.stasis[1]),
                         m.hound_return)

    def sandbox(self, rng: random.Random) -> GameState:
        """A copy of the game for lookahead that holds nothing this player may not know: what is hidden
        from them (the opponent's hands, every deck's order, the next shuffles) is dealt anew from ``rng``
        out of the cards that could be there, so the copy depends only on what the player knows."""
        c = self._state.clone(rng)
        me = self.player
        aside = _pending_aside(c, me)  # Etherweave: pending beings are public, they stay in their hands
        c.deck[me] = _deal(rng, c.deck[me])
        if not c.melee:
            them = 1 - me
            c.hand[them], c.deck[them] = _redeal(rng, c.hand[them], c.deck[them])
            c.legend_hand[them], c.legend_deck = _redeal(rng, c.legend_hand[them], c.legend_deck)
            c.flare_hand[them], c.flare_deck = _redeal(rng, c.flare_hand[them], c.flare_deck)
            if c.teams is not None:  # neither the teammate's hand nor the other side's benched member's is seen
                for m in c.teams.bench:
                    m.hand, m.deck = _redeal(rng, m.hand, m.deck)
                hands = [m.flare_hand for m in c.teams.bench]
                c.flare_deck = _redeal_shared(rng, hands, -1, c.flare_deck)
                for m, hand in zip(c.teams.bench, hands, strict=True):
                    m.flare_hand = hand
        else:
            for them in c.opponents(me):
                c.hand[them], c.deck[them] = _redeal(rng, c.hand[them], c.deck[them])
            c.legend_deck = _redeal_shared(rng, c.legend_hand, me, c.legend_deck)
            c.flare_deck = _redeal_shared(rng, c.flare_hand, me, c.flare_deck)
        c.task_deck = _deal(rng, c.task_deck)
        for holder, card in aside:  # a seat, or a benched team member
            (c.hand[holder] if isinstance(holder, int) else holder.hand).append(card)
        return c


def _pending_aside(c: GameState, me: int) -> list[tuple[Any, Being]]:
    """The pending beings of the other players (and of benched team members) taken out of their hands before
    the hands are dealt anew: (seat or benched member, card) pairs, to put the cards back after."""
    aside = []
    for p in range(c.seats):
        card = c.pending[p]
        if card is not None and p != me:
            c.hand[p].remove(card)
            aside.append((p, card))
    for m in c.teams.bench if c.teams is not None else ():
        if m.pending is not None:
            m.hand.remove(m.pending)
            aside.append((m, m.pending))
    return aside


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
