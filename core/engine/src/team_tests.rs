//! Scenario tests of team games, 2 against 2 (../shared/MULTIPLAYER.md, "Team games"; the decisions in
//! docs/rules-decisions.md): seats and sides, the setup, sideways cards and the deck trigger, the legend
//! handover, passing control, team scoring, the end and strict random games.

use std::sync::Arc;

use crate::cards::CardSet;
use crate::game::{Game, GameOptions};
use crate::players::make_strategy;
use crate::state::Mode;

fn cards() -> Arc<CardSet> {
    Arc::new(CardSet::from_json(include_str!("../tests/data/cards.json")).expect("card set"))
}

// ----- whole games

/// `games` strict team games of random players in `mode` over rotating deck tables.
fn strict_random_games(mode: Mode, games: u64) {
    let decks = ["imperial", "sylvan", "highland"];
    let cards = cards();
    for seed in 0..games {
        let table: Vec<&str> = (0..4)
            .map(|i| decks[(seed as usize / (i + 1) + i) % 3])
            .collect();
        let players = (0..4)
            .map(|i| make_strategy("random", i, seed).unwrap())
            .collect();
        let options = GameOptions {
            strict: true,
            ..GameOptions::default()
        };
        let mut game =
            Game::teams(Arc::clone(&cards), mode, &table, players, seed, options).unwrap();
        game.play();
        let r = &game.state.record;
        assert_eq!(r.scores.len(), 2);
        assert!(r.winner < 2);
        for e in &r.events {
            let seat = *e.clone().seat_mut();
            assert!((-1..4).contains(&seat), "{e:?}");
        }
    }
}

#[test]
fn thousands_of_strict_random_high_form_team_games_keep_every_invariant() {
    strict_random_games(Mode::HighForm, 2000);
}

#[test]
fn thousands_of_strict_random_deathmatch_team_games_keep_every_invariant() {
    strict_random_games(Mode::Deathmatch, 2000);
}

