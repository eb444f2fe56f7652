//! The `mc` player (players/mc.rs): it never reads what it cannot see, replays the same game from the same
//! seed, and checks its parameters.

mod common;

use tk_engine::decisions::{Decision, Kind, PlayerView, Strategy};
use tk_engine::game::Game;
use tk_engine::players::mc::{McParams, MonteCarlo};
use tk_engine::players::params::ParamValue;
use tk_engine::players::{make_strategy, make_strategy_with};
use tk_engine::rng::PyRandom;
use tk_engine::state::Mode;

use common::{after_some_turns, game, reshuffled_hidden};

fn mc(seed: u64, base: &'static str, rollouts: i64) -> MonteCarlo {
    MonteCarlo::new(
        seed,
        &McParams::resolve(&[
            ("base", ParamValue::Text(base)),
            ("rollouts", ParamValue::Int(rollouts)),
        ])
        .unwrap(),
    )
}

#[test]
fn decisions_do_not_depend_on_hidden_information() {
    assert_blind("builder", 4, 0..3);
}

#[test]
fn the_improvement_of_the_default_player_does_not_see_hidden_information_either() {
    assert_blind("planner", 1, 0..1);
}

/// The option values, the choice and the plan of `mc` over `base` are the same when what seat 0 cannot
/// see is dealt again.
fn assert_blind(base: &'static str, rollouts: i64, seeds: std::ops::Range<u64>) {
    let mut changed = 0;
    for (k, mode) in [Mode::HighForm, Mode::Deathmatch].into_iter().enumerate() {
        for seed in seeds.clone() {
            let one = after_some_turns(mode, seed, 8);
            let two = reshuffled_hidden(&one, &mut PyRandom::new(seed + 1000));
            if one.hand[1] != two.hand[1] || one.deck[0] != two.deck[0] {
                changed += 1;
            }
            let options =
                Game::around(one.clone(), tk_engine::game::Players::Nobody).action_options(0);
            let decision = Decision {
                kind: Kind::Action,
                player: 0,
                options: &options,
                card: "",
                prompt: "",
            };
            let mut picks = Vec::new();
            for state in [&one, &two] {
                let mut player = mc(seed + 10 * k as u64, base, rollouts);
                let view = PlayerView::new(state, 0);
                let values = player.option_values(&view, &decision);
                let choice = player.choose(&view, &decision);
                let plan = player.base().plan().clone();
                picks.push((values, choice, plan));
            }
            assert_eq!(picks[0], picks[1], "{mode:?} seed {seed}");
            assert!(picks[0].0.iter().all(|v| v.is_finite()));
        }
    }
    assert!(changed > 0, "the reshuffle changed nothing");
}

fn play(mode: Mode, seed: u64) -> String {
    let players = [
        make_strategy_with("mc", 0, seed, &[("rollouts", ParamValue::Int(2))]).unwrap(),
        make_strategy("builder", 1, seed).unwrap(),
    ];
    let mut g = game(mode, players, seed);
    g.play();
    format!("{:?}", g.take_record())
}

#[test]
fn games_are_reproducible_from_the_seed() {
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        assert_eq!(play(mode, 5), play(mode, 5));
    }
}

#[test]
fn parameters_are_checked() {
    let err = |params: &[(&str, ParamValue)]| match make_strategy_with("mc", 0, 0, params) {
        Ok(_) => panic!("accepted {params:?}"),
        Err(e) => e,
    };
    assert!(err(&[("rollouts", ParamValue::Int(0))]).contains("must be at least 1"));
    assert!(err(&[("rollouts", ParamValue::Float(3.0))]).contains("must be a whole number"));
    assert!(err(&[("base", ParamValue::Text("random"))]).contains("must be one of brawler"));
    assert!(err(&[("base", ParamValue::Int(1))]).contains("must be a name"));
    assert!(err(&[("patterns", ParamValue::Int(1))])
        .contains("strategy 'mc' has no parameter 'patterns'"));
    assert!(make_strategy("nope", 0, 0)
        .err()
        .unwrap()
        .contains("hunter, mc, planner, planner-classic, random, swift"));
    let s = make_strategy_with(
        "mc",
        0,
        0,
        &[
            ("base", ParamValue::Text("greedy")),
            ("rollouts", ParamValue::Int(7)),
        ],
    )
    .unwrap();
    assert_eq!(s.name(), "mc");
}
