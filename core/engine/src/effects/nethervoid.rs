//! The Nethervoid deck: its rules (the Gateway, Hell Hound's return under the deck, possessed summoning's
//! state) and the effect functions of its cards that the step vocabulary cannot express.
//!
//! The Gateway is a status on at most one non-legendary piece of each side (`GameState::gateway`). It
//! follows its piece through moves (`GameState::move_piece`) and is lost when the piece leaves the arena
//! or becomes legendary (`GameState::lift`: destruction, conversion, pick-up, upgrade to legendary).

use super::context::EffectContext;
use super::steps::{MoveKind, Step};
use super::Registry;
use crate::board::{self, bit, Bits, Square};
use crate::cards::Being;
use crate::decisions::{Kind, Opt};
use crate::ranks::{COMMON, HEROIC, LEGENDARY};
use crate::record::{Event, Id};
use crate::state::{GameState, Mode, SIDEWAYS};

/// The deck's name in the card set.
pub const DECK: &str = "nethervoid";

impl GameState {
    /// `p`'s Gateway moves to its piece on `sq` (a new Gateway ends a suspended one).
    pub fn set_gateway(&mut self, p: usize, sq: Square) {
        self.gateway_suspended[p] = false;
        if self.gateway[p] == Some(sq) {
            return;
        }
        self.gateway[p] = Some(sq);
        self.record.add(Event::Gateway {
            turn: self.turn,
            seat: p as i8,
            square: sq as i8,
        });
    }

    /// `p` no longer has a Gateway.
    pub fn lose_gateway(&mut self, p: usize) {
        if self.gateway[p].take().is_some() {
            self.record.add(Event::Gateway {
                turn: self.turn,
                seat: p as i8,
                square: -1,
            });
        }
    }

    /// Strict mode: the Gateway is on one of its side's non-legendary pieces; a Possessed colour is an
    /// opponent's; a Hell Hound waiting to return is a being of the side's deck.
    pub fn check_nethervoid(&self, p: usize) -> Result<(), String> {
        if let Some(sq) = self.gateway[p] {
            if (self.pieces[p][0] | self.pieces[p][1]) & bit(sq) == 0 {
                return Err(format!(
                    "player {p}'s Gateway on {sq} is not a non-legendary piece of his"
                ));
            }
            if self.gateway_suspended[p] {
                return Err(format!("player {p} has a Gateway and a suspended one"));
            }
        }
        if let Some(c) = self.possessed[p] {
            if c as usize == p || c as usize >= self.seats {
                return Err(format!("player {p} is possessed by colour {c}"));
            }
        }
        if let Some(card) = self.hound_return[p] {
            if !self.cards.decks[self.decks[p]].beings.contains(&card) {
                return Err(format!(
                    "player {p} returns a card of another deck under his deck"
                ));
            }
        }
        Ok(())
    }
}

/// The automatic change when `p` summons `being` on `sq`: a being of the Nethervoid deck becomes the
/// Gateway if there is none (or it is suspended) or if the Gateway is common and the being heroic. Called
/// once the piece is placed (a Gateway overwritten by the summon is already gone), before the effect.
pub fn gateway_on_summon(s: &mut GameState, p: usize, being: &Being, sq: Square) {
    if being.deck != DECK || being.rank == LEGENDARY {
        return;
    }
    let takes_over = match s.gateway[p] {
        None => true,
        Some(g) => being.rank == HEROIC && s.pieces[p][COMMON as usize] & bit(g) != 0,
    };
    if takes_over {
        s.set_gateway(p, sq);
    }
}

/// End of `p`'s turn, before the refill: a Hell Hound waiting to return goes under the personal deck if
/// the deck still holds cards (in a team game, cards that stand upright), else to the discard pile.
pub fn return_hound(s: &mut GameState, p: usize) {
    let Some(card) = s.hound_return[p].take() else {
        return;
    };
    let last = if s.team_game() { SIDEWAYS } else { 0 };
    if s.deck[p].len() > last {
        s.deck[p].insert(0, card);
        s.record.add(Event::UnderDeck {
            turn: s.turn,
            seat: p as i8,
            card: s.cards.being(card).id,
        });
    } else {
        s.discarded[p].push(card);
    }
}

