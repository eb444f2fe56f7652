//! Effect functions of the Everfrost cards that the step vocabulary cannot express (normal and frozen
//! texts; the deck's rules are in `crate::everfrost`).

use super::context::EffectContext;
use super::steps::{MoveKind, Owner, Step};
use super::Registry;
use crate::board::{self, bit, Bits, Square};
use crate::decisions::{Kind, Opt};
use crate::everfrost;
use crate::game::remove_first;
use crate::ranks::{COMMON, HEROIC, LEGENDARY};
use crate::record::Event;
use crate::state::Piece;

/// Add this module's functions to the registry.
pub fn register(table: &mut Registry) {
    table.push(("everfrost.royal_reindeer", royal_reindeer));
    table.push(("everfrost.crystal_mirror", crystal_mirror));
    table.push(("everfrost.frostweave", frostweave));
    table.push(("everfrost.winter_whisperer", winter_whisperer));
    table.push(("everfrost.frozen_chest", frozen_chest));
    table.push(("everfrost.sentinel", sentinel));
    table.push(("everfrost.glacier_giant", glacier_giant));
    table.push(("everfrost.polar_bear", polar_bear));
    table.push(("everfrost.war_sled", war_sled));
    table.push(("everfrost.snow_monster", snow_monster));
    table.push(("everfrost.frost_imp", frost_imp));
    table.push(("everfrost.ice_wyvern", ice_wyvern));
    table.push(("everfrost.ice_wyvern_frozen", ice_wyvern_frozen));
    table.push(("everfrost.deathbringer", deathbringer));
    table.push(("everfrost.illusionist", illusionist));
}

