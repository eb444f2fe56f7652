//! Effect functions of the Etherweave cards that the step vocabulary cannot say (normal and warp texts;
//! the deck's rules are in `crate::etherweave`, its decisions in docs/cards-etherweave.md).

use super::context::EffectContext;
use super::interpreter::run_steps;
use super::steps::{MoveKind, Step};
use super::Registry;
use crate::board::{self, bit, Bits, Square, ADJACENT};
use crate::cards::BeingId;
use crate::decisions::{Kind, Opt};
use crate::etherweave::{self as ew, COLOURLESS};
use crate::game::remove_first;
use crate::patterns::transform;
use crate::ranks::{COMMON, HEROIC, LEGENDARY};
use crate::record::Event;

/// Add this module's functions to the registry.
pub fn register(table: &mut Registry) {
    table.push(("etherweave.doppelganger", doppelganger));
    table.push(("etherweave.paradox_worm", paradox_worm));
    table.push(("etherweave.paradox_worm_warp", paradox_worm_warp));
    table.push(("etherweave.lesser_shadow_twin", lesser_shadow_twin));
    table.push(("etherweave.translocationist", translocationist));
    table.push(("etherweave.antimatter_spirit_warp", antimatter_spirit_warp));
    table.push(("etherweave.merchant_of_time", merchant_of_time));
    table.push(("etherweave.merchant_of_time_warp", merchant_of_time_warp));
    table.push(("etherweave.extra_destruction", extra_destruction));
    table.push(("etherweave.discard_top_to_deck", discard_top_to_deck));
    table.push(("etherweave.greater_shadow_twin", greater_shadow_twin));
    table.push(("etherweave.warpmaster", warpmaster));
    table.push(("etherweave.dark_sphere", dark_sphere));
    table.push(("etherweave.void_summoning", void_summoning));
    table.push(("etherweave.eternal_emperor", eternal_emperor));
    table.push(("etherweave.eternal_emperor_warp", eternal_emperor_warp));
    table.push(("etherweave.reality_patch", reality_patch));
    table.push(("etherweave.polarity_queen", polarity_queen));
    table.push(("etherweave.singularity", singularity));
    table.push(("etherweave.ziggurat_sentinel", ziggurat_sentinel));
    table.push(("etherweave.ziggurat_sentinel_warp", ziggurat_sentinel_warp));
    table.push(("etherweave.iris_of_eternity", iris_of_eternity));
}

const LESSER_TWIN: &str = "etherweave/lesser-shadow-twin";
const GREATER_TWIN: &str = "etherweave/greater-shadow-twin";

// ----- helpers
/// Run `source`'s warp text as part of this effect (a copy: nothing becomes pending).
fn copy_warp(ctx: &mut EffectContext<'_, '_>, source: BeingId) -> bool {
    let cards = std::sync::Arc::clone(&ctx.state().cards);
    let b = cards.being(source);
    let Some(steps) = ew::copyable_warp(b) else {
        return false;
    };
    let (seat, card) = (ctx.player as i8, ctx.card_id);
    let s = ctx.state_mut();
    s.record.add(Event::CopyWarp {
        turn: s.turn,
        seat,
        card,
        source: b.id,
    });
    run_steps(ctx, steps);
    true
}

/// Exchange the pieces on `a` and `b`, keeping track of the being and the pattern pieces.
fn swap(ctx: &mut EffectContext<'_, '_>, a: Square, b: Square) {
    let cause = ctx.card_id;
    ew::swap(ctx.state_mut(), a, b, cause);
    let flip = |x: Square| {
        if x == a {
            b
        } else if x == b {
            a
        } else {
            x
        }
    };
    ctx.self_sq = ctx.self_sq.map(flip);
    for q in ctx.pattern_sqs.iter_mut() {
        *q = flip(*q);
    }
}

