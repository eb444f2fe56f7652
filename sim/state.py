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


class GameState:
    """Everything about a game in progress: a duel (2 seats) or a Deathmatch melee (3-4). Pieces are bitboards
    per player and rank."""

    def __init__(self, cards: CardSet, mode: str, decks: tuple[str, ...], seed: int, max_turns: int = 200):
        self.cards = cards
        self.mode = mode
        self.deck_names = tuple(decks)
        self.seats = n = len(decks)
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
            "mode": self.mode, "decks": tuple(self.deck_names), "max_turns": self.max_turns,
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
            "gateway": self.gateway, "gateway_suspended": self.gateway_suspended, "possessed": self.possessed,
            "hound_return": [None if c is None else c.index for c in self.hound_return],
        }

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
        self.gateway, self.gateway_suspended = list(d["gateway"]), list(d["gateway_suspended"])
        self.possessed = list(d["possessed"])
        self.hound_return = [None if i is None else beings[i] for i in d["hound_return"]]
        r.events.extend(events_from_json(d["events"]))


def _operate(state: GameState, op: str, args: tuple[int, ...], cause: str = "") -> Any:
    from sim.core import operate

    return operate(state, op, args, cause)


def _indices(cards: list) -> list[int]:
    return [c.index for c in cards]
