//! What the scripted strategies compute about a position agrees with the engine, on random positions (the
//! tests of tests/test_strategies_features.py and of the sandbox explorer in tests/test_strategies.py,
//! moved here with the Python lookahead they tested; the same positions, drawn from the same streams).

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::sync::Arc;

use tk_engine::board::{self, bit, bits, Bits, Square, ADJACENT};
use tk_engine::cards::CardSet;
use tk_engine::decisions::{Kind, Opt};
use tk_engine::game::{Game, GameOptions};
use tk_engine::players::geometry::around;
use tk_engine::players::make_strategy;
use tk_engine::players::readiness::Position;
use tk_engine::players::sandbox::best_outcome;
use tk_engine::players::task_progress::{progress, Measure};
use tk_engine::rng::PyRandom;
use tk_engine::state::{shared_rng, GameState, Mode};

const TURN_TASKS: [&str; 2] = ["destruction", "summoning"];
const MODES: [Mode; 2] = [Mode::HighForm, Mode::Deathmatch];

fn cards() -> Arc<CardSet> {
    Arc::new(CardSet::from_json(include_str!("data/cards.json")).expect("card set"))
}

fn arena_squares() -> Vec<Square> {
    bits(board::ARENA).collect()
}

/// Random games of `games` seeds (both forms, base decks drawn from `random.Random(3)`), with `check`
/// called at the end of every turn, as `_positions` of the Python test yields them.
fn positions(games: u64, mut check: impl FnMut(&mut Game)) {
    let cards = cards();
    let decks = ["imperial", "highland", "sylvan"];
    let mut rng = PyRandom::new(3);
    for seed in 0..games {
        let pick = [
            decks[rng.randbelow(3) as usize],
            decks[rng.randbelow(3) as usize],
        ];
        let players = [
            make_strategy("random", 0, seed).unwrap(),
            make_strategy("random", 1, seed).unwrap(),
        ];
        let mode = MODES[(seed % 2) as usize];
        let mut game = Game::new(
            Arc::clone(&cards),
            mode,
            pick,
            players,
            seed,
            GameOptions::default(),
        )
        .unwrap();
        game.setup();
        while !game.state.over {
            game.play_turn();
            check(&mut game);
        }
    }
}

#[test]
fn around_is_every_square_within_one_step() {
    let mut rng = PyRandom::new(1);
    let squares = arena_squares();
    for _ in 0..200 {
        let mut bb: Bits = 0;
        for _ in 0..rng.randrange(8) {
            bb |= bit(squares[rng.randrange(squares.len())]);
        }
        let expected = bits(bb).fold(bb, |m, sq| m | ADJACENT[sq as usize]);
        assert_eq!(around(bb), expected);
    }
}

/// A common piece completes the pattern exactly on the squares said to improve it.
fn check_improving_squares(
    game: &mut Game,
    p: usize,
    card: tk_engine::cards::BeingId,
    pos: &Position,
) {
    let cards = Arc::clone(&game.state.cards);
    let squares = pos.improving_squares(cards.being(card), 1);
    for sq in bits(game.state.empty()) {
        game.state.pieces[p][0] |= bit(sq);
        let completes = game.has_placement(p, card);
        game.state.pieces[p][0] &= !bit(sq);
        assert_eq!(
            completes,
            squares >> sq & 1 == 1,
            "{} {sq}",
            cards.being(card).id
        );
    }
}

#[test]
fn pattern_cost_zero_exactly_when_the_engine_finds_a_placement() {
    let (mut checked, mut improved) = (0, 0);
    positions(30, |game| {
        if game.state.counters.borrow_enemy_piece {
            return;
        }
        for p in 0..2 {
            let s = &game.state;
            if s.tokens[p] == 0 || s.legend_stock[p] == 0 || s.pieces[p][2].count_ones() >= 3 {
                continue; // the pattern cost does not look at the stock
            }
            let pos = Position::new(&s.pieces[p], &s.pieces[1 - p]);
            let hand: Vec<_> = s.hand[p]
                .iter()
                .chain(s.legend_hand[p].iter())
                .copied()
                .collect();
            let cards = Arc::clone(&s.cards);
            for card in hand {
                let cost = pos.best_cost(cards.being(card));
                assert_eq!(
                    cost == 0,
                    game.has_placement(p, card),
                    "{} {cost}",
                    cards.being(card).id
                );
                checked += 1;
                if cost == 1 {
                    check_improving_squares(game, p, card, &pos);
                    improved += 1;
                }
            }
        }
    });
    assert!(checked > 500 && improved > 20, "{checked} {improved}");
}

