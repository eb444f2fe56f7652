//! Effect functions of the legends cards that the step vocabulary cannot express (sim/effects/legends.py).

use super::context::EffectContext;
use super::steps::{MoveKind, Step};
use super::Registry;
use crate::board::{self, bit, Bits, Square, ADJACENT, ARENA, DIRECTIONS, GREEN, RED, WITHIN};
use crate::decisions::{Kind, Opt};
use crate::patterns::transform;
use crate::ranks::{COMMON, HEROIC, LEGENDARY, RANK_NAMES};

const C: usize = COMMON as usize;
const H: usize = HEROIC as usize;
const L: usize = LEGENDARY as usize;

/// Storm Elemental: most moves by the placed piece's rank (common, heroic, legendary).
const STORM_MOVES: [u32; 3] = [5, 3, 1];

/// Add this module's functions to the registry.
pub fn register(table: &mut Registry) {
    table.push(("legends.fire_dragon", fire_dragon));
    table.push(("legends.hell_bull", hell_bull));
    table.push(("legends.angel_of_death", angel_of_death));
    table.push(("legends.eldest_tree", eldest_tree));
    table.push(("legends.bone_catapult", bone_catapult));
    table.push(("legends.fire_elemental", fire_elemental));
    table.push(("legends.leviathan", leviathan));
    table.push(("legends.two_headed_dragon", two_headed_dragon));
    table.push(("legends.earth_elemental_move", earth_elemental_move));
    table.push(("legends.time_elemental", time_elemental));
    table.push(("legends.storm_elemental", storm_elemental));
}

/// The directions the card's marked squares indicate (each marked square is adjacent to the being),
/// turned with the pattern, in the card's order of marked squares.
fn marked_directions(ctx: &EffectContext<'_, '_>) -> Vec<u8> {
    let orientation = ctx
        .placement
        .as_ref()
        .expect("a summoned being")
        .orientation;
    let being = ctx.being.expect("a summoned being");
    ctx.state()
        .cards
        .being(being)
        .pattern
        .marked
        .iter()
        .map(|&(dx, dy)| {
            let step = transform(dx, dy, orientation);
            DIRECTIONS
                .iter()
                .position(|&d| d == step)
                .expect("a marked square next to the being") as u8
        })
        .collect()
}

/// Optional combat moves with the piece on `src` in one direction, up to `most` (None: any number).
/// The first decision picks the first move, which fixes the direction; each later move is asked as that
/// move or stop. Returns the square where the piece ends.
fn line_moves(
    ctx: &mut EffectContext<'_, '_>,
    mut src: Square,
    most: Option<u32>,
    stop_on_legendary: bool,
) -> Square {
    let mut options: Vec<(Square, Square)> = (0..8)
        .filter_map(|d| {
            ctx.ray_targets(src, d, MoveKind::Combat)
                .map(|dst| (src, dst))
        })
        .collect();
    let mut direction = None;
    let mut done = 0;
    while !options.is_empty() && most.is_none_or(|m| done < m) {
        let Some((from, to)) = ctx.choose_move(Kind::Move, &options, true, "") else {
            break;
        };
        let d = *direction.get_or_insert_with(|| {
            board::direction_between(from, to).expect("a move to an adjacent square")
        });
        let destroyed = ctx.move_piece(from, to);
        src = to;
        done += 1;
        if stop_on_legendary && destroyed.is_some_and(|p| p.1 == LEGENDARY) {
            break;
        }
        options = ctx
            .ray_targets(src, d, MoveKind::Combat)
            .map(|next| vec![(src, next)])
            .unwrap_or_default();
    }
    src
}

/// Choose an indicated direction; destroy the non-legendary pieces at distance 1-2 in it and in the two
/// directions at 45 degrees. Every indicated direction is offered, also one with nothing to destroy.
fn fire_dragon(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(origin) = ctx.self_sq else {
        return false;
    };
    let options = marked_directions(ctx)
        .into_iter()
        .map(Opt::Direction)
        .collect();
    let Some(Opt::Direction(d)) = ctx.choose(Kind::Direction, options, false, "") else {
        return false;
    };
    let fan: Vec<Square> = [d + 7, d, d + 1]
        .iter()
        .flat_map(|&fd| board::ray(origin, fd % 8).iter().take(2).copied())
        .collect();
    for sq in fan {
        if ctx.piece_at(sq).is_some_and(|p| p.1 != LEGENDARY) {
            ctx.destroy(sq, true);
        }
    }
    true
}

