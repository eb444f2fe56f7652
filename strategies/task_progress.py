"""How close a player is to each High Form task (0..1), and the squares that help with it.

Each measure is a smooth stand-in for its condition in ``sim.tasks``, so that a strategy is drawn
towards a task before meeting it; it reaches 1 exactly when the condition holds (tests check this on
random positions). Destruction and summoning tasks only count the active player's turn so far.
"""

from __future__ import annotations

from collections.abc import Callable

from sim import board
from sim.board import ADJACENT, CENTER_LINES, CENTER_PLUS, CENTER_X, CENTRAL_NINE, GREEN, LONG_DIAGONALS, RED
from sim.ranks import LEGENDARY
from sim.state import GameState
from sim.tasks import CONDITIONS
from strategies.geometry import around

Progress = Callable[[GameState, int], float]
PROGRESS: dict[str, Progress] = {}


def _progress(name: str) -> Callable[[Progress], Progress]:
    def register(fn: Progress) -> Progress:
        PROGRESS[name] = fn
        return fn

    return register


def _part(have: int, need: int) -> float:
    return min(have, need) / need


def _on(s: GameState, p: int, squares: int) -> tuple[int, int, int]:
    bb = s.pieces[p]
    return (((bb[0] | bb[1] | bb[2]) & squares).bit_count(), ((bb[1] | bb[2]) & squares).bit_count(),
            (bb[2] & squares).bit_count())


def _turn_destroyed(s: GameState, p: int) -> tuple[int, int, int]:
    if s.active != p:
        return 0, 0, 0
    c, h, leg = s.counters.destroyed
    return c + h + leg, h + leg, leg


def _turn_summoned(s: GameState, p: int, squares: int) -> tuple[int, int, bool]:
    if s.active != p:
        return 0, 0, False
    summoned = s.counters.summoned
    return (len(summoned), sum(1 for sq, _ in summoned if squares >> sq & 1),
            any(r == LEGENDARY for _, r in summoned))


def _destroyed(need: int, need_up: int) -> Progress:
    def measure(s: GameState, p: int) -> float:
        n, up, _ = _turn_destroyed(s, p)
        return 0.7 * _part(n, need) + 0.3 * _part(up, need_up) if need_up else _part(n, need)

    return measure


for _name, _need, _need_up in (("destroyed_3", 3, 0), ("destroyed_4", 4, 0),
                               ("destroyed_3_one_upgraded", 3, 1), ("destroyed_4_two_upgraded", 4, 2)):
    PROGRESS[_name] = _destroyed(_need, _need_up)


@_progress("destroyed_legend_or_2_heroic")
def _end_of_legends(s: GameState, p: int) -> float:
    if s.active != p:
        return 0.0
    _, h, leg = s.counters.destroyed
    return max(float(leg >= 1), _part(h + leg, 2))


def _colored(squares: int, need: int, need_up: int, need_leg: int = 0) -> Progress:
    def measure(s: GameState, p: int) -> float:
        n, up, leg = _on(s, p, squares)
        parts = [_part(n, need), _part(up, need_up)] + ([_part(leg, need_leg)] if need_leg else [])
        return sum(parts) / len(parts)

    return measure


PROGRESS["red_3_two_upgraded"] = _colored(RED, 3, 2)
PROGRESS["green_3_two_upgraded"] = _colored(GREEN, 3, 2)
PROGRESS["colored_5_three_upgraded"] = _colored(RED | GREEN, 5, 3)
PROGRESS["red_2_upgraded_one_legend"] = _colored(RED, 2, 2, 1)
PROGRESS["green_2_upgraded_one_legend"] = _colored(GREEN, 2, 2, 1)
PROGRESS["central_5_two_upgraded"] = _colored(CENTRAL_NINE, 5, 2)


@_progress("more_upgraded_on_red_and_green")
def _rainbow(s: GameState, p: int) -> float:
    return sum(0.5 for colour in (RED, GREEN) if _on(s, p, colour)[1] > _on(s, 1 - p, colour)[1])


def _summoning(need: int, squares: int, need_on: int, legendary: bool = False) -> Progress:
    def measure(s: GameState, p: int) -> float:
        n, on, leg = _turn_summoned(s, p, squares)
        return 0.5 * _part(n, need) + 0.5 * (float(leg) if legendary else _part(on, need_on))

    return measure


PROGRESS["summoned_2_one_on_red"] = _summoning(2, RED, 1)
PROGRESS["summoned_2_one_on_green"] = _summoning(2, GREEN, 1)
PROGRESS["summoned_2_on_colored"] = _summoning(2, RED | GREEN, 2)
PROGRESS["summoned_2_one_legendary"] = _summoning(2, 0, 0, legendary=True)


@_progress("center_plus_or_x")
def _cross(s: GameState, p: int) -> float:
    mine, theirs = s.mine(p), s.mine(1 - p)
    return max(_part((mine & m).bit_count(), 5) * (0.5 if theirs & m else 1.0)
               for m in (CENTER_PLUS, CENTER_X))


@_progress("line_6_more")
def _line(s: GameState, p: int) -> float:
    mine, theirs = s.mine(p), s.mine(1 - p)
    return max(_part(max(0, (mine & m).bit_count() - (theirs & m).bit_count()), 6) for m in CENTER_LINES)


