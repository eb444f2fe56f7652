//! Effect functions of the highland cards that the step vocabulary cannot express (sim/effects/highland.py).

use super::context::EffectContext;
use super::interpreter;
use super::steps::{Amount, MoveKind, MoveSpec, Op, Owner, Step};
use super::Registry;
use crate::board::{self, bit, Bits, Square};
use crate::decisions::Kind;
use crate::ranks::{COMMON, HEROIC, LEGENDARY};

/// Add this module's functions to the registry.
pub fn register(table: &mut Registry) {
    table.push(("highland.blood_shaman", blood_shaman));
    table.push(("highland.warlord", warlord));
    table.push(("highland.war_summoner", war_summoner));
    table.push(("highland.legend_slayer", legend_slayer));
    table.push(("highland.mountain_troll", mountain_troll));
    table.push(("highland.hungry_bear", hungry_bear));
    table.push(("highland.werewolf", werewolf));
}

/// The red and green squares other than the central red one (e5), where the Werewolf is strong.
const OUTER_COLOURED: Bits = (board::RED | board::GREEN) & !bit(board::square(5, 5));

/// Destroy one non-legendary piece; if it stood on red, destroy every common piece around that square.
fn blood_shaman(ctx: &mut EffectContext, _step: &Step) -> bool {
    let targets = ctx.rank_mask(&[COMMON, HEROIC], Owner::Any);
    let Some(sq) = ctx.choose_square(
        Kind::Destroy,
        targets,
        false,
        "non-legendary piece to destroy",
    ) else {
        return false;
    };
    ctx.destroy(sq, true);
    if board::RED >> sq & 1 != 0 {
        for near in board::bits(board::ADJACENT[sq as usize] & ctx.rank_mask(&[COMMON], Owner::Any))
        {
            ctx.destroy(near, true);
        }
    }
    true
}

/// Up to 3 combat moves with your pieces; a third one must be the Warlord's unless it already moved.
fn warlord(ctx: &mut EffectContext, _step: &Step) -> bool {
    let (mut made, mut warlord_moved) = (0, false);
    for _ in 0..3 {
        let sources: Vec<Square> = if made == 2 && !warlord_moved {
            ctx.self_sq.into_iter().collect()
        } else {
            board::bits(ctx.state().mine(ctx.player)).collect()
        };
        let mut options = Vec::new();
        for src in sources {
            for dst in ctx.move_targets(src, MoveKind::Combat, None, false) {
                options.push((src, dst));
            }
        }
        let Some((_, dst, _)) = ctx.optional_move(&options, "combat move with one of your pieces")
        else {
            break;
        };
        made += 1;
        warlord_moved |= Some(dst) == ctx.self_sq;
    }
    made > 0
}

/// The next summon this turn may use one enemy piece in its pattern (the game applies it).
fn war_summoner(ctx: &mut EffectContext, _step: &Step) -> bool {
    ctx.state_mut().counters.borrow_enemy_piece = true;
    true
}

/// Destroy a diagonal legendary piece or up to two diagonal non-legendary ones; the first pick decides.
fn legend_slayer(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let diagonal = board::DIAGONAL[me as usize];
    let prompt = "diagonal piece to destroy (a legendary one ends the effect)";
    let Some(first) = ctx.choose_square(
        Kind::Destroy,
        diagonal & ctx.state().occupied(),
        true,
        prompt,
    ) else {
        return false;
    };
    let (_, rank) = ctx.destroy(first, true).expect("an occupied square");
    if rank == LEGENDARY {
        return true;
    }
    let targets = diagonal & ctx.rank_mask(&[COMMON, HEROIC], Owner::Any);
    if let Some(second) = ctx.choose_square(
        Kind::Destroy,
        targets,
        true,
        "second diagonal non-legendary piece to destroy",
    ) {
        ctx.destroy(second, true);
    }
    true
}

/// Destroy every adjacent enemy common piece; two or more destroyed gain an action.
fn mountain_troll(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let victims = board::ADJACENT[me as usize] & ctx.rank_mask(&[COMMON], Owner::Enemy);
    for sq in board::bits(victims) {
        ctx.destroy(sq, true);
    }
    if board::popcount(victims) >= 2 {
        ctx.gain_actions(1);
    }
    victims != 0
}

/// Up to 2 standard moves; a move onto an empty square is the last one.
fn hungry_bear(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut done = false;
    for _ in 0..2 {
        let options: Vec<_> = match ctx.self_sq {
            None => Vec::new(),
            Some(src) => ctx
                .move_targets(src, MoveKind::Standard, None, false)
                .into_iter()
                .map(|d| (src, d))
                .collect(),
        };
        let Some((_, _, destroyed)) =
            ctx.optional_move(&options, "standard move of the Hungry Bear")
        else {
            break;
        };
        done = true;
        if destroyed.is_none() {
            break;
        }
    }
    done
}

/// Up to 3 combat moves if summoned on a red or green square off the centre, else 1 standard move.
fn werewolf(ctx: &mut EffectContext, _step: &Step) -> bool {
    let strong = ctx.origin.is_some_and(|o| OUTER_COLOURED >> o & 1 != 0);
    let spec = MoveSpec {
        piece_self: true,
        kind: if strong {
            MoveKind::Combat
        } else {
            MoveKind::Standard
        },
        empty_only: false,
        same_piece: false,
    };
    let mut step = Step::new(Op::Move(spec));
    step.amount = Amount::UpTo(if strong { 3 } else { 1 });
    interpreter::moves(ctx, &step, &spec, None)
}
