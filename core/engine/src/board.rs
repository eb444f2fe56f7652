//! The arena as `u128` bitboards (sim/board.py): square = (y-1)*9 + (x-1), 69 of the 81 indices on the arena.

pub type Bits = u128;
pub type Square = u8;

pub const WIDTH: i32 = 9;

/// Directions clockwise from north: N, NE, E, SE, S, SW, W, NW (orthogonal ones have an even index).
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];
pub const ORTHOGONAL_DIRECTIONS: [u8; 4] = [0, 2, 4, 6];
pub const DIAGONAL_DIRECTIONS: [u8; 4] = [1, 3, 5, 7];

const CUT: [(i32, i32); 12] = [
    (1, 1),
    (2, 1),
    (1, 2),
    (8, 1),
    (9, 1),
    (9, 2),
    (1, 8),
    (1, 9),
    (2, 9),
    (9, 8),
    (8, 9),
    (9, 9),
];

pub const fn square(x: i32, y: i32) -> Square {
    ((y - 1) * WIDTH + (x - 1)) as Square
}

pub const fn coords(sq: Square) -> (i32, i32) {
    (sq as i32 % WIDTH + 1, sq as i32 / WIDTH + 1)
}

pub const fn on_arena(x: i32, y: i32) -> bool {
    if x < 1 || x > WIDTH || y < 1 || y > WIDTH {
        return false;
    }
    let mut i = 0;
    while i < CUT.len() {
        if CUT[i].0 == x && CUT[i].1 == y {
            return false;
        }
        i += 1;
    }
    true
}

/// The square `(dx, dy)` away from `sq`, or None when that is off the arena.
pub const fn offset(sq: Square, dx: i32, dy: i32) -> Option<Square> {
    let (x, y) = coords(sq);
    if on_arena(x + dx, y + dy) {
        Some(square(x + dx, y + dy))
    } else {
        None
    }
}

/// The squares of a mask, lowest first.
#[derive(Clone, Copy)]
pub struct BitIter(pub Bits);

impl Iterator for BitIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as Square;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

#[inline]
pub fn bits(mask: Bits) -> BitIter {
    BitIter(mask)
}

#[inline]
pub const fn bit(sq: Square) -> Bits {
    1u128 << sq
}

#[inline]
pub fn popcount(mask: Bits) -> u32 {
    mask.count_ones()
}

pub fn mask_of(squares: impl IntoIterator<Item = Square>) -> Bits {
    squares.into_iter().fold(0, |m, sq| m | bit(sq))
}

const fn mask_xy(cells: &[(i32, i32)]) -> Bits {
    let mut m = 0;
    let mut i = 0;
    while i < cells.len() {
        m |= bit(square(cells[i].0, cells[i].1));
        i += 1;
    }
    m
}

const fn arena() -> Bits {
    let mut m = 0;
    let mut y = 1;
    while y <= 9 {
        let mut x = 1;
        while x <= 9 {
            if on_arena(x, y) {
                m |= bit(square(x, y));
            }
            x += 1;
        }
        y += 1;
    }
    m
}

pub const ARENA: Bits = arena();
pub const RED: Bits = mask_xy(&[(3, 8), (4, 2), (5, 5), (8, 6)]);
pub const GREEN: Bits = mask_xy(&[(1, 5), (3, 3), (6, 8), (7, 3), (9, 4)]);
pub const CENTRAL_NINE: Bits = mask_xy(&[
    (4, 4),
    (4, 5),
    (4, 6),
    (5, 4),
    (5, 5),
    (5, 6),
    (6, 4),
    (6, 5),
    (6, 6),
]);
pub const CENTER_PLUS: Bits = mask_xy(&[(5, 4), (5, 5), (5, 6), (4, 5), (6, 5)]);
pub const CENTER_X: Bits = mask_xy(&[(4, 4), (5, 5), (6, 6), (4, 6), (6, 4)]);

const fn row(r: i32) -> Bits {
    let mut m = 0;
    let mut x = 1;
    while x <= 9 {
        if on_arena(x, r) {
            m |= bit(square(x, r));
        }
        x += 1;
    }
    m
}

const fn column(c: i32) -> Bits {
    let mut m = 0;
    let mut y = 1;
    while y <= 9 {
        if on_arena(c, y) {
            m |= bit(square(c, y));
        }
        y += 1;
    }
    m
}

/// Rows 4, 5, 6 then columns 4, 5, 6.
pub const CENTER_LINES: [Bits; 6] = [row(4), row(5), row(6), column(4), column(5), column(6)];
pub const LONG_DIAGONALS: [Bits; 2] = [
    mask_xy(&[(2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8)]),
    mask_xy(&[(2, 8), (3, 7), (4, 6), (5, 5), (6, 4), (7, 3), (8, 2)]),
];
pub const SIDE_LEFT: Bits = mask_xy(&[(1, 3), (1, 4), (1, 5), (1, 6), (1, 7)]);
pub const SIDE_RIGHT: Bits = mask_xy(&[(9, 3), (9, 4), (9, 5), (9, 6), (9, 7)]);
pub const SIDE_TOP: Bits = mask_xy(&[(3, 1), (4, 1), (5, 1), (6, 1), (7, 1)]);
pub const SIDE_BOTTOM: Bits = mask_xy(&[(3, 9), (4, 9), (5, 9), (6, 9), (7, 9)]);
pub const CORNER_NW: Bits = mask_xy(&[(1, 3), (2, 2), (3, 1)]);
pub const CORNER_NE: Bits = mask_xy(&[(7, 1), (8, 2), (9, 3)]);
pub const CORNER_SW: Bits = mask_xy(&[(1, 7), (2, 8), (3, 9)]);
pub const CORNER_SE: Bits = mask_xy(&[(7, 9), (8, 8), (9, 7)]);
pub const DEATHMATCH_START: [Square; 2] = [square(3, 5), square(7, 5)];
/// The Deathmatch melee's starting squares: one pair beside each of the three melee symbols, one piece
/// per pair (the pairs of Board Game Arena's implementation; docs/rules-decisions.md).
pub const MELEE_START: [[Square; 2]; 3] = [
    [square(6, 2), square(7, 2)],
    [square(7, 6), square(7, 7)],
    [square(2, 7), square(3, 7)],
];

