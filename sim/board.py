"""The arena as integer bitboards.

A square is an index ``(y - 1) * 9 + (x - 1)`` on a 9x9 grid, with ``x`` the column (1..9, left to right)
and ``y`` the row (1..9, top to bottom), as in the reference ``board.json``. Only 69 of the 81 indices
are squares of the arena; ``ARENA`` is their mask. A set of squares is an ``int`` with bit ``sq`` set.
"""

from __future__ import annotations

from collections.abc import Iterator

WIDTH = 9

_CUT = {(1, 1), (2, 1), (1, 2), (8, 1), (9, 1), (9, 2), (1, 8), (1, 9), (2, 9), (9, 8), (8, 9), (9, 9)}

# Directions in clockwise order from north: N, NE, E, SE, S, SW, W, NW. Orthogonal ones have even index.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
ORTHOGONAL_DIRECTIONS = (0, 2, 4, 6)
DIAGONAL_DIRECTIONS = (1, 3, 5, 7)


def square(x: int, y: int) -> int:
    return (y - 1) * WIDTH + (x - 1)


def coords(sq: int) -> tuple[int, int]:
    return sq % WIDTH + 1, sq // WIDTH + 1


def on_arena(x: int, y: int) -> bool:
    return 1 <= x <= WIDTH and 1 <= y <= WIDTH and (x, y) not in _CUT


def offset(sq: int, dx: int, dy: int) -> int | None:
    """The square ``(dx, dy)`` away from ``sq``, or None when that is off the arena."""
    x, y = coords(sq)
    x, y = x + dx, y + dy
    return square(x, y) if on_arena(x, y) else None


def bits(mask: int) -> Iterator[int]:
    """The squares of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return mask.bit_count()


def mask_of(squares) -> int:
    m = 0
    for sq in squares:
        m |= 1 << sq
    return m


def _mask_xy(cells) -> int:
    return mask_of(square(x, y) for x, y in cells)


SQUARES: tuple[int, ...] = tuple(square(x, y) for y in range(1, 10) for x in range(1, 10) if on_arena(x, y))
ARENA: int = mask_of(SQUARES)

RED = _mask_xy([(3, 8), (4, 2), (5, 5), (8, 6)])
GREEN = _mask_xy([(1, 5), (3, 3), (6, 8), (7, 3), (9, 4)])
CENTRAL_NINE = _mask_xy([(x, y) for x in (4, 5, 6) for y in (4, 5, 6)])
CENTER_PLUS = _mask_xy([(5, 4), (5, 5), (5, 6), (4, 5), (6, 5)])
CENTER_X = _mask_xy([(4, 4), (5, 5), (6, 6), (4, 6), (6, 4)])
CENTER_LINES: tuple[int, ...] = tuple(
    [mask_of(s for s in SQUARES if coords(s)[1] == r) for r in (4, 5, 6)]
    + [mask_of(s for s in SQUARES if coords(s)[0] == c) for c in (4, 5, 6)]
)
LONG_DIAGONALS: tuple[int, ...] = (
    _mask_xy([(i, i) for i in range(2, 9)]),
    _mask_xy([(i, 10 - i) for i in range(2, 9)]),
)
SIDES = {
    "left": _mask_xy([(1, y) for y in range(3, 8)]),
    "right": _mask_xy([(9, y) for y in range(3, 8)]),
    "top": _mask_xy([(x, 1) for x in range(3, 8)]),
    "bottom": _mask_xy([(x, 9) for x in range(3, 8)]),
}
CORNERS = {
    "nw": _mask_xy([(1, 3), (2, 2), (3, 1)]),
    "ne": _mask_xy([(7, 1), (8, 2), (9, 3)]),
    "sw": _mask_xy([(1, 7), (2, 8), (3, 9)]),
    "se": _mask_xy([(7, 9), (8, 8), (9, 7)]),
}
DEATHMATCH_START = (square(3, 5), square(7, 5))
# The Deathmatch melee's starting squares: one pair beside each melee symbol, one starting piece per pair
# (the pairs of Board Game Arena's implementation: docs/rules-decisions.md; core/engine/src/board.rs).
MELEE_START = ((square(6, 2), square(7, 2)), (square(7, 6), square(7, 7)), (square(2, 7), square(3, 7)))


def _neighbours(sq: int, dirs) -> int:
    m = 0
    for d in dirs:
        n = offset(sq, *DIRECTIONS[d])
        if n is not None:
            m |= 1 << n
    return m


ADJACENT: tuple[int, ...] = tuple(_neighbours(s, range(8)) if (ARENA >> s) & 1 else 0 for s in range(81))
ORTHOGONAL: tuple[int, ...] = tuple(
    _neighbours(s, ORTHOGONAL_DIRECTIONS) if (ARENA >> s) & 1 else 0 for s in range(81)
)
DIAGONAL: tuple[int, ...] = tuple(_neighbours(s, DIAGONAL_DIRECTIONS) if (ARENA >> s) & 1 else 0 for s in range(81))


def _ray(sq: int, d: int) -> tuple[int, ...]:
    out = []
    cur: int | None = sq
    while True:
        cur = offset(cur, *DIRECTIONS[d])
        if cur is None:
            return tuple(out)
        out.append(cur)


# RAYS[sq][d]: the squares met going from sq in direction d, nearest first (sq excluded).
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(s, d) for d in range(8)) if (ARENA >> s) & 1 else ((),) * 8 for s in range(81)
)


def distance(a: int, b: int) -> int:
    """King-move distance between two squares."""
    return max(abs(a % WIDTH - b % WIDTH), abs(a // WIDTH - b // WIDTH))


def _within(sq: int, n: int) -> int:
    return mask_of(s for s in SQUARES if distance(sq, s) <= n and s != sq)


# WITHIN[n][sq]: squares at distance 1..n from sq, for n up to 4.
WITHIN: tuple[tuple[int, ...], ...] = tuple(
    tuple(_within(s, n) if (ARENA >> s) & 1 else 0 for s in range(81)) for n in range(5)
)


def direction_between(a: int, b: int) -> int | None:
    """The direction index of the step from ``a`` to an adjacent square ``b``."""
    ax, ay = coords(a)
    bx, by = coords(b)
    step = (bx - ax, by - ay)
    return DIRECTIONS.index(step) if step in DIRECTIONS else None


def name(sq: int) -> str:
    """Human name of a square: column letter a..i and row number 1..9 from the top, e.g. ``e5``."""
    x, y = coords(sq)
    return f"{'abcdefghi'[x - 1]}{y}"


def parse_square(text: str) -> int:
    """The square named like ``e5`` (see :func:`name`); ValueError if it is not on the arena."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in "abcdefghi" or not t[1].isdigit():
        raise ValueError(f"not a square name: {text!r} (expected a column a-i and a row 1-9, e.g. e5)")
    x, y = "abcdefghi".index(t[0]) + 1, int(t[1])
    if not on_arena(x, y):
        raise ValueError(f"{text!r} is not a square of the arena (its corners are cut)")
    return square(x, y)
