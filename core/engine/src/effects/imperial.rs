//! Effect functions of the imperial cards that the step vocabulary cannot express (sim/effects/imperial.py).

use super::context::EffectContext;
use super::steps::{MoveKind, Owner, Step};
use super::Registry;
use crate::board::{self, bit, Square};
use crate::decisions::{Kind, Opt};
use crate::ranks::{COMMON, HEROIC, LEGENDARY};

/// Add this module's functions to the registry.
pub fn register(table: &mut Registry) {
    table.push(("imperial.messenger", messenger));
    table.push(("imperial.chronicler", chronicler));
    table.push(("imperial.step_onto_marked", step_onto_marked));
    table.push(("imperial.hypnotist", hypnotist));
    table.push(("imperial.cannon", cannon));
    table.push(("imperial.gun_tower", gun_tower));
    table.push(("imperial.champion", champion));
    table.push(("imperial.cavalry_captain", cavalry_captain));
    table.push(("imperial.knight", knight));
    table.push(("imperial.master_of_intrigue", master_of_intrigue));
}

/// How many squares the piece on `src` goes by successive moves in `direction` before it meets one it
/// may not enter (the squares are the first ones of `board::ray(src, direction)`).
fn path_len(ctx: &EffectContext, src: Square, direction: u8, kind: MoveKind) -> usize {
    board::ray(src, direction)
        .iter()
        .take_while(|&&sq| ctx.can_enter(src, sq, kind))
        .count()
}

/// The card's arrows: the directions from the summoning square to each marked square on the arena.
fn indicated_directions(ctx: &EffectContext) -> Vec<u8> {
    let origin = ctx.origin.expect("a being's effect");
    let placement = ctx.placement.as_ref().expect("a being's effect");
    placement
        .marked_squares
        .iter()
        .flatten()
        .map(|&m| board::direction_between(origin, m).expect("marked squares next to the being"))
        .collect()
}

/// One of your non-legendary pieces goes any number of standard moves in one direction. One decision picks
/// the piece, the direction and how far (the last square reached).
fn messenger(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut options = Vec::new();
    let mut paths = Vec::new(); // (direction, number of squares) of each option
    for src in board::bits(ctx.state().of_ranks(ctx.player, &[COMMON, HEROIC])) {
        for d in 0..8 {
            for i in 0..path_len(ctx, src, d, MoveKind::Standard) {
                options.push((src, board::ray(src, d)[i]));
                paths.push((d, i + 1));
            }
        }
    }
    let prompt = "piece, direction and last square of its standard moves";
    let Some(choice) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
        return false;
    };
    let (d, n) = paths[options
        .iter()
        .position(|&o| o == choice)
        .expect("a listed move")];
    let mut cur = choice.0;
    for &sq in &board::ray(choice.0, d)[..n] {
        ctx.move_piece(cur, sq);
        cur = sq;
    }
    true
}

/// Upgrade one of your other common pieces; that piece may then make a standard move.
fn chronicler(ctx: &mut EffectContext, _step: &Step) -> bool {
    let origin = ctx.origin.expect("a being's effect");
    let targets = ctx.state().pieces[ctx.player][COMMON as usize] & !bit(origin);
    let Some(sq) = ctx.choose_square(
        Kind::Upgrade,
        targets,
        false,
        "your common piece to upgrade",
    ) else {
        return false;
    };
    ctx.upgrade(sq);
    let moves: Vec<_> = ctx
        .move_targets(sq, MoveKind::Standard, None, false)
        .into_iter()
        .map(|d| (sq, d))
        .collect();
    if let Some((src, dst)) = ctx.choose_move(
        Kind::Move,
        &moves,
        true,
        "standard move with the upgraded piece",
    ) {
        ctx.move_piece(src, dst);
    }
    true
}

/// The being may move onto its (single, adjacent) marked square when that square is empty.
fn step_onto_marked(ctx: &mut EffectContext, _step: &Step) -> bool {
    let targets = ctx.marked_squares() & ctx.state().empty();
    let Some(me) = ctx.self_sq else { return false };
    if targets == 0 {
        return false;
    }
    let options: Vec<_> = board::bits(targets).map(|dst| (me, dst)).collect();
    let Some((src, dst)) =
        ctx.choose_move(Kind::Move, &options, true, "move onto the marked square")
    else {
        return false;
    };
    ctx.move_piece(src, dst);
    true
}

/// One combat move with each of up to 3 enemy common or up to 2 enemy heroic pieces. The first move's
/// piece fixes the rank; each piece moves at most once.
fn hypnotist(ctx: &mut EffectContext, _step: &Step) -> bool {
    let enemy = ctx.enemy;
    let mut unmoved =
        ctx.state().pieces[enemy][COMMON as usize] | ctx.state().pieces[enemy][HEROIC as usize];
    let mut rank: Option<u8> = None;
    let mut done = 0;
    while rank.is_none_or(|r| done < if r == COMMON { 3 } else { 2 }) {
        let mut options = Vec::new();
        for src in board::bits(unmoved) {
            for dst in ctx.move_targets(src, MoveKind::Combat, None, false) {
                options.push((src, dst));
            }
        }
        let Some((src, dst)) = ctx.choose_move(
            Kind::Move,
            &options,
            true,
            "combat move with an enemy piece",
        ) else {
            break;
        };
        let r = *rank.get_or_insert_with(|| ctx.piece_at(src).expect("an enemy piece").1);
        ctx.move_piece(src, dst);
        done += 1;
        unmoved &= ctx.state().pieces[enemy][r as usize] & !bit(src) & !bit(dst);
    }
    done > 0
}

