//! Effect functions of the sylvan cards that the step vocabulary cannot express (sim/effects/sylvan.py).

use super::context::EffectContext;
use super::steps::{MoveKind, Step};
use super::Registry;
use crate::board::{self, bit, popcount, Square, ADJACENT, DIAGONAL_DIRECTIONS};
use crate::decisions::{Kind, Opt};
use crate::game::remove_first;
use crate::ranks::{COMMON, HEROIC, LEGENDARY};
use crate::record::Event;

/// Add this module's functions to the registry.
pub fn register(table: &mut Registry) {
    table.push(("sylvan.forest_wardens", forest_wardens));
    table.push(("sylvan.naiad", naiad));
    table.push(("sylvan.kiskin_spirit", kiskin_spirit));
    table.push(("sylvan.centaur_spearman", centaur_spearman));
    table.push(("sylvan.centaur_chieftain", centaur_chieftain));
    table.push(("sylvan.forest_mystic", forest_mystic));
    table.push(("sylvan.kiskin_leafsplitter", kiskin_leafsplitter));
    table.push(("sylvan.kiskin_boughrunner", kiskin_boughrunner));
    table.push(("sylvan.tree_shepherd", tree_shepherd));
}

/// Offer the summoned being's moves of `kind` (optional); the (from, to) pair done, or None.
fn move_self(
    ctx: &mut EffectContext<'_, '_>,
    kind: MoveKind,
    prompt: &'static str,
) -> Option<(Square, Square)> {
    let src = ctx.self_sq?;
    let options: Vec<(Square, Square)> = ctx
        .move_targets(src, kind, None, false)
        .into_iter()
        .map(|dst| (src, dst))
        .collect();
    let choice = ctx.choose_move(Kind::Move, &options, true, prompt);
    if let Some((a, b)) = choice {
        ctx.move_piece(a, b);
    }
    choice
}

/// Destroy an enemy common if the enemy has more commons; then an enemy heroic if more upgraded pieces.
fn forest_wardens(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let (player, enemy) = (ctx.player, ctx.enemy);
    let mut done = false;
    let s = ctx.state();
    if popcount(s.pieces[enemy][COMMON as usize]) > popcount(s.pieces[player][COMMON as usize]) {
        let commons = s.pieces[enemy][COMMON as usize];
        let sq = ctx
            .choose_square(
                Kind::Destroy,
                commons,
                false,
                "enemy common piece to destroy",
            )
            .expect("the enemy has a common piece");
        done = ctx.destroy(sq, true).is_some();
    }
    let s = ctx.state();
    if popcount(s.upgraded(enemy)) > popcount(s.upgraded(player)) {
        let heroic = s.pieces[enemy][HEROIC as usize];
        if let Some(sq) = ctx.choose_square(
            Kind::Destroy,
            heroic,
            false,
            "enemy heroic piece to destroy",
        ) {
            done |= ctx.destroy(sq, true).is_some();
        }
    }
    done
}

/// Up to two different pieces of yours next to the Naiad each do one standard move.
fn naiad(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let around = ADJACENT[ctx.origin.expect("the Naiad has a summoning square") as usize];
    let mut moved = 0; // the square of the piece that already moved
    let mut done = false;
    for _ in 0..2 {
        let sources = around & ctx.state().mine(ctx.player) & !moved;
        let options: Vec<(Square, Square)> = board::bits(sources)
            .flat_map(|src| {
                ctx.move_targets(src, MoveKind::Standard, None, false)
                    .into_iter()
                    .map(move |dst| (src, dst))
            })
            .collect();
        let Some((_, dst, _)) = ctx.optional_move(
            &options,
            "standard move with one of your pieces next to the Naiad",
        ) else {
            break;
        };
        moved = bit(dst);
        done = true;
    }
    done
}

/// Put a card of your discard pile on top of your deck (optional); if you do, or the pile is empty,
/// draw one extra card at the end of the turn.
fn kiskin_spirit(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let p = ctx.player;
    let pile: Vec<Opt> = ctx.state().discarded[p]
        .iter()
        .map(|&c| Opt::Being(c))
        .collect();
    if !pile.is_empty() {
        let choice = ctx.choose(
            Kind::Card,
            pile,
            true,
            "card of your discard pile to put on top of your deck",
        );
        let Some(Opt::Being(card)) = choice else {
            return false;
        };
        let s = ctx.state_mut();
        remove_first(&mut s.discarded[p], card);
        s.deck[p].push(card);
        let event = Event::ToDeck {
            turn: s.turn,
            seat: p as i8,
            card: s.cards.being(card).id,
        };
        s.record.add(event);
    }
    ctx.state_mut().counters.extra_draws += 1;
    true
}

