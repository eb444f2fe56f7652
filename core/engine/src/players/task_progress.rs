//! How close a player is to each High Form task (0..1), and the squares that help with it.
//! Each measure reaches 1 exactly when the task's condition holds.

use super::geometry::around;
use crate::board::{
    bits, Bits, ADJACENT, CENTER_LINES, CENTER_PLUS, CENTER_X, CENTRAL_NINE, GREEN, LONG_DIAGONALS,
    RED, WIDTH, WITHIN,
};
use crate::board::{CORNER_NE, CORNER_NW, CORNER_SE, CORNER_SW};
use crate::state::GameState;
use crate::tasks::connected;

const LEGENDARY: u8 = 2;

/// The task conditions, each with its progress measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    Destroyed3,
    Destroyed4,
    Destroyed3OneUpgraded,
    Destroyed4TwoUpgraded,
    DestroyedLegendOr2Heroic,
    Red3TwoUpgraded,
    Green3TwoUpgraded,
    Colored5ThreeUpgraded,
    Red2UpgradedOneLegend,
    Green2UpgradedOneLegend,
    Central5TwoUpgraded,
    MoreUpgradedOnRedAndGreen,
    Summoned2OneOnRed,
    Summoned2OneOnGreen,
    Summoned2OnColored,
    Summoned2OneLegendary,
    CenterPlusOrX,
    Line6More,
    Diagonals4EachOneUpgraded,
    ChainOppositeSides,
    ChainOppositeCorners,
    Surround6,
    Surround7,
    IsolatedEnemy,
}

impl Measure {
    /// The measure of the condition called `name` in the task file.
    pub fn from_name(name: &str) -> Option<Measure> {
        use Measure as M;
        Some(match name {
            "destroyed_3" => M::Destroyed3,
            "destroyed_4" => M::Destroyed4,
            "destroyed_3_one_upgraded" => M::Destroyed3OneUpgraded,
            "destroyed_4_two_upgraded" => M::Destroyed4TwoUpgraded,
            "destroyed_legend_or_2_heroic" => M::DestroyedLegendOr2Heroic,
            "red_3_two_upgraded" => M::Red3TwoUpgraded,
            "green_3_two_upgraded" => M::Green3TwoUpgraded,
            "colored_5_three_upgraded" => M::Colored5ThreeUpgraded,
            "red_2_upgraded_one_legend" => M::Red2UpgradedOneLegend,
            "green_2_upgraded_one_legend" => M::Green2UpgradedOneLegend,
            "central_5_two_upgraded" => M::Central5TwoUpgraded,
            "more_upgraded_on_red_and_green" => M::MoreUpgradedOnRedAndGreen,
            "summoned_2_one_on_red" => M::Summoned2OneOnRed,
            "summoned_2_one_on_green" => M::Summoned2OneOnGreen,
            "summoned_2_on_colored" => M::Summoned2OnColored,
            "summoned_2_one_legendary" => M::Summoned2OneLegendary,
            "center_plus_or_x" => M::CenterPlusOrX,
            "line_6_more" => M::Line6More,
            "diagonals_4_each_one_upgraded" => M::Diagonals4EachOneUpgraded,
            "chain_opposite_sides" => M::ChainOppositeSides,
            "chain_opposite_corners" => M::ChainOppositeCorners,
            "surround_6" => M::Surround6,
            "surround_7" => M::Surround7,
            "isolated_enemy" => M::IsolatedEnemy,
            _ => return None,
        })
    }
}

impl Measure {
    /// Whether the measure reads nothing but the player's own pieces (not the opponent's, nor this
    /// turn's destruction and summons).
    pub fn reads_own_pieces_only(self) -> bool {
        use Measure as M;
        matches!(
            self,
            M::Red3TwoUpgraded
                | M::Green3TwoUpgraded
                | M::Colored5ThreeUpgraded
                | M::Red2UpgradedOneLegend
                | M::Green2UpgradedOneLegend
                | M::Central5TwoUpgraded
                | M::Diagonals4EachOneUpgraded
                | M::ChainOppositeSides
                | M::ChainOppositeCorners
        )
    }
}

fn part(have: u32, need: u32) -> f64 {
    have.min(need) as f64 / need as f64
}

/// (pieces, upgraded, legendary) of `p` on `squares`.
fn on(s: &GameState, p: usize, squares: Bits) -> (u32, u32, u32) {
    let bb = &s.pieces[p];
    (
        ((bb[0] | bb[1] | bb[2]) & squares).count_ones(),
        ((bb[1] | bb[2]) & squares).count_ones(),
        (bb[2] & squares).count_ones(),
    )
}