/// The player's pending being may be discarded (optional): it leaves the hand for the discard pile.
fn may_discard_pending(ctx: &mut EffectContext<'_, '_>) -> bool {
    let p = ctx.player;
    let Some(card) = ctx.state().pending[p] else {
        return false;
    };
    if ew::is_merchant(ctx.state().cards.being(card)) {
        return false;
    }
    if ctx
        .choose(
            Kind::Card,
            vec![Opt::Being(card)],
            true,
            "discard your pending being?",
        )
        .is_none()
    {
        return false;
    }
    let s = ctx.state_mut();
    ew::end_pending(s, p, "discard");
    remove_first(&mut s.hand[p], card);
    s.discarded[p].push(card);
    s.record.add(Event::Discard {
        turn: s.turn,
        seat: p as i8,
        card: s.cards.being(card).id,
    });
    true
}

/// The non-legendary pieces of the player.
fn own_non_legendary(ctx: &EffectContext<'_, '_>) -> Bits {
    let bb = &ctx.state().pieces[ctx.player];
    bb[0] | bb[1]
}

fn in_discard(ctx: &EffectContext<'_, '_>, id: &str) -> bool {
    let s = ctx.state();
    s.discarded[ctx.player]
        .iter()
        .any(|&c| s.cards.being(c).id == id)
}

/// Moves of `kind` for the pieces of `sources` to adjacent squares: (from, to).
fn moves_of(ctx: &EffectContext<'_, '_>, sources: Bits, kind: MoveKind) -> Vec<(Square, Square)> {
    board::bits(sources)
        .flat_map(|src| {
            ctx.move_targets(src, kind, None, false)
                .into_iter()
                .map(move |dst| (src, dst))
        })
        .collect()
}

/// One label of `labels` (those offered), or None when the player passes (`optional`).
fn branch(
    ctx: &mut EffectContext<'_, '_>,
    labels: &[&'static str],
    optional: bool,
    prompt: &'static str,
) -> Option<&'static str> {
    let options = labels.iter().map(|&l| Opt::Label(l)).collect();
    match ctx.choose(Kind::Branch, options, optional, prompt)? {
        Opt::Label(l) => Some(l),
        o => panic!("expected a label, got {o:?}"),
    }
}

// ----- Doppelganger
/// Performs the warp text of the player's pending being (never Merchant of Time's).
fn doppelganger(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    match ctx.state().pending[ctx.player] {
        Some(card) => copy_warp(ctx, card),
        None => false,
    }
}

// ----- Paradox Worm
/// May swap a non-legendary piece of yours with an enemy piece of the same rank.
fn paradox_worm(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let mine = ctx.state().pieces[ctx.player];
    let enemy = ctx.enemy_pieces();
    let mut options = Vec::new();
    for rank in [COMMON, HEROIC] {
        for a in board::bits(mine[rank as usize]) {
            for b in board::bits(enemy[rank as usize]) {
                options.push(Opt::Move(a, b));
            }
        }
    }
    match ctx.choose(
        Kind::Swap,
        options,
        true,
        "your piece and the enemy piece of its rank to swap",
    ) {
        Some(Opt::Move(a, b)) => {
            swap(ctx, a, b);
            true
        }
        _ => false,
    }
}

/// Upgrade one enemy common piece; then the pending being may be discarded.
fn paradox_worm_warp(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let commons = ctx.enemy_pieces()[0];
    let mut done = false;
    if let Some(sq) = ctx.choose_square(
        Kind::Upgrade,
        commons,
        false,
        "enemy common piece to upgrade",
    ) {
        done = ctx.upgrade(sq);
    }
    may_discard_pending(ctx) || done
}

