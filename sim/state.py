"""The game state: a plain container of everything about a game in progress, with its cheap queries.

The rules that change it run in the compiled core (``sim.core``, docs/core.md): the state goes to the core
as plain values (``to_core``) and comes back (``from_core``)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from sim import board
from sim.cards import Being, CardSet, Flare, Task
from sim.ranks import LEGENDARY
from sim.record import GameRecord, events_from_json

HIGH_FORM = "high-form"
DEATHMATCH = "deathmatch"
MODES = (HIGH_FORM, DEATHMATCH)
TOKENS = {HIGH_FORM: 17, DEATHMATCH: 16}  # a duel's stocks; a melee's Deathmatch stock is 18 - players
LEGENDARY_PIECES = 3
MAX_LEGENDS_IN_ARENA = 3
END_SCORE = {HIGH_FORM: 9, DEATHMATCH: 18}
MAX_SEATS = 4
MELEE_END_SCORE = {3: 12, 4: 10}  # one colour's score that ends a melee, by players
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


@dataclass
class TurnCounters:
    """What the active player did this turn, for tasks and Deathmatch scoring."""

    destroyed: list[int] = field(default_factory=lambda: [0, 0, 0])  # enemy pieces by rank
    destroyed_of: list[list[int]] = field(default_factory=list)  # the same by owner, one [c, h, l] per seat
    summoned: list[tuple[int, int]] = field(default_factory=list)  # (square, rank) of beings summoned
    extra_draws: int = 0  # extra cards drawn from the personal deck at the end of the turn
    extra_legend_draws: int = 0
    extra_turn: bool = False
    borrow_enemy_piece: bool = False  # War Summoner: the next summon may use one enemy piece


@dataclass
class Member:
    """A team game: the personal cards of the team member whose cards are not in his side's slots."""

    deck_name: str
    deck: list[Being] = field(default_factory=list)  # the top is the end of the list
    hand: list[Being] = field(default_factory=list)
    flare_hand: list[Flare] = field(default_factory=list)
    discarded: list[Being] = field(default_factory=list)
    pending: Being | None = None  # Etherweave: his pending being
    stasis: tuple[int, int] | None = None  # Etherweave: (owner, rank) of the piece on his pending Merchant
    frozen: Being | None = None  # Everfrost: his frozen effect in play
    hound_return: Being | None = None  # Nethervoid: his Hell Hound waiting to go under his deck

    def copy(self) -> Member:
        return Member(self.deck_name, self.deck[:], self.hand[:], self.flare_hand[:], self.discarded[:],
                      self.pending, self.stasis, self.frozen, self.hound_return)


@dataclass
class Teams:
    """A team game, 2 against 2 (docs/core.md). The rules play it as a duel between two sides (teams): pieces,
    stocks, scores, tasks and the team's legend cards are the side's. Each side's personal slots (``deck``,
    ``hand``, ``flare_hand``, ``discarded``) hold the cards of one member, ``holder[side]`` (a seat); the other
    member's wait in ``bench[side]``."""

    holder: list[int]  # per side, the seat whose personal cards are in the side's slots
    bench: list[Member]  # per side, the other member's cards
    turn_seat: int = 0  # the seat whose turn it is
    controller: int | None = None  # the teammate who took over the turn once control was passed
    resolving: str | None = None  # the card whose effect is being resolved (control may pass in its middle)

    def copy(self) -> Teams:
        return Teams(self.holder[:], [m.copy() for m in self.bench], self.turn_seat, self.controller,
                     self.resolving)


