//! The Etherweave deck's rules (../shared/EXPANSIONS.md, "Etherweave"; docs/cards-etherweave.md): warp
//! effects played from hand as free plays, the pending being (it stays in its owner's hand, the Board Game
//! Arena implementation's choice), the causality penalty, colourless squares, Time Traveler's summoning
//! anywhere, void summoning, Gate of Oblivion's extra destruction count, swaps and stasis (Merchant of
//! Time). The cards' own effects are in `effects/etherweave.rs`.

use std::sync::Arc;

use crate::board::{self, bit, Bits, Square};
use crate::cards::{Being, BeingId};
use crate::decisions::{Action, Kind, Opt};
use crate::effects::context::EffectContext;
use crate::effects::interpreter::run_steps;
use crate::effects::steps::{Op, Step};
use crate::game::Game;
use crate::patterns::Placement;
use crate::ranks::LEGENDARY;
use crate::record::{Event, Id};
use crate::state::{GameState, Mode, Piece, MAX_SEATS};

/// The 60 squares that are neither red nor green.
pub const COLOURLESS: Bits = board::ARENA & !board::RED & !board::GREEN;

/// Card effects of the active player that last until the end of the turn (cleared at every turn start).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarpTurn {
    /// Void Summoner: empty squares the next summoning may count as the player's common pieces.
    pub void_squares: u8,
    /// Gate of Oblivion's warp: how many times each enemy piece destroyed counts once more.
    pub extra_destruction: i32,
    /// The beings whose warp text was played from hand this turn (bit `BeingId`; Eternal Emperor).
    pub warped: u128,
}

impl WarpTurn {
    pub fn was_warped(&self, card: BeingId) -> bool {
        card.0 < 128 && self.warped >> card.0 & 1 != 0
    }
}

/// The custom function whose warp text may never be copied, discarded or returned once pending.
pub const MERCHANT_WARP: &str = "etherweave.merchant_of_time_warp";

/// Whether `being`'s warp text is Merchant of Time's (it cannot be copied; pending, it stays pending).
pub fn is_merchant(being: &Being) -> bool {
    being.warp.as_ref().is_some_and(|w| {
        w.iter()
            .any(|st| matches!(st.op, Op::Custom { name, .. } if name == MERCHANT_WARP))
    })
}

/// The warp text another card may copy from `being`, if any.
pub fn copyable_warp(being: &Being) -> Option<&[Step]> {
    if is_merchant(being) {
        return None;
    }
    being.warp.as_deref()
}

/// Whether the first round of the game is over (warps from hand are refused until then).
fn after_first_round(s: &GameState) -> bool {
    s.turn > s.players() as u32
}

// ----- the free play
/// The warp options of the action decision: one per card of the hand with a warp text, when the first
/// round is over and the player has no pending being. (With no action left, the action decision adds
/// `End` after them.)
pub fn warp_options(game: &Game, p: usize, out: &mut Vec<Opt>) {
    let s = &game.state;
    if s.pending[p].is_some() || !after_first_round(s) || p != s.active {
        return;
    }
    for &card in &s.hand[p] {
        if s.cards.being(card).warp.is_some() && !out.contains(&Opt::Action(Action::Warp(card))) {
            out.push(Opt::Action(Action::Warp(card)));
        }
    }
}

/// Play `card`'s warp text from hand: the card becomes the pending being, then the text resolves. It
/// costs no action.
pub fn play_warp(game: &mut Game, p: usize, card: BeingId) {
    let cards = Arc::clone(&game.state.cards);
    let being = cards.being(card);
    let s = &mut game.state;
    assert!(
        s.pending[p].is_none() && s.hand[p].contains(&card),
        "warp of {}",
        being.id
    );
    s.pending[p] = Some(card);
    if card.0 < 128 {
        s.warp_turn.warped |= 1 << card.0;
    }
    s.record.add(Event::Warp {
        turn: s.turn,
        seat: p as i8,
        card: being.id,
    });
    set_resolving(game, Some(being.id));
    let mut ctx = EffectContext::new(game, p, being.id, Some(card), None);
    run_steps(&mut ctx, being.warp.as_deref().unwrap_or(&[]));
    set_resolving(game, None);
}

fn set_resolving(game: &mut Game, card: Option<Id>) {
    if let Some(t) = game.state.teams.as_deref_mut() {
        t.resolving = card;
    }
}

/// A summoning starts: the summoned card stops being pending; void summoning is used up.
pub fn summon_starts(s: &mut GameState, p: usize, card: BeingId) {
    if s.pending[p] == Some(card) {
        end_pending(s, p, "summon");
    }
    if p == s.active {
        s.warp_turn.void_squares = 0;
    }
}

/// `p`'s pending being stops being pending (it stays where it is: the caller moves it if need be).
pub fn end_pending(s: &mut GameState, p: usize, reason: Id) {
    let card = s.pending[p].take().expect("a pending being");
    s.record.add(Event::PendingEnd {
        turn: s.turn,
        seat: p as i8,
        card: s.cards.being(card).id,
        reason,
    });
}

