//! The Rust players in a Deathmatch melee (3 and 4 players, ../shared/MULTIPLAYER.md): every strategy
//! plays strict melees to the end, the colour choices go to the lowest colour, builder beats random
//! players clearly, and the search players never read what they cannot see.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use tk_engine::decisions::{Decision, Kind, Opt, PlayerView, Strategy};
use tk_engine::game::{Game, GameOptions, Players};
use tk_engine::players::expert::Expert;
use tk_engine::players::lookahead::Lookahead;
use tk_engine::players::mc::{McParams, MonteCarlo};
use tk_engine::players::params::{ExpertParams, ParamValue, Params, PlannerParams};
use tk_engine::players::planner::Planner;
use tk_engine::players::{make_strategy, make_strategy_with};
use tk_engine::record::{Event, GameRecord};
use tk_engine::rng::PyRandom;
use tk_engine::state::{shared_rng, GameState, Mode};

use common::{cards, melee_after_some_turns, reshuffled_hidden_melee};

const THREE: [&str; 3] = ["imperial", "sylvan", "highland"];
const FOUR: [&str; 4] = ["imperial", "sylvan", "highland", "imperial"];

/// Small budgets for the search players (debug-mode tests).
fn small(name: &str) -> Vec<(&'static str, ParamValue)> {
    match name {
        "planner" => vec![
            ("rollouts", ParamValue::Int(2)),
            ("shortlist", ParamValue::Int(3)),
        ],
        "mc" => vec![("rollouts", ParamValue::Int(2))],
        "mc-planner" => vec![
            ("base", ParamValue::Text("planner")),
            ("rollouts", ParamValue::Int(1)),
        ],
        "expert" => vec![("iterations", ParamValue::Int(24))],
        _ => Vec::new(),
    }
}

fn player(name: &str, seat: usize, seed: u64) -> Box<dyn Strategy> {
    let real = if name == "mc-planner" { "mc" } else { name };
    make_strategy_with(real, seat, seed, &small(name)).unwrap()
}

/// A strict melee of `decks`, seat `i` played by `names[i]`, to the end or `max_turns`.
fn play(decks: &[&str], names: &[&str], seed: u64, max_turns: u32) -> GameRecord {
    let players = names
        .iter()
        .enumerate()
        .map(|(seat, name)| player(name, seat, seed))
        .collect();
    let options = GameOptions {
        strict: true,
        max_turns,
        ..GameOptions::default()
    };
    let mut g = Game::table(cards(), Mode::Deathmatch, decks, players, seed, options).unwrap();
    g.play();
    let r = g.take_record();
    assert_eq!(r.scores.len(), decks.len());
    assert_eq!(r.places.len(), decks.len());
    assert!(r.places.contains(&1));
    r
}

#[test]
fn the_scripted_players_play_strict_three_and_four_player_melees_to_the_end() {
    let names = ["greedy", "builder", "hunter", "brawler", "random"];
    for seed in 0..5u64 {
        for decks in [&THREE[..], &FOUR[..]] {
            let table: Vec<&str> = (0..decks.len())
                .map(|i| names[(i + seed as usize) % names.len()])
                .collect();
            let r = play(decks, &table, seed, 200);
            assert!(
                r.end_reason == "score" || r.end_reason == "deck",
                "{table:?} seed {seed}: {}",
                r.end_reason
            );
        }
    }
}

#[test]
fn planner_and_mc_play_strict_three_and_four_player_melees() {
    for name in ["planner", "mc"] {
        for seed in [1, 2] {
            play(&THREE, &[name, "builder", name], seed, 200);
            play(&FOUR, &["random", name, "hunter", name], seed, 200);
        }
    }
}

#[test]
fn the_expert_plays_strict_three_and_four_player_melees() {
    play(&THREE, &["expert", "builder", "random"], 3, 200);
    play(&FOUR, &["random", "expert", "greedy", "builder"], 3, 200);
}

