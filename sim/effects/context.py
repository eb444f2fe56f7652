"""The context a card effect acts through: the summoned being, its placement, choices and piece operations.

Operations here keep track of the summoned being (``self_sq``) and the pieces used to summon it
(``pattern_sqs``) as pieces move or are destroyed, so that later steps can refer to them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from sim import board
from sim.board import DIRECTIONS, RAYS
from sim.ranks import COMMON, HEROIC, LEGENDARY

if TYPE_CHECKING:
    from sim.game import Game
    from sim.patterns import Placement

STANDARD, COMBAT = "standard", "combat"


class EffectContext:
    def __init__(self, game: Game, player: int, card_id: str, origin: int | None, placement: Placement | None):
        self.game = game
        self.state = game.state
        self.player = player
        self.enemy = 1 - player
        self.card_id = card_id
        self.origin = origin  # the summoning square (None for flares)
        self.self_sq = origin  # where the summoned being stands now; None once it is gone
        self.placement = placement
        self.pattern_sqs: list[int] = list(board.bits(placement.need_any)) if placement else []
        self.did = False  # whether the previous step did something
        self.memory: dict[str, Any] = {}  # values a step leaves for later steps (e.g. a chosen square)

    # ----- choices
    def choose(self, kind: str, options: list[Any], optional: bool = False, prompt: str = "") -> Any:
        """The option the player picks; None when ``optional`` and they pass. Nothing to pick: None."""
        if not options:
            return None
        opts = [*options, None] if optional else list(options)
        return self.game.ask(self.player, kind, opts, self.card_id, prompt)

    def optional_moves(self, times: int, options: Callable[[], list[tuple[int, int]]],
                       prompt: str = "") -> Iterator[tuple[int, int, tuple[int, int] | None]]:
        """Up to ``times`` optional moves, each picked from ``options()`` (asked afresh every time); yields
        ``(from, to, destroyed piece or None)`` after each move, so the caller can react or stop."""
        for _ in range(times):
            choice = self.choose("move", options(), True, prompt)
            if choice is None:
                return
            yield choice[0], choice[1], self.move(*choice)

    # ----- queries
    def piece_at(self, sq: int) -> tuple[int, int] | None:
        return self.state.piece_at(sq)

    def owner_mask(self, owner: str) -> int:
        s = self.state
        if owner == "mine":
            return s.mine(self.player)
        if owner == "enemy":
            return s.mine(self.enemy)
        return s.occupied()

    def rank_mask(self, ranks: tuple[int, ...] | list[int], owner: str = "any") -> int:
        s = self.state
        players = {"mine": (self.player,), "enemy": (self.enemy,)}.get(owner, (0, 1))
        m = 0
        for p in players:
            for r in ranks:
                m |= s.pieces[p][r]
        return m

    def marked_squares(self) -> int:
        return self.placement.marked if self.placement else 0

    def can_enter(self, src: int, dst: int, kind: str) -> bool:
        """Whether the piece on ``src`` may move or leap onto ``dst`` with a standard or combat move."""
        target = self.state.piece_at(dst)
        if target is None:
            return True
        rank = self.state.piece_at(src)[1]  # type: ignore[index]
        return target[1] < rank or (kind == COMBAT and target[1] == rank)

    def move_targets(self, src: int, kind: str, squares: int | None = None, empty_only: bool = False) -> list[int]:
        """Squares the piece on ``src`` may move to (adjacent) or leap to (within ``squares``)."""
        targets = board.ADJACENT[src] if squares is None else squares & ~(1 << src)
        if empty_only:
            targets &= self.state.empty()
        return [d for d in board.bits(targets) if self.can_enter(src, d, kind)]

    def ray_targets(self, src: int, direction: int, kind: str) -> int | None:
        """The next square in ``direction`` the piece on ``src`` may move onto, or None."""
        ray = RAYS[src][direction]
        if not ray or not self.can_enter(src, ray[0], kind):
            return None
        return ray[0]

    # ----- operations that keep track of the being and the pattern pieces
    def _follow(self, src: int, dst: int) -> None:
        if self.self_sq == dst:
            self.self_sq = None
        if dst in self.pattern_sqs:
            self.pattern_sqs.remove(dst)
        if self.self_sq == src:
            self.self_sq = dst
        if src in self.pattern_sqs:
            self.pattern_sqs[self.pattern_sqs.index(src)] = dst

    def move(self, src: int, dst: int) -> tuple[int, int] | None:
        """Move or leap the piece on ``src`` to ``dst``; returns the piece destroyed there, if any."""
        destroyed = self.state.move(src, dst, self.card_id)
        self._follow(src, dst)
        return destroyed

    def destroy(self, sq: int, counts: bool = True) -> tuple[int, int] | None:
        piece = self.state.destroy(sq, self.card_id, counts)
        if piece is not None:
            if self.self_sq == sq:
                self.self_sq = None
            if sq in self.pattern_sqs:
                self.pattern_sqs.remove(sq)
        return piece

    def upgrade(self, sq: int) -> bool:
        return self.state.upgrade(sq, self.card_id)

    def downgrade(self, sq: int) -> bool:
        return self.state.downgrade(sq, self.card_id)

    def place(self, sq: int, rank: int = COMMON, player: int | None = None) -> bool:
        return self.state.place(self.player if player is None else player, rank, sq, self.card_id)

    def convert(self, sq: int, rank: int | None = None) -> bool:
        return self.state.convert(sq, self.player, self.card_id, rank)

    def gain_actions(self, n: int) -> None:
        self.state.actions_left += n

    def is_last_action(self) -> bool:
        return self.state.actions_left == 0


__all__ = ["COMBAT", "COMMON", "DIRECTIONS", "EffectContext", "HEROIC", "LEGENDARY", "STANDARD"]
