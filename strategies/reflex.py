"""Quick answers to effect decisions: each option is scored by what it does at once to the pieces involved
(destroying, upgrading, converting, moving, placing), without simulating the rest of the effect.

Decisions it cannot read (branches, directions, anything new) are left to the caller, which explores
their options in the sandbox.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.decisions import Decision
from sim.ranks import LEGENDARY
from sim.state import DEATHMATCH, GameState
from strategies.evaluate import Evaluator
from strategies.task_progress import helpful_squares

_SQUARE_KINDS = ("destroy", "upgrade", "downgrade", "convert", "place")
_MOVE_KINDS = ("move", "leap")
_DM_POINTS = (0.5, 1.0, 2.0)  # Deathmatch points for destroying an enemy piece, by rank


class Reflex:
    def __init__(self, ev: Evaluator):
        self.ev = ev

    def judge(self, s: GameState, d: Decision) -> int | None:
        """The best option by its immediate effect, or None when this kind of decision is not understood."""
        kind = d.kind
        if kind in _SQUARE_KINDS:
            if not all(o is None or type(o) is int for o in d.options):
                return None
        elif kind in _MOVE_KINDS:
            if not all(o is None or (type(o) is tuple and len(o) == 2) for o in d.options):
                return None
        else:
            return None
        score = _Scorer(self.ev, s, d.player, d.card)
        fn: Callable[[Any], float] = getattr(score, kind)
        best, best_value = 0, float("-inf")
        if None in d.options:  # passing wins ties: an effect that gains nothing is not worth doing
            best, best_value = d.options.index(None), 1e-9
        for i, option in enumerate(d.options):
            if option is None:
                continue
            v = fn(option)
            if v > best_value:
                best, best_value = i, v
        return best


class _Scorer:
    """Immediate gains of one decision's options, for ``player``."""

    def __init__(self, ev: Evaluator, s: GameState, player: int, card: str):
        self.ev, self.s, self.p = ev, s, player
        w = ev.w
        self.material = w.material
        self.card = card
        if s.mode == DEATHMATCH:
            self.kill = tuple(w.score * pts + w.destruction for pts in _DM_POINTS)
        else:
            per_piece = sum(t.points for t in s.task_row if t.category == "destruction") / 3
            self.kill = (w.tasks * per_piece,) * 3
        self._field: dict[int, float] | None = None
        self._helpful: int | None = None
        self.mine = s.mine(player)
        # (bitboard, what losing a piece there costs the player): negative for enemy pieces
        self.losses = [(bb, self.material[r]) for r, bb in enumerate(s.pieces[player])] + [
            (bb, -self.material[r] - self.kill[r]) for r, bb in enumerate(s.pieces[1 - player])]

    def _piece_value(self, sq: int) -> float:
        """What losing the piece on ``sq`` costs the player (negative for an enemy piece, 0 for none)."""
        for bb, loss in self.losses:
            if bb >> sq & 1:
                return loss
        return 0.0

    def _rank_gain(self, rank: int) -> float:
        """The gain of a piece going from ``rank`` to ``rank + 1``."""
        gain = self.material[rank + 1] - self.material[rank]
        if rank + 1 == LEGENDARY and self.s.mode != DEATHMATCH:
            gain += self.ev.w.score
        return gain

    def _on_task_square(self, sq: int) -> float:
        """A bonus for a piece of the player's on a square that helps with a current task."""
        if self._helpful is None:
            helpful = 0
            if self.s.mode != DEATHMATCH:
                for t in self.s.task_row:
                    helpful |= helpful_squares(t.condition, self.s, self.p)
            self._helpful = helpful
        return 0.2 * self.ev.w.tasks if self._helpful >> sq & 1 else 0.0

    def destroy(self, sq: int) -> float:
        return -self._piece_value(sq)

    def upgrade(self, sq: int) -> float:
        owner, rank = self.s.piece_at(sq)  # type: ignore[misc]
        gain = self._rank_gain(rank)
        return gain if owner == self.p else -gain

    def downgrade(self, sq: int) -> float:
        owner, rank = self.s.piece_at(sq)  # type: ignore[misc]
        loss = self._rank_gain(rank - 1)
        return -loss if owner == self.p else loss

    def convert(self, sq: int) -> float:
        piece = self.s.piece_at(sq)
        if piece is None or piece[0] == self.p:
            return 0.0
        return -self._piece_value(sq) + self.material[piece[1]]

    def place(self, sq: int) -> float:
        if self._field is None:
            self._field = self.ev.readiness_parts(self.s, self.p).field if self.ev.w.patterns else {}
        return self.material[0] + self.ev.w.patterns * self._field.get(sq, 0.0) + self._on_task_square(sq)

    def move(self, option: tuple[int, int]) -> float:
        src, dst = option
        gain = -self._piece_value(dst)
        if self.mine >> src & 1:
            gain += 0.5 * (self._on_task_square(dst) - self._on_task_square(src))
        return gain

    leap = move