#[test]
fn mc_over_the_default_player_plays_melees() {
    // its rollouts are played by planners: a few turns only
    for (decks, table) in [
        (&THREE[..], &["mc-planner", "builder", "random"][..]),
        (
            &FOUR[..],
            &["random", "greedy", "mc-planner", "builder"][..],
        ),
    ] {
        let r = play(decks, table, 3, 9);
        assert_eq!(r.end_reason, "turn-limit");
    }
}

/// Every strategy but random, each built for seat 0 with small budgets.
fn thinking_players(seed: u64) -> Vec<(&'static str, Box<dyn Strategy>)> {
    [
        "greedy", "builder", "hunter", "brawler", "planner", "mc", "expert",
    ]
    .into_iter()
    .map(|name| (name, player(name, 0, seed)))
    .collect()
}

fn decision(kind: Kind, options: &[Opt]) -> Decision<'_> {
    Decision {
        kind,
        player: 0,
        options,
        card: "",
        prompt: "",
    }
}

#[test]
fn the_legend_point_and_the_leftover_point_go_to_the_lowest_colour() {
    let mut s = melee_after_some_turns(&FOUR, 1, 6);
    s.colour_points[0] = [0, 4, 2, 3];
    let all = [Opt::Seat(1), Opt::Seat(2), Opt::Seat(3)];
    for (name, mut p) in thinking_players(5) {
        let view = PlayerView::new(&s, 0);
        assert_eq!(
            p.choose(&view, &decision(Kind::LegendColour, &all)),
            1,
            "{name}"
        );
        let two = [Opt::Seat(1), Opt::Seat(3)];
        assert_eq!(
            p.choose(&view, &decision(Kind::LeftoverColour, &two)),
            1,
            "{name}"
        );
    }
    // the legend's point counts this turn's destruction: two heroes of seat 2 will score 2 there
    s.active = 0;
    s.counters.destroyed_of[2] = [0, 2, 0];
    s.counters.destroyed = [0, 2, 0];
    for (name, mut p) in thinking_players(6) {
        let view = PlayerView::new(&s, 0);
        assert_eq!(
            p.choose(&view, &decision(Kind::LegendColour, &all)),
            2,
            "{name}"
        );
    }
    // a tie goes to the lowest seat
    s.counters = Default::default();
    s.colour_points[0] = [0, 3, 2, 2];
    for (name, mut p) in thinking_players(7) {
        let view = PlayerView::new(&s, 0);
        assert_eq!(
            p.choose(&view, &decision(Kind::LegendColour, &all)),
            1,
            "{name}"
        );
    }
}

/// A strategy that logs the decisions it answers and its answers.
struct Spy {
    inner: Box<dyn Strategy>,
    log: Rc<RefCell<Vec<(usize, Kind, Opt)>>>,
}

impl Strategy for Spy {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn choose(&mut self, view: &PlayerView, d: &Decision) -> usize {
        let i = self.inner.choose(view, d);
        self.log.borrow_mut().push((d.player, d.kind, d.options[i]));
        i
    }
}

#[test]
fn builder_beats_random_players_clearly_in_three_player_melees() {
    let games = 30;
    let (mut wins, mut improvised, mut own_first) = (0, 0, 0);
    let log = Rc::new(RefCell::new(Vec::new()));
    for seed in 0..games {
        let me = seed as usize % 3;
        let players = (0..3)
            .map(|seat| {
                let name = if seat == me { "builder" } else { "random" };
                Box::new(Spy {
                    inner: make_strategy(name, seat, seed).unwrap(),
                    log: Rc::clone(&log),
                }) as Box<dyn Strategy>
            })
            .collect();
        let options = GameOptions {
            strict: true,
            ..GameOptions::default()
        };
        let mut g = Game::table(cards(), Mode::Deathmatch, &THREE, players, seed, options).unwrap();
        g.play();
        let r = &g.state.record;
        wins += (r.winner == me as i32) as u32;
        improvised += r
            .events
            .iter()
            .filter(|e| matches!(e, Event::Improvise { seat, .. } if *seat as usize == me))
            .count();
        // the first starting piece builder sets out is its own
        let first = log
            .borrow()
            .iter()
            .find(|(_, k, _)| *k == Kind::MeleeStart)
            .map(|&(seat, _, o)| (seat, o));
        if let Some((seat, Opt::SeatSquare(c, _))) = first {
            if seat == me {
                own_first += (c as usize == me) as u32;
                assert_eq!(c as usize, me, "seed {seed}");
            }
        }
        log.borrow_mut().clear();
    }
    assert!(
        wins >= 2 * games as u32 / 3,
        "builder won {wins} of {games}"
    );
    assert!(improvised > 0, "builder never improvised");
    assert!(own_first > 0, "builder never set out the starting pieces");
}

