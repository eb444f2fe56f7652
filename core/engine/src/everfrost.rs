//! The Everfrost deck's rules (docs/cards-everfrost.md): the frozen effect in play (freezing after a
//! summon, the keep-one choice, thawing as a free play), pieces removed from the game, and Everfrost
//! Sentinel's action loss. The cards' own effects are in `effects/everfrost.rs`.

use std::sync::Arc;

use crate::cards::BeingId;
use crate::decisions::{Kind, Opt};
use crate::effects::context::EffectContext;
use crate::effects::interpreter::run_steps;
use crate::game::Game;
use crate::ranks::LEGENDARY;
use crate::record::{Event, Id};
use crate::state::GameState;

/// The start of the active seat's turn: an action loss aimed at it cuts the turn to 1 action; the losses
/// its own Sentinel caused end now that its turn has come round again.
pub fn start_turn(s: &mut GameState) {
    let p = s.active;
    if s.action_loss[p] != 0 {
        s.actions_left = s.actions_left.min(1);
        s.action_loss[p] = 0;
    }
    for q in 0..s.seats {
        s.action_loss[q] &= !(1 << p);
    }
}

/// Everfrost Sentinel: every other seat's (side's) next turn has 1 action.
pub fn cut_actions(s: &mut GameState, p: usize, cause: Id) {
    for q in s.opponents(p).collect::<Vec<_>>() {
        s.action_loss[q] |= 1 << p;
    }
    s.record.add(Event::ActionLoss {
        turn: s.turn,
        seat: p as i8,
        cause,
    });
}

/// The piece of `owner` and `rank` just destroyed on `square` leaves the game instead of its owner's
/// stock; an enemy piece counts once more as destroyed this turn (Deathbringer).
pub fn remove_from_game(s: &mut GameState, square: u8, owner: usize, rank: u8, cause: Id) {
    let kind = (rank == LEGENDARY) as usize;
    if kind == 1 {
        s.legend_stock[owner] -= 1;
        s.legend_total[owner] -= 1;
    } else {
        s.tokens[owner] -= 1;
        s.token_total[owner] -= 1;
    }
    s.removed[owner][kind] += 1;
    let twice = owner != s.active;
    if twice {
        s.counters.destroyed[rank as usize] += 1;
        s.counters.destroyed_of[owner][rank as usize] += 1;
    }
    s.record.add(Event::Remove {
        turn: s.turn,
        seat: s.active as i8,
        cause,
        square,
        owner: owner as u8,
        rank,
        twice,
    });
}

/// Make `card` `p`'s frozen effect in play; `cause` names the card that did it in the record.
pub fn set_frozen(s: &mut GameState, p: usize, card: BeingId, cause: Id) {
    debug_assert!(s.frozen[p].is_none(), "one frozen effect at a time");
    s.frozen[p] = Some(card);
    s.record.add(Event::Freeze {
        turn: s.turn,
        seat: p as i8,
        card: s.cards.being(card).id,
        cause,
    });
}

/// Put `p`'s frozen card (taken out of the slot by the caller) or another card on the discard pile.
pub fn to_discard(s: &mut GameState, p: usize, card: BeingId, cause: Id) {
    s.discarded[p].push(card);
    s.record.add(Event::ToDiscard {
        turn: s.turn,
        seat: p as i8,
        card: s.cards.being(card).id,
        cause,
    });
}

impl Game<'_> {
    /// Whether `p` may thaw now: a frozen effect is in play (the action decision offers it on the own
    /// turn, before or after any action, and in the end-of-turn step).
    pub fn can_thaw(&self, p: usize) -> bool {
        self.state.frozen[p].is_some()
    }

    /// After the summon of a card with a frozen text: it becomes the frozen effect in play. With one
    /// already there, the player keeps one of the two (old or new) and discards the other.
    pub fn freeze(&mut self, p: usize, card: BeingId, cause: Id) {
        let Some(old) = self.state.frozen[p] else {
            set_frozen(&mut self.state, p, card, cause);
            return;
        };
        let options = [Opt::Being(old), Opt::Being(card)];
        let prompt = "frozen effect to keep (the other is discarded)";
        let Opt::Being(keep) = self.ask(p, Kind::Card, &options, cause, prompt) else {
            unreachable!("card options")
        };
        if keep == card {
            self.state.frozen[p] = None;
            to_discard(&mut self.state, p, old, cause);
            set_frozen(&mut self.state, p, card, cause);
        } else {
            to_discard(&mut self.state, p, card, cause);
        }
    }

    /// Thaw `p`'s frozen effect: its frozen text resolves (no being on the arena, no pattern), then the
    /// card goes to the discard pile. A card effect starting ends a Frostweave permission not yet used.
    pub fn thaw(&mut self, p: usize) {
        let cards = Arc::clone(&self.state.cards);
        let card = self.state.frozen[p]
            .take()
            .expect("a frozen effect to thaw");
        let being = cards.being(card);
        let s = &mut self.state;
        s.counters.borrow_enemy_piece = false;
        s.record.add(Event::Thaw {
            turn: s.turn,
            seat: p as i8,
            card: being.id,
        });
        self.set_resolving(Some(being.id));
        let mut ctx = EffectContext::new(self, p, being.id, None, None);
        run_steps(&mut ctx, being.frozen.as_deref().expect("a frozen text"));
        self.set_resolving(None);
        self.state.discarded[p].push(card);
    }
}

/// Strict mode's checks of the Everfrost state.
pub fn check(s: &GameState) -> Result<(), String> {
    for p in 0..s.seats {
        if let Some(card) = s.frozen[p] {
            let b = s.cards.being(card);
            if b.frozen.is_none() || !s.cards.decks[s.decks[p]].beings.contains(&card) {
                return Err(format!("player {p}: {} frozen", b.id));
            }
        }
        if s.removed[p].iter().any(|&n| n < 0) || s.token_total[p] < 0 || s.legend_total[p] < 0 {
            return Err(format!("player {p}: removed pieces {:?}", s.removed[p]));
        }
        if s.action_loss[p] & (1 << p) != 0 || s.action_loss[p] >> s.seats != 0 {
            return Err(format!("player {p}: action loss {:b}", s.action_loss[p]));
        }
    }
    for p in s.seats..s.frozen.len() {
        if s.frozen[p].is_some() || s.removed[p] != [0, 0] || s.action_loss[p] != 0 {
            return Err(format!("seat {p} past the table has Everfrost state"));
        }
    }
    Ok(())
}