/// (condition name, whether it is a turn task) of every task.
fn conditions(cards: &CardSet) -> Vec<(&'static str, bool)> {
    cards
        .tasks
        .iter()
        .map(|t| (t.condition_name, TURN_TASKS.contains(&t.category)))
        .collect()
}

fn holds(s: &GameState, name: &str, p: usize) -> bool {
    tk_engine::tasks::condition(name).expect("a condition")(s, p)
}

fn measure(name: &str) -> Measure {
    Measure::from_name(name).expect("a measure for every condition")
}

#[test]
fn task_progress_reaches_one_exactly_when_the_task_is_met_on_dense_arenas() {
    let cards = cards();
    let arena: BTreeSet<&str> = conditions(&cards)
        .into_iter()
        .filter(|&(_, turn)| !turn)
        .map(|(n, _)| n)
        .collect();
    let mut s = GameState::new(Arc::clone(&cards), Mode::HighForm, [0, 0], 0, 200);
    let mut rng = PyRandom::new(4);
    let squares = arena_squares();
    let mut met = BTreeSet::new();
    for _ in 0..400 {
        s.pieces = Default::default();
        let density = rng.random();
        for &sq in &squares {
            if rng.random() < density {
                let owner = rng.randrange(2);
                let rank = [0, 0, 0, 1, 1, 2][rng.randbelow(6) as usize];
                s.pieces[owner][rank] |= bit(sq);
            }
        }
        for p in 0..2 {
            for &cond in &arena {
                let h = holds(&s, cond, p);
                assert_eq!(progress(measure(cond), &s, p) == 1.0, h, "{cond}");
                if h {
                    met.insert(cond);
                }
            }
        }
    }
    assert_eq!(met, arena);
}

#[test]
fn task_progress_reaches_one_exactly_when_the_task_is_met() {
    let cards = cards();
    let all = conditions(&cards);
    let mut rng = PyRandom::new(9);
    let squares = arena_squares();
    let mut met = BTreeSet::new();
    positions(20, |game| {
        let s = &mut game.state;
        for p in 0..2 {
            for &(cond, turn) in &all {
                if turn {
                    continue;
                }
                let h = holds(s, cond, p);
                let value = progress(measure(cond), s, p);
                assert!(
                    (value == 1.0) == h && (0.0..=1.0).contains(&value),
                    "{cond}"
                );
                if h {
                    met.insert(cond);
                }
            }
        }
        let p = s.active;
        s.counters.destroyed = [0; 3].map(|_| rng.randrange(4) as i32);
        s.counters.summoned.clear();
        for _ in 0..rng.randrange(4) {
            let sq = squares[rng.randbelow(squares.len() as u64) as usize];
            s.counters.summoned.push((sq, rng.randrange(3) as u8));
        }
        for &(cond, turn) in &all {
            if turn {
                assert_eq!(
                    progress(measure(cond), s, p) == 1.0,
                    holds(s, cond, p),
                    "{cond}"
                );
                assert_eq!(progress(measure(cond), s, 1 - p), 0.0, "{cond}");
            }
        }
    });
    assert!(met.len() >= 5, "{met:?}");
}

#[test]
fn exploring_tries_the_alternatives_of_unjudged_choices_depth_first() {
    let cards = cards();
    let mut base = GameState::new(Arc::clone(&cards), Mode::HighForm, [0, 0], 1, 200);
    base.turn = 2;
    let picked: RefCell<(Opt, Opt)> = RefCell::new((Opt::None, Opt::None));
    let act = |game: &mut Game| {
        let labels = [Opt::Label("a"), Opt::Label("b"), Opt::Label("c")];
        let branch = game.ask(0, Kind::Branch, &labels, "", "");
        let direction = game.ask(
            0,
            Kind::Direction,
            &[Opt::Direction(0), Opt::Direction(1)],
            "",
            "",
        );
        *picked.borrow_mut() = (branch, direction);
    };
    let value = |_: &GameState| match *picked.borrow() {
        (Opt::Label("c"), Opt::Direction(1)) => 5.0,
        (Opt::Label("b"), Opt::Direction(0)) => 3.0,
        _ => 0.0,
    };
    let policy = |_: &GameState, _: &tk_engine::decisions::Decision| (0, false);
    let run = |budget: i64| {
        let rng = shared_rng(0);
        let best = best_outcome(&base, &rng, &act, &policy, &value, budget);
        (best.value, best.into_answers())
    };
    let answers = |b: &'static str, d: u8| {
        vec![
            (Kind::Branch, Opt::Label(b)),
            (Kind::Direction, Opt::Direction(d)),
        ]
    };
    assert_eq!(run(10), (5.0, answers("c", 1)));
    assert_eq!(run(2).1, answers("b", 0)); // only the first choice's alternatives
    assert_eq!(run(0).1, answers("a", 0));
}