/// Etherweave's stasis takes the piece on `sq` out of the arena: if it is a Gateway, the status waits for
/// the piece (call before the piece is lifted).
pub fn gateway_to_stasis(s: &mut GameState, sq: Square) {
    for p in 0..s.seats {
        if s.gateway[p] == Some(sq) {
            s.lose_gateway(p);
            s.gateway_suspended[p] = true;
        }
    }
}

/// The piece of `owner` back from stasis on `sq`: it is the Gateway again unless a new one appeared.
pub fn gateway_from_stasis(s: &mut GameState, owner: usize, sq: Square) {
    if s.gateway_suspended[owner] && s.gateway[owner].is_none() {
        s.set_gateway(owner, sq);
    }
}

/// Add this module's functions to the registry.
pub fn register(table: &mut Registry) {
    table.push(("nethervoid.shadow_imp", shadow_imp));
    table.push(("nethervoid.gate_keeper", gate_keeper));
    table.push(("nethervoid.gluttony", gluttony));
    table.push(("nethervoid.becomes_gateway", becomes_gateway));
    table.push(("nethervoid.acolyte_of_destruction", acolyte_of_destruction));
    table.push(("nethervoid.acolyte_of_growth", acolyte_of_growth));
    table.push(("nethervoid.towards_gateway", towards_gateway));
    table.push(("nethervoid.hell_hound", hell_hound));
    table.push(("nethervoid.vortex_master", vortex_master));
    table.push(("nethervoid.gate_master", gate_master));
    table.push(("nethervoid.wrath_approach", wrath_approach));
    table.push(("nethervoid.greed", greed));
    table.push(("nethervoid.lust", lust));
    table.push(("nethervoid.sloth", sloth));
    table.push(("nethervoid.envy", envy));
    table.push(("nethervoid.possessed_summoner", possessed_summoner));
}

/// The moves (from, to) of the piece on `src` of `kind` onto its neighbours that `keep` allows.
fn moves_from(
    ctx: &EffectContext,
    src: Square,
    kind: MoveKind,
    keep: &dyn Fn(Square) -> bool,
) -> Vec<(Square, Square)> {
    ctx.move_targets(src, kind, None, false)
        .into_iter()
        .filter(|&d| keep(d))
        .map(|d| (src, d))
        .collect()
}

/// Whether the Gateway of the effect's player is on a square of `colour`.
fn gateway_on(ctx: &EffectContext, colour: Bits) -> bool {
    ctx.gateway().is_some_and(|g| colour & bit(g) != 0)
}

/// May make a combat move; then, unless it is the Gateway, the Gateway may make a combat move the same
/// way (one square in the same direction).
fn shadow_imp(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let options = moves_from(ctx, me, MoveKind::Combat, &|_| true);
    let Some((src, dst, _)) = ctx.optional_move(&options, "combat move with the Shadow Imp") else {
        return false;
    };
    let Some(gw) = ctx.gateway() else { return true };
    if ctx.self_sq == Some(gw) {
        return true;
    }
    let ((x0, y0), (x1, y1)) = (board::coords(src), board::coords(dst));
    let Some(to) = board::offset(gw, x1 - x0, y1 - y0) else {
        return true;
    };
    if ctx.can_enter(gw, to, MoveKind::Combat) {
        ctx.optional_move(&[(gw, to)], "the Gateway's combat move the same way");
    }
    true
}

/// May upgrade one of your common pieces or place one on an empty square; that piece becomes the Gateway.
/// One decision: your common pieces (upgrade) and the empty squares (place), or nothing.
fn gate_keeper(ctx: &mut EffectContext, _step: &Step) -> bool {
    let p = ctx.player;
    let s = ctx.state();
    let commons = s.pieces[p][COMMON as usize];
    let empty = if s.can_have_piece(p, COMMON) {
        s.empty()
    } else {
        0
    };
    let prompt =
        "your common piece to upgrade, or an empty square for a new one: it becomes the Gateway";
    let Some(sq) = ctx.choose_square(Kind::Square, commons | empty, true, prompt) else {
        return false;
    };
    if commons & bit(sq) != 0 {
        ctx.upgrade(sq);
    } else {
        ctx.place_common(sq);
    }
    ctx.state_mut().set_gateway(p, sq);
    true
}