const fn neighbours(dirs: &[u8]) -> [Bits; 81] {
    let mut out = [0; 81];
    let mut s = 0;
    while s < 81 {
        if ARENA >> s & 1 != 0 {
            let mut i = 0;
            while i < dirs.len() {
                let (dx, dy) = DIRECTIONS[dirs[i] as usize];
                if let Some(n) = offset(s as Square, dx, dy) {
                    out[s] |= bit(n);
                }
                i += 1;
            }
        }
        s += 1;
    }
    out
}

pub static ADJACENT: [Bits; 81] = neighbours(&[0, 1, 2, 3, 4, 5, 6, 7]);
pub static ORTHOGONAL: [Bits; 81] = neighbours(&ORTHOGONAL_DIRECTIONS);
pub static DIAGONAL: [Bits; 81] = neighbours(&DIAGONAL_DIRECTIONS);

/// The squares met going from a square in a direction, nearest first (the square itself excluded).
#[derive(Clone, Copy)]
pub struct Ray {
    squares: [Square; 8],
    len: u8,
}

impl Ray {
    #[inline]
    pub fn as_slice(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }
}

const fn rays() -> [[Ray; 8]; 81] {
    let mut out = [[Ray {
        squares: [0; 8],
        len: 0,
    }; 8]; 81];
    let mut s = 0;
    while s < 81 {
        if ARENA >> s & 1 != 0 {
            let mut d = 0;
            while d < 8 {
                let (dx, dy) = DIRECTIONS[d];
                let mut cur = s as Square;
                while let Some(n) = offset(cur, dx, dy) {
                    let r = &mut out[s][d];
                    r.squares[r.len as usize] = n;
                    r.len += 1;
                    cur = n;
                }
                d += 1;
            }
        }
        s += 1;
    }
    out
}

static RAY_TABLE: [[Ray; 8]; 81] = rays();

/// RAYS[sq][d] of sim/board.py.
#[inline]
pub fn ray(sq: Square, d: u8) -> &'static [Square] {
    RAY_TABLE[sq as usize][d as usize].as_slice()
}

/// King-move distance between two squares.
pub const fn distance(a: Square, b: Square) -> i32 {
    let (ax, ay) = (a as i32 % WIDTH, a as i32 / WIDTH);
    let (bx, by) = (b as i32 % WIDTH, b as i32 / WIDTH);
    let dx = if ax > bx { ax - bx } else { bx - ax };
    let dy = if ay > by { ay - by } else { by - ay };
    if dx > dy {
        dx
    } else {
        dy
    }
}

const fn within_table() -> [[Bits; 81]; 5] {
    let mut out = [[0; 81]; 5];
    let mut n = 0;
    while n < 5 {
        let mut s = 0;
        while s < 81 {
            if ARENA >> s & 1 != 0 {
                let mut t = 0;
                while t < 81 {
                    if ARENA >> t & 1 != 0
                        && t != s
                        && distance(s as Square, t as Square) <= n as i32
                    {
                        out[n][s] |= bit(t as Square);
                    }
                    t += 1;
                }
            }
            s += 1;
        }
        n += 1;
    }
    out
}

/// WITHIN[n][sq]: squares at distance 1..n from sq, for n up to 4.
pub static WITHIN: [[Bits; 81]; 5] = within_table();

/// The direction index of the step from `a` to an adjacent square `b`.
pub fn direction_between(a: Square, b: Square) -> Option<u8> {
    let (ax, ay) = coords(a);
    let (bx, by) = coords(b);
    DIRECTIONS
        .iter()
        .position(|&d| d == (bx - ax, by - ay))
        .map(|i| i as u8)
}

/// The squares of the arena, lowest first.
pub fn squares() -> BitIter {
    bits(ARENA)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square named twice is still in the set once.
    #[test]
    fn mask_of_is_the_set_of_the_squares_named() {
        let (a, b) = (square(4, 4), square(0, 4));
        assert_eq!(mask_of([a, b, a]), bit(a) | bit(b));
        assert_eq!(mask_of([]), 0);
    }

    #[test]
    fn tables_match_python() {
        assert_eq!(ARENA.count_ones(), 69);
        assert_eq!(ADJACENT.iter().map(|m| m.count_ones()).sum::<u32>(), 464);
        assert_eq!(WITHIN[2].iter().map(|m| m.count_ones()).sum::<u32>(), 1224);
        assert_eq!(
            ray(square(5, 5), 0),
            &[square(5, 4), square(5, 3), square(5, 2), square(5, 1)]
        );
    }
}