// ----- Shadow Twins
/// If Greater Shadow Twin is in your discard pile: choose one of your pieces, destroy up to 2 common
/// pieces (any colour) next to it.
fn lesser_shadow_twin(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    if !in_discard(ctx, GREATER_TWIN) {
        return false;
    }
    let commons = ctx.state().all_pieces()[0];
    let centres: Bits = board::bits(ctx.state().mine(ctx.player))
        .filter(|&q| ADJACENT[q as usize] & commons != 0)
        .fold(0, |m, q| m | bit(q));
    let Some(centre) = ctx.choose_square(
        Kind::Piece,
        centres,
        true,
        "your piece next to the commons to destroy",
    ) else {
        return false;
    };
    let mut done = false;
    for _ in 0..2 {
        let around = ADJACENT[centre as usize] & ctx.state().all_pieces()[0];
        let Some(sq) = ctx.choose_square(Kind::Destroy, around, true, "common piece to destroy")
        else {
            break;
        };
        done |= ctx.destroy(sq, true).is_some();
    }
    done
}

/// If Lesser Shadow Twin is in your discard pile: may destroy one heroic piece next to 2 or more of
/// your pieces.
fn greater_shadow_twin(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    if !in_discard(ctx, LESSER_TWIN) {
        return false;
    }
    let s = ctx.state();
    let mine = s.mine(ctx.player);
    let targets = board::bits(s.all_pieces()[1])
        .filter(|&q| (ADJACENT[q as usize] & mine).count_ones() >= 2)
        .fold(0, |m, q| m | bit(q));
    match ctx.choose_square(Kind::Destroy, targets, true, "heroic piece to destroy") {
        Some(sq) => ctx.destroy(sq, true).is_some(),
        None => false,
    }
}

// ----- Translocationist
/// Up to 2 swaps, each of a heroic piece of yours with a common piece of yours.
fn translocationist(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let mut done = false;
    for _ in 0..2 {
        let bb = ctx.state().pieces[ctx.player];
        let options: Vec<Opt> = board::bits(bb[1])
            .flat_map(|h| board::bits(bb[0]).map(move |c| Opt::Move(h, c)))
            .collect();
        let Some(Opt::Move(a, b)) = ctx.choose(
            Kind::Swap,
            options,
            true,
            "your heroic piece and your common piece to swap",
        ) else {
            break;
        };
        swap(ctx, a, b);
        done = true;
    }
    done
}

// ----- Antimatter Spirit
/// Whether a common piece may make a combat move onto `sq` (none there, or a common one).
fn common_may_enter(ctx: &EffectContext<'_, '_>, sq: Square) -> bool {
    ctx.piece_at(sq).is_none_or(|(_, r)| r == COMMON)
}

/// The opponents who could get a common piece for the second placement if the first move ended on
/// `dst`: an opponent with one in stock, or the owner of an enemy common destroyed there.
fn enemy_commons_for(ctx: &EffectContext<'_, '_>, dst: Square) -> Vec<usize> {
    let s = ctx.state();
    let freed = match s.piece_at(dst) {
        Some((o, COMMON)) if o != ctx.player => Some(o),
        _ => None,
    };
    ctx.opponents()
        .into_iter()
        .filter(|&q| s.tokens[q] > 0 || freed == Some(q))
        .collect()
}

/// The directions `d` from the empty square `start` for which the linked effect can be done in full.
fn antimatter_directions(ctx: &EffectContext<'_, '_>, start: Square) -> Vec<u8> {
    (0..8u8)
        .filter(|&d| {
            let (dx, dy) = board::DIRECTIONS[d as usize];
            let (Some(t), Some(u)) = (board::offset(start, dx, dy), board::offset(start, -dx, -dy))
            else {
                return false;
            };
            common_may_enter(ctx, t)
                && common_may_enter(ctx, u)
                && !enemy_commons_for(ctx, t).is_empty()
        })
        .collect()
}

