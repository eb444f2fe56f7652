//! Everfrost: scenario tests of the deck's rules (the frozen effect, thawing as a free play, the
//! keep-one choice, Frostweave summoning, removal from the game, the action loss) and strict random
//! games with the deck in duels, melees and team games. The cards' own tests are in
//! `effects/everfrost.rs`.

use std::sync::Arc;

use crate::cards::CardSet;
use crate::game::{Game, GameOptions};
use crate::players::make_strategy;
use crate::state::Mode;

fn cards() -> Arc<CardSet> {
    Arc::new(CardSet::from_json(include_str!("../tests/data/cards.json")).expect("card set"))
}

// ----- whole games

fn strict() -> GameOptions {
    GameOptions {
        strict: true,
        ..GameOptions::default()
    }
}

/// `games` strict duels of random players for each ordered pairing with Everfrost and each form; the
/// number of thaws seen.
fn strict_random_duels(games: u64) -> usize {
    let cards = cards();
    let pairs = [
        ["everfrost", "imperial"],
        ["imperial", "everfrost"],
        ["everfrost", "highland"],
        ["highland", "everfrost"],
        ["everfrost", "sylvan"],
        ["sylvan", "everfrost"],
        ["everfrost", "everfrost"],
    ];
    let mut thaws = 0;
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        for decks in pairs {
            for seed in 0..games {
                let players = [0, 1].map(|i| make_strategy("random", i, seed).unwrap());
                let mut game =
                    Game::new(Arc::clone(&cards), mode, decks, players, seed, strict()).unwrap();
                game.play();
                thaws += game
                    .state
                    .record
                    .events
                    .iter()
                    .filter(|e| e.kind() == "thaw")
                    .count();
            }
        }
    }
    thaws
}

#[test]
fn a_thousand_strict_random_duels_per_pairing_and_form_keep_every_invariant() {
    assert!(strict_random_duels(1000) > 1000);
}

#[test]
fn strict_random_melees_with_everfrost_keep_every_invariant() {
    let cards = cards();
    let others = ["imperial", "highland", "sylvan", "everfrost"];
    for seats in [3, 4] {
        for seed in 0..1000u64 {
            let mut table: Vec<&str> = (1..seats)
                .map(|i| others[(seed as usize + i) % 4])
                .collect();
            table.insert(seed as usize % seats, "everfrost");
            let players = (0..seats)
                .map(|i| make_strategy("random", i, seed).unwrap())
                .collect();
            let mut game = Game::table(
                Arc::clone(&cards),
                Mode::Deathmatch,
                &table,
                players,
                seed,
                strict(),
            )
            .unwrap();
            game.play();
        }
    }
}

#[test]
fn strict_random_team_games_with_everfrost_keep_every_invariant() {
    let cards = cards();
    let others = ["imperial", "highland", "sylvan", "everfrost"];
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        for seed in 0..500u64 {
            let mut table: Vec<&str> = (1..4).map(|i| others[(seed as usize + i) % 4]).collect();
            table.insert(seed as usize % 4, "everfrost");
            let players = (0..4)
                .map(|i| make_strategy("random", i, seed).unwrap())
                .collect();
            let mut game =
                Game::teams(Arc::clone(&cards), mode, &table, players, seed, strict()).unwrap();
            game.play();
        }
    }
}