/// May make a combat move; if it destroys a piece, it is upgraded and may make another, and if that one
/// destroys a piece too, it becomes the Gateway.
fn gluttony(ctx: &mut EffectContext, _step: &Step) -> bool {
    let prompt = "combat move with the Demon of Gluttony";
    let Some(me) = ctx.self_sq else { return false };
    let options = moves_from(ctx, me, MoveKind::Combat, &|_| true);
    let Some((_, dst, destroyed)) = ctx.optional_move(&options, prompt) else {
        return false;
    };
    if destroyed.is_none() {
        return true;
    }
    ctx.upgrade(dst);
    let options = moves_from(ctx, dst, MoveKind::Combat, &|_| true);
    if let Some((_, dst, Some(_))) = ctx.optional_move(&options, prompt) {
        let p = ctx.player;
        ctx.state_mut().set_gateway(p, dst);
    }
    true
}

/// The being becomes the Gateway (Demon of Pride, after its upgrade).
fn becomes_gateway(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    if ctx.piece_at(me).is_some_and(|(_, r)| r == LEGENDARY) {
        return false;
    }
    let p = ctx.player;
    ctx.state_mut().set_gateway(p, me);
    true
}

/// Destroys a common piece (any colour); with the Gateway on a red square, it may also destroy a heroic
/// piece next to the square of the destroyed one.
fn acolyte_of_destruction(ctx: &mut EffectContext, _step: &Step) -> bool {
    let commons = ctx.rank_mask(&[COMMON], super::steps::Owner::Any);
    let Some(sq) = ctx.choose_square(Kind::Destroy, commons, false, "common piece to destroy")
    else {
        return false;
    };
    ctx.destroy(sq, true);
    if gateway_on(ctx, board::RED) {
        let heroic =
            ctx.rank_mask(&[HEROIC], super::steps::Owner::Any) & board::ADJACENT[sq as usize];
        let prompt = "heroic piece next to the destroyed one to destroy";
        if let Some(h) = ctx.choose_square(Kind::Destroy, heroic, true, prompt) {
            ctx.destroy(h, true);
        }
    }
    true
}

/// Places a common piece of yours on an empty square; with the Gateway on a green square, also a heroic
/// piece of yours on an empty square next to it.
fn acolyte_of_growth(ctx: &mut EffectContext, _step: &Step) -> bool {
    let p = ctx.player;
    if !ctx.state().can_have_piece(p, COMMON) {
        return false;
    }
    let empty = ctx.state().empty();
    let Some(sq) = ctx.choose_square(Kind::Place, empty, false, "empty square for a common piece")
    else {
        return false;
    };
    ctx.place_common(sq);
    if gateway_on(ctx, board::GREEN) && ctx.state().can_have_piece(p, HEROIC) {
        let near = board::ADJACENT[sq as usize] & ctx.state().empty();
        let prompt = "empty square next to the new piece for a heroic piece";
        if let Some(h) = ctx.choose_square(Kind::Place, near, false, prompt) {
            ctx.place(h, HEROIC, None);
        }
    }
    true
}

/// Any number of combat moves with the being, each strictly closer (king distance) to the Gateway; one
/// onto the Gateway's square destroys it and ends the approach (Power Seeker).
fn towards_gateway(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut done = false;
    while let (Some(me), Some(gw)) = (ctx.self_sq, ctx.gateway()) {
        let d = board::distance(me, gw);
        let options = moves_from(ctx, me, MoveKind::Combat, &|t| board::distance(t, gw) < d);
        if ctx
            .optional_move(&options, "combat move towards the Gateway")
            .is_none()
        {
            break;
        }
        done = true;
    }
    done
}

/// May destroy a piece next to it; unless that piece was legendary, the card goes under its owner's deck
/// at the end of the turn (if the deck still holds cards then) instead of the discard pile.
fn hell_hound(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let targets = board::ADJACENT[me as usize] & ctx.state().occupied();
    let destroyed = ctx
        .choose_square(Kind::Destroy, targets, true, "adjacent piece to destroy")
        .and_then(|sq| ctx.destroy(sq, true));
    if destroyed.is_none_or(|(_, r)| r != LEGENDARY) {
        let (p, card) = (ctx.player, ctx.being);
        ctx.state_mut().hound_return[p] = card;
    }
    destroyed.is_some()
}