fn turn_destroyed(s: &GameState, p: usize) -> (u32, u32, u32) {
    if s.active != p {
        return (0, 0, 0);
    }
    let [c, h, leg] = s.counters.destroyed;
    ((c + h + leg) as u32, (h + leg) as u32, leg as u32)
}

fn turn_summoned(s: &GameState, p: usize, squares: Bits) -> (u32, u32, bool) {
    if s.active != p {
        return (0, 0, false);
    }
    let summoned = &s.counters.summoned;
    (
        summoned.len() as u32,
        summoned
            .iter()
            .filter(|&&(sq, _)| squares >> sq & 1 == 1)
            .count() as u32,
        summoned.iter().any(|&(_, r)| r == LEGENDARY),
    )
}

fn destroyed(s: &GameState, p: usize, need: u32, need_up: u32) -> f64 {
    let (n, up, _) = turn_destroyed(s, p);
    if need_up != 0 {
        0.7 * part(n, need) + 0.3 * part(up, need_up)
    } else {
        part(n, need)
    }
}

fn end_of_legends(s: &GameState, p: usize) -> f64 {
    if s.active != p {
        return 0.0;
    }
    let [_, h, leg] = s.counters.destroyed;
    let a = if leg >= 1 { 1.0 } else { 0.0 };
    py_max(a, part((h + leg) as u32, 2))
}

fn colored(s: &GameState, p: usize, squares: Bits, need: u32, need_up: u32, need_leg: u32) -> f64 {
    let (n, up, leg) = on(s, p, squares);
    if need_leg != 0 {
        (part(n, need) + part(up, need_up) + part(leg, need_leg)) / 3.0
    } else {
        (part(n, need) + part(up, need_up)) / 2.0
    }
}

fn rainbow(s: &GameState, p: usize) -> f64 {
    let mut v = 0.0;
    for colour in [RED, GREEN] {
        if on(s, p, colour).1 > on(s, 1 - p, colour).1 {
            v += 0.5;
        }
    }
    v
}

fn summoning(
    s: &GameState,
    p: usize,
    need: u32,
    squares: Bits,
    need_on: u32,
    legendary: bool,
) -> f64 {
    let (n, on_squares, leg) = turn_summoned(s, p, squares);
    let second = if legendary {
        if leg {
            1.0
        } else {
            0.0
        }
    } else {
        part(on_squares, need_on)
    };
    0.5 * part(n, need) + 0.5 * second
}

fn cross(s: &GameState, p: usize) -> f64 {
    let (mine, theirs) = (s.mine(p), s.mine(1 - p));
    let measure =
        |m: Bits| part((mine & m).count_ones(), 5) * if theirs & m != 0 { 0.5 } else { 1.0 };
    py_max(measure(CENTER_PLUS), measure(CENTER_X))
}

fn line(s: &GameState, p: usize) -> f64 {
    let (mine, theirs) = (s.mine(p), s.mine(1 - p));
    let mut best = f64::NEG_INFINITY;
    for m in CENTER_LINES {
        let diff = (mine & m).count_ones() as i32 - (theirs & m).count_ones() as i32;
        best = py_max(best, part(diff.max(0) as u32, 6));
    }
    best
}

fn diagonals(s: &GameState, p: usize) -> f64 {
    let mut v = 0.0;
    for d in LONG_DIAGONALS {
        let (n, up, _) = on(s, p, d);
        v += 0.4 * part(n, 4) + 0.1 * part(up, 1);
    }
    v
}

const ROW: Bits = (1 << WIDTH) - 1;

fn bit_length(x: Bits) -> u32 {
    128 - x.leading_zeros()
}

/// The distance from the lowest to the highest set bit of a mask of rows or columns, plus one.
fn extent(lines: Bits) -> u32 {
    if lines == 0 {
        0
    } else {
        bit_length(lines) - bit_length(lines & lines.wrapping_neg()) + 1
    }
}

/// The widest extent in columns and in rows of a group of adjacent pieces (8-neighbourhood).
fn spans(pieces: Bits) -> (u32, u32) {
    let (mut wide, mut tall) = (0, 0);
    let mut rest = pieces;
    // a group spans no more columns or rows than it has pieces: once the pieces left are no more than
    // the narrower extent found, no group of them widens either
    while rest.count_ones() > wide.min(tall) {
        let mut group = rest & rest.wrapping_neg();
        loop {
            let grown = around(group) & rest;
            if grown == group {
                break;
            }
            group = grown;
        }
        rest &= !group;
        // the group's nine rows folded onto the first: the columns it takes
        let w = WIDTH as u32;
        let two = group | group >> w;
        let four = two | two >> (2 * w);
        let eight = four | four >> (4 * w);
        let cols = (eight | group >> (8 * w)) & ROW;
        let rows = (bit_length(group) - 1) / w - group.trailing_zeros() / w + 1;
        wide = wide.max(extent(cols));
        tall = tall.max(rows);
    }
    (wide, tall)
}