class GameState:
    """Everything about a game in progress: a duel (2 seats), a Deathmatch melee (3-4) or a team game (2 sides
    of 2 seats, ``teams``). Pieces are bitboards per player and rank (per side in a team game)."""

    def __init__(self, cards: CardSet, mode: str, decks: tuple[str, ...], seed: int, max_turns: int = 200,
                 teams: bool = False):
        self.cards = cards
        self.mode = mode
        self.deck_names = tuple(decks)  # by seat (4 in a team game)
        self.teams: Teams | None = None
        if teams:
            self.teams = Teams([0, 1], [Member(decks[2]), Member(decks[3])])
            decks = decks[:2]
        self.seats = n = len(decks)  # the sides in a team game
        self.max_turns = max_turns
        self.rng = random.Random(seed)
        tokens = stock_tokens(mode, n)
        self.pieces: list[list[int]] = [[0, 0, 0] for _ in range(n)]  # [player][rank] -> bitboard
        self.tokens = [tokens] * n  # two-sided tokens in stock
        self.legend_stock = [LEGENDARY_PIECES] * n
        self.token_total = [tokens] * n  # tokens in the game (scenarios may set fewer)
        self.legend_total = [LEGENDARY_PIECES] * n
        self.deck: list[list[Being]] = [[] for _ in range(n)]  # personal decks; the top is the end of the list
        self.hand: list[list[Being]] = [[] for _ in range(n)]  # beings from the personal deck
        self.legend_hand: list[list[Being]] = [[] for _ in range(n)]
        self.flare_hand: list[list[Flare]] = [[] for _ in range(n)]
        self.discarded: list[list[Being]] = [[] for _ in range(n)]
        self.legend_deck: list[Being] = []
        self.legend_discard: list[Being] = []
        self.flare_deck: list[Flare] = []
        self.flare_discard: list[Flare] = []
        self.task_deck: list[Task] = []
        self.task_row: list[Task] = []
        self.next_task: Task | None = None
        self.claimed: list[list[Task]] = [[] for _ in range(n)]
        self.task_points = [0] * n
        self.unnamed_task_points = [0] * n  # a scenario's task points beyond those of the claimed tasks it names
        self.dm_points = [0] * n
        self.colour_points = [[0] * n for _ in range(n)]  # melee: [scorer][colour]
        self.improvised = [[False] * n for _ in range(n)]  # melee: [player][colour] improvisation spent
        self.first_player = 0
        self.active = 0
        self.turn = 0  # number of the turn being played, from 1
        self.actions_left = 0
        self.discarded_this_turn = False
        self.flare_used_this_turn = False
        self.counters = TurnCounters(destroyed_of=[[0, 0, 0] for _ in range(n)])
        self.end_trigger: str | None = None  # "deck" or "score" once the end is triggered
        self.end_trigger_player = -1
        self.trigger_turn = 0
        self.turns_after_trigger = 0  # turns completed after the trigger turn
        self.in_extra_turn = False
        self.over = False
        self.strict = False
        self.record = GameRecord()
        # Etherweave: each seat's pending being (a card of its hand), the piece in stasis on each seat's
        # pending Merchant of Time as (owner, rank), and the active player's effects lasting the turn
        self.pending: list[Being | None] = [None] * n
        self.stasis: list[tuple[int, int] | None] = [None] * n
        self.void_squares = 0  # Void Summoner: empty squares the next summoning may use as commons
        self.extra_destruction = 0  # Gate of Oblivion's warp: extra counts of each enemy piece destroyed
        self.warped = 0  # bit per being index: warp texts played from hand this turn
        # ----- Everfrost (docs/cards-everfrost.md)
        self.frozen: list[Being | None] = [None] * n  # the frozen effect in play in front of each seat
        self.removed = [[0, 0] for _ in range(n)]  # pieces removed from the game by owner: [tokens, legendary]
        self.action_loss = [0] * n  # bit s of [q]: seat s's Everfrost Sentinel cut q's next turn to 1 action
        # Nethervoid: each seat's Gateway square (None: none), whether it waits for a piece in stasis, the
        # Possessed Summoner's colour for the seat's next pattern this turn, and a Hell Hound card that goes
        # under the seat's deck at the end of the turn
        self.gateway: list[int | None] = [None] * n
        self.gateway_suspended = [False] * n
        self.possessed: list[int | None] = [None] * n
        self.hound_return: list[Being | None] = [None] * n

    def clone(self, rng: random.Random) -> GameState:
        """A copy for lookahead: lists and counters are copied, cards shared, the record starts empty and
        ``rng`` replaces the game's random stream (a copy of it would predict the real shuffles)."""
        c = object.__new__(GameState)
        d = c.__dict__
        for k, v in self.__dict__.items():
            t = type(v)
            if t is list:
                v = [x[:] if type(x) is list else x for x in v]
            elif t is dict or t is set:
                v = v.copy()
            d[k] = v
        counters = object.__new__(TurnCounters)
        for k, v in self.counters.__dict__.items():
            counters.__dict__[k] = [x[:] if type(x) is list else x for x in v] if type(v) is list else v
        c.counters = counters
        if self.teams is not None:
            c.teams = self.teams.copy()
        c.rng = rng
        c.record = GameRecord()
        return c

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

    def seat_deck(self, seat: int) -> str:
        """The name of the deck ``seat`` plays."""
        return self.deck_names[seat]

    def member(self, seat: int) -> Member:
        """A team game: ``seat``'s personal cards, from his side's slots or the bench (the slots' lists
        themselves, not copies)."""
        t = self.teams
        if t is None:
            raise ValueError("not a team game")
        side = seat % 2
        if t.holder[side] != seat:
            return t.bench[side]
        return Member(self.deck_names[seat], self.deck[side], self.hand[side], self.flare_hand[side],
                      self.discarded[side], self.pending[side], self.stasis[side], self.frozen[side],
                      self.hound_return[side])

    def upright(self, seat: int) -> int:
        """A team game: the cards of ``seat``'s deck that stand upright (above the 6 sideways ones); drawing the
        last of them triggers the end."""
        return max(0, len(self.member(seat).deck) - SIDEWAYS)

    @property
    def control_passed(self) -> bool:
        """A team game: whether the active player has handed his turn to his teammate."""
        return self.teams is not None and self.teams.controller is not None

    # ----- queries
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

    def score(self, player: int) -> int:
        """The score that wins: in a melee, the player's lowest colour score."""
        if self.mode == HIGH_FORM:
            return self.task_points[player] + self.pieces[player][LEGENDARY].bit_count()
        if self.melee:
            return min(self.colour_points[player][c] for c in self.opponents(player))
        return self.dm_points[player]

    def can_have_piece(self, player: int, rank: int) -> bool:
        """Whether the stock holds a piece that can stand as ``rank``."""
        if rank == LEGENDARY:
            return self.legend_stock[player] > 0 and self.pieces[player][LEGENDARY].bit_count() < MAX_LEGENDS_IN_ARENA
        return self.tokens[player] > 0

    # ----- invariants (strict mode)
    # ----- primitive piece operations (run by the core; no choices, no checks beyond their preconditions)
    def _put(self, player: int, rank: int, sq: int) -> None:
        """A piece from the stock onto ``sq``, no event."""
        _operate(self, "put", (player, rank, sq))

    def _lift(self, owner: int, rank: int, sq: int) -> None:
        """The piece on ``sq`` back to its owner's stock, no event."""
        _operate(self, "lift", (owner, rank, sq))

    def place(self, player: int, rank: int, sq: int, cause: str) -> bool:
        """Put a piece of ``rank`` from the stock on an empty square; False when the stock has none."""
        return _operate(self, "place", (player, rank, sq), cause)

    def destroy(self, sq: int, cause: str, counts: bool = True) -> tuple[int, int] | None:
        """Remove the piece on ``sq`` to its owner's stock. Enemy pieces count as destroyed this turn."""
        return _operate(self, "destroy", (sq, int(counts)), cause)

    def move(self, src: int, dst: int, cause: str) -> tuple[int, int] | None:
        """Move the piece on ``src`` to ``dst``, destroying what stands there. Returns the destroyed piece."""
        return _operate(self, "move", (src, dst), cause)

    def upgrade(self, sq: int, cause: str) -> bool:
        return _operate(self, "upgrade", (sq,), cause)

    def downgrade(self, sq: int, cause: str) -> bool:
        return _operate(self, "downgrade", (sq,), cause)

    def convert(self, sq: int, player: int, cause: str, rank: int | None = None) -> bool:
        """Replace the enemy piece on ``sq`` by ``player``'s piece of the same rank (or ``rank``)."""
        return _operate(self, "convert", (sq, player, -1 if rank is None else rank), cause)

    def check_invariants(self) -> None:
        """Raise ``InvariantError`` if the state breaks a rule of the game (checked by the core)."""
        from sim.core import check_invariants

        check_invariants(self)

    # ----- the state as the core takes and gives it (see sim/core.py)
    def to_core(self) -> dict[str, Any]:
        """The state as plain values, cards as their indices in the card set."""
        c = self.counters
        r = self.record
        return {
            "mode": self.mode, "max_turns": self.max_turns, **self._teams_to_core(),
            "rng": self.rng.getstate()[1], "pieces": self.pieces, "tokens": self.tokens,
            "legend_stock": self.legend_stock, "token_total": self.token_total, "legend_total": self.legend_total,
            "deck": [_indices(x) for x in self.deck], "hand": [_indices(x) for x in self.hand],
            "legend_hand": [_indices(x) for x in self.legend_hand],
            "flare_hand": [_indices(x) for x in self.flare_hand],
            "discarded": [_indices(x) for x in self.discarded], "legend_deck": _indices(self.legend_deck),
            "legend_discard": _indices(self.legend_discard), "flare_deck": _indices(self.flare_deck),
            "flare_discard": _indices(self.flare_discard), "task_deck": _indices(self.task_deck),
            "task_row": _indices(self.task_row),
            "next_task": None if self.next_task is None else self.next_task.index,
            "claimed": [_indices(x) for x in self.claimed], "task_points": self.task_points,
            "unnamed_task_points": self.unnamed_task_points, "dm_points": self.dm_points,
            "colour_points": self.colour_points, "improvised": self.improvised, "destroyed_of": c.destroyed_of,
            "first_player": self.first_player, "active": self.active, "turn": self.turn,
            "actions_left": self.actions_left, "discarded_this_turn": self.discarded_this_turn,
            "flare_used_this_turn": self.flare_used_this_turn, "destroyed": c.destroyed, "summoned": c.summoned,
            "extra_draws": c.extra_draws, "extra_legend_draws": c.extra_legend_draws, "extra_turn": c.extra_turn,
            "borrow_enemy_piece": c.borrow_enemy_piece, "end_trigger": self.end_trigger,
            "end_trigger_player": self.end_trigger_player, "trigger_turn": self.trigger_turn,
            "turns_after_trigger": self.turns_after_trigger, "in_extra_turn": self.in_extra_turn,
            "over": self.over, "strict": self.strict, "points": r._points,
            "colour_totals": r._colour_totals or [[0] * self.seats for _ in range(self.seats)],
            "colour_scores": r.colour_scores, "places": r.places,
            "record_first_player": r.first_player, "scores": r.scores, "winner": r.winner,
            "end_reason": r.end_reason, "tiebreak": r.tiebreak, "turns": r.turns,
            "pending": [None if c is None else c.index for c in self.pending],
            "stasis": [None if x is None else tuple(x) for x in self.stasis],
            "void_squares": self.void_squares, "extra_destruction": self.extra_destruction,
            "warped": self.warped,
            "frozen": [None if c is None else c.index for c in self.frozen], "removed": self.removed,
            "action_loss": self.action_loss,
            "gateway": self.gateway, "gateway_suspended": self.gateway_suspended, "possessed": self.possessed,
            "hound_return": [None if c is None else c.index for c in self.hound_return],
        }

    def _teams_to_core(self) -> dict[str, Any]:
        t = self.teams
        if t is None:
            return {"decks": tuple(self.deck_names), "teams": None}
        return {"decks": tuple(self.deck_names[h] for h in t.holder), "teams": {
            "holder": t.holder, "turn_seat": t.turn_seat, "controller": t.controller, "resolving": t.resolving,
            "bench": [{"deck_name": m.deck_name, "deck": _indices(m.deck), "hand": _indices(m.hand),
                       "flare_hand": _indices(m.flare_hand), "discarded": _indices(m.discarded),
                       "pending": None if m.pending is None else m.pending.index,
                       "stasis": None if m.stasis is None else tuple(m.stasis),
                       "frozen": None if m.frozen is None else m.frozen.index,
                       "hound_return": None if m.hound_return is None else m.hound_return.index}
                      for m in t.bench]}}

    def from_core(self, d: dict[str, Any]) -> None:
        """Take the state the core gives back, with the events it recorded since it last gave the state."""
        beings, flares, tasks = self.cards.all_beings, self.cards.flares, self.cards.tasks
        self.pieces = [list(x) for x in d["pieces"]]
        self.tokens, self.legend_stock = list(d["tokens"]), list(d["legend_stock"])
        self.token_total, self.legend_total = list(d["token_total"]), list(d["legend_total"])
        self.deck = [[beings[i] for i in x] for x in d["deck"]]
        self.hand = [[beings[i] for i in x] for x in d["hand"]]
        self.legend_hand = [[beings[i] for i in x] for x in d["legend_hand"]]
        self.flare_hand = [[flares[i] for i in x] for x in d["flare_hand"]]
        self.discarded = [[beings[i] for i in x] for x in d["discarded"]]
        self.legend_deck = [beings[i] for i in d["legend_deck"]]
        self.legend_discard = [beings[i] for i in d["legend_discard"]]
        self.flare_deck = [flares[i] for i in d["flare_deck"]]
        self.flare_discard = [flares[i] for i in d["flare_discard"]]
        self.task_deck = [tasks[i] for i in d["task_deck"]]
        self.task_row = [tasks[i] for i in d["task_row"]]
        self.next_task = None if d["next_task"] is None else tasks[d["next_task"]]
        self.claimed = [[tasks[i] for i in x] for x in d["claimed"]]
        self.task_points, self.dm_points = list(d["task_points"]), list(d["dm_points"])
        self.unnamed_task_points = list(d["unnamed_task_points"])
        self.colour_points = [list(x) for x in d["colour_points"]]
        self.improvised = [list(x) for x in d["improvised"]]
        for k in ("first_player", "active", "turn", "actions_left", "discarded_this_turn", "flare_used_this_turn",
                  "end_trigger", "end_trigger_player", "trigger_turn", "turns_after_trigger", "in_extra_turn",
                  "over"):
            setattr(self, k, d[k])
        c = self.counters
        c.destroyed, c.summoned = list(d["destroyed"]), [tuple(x) for x in d["summoned"]]
        c.destroyed_of = [list(x) for x in d["destroyed_of"]]
        c.extra_draws, c.extra_legend_draws = d["extra_draws"], d["extra_legend_draws"]
        c.extra_turn, c.borrow_enemy_piece = d["extra_turn"], d["borrow_enemy_piece"]
        self.rng.setstate((3, tuple(d["rng"]), None))
        r = self.record
        r.first_player, r.scores, r.winner = d["record_first_player"], tuple(d["scores"]), d["winner"]
        r.end_reason, r.tiebreak, r.turns = d["end_reason"], d["tiebreak"], d["turns"]
        r._points = list(d["points"])
        r._colour_totals = [list(x) for x in d["colour_totals"]]
        r.colour_scores = [list(x) for x in d["colour_scores"]]
        r.places = list(d["places"])
        self.frozen = [None if i is None else beings[i] for i in d["frozen"]]
        self.removed = [list(x) for x in d["removed"]]
        self.action_loss = list(d["action_loss"])
        self.gateway, self.gateway_suspended = list(d["gateway"]), list(d["gateway_suspended"])
        self.possessed = list(d["possessed"])
        self.hound_return = [None if i is None else beings[i] for i in d["hound_return"]]
        r.events.extend(events_from_json(d["events"]))
        self.pending = [None if i is None else beings[i] for i in d["pending"]]
        self.stasis = [None if x is None else tuple(x) for x in d["stasis"]]
        self.void_squares, self.extra_destruction = d["void_squares"], d["extra_destruction"]
        self.warped = d["warped"]
        teams = d.get("teams")
        if teams is not None:
            self.teams = Teams(list(teams["holder"]), [
                Member(m["deck_name"], [beings[i] for i in m["deck"]], [beings[i] for i in m["hand"]],
                       [flares[i] for i in m["flare_hand"]], [beings[i] for i in m["discarded"]],
                       None if m["pending"] is None else beings[m["pending"]],
                       None if m["stasis"] is None else tuple(m["stasis"]),
                       None if m["frozen"] is None else beings[m["frozen"]],
                       None if m["hound_return"] is None else beings[m["hound_return"]])
                for m in teams["bench"]], teams["turn_seat"], teams["controller"], teams["resolving"])


