//! The expert search player (players/expert.rs): it never reads what it cannot see, a game is a function
//! of its seed, and its parameters are checked.

mod common;

use std::sync::Arc;

use tk_engine::cards::CardSet;
use tk_engine::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use tk_engine::game::{Game, GameOptions, Players};
use tk_engine::players::expert::Expert;
use tk_engine::players::make_strategy_with;
use tk_engine::players::params::{ExpertParams, ParamValue};
use tk_engine::players::sandbox::Answer;
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
    *s
}

fn expert(seed: u64) -> Expert {
    Expert::new(seed, &ExpertParams::resolve(&SMALL).expect("parameters"))
}

fn action_decision(options: &[Opt]) -> Decision<'_> {
    Decision {
        kind: Kind::Action,
        player: 0,
        options,
        card: "",
        prompt: "",
    }
}

/// The move chosen and the placement and targets planned for it.
fn decide(s: &GameState, seed: u64) -> (usize, Vec<Answer>) {
    let options = Game::around(s.clone(), Players::Nobody).action_options(0);
    let mut expert = expert(seed);
    let i = expert.choose(&PlayerView::new(s, 0), &action_decision(&options));
    (i, expert.plan().iter().copied().collect())
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
fn the_root_weighs_several_squares_and_placements_of_an_action() {
    let (mut places, mut summons) = (0, 0);
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        for seed in 0..6 {
            let s = position(mode, seed);
            let options = Game::around(s.clone(), Players::Nobody).action_options(0);
            let d = action_decision(&options);
            let moves = expert(seed).root_moves_of(&PlayerView::new(&s, 0), &d);
            assert!(moves.iter().all(|(o, _)| options.contains(o)));
            let ways = |kind: fn(&Opt) -> bool| {
                let plans: Vec<&Vec<Answer>> = moves
                    .iter()
                    .filter(|(o, _)| kind(o))
                    .map(|m| &m.1)
                    .collect();
                let mut distinct = plans.clone();
                distinct.dedup();
                assert_eq!(distinct.len(), plans.len(), "each way of acting once");
                plans.len()
            };
            places += (ways(|o| *o == Opt::Action(Action::Place)) > 1) as usize;
            summons += (ways(|o| matches!(o, Opt::Action(Action::Summon(_)))) > 1) as usize;
            // discard, flare and end are weighed whatever builder thinks of them
            for o in options.iter() {
                if matches!(
                    o,
                    Opt::Action(Action::Discard | Action::Flare | Action::End)
                ) {
                    assert!(moves.iter().any(|(m, _)| m == o), "{o:?} searched");
                }
            }
        }
    }
    assert!(places > 0 && summons > 0, "{places} {summons}");
}

/// With `effect_runs` the root's ways of acting carry the effect targets chosen by the position they lead
/// to (the planner's builder); with 0, builder's quick rules: the plans differ somewhere.
#[test]
fn effect_runs_plan_the_roots_effect_choices_by_position() {
    let mut differ = 0;
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        for seed in 0..6 {
            let s = position(mode, seed);
            let options = Game::around(s.clone(), Players::Nobody).action_options(0);
            let d = action_decision(&options);
            let moves = |runs: i64| {
                let params = [SMALL[0], ("effect_runs", ParamValue::Int(runs))];
                let expert =
                    Expert::new(seed, &ExpertParams::resolve(&params).expect("parameters"));
                expert.root_moves_of(&PlayerView::new(&s, 0), &d)
            };
            differ += (moves(0) != moves(1)) as usize;
        }
    }
    assert!(differ > 0);
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
    assert!(err(&[("width", ParamValue::Int(0))])
        .starts_with("strategy 'expert': parameter 'width' must be at least 1"));
    assert!(err(&[("shortlist", ParamValue::Int(0))])
        .starts_with("strategy 'expert': parameter 'shortlist' must be at least 1"));
    assert!(err(&[("effect_runs", ParamValue::Int(-1))])
        .starts_with("strategy 'expert': parameter 'effect_runs' must be at least 0"));
    assert!(err(&[("patterns", ParamValue::Float(1.0))])
        .starts_with("strategy 'expert' has no parameter 'patterns'"));
}