/// Linked: your common on an empty colourless square makes a combat move; an enemy common placed on the
/// square left empty makes a combat move the opposite way. Offered only where all of it can be done.
fn antimatter_spirit_warp(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let p = ctx.player;
    if !ctx.state().can_have_piece(p, COMMON) {
        return false;
    }
    let starts = board::bits(COLOURLESS & ctx.state().empty())
        .filter(|&q| !antimatter_directions(ctx, q).is_empty())
        .fold(0, |m, q| m | bit(q));
    let Some(start) = ctx.choose_square(
        Kind::Place,
        starts,
        false,
        "empty colourless square for your common piece",
    ) else {
        return false;
    };
    let moves: Vec<(Square, Square)> = antimatter_directions(ctx, start)
        .into_iter()
        .map(|d| {
            let (dx, dy) = board::DIRECTIONS[d as usize];
            (start, board::offset(start, dx, dy).expect("on the arena"))
        })
        .collect();
    ctx.place_common(start);
    let (_, dst) = ctx
        .choose_move(
            Kind::Move,
            &moves,
            false,
            "combat move of your common piece",
        )
        .expect("a move");
    ctx.move_piece(start, dst);
    let colours: Vec<Opt> = ctx
        .opponents()
        .into_iter()
        .filter(|&q| ctx.state().tokens[q] > 0)
        .map(|q| Opt::Seat(q as u8))
        .collect();
    let Some(Opt::Seat(q)) = ctx.choose(
        Kind::EnemyColour,
        colours,
        false,
        "colour of the enemy common piece",
    ) else {
        return true;
    };
    ctx.place(start, COMMON, Some(q as usize));
    let (dx, dy) =
        board::DIRECTIONS[board::direction_between(start, dst).expect("adjacent") as usize];
    let back = board::offset(start, -dx, -dy).expect("on the arena");
    ctx.move_piece(start, back);
    true
}

// ----- Merchant of Time
/// Lift a piece of any colour and rank off a colourless square onto the card (stasis).
fn merchant_of_time_warp(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let p = ctx.player;
    if ctx.state().stasis[p].is_some() {
        return false;
    }
    let targets = COLOURLESS & ctx.state().occupied();
    let Some(sq) = ctx.choose_square(
        Kind::Piece,
        targets,
        false,
        "piece to put on the Merchant of Time",
    ) else {
        return false;
    };
    let cause = ctx.card_id;
    ew::put_in_stasis(ctx.state_mut(), p, sq, cause);
    if ctx.self_sq == Some(sq) {
        ctx.self_sq = None;
    }
    ctx.pattern_sqs.retain(|&q| q != sq);
    true
}

/// The piece on the card leaps to a colourless square, empty or holding a piece of lower rank (destroyed);
/// with no such square it stays on the card.
fn merchant_of_time(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let p = ctx.player;
    let Some((_, rank)) = ctx.state().stasis[p] else {
        return false;
    };
    let s = ctx.state();
    let targets = board::bits(COLOURLESS)
        .filter(|&q| s.piece_at(q).is_none_or(|(_, r)| r < rank))
        .fold(0, |m, q| m | bit(q));
    let Some(sq) = ctx.choose_square(
        Kind::Leap,
        targets,
        false,
        "colourless square for the piece on the Merchant",
    ) else {
        return false;
    };
    let cause = ctx.card_id;
    ew::release(ctx.state_mut(), p, sq, cause);
    if ctx.self_sq == Some(sq) {
        ctx.self_sq = None;
    }
    true
}

// ----- Gate of Oblivion, Time Traveler, Void Summoner
/// For the rest of the turn, each enemy piece destroyed counts once more.
fn extra_destruction(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    ctx.state_mut().warp_turn.extra_destruction += 1;
    true
}

/// The top card of your discard pile goes on top of your deck.
fn discard_top_to_deck(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let p = ctx.player;
    let s = ctx.state_mut();
    let Some(card) = s.discarded[p].pop() else {
        return false;
    };
    s.deck[p].push(card);
    s.record.add(Event::ToDeck {
        turn: s.turn,
        seat: p as i8,
        card: s.cards.being(card).id,
    });
    true
}

/// The next summoning this turn may count up to 2 empty squares as common pieces of yours.
fn void_summoning(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    ctx.state_mut().warp_turn.void_squares = 2;
    true
}

