//! The fast player `swift` (players/swift.rs): it never reads what it cannot see, replays the same game
//! from the same seed, checks its parameters, and plays out only the close decisions.

mod common;

use tk_engine::decisions::{Decision, Kind, Opt, PlayerView, Strategy};
use tk_engine::game::{Game, Players};
use tk_engine::players::params::{ParamValue, Params, SwiftParams};
use tk_engine::players::swift::Swift;
use tk_engine::players::{make_strategy, make_strategy_with};
use tk_engine::rng::PyRandom;
use tk_engine::state::{GameState, Mode};

use common::{after_some_turns, game, reshuffled_hidden};

/// A swift that plays out every decision (no option is ever clear), so that the rollouts are tested too.
fn swift(seed: u64) -> Swift {
    let params = SwiftParams {
        margin: 1000.0,
        ..SwiftParams::default()
    };
    Swift::new(seed, &params.into())
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

fn options(state: &GameState) -> Vec<Opt> {
    Game::around(state.clone(), Players::Nobody).action_options(0)
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
            let options = options(&one);
            let decision = action_decision(&options);
            let mut picks = Vec::new();
            for state in [&one, &two] {
                let view = PlayerView::new(state, 0);
                let values = swift(seed + 10 * k as u64).option_values(&view, &decision);
                let mut player = swift(seed + 10 * k as u64);
                let choice = player.choose(&view, &decision);
                let plan = player.base().plan().clone();
                picks.push((values, choice, plan));
            }
            assert_eq!(picks[0], picks[1], "{mode:?} seed {seed}");
            assert!(picks[0].0.iter().all(|v| v.1.is_finite()));
        }
    }
    assert!(changed > 0, "the reshuffle changed nothing");
}

#[test]
fn only_the_close_options_are_played_out() {
    let mut tried = 0;
    for (seed, mode) in (0..16u64).zip([Mode::HighForm, Mode::Deathmatch].into_iter().cycle()) {
        let state = after_some_turns(mode, seed, 8);
        let options = options(&state);
        if options.len() < 2 {
            continue;
        }
        tried += 1;
        let decision = action_decision(&options);
        let view = PlayerView::new(&state, 0);
        let wide = swift(seed).option_values(&view, &decision);
        assert_eq!(wide.len(), 2, "shortlist 2");
        // no option is close: the best is taken on builder's value alone
        let params = SwiftParams {
            margin: 0.0,
            ..SwiftParams::default()
        };
        let clear = Swift::new(seed, &params.into()).option_values(&view, &decision);
        assert!(!clear.is_empty() && clear.len() <= wide.len());
        if clear.len() == 1 {
            assert!(wide.iter().any(|w| w.0 == clear[0].0));
        }
    }
    assert!(tried >= 3, "{tried} decisions");
}

fn play_with(mode: Mode, seed: u64, params: &[(&str, ParamValue)]) -> String {
    let players = [
        make_strategy_with("swift", 0, seed, params).unwrap(),
        make_strategy("builder", 1, seed).unwrap(),
    ];
    let mut g = game(mode, players, seed);
    g.play();
    format!("{:?}", g.take_record())
}

fn play(mode: Mode, seed: u64) -> String {
    play_with(mode, seed, &[("margin", ParamValue::Float(3.0))])
}

#[test]
fn games_are_reproducible_from_the_seed() {
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        assert_eq!(play(mode, 5), play(mode, 5));
    }
}

#[test]
fn the_weights_given_are_those_it_plays_by() {
    // builder's weights given explicitly play the same games; other weights play others
    let builder = [
        ("patterns", ParamValue::Float(1.5)),
        ("heroic", ParamValue::Float(2.5)),
    ];
    let other = [
        ("heroic", ParamValue::Float(5.0)),
        ("readiness_decay", ParamValue::Float(0.25)),
    ];
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        assert_eq!(play_with(mode, 3, &[]), play_with(mode, 3, &builder));
        assert_ne!(play_with(mode, 3, &[]), play_with(mode, 3, &other));
    }
}

