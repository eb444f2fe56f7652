"""Bitboard geometry the strategies need often, faster than square-by-square loops."""

from __future__ import annotations

from sim import board

_NOT_LEFT = board.mask_of(s for s in board.SQUARES if board.coords(s)[0] > 1)  # may step to x - 1
_NOT_RIGHT = board.mask_of(s for s in board.SQUARES if board.coords(s)[0] < board.WIDTH)


def around(bb: int) -> int:
    """The squares of ``bb`` and every square adjacent to one of them."""
    left, right = bb & _NOT_LEFT, bb & _NOT_RIGHT
    row = bb | left >> 1 | right << 1
    return (row | row >> board.WIDTH | row << board.WIDTH) & board.ARENA
