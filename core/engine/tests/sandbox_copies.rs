//! A lookahead copy made into a spare state (`GameState::copy_for`, reusing its buffers) is the same
//! copy as a fresh clone (`GameState::clone_for`): both play on to the same game.

use std::sync::Arc;

use tk_engine::cards::CardSet;
use tk_engine::game::{Game, GameOptions, Players};
use tk_engine::players::make_strategy;
use tk_engine::record::GameRecord;
use tk_engine::state::{shared_rng, GameState, Mode};

fn cards() -> Arc<CardSet> {
    Arc::new(CardSet::from_json(include_str!("data/cards.json")).expect("card set"))
}

/// The game `state` leads to with random players drawing from a stream seeded `seed`: its record
/// and the cards everywhere.
fn played_on(state: Box<GameState>, seed: u64) -> String {
    let players = (0..state.players())
        .map(|seat| make_strategy("random", seat, seed).unwrap())
        .collect();
    let mut game = Game::around(state, Players::Seats(players));
    while !game.state.over {
        game.play_turn();
    }
    let s = &game.state;
    let mut out = String::new();
    s.record.write_json(&mut out);
    format!(
        "{out} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        s.pieces, s.deck, s.hand, s.legend_hand, s.flare_hand, s.discarded, s.task_row
    )
}

#[test]
fn a_copy_into_a_spare_state_is_the_clone() {
    let cards = cards();
    // a spare from another game, with buffers of other sizes
    let mut spare: Option<Box<GameState>> = None;
    for (seed, (mode, decks)) in [
        (Mode::HighForm, ["imperial", "sylvan"]),
        (Mode::Deathmatch, ["highland", "imperial"]),
        (Mode::HighForm, ["etherweave", "nethervoid"]),
        (Mode::Deathmatch, ["everfrost", "sylvan"]),
    ]
    .into_iter()
    .enumerate()
    {
        let players = vec![
            make_strategy("random", 0, seed as u64).unwrap(),
            make_strategy("random", 1, seed as u64).unwrap(),
        ];
        let mut game = Game::table(
            Arc::clone(&cards),
            mode,
            &decks,
            players,
            seed as u64,
            GameOptions::default(),
        )
        .unwrap();
        game.setup();
        while !game.state.over {
            game.play_turn();
            let fresh = game.state.clone_for(&shared_rng(7));
            let mut copy = spare
                .take()
                .unwrap_or_else(|| fresh.clone_for(&shared_rng(0)));
            copy.copy_for(&game.state, &shared_rng(7));
            assert_eq!(played_on(fresh, 11), played_on(copy, 11));
            spare = Some(game.state.clone_for(&shared_rng(1)));
        }
    }
}

#[test]
fn a_restarted_record_is_a_new_one() {
    let cards = cards();
    let players = vec![
        make_strategy("random", 0, 3).unwrap(),
        make_strategy("random", 1, 3).unwrap(),
    ];
    let mut game = Game::table(
        cards,
        Mode::HighForm,
        &["imperial", "highland"],
        players,
        3,
        GameOptions::default(),
    )
    .unwrap();
    game.play();
    let mut record = game.state.record.clone();
    assert_ne!(record, GameRecord::default());
    record.restart();
    assert_eq!(record, GameRecord::default());
}
