//! Task conditions (High Form, sim/tasks.py): each says whether a player meets the task now. Destruction
//! and summoning tasks read what the active player did this turn; the others read the arena.

use crate::board::{self, Bits, ADJACENT};
use crate::state::GameState;

pub type Condition = fn(&GameState, usize) -> bool;

/// The names `condition` knows, in its order (card files are checked against them).
pub const CONDITION_NAMES: &[&str] = &[
    "destroyed_3",
    "destroyed_4",
    "destroyed_3_one_upgraded",
    "destroyed_4_two_upgraded",
    "destroyed_legend_or_2_heroic",
    "red_3_two_upgraded",
    "green_3_two_upgraded",
    "colored_5_three_upgraded",
    "red_2_upgraded_one_legend",
    "green_2_upgraded_one_legend",
    "more_upgraded_on_red_and_green",
    "summoned_2_one_on_red",
    "summoned_2_one_on_green",
    "summoned_2_on_colored",
    "summoned_2_one_legendary",
    "central_5_two_upgraded",
    "center_plus_or_x",
    "line_6_more",
    "diagonals_4_each_one_upgraded",
    "chain_opposite_sides",
    "chain_opposite_corners",
    "surround_6",
    "surround_7",
    "isolated_enemy",
];

/// The condition called `name` in the task file.
pub fn condition(name: &str) -> Option<Condition> {
    Some(match name {
        "destroyed_3" => |s, _| destroyed(s).0 >= 3,
        "destroyed_4" => |s, _| destroyed(s).0 >= 4,
        "destroyed_3_one_upgraded" => |s, _| {
            let (n, up) = destroyed(s);
            n >= 3 && up >= 1
        },
        "destroyed_4_two_upgraded" => |s, _| {
            let (n, up) = destroyed(s);
            n >= 4 && up >= 2
        },
        "destroyed_legend_or_2_heroic" => {
            |s, _| s.counters.destroyed[2] >= 1 || s.counters.destroyed[1] >= 2
        }
        "red_3_two_upgraded" => |s, p| {
            let (n, up, _) = on(s, p, board::RED);
            n >= 3 && up >= 2
        },
        "green_3_two_upgraded" => |s, p| {
            let (n, up, _) = on(s, p, board::GREEN);
            n >= 3 && up >= 2
        },
        "colored_5_three_upgraded" => |s, p| {
            let (n, up, _) = on(s, p, board::RED | board::GREEN);
            n >= 5 && up >= 3
        },
        "red_2_upgraded_one_legend" => |s, p| {
            let (_, up, leg) = on(s, p, board::RED);
            up >= 2 && leg >= 1
        },
        "green_2_upgraded_one_legend" => |s, p| {
            let (_, up, leg) = on(s, p, board::GREEN);
            up >= 2 && leg >= 1
        },
        "more_upgraded_on_red_and_green" => |s, p| {
            on(s, p, board::RED).1 > on(s, 1 - p, board::RED).1
                && on(s, p, board::GREEN).1 > on(s, 1 - p, board::GREEN).1
        },
        "summoned_2_one_on_red" => {
            |s, _| s.counters.summoned.len() >= 2 && summons_on(s, board::RED) >= 1
        }
        "summoned_2_one_on_green" => {
            |s, _| s.counters.summoned.len() >= 2 && summons_on(s, board::GREEN) >= 1
        }
        "summoned_2_on_colored" => |s, _| summons_on(s, board::RED | board::GREEN) >= 2,
        "summoned_2_one_legendary" => |s, _| {
            s.counters.summoned.len() >= 2 && s.counters.summoned.iter().any(|&(_, r)| r == 2)
        },
        "central_5_two_upgraded" => |s, p| {
            let (n, up, _) = on(s, p, board::CENTRAL_NINE);
            n >= 5 && up >= 2
        },
        "center_plus_or_x" => |s, p| {
            let mine = s.mine(p);
            mine & board::CENTER_PLUS == board::CENTER_PLUS
                || mine & board::CENTER_X == board::CENTER_X
        },
        "line_6_more" => |s, p| {
            let (mine, theirs) = (s.mine(p), s.mine(1 - p));
            board::CENTER_LINES
                .iter()
                .any(|&l| (mine & l).count_ones() as i32 - (theirs & l).count_ones() as i32 >= 6)
        },
        "diagonals_4_each_one_upgraded" => |s, p| {
            board::LONG_DIAGONALS
                .iter()
                .all(|&d| on(s, p, d).0 >= 4 && on(s, p, d).1 >= 1)
        },
        "chain_opposite_sides" => |s, p| {
            let mine = s.mine(p);
            connected(mine, board::SIDE_LEFT, board::SIDE_RIGHT)
                || connected(mine, board::SIDE_TOP, board::SIDE_BOTTOM)
        },
        "chain_opposite_corners" => |s, p| {
            let mine = s.mine(p);
            connected(mine, board::CORNER_NW, board::CORNER_SE)
                || connected(mine, board::CORNER_NE, board::CORNER_SW)
        },
        "surround_6" => |s, p| most_around_enemy(s, p) >= 6,
        "surround_7" => |s, p| most_around_enemy(s, p) >= 7,
        "isolated_enemy" => isolation,
        _ => return None,
    })
}

/// (all, upgraded) enemy pieces the active player destroyed this turn.
fn destroyed(s: &GameState) -> (i32, i32) {
    let [c, h, l] = s.counters.destroyed;
    (c + h + l, h + l)
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

fn summons_on(s: &GameState, squares: Bits) -> usize {
    s.counters
        .summoned
        .iter()
        .filter(|&&(sq, _)| squares >> sq & 1 != 0)
        .count()
}

fn grow(frontier: Bits) -> Bits {
    board::bits(frontier).fold(0, |m, sq| m | ADJACENT[sq as usize])
}

/// Whether a chain of adjacent squares of `pieces` links a square of `start` to one of `goal`.
pub fn connected(pieces: Bits, start: Bits, goal: Bits) -> bool {
    let mut frontier = pieces & start;
    let mut reached = frontier;
    while frontier != 0 {
        if reached & goal != 0 {
            return true;
        }
        frontier = grow(frontier) & pieces & !reached;
        reached |= frontier;
    }
    reached & goal != 0
}

fn most_around_enemy(s: &GameState, p: usize) -> u32 {
    let mine = s.mine(p);
    board::bits(s.mine(1 - p))
        .map(|sq| (ADJACENT[sq as usize] & mine).count_ones())
        .max()
        .unwrap_or(0)
}

/// An enemy piece near another (distance 2) that cannot come adjacent to any other enemy piece in 3 moves
/// through empty squares.
fn isolation(s: &GameState, p: usize) -> bool {
    let enemy = s.mine(1 - p);
    let empty = s.empty();
    for sq in board::bits(enemy) {
        let others = enemy & !board::bit(sq);
        if board::WITHIN[2][sq as usize] & others == 0 {
            continue;
        }
        let near_others = grow(others);
        let mut reached = board::bit(sq);
        let mut frontier = reached;
        let mut stuck = reached & near_others == 0;
        for _ in 0..3 {
            if !stuck {
                break;
            }
            frontier = grow(frontier) & empty & !reached;
            reached |= frontier;
            stuck = frontier & near_others == 0;
        }
        if stuck {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_listed_name_is_a_condition() {
        for name in super::CONDITION_NAMES {
            assert!(super::condition(name).is_some(), "{name}");
        }
    }
}
