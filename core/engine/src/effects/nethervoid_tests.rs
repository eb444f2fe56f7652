//! Scenario tests of the Nethervoid deck: every card's text, the Gateway rules, Hell Hound's return,
//! possessed summoning, and strict random games with the deck in every form.

use std::sync::Arc;

use crate::board::bit;
use crate::cards::CardSet;
use crate::decisions::{Action, Kind, Opt};
use crate::effects::testing::{arena, being, mv, name, pattern_at, position, sq, sqs, summon, table, Asked};
use crate::game::{Game, GameOptions};
use crate::players::make_strategy;
use crate::ranks::{COMMON, HEROIC, LEGENDARY};
use crate::record::Event;
use crate::state::Mode;

fn cards() -> Arc<CardSet> {
    Arc::new(CardSet::from_json(include_str!("../../tests/data/cards.json")).expect("card set"))
}

// ----- strict random games

/// `games` strict games of random players for each ordered pairing of Nethervoid with a base deck (both
/// ways) and the mirror, in both forms of the duel.
fn strict_random_duels(games: u64) -> usize {
    let cards = cards();
    let mut gateways = 0;
    let pairs = [
        ["nethervoid", "imperial"],
        ["imperial", "nethervoid"],
        ["nethervoid", "highland"],
        ["highland", "nethervoid"],
        ["nethervoid", "sylvan"],
        ["sylvan", "nethervoid"],
        ["nethervoid", "nethervoid"],
    ];
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        for decks in pairs {
            for seed in 0..games {
                let players = [0, 1].map(|i| make_strategy("random", i, seed).unwrap());
                let options = GameOptions {
                    strict: true,
                    ..GameOptions::default()
                };
                let mut game =
                    Game::new(Arc::clone(&cards), mode, decks, players, seed, options).unwrap();
                game.play();
                gateways += game
                    .state
                    .record
                    .events
                    .iter()
                    .filter(|e| matches!(e, Event::Gateway { .. }))
                    .count();
            }
        }
    }
    gateways
}

#[test]
fn thousands_of_strict_random_duels_with_nethervoid_keep_every_invariant() {
    assert!(strict_random_duels(1000) > 0);
}

#[test]
fn strict_random_melees_and_team_games_with_nethervoid_keep_every_invariant() {
    let cards = cards();
    let decks = ["nethervoid", "imperial", "sylvan", "highland", "nethervoid"];
    let options = GameOptions {
        strict: true,
        ..GameOptions::default()
    };
    for seed in 0..400u64 {
        let seats = 3 + (seed % 2) as usize;
        let table: Vec<&str> = (0..seats).map(|i| decks[(seed as usize + i) % 5]).collect();
        let players = (0..seats)
            .map(|i| make_strategy("random", i, seed).unwrap())
            .collect();
        let mut game = Game::table(
            Arc::clone(&cards),
            Mode::Deathmatch,
            &table,
            players,
            seed,
            options,
        )
        .unwrap();
        game.play();
        let mode = if seed % 2 == 0 {
            Mode::HighForm
        } else {
            Mode::Deathmatch
        };
        let table: Vec<&str> = (0..4).map(|i| decks[(seed as usize + 2 * i) % 5]).collect();
        let players = (0..4)
            .map(|i| make_strategy("random", i, seed).unwrap())
            .collect();
        let mut game =
            Game::teams(Arc::clone(&cards), mode, &table, players, seed, options).unwrap();
        game.play();
    }
}

#[test]
fn the_lookahead_players_play_nethervoid_without_panicking() {
    let cards = cards();
    let options = GameOptions {
        strict: true,
        ..GameOptions::default()
    };
    for (i, name) in ["builder", "greedy", "hunter", "brawler"].into_iter().enumerate() {
        for mode in [Mode::HighForm, Mode::Deathmatch] {
            let seed = i as u64;
            let players = [
                make_strategy(name, 0, seed).unwrap(),
                make_strategy("random", 1, seed).unwrap(),
            ];
            let mut game = Game::new(
                Arc::clone(&cards),
                mode,
                ["nethervoid", "nethervoid"],
                players,
                seed,
                options,
            )
            .unwrap();
            game.play();
        }
    }
}