// ----- the causality penalty
/// How many of side `p`'s players hold a pending being (a team's benched member too).
fn pending_count(s: &GameState, p: usize) -> i32 {
    let bench = s
        .teams
        .as_deref()
        .is_some_and(|t| t.bench[p].pending.is_some());
    s.pending[p].is_some() as i32 + bench as i32
}

/// The score the end-of-turn trigger check compares: the best score (melee: colour score), each
/// player's lowered by 2 per pending being.
pub fn end_check_score(s: &GameState) -> i32 {
    if (0..s.seats).all(|p| pending_count(s, p) == 0) {
        return s.best_score();
    }
    let penalty = |p| 2 * pending_count(s, p);
    if s.melee() {
        (0..s.seats)
            .flat_map(|p| s.opponents(p).map(move |c| (p, c)))
            .map(|(p, c)| s.colour_points[p][c] - penalty(p))
            .max()
            .unwrap_or(0)
    } else {
        (0..s.seats)
            .map(|p| s.score(p) - penalty(p))
            .max()
            .unwrap_or(0)
    }
}

/// At the end of the game, every player with a pending being loses 2 points (in a melee, in each colour).
pub fn apply_causality(s: &mut GameState) {
    for p in 0..s.seats {
        for _ in 0..pending_count(s, p) {
            if s.melee() {
                let colours: Vec<usize> = s.opponents(p).collect();
                for c in colours {
                    s.score_in_colour(p, c, "causality", -2);
                }
                continue;
            }
            match s.mode {
                Mode::Deathmatch => s.dm_points[p] -= 2,
                Mode::HighForm => {
                    // Points outside the claimed tasks, as a scenario's are.
                    s.task_points[p] -= 2;
                    s.unnamed_task_points[p] -= 2;
                }
            }
            s.record.points(s.turn, p, "causality", -2);
        }
    }
}

// ----- placements: void summoning and Time Traveler
/// The legal placements of `card` when an Etherweave rule changes them (void summoning, a being summoned
/// anywhere); None when the ordinary search applies.
pub fn placements(game: &Game, p: usize, card: BeingId) -> Option<Vec<u16>> {
    let s = &game.state;
    let being = s.cards.being(card);
    let void = if p == s.active {
        s.warp_turn.void_squares
    } else {
        0
    };
    if void == 0 && !being.summon_anywhere {
        return None;
    }
    if being.summon_anywhere && COLOURLESS & s.empty() == 0 {
        return Some(Vec::new());
    }
    Some(
        (0..being.placements.len() as u16)
            .filter(|&i| placement_ok(game, p, being, &being.placements[i as usize], void))
            .collect(),
    )
}

fn placement_ok(game: &Game, p: usize, being: &Being, pl: &Placement, void: u8) -> bool {
    if !being.summon_anywhere {
        return game.placement_ok(p, being, pl, void);
    }
    // The being goes on an empty colourless square; the pattern's pieces stay. Its piece comes from the
    // stock, else from the player's pieces off the pattern (as `Game::summon` takes it).
    let s = &game.state;
    let spare = s.of_ranks(p, GameState::take_back_ranks(being.rank)) & !pl.need_any;
    game.pattern_filled(p, pl, void) && (s.can_have_piece(p, being.rank) || spare != 0)
}

/// Time Traveler: the player picks the empty colourless square the being goes on; the placement given
/// to the effect has that square as its summoning square (the pattern's pieces stay where they are).
pub fn anywhere_placement(game: &mut Game, p: usize, being: &Being, pl: u16) -> Placement {
    let mut placement = being.placements[pl as usize].clone();
    let empty = COLOURLESS & game.state.empty();
    let sq = game.ask_square(
        p,
        Kind::Square,
        empty,
        being.id,
        "empty colourless square for the being",
    );
    placement.origin = sq;
    placement.marked = 0;
    placement.marked_other = 0;
    placement
}

// ----- swaps and stasis
/// The pieces on `a` and `b` exchange squares (colours and ranks unchanged).
pub fn swap(s: &mut GameState, a: Square, b: Square, cause: Id) {
    let pa = s.piece_at(a).expect("a piece to swap");
    let pb = s.piece_at(b).expect("a piece to swap");
    s.pieces[pa.0][pa.1 as usize] &= !bit(a);
    s.pieces[pb.0][pb.1 as usize] &= !bit(b);
    s.pieces[pa.0][pa.1 as usize] |= bit(b);
    s.pieces[pb.0][pb.1 as usize] |= bit(a);
    // a Gateway keeps its status through a swap (Nethervoid)
    for g in s.gateway.iter_mut() {
        if *g == Some(a) {
            *g = Some(b);
        } else if *g == Some(b) {
            *g = Some(a);
        }
    }
    s.record.add(Event::Swap {
        turn: s.turn,
        seat: s.active as i8,
        cause,
        square: a,
        other: b,
    });
}

