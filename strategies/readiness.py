"""How far a player's pieces are from each card's pattern, for every placement at once, with bitboards.

The *cost* of a placement is a rough count of the actions its pattern still needs: 1 for each empty cell
wanting a common piece, 2 for a common of yours where a heroic one must stand (an upgrade), 3 for an
empty cell wanting a heroic piece or an enemy piece in the way, 4 (the cap, "far") for worse. The costs
of all origins of one orientation are added as bit planes: bit ``o`` of a plane belongs to the origin
``o``, and a pattern cell at offset ``k`` from the origin is read by shifting the arena's bitboards by
``k`` (the shape's ``valid`` mask keeps only origins whose whole pattern lies on the arena).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim import board
from sim.cards import Being
from sim.patterns import distinct_orientations
from sim.ranks import COMMON, HEROIC

FAR = 4


MARGIN = 4 * board.WIDTH + 4  # the largest pattern offset: bitboards are kept shifted up by it


@dataclass(frozen=True, slots=True)
class Shape:
    """One orientation of a pattern: the origins where it fits and its cells as (offset, minimum rank)."""

    valid: int
    cells: tuple[tuple[int, int], ...]
    shifts: tuple[tuple[int, int], ...]  # (offset + MARGIN, rank): right shifts of the raised bitboards


_SHAPES: dict[Being, tuple[Shape, ...]] = {}


def shapes(card: Being) -> tuple[Shape, ...]:
    cached = _SHAPES.get(card)
    if cached is not None:
        return cached
    valid: dict[int, int] = {}
    for pl in card.placements:
        valid[pl.orientation] = valid.get(pl.orientation, 0) | 1 << pl.origin
    out = []
    for o, p in distinct_orientations(card.pattern):
        if o in valid:
            cells = tuple((dx + board.WIDTH * dy, r) for dx, dy, r in p.cells)
            out.append(Shape(valid[o], cells, tuple((off + MARGIN, r) for off, r in cells)))
    _SHAPES[card] = tuple(out)
    return _SHAPES[card]


class Position:
    """One player's view of the arena for pattern costs."""

    __slots__ = ("empty", "above", "_raised")

    def __init__(self, mine: tuple[int, int, int] | list[int], theirs: tuple[int, int, int] | list[int]):
        common, heroic, legendary = mine[0], mine[1], mine[2]
        enemy = theirs[0] | theirs[1] | theirs[2]
        self.empty = board.ARENA & ~(enemy | common | heroic | legendary)
        # above[r]: squares holding a piece of a rank above r, where a being of rank r cannot be summoned
        self.above = (heroic | legendary | theirs[1] | theirs[2], legendary | theirs[2], 0)
        self._raised = (self.empty << MARGIN, enemy << MARGIN, common << MARGIN, heroic << MARGIN,
                        legendary << MARGIN)

    def cost_planes(self, shape: Shape) -> tuple[int, int, int]:
        """Bit planes (b0, b1, far) of the cost of every origin: cost = b0 + 2*b1, or FAR where ``far``."""
        em, en, co, he, le = self._raised
        b0 = b1 = far = 0
        for sh, rank in shape.shifts:
            if rank == COMMON:
                c1 = en >> sh
                c0 = em >> sh | c1
                far |= c1 & b1 | b0 & c0 & (b1 ^ c1)
                c1 ^= b0 & c0
                b0 ^= c0
                b1 ^= c1
                continue
            if rank == HEROIC:
                c0 = em >> sh
                c1 = co >> sh | c0
                far |= en >> sh
            else:
                c0 = 0
                h = he >> sh
                c1 = h
                far |= ~(le >> sh | h)
            far |= c1 & b1 | b0 & c0 & (b1 ^ c1)
            c1 ^= b0 & c0
            b0 ^= c0
            b1 ^= c1
        return b0, b1, far

    def best_cost(self, card: Being) -> int:
        """The lowest cost over every placement of ``card`` whose summoning square it may use."""
        best = FAR
        blocked = self.above[card.rank]
        for shape in shapes(card):
            b0, b1, far = self.cost_planes(shape)
            ok = shape.valid & ~blocked & ~far
            if not ok:
                continue
            if ok & ~b0 & ~b1:
                return 0
            if ok & b0 & ~b1:
                best = 1
            elif best > 2 and ok & ~b0 & b1:
                best = 2
            elif best > 3 and ok & b0 & b1:
                best = 3
        return best

    def improving_squares(self, card: Being, cost: int) -> int:
        """Empty squares where a common piece of yours lowers some placement of cost ``cost`` (1..3)."""
        if cost == 0 or cost >= FAR:
            return 0
        want0, want1 = cost & 1, cost >> 1 & 1
        blocked = self.above[card.rank]
        out = 0
        for shape in shapes(card):
            b0, b1, far = self.cost_planes(shape)
            at = shape.valid & ~blocked & ~far & (b0 if want0 else ~b0) & (b1 if want1 else ~b1)
            if not at:
                continue
            for off, rank in shape.cells:
                if rank != COMMON:
                    continue
                gaps = at & self._raised[0] >> off + MARGIN
                out |= gaps << off if off >= 0 else gaps >> -off
        return out & self.empty
