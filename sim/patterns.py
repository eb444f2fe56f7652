"""Card patterns: the designers' grid notation, the 8 orientations and precomputed placements.

A pattern grid is written row by row, tokens separated by spaces (dx grows to the right, dy downward):

- ``.`` nothing; ``c`` ``h`` ``l``: your piece of at least that rank must stand there;
- ``*`` a marked square outside the pattern; a ``*`` after a rank letter (``c*``) marks a pattern cell;
- ``@`` the summoning square; ``@c``/``@h``/``@l`` when your own piece must stand on it; ``@*`` marked.
- ``+`` a second kind of marked square (only one card uses it), as ``+`` alone or after a rank letter.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim import board
from sim.ranks import COMMON, HEROIC, LEGENDARY, RANK_LETTERS

Cell = tuple[int, int, int]  # dx, dy, minimum rank


class PatternError(ValueError):
    pass


@dataclass(frozen=True)
class Pattern:
    cells: tuple[Cell, ...]
    marked: tuple[tuple[int, int], ...] = ()
    marked_other: tuple[tuple[int, int], ...] = ()


def parse_grid(text: str) -> Pattern:
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    if not rows:
        raise PatternError("the pattern grid is empty")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise PatternError("every row of the pattern grid must have the same number of tokens")
    origin = [(x, y) for y, r in enumerate(rows) for x, t in enumerate(r) if t.startswith("@")]
    if len(origin) != 1:
        raise PatternError(f"the pattern grid needs exactly one '@' (the summoning square), found {len(origin)}")
    ox, oy = origin[0]
    cells: list[Cell] = []
    marked: list[tuple[int, int]] = []
    other: list[tuple[int, int]] = []
    for y, r in enumerate(rows):
        for x, tok in enumerate(r):
            dx, dy = x - ox, y - oy
            body = tok[1:] if tok.startswith("@") else tok
            if body.endswith("*"):
                marked.append((dx, dy))
                body = body[:-1]
            elif body.endswith("+"):
                other.append((dx, dy))
                body = body[:-1]
            if body in ("", "."):
                continue
            if body not in RANK_LETTERS:
                raise PatternError(
                    f"unknown pattern token {tok!r} at row {y + 1}, column {x + 1} "
                    "(expected . c h l * + @ or a rank letter followed by * or +)"
                )
            cells.append((dx, dy, RANK_LETTERS.index(body)))
    if not cells:
        raise PatternError("the pattern has no cells")
    cells.sort(key=lambda c: (c[1], c[0]))
    return Pattern(tuple(cells), tuple(sorted(marked, key=lambda c: (c[1], c[0]))), tuple(other))


def render_grid(pattern: Pattern) -> str:
    """The grid notation of a pattern (inverse of :func:`parse_grid`)."""
    pts = [(c[0], c[1]) for c in pattern.cells] + list(pattern.marked) + list(pattern.marked_other) + [(0, 0)]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    ranks = {(c[0], c[1]): RANK_LETTERS[c[2]] for c in pattern.cells}
    marks = set(pattern.marked)
    others = set(pattern.marked_other)
    lines = []
    for dy in range(min(ys), max(ys) + 1):
        toks = []
        for dx in range(min(xs), max(xs) + 1):
            t = ranks.get((dx, dy), "")
            if (dx, dy) in marks:
                t += "*"
            elif (dx, dy) in others:
                t += "+"
            if (dx, dy) == (0, 0):
                t = "@" + t
            toks.append(t or ".")
        lines.append(" ".join(f"{t:<3}" for t in toks).rstrip())
    return "\n".join(lines)


def transform(dx: int, dy: int, orientation: int) -> tuple[int, int]:
    """Orientation 0..3: rotations by 90 degrees clockwise; 4..7: the same after a left-right mirror."""
    if orientation >= 4:
        dx = -dx
    for _ in range(orientation % 4):
        dx, dy = -dy, dx
    return dx, dy


def oriented(pattern: Pattern, orientation: int) -> Pattern:
    cells = tuple(sorted(((*transform(dx, dy, orientation), r) for dx, dy, r in pattern.cells),
                         key=lambda c: (c[1], c[0])))
    marked = tuple(sorted((transform(dx, dy, orientation) for dx, dy in pattern.marked), key=lambda c: (c[1], c[0])))
    other = tuple(transform(dx, dy, orientation) for dx, dy in pattern.marked_other)
    return Pattern(cells, marked, other)


def distinct_orientations(pattern: Pattern) -> list[tuple[int, Pattern]]:
    """The orientations that give different cells or marked squares, with the lowest index for each."""
    seen: set[Pattern] = set()
    out = []
    for o in range(8):
        p = oriented(pattern, o)
        key = Pattern(p.cells, p.marked, tuple(sorted(p.marked_other)))
        if key not in seen:
            seen.add(key)
            out.append((o, p))
    return out


@dataclass(frozen=True, slots=True)
class Placement:
    """One way to summon a being: its summoning square and an orientation of its pattern."""

    origin: int
    orientation: int
    need_any: int  # squares needing your piece of any rank
    need_heroic: int  # squares needing your heroic or legendary piece
    need_legendary: int
    marked: int  # marked squares on the arena
    marked_other: int
    marked_squares: tuple[int | None, ...]  # marked squares in card order (None when off the arena)

    @property
    def pattern_mask(self) -> int:
        return self.need_any


def placements_for(pattern: Pattern) -> tuple[Placement, ...]:
    out = []
    for o, p in distinct_orientations(pattern):
        for origin in board.SQUARES:
            need_any = need_h = need_l = 0
            ok = True
            for dx, dy, r in p.cells:
                sq = board.offset(origin, dx, dy)
                if sq is None:
                    ok = False
                    break
                bit = 1 << sq
                need_any |= bit
                if r >= HEROIC:
                    need_h |= bit
                if r == LEGENDARY:
                    need_l |= bit
            if not ok:
                continue
            msq = tuple(board.offset(origin, dx, dy) for dx, dy in p.marked)
            other = board.mask_of(s for s in (board.offset(origin, dx, dy) for dx, dy in p.marked_other)
                                  if s is not None)
            out.append(Placement(origin, o, need_any, need_h, need_l,
                                 board.mask_of(s for s in msq if s is not None), other, msq))
    return tuple(out)


__all__ = ["COMMON", "Pattern", "Placement", "PatternError", "Shape", "parse_grid", "render_grid", "oriented",
           "placements_for", "shapes_for", "transform"]


@dataclass(frozen=True, slots=True)
class Shape:
    """One orientation of a pattern as bitboard shifts, to find every matching origin at once.

    Square ``o + shift`` is the cell's square for an origin ``o`` in ``origins`` (the origins where the whole
    oriented pattern lies on the arena, so no shift wraps around a row).
    """

    origins: int
    cells: tuple[tuple[int, int], ...]  # (shift, minimum rank)
    by_origin: dict[int, Placement]


def shapes_for(pattern: Pattern, placements: tuple[Placement, ...]) -> tuple[Shape, ...]:
    out = []
    for o, p in distinct_orientations(pattern):
        by_origin = {pl.origin: pl for pl in placements if pl.orientation == o}
        cells = tuple((dx + board.WIDTH * dy, r) for dx, dy, r in p.cells)
        out.append(Shape(board.mask_of(by_origin), cells, by_origin))
    return tuple(out)