/// Lift the piece on `sq` onto `p`'s Merchant of Time: out of the arena, not into its owner's stock. A
/// Gateway lifted so is suspended (Nethervoid).
pub fn put_in_stasis(s: &mut GameState, p: usize, sq: Square, cause: Id) {
    let (owner, rank) = s.piece_at(sq).expect("a piece for stasis");
    crate::effects::nethervoid::gateway_to_stasis(s, sq);
    s.pieces[owner][rank as usize] &= !bit(sq);
    s.stasis[p] = Some((owner, rank));
    s.record.add(Event::Stasis {
        turn: s.turn,
        seat: s.active as i8,
        cause,
        square: sq,
        owner: owner as u8,
        rank,
    });
}

/// The piece on `p`'s Merchant of Time comes back onto `sq` (destroying a lower-rank piece there).
pub fn release(s: &mut GameState, p: usize, sq: Square, cause: Id) -> Option<Piece> {
    let (owner, rank) = s.stasis[p].take().expect("a piece in stasis");
    let destroyed = if s.occupied() & bit(sq) != 0 {
        s.destroy(sq, cause, true)
    } else {
        None
    };
    s.pieces[owner][rank as usize] |= bit(sq);
    crate::effects::nethervoid::gateway_from_stasis(s, owner, sq);
    s.record.add(Event::Release {
        turn: s.turn,
        seat: s.active as i8,
        cause,
        square: sq,
        owner: owner as u8,
        rank,
    });
    destroyed
}

/// Pieces of `owner` in stasis (on any seat's Merchant, benched team members' included): (tokens,
/// legendary pieces).
pub fn in_stasis(s: &GameState, owner: usize) -> (i32, i32) {
    let bench = s
        .teams
        .as_deref()
        .map_or([None, None], |t| [t.bench[0].stasis, t.bench[1].stasis]);
    let mut out = (0, 0);
    for (o, rank) in s.stasis.iter().chain(bench.iter()).flatten() {
        if *o == owner {
            if *rank == LEGENDARY {
                out.1 += 1;
            } else {
                out.0 += 1;
            }
        }
    }
    out
}

// ----- strict mode
/// A player's (seat or side, pending being, piece in stasis, hand).
type Slot<'a> = (usize, Option<BeingId>, Option<Piece>, &'a [BeingId]);

/// The deck's invariants: a pending being is a card with a warp text in its owner's hand; a piece is
/// in stasis only on a pending Merchant of Time.
pub fn check_invariants(s: &GameState) -> Result<(), String> {
    let mut slots: Vec<Slot> = (0..s.seats)
        .map(|p| (p, s.pending[p], s.stasis[p], s.hand[p].as_slice()))
        .collect();
    if let Some(t) = s.teams.as_deref() {
        for (side, m) in t.bench.iter().enumerate() {
            slots.push((side, m.pending, m.stasis, m.hand.as_slice()));
        }
    }
    for (p, pending, stasis, hand) in slots {
        if let Some(card) = pending {
            if !hand.contains(&card) {
                return Err(format!("player {p}'s pending being is not in the hand"));
            }
            if s.cards.being(card).warp.is_none() {
                return Err(format!("player {p}'s pending being has no warp text"));
            }
        }
        if let Some((owner, _)) = stasis {
            if owner >= s.seats {
                return Err(format!(
                    "player {p} holds a piece of seat {owner} in stasis"
                ));
            }
            if !pending.is_some_and(|c| is_merchant(s.cards.being(c))) {
                return Err(format!(
                    "player {p} has a piece in stasis without a pending Merchant"
                ));
            }
        }
    }
    for p in s.seats..MAX_SEATS {
        if s.pending[p].is_some() || s.stasis[p].is_some() {
            return Err(format!("an empty seat {p} holds Etherweave state"));
        }
    }
    Ok(())
}

// ----- lookahead sandboxes
/// Pending beings of the players other than `me` (public cards), taken out of their hands while the
/// sandbox deals hidden hands anew: (slot, card), the slot being the seat or 10 + side for a benched
/// team member.
pub fn pending_aside(c: &mut GameState, me: usize) -> Vec<(usize, BeingId)> {
    let mut aside = Vec::new();
    for p in 0..c.seats {
        if let Some(card) = c.pending[p] {
            if p != me {
                crate::game::remove_first(&mut c.hand[p], card);
                aside.push((p, card));
            }
        }
    }
    if let Some(t) = c.teams.as_deref_mut() {
        for (side, m) in t.bench.iter_mut().enumerate() {
            if let Some(card) = m.pending {
                crate::game::remove_first(&mut m.hand, card);
                aside.push((10 + side, card));
            }
        }
    }
    aside
}

/// The pending beings `pending_aside` took out, back in their hands.
pub fn pending_back(c: &mut GameState, aside: Vec<(usize, BeingId)>) {
    for (slot, card) in aside {
        if slot >= 10 {
            let t = c.teams.as_deref_mut().expect("a team game");
            t.bench[slot - 10].hand.push(card);
        } else {
            c.hand[slot].push(card);
        }
    }
}
