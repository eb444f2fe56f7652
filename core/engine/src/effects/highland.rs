//! Effect functions of the highland cards that the step vocabulary cannot express.

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

#[cfg(test)]
mod tests {
    use super::super::imperial::scene::{run, Outcome};

    /// A legendary first pick ends the effect.
    #[test]
    fn legend_slayer_legendary_first() {
        let got = run(
            "highland/legend-slayer",
            "e5",
            0,
            "e5=1h e6=1c f6=1c e7=1c g7=1c d4=2l f4=2h d6=2c",
            "d4",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "f4=2h e5=1h d6=2c e6=1c f6=1c e7=1c g7=1c".into(),
            asked: "destroy[d4 f4 d6 f6 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// A non-legendary first pick allows a second non-legendary one, of either player.
    #[test]
    fn legend_slayer_two_pieces() {
        let got = run(
            "highland/legend-slayer",
            "e5",
            0,
            "e5=1h e6=1c f6=1c e7=1c g7=1c d4=2l f4=2h d6=2c",
            "f4 f6",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "d4=2l e5=1h d6=2c e6=1c e7=1c g7=1c".into(),
            asked: "destroy[d4 f4 d6 f6 N] | destroy[d6 f6 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// Declining the first move: the effect reports that it did nothing (a later `if = "previous"` step
    /// reads this).
    #[test]
    fn warlord_no_move_did_nothing() {
        let got = run(
            "highland/warlord",
            "e5",
            0,
            "e5=1h d6=1c e6=1c f6=1c c7=1c g7=1c",
            "N",
            1,
        );
        assert!(!got.did);
        assert_eq!(got.arena, "e5=1h d6=1c e6=1c f6=1c c7=1c g7=1c");
    }

    /// A piece that takes the Warlord leaves no third move.
    #[test]
    fn warlord_taken_by_own_piece() {
        let got = run(
            "highland/warlord",
            "e5",
            0,
            "e5=1h d6=1c e6=1c f6=1c c7=1c g7=1c e4=1h",
            "e4-e5 d6-d5",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "d5=1c e5=1h e6=1c f6=1c c7=1c g7=1c".into(),
            asked: "move[e4-d3 e4-e3 e4-f3 e4-d4 e4-f4 e4-d5 e4-e5 e4-f5 e5-d4 e5-e4 e5-f4 e5-d5 e5-f5 e5-d6 e5-e6 e5-f6 d6-c5 d6-d5 d6-c6 d6-e6 d6-c7 d6-d7 d6-e7 e6-d5 e6-f5 e6-d6 e6-f6 e6-d7 e6-e7 e6-f7 f6-f5 f6-g5 f6-e6 f6-g6 f6-e7 f6-f7 f6-g7 c7-b6 c7-c6 c7-d6 c7-b7 c7-d7 c7-b8 c7-c8 c7-d8 g7-f6 g7-g6 g7-h6 g7-f7 g7-h7 g7-f8 g7-g8 g7-h8 N] | move[e5-d4 e5-e4 e5-f4 e5-d5 e5-f5 e5-d6 e5-e6 e5-f6 d6-c5 d6-d5 d6-c6 d6-e6 d6-c7 d6-d7 d6-e7 e6-d5 e6-f5 e6-d6 e6-f6 e6-d7 e6-e7 e6-f7 f6-f5 f6-g5 f6-e6 f6-g6 f6-e7 f6-f7 f6-g7 c7-b6 c7-c6 c7-d6 c7-b7 c7-d7 c7-b8 c7-c8 c7-d8 g7-f6 g7-g6 g7-h6 g7-f7 g7-h7 g7-f8 g7-g8 g7-h8 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// After two moves without it, only the Warlord may make the third.
    #[test]
    fn warlord_third_move_is_his() {
        let got = run(
            "highland/warlord",
            "e5",
            0,
            "e5=1h d6=1c e6=1c f6=1c c7=1c g7=1c e3=1h",
            "e3-e2 d6-d5 e5-f5",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "e2=1h d5=1c f5=1h e6=1c f6=1c c7=1c g7=1c".into(),
            asked: "move[e3-d2 e3-e2 e3-f2 e3-d3 e3-f3 e3-d4 e3-e4 e3-f4 e5-d4 e5-e4 e5-f4 e5-d5 e5-f5 e5-d6 e5-e6 e5-f6 d6-c5 d6-d5 d6-c6 d6-e6 d6-c7 d6-d7 d6-e7 e6-d5 e6-f5 e6-d6 e6-f6 e6-d7 e6-e7 e6-f7 f6-f5 f6-g5 f6-e6 f6-g6 f6-e7 f6-f7 f6-g7 c7-b6 c7-c6 c7-d6 c7-b7 c7-d7 c7-b8 c7-c8 c7-d8 g7-f6 g7-g6 g7-h6 g7-f7 g7-h7 g7-f8 g7-g8 g7-h8 N] | move[e2-d1 e2-e1 e2-f1 e2-d2 e2-f2 e2-d3 e2-e3 e2-f3 e5-d4 e5-e4 e5-f4 e5-d5 e5-f5 e5-d6 e5-e6 e5-f6 d6-c5 d6-d5 d6-c6 d6-e6 d6-c7 d6-d7 d6-e7 e6-d5 e6-f5 e6-d6 e6-f6 e6-d7 e6-e7 e6-f7 f6-f5 f6-g5 f6-e6 f6-g6 f6-e7 f6-f7 f6-g7 c7-b6 c7-c6 c7-d6 c7-b7 c7-d7 c7-b8 c7-c8 c7-d8 g7-f6 g7-g6 g7-h6 g7-f7 g7-h7 g7-f8 g7-g8 g7-h8 N] | move[e5-d4 e5-e4 e5-f4 e5-d5 e5-f5 e5-d6 e5-e6 e5-f6 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// Three combat moves on a green square off the centre.
    #[test]
    fn werewolf_strong_on_green() {
        let got = run(
            "highland/werewolf",
            "i4",
            0,
            "i4=1h g3=1c f4=1c g5=1c h4=2h",
            "i4-h4 h4-h3 h3-h2",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "h2=1h g3=1c f4=1c g5=1c".into(),
            asked: "move[i4-h3 i4-i3 i4-h4 i4-h5 i4-i5 N] | move[h4-g3 h4-h3 h4-i3 h4-g4 h4-i4 h4-g5 h4-h5 h4-i5 N] | move[h3-g2 h3-h2 h3-g3 h3-i3 h3-g4 h3-h4 h3-i4 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// One standard move on the central red square.
    #[test]
    fn werewolf_weak_in_the_centre() {
        let got = run(
            "highland/werewolf",
            "e5",
            0,
            "e5=1h c4=1c b5=1c c6=1c e4=2h",
            "e5-f5",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "c4=1c e4=2h b5=1c f5=1h c6=1c".into(),
            asked: "move[e5-d4 e5-f4 e5-d5 e5-f5 e5-d6 e5-e6 e5-f6 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// A move that destroys allows a second one.
    #[test]
    fn hungry_bear_two_moves() {
        let got = run(
            "highland/hungry-bear",
            "e5",
            0,
            "e5=1h f5=1c e6=1c f6=1c e4=2c",
            "e5-e4 e4-e3",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "e3=1h f5=1c e6=1c f6=1c".into(),
            asked: "move[e5-d4 e5-e4 e5-f4 e5-d5 e5-f5 e5-d6 e5-e6 e5-f6 N] | move[e4-d3 e4-e3 e4-f3 e4-d4 e4-f4 e4-d5 e4-e5 e4-f5 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// A move onto an empty square is the last.
    #[test]
    fn hungry_bear_stops_on_empty() {
        let got = run(
            "highland/hungry-bear",
            "e5",
            0,
            "e5=1h f5=1c e6=1c f6=1c",
            "e5-e4",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "e4=1h f5=1c e6=1c f6=1c".into(),
            asked: "move[e5-d4 e5-e4 e5-f4 e5-d5 e5-f5 e5-d6 e5-e6 e5-f6 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// Two enemy commons destroyed gain an action; heroic and own pieces stay.
    #[test]
    fn mountain_troll_two_victims() {
        let got = run(
            "highland/mountain-troll",
            "e5",
            0,
            "e5=1h d6=1c e6=1c e7=1c f7=1c d4=2c f4=2c f5=2h e4=1c",
            "",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 2,
            arena: "e4=1c e5=1h f5=2h d6=1c e6=1c e7=1c f7=1c".into(),
            asked: "".into(),
        };
        assert_eq!(got, want);
    }

    /// A victim on red takes every common piece around it, of either player.
    #[test]
    fn blood_shaman_on_red() {
        let got = run(
            "highland/blood-shaman",
            "e5",
            0,
            "e5=1h f4=1c f5=1c d6=1c e6=1c h6=2h g5=1c h5=2c i7=2h g7=1h",
            "h6",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "f4=1c e5=1h f5=1c d6=1c e6=1c g7=1h i7=2h".into(),
            asked: "destroy[f4 e5 f5 g5 h5 d6 e6 h6 g7 i7]".into(),
        };
        assert_eq!(got, want);
    }
}