#[test]
fn parameters_are_checked() {
    let err = |params: &[(&str, ParamValue)]| match make_strategy_with("swift", 0, 0, params) {
        Ok(_) => panic!("accepted {params:?}"),
        Err(e) => e,
    };
    assert_eq!(
        err(&[("rollouts", ParamValue::Int(0))]),
        "strategy 'swift': parameter 'rollouts' must be at least 1 (rollouts per close option of an action \
         decision), got 0"
    );
    assert!(err(&[("margin", ParamValue::Float(-1.0))]).contains("must be at least 0"));
    assert_eq!(
        err(&[("base", ParamValue::Text("greedy"))]),
        "strategy 'swift' has no parameter 'base'; its parameters: common, destruction, effect_runs, \
         flare_margin, halving, heroic, legend_cards, legendary, margin, pass_control, pass_margin, \
         patterns, readiness_decay, rollout_placements, rollouts, score, shortlist, tasks, threat"
    );
    // its evaluation's weights are builder's unless given, checked as the lookahead checks them
    assert!(
        err(&[("readiness_decay", ParamValue::Float(2.0))]).contains("must be between 0.0 and 1.0")
    );
    assert!(
        err(&[("max_placements", ParamValue::Int(2))]).contains("no parameter 'max_placements'")
    );
    let s = SwiftParams::resolve(&[
        ("shortlist", ParamValue::Int(3)),
        ("heroic", ParamValue::Float(4.5)),
    ])
    .unwrap();
    let p = &s.params;
    assert_eq!((p.rollouts, p.shortlist, p.margin), (2, 3, 1.0));
    let builder = Params::preset("builder").unwrap();
    assert_eq!(
        s.weights,
        Params {
            heroic: 4.5,
            ..builder
        }
    );
    let swift = Swift::new(0, &s);
    assert_eq!(
        (
            swift.setting("heroic"),
            swift.setting("shortlist"),
            swift.setting("explore")
        ),
        (Some(4.5), Some(3.0), None)
    );
    assert_eq!(make_strategy("swift", 0, 0).unwrap().name(), "swift");
}

/// Records, at each action decision offering the flare, whether the player had a later turn and whether it
/// invoked the flare.
struct FlareWatch {
    player: Box<dyn Strategy>,
    seen: std::rc::Rc<std::cell::RefCell<Vec<(bool, bool)>>>,
}

impl Strategy for FlareWatch {
    fn name(&self) -> &str {
        "flare-watch"
    }

    fn choose(&mut self, view: &PlayerView, d: &Decision) -> usize {
        let i = self.player.choose(view, d);
        let flare = Opt::Action(tk_engine::decisions::Action::Flare);
        if d.kind == Kind::Action && d.options.contains(&flare) {
            let later =
                tk_engine::players::evaluate::later_turn(view.sandbox_state(), d.player, false);
            self.seen.borrow_mut().push((later, d.options[i] == flare));
        }
        i
    }
}

/// The flare costs no action: it is kept while it does not gain `flare_margin` over keeping it, except on
/// the player's last turn, where keeping it is worth nothing.
#[test]
fn the_flare_is_kept_unless_it_pays_or_the_turn_is_the_last() {
    let invoked = |margin: f64| {
        let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        for seed in 0..12u64 {
            let mode = [Mode::Deathmatch, Mode::HighForm][seed as usize % 2];
            let params = [("flare_margin", ParamValue::Float(margin))];
            let players: [Box<dyn Strategy>; 2] = [
                Box::new(FlareWatch {
                    player: make_strategy_with("swift", 0, seed, &params).unwrap(),
                    seen: std::rc::Rc::clone(&seen),
                }),
                make_strategy("builder", 1, seed).unwrap(),
            ];
            game(mode, players, seed).play();
        }
        let seen = seen.borrow();
        let count = |later: bool| {
            let on: Vec<_> = seen.iter().filter(|s| s.0 == later).collect();
            (on.iter().filter(|s| s.1).count(), on.len())
        };
        (count(true), count(false))
    };
    // a margin no flare clears: invoked on last turns only
    let ((before_last, offered), (on_last, last)) = invoked(1000.0);
    assert_eq!(
        before_last, 0,
        "invoked before the last turn ({offered} offers)"
    );
    assert!(
        on_last > 0,
        "never invoked on the last turn ({last} offers)"
    );
    // no margin: invoked whenever it gains, before the last turn too
    let ((before_last, _), _) = invoked(0.0);
    assert!(before_last > 0);
}

/// Counts the cards a player returns after its discards.
struct ReturnWatch {
    player: Box<dyn Strategy>,
    returned: std::rc::Rc<std::cell::Cell<usize>>,
}

impl Strategy for ReturnWatch {
    fn name(&self) -> &str {
        "return-watch"
    }

    fn choose(&mut self, view: &PlayerView, d: &Decision) -> usize {
        let i = self.player.choose(view, d);
        if d.kind == Kind::Return && matches!(d.options[i], Opt::Being(_)) {
            self.returned.set(self.returned.get() + 1);
        }
        i
    }
}

/// A discard that returns cards is valued with what their replacements are expected to add, so swift
/// (which plays out no clear decision) discards to cycle toward playable cards; valued as the plain discard,
/// as builder values it, it never did.
#[test]
fn swift_returns_cards_worth_less_than_a_fresh_draw() {
    let returned = std::rc::Rc::new(std::cell::Cell::new(0));
    for seed in 0..12u64 {
        let mode = [Mode::Deathmatch, Mode::HighForm][seed as usize % 2];
        let players: [Box<dyn Strategy>; 2] = [
            Box::new(ReturnWatch {
                player: make_strategy("swift", 0, seed).unwrap(),
                returned: std::rc::Rc::clone(&returned),
            }),
            make_strategy("builder", 1, seed).unwrap(),
        ];
        game(mode, players, seed).play();
    }
    assert!(returned.get() > 0, "no card returned in 12 games");
}