/// The Gateway may make a combat move; then one of your pieces next to the Gateway may make one.
fn vortex_master(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut done = false;
    if let Some(gw) = ctx.gateway() {
        let options = moves_from(ctx, gw, MoveKind::Combat, &|_| true);
        done |= ctx
            .optional_move(&options, "combat move with the Gateway")
            .is_some();
    }
    if let Some(gw) = ctx.gateway() {
        let near = board::ADJACENT[gw as usize] & ctx.state().mine(ctx.player);
        let mut options = Vec::new();
        for src in board::bits(near) {
            options.extend(moves_from(ctx, src, MoveKind::Combat, &|_| true));
        }
        done |= ctx
            .optional_move(&options, "combat move with your piece next to the Gateway")
            .is_some();
    }
    done
}

/// Upgrades the Gateway, then makes one of your non-legendary pieces the Gateway (the same one may stay).
/// An upgrade to legendary counts as summoning a legend on the Gate Master's square.
fn gate_master(ctx: &mut EffectContext, _step: &Step) -> bool {
    let p = ctx.player;
    let legend = match ctx.gateway() {
        Some(gw) => {
            let heroic = ctx.piece_at(gw).is_some_and(|(_, r)| r == HEROIC);
            ctx.upgrade(gw) && heroic
        }
        None => false,
    };
    let own = ctx.state().pieces[p][COMMON as usize] | ctx.state().pieces[p][HEROIC as usize];
    let prompt = "your non-legendary piece to become the Gateway";
    if let Some(sq) = ctx.choose_square(Kind::Piece, own, false, prompt) {
        ctx.state_mut().set_gateway(p, sq);
    }
    if legend {
        legend_credit(ctx);
    }
    true
}

/// The being's summon counts as summoning a legend on its summoning square: the summoned entry becomes
/// legendary (no extra being for tasks), and in Deathmatch the legend's point (a melee: in a colour of the
/// player's choice).
fn legend_credit(ctx: &mut EffectContext) {
    let p = ctx.player;
    let Some(origin) = ctx.origin else { return };
    let card: Id = ctx.card_id;
    let s = ctx.state_mut();
    if let Some(entry) = s.counters.summoned.iter_mut().rev().find(|e| e.0 == origin) {
        entry.1 = LEGENDARY;
    }
    s.record.add(Event::LegendCredit {
        turn: s.turn,
        seat: p as i8,
        card,
        square: origin,
    });
    if s.melee() {
        let options: Vec<Opt> = s.opponents(p).map(|c| Opt::Seat(c as u8)).collect();
        let prompt = "colour to score the legend's point in";
        if let Some(Opt::Seat(c)) = ctx.choose(Kind::LegendColour, options, false, prompt) {
            ctx.state_mut()
                .score_in_colour(p, c as usize, "legend-summon", 1);
        }
    } else if s.mode == Mode::Deathmatch {
        s.dm_points[p] += 1;
        s.record.points(s.turn, p, "legend-summon", 1);
    }
}

/// With no enemy common piece next to the Gateway, the Gateway may first make a standard move (the card's
/// destruction of the enemy commons next to it is the step that follows).
fn wrath_approach(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(gw) = ctx.gateway() else {
        return false;
    };
    let commons = ctx.enemy_pieces()[COMMON as usize];
    if commons & board::ADJACENT[gw as usize] != 0 {
        return false;
    }
    let options = moves_from(ctx, gw, MoveKind::Standard, &|_| true);
    ctx.optional_move(&options, "standard move with the Gateway")
        .is_some()
}

/// Destroys one of your common and one of your heroic pieces, neither the Gateway; an action for each.
fn greed(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut done = false;
    for (rank, prompt) in [
        (COMMON, "your common piece to destroy for an action"),
        (HEROIC, "your heroic piece to destroy for an action"),
    ] {
        let gw = ctx.gateway().map_or(0, bit);
        let targets = ctx.state().pieces[ctx.player][rank as usize] & !gw;
        if let Some(sq) = ctx.choose_square(Kind::Destroy, targets, false, prompt) {
            ctx.destroy(sq, true);
            ctx.gain_actions(1);
            done = true;
        }
    }
    done
}