/// Every common piece from the being to the edge of the arena in `direction`.
fn commons_in_line(ctx: &EffectContext, direction: u8) -> Vec<Square> {
    let commons = ctx.rank_mask(&[COMMON], Owner::Any);
    let origin = ctx.origin.expect("a being's effect");
    board::ray(origin, direction)
        .iter()
        .copied()
        .filter(|&sq| commons >> sq & 1 != 0)
        .collect()
}

/// The first two pieces in `direction`; a legendary piece stops the shot before it.
fn first_two_pieces(ctx: &EffectContext, direction: u8) -> Vec<Square> {
    let mut out = Vec::new();
    for &sq in board::ray(ctx.origin.expect("a being's effect"), direction) {
        let Some((_, rank)) = ctx.piece_at(sq) else {
            continue;
        };
        if rank == LEGENDARY {
            break;
        }
        out.push(sq);
        if out.len() == 2 {
            break;
        }
    }
    out
}

/// Offer the indicated directions where `shot` hits something; destroy its hits in the chosen one.
fn fire(ctx: &mut EffectContext, shot: fn(&EffectContext, u8) -> Vec<Square>) -> bool {
    let shots: Vec<(u8, Vec<Square>)> = indicated_directions(ctx)
        .into_iter()
        .map(|d| (d, shot(ctx, d)))
        .collect();
    let options = shots
        .iter()
        .filter(|(_, hit)| !hit.is_empty())
        .map(|&(d, _)| Opt::Direction(d))
        .collect();
    let Some(Opt::Direction(d)) = ctx.choose(Kind::Direction, options, true, "direction to shoot")
    else {
        return false;
    };
    let (_, hits) = shots
        .into_iter()
        .find(|(dir, _)| *dir == d)
        .expect("a listed direction");
    for sq in hits {
        ctx.destroy(sq, true);
    }
    true
}

/// Destroy every common piece in one of the indicated directions.
fn cannon(ctx: &mut EffectContext, _step: &Step) -> bool {
    fire(ctx, commons_in_line)
}

/// Destroy the first two pieces in one of the indicated directions; a legendary piece stops the shot.
fn gun_tower(ctx: &mut EffectContext, _step: &Step) -> bool {
    fire(ctx, first_two_pieces)
}

/// May destroy an adjacent enemy piece; a legendary one costs the Champion its life for an action.
fn champion(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let targets = board::ADJACENT[me as usize] & ctx.state().mine(ctx.enemy);
    let Some(sq) = ctx.choose_square(
        Kind::Destroy,
        targets,
        true,
        "adjacent enemy piece to destroy",
    ) else {
        return false;
    };
    if let Some((_, LEGENDARY)) = ctx.destroy(sq, true) {
        ctx.destroy(me, true);
        ctx.gain_actions(1);
    }
    true
}

/// One of your other pieces makes up to 1 combat and up to 2 standard moves, in any order. The first move
/// picks the piece. A move that a standard move allows uses up a standard move while one is left: that
/// keeps every later move open, so the engine need not ask which kind it was.
fn cavalry_captain(ctx: &mut EffectContext, _step: &Step) -> bool {
    let (mut standard_left, mut combat_left) = (2, 1);
    let mut sources: Vec<Square> = board::bits(ctx.state().mine(ctx.player))
        .filter(|&sq| Some(sq) != ctx.self_sq)
        .collect();
    let mut done = false;
    while standard_left > 0 || combat_left > 0 {
        let kind = if combat_left > 0 {
            MoveKind::Combat
        } else {
            MoveKind::Standard
        };
        let mut options = Vec::new();
        for &src in &sources {
            for dst in ctx.move_targets(src, kind, None, false) {
                options.push((src, dst));
            }
        }
        let Some((src, dst)) =
            ctx.choose_move(Kind::Move, &options, true, "move with the chosen piece")
        else {
            break;
        };
        if standard_left > 0 && ctx.can_enter(src, dst, MoveKind::Standard) {
            standard_left -= 1;
        } else {
            combat_left -= 1;
        }
        ctx.move_piece(src, dst);
        sources = vec![dst];
        done = true;
    }
    done
}

/// Up to 3 combat moves with the Knight, never onto a common piece.
fn knight(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut made = 0;
    for _ in 0..3 {
        let options: Vec<_> = match ctx.self_sq {
            None => Vec::new(),
            Some(src) => {
                let commons = ctx.rank_mask(&[COMMON], Owner::Any);
                ctx.move_targets(src, MoveKind::Combat, None, false)
                    .into_iter()
                    .filter(|&dst| commons >> dst & 1 == 0)
                    .map(|dst| (src, dst))
                    .collect()
            }
        };
        if ctx
            .optional_move(&options, "combat move with the Knight")
            .is_none()
        {
            break;
        }
        made += 1;
    }
    made > 0
}

/// Up to 3 moves: standard ones with the being, combat ones with its non-legendary pattern pieces.
fn master_of_intrigue(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut done = false;
    for _ in 0..3 {
        let mut options = Vec::new();
        if let Some(me) = ctx.self_sq {
            options.extend(
                ctx.move_targets(me, MoveKind::Standard, None, false)
                    .into_iter()
                    .map(|d| (me, d)),
            );
        }
        for &src in &ctx.pattern_sqs {
            if ctx.piece_at(src).expect("a pattern piece").1 != LEGENDARY {
                options.extend(
                    ctx.move_targets(src, MoveKind::Combat, None, false)
                        .into_iter()
                        .map(|d| (src, d)),
                );
            }
        }
        let prompt = "his standard move or a pattern piece's combat move";
        let Some((src, dst)) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
            break;
        };
        ctx.move_piece(src, dst);
        done = true;
    }
    done
}