fn side_chain(s: &GameState, p: usize) -> f64 {
    let (wide, tall) = spans(s.mine(p));
    part(wide.max(tall), 9)
}

fn corner_chain(s: &GameState, p: usize) -> f64 {
    let (wide, tall) = spans(s.mine(p));
    if wide.min(tall) >= 5 && corners_linked(s.mine(p)) {
        return 1.0;
    }
    0.8 * part(wide.min(tall), 7)
}

/// The corner-chain condition (sim/tasks.py `corner_chain`).
fn corners_linked(mine: Bits) -> bool {
    connected(mine, CORNER_NW, CORNER_SE) || connected(mine, CORNER_NE, CORNER_SW)
}

fn surround(s: &GameState, p: usize, need: u32) -> f64 {
    let mine = s.mine(p);
    let most = bits(s.mine(1 - p))
        .map(|sq| (ADJACENT[sq as usize] & mine).count_ones())
        .max()
        .unwrap_or(0);
    part(most, need)
}

/// Exact, as the isolation condition (1 or 0), with bitboard steps.
fn isolation(s: &GameState, p: usize) -> f64 {
    let enemy = s.mine(1 - p);
    let empty = s.empty();
    for sq in bits(enemy) {
        let others = enemy & !(1 << sq);
        if WITHIN[2][sq as usize] & others == 0 {
            continue;
        }
        let near_others = around(others);
        let mut reached: Bits = 1 << sq;
        let mut frontier = reached;
        let mut stuck = reached & near_others == 0;
        for _ in 0..3 {
            if !stuck {
                break;
            }
            frontier = around(frontier) & empty & !reached;
            reached |= frontier;
            stuck = frontier & near_others == 0;
        }
        if stuck {
            return 1.0;
        }
    }
    0.0
}

/// Python's `max(a, b)` of two floats: the first unless the second is greater.
fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

fn measure(condition: Measure, s: &GameState, p: usize) -> f64 {
    use Measure as C;
    match condition {
        C::Destroyed3 => destroyed(s, p, 3, 0),
        C::Destroyed4 => destroyed(s, p, 4, 0),
        C::Destroyed3OneUpgraded => destroyed(s, p, 3, 1),
        C::Destroyed4TwoUpgraded => destroyed(s, p, 4, 2),
        C::DestroyedLegendOr2Heroic => end_of_legends(s, p),
        C::Red3TwoUpgraded => colored(s, p, RED, 3, 2, 0),
        C::Green3TwoUpgraded => colored(s, p, GREEN, 3, 2, 0),
        C::Colored5ThreeUpgraded => colored(s, p, RED | GREEN, 5, 3, 0),
        C::Red2UpgradedOneLegend => colored(s, p, RED, 2, 2, 1),
        C::Green2UpgradedOneLegend => colored(s, p, GREEN, 2, 2, 1),
        C::Central5TwoUpgraded => colored(s, p, CENTRAL_NINE, 5, 2, 0),
        C::MoreUpgradedOnRedAndGreen => rainbow(s, p),
        C::Summoned2OneOnRed => summoning(s, p, 2, RED, 1, false),
        C::Summoned2OneOnGreen => summoning(s, p, 2, GREEN, 1, false),
        C::Summoned2OnColored => summoning(s, p, 2, RED | GREEN, 2, false),
        C::Summoned2OneLegendary => summoning(s, p, 2, 0, 0, true),
        C::CenterPlusOrX => cross(s, p),
        C::Line6More => line(s, p),
        C::Diagonals4EachOneUpgraded => diagonals(s, p),
        C::ChainOppositeSides => side_chain(s, p),
        C::ChainOppositeCorners => corner_chain(s, p),
        C::Surround6 => surround(s, p, 6),
        C::Surround7 => surround(s, p, 7),
        C::IsolatedEnemy => isolation(s, p),
    }
}

/// 1 exactly when the condition holds, else an estimate below 1.
pub fn progress(condition: Measure, s: &GameState, p: usize) -> f64 {
    let m = measure(condition, s, p);
    if m >= 1.0 {
        1.0
    } else {
        m.min(0.9)
    }
}

