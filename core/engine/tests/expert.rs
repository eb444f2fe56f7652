//! The expert search player (players/expert.rs): it never reads what it cannot see, a game is a function
//! of its seed, and its parameters are checked.

mod common;

use std::sync::Arc;

use tk_engine::cards::CardSet;
use tk_engine::decisions::{Decision, Kind, PlayerView};
use tk_engine::game::{Game, GameOptions, Players};
use tk_engine::players::make_strategy_with;
use tk_engine::players::params::ParamValue;
use tk_engine::rng::PyRandom;
use tk_engine::state::{GameState, Mode, TurnCounters};

use common::reshuffled_hidden;

fn cards() -> Arc<CardSet> {
    Arc::new(CardSet::from_json(include_str!("data/cards.json")).expect("card set"))
}

const SMALL: [(&str, ParamValue); 1] = [("iterations", ParamValue::Int(24))];

fn game(mode: Mode, seed: u64, names: [&str; 2], strict: bool) -> Game<'static> {
    let players = [
        make_strategy_with(names[0], 0, seed, &SMALL[..(names[0] == "expert") as usize]).unwrap(),
        make_strategy_with(names[1], 1, seed, &SMALL[..(names[1] == "expert") as usize]).unwrap(),
    ];
    let options = GameOptions {
        strict,
        ..GameOptions::default()
    };
    Game::new(
        cards(),
        mode,
        ["imperial", "sylvan"],
        players,
        seed,
        options,
    )
    .unwrap()
}

fn record(mode: Mode, seed: u64) -> String {
    let mut g = game(mode, seed, ["expert", "builder"], true);
    g.play();
    let mut line = String::new();
    g.state.record.write_json(&mut line);
    line
}

#[test]
fn games_are_reproducible_from_the_seed_and_keep_every_invariant() {
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        let (a, b) = (record(mode, 7), record(mode, 7));
        assert_eq!(a, b);
        assert!(a.contains("\"end_reason\""));
    }
}

/// A game after some random turns, at the start of a turn of seat 0.
fn position(mode: Mode, seed: u64) -> GameState {
    let mut g = game(mode, seed, ["random", "random"], false);
    g.setup();
    while g.state.turn < 8 || g.state.active != 0 {
        g.play_turn();
    }
    let mut s = g.state;
    s.turn += 1;
    s.actions_left = 2;
    s.counters = TurnCounters::default();
    s
}

fn decide(s: &GameState, seed: u64) -> usize {
    let options = Game::around(s.clone(), Players::Nobody).action_options(0);
    let d = Decision {
        kind: Kind::Action,
        player: 0,
        options: &options,
        card: "",
        prompt: "",
    };
    let mut expert = make_strategy_with("expert", 0, seed, &SMALL).unwrap();
    expert.choose(&PlayerView::new(s, 0), &d)
}

#[test]
fn decisions_do_not_depend_on_hidden_information() {
    let mut changed = 0;
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        for seed in 0..4 {
            let s = position(mode, seed);
            let t = reshuffled_hidden(&s, &mut PyRandom::new(seed));
            changed += (s.hand[1] != t.hand[1] || s.deck[0] != t.deck[0]) as usize;
            assert_eq!(decide(&s, seed), decide(&t, seed), "{mode:?} seed {seed}");
        }
    }
    assert!(changed > 0);
}

#[test]
fn parameters_are_checked() {
    let err = |params: &[(&str, ParamValue)]| {
        make_strategy_with("expert", 0, 0, params)
            .err()
            .expect("an error")
    };
    assert!(err(&[("iterations", ParamValue::Int(0))])
        .starts_with("strategy 'expert': parameter 'iterations' must be at least 1"));
    assert!(err(&[("iterations", ParamValue::Float(10.5))])
        .starts_with("strategy 'expert': parameter 'iterations' must be a whole number"));
    assert!(err(&[("exploration", ParamValue::Bool(true))])
        .starts_with("strategy 'expert': parameter 'exploration' must be a number"));
    assert!(err(&[("depth", ParamValue::Int(5))])
        .starts_with("strategy 'expert': parameter 'depth' must be between 1 and 4"));
    assert!(err(&[("patterns", ParamValue::Float(1.0))])
        .starts_with("strategy 'expert' has no parameter 'patterns'"));
}
