//! How far a player's pieces are from each card's pattern, for every placement at once, with bitboards.
//!
//! The *cost* of a placement is a rough count of the actions its pattern still needs: 1 for each empty cell
//! wanting a common piece, 2 for a common of yours where a heroic one must stand (an upgrade), 3 for an
//! empty cell wanting a heroic piece or an enemy piece in the way, 4 (the cap, "far") for worse. The costs
//! of all origins of one orientation are added as bit planes: bit `o` of a plane belongs to the origin `o`,
//! and a pattern cell at offset `k` from the origin is read by shifting the arena's bitboards by `k`.

use crate::board::{Bits, ARENA, WIDTH};
use crate::cards::Being;
use crate::patterns::Shape;

pub const FAR: usize = 4;
const COMMON: u8 = 0;
const HEROIC: u8 = 1;

/// The largest pattern offset: bitboards are kept shifted up by it.
const MARGIN: i32 = 4 * WIDTH + 4;

/// Costs of every origin as bit planes (b0, b1, far): cost = b0 + 2*b1, or FAR where `far`.
type Planes = (Bits, Bits, Bits);

/// The planes of the sum of two costs (FAR from 4 on).
#[inline(always)]
fn add((b0, b1, far): Planes, (c0, c1, c_far): Planes) -> Planes {
    let far = far | c_far | c1 & b1 | b0 & c0 & (b1 ^ c1);
    let c1 = c1 ^ b0 & c0;
    (b0 ^ c0, b1 ^ c1, far)
}

/// The origins of cost at most 0, 1, 2 and 3 (not far) in the planes `b0`, `b1`.
fn at_most(b0: Bits, b1: Bits) -> [Bits; FAR] {
    [!b0 & !b1, !b1, !(b0 & b1), !0]
}

/// Origin `o`'s bit moved to square `o + off`.
fn shifted(origins: Bits, off: i32) -> Bits {
    if off >= 0 {
        origins << off as u32
    } else {
        origins >> (-off) as u32
    }
}

/// The lowest cost a card can reach when one square of the arena changes for the better and the others
/// do not (`Position::cost_floor`): the lower bound behind `ReadinessFloor`.
pub struct CostFloor {
    /// The card's lowest cost now, with the unblocked origins allowed.
    base: usize,
    /// within[t]: the squares whose cell, at no cost, brings some placement to a cost of `t` or less.
    within: [Bits; FAR],
}

impl CostFloor {
    /// The lowest cost the card can have once `square` is at its best for it.
    pub fn at(&self, square: u8) -> usize {
        (0..self.base)
            .find(|&t| self.within[t] >> square & 1 != 0)
            .unwrap_or(self.base)
    }
}

/// One player's view of the arena for pattern costs.
pub struct Position {
    empty: Bits,
    /// above[r]: squares holding a piece of a rank above r, where a being of rank r cannot be summoned.
    above: [Bits; 3],
    /// empty, enemy, common, heroic, legendary, shifted up by MARGIN.
    raised: [Bits; 5],
    /// The player's pieces of any rank, and upgraded, shifted up by MARGIN (the cheap checks for costs 0
    /// and 1).
    own: [Bits; 2],
}

impl Position {
    pub fn new(mine: &[Bits; 3], theirs: &[Bits; 3]) -> Position {
        let (common, heroic, legendary) = (mine[0], mine[1], mine[2]);
        let enemy = theirs[0] | theirs[1] | theirs[2];
        let empty = ARENA & !(enemy | common | heroic | legendary);
        Position {
            empty,
            above: [
                heroic | legendary | theirs[1] | theirs[2],
                legendary | theirs[2],
                0,
            ],
            raised: [
                empty << MARGIN,
                enemy << MARGIN,
                common << MARGIN,
                heroic << MARGIN,
                legendary << MARGIN,
            ],
            own: [
                (common | heroic | legendary) << MARGIN,
                (heroic | legendary) << MARGIN,
            ],
        }
    }

    /// Bit planes (b0, b1, far) of the cost of every origin: cost = b0 + 2*b1, or FAR where `far`.
    fn cost_planes(&self, shape: &Shape) -> Planes {
        shape.cells.iter().fold((0, 0, 0), |sum, &(off, rank)| {
            add(sum, self.cell_planes(off, rank))
        })
    }

