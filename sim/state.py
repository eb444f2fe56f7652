"""The game state and the primitive piece operations every rule and effect is built from."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from sim import board
from sim.cards import Being, CardSet, Flare, Task
from sim.ranks import COMMON, HEROIC, LEGENDARY
from sim.record import Convert, Destroy, Downgrade, Place, Upgrade

HIGH_FORM = "high-form"
DEATHMATCH = "deathmatch"
MODES = (HIGH_FORM, DEATHMATCH)
TOKENS = {HIGH_FORM: 17, DEATHMATCH: 16}
LEGENDARY_PIECES = 3
MAX_LEGENDS_IN_ARENA = 3
END_SCORE = {HIGH_FORM: 9, DEATHMATCH: 18}


class InvariantError(AssertionError):
    pass


@dataclass
class TurnCounters:
    """What the active player did this turn, for tasks and Deathmatch scoring."""

    destroyed: list[int] = field(default_factory=lambda: [0, 0, 0])  # enemy pieces by rank
    summoned: list[tuple[int, int]] = field(default_factory=list)  # (square, rank) of beings summoned
    extra_draws: int = 0  # extra cards drawn from the personal deck at the end of the turn
    extra_legend_draws: int = 0
    extra_turn: bool = False
    borrow_enemy_piece: bool = False  # War Summoner: the next summon may use one enemy piece


class GameState:
    """Everything about a game in progress. Pieces are bitboards per player and rank."""

    def __init__(self, cards: CardSet, mode: str, decks: tuple[str, str], seed: int, max_turns: int = 200):
        self.cards = cards
        self.mode = mode
        self.deck_names = decks
        self.max_turns = max_turns
        self.rng = random.Random(seed)
        self.pieces: list[list[int]] = [[0, 0, 0], [0, 0, 0]]  # [player][rank] -> bitboard
        self.tokens = [TOKENS[mode], TOKENS[mode]]  # two-sided tokens in stock
        self.legend_stock = [LEGENDARY_PIECES, LEGENDARY_PIECES]
        self.token_total = [TOKENS[mode], TOKENS[mode]]  # tokens in the game (scenarios may set fewer)
        self.legend_total = [LEGENDARY_PIECES, LEGENDARY_PIECES]
        self.deck: list[list[Being]] = [[], []]  # personal decks; the top is the end of the list
        self.hand: list[list[Being]] = [[], []]  # beings from the personal deck
        self.legend_hand: list[list[Being]] = [[], []]
        self.flare_hand: list[list[Flare]] = [[], []]
        self.discarded: list[list[Being]] = [[], []]
        self.legend_deck: list[Being] = []
        self.legend_discard: list[Being] = []
        self.flare_deck: list[Flare] = []
        self.flare_discard: list[Flare] = []
        self.task_deck: list[Task] = []
        self.task_row: list[Task] = []
        self.next_task: Task | None = None
        self.claimed: list[list[Task]] = [[], []]
        self.task_points = [0, 0]
        self.unnamed_task_points = [0, 0]  # a scenario's task points beyond those of the claimed tasks it names
        self.dm_points = [0, 0]
        self.first_player = 0
        self.active = 0
        self.turn = 0  # number of the turn being played, from 1
        self.actions_left = 0
        self.discarded_this_turn = False
        self.flare_used_this_turn = False
        self.counters = TurnCounters()
        self.end_trigger: str | None = None  # "deck" or "score" once the end is triggered
        self.end_trigger_player = -1
        self.trigger_turn = 0
        self.turns_after_trigger = 0  # turns completed after the trigger turn
        self.in_extra_turn = False
        self.over = False
        self.strict = False
        from sim.record import GameRecord

        self.record = GameRecord()

    def clone(self, rng: random.Random) -> GameState:
        """A copy for lookahead: lists and counters are copied, cards shared, the record starts empty and
        ``rng`` replaces the game's random stream (a copy of it would predict the real shuffles)."""
        from sim.record import GameRecord

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
            counters.__dict__[k] = v[:] if type(v) is list else v
        c.counters = counters
        c.rng = rng
        c.record = GameRecord()
        return c

    # ----- queries
    def occupied(self) -> int:
        a, b = self.pieces
        return a[0] | a[1] | a[2] | b[0] | b[1] | b[2]

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
        for owner in (0, 1):
            p = self.pieces[owner]
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
        if self.mode == HIGH_FORM:
            return self.task_points[player] + self.pieces[player][LEGENDARY].bit_count()
        return self.dm_points[player]

    def can_have_piece(self, player: int, rank: int) -> bool:
        """Whether the stock holds a piece that can stand as ``rank``."""
        if rank == LEGENDARY:
            return self.legend_stock[player] > 0 and self.pieces[player][LEGENDARY].bit_count() < MAX_LEGENDS_IN_ARENA
        return self.tokens[player] > 0

    # ----- primitive operations (no choices, no checks beyond their own preconditions)
    def _put(self, player: int, rank: int, sq: int) -> None:
        if rank == LEGENDARY:
            self.legend_stock[player] -= 1
        else:
            self.tokens[player] -= 1
        self.pieces[player][rank] |= 1 << sq

    def _lift(self, owner: int, rank: int, sq: int) -> None:
        self.pieces[owner][rank] &= ~(1 << sq)
        if rank == LEGENDARY:
            self.legend_stock[owner] += 1
        else:
            self.tokens[owner] += 1

    def place(self, player: int, rank: int, sq: int, cause: str) -> bool:
        """Put a piece of ``rank`` from the stock on an empty square; False when the stock has none."""
        if not self.can_have_piece(player, rank):
            return False
        self._put(player, rank, sq)
        self.record.add(Place(self.turn, player, cause, sq, rank))
        return True

    def destroy(self, sq: int, cause: str, counts: bool = True) -> tuple[int, int] | None:
        """Remove the piece on ``sq`` to its owner's stock. Enemy pieces count as destroyed this turn."""
        piece = self.piece_at(sq)
        if piece is None:
            return None
        owner, rank = piece
        self._lift(owner, rank, sq)
        counted = counts and owner != self.active
        if counted:
            self.counters.destroyed[rank] += 1
        self.record.add(Destroy(self.turn, self.active, cause, sq, owner, rank, counted))
        return piece

    def move(self, src: int, dst: int, cause: str) -> tuple[int, int] | None:
        """Move the piece on ``src`` to ``dst``, destroying what stands there. Returns the destroyed piece."""
        owner, rank = self.piece_at(src)  # type: ignore[misc]
        destroyed = self.destroy(dst, cause) if self.occupied() >> dst & 1 else None
        bits = self.pieces[owner]
        bits[rank] = (bits[rank] & ~(1 << src)) | (1 << dst)
        return destroyed

    def upgrade(self, sq: int, cause: str) -> bool:
        piece = self.piece_at(sq)
        if piece is None:
            return False
        owner, rank = piece
        bit = 1 << sq
        p = self.pieces[owner]
        if rank == COMMON:
            p[COMMON] &= ~bit
            p[HEROIC] |= bit
        elif rank == HEROIC and self.can_have_piece(owner, LEGENDARY):
            self._lift(owner, HEROIC, sq)
            self._put(owner, LEGENDARY, sq)
        else:
            return False
        self.record.add(Upgrade(self.turn, self.active, cause, sq, owner, rank))
        return True

    def downgrade(self, sq: int, cause: str) -> bool:
        piece = self.piece_at(sq)
        if piece is None:
            return False
        owner, rank = piece
        bit = 1 << sq
        p = self.pieces[owner]
        if rank == HEROIC:
            p[HEROIC] &= ~bit
            p[COMMON] |= bit
        elif rank == LEGENDARY and self.tokens[owner] > 0:
            self._lift(owner, LEGENDARY, sq)
            self._put(owner, HEROIC, sq)
        else:
            return False
        self.record.add(Downgrade(self.turn, self.active, cause, sq, owner, rank))
        return True

    def convert(self, sq: int, player: int, cause: str, rank: int | None = None) -> bool:
        """Replace the enemy piece on ``sq`` by ``player``'s piece of the same rank (or ``rank``)."""
        piece = self.piece_at(sq)
        if piece is None or piece[0] == player:
            return False
        new_rank = piece[1] if rank is None else rank
        if not self.can_have_piece(player, new_rank):
            return False
        self.destroy(sq, cause)
        self._put(player, new_rank, sq)
        self.record.add(Convert(self.turn, player, cause, sq, new_rank))
        return True

    # ----- invariants (strict mode)
    def check_invariants(self) -> None:
        seen = 0
        for p in (0, 1):
            bb = self.pieces[p]
            for r in (0, 1, 2):
                if bb[r] & ~board.ARENA:
                    raise InvariantError(f"player {p} has a rank-{r} piece off the arena")
                if bb[r] & seen:
                    raise InvariantError("two pieces share a square")
                seen |= bb[r]
            tokens_on = (bb[0] | bb[1]).bit_count()
            if self.tokens[p] < 0 or tokens_on + self.tokens[p] != self.token_total[p]:
                raise InvariantError(f"player {p}: {tokens_on} tokens on the arena + {self.tokens[p]} in stock")
            legends_on = bb[2].bit_count()
            if self.legend_stock[p] < 0 or legends_on + self.legend_stock[p] != self.legend_total[p]:
                raise InvariantError(f"player {p}: legendary pieces {legends_on} + {self.legend_stock[p]}")
            if legends_on > MAX_LEGENDS_IN_ARENA:
                raise InvariantError(f"player {p} has {legends_on} legendary pieces in the arena")
            if self.mode == HIGH_FORM and self.task_points[p] != self.unnamed_task_points[p] + sum(
                    t.points for t in self.claimed[p]):
                raise InvariantError(f"player {p}: task points do not match the claimed tasks")
            if self.record.points_total(p, self.mode) != self.score(p) - (
                    legends_on if self.mode == HIGH_FORM else 0):
                raise InvariantError(f"player {p}: score {self.score(p)} does not match the points recorded")
            total_beings = len(self.deck[p]) + len(self.hand[p]) + len(self.discarded[p])
            if total_beings != len(self.cards.deck(self.deck_names[p])):
                raise InvariantError(f"player {p}: {total_beings} beings accounted for")
            if len(self.flare_hand[p]) > 1:
                raise InvariantError(f"player {p} holds {len(self.flare_hand[p])} flares")
        legends = (len(self.legend_deck) + len(self.legend_discard) + len(self.legend_hand[0])
                   + len(self.legend_hand[1]))
        if legends != len(self.cards.legends):
            raise InvariantError(f"{legends} legend cards accounted for")
        flares = len(self.flare_deck) + len(self.flare_discard) + len(self.flare_hand[0]) + len(self.flare_hand[1])
        if flares != len(self.cards.flares):
            raise InvariantError(f"{flares} flare cards accounted for")