/// Squares where a piece of yours helps with an arena condition (a hint for choosing where to place).
pub fn helpful_squares(condition: Measure, s: &GameState, p: usize) -> Bits {
    use Measure as C;
    match condition {
        C::Red3TwoUpgraded | C::Red2UpgradedOneLegend => RED,
        C::Green3TwoUpgraded | C::Green2UpgradedOneLegend => GREEN,
        C::Colored5ThreeUpgraded | C::MoreUpgradedOnRedAndGreen => RED | GREEN,
        C::Central5TwoUpgraded => CENTRAL_NINE,
        C::CenterPlusOrX => CENTER_PLUS | CENTER_X,
        C::Line6More => best_line(s, p),
        C::Diagonals4EachOneUpgraded => LONG_DIAGONALS[0] | LONG_DIAGONALS[1],
        C::Surround6 | C::Surround7 => {
            let mine = s.mine(p);
            let mut best: Option<(u32, u32)> = None; // (count, square): the first square with the most
            for sq in bits(s.mine(1 - p)) {
                let n = (ADJACENT[sq as usize] & mine).count_ones();
                if best.is_none_or(|(m, _)| n > m) {
                    best = Some((n, sq as u32));
                }
            }
            best.map_or(0, |(_, sq)| ADJACENT[sq as usize])
        }
        C::ChainOppositeSides | C::ChainOppositeCorners => {
            let mut near = 0;
            for sq in bits(s.mine(p)) {
                near |= ADJACENT[sq as usize];
            }
            near
        }
        _ => 0,
    }
}

fn best_line(s: &GameState, p: usize) -> Bits {
    let (mine, theirs) = (s.mine(p), s.mine(1 - p));
    let mut best = CENTER_LINES[0];
    let mut best_key = i32::MIN;
    for m in CENTER_LINES {
        let key = (mine & m).count_ones() as i32 - (theirs & m).count_ones() as i32;
        if key > best_key {
            best = m;
            best_key = key;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::cards::CardSet;
    use crate::rng::PyRandom;
    use crate::state::Mode;
    use std::sync::Arc;

    /// Every measure reaches 1 exactly when its task's condition holds, on random positions (as
    /// tests/test_task_progress.py checks the Python measures).
    #[test]
    fn progress_is_one_exactly_when_the_condition_holds() {
        let text = include_str!("../../tests/data/cards.json");
        let stub: crate::effects::CustomFn = |_, _| false;
        let cards = Arc::new(CardSet::from_json_with(text, &|_| Some(stub)).expect("card set"));
        let mut rng = PyRandom::new(7);
        let squares: Vec<Square> = bits(crate::board::ARENA).collect();
        for round in 0..3000 {
            let mut s = GameState::new(Arc::clone(&cards), Mode::HighForm, [0, 1], round, 200);
            let n = rng.randrange(40);
            for _ in 0..n {
                let sq = squares[rng.randrange(squares.len())];
                if s.occupied() >> sq & 1 == 0 {
                    s.pieces[rng.randrange(2)][rng.randrange(3)] |= 1 << sq;
                }
            }
            s.active = rng.randrange(2);
            s.counters.destroyed = [
                rng.randrange(4) as i32,
                rng.randrange(3) as i32,
                rng.randrange(2) as i32,
            ];
            for _ in 0..rng.randrange(3) {
                let sq = squares[rng.randrange(squares.len())];
                s.counters.summoned.push((sq, rng.randrange(3) as u8));
            }
            for task in cards.tasks.iter() {
                let m =
                    Measure::from_name(task.condition_name).expect("a measure for every condition");
                for p in 0..2 {
                    let holds = (task.condition)(&s, p);
                    let turn_task = matches!(task.category, "destruction" | "summoning");
                    if turn_task && s.active != p {
                        continue; // the measure counts only the active player's turn
                    }
                    assert_eq!(
                        progress(m, &s, p) == 1.0,
                        holds,
                        "{} for player {p} in round {round}",
                        task.id
                    );
                }
            }
        }
    }

    /// `spans` is the widest column and row extent of any 8-connected group, square by square.
    #[test]
    fn spans_are_the_widest_extents_of_a_group() {
        let mut rng = PyRandom::new(8);
        let squares: Vec<Square> = bits(crate::board::ARENA).collect();
        for _ in 0..2000 {
            let mut pieces: Bits = 0;
            for _ in 0..rng.randrange(30) {
                pieces |= 1 << squares[rng.randrange(squares.len())];
            }
            let (mut wide, mut tall) = (0, 0);
            let mut rest = pieces;
            while rest != 0 {
                let mut group = rest & rest.wrapping_neg();
                while around(group) & rest != group {
                    group = around(group) & rest;
                }
                rest &= !group;
                let (xs, ys): (Vec<i32>, Vec<i32>) = bits(group)
                    .map(|sq| (sq as i32 % WIDTH, sq as i32 / WIDTH))
                    .unzip();
                let extent =
                    |v: &[i32]| (v.iter().max().unwrap() - v.iter().min().unwrap() + 1) as u32;
                wide = wide.max(extent(&xs));
                tall = tall.max(extent(&ys));
            }
            assert_eq!(spans(pieces), (wide, tall), "{pieces:#x}");
        }
    }
}