// ----- hidden information

fn action_options(s: &GameState) -> Vec<Opt> {
    Game::around(s.clone(), Players::Nobody).action_options(0)
}

/// Positions of 3- and 4-player melees at the start of seat 0's turn, each with a copy where what seat 0
/// cannot see is dealt again.
fn positions(seeds: std::ops::Range<u64>) -> Vec<(GameState, GameState)> {
    let mut out = Vec::new();
    let mut changed = 0;
    for seed in seeds {
        for decks in [&THREE[..], &FOUR[..]] {
            let one = melee_after_some_turns(decks, seed, 8);
            let two = reshuffled_hidden_melee(&one, &mut PyRandom::new(seed + 1000));
            changed += (one.hand[1] != two.hand[1] || one.deck[0] != two.deck[0]) as u32;
            out.push((one, two));
        }
    }
    assert!(changed > 0, "the reshuffle changed nothing");
    out
}

#[test]
fn builders_decisions_do_not_depend_on_hidden_information() {
    let params = Params::preset("builder").unwrap();
    for (k, (one, two)) in positions(0..4).iter().enumerate() {
        let options = action_options(one);
        let d = decision(Kind::Action, &options);
        let picks: Vec<_> = [one, two]
            .iter()
            .map(|s| {
                let mut b = Lookahead::new("builder", k as u64, &params);
                let sandbox = PlayerView::new(s, 0).sandbox(&shared_rng(k as u64));
                let outcomes = b.option_outcomes(sandbox, &d);
                let choice = b.choose(&PlayerView::new(s, 0), &d);
                (outcomes, choice, b.plan().clone())
            })
            .collect();
        assert_eq!(picks[0], picks[1], "position {k}");
    }
}

#[test]
fn planners_decisions_do_not_depend_on_hidden_information() {
    let params = PlannerParams::resolve(&small("planner")).unwrap();
    for (k, (one, two)) in positions(0..2).iter().enumerate() {
        let options = action_options(one);
        let d = decision(Kind::Action, &options);
        let picks: Vec<_> = [one, two]
            .iter()
            .map(|s| {
                let view = PlayerView::new(s, 0);
                let values = Planner::new(k as u64, &params).option_values(&view, &d);
                let mut p = Planner::new(k as u64, &params);
                let choice = p.choose(&view, &d);
                (values, choice, p.base().plan().clone())
            })
            .collect();
        assert_eq!(picks[0], picks[1], "position {k}");
        assert!(picks[0].0.iter().all(|v| v.1.is_finite()));
    }
}

#[test]
fn mc_and_expert_decisions_do_not_depend_on_hidden_information() {
    let mc = McParams::resolve(&small("mc")).unwrap();
    let ex = ExpertParams::resolve(&small("expert")).unwrap();
    for (k, (one, two)) in positions(0..1).iter().enumerate() {
        let options = action_options(one);
        let d = decision(Kind::Action, &options);
        let picks: Vec<_> = [one, two]
            .iter()
            .map(|s| {
                let view = PlayerView::new(s, 0);
                let mut m = MonteCarlo::new(k as u64, &mc);
                let m_choice = m.choose(&view, &d);
                let mut e = Expert::new(k as u64, &ex);
                let e_choice = e.choose(&view, &d);
                (
                    m_choice,
                    m.base().plan().clone(),
                    e_choice,
                    e.plan().clone(),
                )
            })
            .collect();
        assert_eq!(picks[0], picks[1], "position {k}");
    }
}