// ----- Warpmaster
/// Either return the pending being to the hand (it becomes an ordinary card), or a standard move of the
/// Warpmaster; optional.
fn warpmaster(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    const RETURN: &str = "return your pending being to your hand";
    const MOVE: &str = "standard move with the Warpmaster";
    let p = ctx.player;
    let returnable =
        ctx.state().pending[p].is_some_and(|c| !ew::is_merchant(ctx.state().cards.being(c)));
    let moves = match ctx.self_sq {
        Some(src) => moves_of(ctx, bit(src), MoveKind::Standard),
        None => Vec::new(),
    };
    let mut labels = Vec::new();
    if returnable {
        labels.push(RETURN);
    }
    if !moves.is_empty() {
        labels.push(MOVE);
    }
    match branch(ctx, &labels, true, "") {
        Some(RETURN) => {
            ew::end_pending(ctx.state_mut(), p, "to-hand");
            true
        }
        Some(_) => {
            let (a, b) = ctx
                .choose_move(
                    Kind::Move,
                    &moves,
                    false,
                    "standard move with the Warpmaster",
                )
                .expect("a move");
            ctx.move_piece(a, b);
            true
        }
        None => false,
    }
}

// ----- Dark Sphere
/// Up to 3 non-legendary pieces (any colours, at most 2 of one colour) each make a combat move that ends
/// at distance 2 from the Sphere.
fn dark_sphere(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(centre) = ctx.self_sq.or(ctx.origin) else {
        return false;
    };
    let ring = board::WITHIN[2][centre as usize] & !board::WITHIN[1][centre as usize];
    let mut moved: Bits = 0; // where the pieces that already moved stand
    let mut per_colour = [0u8; crate::state::MAX_SEATS];
    let mut done = false;
    for _ in 0..3 {
        let s = ctx.state();
        let mut sources: Bits = 0;
        for (q, bb) in s.pieces.iter().enumerate().take(s.seats) {
            if per_colour[q] < 2 {
                sources |= (bb[0] | bb[1]) & !moved;
            }
        }
        let options: Vec<(Square, Square)> = moves_of(ctx, sources, MoveKind::Combat)
            .into_iter()
            .filter(|&(_, d)| ring & bit(d) != 0)
            .collect();
        let Some((a, b)) = ctx.choose_move(
            Kind::Move,
            &options,
            true,
            "combat move ending 2 squares from the Sphere",
        ) else {
            break;
        };
        let q = ctx.piece_at(a).expect("a piece").0;
        ctx.move_piece(a, b);
        per_colour[q] += 1;
        moved = (moved & !bit(b)) | bit(b);
        done = true;
    }
    done
}

// ----- Eternal Emperor
/// Unless its warp text was played from hand this turn, the Emperor may perform it.
fn eternal_emperor(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    if ctx
        .being
        .is_some_and(|b| ctx.state().warp_turn.was_warped(b))
    {
        return false;
    }
    emperor(ctx, true)
}

fn eternal_emperor_warp(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    emperor(ctx, false)
}

/// Either place a common piece of yours on an empty square, or move one of your pieces (a combat move
/// if common, a standard move if upgraded).
fn emperor(ctx: &mut EffectContext<'_, '_>, optional: bool) -> bool {
    const PLACE: &str = "place a common piece";
    const MOVE: &str = "move one of your pieces";
    let p = ctx.player;
    let bb = ctx.state().pieces[p];
    let mut moves = moves_of(ctx, bb[0], MoveKind::Combat);
    moves.extend(moves_of(ctx, bb[1] | bb[2], MoveKind::Standard));
    moves.sort_unstable();
    let mut labels = Vec::new();
    let empty = ctx.state().empty();
    if ctx.state().can_have_piece(p, COMMON) && empty != 0 {
        labels.push(PLACE);
    }
    if !moves.is_empty() {
        labels.push(MOVE);
    }
    match branch(ctx, &labels, optional, "") {
        Some(PLACE) => {
            let sq = ctx
                .choose_square(
                    Kind::Place,
                    empty,
                    false,
                    "empty square for your common piece",
                )
                .expect("an empty square");
            ctx.place_common(sq)
        }
        Some(_) => {
            let (a, b) = ctx
                .choose_move(Kind::Move, &moves, false, "move of one of your pieces")
                .expect("a move");
            ctx.move_piece(a, b);
            true
        }
        None => false,
    }
}

