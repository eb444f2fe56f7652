//! The Rust players in team games, 2 against 2 (../shared/MULTIPLAYER.md, "Team games"): every strategy
//! plays strict team games to the end in both forms, handles the option of passing control (before an
//! action and inside an effect), passes sometimes when `pass_control` is on and never when it is off,
//! builder's team beats a team of random players, a game is a function of its seed, a plan is never
//! replayed by the other seat or after control has passed, and no player reads what it cannot see (its
//! teammate's hand included).

mod common;

use tk_engine::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use tk_engine::game::{Game, GameOptions, Players};
use tk_engine::players::expert::Expert;
use tk_engine::players::lookahead::Lookahead;
use tk_engine::players::make_strategy_with;
use tk_engine::players::mc::{McParams, MonteCarlo};
use tk_engine::players::params::{ExpertParams, ParamValue, Params, PlannerParams};
use tk_engine::players::planner::Planner;
use tk_engine::record::{Event, GameRecord};
use tk_engine::rng::PyRandom;
use tk_engine::state::{shared_rng, GameState, Mode, TurnCounters};

use common::cards;

const DECKS: [&str; 3] = ["imperial", "sylvan", "highland"];
const MODES: [Mode; 2] = [Mode::HighForm, Mode::Deathmatch];

/// Small budgets for the search players, and `pass_control` as given (None: the default).
fn params(name: &str, pass: Option<bool>) -> Vec<(&'static str, ParamValue)> {
    let mut out = match name {
        // no margin: with the default one the planner passes about once in 20 games
        "planner" => vec![
            ("rollouts", ParamValue::Int(2)),
            ("shortlist", ParamValue::Int(3)),
            ("pass_margin", ParamValue::Float(0.0)),
        ],
        "mc" => vec![("rollouts", ParamValue::Int(2))],
        "mc-planner" => vec![
            ("base", ParamValue::Text("planner")),
            ("rollouts", ParamValue::Int(1)),
        ],
        "expert" => vec![("iterations", ParamValue::Int(24))],
        _ => Vec::new(),
    };
    if let Some(on) = pass {
        out.push(("pass_control", ParamValue::Bool(on)));
    }
    out
}

fn player(name: &str, seat: usize, seed: u64, pass: Option<bool>) -> Box<dyn Strategy> {
    let real = if name == "mc-planner" { "mc" } else { name };
    let pass = if name == "random" { None } else { pass };
    make_strategy_with(real, seat, seed, &params(name, pass)).unwrap()
}

/// The decks of a table: rotating with the seed.
fn table(seed: u64) -> Vec<&'static str> {
    (0..4)
        .map(|i| DECKS[(seed as usize + i * 2 + i / 2) % 3])
        .collect()
}

/// A strict team game, seat `i` played by `names[i]`, to the end or `max_turns`.
fn play(mode: Mode, names: [&str; 4], seed: u64, max_turns: u32, pass: Option<bool>) -> GameRecord {
    let players = names
        .iter()
        .enumerate()
        .map(|(seat, name)| player(name, seat, seed, pass))
        .collect();
    let options = GameOptions {
        strict: true,
        max_turns,
        ..GameOptions::default()
    };
    let mut g = Game::teams(cards(), mode, &table(seed), players, seed, options).unwrap();
    g.play();
    let r = g.take_record();
    assert_eq!(r.scores.len(), 2);
    assert!((-1..2).contains(&r.winner), "winner {}", r.winner);
    for e in &r.events {
        assert!((-1..4).contains(&*e.clone().seat_mut()), "{e:?}");
    }
    r
}

/// The seats that passed control in a record.
fn passes(r: &GameRecord) -> Vec<usize> {
    r.events
        .iter()
        .filter_map(|e| match e {
            Event::PassControl { seat, .. } => Some(*seat as usize),
            _ => None,
        })
        .collect()
}

fn finished(r: &GameRecord) -> bool {
    r.end_reason == "score" || r.end_reason == "deck"
}

// ----- whole games

#[test]
fn the_scripted_players_play_strict_team_games_to_the_end_in_both_forms() {
    let names = ["greedy", "builder", "hunter", "brawler", "random"];
    for mode in MODES {
        for seed in 0..5u64 {
            let t: [&str; 4] = std::array::from_fn(|i| names[(i + seed as usize) % names.len()]);
            let r = play(mode, t, seed, 200, None);
            assert!(finished(&r), "{t:?} {mode:?} seed {seed}: {}", r.end_reason);
        }
    }
}

#[test]
fn planner_and_mc_play_strict_team_games_in_both_forms() {
    for mode in MODES {
        for name in ["planner", "mc"] {
            let r = play(mode, [name, "builder", name, "random"], 1, 200, None);
            assert!(finished(&r), "{name} {mode:?}: {}", r.end_reason);
        }
    }
}