    /// The planes of one cell's cost for every origin: 0 to 3, or far.
    #[inline(always)]
    fn cell_planes(&self, off: i32, rank: u8) -> Planes {
        let [em, en, co, he, le] = self.raised;
        let sh = (off + MARGIN) as u32;
        if rank == COMMON {
            let c1 = en >> sh;
            (em >> sh | c1, c1, 0)
        } else if rank == HEROIC {
            let c0 = em >> sh;
            (c0, co >> sh | c0, en >> sh)
        } else {
            let h = he >> sh;
            (0, h, !(le >> sh | h))
        }
    }

    /// The origins where every cell of `shape` is met at no cost (`a`), and those where exactly one
    /// costs 1 (an empty cell wanting a common piece) and the others none (`b`): the cheap test for a
    /// cost below 2, where the full planes are not needed.
    fn low_planes(&self, shape: &Shape) -> (Bits, Bits) {
        let [any, upgraded] = self.own;
        let (em, le) = (self.raised[0], self.raised[4]);
        let (mut a, mut b) = (!0, 0);
        for &(off, rank) in shape.cells.iter() {
            let sh = (off + MARGIN) as u32;
            let (zero, one) = if rank == COMMON {
                (any >> sh, em >> sh)
            } else if rank == HEROIC {
                (upgraded >> sh, 0)
            } else {
                (le >> sh, 0)
            };
            b = b & zero | a & one;
            a &= zero;
        }
        (a, b)
    }

    /// The lowest cost over every placement of `card` whose summoning square it may use. Once a
    /// cost of 1 or 2 is found, the other orientations are only checked for a lower one.
    pub fn best_cost(&self, card: &Being) -> usize {
        let mut best = FAR;
        let blocked = self.above[card.rank as usize];
        for shape in card.shapes.iter() {
            let allowed = shape.origins & !blocked;
            if allowed == 0 {
                continue;
            }
            if best <= 2 {
                let (a, b) = self.low_planes(shape);
                if a & allowed != 0 {
                    return 0;
                }
                if b & allowed != 0 {
                    best = 1;
                }
                continue;
            }
            let (b0, b1, far) = self.cost_planes(shape);
            let ok = allowed & !far;
            if ok == 0 {
                continue;
            }
            if ok & !b0 & !b1 != 0 {
                return 0;
            }
            if ok & b0 & !b1 != 0 {
                best = 1;
            } else if best > 2 && ok & !b0 & b1 != 0 {
                best = 2;
            } else if best > 3 && ok & b0 & b1 != 0 {
                best = 3;
            }
        }
        best
    }

    /// How low `card`'s cost can go when one square changes for the better for you and no other does:
    /// its cell then costs nothing at best, the placement's other cells as they are, and the origins in
    /// `unblocked` may be used (where a piece that blocks them could leave).
    pub fn cost_floor(&self, card: &Being, unblocked: Bits) -> CostFloor {
        let blocked = self.above[card.rank as usize] & !unblocked;
        let mut floor = CostFloor {
            base: FAR,
            within: [0; FAR],
        };
        for shape in card.shapes.iter() {
            let allowed = shape.origins & !blocked;
            if floor.base == 0 {
                break;
            }
            if allowed == 0 {
                continue;
            }
            // after[j]: the sum of the cells after the j-th (on the stack for patterns of usual size)
            let n = shape.cells.len();
            let (mut small, mut large);
            let after: &mut [Planes] = if n < 16 {
                small = [(0, 0, 0); 16];
                &mut small[..=n]
            } else {
                large = vec![(0, 0, 0); n + 1];
                &mut large
            };
            for (j, &(off, rank)) in shape.cells.iter().enumerate().rev() {
                after[j] = add(after[j + 1], self.cell_planes(off, rank));
            }
            let (b0, b1, far) = after[0];
            let ok = allowed & !far;
            if let Some(t) = at_most(b0, b1).iter().position(|&at| ok & at != 0) {
                floor.base = floor.base.min(t);
            }
            let mut before = (0, 0, 0);
            for (j, &(off, rank)) in shape.cells.iter().enumerate() {
                let (b0, b1, far) = add(before, after[j + 1]);
                let ok = allowed & !far;
                for (within, at) in floor.within.iter_mut().zip(at_most(b0, b1)) {
                    *within |= shifted(ok & at, off);
                }
                before = add(before, self.cell_planes(off, rank));
            }
        }
        floor
    }