// ----- Reality Patch
/// In each enemy colour, may destroy one heroic piece; may discard the pending being; may discard one
/// card of any kind from the hand (not the pending being).
fn reality_patch(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let mut done = ctx.for_each_enemy_colour(&mut |c| {
        let heroic = c.enemy_pieces()[1];
        match c.choose_square(Kind::Destroy, heroic, true, "enemy heroic piece to destroy") {
            Some(sq) => c.destroy(sq, true).is_some(),
            None => false,
        }
    });
    done |= may_discard_pending(ctx);
    let p = ctx.player;
    let s = ctx.state();
    let mut options: Vec<Opt> = s.hand[p]
        .iter()
        .filter(|&&c| s.pending[p] != Some(c))
        .chain(s.legend_hand[p].iter())
        .map(|&c| Opt::Being(c))
        .collect();
    options.extend(s.flare_hand[p].iter().map(|&f| Opt::Flare(f)));
    let choice = ctx.choose(Kind::Card, options, true, "card to discard from your hand");
    let s = ctx.state_mut();
    let id = match choice {
        Some(Opt::Being(b)) if s.cards.being(b).is_legend() => {
            remove_first(&mut s.legend_hand[p], b);
            s.legend_discard.push(b);
            s.cards.being(b).id
        }
        Some(Opt::Being(b)) => {
            remove_first(&mut s.hand[p], b);
            s.discarded[p].push(b);
            s.cards.being(b).id
        }
        Some(Opt::Flare(f)) => {
            remove_first(&mut s.flare_hand[p], f);
            s.flare_discard.push(f);
            s.cards.flare(f).id
        }
        _ => return done,
    };
    s.record.add(Event::Discard {
        turn: s.turn,
        seat: p as i8,
        card: id,
    });
    true
}

// ----- Polarity Queen
/// Whether the piece on `src` may make a combat move in direction `d` once the piece on `a` has moved
/// to `b` (`b` then holds a piece of rank `rb`).
fn second_move_ok(
    ctx: &EffectContext<'_, '_>,
    src: Square,
    d: u8,
    (a, b, rb): (Square, Square, u8),
) -> Option<Square> {
    let (dx, dy) = board::DIRECTIONS[d as usize];
    let t = board::offset(src, dx, dy)?;
    let rank = ctx.piece_at(src)?.1;
    let there = if t == a {
        None
    } else if t == b {
        Some(rb)
    } else {
        ctx.piece_at(t).map(|(_, r)| r)
    };
    there.is_none_or(|r| r <= rank).then_some(t)
}

/// Linked: two different non-legendary pieces of yours (not the Queen) each make a combat move, in
/// opposite directions. Only first moves that leave a second one possible are offered.
fn polarity_queen(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let queen = ctx.self_sq.map_or(0, bit);
    let pieces = own_non_legendary(ctx) & !queen;
    let seconds = |ctx: &EffectContext<'_, '_>, a: Square, b: Square| -> Vec<(Square, Square)> {
        let d = board::direction_between(a, b).expect("adjacent");
        let rb = ctx.piece_at(a).expect("a piece").1;
        let others = pieces & !bit(a) & !bit(b);
        board::bits(others)
            .filter_map(|src| second_move_ok(ctx, src, (d + 4) % 8, (a, b, rb)).map(|t| (src, t)))
            .collect()
    };
    let firsts: Vec<(Square, Square)> = moves_of(ctx, pieces, MoveKind::Combat)
        .into_iter()
        .filter(|&(a, b)| !seconds(ctx, a, b).is_empty())
        .collect();
    let Some((a, b)) = ctx.choose_move(Kind::Move, &firsts, false, "first combat move") else {
        return false;
    };
    let second = seconds(ctx, a, b);
    ctx.move_piece(a, b);
    let (c, d) = ctx
        .choose_move(
            Kind::Move,
            &second,
            false,
            "second combat move, the opposite way",
        )
        .expect("a second move");
    ctx.move_piece(c, d);
    true
}

