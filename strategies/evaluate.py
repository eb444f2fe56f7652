"""The value of a position for one player: points, material, threats, task progress and hand readiness.

It reads only what that player may know (the arena, scores, tasks, this turn's counters and their own
hand), so a strategy may apply it to any sandbox copy of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from sim import board
from sim.cards import Being
from sim.ranks import HEROIC, LEGENDARY
from sim.state import DEATHMATCH, GameState
from strategies.geometry import around
from strategies.readiness import FAR, Position
from strategies.task_progress import progress

OPPONENT_CLAIM = 0.8  # share of a task's points counted against you when the opponent meets it now
REFILL = 0.2  # readiness expected of the being drawn into an empty hand slot
TURN_TASKS = ("destruction", "summoning")
MEMO_SIZE = 1 << 14  # categories that only count what the active player did this turn


@dataclass(frozen=True)
class Weights:
    score: float
    common: float
    heroic: float
    legendary: float
    threat: float
    tasks: float
    patterns: float
    readiness_decay: float
    legend_cards: float
    destruction: float

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Weights:
        return cls(**{f.name: float(params[f.name]) for f in fields(cls)})

    @property
    def material(self) -> tuple[float, float, float]:
        return self.common, self.heroic, self.legendary


class Evaluator:
    def __init__(self, w: Weights):
        self.w = w
        self.decay = tuple(w.readiness_decay ** c if c < FAR else 0.0 for c in range(FAR + 1))
        self.rank_value = (1.0, 2.0, 3.0)
        # (condition, both players' pieces) -> (your progress, theirs): arena tasks read nothing else
        self._arena_progress: dict[tuple[Any, ...], tuple[float, float]] = {}

    # ----- the whole position
    def value(self, s: GameState, p: int) -> float:
        if self.w.patterns:
            return self.static(s, p) + self.w.patterns * self.readiness(s, p)
        return self.static(s, p)

    def static(self, s: GameState, p: int) -> float:
        """The value without the hand's readiness (the part that is slow to compute)."""
        w = self.w
        o = 1 - p
        me, op = s.pieces[p], s.pieces[o]
        mat = w.common * (me[0].bit_count() - op[0].bit_count()) + w.heroic * (
            me[1].bit_count() - op[1].bit_count()) + w.legendary * (me[2].bit_count() - op[2].bit_count())
        v = mat + self.threats(me, op)
        if s.mode == DEATHMATCH:
            v += w.score * self.dm_margin(s, p)
            if w.destruction and s.active == p:
                v += w.destruction * sum(s.counters.destroyed)
        else:
            v += self.high_form_margin(s, p)
        return v

    def dm_margin(self, s: GameState, p: int) -> float:
        """Your score minus the opponent's, counting the destruction this turn will score."""
        mine = float(s.score(p))
        if s.active == p:
            c, h, leg = s.counters.destroyed
            mine += 2 * leg + h + c // 2 + 0.4 * (c % 2)
        return mine - s.score(1 - p)

    def high_form_margin(self, s: GameState, p: int) -> float:
        """Score margin (with the task you can claim this turn, and the one the opponent meets now counted
        in part against you) and progress towards the current tasks, weighted by their points."""
        w = self.w
        o = 1 - p
        claim = their_claim = 0
        progress_margin = 0.0
        me, op = s.pieces[p], s.pieces[o]
        memo = self._arena_progress
        for t in s.task_row:
            if t.category in TURN_TASKS:
                mine, theirs = progress(t.condition, s, p), 0.0
            else:
                key = (t.condition, me[0], me[1], me[2], op[0], op[1], op[2])
                got = memo.get(key)
                if got is None:
                    if len(memo) >= MEMO_SIZE:
                        memo.clear()
                    got = memo[key] = (progress(t.condition, s, p), progress(t.condition, s, o))
                mine, theirs = got
            if mine == 1.0 and s.active == p:
                claim = max(claim, t.points)
            if theirs == 1.0:
                their_claim = max(their_claim, t.points)
            progress_margin += t.points * (mine - theirs)
        margin = s.score(p) + claim - s.score(o) - OPPONENT_CLAIM * their_claim
        return w.score * margin + w.tasks * progress_margin

    def threats(self, me: list[int], op: list[int]) -> float:
        """Pieces next to an enemy piece that could take them (upgraded pieces move and fight), theirs
        counted at half: the opponent plays next."""
        w = self.w
        if not w.threat:
            return 0.0
        near_op_up, near_op_leg = around(op[1] | op[2]), around(op[2])
        near_me_up, near_me_leg = around(me[1] | me[2]), around(me[2])
        mine_at_risk = (w.common * (me[0] & near_op_up).bit_count()
                        + w.heroic * (me[1] & near_op_up).bit_count()
                        + w.legendary * (me[2] & near_op_leg).bit_count())
        theirs_at_risk = (w.common * (op[0] & near_me_up).bit_count()
                          + w.heroic * (op[1] & near_me_up).bit_count()
                          + w.legendary * (op[2] & near_me_leg).bit_count())
        return w.threat * (0.5 * theirs_at_risk - mine_at_risk)

    # ----- the hand
    def card_value(self, rank: int, legend: bool) -> float:
        return self.rank_value[rank] * (self.w.legend_cards if legend else 1.0)

    def readiness(self, s: GameState, p: int) -> float:
        """The hand's value weighted by how close each card is to being summoned (its pattern cost)."""
        return self.readiness_parts(s, p, False).total

    def readiness_parts(self, s: GameState, p: int, field: bool = True) -> Readiness:
        pos = Position(s.pieces[p], s.pieces[1 - p])
        decay = self.decay
        total = 0.0
        worth: dict[Being, float] = {}
        gains: dict[int, float] = {}
        legend_value = self.rank_value[LEGENDARY] * self.w.legend_cards
        for cards, value in ((s.hand[p], None), (s.legend_hand[p], legend_value)):
            for card in cards:
                v = self.rank_value[card.rank] if value is None else value
                cost = pos.best_cost(card)
                worth[card] = v * decay[cost]
                total += worth[card]
                if field and 0 < cost < FAR:
                    gain = v * (decay[cost - 1] - decay[cost])
                    for sq in board.bits(pos.improving_squares(card, cost)):
                        gains[sq] = gains.get(sq, 0.0) + gain
        return Readiness(total + self.refill * self.empty_slots(s, p), worth, gains)

    def empty_slots(self, s: GameState, p: int) -> int:
        """Slots of the hand that the end of the turn fills with a being from the deck."""
        return max(0, 3 - len(s.hand[p])) if s.deck[p] else 0

    @property
    def refill(self) -> float:
        """The readiness expected of a being drawn into an empty hand slot."""
        return REFILL * self.rank_value[HEROIC]


class Readiness(NamedTuple):
    """The hand's readiness (``total``), each card's share of it (``worth``), and for each empty square
    the readiness a common piece of yours placed there would add (``field``): exactly, since such a piece
    lowers a pattern's cost by one or not at all."""

    total: float
    worth: dict[Being, float]
    field: dict[int, float]