/// The piece the summoning itself destroyed on the summoning square (oversummoning), read from the
/// record: the summon event of this card and the destroy event right after it.
fn summon_took(ctx: &EffectContext) -> Option<Piece> {
    let origin = ctx.origin?;
    let events = &ctx.state().record.events;
    let i = events
        .iter()
        .rposition(|e| matches!(e, Event::Summon { card, .. } if *card == ctx.card_id))?;
    match events.get(i + 1) {
        Some(&Event::Destroy {
            cause,
            square,
            owner,
            rank,
            ..
        }) if cause == ctx.card_id && square == origin => Some((owner as usize, rank)),
        _ => None,
    }
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

/// How many squares the piece on `src` goes by successive moves in `direction` before it meets one it
/// may not enter.
fn path_len(ctx: &EffectContext, src: Square, direction: u8, kind: MoveKind) -> usize {
    board::ray(src, direction)
        .iter()
        .take_while(|&&sq| ctx.can_enter(src, sq, kind))
        .count()
}

/// The piece on `src` goes `n` successive moves in `direction`.
fn slide(ctx: &mut EffectContext, src: Square, direction: u8, n: usize) {
    let mut cur = src;
    for &sq in &board::ray(src, direction)[..n] {
        ctx.move_piece(cur, sq);
        cur = sq;
    }
}

/// Squares next to any square of `mask`.
fn around(mask: Bits) -> Bits {
    board::bits(mask).fold(0, |m, sq| m | board::ADJACENT[sq as usize])
}

/// May make a combat leap to a square exactly 2 away; becomes heroic unless the summoning or the leap
/// destroyed a piece (of any colour).
fn royal_reindeer(ctx: &mut EffectContext, _step: &Step) -> bool {
    let took = summon_took(ctx).is_some();
    let mut leap_took = false;
    if let Some(me) = ctx.self_sq {
        let ring = board::WITHIN[2][me as usize] & !board::WITHIN[1][me as usize];
        let moves: Vec<_> = ctx
            .move_targets(me, MoveKind::Combat, Some(ring), false)
            .into_iter()
            .map(|d| (me, d))
            .collect();
        let prompt = "combat leap to a square exactly 2 away";
        if let Some((a, b)) = ctx.choose_move(Kind::Leap, &moves, true, prompt) {
            leap_took = ctx.move_piece(a, b).is_some();
        }
    }
    match ctx.self_sq {
        Some(me) if !took && !leap_took => ctx.upgrade(me),
        _ => false,
    }
}

/// The square opposite `sq` across the Mirror (a point reflection through the summoning square; for the
/// card's one marked square, beside the Mirror, the mirror image across the Mirror's line).
fn reflected(origin: Square, sq: Square) -> Option<Square> {
    let (ox, oy) = board::coords(origin);
    let (x, y) = board::coords(sq);
    board::offset(origin, ox - x, oy - y)
}

/// May choose 1 heroic or up to 2 common pieces (any colour) on the marked squares: for each, one of your
/// pieces of that rank is placed on the reflected square, if it is empty. The first choice fixes the rank.
fn crystal_mirror(ctx: &mut EffectContext, _step: &Step) -> bool {
    let origin = ctx.origin.expect("a being's effect");
    let mut rank: Option<u8> = None;
    let mut chosen: Bits = 0;
    let mut done = 0;
    while rank.is_none_or(|r| done < if r == COMMON { 2 } else { 1 }) {
        let s = ctx.state();
        let mut options: Bits = 0;
        for sq in board::bits(ctx.marked_squares() & !chosen) {
            let Some((_, r)) = s.piece_at(sq) else {
                continue;
            };
            let fits = rank.map_or(r != LEGENDARY, |want| want == r);
            let target = reflected(origin, sq).filter(|&t| s.empty() & bit(t) != 0);
            if fits && target.is_some() && s.can_have_piece(ctx.player, r) {
                options |= bit(sq);
            }
        }
        let prompt = "piece on a marked square to mirror";
        let Some(sq) = ctx.choose_square(Kind::Piece, options, true, prompt) else {
            break;
        };
        let r = ctx.piece_at(sq).expect("a piece").1;
        rank = Some(r);
        chosen |= bit(sq);
        let target = reflected(origin, sq).expect("a reflected square");
        ctx.place(target, r, None);
        done += 1;
    }
    done > 0
}

/// Frozen text: the next summon this turn may use one enemy piece in its pattern (the War Summoner's
/// permission; the game applies it).
fn frostweave(ctx: &mut EffectContext, _step: &Step) -> bool {
    ctx.state_mut().counters.borrow_enemy_piece = true;
    true
}

/// Frozen text: may destroy one of your common pieces; may discard your flare (not invoked); doing both
/// gains an action.
fn winter_whisperer(ctx: &mut EffectContext, _step: &Step) -> bool {
    let p = ctx.player;
    let commons = ctx.state().pieces[p][COMMON as usize];
    let destroyed = ctx
        .choose_square(Kind::Destroy, commons, true, "your common piece to destroy")
        .is_some_and(|sq| ctx.destroy(sq, true).is_some());
    let flares: Vec<Opt> = ctx.state().flare_hand[p].iter().map(|&f| Opt::Flare(f)).collect();
    let thrown = match ctx.choose(Kind::Card, flares, true, "flare to discard") {
        Some(Opt::Flare(f)) => {
            let cause = ctx.card_id;
            let s = ctx.state_mut();
            remove_first(&mut s.flare_hand[p], f);
            s.flare_discard.push(f);
            s.record.add(Event::ToDiscard {
                turn: s.turn,
                seat: p as i8,
                card: s.cards.flare(f).id,
                cause,
            });
            true
        }
        _ => false,
    };
    if destroyed && thrown {
        ctx.gain_actions(1);
    }
    destroyed || thrown
}

/// May take a card with a frozen text from your discard pile and make it your frozen effect in play; the
/// one in play, if any, goes to the discard pile.
fn frozen_chest(ctx: &mut EffectContext, _step: &Step) -> bool {
    let p = ctx.player;
    let s = ctx.state();
    let options: Vec<Opt> = s.discarded[p]
        .iter()
        .filter(|&&c| s.cards.being(c).frozen.is_some())
        .map(|&c| Opt::Being(c))
        .collect();
    let prompt = "card from your discard pile to put into play as your frozen effect";
    let Some(Opt::Being(card)) = ctx.choose(Kind::Card, options, true, prompt) else {
        return false;
    };
    let cause = ctx.card_id;
    let s = ctx.state_mut();
    remove_first(&mut s.discarded[p], card);
    if let Some(old) = s.frozen[p].take() {
        everfrost::to_discard(s, p, old, cause);
    }
    everfrost::set_frozen(s, p, card, cause);
    true
}

/// If the summoning destroyed an enemy piece, may downgrade the Sentinel: every other player's next turn
/// then has 1 action.
fn sentinel(ctx: &mut EffectContext, _step: &Step) -> bool {
    if summon_took(ctx).is_none_or(|(owner, _)| owner == ctx.player) {
        return false;
    }
    let Some(me) = ctx.self_sq else { return false };
    let prompt = "downgrade the Sentinel: the opponents' next turn has 1 action";
    if ctx
        .choose_square(Kind::Downgrade, bit(me), true, prompt)
        .is_none()
        || !ctx.downgrade(me)
    {
        return false;
    }
    let (p, cause) = (ctx.player, ctx.card_id);
    everfrost::cut_actions(ctx.state_mut(), p, cause);
    true
}

/// May make any number of combat moves along one indicated direction (one decision: the last square);
/// having moved, may go one square further onto a legendary piece, destroying it and the Giant.
fn glacier_giant(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let mut options = Vec::new();
    let mut paths = Vec::new();
    for d in indicated_directions(ctx) {
        for i in 0..path_len(ctx, me, d, MoveKind::Combat) {
            options.push((me, board::ray(me, d)[i]));
            paths.push((d, i + 1));
        }
    }
    let prompt = "last square of the Giant's combat moves";
    let Some(choice) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
        return false;
    };
    let (d, n) = paths[options.iter().position(|&o| o == choice).expect("a listed move")];
    slide(ctx, me, d, n);
    let (Some(at), Some(&beyond)) = (ctx.self_sq, board::ray(me, d).get(n)) else {
        return true;
    };
    if ctx.piece_at(beyond).is_some_and(|(_, r)| r == LEGENDARY) {
        let prompt = "legendary piece to crush (the Giant is destroyed too)";
        if ctx
            .choose_square(Kind::Destroy, bit(beyond), true, prompt)
            .is_some()
        {
            ctx.destroy(beyond, true);
            ctx.destroy(at, true);
        }
    }
    true
}