/// An optional combat move; then the next piece that way (the first met past any empty squares) is
/// destroyed unless it is legendary.
fn centaur_spearman(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some((src, dst)) = move_self(ctx, MoveKind::Combat, "combat move of the Centaur Spearman")
    else {
        return false;
    };
    let direction = board::direction_between(src, dst).expect("a move to an adjacent square");
    let occupied = ctx.state().occupied();
    if let Some(&sq) = board::ray(dst, direction)
        .iter()
        .find(|&&sq| occupied >> sq & 1 != 0)
    {
        if ctx.piece_at(sq).expect("an occupied square").1 != LEGENDARY {
            ctx.destroy(sq, true);
        }
    }
    true
}

/// The prompts of the Centaur Chieftain's followers, by direction (Python's f-string).
const FOLLOW_PROMPTS: [&str; 8] = [
    "combat move N with another piece of yours",
    "combat move NE with another piece of yours",
    "combat move E with another piece of yours",
    "combat move SE with another piece of yours",
    "combat move S with another piece of yours",
    "combat move SW with another piece of yours",
    "combat move W with another piece of yours",
    "combat move NW with another piece of yours",
];

/// An optional combat move; then up to three combat moves in that direction by your other pieces.
fn centaur_chieftain(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some((src, dst)) = move_self(
        ctx,
        MoveKind::Combat,
        "combat move of the Centaur Chieftain",
    ) else {
        return false;
    };
    let direction = board::direction_between(src, dst).expect("a move to an adjacent square");
    for _ in 0..3 {
        let mut others = ctx.state().mine(ctx.player);
        if let Some(me) = ctx.self_sq {
            others &= !bit(me);
        }
        let options: Vec<(Square, Square)> = board::bits(others)
            .filter_map(|s| {
                ctx.ray_targets(s, direction, MoveKind::Combat)
                    .map(|d| (s, d))
            })
            .collect();
        let prompt = FOLLOW_PROMPTS[direction as usize];
        let Some((a, b)) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
            break;
        };
        ctx.move_piece(a, b);
    }
    true
}

/// One extra card from your deck and one from the legend deck at the end of the turn.
fn forest_mystic(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let counters = &mut ctx.state_mut().counters;
    counters.extra_draws += 1;
    counters.extra_legend_draws += 1;
    true
}

/// The first piece met from `sq` in `direction`, if any.
fn first_piece(ctx: &EffectContext<'_, '_>, sq: Square, direction: u8) -> Option<Square> {
    let occupied = ctx.state().occupied();
    board::ray(sq, direction)
        .iter()
        .copied()
        .find(|&s| occupied >> s & 1 != 0)
}

/// Up to twice: pick a diagonal direction and destroy the first piece that way (any owner or rank).
fn kiskin_leafsplitter(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let mut done = false;
    for _ in 0..2 {
        let Some(here) = ctx.self_sq else {
            break;
        };
        let options: Vec<Opt> = DIAGONAL_DIRECTIONS
            .iter()
            .filter(|&&d| first_piece(ctx, here, d).is_some())
            .map(|&d| Opt::Direction(d))
            .collect();
        let Some(Opt::Direction(d)) = ctx.choose(
            Kind::Direction,
            options,
            true,
            "diagonal direction to shoot",
        ) else {
            break;
        };
        let target = first_piece(ctx, here, d).expect("a direction with a piece");
        ctx.destroy(target, true);
        done = true;
    }
    done
}

/// Up to three combat moves of the Boughrunner, each ending next to another piece of yours.
fn kiskin_boughrunner(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let mut moved = false;
    for _ in 0..3 {
        let options: Vec<(Square, Square)> = match ctx.self_sq {
            None => Vec::new(),
            Some(src) => {
                let others = ctx.state().mine(ctx.player) & !bit(src);
                ctx.move_targets(src, MoveKind::Combat, None, false)
                    .into_iter()
                    .filter(|&dst| ADJACENT[dst as usize] & others & !bit(dst) != 0)
                    .map(|dst| (src, dst))
                    .collect()
            }
        };
        if ctx
            .optional_move(&options, "combat move ending next to one of your pieces")
            .is_none()
        {
            break;
        }
        moved = true;
    }
    moved
}

/// Pick a piece of yours: a common is upgraded; a heroic may do a combat move, a legend a standard one.
/// Every piece of yours may be picked, even one that could then do nothing.
fn tree_shepherd(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let mine = ctx.state().mine(ctx.player);
    let Some(sq) = ctx.choose_square(Kind::Piece, mine, false, "your piece for the Tree Shepherd")
    else {
        return false;
    };
    let rank = ctx.piece_at(sq).expect("your piece").1;
    if rank == COMMON {
        return ctx.upgrade(sq);
    }
    let (kind, prompt) = if rank == HEROIC {
        (MoveKind::Combat, "combat move of that piece")
    } else {
        (MoveKind::Standard, "standard move of that piece")
    };
    let options: Vec<(Square, Square)> = ctx
        .move_targets(sq, kind, None, false)
        .into_iter()
        .map(|dst| (sq, dst))
        .collect();
    let Some((a, b)) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
        return false;
    };
    ctx.move_piece(a, b);
    true
}
