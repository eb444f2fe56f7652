//! Strict random duels for every ordered pairing of the six decks that includes an expansion deck (Everfrost,
//! Nethervoid, Etherweave): each expansion deck against each base deck both ways, against each other expansion
//! deck both ways, and the mirrors, 27 pairings, 1,000 games each in each form (issue 17). Strict mode checks
//! every invariant after every action. The games are split into six tests (a form and a third of the pairings
//! each) so that the test threads share them.

mod common;

use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use tk_engine::game::{Game, GameOptions};
use tk_engine::players::make_strategy;
use tk_engine::state::Mode;

const DECKS: [&str; 6] = [
    "imperial",
    "highland",
    "sylvan",
    "everfrost",
    "nethervoid",
    "etherweave",
];
const BASE: [&str; 3] = ["imperial", "highland", "sylvan"];
const GAMES: u64 = 1000;

/// The 27 ordered pairings with at least one expansion deck.
fn pairings() -> Vec<[&'static str; 2]> {
    let mut out = Vec::new();
    for a in DECKS {
        for b in DECKS {
            if !(BASE.contains(&a) && BASE.contains(&b)) {
                out.push([a, b]);
            }
        }
    }
    out
}

/// `GAMES` strict games of random players for every third pairing from `part` in `mode`; the count of each
/// event kind over all of them.
fn strict_random_duels(mode: Mode, part: usize) -> HashMap<&'static str, usize> {
    let cards = common::cards();
    let options = GameOptions {
        strict: true,
        ..GameOptions::default()
    };
    let mut kinds = HashMap::new();
    let mut failed = Vec::new();
    for decks in pairings().into_iter().skip(part).step_by(3) {
        for seed in 0..GAMES {
            let players = [0, 1].map(|i| make_strategy("random", i, seed).unwrap());
            let mut game = Game::new(Arc::clone(&cards), mode, decks, players, seed, options)
                .unwrap_or_else(|e| panic!("{decks:?}: {e}"));
            let played = panic::catch_unwind(AssertUnwindSafe(|| {
                game.play();
            }));
            if played.is_err() {
                failed.push(format!("{mode:?} {} seed {seed}", decks.join("-")));
                continue;
            }
            for e in &game.state.record.events {
                *kinds.entry(e.kind()).or_insert(0) += 1;
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} games failed (their messages are above), first: {}",
        failed.len(),
        failed[..failed.len().min(10)].join(", ")
    );
    kinds
}

/// The expansions' own events happen in every part: each part's pairings hold every expansion deck.
fn check(kinds: &HashMap<&str, usize>) {
    for kind in [
        "freeze",
        "thaw",
        "gateway",
        "possess",
        "warp",
        "pending_end",
    ] {
        assert!(kinds.get(kind).copied().unwrap_or(0) > 0, "no {kind} event");
    }
}

#[test]
fn the_27_pairings_are_every_ordered_pairing_with_an_expansion_deck() {
    let p = pairings();
    assert_eq!(p.len(), 27);
    for part in 0..3 {
        let decks: Vec<_> = p.iter().skip(part).step_by(3).flatten().collect();
        for deck in ["everfrost", "nethervoid", "etherweave"] {
            assert!(decks.contains(&&deck), "part {part} lacks {deck}");
        }
    }
}

#[test]
fn strict_random_duels_with_the_expansions_high_form_1() {
    check(&strict_random_duels(Mode::HighForm, 0));
}

#[test]
fn strict_random_duels_with_the_expansions_high_form_2() {
    check(&strict_random_duels(Mode::HighForm, 1));
}

#[test]
fn strict_random_duels_with_the_expansions_high_form_3() {
    check(&strict_random_duels(Mode::HighForm, 2));
}

#[test]
fn strict_random_duels_with_the_expansions_deathmatch_1() {
    check(&strict_random_duels(Mode::Deathmatch, 0));
}

#[test]
fn strict_random_duels_with_the_expansions_deathmatch_2() {
    check(&strict_random_duels(Mode::Deathmatch, 1));
}

#[test]
fn strict_random_duels_with_the_expansions_deathmatch_3() {
    check(&strict_random_duels(Mode::Deathmatch, 2));
}