/// Any number of combat moves in one direction with the Hell Bull; taking a legendary piece stops it.
fn hell_bull(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(start) = ctx.self_sq else {
        return false;
    };
    line_moves(ctx, start, None, true) != start
}

/// May pick any other piece: upgrade it (if the stock allows), then combat-leap the Angel onto it.
fn angel_of_death(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(angel) = ctx.self_sq else {
        return false;
    };
    // The Angel is legendary, so a combat leap may enter any square: every other piece is a target.
    let options: Vec<(Square, Square)> = board::bits(ctx.state().occupied() & !bit(angel))
        .map(|sq| (angel, sq))
        .collect();
    let Some((_, target)) =
        ctx.choose_move(Kind::Leap, &options, true, "piece to upgrade and take")
    else {
        return false;
    };
    ctx.upgrade(target);
    ctx.move_piece(angel, target);
    true
}

/// On up to 3 different adjacent squares: destroy an enemy non-legendary piece, upgrade your common
/// piece, or place your common piece on an empty square.
fn eldest_tree(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    if ctx.self_sq.is_none() {
        return false;
    }
    let mut used: Bits = 0;
    let mut done = false;
    for _ in 0..3 {
        let here = ctx.self_sq.expect("the Eldest Tree stays where it is");
        let s = ctx.state();
        let adjacent = ADJACENT[here as usize] & !used;
        let (enemy, mine) = (s.pieces[ctx.enemy], s.pieces[ctx.player]);
        let mut options = adjacent & (enemy[C] | enemy[H] | mine[C]);
        if s.tokens[ctx.player] > 0 {
            options |= adjacent & s.empty();
        }
        let Some(sq) = ctx.choose_square(Kind::Square, options, true, "") else {
            break;
        };
        used |= bit(sq);
        match ctx.piece_at(sq) {
            None => {
                ctx.place(sq, COMMON, None);
            }
            Some((owner, _)) if owner == ctx.player => {
                ctx.upgrade(sq);
            }
            Some(_) => {
                ctx.destroy(sq, true);
            }
        }
        done = true;
    }
    done
}

/// May pick any piece on a line in an indicated direction (not blocked): destroy it and the commons
/// adjacent to it.
fn bone_catapult(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(origin) = ctx.self_sq else {
        return false;
    };
    let occupied = ctx.state().occupied();
    let line = board::mask_of(
        marked_directions(ctx)
            .into_iter()
            .flat_map(|d| board::ray(origin, d).iter().copied()),
    );
    let Some(target) = ctx.choose_square(Kind::Destroy, line & occupied, true, "") else {
        return false;
    };
    ctx.destroy(target, true);
    let s = ctx.state();
    let commons = s.pieces[0][C] | s.pieces[1][C];
    for sq in board::bits(ADJACENT[target as usize] & commons) {
        ctx.destroy(sq, true);
    }
    true
}

/// Destroy every non-legendary enemy piece adjacent, or every common enemy piece within distance 2. Both
/// branches are always offered, even one that destroys nothing (the project's ruling for "A or B").
fn fire_elemental(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(here) = ctx.self_sq else {
        return false;
    };
    let enemy = ctx.state().pieces[ctx.enemy];
    let sets = [
        ("adjacent", ADJACENT[here as usize] & (enemy[C] | enemy[H])),
        ("commons within 2", WITHIN[2][here as usize] & enemy[C]),
    ];
    let options = sets.iter().map(|&(label, _)| Opt::Label(label)).collect();
    let Some(Opt::Label(label)) = ctx.choose(Kind::Branch, options, false, "") else {
        unreachable!("two branches to choose from");
    };
    let (_, chosen) = *sets.iter().find(|(l, _)| *l == label).expect("a label");
    for sq in board::bits(chosen) {
        ctx.destroy(sq, true);
    }
    chosen != 0
}

/// Whether the piece on `sq` may be downgraded: a heroic, or a legendary one whose owner has a token.
fn can_downgrade(ctx: &EffectContext<'_, '_>, sq: Square) -> bool {
    let (owner, rank) = ctx.piece_at(sq).expect("a piece");
    rank == HEROIC || (rank == LEGENDARY && ctx.state().tokens[owner] > 0)
}