#[test]
fn the_expert_plays_strict_team_games_in_both_forms() {
    for mode in MODES {
        let r = play(
            mode,
            ["random", "expert", "builder", "expert"],
            3,
            200,
            None,
        );
        assert!(finished(&r), "{mode:?}: {}", r.end_reason);
    }
}

#[test]
fn mc_over_the_default_player_plays_team_games() {
    // its rollouts are played by planners: a few turns only
    for mode in MODES {
        let r = play(
            mode,
            ["mc-planner", "random", "builder", "greedy"],
            3,
            9,
            None,
        );
        assert_eq!(r.end_reason, "turn-limit");
    }
}

#[test]
fn builders_team_beats_a_team_of_random_players() {
    let games = 20u64;
    for mode in MODES {
        let mut wins = 0;
        for seed in 0..games {
            // builder's team is A (seats 0 and 2) or B, by turns
            let a = seed % 2 == 0;
            let t = if a {
                ["builder", "random", "builder", "random"]
            } else {
                ["random", "builder", "random", "builder"]
            };
            let r = play(mode, t, seed, 200, None);
            wins += (r.winner == (!a) as i32) as u32;
        }
        assert!(
            wins >= 16,
            "builder's team won {wins} of {games} in {mode:?}"
        );
    }
}

#[test]
fn every_player_sometimes_passes_control_and_never_when_it_may_not() {
    // (player, games per form): the expensive ones play fewer, shorter games
    let cases: [(&str, u64, u32); 7] = [
        ("greedy", 3, 200),
        ("builder", 3, 200),
        ("hunter", 3, 200),
        ("brawler", 3, 200),
        ("planner", 1, 200),
        ("mc", 1, 40),
        ("expert", 1, 40),
    ];
    for (name, games, turns) in cases {
        for pass in [true, false] {
            let mut passed = 0;
            for mode in MODES {
                for seed in 0..games {
                    // the player in team A (seats 0 and 2) against builders that may pass
                    let r = play(
                        mode,
                        [name, "builder", name, "builder"],
                        seed,
                        turns,
                        Some(pass),
                    );
                    passed += passes(&r).iter().filter(|&&s| s % 2 == 0).count();
                }
            }
            if pass {
                assert!(passed > 0, "{name} never passed control");
            } else {
                assert_eq!(passed, 0, "{name} passed control with pass_control off");
            }
        }
    }
    // random passes too (it is the fuzzer: uniform over the options, the pass included)
    let r = play(
        Mode::HighForm,
        ["random", "random", "random", "random"],
        1,
        200,
        None,
    );
    assert!(!passes(&r).is_empty());
}

#[test]
fn a_team_game_is_a_function_of_its_seed() {
    for mode in MODES {
        for names in [
            ["builder", "random", "hunter", "brawler"],
            ["planner", "greedy", "mc", "expert"],
        ] {
            let turns = if names[0] == "planner" { 12 } else { 200 };
            let one = play(mode, names, 7, turns, None);
            let two = play(mode, names, 7, turns, None);
            assert_eq!(one.to_json(), two.to_json(), "{names:?} {mode:?}");
        }
    }
}

// ----- effect decisions with the option of passing

/// A strategy that answers every decision by the inner strategy, and counts the effect decisions asked
/// with the option of passing control.
struct Counting {
    inner: Box<dyn Strategy>,
    offered: std::rc::Rc<std::cell::Cell<u32>>,
}

impl Strategy for Counting {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn choose(&mut self, view: &PlayerView, d: &Decision) -> usize {
        if d.kind != Kind::Action && d.options.last() == Some(&Opt::Action(Action::Pass)) {
            self.offered.set(self.offered.get() + 1);
        }
        self.inner.choose(view, d)
    }
}

#[test]
fn the_players_answer_effect_decisions_that_offer_passing_control() {
    for name in ["builder", "brawler", "planner"] {
        let offered = std::rc::Rc::new(std::cell::Cell::new(0));
        for mode in MODES {
            for seed in 0..2u64 {
                let players = (0..4)
                    .map(|seat| {
                        Box::new(Counting {
                            inner: player(name, seat, seed, None),
                            offered: std::rc::Rc::clone(&offered),
                        }) as Box<dyn Strategy>
                    })
                    .collect();
                let options = GameOptions {
                    strict: true,
                    ..GameOptions::default()
                };
                let mut g =
                    Game::teams(cards(), mode, &table(seed), players, seed, options).unwrap();
                g.play();
                // the lookahead players finish an effect themselves: never a pass in its middle
                let mid =
                    g.state.record.events.iter().any(
                        |e| matches!(e, Event::PassControl { during, .. } if !during.is_empty()),
                    );
                assert!(!mid, "{name} passed control inside an effect");
            }
        }
        assert!(
            offered.get() > 0,
            "{name}: no effect decision offered a pass"
        );
    }
}

