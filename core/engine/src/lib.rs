//! Tash-Kalar rules engine: every form, deck and player of the project. A game is a pure function of its
//! cards, mode, decks, seed and players; its records match the golden corpus in `tests/golden/`.
//!
//! Playing a game:
//! ```no_run
//! use std::sync::Arc;
//! use tk_engine::{cards::CardSet, game::{Game, GameOptions}, players::make_strategy, state::Mode};
//! let cards = Arc::new(CardSet::from_json(&std::fs::read_to_string("cards.json").unwrap()).unwrap());
//! let seed = 7;
//! let players = [make_strategy("random", 0, seed).unwrap(), make_strategy("random", 1, seed).unwrap()];
//! let mut game = Game::new(cards, Mode::HighForm, ["imperial", "sylvan"], players, seed,
//!                          GameOptions::default()).unwrap();
//! let json = game.play().to_json(); // the line scripts/py_records.py prints
//! ```
//! A strategy implements `decisions::Strategy`: it gets a `PlayerView` and a `Decision` (kind, player,
//! options as `Opt` values in Python's order, card id, prompt) and returns an option index. For lookahead,
//! `PlayerView::sandbox(&rng)` deals a copy of the game from what the player knows and
//! `Game::around(state, Players::Shared(&mut recorder))` plays on it.

pub mod board;
pub mod cards;
pub mod decisions;
pub mod effects;
pub mod etherweave;
pub mod everfrost;
pub mod game;
pub mod patterns;
pub mod players;
pub mod ranks;
pub mod record;
pub mod rng;
pub mod state;
pub mod tasks;

#[cfg(test)]
mod everfrost_tests;
#[cfg(test)]
mod melee_tests;
#[cfg(test)]
mod team_tests;
