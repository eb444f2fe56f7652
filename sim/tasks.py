"""Task conditions (High Form). Each takes the state and the player and says whether the task is met.

Destruction and summoning tasks read what the active player did this turn; the others read the arena.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sim import board
from sim.board import ADJACENT, CENTER_LINES, CENTER_PLUS, CENTER_X, CENTRAL_NINE, CORNERS, GREEN, RED, SIDES
from sim.ranks import LEGENDARY

if TYPE_CHECKING:
    from sim.state import GameState

Condition = Callable[["GameState", int], bool]
CONDITIONS: dict[str, Condition] = {}


def condition(name: str) -> Callable[[Condition], Condition]:
    def register(fn: Condition) -> Condition:
        CONDITIONS[name] = fn
        return fn

    return register


def _destroyed(s: GameState) -> tuple[int, int]:
    """(all, upgraded) enemy pieces the active player destroyed this turn."""
    c, h, leg = s.counters.destroyed
    return c + h + leg, h + leg


@condition("destroyed_3")
def destroyed_3(s: GameState, p: int) -> bool:
    return _destroyed(s)[0] >= 3


@condition("destroyed_4")
def destroyed_4(s: GameState, p: int) -> bool:
    return _destroyed(s)[0] >= 4


@condition("destroyed_3_one_upgraded")
def destroyed_3_one_upgraded(s: GameState, p: int) -> bool:
    n, up = _destroyed(s)
    return n >= 3 and up >= 1


@condition("destroyed_4_two_upgraded")
def destroyed_4_two_upgraded(s: GameState, p: int) -> bool:
    n, up = _destroyed(s)
    return n >= 4 and up >= 2


@condition("destroyed_legend_or_2_heroic")
def destroyed_legend_or_2_heroic(s: GameState, p: int) -> bool:
    _, h, leg = s.counters.destroyed
    return leg >= 1 or h >= 2


def _on(s: GameState, p: int, squares: int) -> tuple[int, int, int]:
    """(pieces, upgraded, legendary) of ``p`` on ``squares``."""
    bb = s.pieces[p]
    return (
        ((bb[0] | bb[1] | bb[2]) & squares).bit_count(),
        ((bb[1] | bb[2]) & squares).bit_count(),
        (bb[2] & squares).bit_count(),
    )


@condition("red_3_two_upgraded")
def red_conquest(s: GameState, p: int) -> bool:
    n, up, _ = _on(s, p, RED)
    return n >= 3 and up >= 2


@condition("green_3_two_upgraded")
def green_conquest(s: GameState, p: int) -> bool:
    n, up, _ = _on(s, p, GREEN)
    return n >= 3 and up >= 2


@condition("colored_5_three_upgraded")
def color_conquest(s: GameState, p: int) -> bool:
    n, up, _ = _on(s, p, RED | GREEN)
    return n >= 5 and up >= 3


@condition("red_2_upgraded_one_legend")
def red_legends(s: GameState, p: int) -> bool:
    _, up, leg = _on(s, p, RED)
    return up >= 2 and leg >= 1


@condition("green_2_upgraded_one_legend")
def green_legends(s: GameState, p: int) -> bool:
    _, up, leg = _on(s, p, GREEN)
    return up >= 2 and leg >= 1


@condition("more_upgraded_on_red_and_green")
def rainbow_dominance(s: GameState, p: int) -> bool:
    return (_on(s, p, RED)[1] > _on(s, 1 - p, RED)[1]) and (_on(s, p, GREEN)[1] > _on(s, 1 - p, GREEN)[1])


def _summons_on(s: GameState, squares: int) -> int:
    return sum(1 for sq, _ in s.counters.summoned if squares >> sq & 1)


@condition("summoned_2_one_on_red")
def red_summoning(s: GameState, p: int) -> bool:
    return len(s.counters.summoned) >= 2 and _summons_on(s, RED) >= 1


@condition("summoned_2_one_on_green")
def green_summoning(s: GameState, p: int) -> bool:
    return len(s.counters.summoned) >= 2 and _summons_on(s, GREEN) >= 1


@condition("summoned_2_on_colored")
def colored_summoning(s: GameState, p: int) -> bool:
    return _summons_on(s, RED | GREEN) >= 2


@condition("summoned_2_one_legendary")
def legendary_summoning(s: GameState, p: int) -> bool:
    summoned = s.counters.summoned
    return len(summoned) >= 2 and any(rank == LEGENDARY for _, rank in summoned)


@condition("central_5_two_upgraded")
def central_dominance(s: GameState, p: int) -> bool:
    n, up, _ = _on(s, p, CENTRAL_NINE)
    return n >= 5 and up >= 2


@condition("center_plus_or_x")
def center_cross(s: GameState, p: int) -> bool:
    mine = s.mine(p)
    return mine & CENTER_PLUS == CENTER_PLUS or mine & CENTER_X == CENTER_X


@condition("line_6_more")
def line_dominance(s: GameState, p: int) -> bool:
    mine, theirs = s.mine(p), s.mine(1 - p)
    return any((mine & line).bit_count() - (theirs & line).bit_count() >= 6 for line in CENTER_LINES)


@condition("diagonals_4_each_one_upgraded")
def diagonals(s: GameState, p: int) -> bool:
    return all(_on(s, p, d)[0] >= 4 and _on(s, p, d)[1] >= 1 for d in board.LONG_DIAGONALS)


def connected(pieces: int, start: int, goal: int) -> bool:
    """Whether a chain of adjacent squares of ``pieces`` links a square of ``start`` to one of ``goal``."""
    frontier = pieces & start
    reached = frontier
    while frontier:
        if reached & goal:
            return True
        grow = 0
        for sq in board.bits(frontier):
            grow |= ADJACENT[sq]
        frontier = grow & pieces & ~reached
        reached |= frontier
    return bool(reached & goal)


@condition("chain_opposite_sides")
def side_chain(s: GameState, p: int) -> bool:
    mine = s.mine(p)
    return connected(mine, SIDES["left"], SIDES["right"]) or connected(mine, SIDES["top"], SIDES["bottom"])


@condition("chain_opposite_corners")
def corner_chain(s: GameState, p: int) -> bool:
    mine = s.mine(p)
    return connected(mine, CORNERS["nw"], CORNERS["se"]) or connected(mine, CORNERS["ne"], CORNERS["sw"])


def _most_around_enemy(s: GameState, p: int) -> int:
    mine = s.mine(p)
    return max(((ADJACENT[sq] & mine).bit_count() for sq in board.bits(s.mine(1 - p))), default=0)


@condition("surround_6")
def imprisonment(s: GameState, p: int) -> bool:
    return _most_around_enemy(s, p) >= 6


@condition("surround_7")
def envelopment(s: GameState, p: int) -> bool:
    return _most_around_enemy(s, p) >= 7


@condition("isolated_enemy")
def isolation(s: GameState, p: int) -> bool:
    """An enemy piece near another (distance 2) that cannot come adjacent to any other enemy piece in
    3 moves through empty squares."""
    enemy = s.mine(1 - p)
    empty = s.empty()
    for sq in board.bits(enemy):
        others = enemy & ~(1 << sq)
        if not board.WITHIN[2][sq] & others:
            continue
        near_others = 0
        for o in board.bits(others):
            near_others |= ADJACENT[o]
        reached = 1 << sq
        frontier = reached
        stuck = not (reached & near_others)
        for _ in range(3):
            if not stuck:
                break
            grow = 0
            for f in board.bits(frontier):
                grow |= ADJACENT[f]
            frontier = grow & empty & ~reached
            reached |= frontier
            stuck = not (frontier & near_others)
        if stuck:
            return True
    return False