@_progress("diagonals_4_each_one_upgraded")
def _diagonals(s: GameState, p: int) -> float:
    return sum(0.4 * _part(n, 4) + 0.1 * _part(up, 1) for n, up, _ in (_on(s, p, d) for d in LONG_DIAGONALS))


def _groups(pieces: int):
    """The groups of adjacent pieces (8-neighbourhood) of a bitboard."""
    rest = pieces
    while rest:
        group = rest & -rest
        while True:
            grown = around(group) & rest
            if grown == group:
                break
            group = grown
        rest &= ~group
        yield group


def _extent(lines: int) -> int:
    """The distance from the lowest to the highest set bit of a 9-bit mask of rows or columns, plus one."""
    return lines.bit_length() - (lines & -lines).bit_length() + 1 if lines else 0


def _spans(pieces: int) -> tuple[int, int]:
    """The widest extent in columns and in rows of a group of adjacent pieces."""
    wide = tall = 0
    for group in _groups(pieces):
        cols = rows = 0
        for r in range(board.WIDTH):
            row = group >> board.WIDTH * r & _ROW
            if row:
                cols |= row
                rows |= 1 << r
        wide, tall = max(wide, _extent(cols)), max(tall, _extent(rows))
    return wide, tall


_ROW = (1 << board.WIDTH) - 1


@_progress("chain_opposite_sides")
def _side_chain(s: GameState, p: int) -> float:
    """Exact: column 1 of the arena is its left side, column 9 its right side (likewise rows)."""
    return _part(max(_spans(s.mine(p))), 9)


@_progress("chain_opposite_corners")
def _corner_chain(s: GameState, p: int) -> float:
    wide, tall = _spans(s.mine(p))
    if min(wide, tall) >= 5 and CONDITIONS["chain_opposite_corners"](s, p):  # corners lie 5+ lines apart
        return 1.0
    return 0.8 * _part(min(wide, tall), 7)


def _surround(need: int) -> Progress:
    def measure(s: GameState, p: int) -> float:
        mine = s.mine(p)
        most = max(((ADJACENT[sq] & mine).bit_count() for sq in board.bits(s.mine(1 - p))), default=0)
        return _part(most, need)

    return measure


PROGRESS["surround_6"] = _surround(6)
PROGRESS["surround_7"] = _surround(7)


@_progress("isolated_enemy")
def _isolation(s: GameState, p: int) -> float:
    """Exact, as the core's ``isolation`` condition (core/engine/src/tasks.rs): 1 or 0, with bitboard steps
    instead of square by square."""
    enemy = s.mine(1 - p)
    empty = s.empty()
    for sq in board.bits(enemy):
        others = enemy & ~(1 << sq)
        if not board.WITHIN[2][sq] & others:
            continue
        near_others = around(others)
        reached = frontier = 1 << sq
        stuck = not reached & near_others
        for _ in range(3):
            if not stuck:
                break
            frontier = around(frontier) & empty & ~reached
            reached |= frontier
            stuck = not frontier & near_others
        if stuck:
            return 1.0
    return 0.0


def progress(condition: str, s: GameState, p: int) -> float:
    """1 exactly when the condition holds, else an estimate below 1 (0 for a condition without one)."""
    measure = PROGRESS.get(condition)
    if measure is None:
        return float(CONDITIONS[condition](s, p))
    m = measure(s, p)
    return 1.0 if m >= 1.0 else min(m, 0.9)


# Squares where a piece of yours helps with each arena condition (a hint for choosing where to place).
_HELPFUL_FIXED: dict[str, int] = {
    "red_3_two_upgraded": RED, "green_3_two_upgraded": GREEN, "colored_5_three_upgraded": RED | GREEN,
    "red_2_upgraded_one_legend": RED, "green_2_upgraded_one_legend": GREEN,
    "more_upgraded_on_red_and_green": RED | GREEN, "central_5_two_upgraded": CENTRAL_NINE,
    "center_plus_or_x": CENTER_PLUS | CENTER_X, "line_6_more": CENTRAL_NINE,
    "diagonals_4_each_one_upgraded": LONG_DIAGONALS[0] | LONG_DIAGONALS[1],
}


def helpful_squares(condition: str, s: GameState, p: int) -> int:
    fixed = _HELPFUL_FIXED.get(condition)
    if fixed is not None:
        if condition == "line_6_more":
            return _best_line(s, p)
        return fixed
    if condition in ("surround_6", "surround_7"):
        mine = s.mine(p)
        best = max(board.bits(s.mine(1 - p)), key=lambda sq: (ADJACENT[sq] & mine).bit_count(), default=None)
        return ADJACENT[best] if best is not None else 0
    if condition in ("chain_opposite_sides", "chain_opposite_corners"):
        near = 0
        for sq in board.bits(s.mine(p)):
            near |= ADJACENT[sq]
        return near
    return 0


def _best_line(s: GameState, p: int) -> int:
    mine, theirs = s.mine(p), s.mine(1 - p)
    return max(CENTER_LINES, key=lambda m: (mine & m).bit_count() - (theirs & m).bit_count())