/// Up to two pieces, of any colour, each make one combat move strictly closer to the Gateway, never onto
/// its square.
fn lust(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut moved: Bits = 0;
    for _ in 0..2 {
        let Some(gw) = ctx.gateway() else { break };
        let mut options = Vec::new();
        for src in board::bits(ctx.state().occupied() & !moved & !bit(gw)) {
            let d = board::distance(src, gw);
            options.extend(moves_from(ctx, src, MoveKind::Combat, &|t| {
                t != gw && board::distance(t, gw) < d
            }));
        }
        let Some((_, dst, _)) = ctx.optional_move(&options, "combat move towards the Gateway")
        else {
            break;
        };
        moved |= bit(dst);
    }
    moved != 0
}

/// Uses up one of the actions left; with none left, the Gateway is destroyed instead.
fn sloth(ctx: &mut EffectContext, _step: &Step) -> bool {
    if ctx.state().actions_left > 0 {
        ctx.state_mut().actions_left -= 1;
        return true;
    }
    match ctx.gateway() {
        Some(gw) => ctx.destroy(gw, true).is_some(),
        None => false,
    }
}

/// Places a common piece of yours next to the Gateway, again and again while an opponent has more pieces
/// in the arena than you and there is an empty square next to the Gateway.
fn envy(ctx: &mut EffectContext, _step: &Step) -> bool {
    let p = ctx.player;
    let mut placed = false;
    while let Some(gw) = ctx.gateway() {
        let s = ctx.state();
        let targets = board::ADJACENT[gw as usize] & s.empty();
        let mine = s.mine(p).count_ones();
        let behind = s.opponents(p).any(|q| s.mine(q).count_ones() > mine);
        if targets == 0 || !s.can_have_piece(p, COMMON) || (placed && !behind) {
            break;
        }
        let prompt = "empty square next to the Gateway for a common piece";
        let Some(sq) = ctx.choose_square(Kind::Place, targets, false, prompt) else {
            break;
        };
        ctx.place_common(sq);
        placed = true;
    }
    placed
}

/// Places an enemy common piece on an empty square next to a piece of its colour (a melee: the colour
/// chosen with the square); the player's next summoning this turn takes its pattern from that colour's
/// pieces. Then the flare in hand may be discarded for an action.
fn possessed_summoner(ctx: &mut EffectContext, _step: &Step) -> bool {
    let p = ctx.player;
    let s = ctx.state();
    let empty = s.empty();
    let near = |q: usize| {
        board::bits(s.mine(q)).fold(0, |m: Bits, sq| m | board::ADJACENT[sq as usize]) & empty
    };
    let prompt = "empty square next to an enemy piece for a common piece of its colour";
    let colour = if s.melee() {
        let options: Vec<Opt> = s
            .opponents(p)
            .filter(|&q| s.can_have_piece(q, COMMON))
            .flat_map(|q| board::bits(near(q)).map(move |sq| Opt::SeatSquare(q as u8, sq)))
            .collect();
        match ctx.choose(Kind::Place, options, false, prompt) {
            Some(Opt::SeatSquare(q, sq)) => {
                ctx.place(sq, COMMON, Some(q as usize));
                Some(q)
            }
            _ => None,
        }
    } else {
        let q = s.opponent(p);
        let squares = if s.can_have_piece(q, COMMON) {
            near(q)
        } else {
            0
        };
        ctx.choose_square(Kind::Place, squares, false, prompt)
            .map(|sq| {
                ctx.place(sq, COMMON, Some(q));
                q as u8
            })
    };
    if let Some(c) = colour {
        let s = ctx.state_mut();
        s.possessed[p] = Some(c);
        s.record.add(Event::Possess {
            turn: s.turn,
            seat: p as i8,
            colour: c,
        });
    }
    if let Some(&flare) = ctx.state().flare_hand[p].first() {
        let prompt = "your flare to discard for an action, or None";
        if ctx
            .choose(Kind::Card, vec![Opt::Flare(flare)], true, prompt)
            .is_some()
        {
            let s = ctx.state_mut();
            crate::game::remove_first(&mut s.flare_hand[p], flare);
            s.flare_discard.push(flare);
            s.record.add(Event::FlareDiscard {
                turn: s.turn,
                seat: p as i8,
                card: s.cards.flare(flare).id,
            });
            ctx.gain_actions(1);
        }
    }
    colour.is_some()
}