// ----- plans

/// A team game of random players at the start of seat 0's turn (turn `turns` or a few more), seat 0
/// holding side 0's cards.
fn team_after_some_turns(mode: Mode, seed: u64, turns: u32) -> GameState {
    let players = (0..4)
        .map(|seat| player("random", seat, seed, None))
        .collect();
    let mut g = Game::teams(
        cards(),
        mode,
        &table(seed),
        players,
        seed,
        GameOptions::default(),
    )
    .unwrap();
    g.setup();
    while g.state.turn < turns || g.state.teams.as_ref().unwrap().turn_seat != 0 {
        g.play_turn();
        assert!(!g.state.over, "the game ended before turn {turns}");
    }
    let s = &mut g.state;
    assert_eq!((s.active, s.seat_of(0)), (0, 0));
    s.turn += 1;
    s.actions_left = 2;
    s.counters = TurnCounters::default();
    *g.state
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

fn place_options(s: &GameState) -> Vec<Opt> {
    (0..81u8)
        .filter(|&sq| s.piece_at(sq).is_none())
        .map(Opt::Square)
        .collect()
}

#[test]
fn a_plan_is_not_answered_from_in_another_turn_or_after_control_has_passed() {
    let params = Params::preset("builder").unwrap();
    let s = team_after_some_turns(Mode::HighForm, 4, 8);
    let options = place_options(&s);
    let d = decision(Kind::Place, &options);
    // the planned square: the last empty one, which builder's rules would not choose here
    let planned = *options.last().unwrap();
    let fresh = Lookahead::new("builder", 1, &params).choose(&PlayerView::new(&s, 0), &d);
    assert_ne!(options[fresh], planned);
    // the same turn: the plan answers
    let mut b = Lookahead::new("builder", 1, &params);
    b.set_plan_for(&PlayerView::new(&s, 0), vec![(Kind::Place, planned)]);
    assert_eq!(
        options[b.choose(&PlayerView::new(&s, 0), &d)],
        planned,
        "the plan of the turn"
    );
    // control passed in the turn the plan was made: the plan is not answered from
    let mut passed = s.clone();
    passed.teams.as_mut().unwrap().controller = Some(2);
    let mut b = Lookahead::new("builder", 1, &params);
    b.set_plan_for(&PlayerView::new(&s, 0), vec![(Kind::Place, planned)]);
    let i = b.choose(&PlayerView::new(&passed, 0), &d);
    assert!(b.plan().is_empty());
    let j = Lookahead::new("builder", 1, &params).choose(&PlayerView::new(&passed, 0), &d);
    assert_eq!(i, j);
    // another turn (the side's next one, played by the other seat)
    let mut later = s.clone();
    later.turn += 2;
    later.teams.as_mut().unwrap().turn_seat = 2;
    let mut b = Lookahead::new("builder", 1, &params);
    b.set_plan_for(&PlayerView::new(&s, 0), vec![(Kind::Place, planned)]);
    let i = b.choose(&PlayerView::new(&later, 0), &d);
    let j = Lookahead::new("builder", 1, &params).choose(&PlayerView::new(&later, 0), &d);
    assert_eq!(i, j);
}

#[test]
fn passing_before_an_action_plans_nothing_and_is_valued() {
    let params = Params::preset("builder").unwrap();
    let mut valued = 0;
    for seed in 0..6u64 {
        let s = team_after_some_turns(MODES[seed as usize % 2], seed, 8);
        let options = Game::around(s.clone(), Players::Nobody).action_options(0);
        assert_eq!(options.last(), Some(&Opt::Action(Action::Pass)));
        let d = decision(Kind::Action, &options);
        let b = Lookahead::new("builder", seed, &params);
        let outcomes = b.option_outcomes(PlayerView::new(&s, 0).sandbox(&shared_rng(seed)), &d);
        let (value, plan) = outcomes.last().unwrap();
        assert!(value.is_finite());
        assert!(
            plan.is_empty(),
            "the teammate answers for himself: {plan:?}"
        );
        valued += 1;
    }
    assert_eq!(valued, 6);
}

// ----- hidden information

/// What seat 0 cannot see in a team game dealt again: the teammate's hand and deck, the opponents'
/// hands and decks, the legends and flares others hold with the legend and flare decks, and every deck's
/// order.
fn reshuffled_hidden_team(s: &GameState, rng: &mut PyRandom) -> GameState {
    fn redeal<T: Copy>(rng: &mut PyRandom, hands: &mut [&mut Vec<T>], deck: &mut Vec<T>) {
        let mut pool: Vec<T> = deck.clone();
        for h in hands.iter() {
            pool.extend_from_slice(h);
        }
        rng.shuffle(&mut pool);
        let mut rest = &pool[..];
        for h in hands.iter_mut() {
            let n = h.len();
            h.clear();
            h.extend_from_slice(&rest[..n]);
            rest = &rest[n..];
        }
        *deck = rest.to_vec();
    }
    let mut t = s.clone();
    {
        let (hand, deck) = (&mut t.hand[1], &mut t.deck[1]);
        redeal(rng, &mut [hand], deck);
    }
    let teams = t.teams.as_mut().unwrap();
    for m in teams.bench.iter_mut() {
        let (hand, deck) = (&mut m.hand, &mut m.deck);
        redeal(rng, &mut [hand], deck);
    }
    {
        let (hand, deck) = (&mut t.legend_hand[1], &mut t.legend_deck);
        redeal(rng, &mut [hand], deck);
    }
    {
        let [a, b] = &mut teams.bench;
        let (f1, deck) = (&mut t.flare_hand[1], &mut t.flare_deck);
        redeal(rng, &mut [f1, &mut a.flare_hand, &mut b.flare_hand], deck);
    }
    rng.shuffle(&mut t.deck[0]);
    rng.shuffle(&mut t.task_deck);
    t
}

/// Positions of team games at the start of seat 0's turn, each with a copy where what seat 0 cannot see
/// is dealt again.
fn positions(seeds: std::ops::Range<u64>) -> Vec<(GameState, GameState)> {
    let mut out = Vec::new();
    let mut changed = 0;
    for seed in seeds {
        for mode in MODES {
            let one = team_after_some_turns(mode, seed, 8);
            let two = reshuffled_hidden_team(&one, &mut PyRandom::new(seed + 1000));
            let bench = |s: &GameState| s.teams.as_ref().unwrap().bench[0].hand.clone();
            changed += (bench(&one) != bench(&two) || one.hand[1] != two.hand[1]) as u32;
            two.check_invariants().unwrap();
            out.push((one, two));
        }
    }
    assert!(changed > 0, "the reshuffle changed nothing");
    out
}

fn action_options(s: &GameState) -> Vec<Opt> {
    Game::around(s.clone(), Players::Nobody).action_options(0)
}

#[test]
fn builders_decisions_in_team_games_do_not_depend_on_hidden_information() {
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
fn the_teammates_placements_after_a_pass_do_not_depend_on_hidden_information() {
    // control passed to seat 2, who holds his own cards while he places: seat 0's hand is hidden from him
    let params = Params::preset("builder").unwrap();
    // the hidden part for seat 2 is seat 0's hand (on the bench while he places): deal it again
    for (k, (one, _)) in positions(3..5).iter().enumerate() {
        let mut s = one.clone();
        s.teams.as_mut().unwrap().controller = Some(2);
        s.hold(2);
        let mut t = s.clone();
        let mut rng = PyRandom::new(k as u64 + 77);
        {
            let m = &mut t.teams.as_mut().unwrap().bench[0];
            let mut pool: Vec<_> = m.hand.iter().chain(m.deck.iter()).copied().collect();
            rng.shuffle(&mut pool);
            let n = m.hand.len();
            m.hand = pool[..n].to_vec();
            m.deck = pool[n..].to_vec();
        }
        let options = place_options(&s);
        let d = decision(Kind::Place, &options);
        let picks: Vec<usize> = [&s, &t]
            .iter()
            .map(|s| {
                Lookahead::new("builder", k as u64, &params).choose(&PlayerView::new(s, 0), &d)
            })
            .collect();
        assert_eq!(picks[0], picks[1], "position {k}");
    }
}

#[test]
fn planners_decisions_in_team_games_do_not_depend_on_hidden_information() {
    let params = PlannerParams::resolve(&params("planner", None)).unwrap();
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
        // passing is among the options played out
        let pass = options.len() - 1;
        assert!(picks[0].0.iter().any(|v| v.0 == pass), "position {k}");
    }
}

#[test]
fn mc_and_expert_decisions_in_team_games_do_not_depend_on_hidden_information() {
    let mc = McParams::resolve(&params("mc", None)).unwrap();
    let ex = ExpertParams::resolve(&params("expert", None)).unwrap();
    for (k, (one, two)) in positions(0..1).iter().enumerate() {
        let options = action_options(one);
        let d = decision(Kind::Action, &options);
        let picks: Vec<_> = [one, two]
            .iter()
            .map(|s| {
                let view = PlayerView::new(s, 0);
                let mut m = MonteCarlo::new(k as u64, &mc);
                let values = MonteCarlo::new(k as u64, &mc).option_values(&view, &d);
                let m_choice = m.choose(&view, &d);
                let mut e = Expert::new(k as u64, &ex);
                let e_choice = e.choose(&view, &d);
                (
                    values,
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