    /// Empty squares where a common piece of yours lowers some placement of cost `cost` (1..3) by filling a
    /// cell that wants a common piece (the squares `Readiness::field` rewards).
    pub fn improving_squares(&self, card: &Being, cost: usize) -> Bits {
        self.squares_lowering(card, cost, false)
    }

    /// Every empty square where a common piece of yours lowers some placement of cost `cost` (1..3): a cell
    /// wanting a common piece (1 to 0) or a heroic one (3 to 2). A common piece lowers a placement by 1 at
    /// most, so elsewhere the card's cost stays `cost` (the bound of `ReadinessBound`).
    pub fn lowering_squares(&self, card: &Being, cost: usize) -> Bits {
        self.squares_lowering(card, cost, true)
    }

    fn squares_lowering(&self, card: &Being, cost: usize, heroic_cells: bool) -> Bits {
        if cost == 0 || cost >= FAR {
            return 0;
        }
        let (want0, want1) = (cost & 1 != 0, cost >> 1 & 1 != 0);
        let blocked = self.above[card.rank as usize];
        let mut out: Bits = 0;
        for shape in card.shapes.iter() {
            let (b0, b1, far) = self.cost_planes(shape);
            let at = shape.origins
                & !blocked
                & !far
                & (if want0 { b0 } else { !b0 })
                & (if want1 { b1 } else { !b1 });
            if at == 0 {
                continue;
            }
            for &(off, rank) in shape.cells.iter() {
                if rank != COMMON && !(heroic_cells && rank == HEROIC) {
                    continue;
                }
                out |= shifted(at & self.raised[0] >> (off + MARGIN) as u32, off);
            }
        }
        out & self.empty
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bits;
    use crate::cards::CardSet;
    use crate::rng::PyRandom;

    /// The cost of one placement, cell by cell (the definition the bit planes compute).
    fn placement_cost(mine: &[Bits; 3], theirs: &[Bits; 3], shape: &Shape, origin: u8) -> usize {
        let enemy = theirs[0] | theirs[1] | theirs[2];
        let mut cost = 0;
        for &(off, rank) in shape.cells.iter() {
            let at = 1u128 << (origin as i32 + off);
            let own = (0..3).find(|&r| mine[r] & at != 0).map(|r| r as u8);
            cost += match (rank, own) {
                (_, Some(r)) if r >= rank => 0,
                (COMMON, None) if enemy & at == 0 => 1,
                (COMMON, None) => 3,
                (HEROIC, Some(_)) => 2,
                (HEROIC, None) if enemy & at == 0 => 3,
                (_, Some(HEROIC)) => 2,
                _ => FAR,
            };
        }
        cost.min(FAR)
    }

    fn cards() -> CardSet {
        CardSet::from_json(include_str!("../../tests/data/cards.json")).expect("card set")
    }

    /// `n` random arenas (yours, theirs), from sparse to 40% of the squares taken.
    fn random_arenas(seed: u64, n: usize) -> Vec<([Bits; 3], [Bits; 3])> {
        let mut rng = PyRandom::new(seed);
        let squares: Vec<u8> = bits(ARENA).collect();
        (0..n)
            .map(|_| {
                let (mut mine, mut theirs) = ([0 as Bits; 3], [0 as Bits; 3]);
                let density = rng.randrange(40);
                for &sq in squares.iter() {
                    let r = rng.randrange(100);
                    if r < density {
                        let piece = rng.randrange(6);
                        let side = if piece < 3 { &mut mine } else { &mut theirs };
                        side[piece % 3] |= 1u128 << sq;
                    }
                }
                (mine, theirs)
            })
            .collect()
    }

    #[test]
    fn best_cost_is_the_cheapest_placement_on_random_arenas() {
        let cards = cards();
        let mut seen = [0usize; FAR + 1];
        for (mine, theirs) in random_arenas(25, 300) {
            let pos = Position::new(&mine, &theirs);
            for card in cards.beings.iter() {
                let blocked = pos.above[card.rank as usize];
                let expected = card
                    .shapes
                    .iter()
                    .flat_map(|shape| {
                        bits(shape.origins & !blocked)
                            .map(|o| placement_cost(&mine, &theirs, shape, o))
                            .collect::<Vec<_>>()
                    })
                    .min()
                    .unwrap_or(FAR);
                assert_eq!(pos.best_cost(card), expected, "{}", card.id);
                seen[expected] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n > 50), "every cost seen: {seen:?}");
    }

    /// A card's cost never falls below its `cost_floor` at the one square a change improves, whatever
    /// the change there (a piece of yours of any rank arriving, capturing or not; an enemy piece leaving)
    /// and whatever worse change comes with it (the moved piece's old square emptied, an enemy piece
    /// arriving elsewhere), the squares that change unblocked; and the floor is often the cost itself.
    #[test]
    fn the_cost_floor_bounds_every_change_for_the_better_of_one_square() {
        let cards = cards();
        let mut rng = PyRandom::new(28);
        let (mut checked, mut tight) = (0, 0);
        for (mine, theirs) in random_arenas(27, 60) {
            let pos = Position::new(&mine, &theirs);
            let mine_any = mine[0] | mine[1] | mine[2];
            let theirs_any = theirs[0] | theirs[1] | theirs[2];
            let squares: Vec<u8> = bits(ARENA).collect();
            for _ in 0..12 {
                let better = squares[rng.randrange(squares.len())];
                let other = squares[rng.randrange(squares.len())];
                let (bit, other_bit) = (1u128 << better, 1u128 << other);
                let unblocked = bit | other_bit;
                let (mut m, mut t) = (mine, theirs);
                if mine_any & other_bit != 0 && other != better && mine_any & bit == 0 {
                    // a piece of yours moves from `other` to `better`, capturing or not
                    let rank = (0..3).find(|&r| mine[r] & other_bit != 0).unwrap();
                    m[rank] &= !other_bit;
                    t = t.map(|b| b & !bit);
                    m[rank] |= bit;
                } else if theirs_any & bit != 0
                    && other != better
                    && (mine_any | theirs_any) & other_bit == 0
                {
                    // an enemy piece moves off `better` to the empty `other`
                    let rank = (0..3).find(|&r| theirs[r] & bit != 0).unwrap();
                    t[rank] = t[rank] & !bit | other_bit;
                } else {
                    // a piece of yours of any rank on `better`, whatever was there
                    let rank = rng.randrange(3);
                    m = m.map(|b| b & !bit);
                    t = t.map(|b| b & !bit);
                    m[rank] |= bit;
                }
                let after = Position::new(&m, &t);
                for card in cards.beings.iter() {
                    let floor = pos.cost_floor(card, unblocked).at(better);
                    let (now, cost) = (after.best_cost(card), pos.best_cost(card));
                    assert!(floor <= now, "{}: floor {floor}, cost {now}", card.id);
                    assert!(floor <= cost, "{}: floor {floor} above {cost}", card.id);
                    checked += 1;
                    tight += (floor == cost) as usize;
                }
            }
        }
        assert!(
            tight * 3 > checked,
            "floors at the cost itself: {tight} of {checked}"
        );
    }

    /// `lowering_squares` are exactly the empty squares where a common piece of yours lowers the card's
    /// cost (by 1, never more), and they include `improving_squares`; taking a common piece of yours off
    /// never lowers it (what `ReadinessBound` rests on).
    #[test]
    fn lowering_squares_are_where_a_common_piece_lowers_the_cost() {
        let cards = cards();
        let mut lowered = 0;
        for (mine, theirs) in random_arenas(26, 120) {
            let pos = Position::new(&mine, &theirs);
            for card in cards.beings.iter() {
                let cost = pos.best_cost(card);
                let mut expected: Bits = 0;
                for sq in bits(pos.empty) {
                    let with = [mine[0] | 1u128 << sq, mine[1], mine[2]];
                    let now = Position::new(&with, &theirs).best_cost(card);
                    assert!(now + 1 >= cost, "{}: {cost} to {now}", card.id);
                    if now < cost {
                        expected |= 1u128 << sq;
                    }
                }
                for sq in bits(mine[0]) {
                    let without = [mine[0] & !(1u128 << sq), mine[1], mine[2]];
                    let now = Position::new(&without, &theirs).best_cost(card);
                    assert!(
                        now >= cost,
                        "{}: removing a common lowered {cost} to {now}",
                        card.id
                    );
                }
                if cost == 0 || cost == FAR {
                    continue;
                }
                let squares = pos.lowering_squares(card, cost);
                assert_eq!(squares, expected, "{} at cost {cost}", card.id);
                assert_eq!(
                    pos.improving_squares(card, cost) & !squares,
                    0,
                    "{}",
                    card.id
                );
                lowered += squares.count_ones();
            }
        }
        assert!(lowered > 1000, "squares that lower a cost: {lowered}");
    }
}