// ----- Singularity
/// Choose an empty colourless square; every common piece next to it makes a combat move onto it, in the
/// order the player chooses (each destroys the one before).
fn singularity(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let commons = ctx.state().all_pieces()[0];
    let targets = board::bits(COLOURLESS & ctx.state().empty())
        .filter(|&q| ADJACENT[q as usize] & commons != 0)
        .fold(0, |m, q| m | bit(q));
    let Some(centre) = ctx.choose_square(
        Kind::Square,
        targets,
        false,
        "empty colourless square the commons move onto",
    ) else {
        return false;
    };
    let mut waiting = ADJACENT[centre as usize] & commons;
    while waiting != 0 {
        let moves: Vec<(Square, Square)> = board::bits(waiting).map(|q| (q, centre)).collect();
        let (a, b) = ctx
            .choose_move(
                Kind::Move,
                &moves,
                false,
                "next common to move onto the square",
            )
            .expect("a move");
        ctx.move_piece(a, b);
        waiting &= !bit(a);
    }
    true
}

// ----- Ziggurat Sentinel
/// Either copy the warp text of a card in your discard pile, or up to 3 combat moves of the Sentinel in
/// the marked direction; optional.
fn ziggurat_sentinel(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    const COPY: &str = "copy a warp text from your discard pile";
    const MOVE: &str = "combat moves in the marked direction";
    let p = ctx.player;
    let s = ctx.state();
    let mut sources: Vec<BeingId> = s.discarded[p]
        .iter()
        .copied()
        .filter(|&c| ew::copyable_warp(s.cards.being(c)).is_some())
        .collect();
    sources.sort_unstable();
    sources.dedup();
    let direction = ctx.placement.as_ref().and_then(|pl| {
        let &(mx, my) = s.cards.being(ctx.being?).pattern.marked.first()?;
        let (dx, dy) = transform(mx, my, pl.orientation);
        board::DIRECTIONS
            .iter()
            .position(|&d| d == (dx, dy))
            .map(|i| i as u8)
    });
    let first_move = match (ctx.self_sq, direction) {
        (Some(sq), Some(d)) => ctx.ray_targets(sq, d, MoveKind::Combat),
        _ => None,
    };
    let mut labels = Vec::new();
    if !sources.is_empty() {
        labels.push(COPY);
    }
    if first_move.is_some() {
        labels.push(MOVE);
    }
    match branch(ctx, &labels, true, "") {
        Some(COPY) => {
            let options = sources.into_iter().map(Opt::Being).collect();
            let Some(Opt::Being(card)) = ctx.choose(
                Kind::Card,
                options,
                false,
                "card of your discard pile whose warp text to copy",
            ) else {
                return false;
            };
            copy_warp(ctx, card)
        }
        Some(_) => {
            let d = direction.expect("a direction");
            let mut done = false;
            for _ in 0..3 {
                let Some(src) = ctx.self_sq else { break };
                let Some(dst) = ctx.ray_targets(src, d, MoveKind::Combat) else {
                    break;
                };
                // the first move was chosen with the branch; the next ones may stop
                if done
                    && ctx
                        .choose_move(Kind::Move, &[(src, dst)], true, "another combat move")
                        .is_none()
                {
                    break;
                }
                ctx.move_piece(src, dst);
                done = true;
            }
            done
        }
        None => false,
    }
}

