//! Pattern costs (`readiness::Position::best_cost`) remembered per thread: lookahead values the same
//! position with the same hand again and again (the sandbox runs of one option, the rollouts of one
//! decision), and a cost takes about a thousand instructions to find, a look-up a few dozen.
//!
//! Exact: a cost is kept with the whole position it was found in (both sides' pieces by rank) and the
//! card's index in the card set, and the memo holds that card set (an `Arc`), so no other set can take
//! its place in memory while its costs are kept; another card set empties the memo.

use std::cell::RefCell;
use std::sync::Arc;

use super::readiness::Position;
use crate::board::Bits;
use crate::cards::{BeingId, CardSet};
use crate::state::GameState;

/// log2 of the slots: 4,096 slots of 112 bytes.
const SLOT_BITS: u32 = 12;
const EMPTY: u16 = u16::MAX;

#[derive(Clone, Copy)]
struct Slot {
    pieces: [Bits; 6],
    card: u16,
    cost: u8,
}

struct Memo {
    cards: Option<Arc<CardSet>>,
    slots: Vec<Slot>,
}

thread_local! {
    static MEMO: RefCell<Memo> = const { RefCell::new(Memo { cards: None, slots: Vec::new() }) };
}

/// One player's pattern costs in one position, looked up in the thread's memo first.
pub struct Costs<'s> {
    pos: Position,
    pieces: [Bits; 6],
    hash: u64,
    cards: &'s Arc<CardSet>,
}

impl<'s> Costs<'s> {
    /// `p`'s costs in `s` (the opponents' pieces together, as the hand's readiness sees them).
    pub fn of(s: &'s GameState, p: usize) -> Costs<'s> {
        let (mine, theirs) = (s.pieces[p], s.enemy_pieces(p));
        let pieces = [mine[0], mine[1], mine[2], theirs[0], theirs[1], theirs[2]];
        let mut hash: u64 = 0;
        for b in pieces {
            for word in [b as u64, (b >> 64) as u64] {
                hash = (hash ^ word)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .rotate_left(29);
            }
        }
        Costs {
            pos: Position::new(&mine, &theirs),
            pieces,
            hash,
            cards: &s.cards,
        }
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The lowest cost of `id`'s placements (`Position::best_cost`).
    pub fn cost(&self, id: BeingId) -> usize {
        let at =
            (self.hash ^ (id.0 as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9)) >> (64 - SLOT_BITS);
        MEMO.with(|memo| {
            let mut memo = memo.borrow_mut();
            if !memo
                .cards
                .as_ref()
                .is_some_and(|c| Arc::ptr_eq(c, self.cards))
            {
                memo.cards = Some(Arc::clone(self.cards));
                let empty = Slot {
                    pieces: [0; 6],
                    card: EMPTY,
                    cost: 0,
                };
                memo.slots.clear();
                memo.slots.resize(1 << SLOT_BITS, empty);
            }
            let slot = &mut memo.slots[at as usize];
            if slot.card == id.0 && slot.pieces == self.pieces {
                return slot.cost as usize;
            }
            let cost = self.pos.best_cost(self.cards.being(id));
            *slot = Slot {
                pieces: self.pieces,
                card: id.0,
                cost: cost as u8,
            };
            cost
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, GameOptions};
    use crate::players::make_strategy;
    use crate::state::Mode;

    fn card_set() -> Arc<CardSet> {
        Arc::new(CardSet::from_json(include_str!("../../tests/data/cards.json")).expect("card set"))
    }

    #[test]
    fn remembered_costs_are_the_costs() {
        // two card sets in turn: each switch empties the memo
        let sets = [card_set(), card_set()];
        let mut looked_up = 0;
        for seed in 0..6u64 {
            let cards = &sets[seed as usize % 2];
            let players = [
                make_strategy("random", 0, seed).unwrap(),
                make_strategy("random", 1, seed).unwrap(),
            ];
            let decks = ["imperial", "sylvan"];
            let mut game = Game::new(
                Arc::clone(cards),
                Mode::HighForm,
                decks,
                players,
                seed,
                GameOptions::default(),
            )
            .unwrap();
            game.setup();
            while !game.state.over {
                game.play_turn();
                let s = &game.state;
                for p in 0..2 {
                    let pos = Position::new(&s.pieces[p], &s.enemy_pieces(p));
                    for _ in 0..2 {
                        let costs = Costs::of(s, p);
                        for card in s.cards.beings.iter().step_by(7) {
                            assert_eq!(costs.cost(card.index), pos.best_cost(card), "{}", card.id);
                            looked_up += 1;
                        }
                    }
                }
            }
        }
        assert!(looked_up > 1000, "{looked_up}");
    }
}