/// May make a combat move; if it destroyed a piece, a standard move; if that destroyed a piece too, a
/// move onto an empty square.
fn polar_bear(ctx: &mut EffectContext, _step: &Step) -> bool {
    let steps = [
        (MoveKind::Combat, false, "combat move with the Polar Bear"),
        (MoveKind::Standard, false, "standard move with the Polar Bear"),
        (MoveKind::Standard, true, "move onto an empty square with the Polar Bear"),
    ];
    let mut done = false;
    for (kind, empty_only, prompt) in steps {
        let Some(me) = ctx.self_sq else { break };
        let moves: Vec<_> = ctx
            .move_targets(me, kind, None, empty_only)
            .into_iter()
            .map(|d| (me, d))
            .collect();
        let Some((_, _, took)) = ctx.optional_move(&moves, prompt) else {
            break;
        };
        done = true;
        if took.is_none() {
            break;
        }
    }
    done
}

/// Up to 3 combat moves: the first along an indicated direction, each later one in a direction at most
/// 45 degrees from the one before.
fn war_sled(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut directions = indicated_directions(ctx);
    let mut made = 0;
    for _ in 0..3 {
        let Some(me) = ctx.self_sq else { break };
        let options: Vec<_> = directions
            .iter()
            .filter_map(|&d| ctx.ray_targets(me, d, MoveKind::Combat))
            .map(|dst| (me, dst))
            .collect();
        let Some((src, dst, _)) = ctx.optional_move(&options, "combat move with the War Sled")
        else {
            break;
        };
        let d = board::direction_between(src, dst).expect("a move to a neighbour square");
        directions = vec![(d + 7) % 8, d, (d + 1) % 8];
        made += 1;
    }
    made > 0
}

/// Destroy every enemy common piece within distance 2 of the Monster that is next to one of your pieces.
fn snow_monster(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let near_mine = around(ctx.state().mine(ctx.player));
    let targets = board::WITHIN[2][me as usize] & ctx.enemy_pieces()[COMMON as usize] & near_mine;
    for sq in board::bits(targets) {
        ctx.destroy(sq, true);
    }
    targets != 0
}