/// One non-legendary piece of yours makes a combat move; the same piece may then make a standard move,
/// unless the first move destroyed a piece of its own rank.
fn ziggurat_sentinel_warp(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let firsts = moves_of(ctx, own_non_legendary(ctx), MoveKind::Combat);
    let Some((a, b)) = ctx.choose_move(Kind::Move, &firsts, false, "combat move") else {
        return false;
    };
    let rank = ctx.piece_at(a).expect("a piece").1;
    let destroyed = ctx.move_piece(a, b);
    if destroyed.is_some_and(|(_, r)| r == rank) {
        return true;
    }
    let seconds = moves_of(ctx, bit(b), MoveKind::Standard);
    if let Some((c, d)) = ctx.choose_move(Kind::Move, &seconds, true, "second move, a standard one")
    {
        ctx.move_piece(c, d);
    }
    true
}

// ----- Iris of Eternity
/// Either destroy an adjacent legendary piece, or upgrade the Iris; optional. An Iris made legendary is
/// a legend summoned this turn (its point, the task's summon), and the legend cards in hand are discarded.
fn iris_of_eternity(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    const DESTROY: &str = "destroy an adjacent legendary piece";
    const UPGRADE: &str = "upgrade the Iris";
    let p = ctx.player;
    let Some(iris) = ctx.self_sq else {
        return false;
    };
    let legends = ADJACENT[iris as usize] & ctx.state().all_pieces()[2];
    let rank = ctx.piece_at(iris).expect("the Iris").1;
    let can_upgrade =
        rank == COMMON || (rank == HEROIC && ctx.state().can_have_piece(p, LEGENDARY));
    let mut labels = Vec::new();
    if legends != 0 {
        labels.push(DESTROY);
    }
    if can_upgrade {
        labels.push(UPGRADE);
    }
    match branch(ctx, &labels, true, "") {
        Some(DESTROY) => {
            let sq = ctx
                .choose_square(Kind::Destroy, legends, false, "legendary piece to destroy")
                .expect("a legendary piece");
            ctx.destroy(sq, true).is_some()
        }
        Some(_) => {
            if !ctx.upgrade(iris) || ctx.piece_at(iris) != Some((p, LEGENDARY)) {
                return true;
            }
            legend_by_upgrade(ctx, iris);
            true
        }
        None => false,
    }
}

/// A being made legendary by its own effect counts as a legend summoned this turn: the summon's entry
/// becomes legendary (not an extra summon), the legend point is scored, the legend cards in hand go.
fn legend_by_upgrade(ctx: &mut EffectContext<'_, '_>, sq: Square) {
    let p = ctx.player;
    let origin = ctx.origin;
    let s = ctx.state_mut();
    if let Some(entry) = s
        .counters
        .summoned
        .iter_mut()
        .rev()
        .find(|e| Some(e.0) == origin)
    {
        entry.1 = LEGENDARY;
    } else {
        s.counters.summoned.push((sq, LEGENDARY));
    }
    if s.melee() {
        let options: Vec<Opt> = s.opponents(p).map(|c| Opt::Seat(c as u8)).collect();
        if let Some(Opt::Seat(c)) = ctx.choose(
            Kind::LegendColour,
            options,
            false,
            "colour to score the legend's point in",
        ) {
            ctx.state_mut()
                .score_in_colour(p, c as usize, "legend-summon", 1);
        }
    } else if s.mode == crate::state::Mode::Deathmatch {
        s.dm_points[p] += 1;
        s.record.points(s.turn, p, "legend-summon", 1);
    }
    let s = ctx.state_mut();
    let hand = std::mem::take(&mut s.legend_hand[p]);
    for card in hand {
        s.legend_discard.push(card);
        s.record.add(Event::Discard {
            turn: s.turn,
            seat: p as i8,
            card: s.cards.being(card).id,
        });
    }
}

#[cfg(test)]
#[path = "etherweave_tests.rs"]
mod tests;
