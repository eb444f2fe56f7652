//! Bitboard geometry the strategies need often.

use crate::board::{Bits, ARENA, WIDTH};

/// Squares from which a step to `x - 1` stays on the 9x9 grid (column > 1).
const NOT_LEFT: Bits = column_mask_from(1);
/// Squares from which a step to `x + 1` stays on the 9x9 grid (column < 9).
const NOT_RIGHT: Bits = column_mask_below((WIDTH - 1) as u32);

const fn column_mask_from(first_col: u32) -> Bits {
    let mut m: Bits = 0;
    let mut sq = 0;
    while sq < 81 {
        if (sq % 9) >= first_col && (ARENA >> sq) & 1 == 1 {
            m |= 1 << sq;
        }
        sq += 1;
    }
    m
}

const fn column_mask_below(last_col: u32) -> Bits {
    let mut m: Bits = 0;
    let mut sq = 0;
    while sq < 81 {
        if (sq % 9) < last_col && (ARENA >> sq) & 1 == 1 {
            m |= 1 << sq;
        }
        sq += 1;
    }
    m
}

/// The squares of `bb` and every square adjacent to one of them.
#[inline]
pub fn around(bb: Bits) -> Bits {
    let left = bb & NOT_LEFT;
    let right = bb & NOT_RIGHT;
    let row = bb | left >> 1 | right << 1;
    (row | row >> WIDTH | row << WIDTH) & ARENA
}
