//! The default player `planner` (players/planner.rs): it never reads what it cannot see, replays the same
//! game from the same seed, checks its parameters, and plays out the options builder undervalues.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use tk_engine::board::DEATHMATCH_START;
use tk_engine::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use tk_engine::game::{Game, Players};
use tk_engine::players::evaluate::Evaluator;
use tk_engine::players::params::{ParamValue, Params, PlannerParams};
use tk_engine::players::planner::Planner;
use tk_engine::players::{make_strategy, make_strategy_with};
use tk_engine::rng::PyRandom;
use tk_engine::state::{GameState, Mode};

use common::{after_some_turns, game, reshuffled_hidden};

fn planner(seed: u64) -> Planner {
    Planner::new(seed, &PlannerParams::default())
}

/// The planner with successive halving over its candidates.
fn halved(seed: u64) -> Planner {
    Planner::new(
        seed,
        &PlannerParams::resolve(&[("halving", ParamValue::Bool(true))]).unwrap(),
    )
}

/// The planner before issue 25 (`planner-classic`).
fn classic(seed: u64) -> Planner {
    Planner::new(seed, &PlannerParams::resolve_classic(&[]).unwrap())
}

fn action_options(state: &GameState) -> Vec<Opt> {
    Game::around(state.clone(), Players::Nobody).action_options(0)
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

#[test]
fn decisions_do_not_depend_on_hidden_information() {
    let mut changed = 0;
    for (k, mode) in [Mode::HighForm, Mode::Deathmatch].into_iter().enumerate() {
        for seed in 0..4u64 {
            let one = after_some_turns(mode, seed, 8);
            let two = reshuffled_hidden(&one, &mut PyRandom::new(seed + 1000));
            if one.hand[1] != two.hand[1] || one.deck[0] != two.deck[0] {
                changed += 1;
            }
            let options = action_options(&one);
            let decision = action_decision(&options);
            for make in [planner, classic, halved] {
                let mut picks = Vec::new();
                for state in [&one, &two] {
                    let player = make(seed + 10 * k as u64);
                    let view = PlayerView::new(state, 0);
                    let values = player.option_values(&view, &decision);
                    let mut player = make(seed + 10 * k as u64);
                    let choice = player.choose(&view, &decision);
                    let plan = player.base().plan().clone();
                    picks.push((values, choice, plan));
                }
                assert_eq!(picks[0], picks[1], "{mode:?} seed {seed}");
                assert!(picks[0].0.iter().all(|v| v.1.is_finite()));
            }
        }
    }
    assert!(changed > 0, "the reshuffle changed nothing");
}

/// builder, keeping a copy of the positions where it was offered a flare and a discard among many options.
struct Watcher {
    builder: Box<dyn Strategy>,
    found: Rc<RefCell<Vec<GameState>>>,
}

impl Strategy for Watcher {
    fn name(&self) -> &str {
        "watcher"
    }

    fn choose(&mut self, view: &PlayerView, decision: &Decision) -> usize {
        let has = |a: Action| decision.options.contains(&Opt::Action(a));
        if decision.kind == Kind::Action
            && decision.options.len() > 6
            && has(Action::Flare)
            && has(Action::Discard)
        {
            let s = view.sandbox_state();
            self.found.borrow_mut().push(*s.clone_for(&s.rng));
        }
        self.builder.choose(view, decision)
    }
}

#[test]
fn discarding_and_the_flare_are_always_played_out() {
    let found = Rc::new(RefCell::new(Vec::new()));
    for seed in 0..20u64 {
        let watcher = |seat: usize| -> Box<dyn Strategy> {
            Box::new(Watcher {
                builder: make_strategy("builder", seat, seed).unwrap(),
                found: Rc::clone(&found),
            })
        };
        game(Mode::Deathmatch, [watcher(0), watcher(1)], seed).play();
    }
    let found = found.borrow();
    assert!(found.len() >= 5, "{} positions", found.len());
    for state in found.iter().take(10) {
        let p = state.active;
        let options = Game::around(state.clone_for(&state.rng), Players::Nobody).action_options(p);
        let decision = Decision {
            player: p,
            ..action_decision(&options)
        };
        let view = PlayerView::new(state, p);
        let values = classic(7).option_values(&view, &decision);
        let tried: Vec<Opt> = values.iter().map(|v| options[v.0]).collect();
        assert!(tried.contains(&Opt::Action(Action::Discard)));
        assert!(tried.contains(&Opt::Action(Action::Flare)));
        // builder's best 4 and the options always played out, each once
        assert!(tried.len() <= 4 + 2, "{tried:?}");
        let mut once = tried.clone();
        once.sort_by_key(|o| format!("{o:?}"));
        once.dedup();
        assert_eq!(once.len(), tried.len());
        // the planner: every legend summon and the best summon too, a discard with and without returns
        let values = planner(7).option_values(&view, &decision);
        let tried: Vec<Opt> = values.iter().map(|v| options[v.0]).collect();
        for (i, o) in options.iter().enumerate() {
            if let Opt::Action(Action::Summon(card)) = *o {
                if state.cards.being(card).is_legend() {
                    assert!(tried.contains(&options[i]), "{o:?} not played out");
                }
            }
        }
        assert!(tried.contains(&Opt::Action(Action::Flare)));
        let discards = tried
            .iter()
            .filter(|o| **o == Opt::Action(Action::Discard))
            .count();
        assert!((1..=2).contains(&discards), "{tried:?}");
        if discards == 2 {
            let plans: Vec<_> = values
                .iter()
                .filter(|v| options[v.0] == Opt::Action(Action::Discard))
                .collect();
            assert!(plans[0]
                .2
                .iter()
                .all(|a| a.0 != Kind::Return || a.1 == Opt::None));
            assert!(plans[1]
                .2
                .iter()
                .any(|a| a.0 == Kind::Return && a.1 != Opt::None));
        }
    }
}

#[test]
fn either_deathmatch_start_square_gives_the_same_position() {
    // the arena is symmetric about its middle column and patterns match in every orientation: the two
    // start squares lead to mirror-image games, which is why the choice is left to builder (the first)
    let ev = Evaluator::new(Params::preset("builder").unwrap());
    let [a, b] = DEATHMATCH_START;
    for seed in 0..10u64 {
        let players = [
            make_strategy("random", 0, seed).unwrap(),
            make_strategy("random", 1, seed).unwrap(),
        ];
        let mut g = game(Mode::Deathmatch, players, seed);
        g.setup();
        let mut s = g.state.clone();
        s.pieces = Default::default();
        let second = 1 - s.first_player;
        let value = |own: u8, other: u8| {
            let mut t = s.clone();
            t.pieces[second][0] = 1 << own;
            t.pieces[1 - second][0] = 1 << other;
            ev.value(&t, second)
        };
        assert_eq!(value(a, b), value(b, a), "seed {seed}");
    }
}

fn play(mode: Mode, seed: u64) -> String {
    let players = [
        make_strategy_with("planner", 0, seed, &[("rollouts", ParamValue::Int(2))]).unwrap(),
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
    let err = |params: &[(&str, ParamValue)]| match make_strategy_with("planner", 0, 0, params) {
        Ok(_) => panic!("accepted {params:?}"),
        Err(e) => e,
    };
    assert_eq!(
        err(&[("rollouts", ParamValue::Int(0))]),
        "strategy 'planner': parameter 'rollouts' must be at least 1 (rollouts per shortlisted option of \
         an action decision), got 0"
    );
    assert!(err(&[("shortlist", ParamValue::Float(3.5))]).contains("must be a whole number"));
    assert_eq!(
        err(&[("base", ParamValue::Text("greedy"))]),
        "strategy 'planner' has no parameter 'base'; its parameters: effect_runs, halving, pass_control, \
         pass_margin, rollouts, shortlist"
    );
    assert_eq!(
        make_strategy_with("planner-classic", 0, 0, &[("effect_runs", ParamValue::Int(1))]).err(),
        Some(
            "strategy 'planner-classic' has no parameter 'effect_runs'; its parameters: pass_control, \
             pass_margin, rollouts, shortlist"
                .to_string()
        )
    );
    assert_eq!(
        make_strategy("planner-classic", 0, 0).unwrap().name(),
        "planner-classic"
    );
    let p = PlannerParams::resolve(&[("shortlist", ParamValue::Int(2))]).unwrap();
    assert_eq!((p.rollouts, p.shortlist), (4, 2));
    assert_eq!(make_strategy("planner", 0, 0).unwrap().name(), "planner");
}

#[test]
fn successive_halving_keeps_the_better_half_down_to_two() {
    let with = |rollouts: i64, halving: bool| {
        PlannerParams::resolve(&[
            ("rollouts", ParamValue::Int(rollouts)),
            ("halving", ParamValue::Bool(halving)),
        ])
        .unwrap()
    };
    let mut checked = 0;
    for (k, mode) in [Mode::HighForm, Mode::Deathmatch].into_iter().enumerate() {
        for seed in 0..3u64 {
            let state = after_some_turns(mode, seed, 6 + 2 * k as u32);
            let options = action_options(&state);
            let decision = action_decision(&options);
            let view = PlayerView::new(&state, 0);
            let values =
                |params: &PlannerParams| Planner::new(seed, params).option_values(&view, &decision);
            // one rollout each: the same rollouts (the same deals), the worse half dropped after it
            let all = values(&with(1, false));
            let kept = values(&with(1, true));
            if all.len() < 3 {
                continue;
            }
            assert_eq!(
                kept.len(),
                all.len().div_ceil(2).max(2),
                "{mode:?} seed {seed}"
            );
            let mut ranked: Vec<f64> = all.iter().map(|c| c.1).collect();
            ranked.sort_by(|a, b| b.total_cmp(a));
            for c in kept.iter() {
                assert!(all.contains(c), "a kept candidate is played out as before");
                assert!(
                    c.1 >= ranked[kept.len() - 1],
                    "only the better half is kept"
                );
            }
            // four rollouts: halved down to two, which play every rollout as without halving
            let all = values(&with(4, false));
            let last = values(&with(4, true));
            assert_eq!(last.len(), 2, "{mode:?} seed {seed}");
            for c in last.iter() {
                assert!(all.contains(c), "the last two are played out as before");
            }
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked} decisions with candidates to halve");
}
