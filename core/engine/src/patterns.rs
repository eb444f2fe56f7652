//! Card patterns, their 8 orientations and precomputed placements (sim/patterns.py), in Python's orders.

use crate::board::{self, Bits, Square};
use crate::ranks::{HEROIC, LEGENDARY};

/// dx, dy, minimum rank.
pub type Cell = (i32, i32, u8);

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pattern {
    pub cells: Vec<Cell>,
    pub marked: Vec<(i32, i32)>,
    pub marked_other: Vec<(i32, i32)>,
}

/// Orientation 0..3: rotations by 90 degrees clockwise; 4..7: the same after a left-right mirror.
pub fn transform(dx: i32, dy: i32, orientation: u8) -> (i32, i32) {
    let (mut dx, mut dy) = (dx, dy);
    if orientation >= 4 {
        dx = -dx;
    }
    for _ in 0..orientation % 4 {
        (dx, dy) = (-dy, dx);
    }
    (dx, dy)
}

pub fn oriented(p: &Pattern, orientation: u8) -> Pattern {
    let mut cells: Vec<Cell> = p
        .cells
        .iter()
        .map(|&(dx, dy, r)| {
            let (x, y) = transform(dx, dy, orientation);
            (x, y, r)
        })
        .collect();
    cells.sort_by_key(|c| (c.1, c.0));
    let mut marked: Vec<(i32, i32)> = p
        .marked
        .iter()
        .map(|&(dx, dy)| transform(dx, dy, orientation))
        .collect();
    marked.sort_by_key(|c| (c.1, c.0));
    let marked_other = p
        .marked_other
        .iter()
        .map(|&(dx, dy)| transform(dx, dy, orientation))
        .collect();
    Pattern {
        cells,
        marked,
        marked_other,
    }
}

/// The orientations that give different cells or marked squares, with the lowest index for each.
pub fn distinct_orientations(p: &Pattern) -> Vec<(u8, Pattern)> {
    let mut seen: Vec<Pattern> = Vec::new();
    let mut out = Vec::new();
    for o in 0..8 {
        let q = oriented(p, o);
        let mut other = q.marked_other.clone();
        other.sort();
        let key = Pattern {
            cells: q.cells.clone(),
            marked: q.marked.clone(),
            marked_other: other,
        };
        if !seen.contains(&key) {
            seen.push(key);
            out.push((o, q));
        }
    }
    out
}

/// One way to summon a being: its summoning square and an orientation of its pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub origin: Square,
    pub orientation: u8,
    /// Squares needing your piece of any rank (the pattern).
    pub need_any: Bits,
    pub need_heroic: Bits,
    pub need_legendary: Bits,
    /// Marked squares on the arena.
    pub marked: Bits,
    pub marked_other: Bits,
    /// Marked squares in card order (None when off the arena).
    pub marked_squares: Vec<Option<Square>>,
}

/// Pieces by the rank a pattern cell can need: any rank, heroic or better, legendary.
pub fn rank_or_better(pieces: &[Bits; 3]) -> [Bits; 3] {
    [
        pieces[0] | pieces[1] | pieces[2],
        pieces[1] | pieces[2],
        pieces[2],
    ]
}

impl Placement {
    /// The pattern's squares that pieces `by_rank` (as `rank_or_better` gives them) leave unfilled.
    pub fn unfilled(&self, by_rank: [Bits; 3]) -> Bits {
        (self.need_any & !by_rank[0])
            | (self.need_heroic & !by_rank[1])
            | (self.need_legendary & !by_rank[2])
    }
}

pub fn placements_for(p: &Pattern) -> Vec<Placement> {
    let mut out = Vec::new();
    for (o, q) in distinct_orientations(p) {
        'origins: for origin in board::squares() {
            let (mut need_any, mut need_h, mut need_l) = (0, 0, 0);
            for &(dx, dy, r) in &q.cells {
                let Some(sq) = board::offset(origin, dx, dy) else {
                    continue 'origins;
                };
                let b = board::bit(sq);
                need_any |= b;
                if r >= HEROIC {
                    need_h |= b;
                }
                if r == LEGENDARY {
                    need_l |= b;
                }
            }
            let msq: Vec<Option<Square>> = q
                .marked
                .iter()
                .map(|&(dx, dy)| board::offset(origin, dx, dy))
                .collect();
            let other = board::mask_of(
                q.marked_other
                    .iter()
                    .filter_map(|&(dx, dy)| board::offset(origin, dx, dy)),
            );
            out.push(Placement {
                origin,
                orientation: o,
                need_any,
                need_heroic: need_h,
                need_legendary: need_l,
                marked: board::mask_of(msq.iter().flatten().copied()),
                marked_other: other,
                marked_squares: msq,
            });
        }
    }
    out
}

/// One orientation of a pattern as bitboard shifts, to find every matching origin at once.
#[derive(Clone, Debug)]
pub struct Shape {
    pub origins: Bits,
    /// (shift, minimum rank): square `origin + shift` holds the cell.
    pub cells: Vec<(i32, u8)>,
    /// Index into the being's placements for each origin of `origins` (u16::MAX elsewhere).
    pub by_origin: [u16; 81],
}

pub fn shapes_for(p: &Pattern, placements: &[Placement]) -> Vec<Shape> {
    distinct_orientations(p)
        .into_iter()
        .map(|(o, q)| {
            let mut by_origin = [u16::MAX; 81];
            let mut origins = 0;
            for (i, pl) in placements.iter().enumerate() {
                if pl.orientation == o {
                    by_origin[pl.origin as usize] = i as u16;
                    origins |= board::bit(pl.origin);
                }
            }
            let cells = q
                .cells
                .iter()
                .map(|&(dx, dy, r)| (dx + board::WIDTH * dy, r))
                .collect();
            Shape {
                origins,
                cells,
                by_origin,
            }
        })
        .collect()
}