# What the core's live state answers itself (sim._core.LiveState): what PlayerView reads, read only.
_LIVE = frozenset({"seat_of", "mode", "seats", "melee", "turn", "active", "actions_left", "pieces", "tokens",
                   "legend_stock", "hand", "legend_hand", "flare_hand", "task_row", "next_task", "piece_at",
                   "occupied", "score", "opponents"})


class _Detached(GameState):
    """A ``GameState`` whose fields are behind the core's live state while a Python strategy chooses
    (``detach``): what the live state answers (``_LIVE``, fresh values) is read from it; any other use of the
    state takes the core's snapshot into it and makes it a plain ``GameState`` again. So a strategy that only
    reads its ``PlayerView`` pays no copy of the game."""

    def __getattribute__(self, name: str) -> Any:
        if name in _LIVE:
            return getattr(object.__getattribute__(self, "_live"), name)
        if name == "cards":  # the card set never changes
            return object.__getattribute__(self, name)
        _attach(self)
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        _attach(self)
        object.__setattr__(self, name, value)


def _attach(state: GameState) -> None:
    """A detached state made plain, with the core's state of the moment written into it."""
    object.__setattr__(state, "__class__", GameState)
    state.from_core(state._live.snapshot())


def detach(state: GameState, live: Any) -> None:
    """Let ``state`` stand for the core's live state (a ``sim._core.LiveState``) until ``reattach``."""
    state._live = live
    object.__setattr__(state, "__class__", _Detached)


def reattach(state: GameState, *, taken: bool = False) -> dict[str, Any] | None:
    """End ``detach``: the state as the core takes it back if it was used (a strategy may have changed it),
    None if not. ``taken`` takes the live state into it in any case (an exception leaves the operation)."""
    if type(state) is _Detached:
        if not taken:
            object.__setattr__(state, "__class__", GameState)
            return None
        _attach(state)
    return state.to_core()


def for_core(state: GameState) -> Any:
    """The state for a core player's answer: the live state itself while detached, else a snapshot."""
    if type(state) is _Detached:
        return object.__getattribute__(state, "_live")
    return state.to_core()


def _operate(state: GameState, op: str, args: tuple[int, ...], cause: str = "") -> Any:
    from sim.core import operate

    return operate(state, op, args, cause)


def _indices(cards: list) -> list[int]:
    return [c.index for c in cards]