/// Downgrade a connected group of up to 3 upgraded pieces, or destroy one of up to 4 common pieces (any
/// colours). The group is chosen piece by piece, each new piece adjacent to one already chosen.
fn leviathan(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let options = vec![Opt::Label("downgrade"), Opt::Label("destroy")];
    // both choices, even one that would find no piece
    let Some(Opt::Label(label)) = ctx.choose(Kind::Branch, options, false, "") else {
        return false;
    };
    let downgrade = label == "downgrade";
    let (most, prompt) = if downgrade {
        (3, "piece to downgrade")
    } else {
        (4, "piece to destroy")
    };
    let mut chosen: Bits = 0;
    for _ in 0..most {
        let reach = if chosen == 0 {
            ARENA
        } else {
            board::bits(chosen).fold(0, |m, sq| m | ADJACENT[sq as usize])
        };
        let s = ctx.state();
        let candidates = if downgrade {
            let upgraded = s.pieces[0][H] | s.pieces[1][H] | s.pieces[0][L] | s.pieces[1][L];
            board::mask_of(board::bits(upgraded).filter(|&sq| can_downgrade(ctx, sq)))
        } else {
            s.pieces[0][C] | s.pieces[1][C]
        };
        let Some(sq) = ctx.choose_square(Kind::Square, candidates & reach & !chosen, true, prompt)
        else {
            break;
        };
        chosen |= bit(sq);
        if downgrade {
            ctx.downgrade(sq);
        } else {
            ctx.destroy(sq, true);
        }
    }
    chosen != 0
}

/// May upgrade one of the pieces used to summon it; then may destroy a heroic piece next to that one.
fn two_headed_dragon(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let s = ctx.state();
    let mut upgradable: Vec<Square> = ctx
        .pattern_sqs
        .iter()
        .copied()
        .filter(|&sq| match s.piece_at(sq) {
            Some((owner, rank)) => {
                rank == COMMON || (rank == HEROIC && s.can_have_piece(owner, LEGENDARY))
            }
            None => false,
        })
        .collect();
    upgradable.sort_unstable();
    let options = upgradable.into_iter().map(Opt::Square).collect();
    let Some(Opt::Square(sq)) = ctx.choose(Kind::Upgrade, options, true, "") else {
        return false;
    };
    ctx.upgrade(sq);
    let s = ctx.state();
    let heroic = s.pieces[0][H] | s.pieces[1][H];
    if let Some(target) = ctx.choose_square(Kind::Destroy, ADJACENT[sq as usize] & heroic, true, "")
    {
        ctx.destroy(target, true);
    }
    true
}

/// The Earth Elemental may do one combat move onto an adjacent red or green square.
fn earth_elemental_move(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(here) = ctx.self_sq else {
        return false;
    };
    let coloured = ADJACENT[here as usize] & (RED | GREEN);
    let options: Vec<(Square, Square)> = ctx
        .move_targets(here, MoveKind::Combat, Some(coloured), false)
        .into_iter()
        .map(|dst| (here, dst))
        .collect();
    let Some((a, b)) = ctx.choose_move(Kind::Move, &options, true, "") else {
        return false;
    };
    ctx.move_piece(a, b);
    true
}

/// The player takes another turn after this one (the engine plays it even in the final round).
fn time_elemental(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    ctx.state_mut().counters.extra_turn = true;
    true
}

/// May place a piece of any rank in stock within distance 3; it does up to 5/3/1 combat moves (common/
/// heroic/legendary) in one direction, then is destroyed.
fn storm_elemental(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(here) = ctx.self_sq else {
        return false;
    };
    let s = ctx.state();
    let squares = WITHIN[3][here as usize] & s.empty();
    let ranks: Vec<Opt> = [COMMON, HEROIC, LEGENDARY]
        .into_iter()
        .filter(|&r| s.can_have_piece(ctx.player, r))
        .map(|r| Opt::Label(RANK_NAMES[r as usize]))
        .collect();
    if squares == 0 {
        return false;
    }
    let Some(Opt::Label(label)) =
        ctx.choose(Kind::Branch, ranks, true, "rank of the piece to place")
    else {
        return false;
    };
    let rank = RANK_NAMES
        .iter()
        .position(|&n| n == label)
        .expect("a rank name") as u8;
    let sq = ctx
        .choose_square(Kind::Place, squares, false, "")
        .expect("an empty square");
    ctx.place(sq, rank, None);
    let end = line_moves(ctx, sq, Some(STORM_MOVES[rank as usize]), false);
    ctx.destroy(end, true);
    true
}