/// May pick a common piece (any colour) next to the Imp and a direction: it makes as many standard moves
/// in that direction as it can (one decision: the piece and its last square).
fn frost_imp(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let commons = ctx.rank_mask(&[COMMON], Owner::Any) & board::ADJACENT[me as usize];
    let mut options = Vec::new();
    let mut paths = Vec::new();
    for src in board::bits(commons) {
        for d in 0..8 {
            let n = path_len(ctx, src, d, MoveKind::Standard);
            if n > 0 {
                options.push((src, board::ray(src, d)[n - 1]));
                paths.push((d, n));
            }
        }
    }
    let prompt = "adjacent common piece and the square where its slide ends";
    let Some(choice) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
        return false;
    };
    let (d, n) = paths[options.iter().position(|&o| o == choice).expect("a listed move")];
    slide(ctx, choice.0, d, n);
    true
}

/// May make a combat leap anywhere; if the leap destroyed a piece, the Wyvern is destroyed too.
fn ice_wyvern(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let moves: Vec<_> = ctx
        .move_targets(me, MoveKind::Combat, Some(board::ARENA), false)
        .into_iter()
        .map(|d| (me, d))
        .collect();
    let Some((a, b)) = ctx.choose_move(Kind::Leap, &moves, true, "combat leap anywhere") else {
        return false;
    };
    if ctx.move_piece(a, b).is_some() {
        if let Some(at) = ctx.self_sq {
            ctx.destroy(at, true);
        }
    }
    true
}

/// Frozen text: place one of your common pieces on an empty square next to one of your heroic pieces
/// (legendary ones do not count).
fn ice_wyvern_frozen(ctx: &mut EffectContext, _step: &Step) -> bool {
    let p = ctx.player;
    let s = ctx.state();
    if !s.can_have_piece(p, COMMON) {
        return false;
    }
    let squares = around(s.pieces[p][HEROIC as usize]) & s.empty();
    let prompt = "empty square next to one of your heroic pieces";
    match ctx.choose_square(Kind::Place, squares, false, prompt) {
        Some(sq) => ctx.place_common(sq),
        None => false,
    }
}

/// May destroy an adjacent piece (a heroic one only with another of your pieces next to it, a legendary
/// one with 3), which is removed from the game; an enemy piece counts as two destroyed.
fn deathbringer(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let s = ctx.state();
    let mine = s.mine(ctx.player) & !bit(me);
    let targets = board::bits(board::ADJACENT[me as usize] & s.occupied())
        .filter(|&sq| {
            let helpers = (board::ADJACENT[sq as usize] & mine).count_ones();
            match s.piece_at(sq).expect("a piece").1 {
                COMMON => true,
                HEROIC => helpers >= 1,
                _ => helpers >= 3,
            }
        })
        .fold(0, |m, sq| m | bit(sq));
    let prompt = "adjacent piece to remove from the game";
    let Some(sq) = ctx.choose_square(Kind::Destroy, targets, true, prompt) else {
        return false;
    };
    let Some((owner, rank)) = ctx.destroy(sq, true) else {
        return false;
    };
    let cause = ctx.card_id;
    everfrost::remove_from_game(ctx.state_mut(), sq, owner, rank, cause);
    true
}

/// The Illusionist's own piece goes back to your stock and a common piece of an enemy colour (a melee:
/// the player's choice among those with one in stock) takes its square; nothing happens when no enemy
/// has a common piece in stock.
fn illusionist(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let colours: Vec<Opt> = ctx
        .opponents()
        .into_iter()
        .filter(|&q| ctx.state().can_have_piece(q, COMMON))
        .map(|q| Opt::Seat(q as u8))
        .collect();
    let q = match colours.as_slice() {
        [] => return false,
        [Opt::Seat(q)] => *q as usize,
        _ => match ctx.choose(Kind::EnemyColour, colours, false, "enemy colour for the piece") {
            Some(Opt::Seat(q)) => q as usize,
            _ => unreachable!("seat options"),
        },
    };
    ctx.destroy(me, false);
    ctx.place(me, COMMON, Some(q))
}
