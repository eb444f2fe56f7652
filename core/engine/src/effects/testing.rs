//! Scenario helpers for unit tests of card effects (as tests/helpers.py): a scripted player, a position
//! set up by square names, and a summon whose effect decisions go to the script.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

use crate::board::{self, bit, Square};
use crate::cards::{BeingId, CardSet};
use crate::decisions::{Decision, Kind, Opt, PlayerView, Strategy};
use crate::effects::{custom_fn, CustomFn};
use crate::game::{remove_first, Game, GameOptions};
use crate::state::Mode;

/// The square called like `e5` (column a..i, row 1..9 from the top).
pub fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    board::square((b[0] - b'a' + 1) as i32, (b[1] - b'0') as i32)
}

/// Squares by name.
pub fn sqs(names: &[&str]) -> Vec<Opt> {
    names.iter().map(|n| Opt::Square(sq(n))).collect()
}

/// A move option by square names.
pub fn mv(a: &str, b: &str) -> Opt {
    Opt::Move(sq(a), sq(b))
}

/// The decisions a scripted player was offered: (kind, options).
pub type Asked = Rc<RefCell<Vec<(Kind, Vec<Opt>)>>>;

/// Answers decisions from a script, in order; an answer not among the options, or a decision after the
/// script ran out, fails the test.
pub struct Scripted {
    answers: VecDeque<Opt>,
    asked: Asked,
}

impl Strategy for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn choose(&mut self, _view: &PlayerView, d: &Decision) -> usize {
        self.asked.borrow_mut().push((d.kind, d.options.to_vec()));
        let answer = self.answers.pop_front().unwrap_or_else(|| {
            panic!(
                "unexpected decision {:?} with options {:?}",
                d.kind, d.options
            )
        });
        d.options
            .iter()
            .position(|&o| o == answer)
            .unwrap_or_else(|| {
                panic!(
                    "{answer:?} is not among the options of {:?}: {:?}",
                    d.kind, d.options
                )
            })
    }
}

thread_local! {
    static CARDS: Arc<CardSet> = {
        let text = include_str!("../../tests/data/cards.json");
        let stub: CustomFn = |_, _| false;
        Arc::new(
            CardSet::from_json_with(text, &|name| custom_fn(name).or(Some(stub)))
                .expect("card set"),
        )
    };
}

/// The card set of tests/data/cards.json with every registered effect (others do nothing).
fn cards() -> Arc<CardSet> {
    CARDS.with(Arc::clone)
}

/// A game on turn 1 with player 0 (`decks[0]`) to act, the arena holding `pieces` ("e6=1c f5=2h":
/// player 1 or 2, rank c/h/l) taken from the stocks, player 0 holding `card` and the other cards in
/// their decks (in card-set order); player 0's decisions are answered by `answers`.
pub fn position(
    mode: Mode,
    decks: [&str; 2],
    card: &str,
    pieces: &str,
    answers: &[Opt],
) -> (Game<'static>, Asked) {
    let asked: Asked = Rc::default();
    let me = Scripted {
        answers: answers.iter().copied().collect(),
        asked: Rc::clone(&asked),
    };
    let them = Scripted {
        answers: VecDeque::new(),
        asked: Rc::default(),
    };
    let mut game = game_with(mode, &decks, card, vec![Box::new(me), Box::new(them)]);
    put_pieces(&mut game, pieces);
    (game, asked)
}

/// A Deathmatch melee of `decks.len()` players on turn 1 with seat 0 to act, set up as `position`
/// (pieces "e6=3c": seat 3's common); seat `i`'s decisions are answered by `answers[i]`.
pub fn table(
    decks: &[&str],
    card: &str,
    pieces: &str,
    answers: &[&[Opt]],
) -> (Game<'static>, Vec<Asked>) {
    let asked: Vec<Asked> = decks.iter().map(|_| Rc::default()).collect();
    let players: Vec<Box<dyn Strategy>> = (0..decks.len())
        .map(|i| {
            Box::new(Scripted {
                answers: answers
                    .get(i)
                    .map_or_else(VecDeque::new, |a| a.iter().copied().collect()),
                asked: Rc::clone(&asked[i]),
            }) as Box<dyn Strategy>
        })
        .collect();
    let mut game = game_with(Mode::Deathmatch, decks, card, players);
    put_pieces(&mut game, pieces);
    (game, asked)
}

/// Put pieces ("e6=1c f5=2h": seat 1, 2..., rank c/h/l) from the stocks onto the arena.
fn put_pieces(game: &mut Game, pieces: &str) {
    for piece in pieces.split_whitespace() {
        let (at, what) = piece.split_once('=').expect("square=piece");
        let w = what.as_bytes();
        let p = (w[0] - b'1') as usize;
        let rank = b"chl"
            .iter()
            .position(|&c| c == w[1])
            .expect("rank c, h or l") as u8;
        assert!(game.state.piece_at(sq(at)).is_none(), "two pieces on {at}");
        game.state.put(p, rank, sq(at));
    }
}

/// A game on turn 1 with player 0 to act, an empty arena, player 0 holding `card` and the other cards
/// in their decks (in card-set order).
fn game_with(
    mode: Mode,
    decks: &[&str],
    card: &str,
    strategies: Vec<Box<dyn Strategy>>,
) -> Game<'static> {
    let mut game =
        Game::table(cards(), mode, decks, strategies, 0, GameOptions::default()).expect("game");
    let s = &mut game.state;
    s.turn = 1;
    s.actions_left = 1;
    let cards = Arc::clone(&s.cards);
    for p in 0..s.seats {
        s.deck[p] = cards.decks[s.decks[p]].beings.clone();
    }
    s.legend_deck = cards.legends.clone();
    s.flare_deck = cards.flares.iter().map(|f| f.index).collect();
    let id = cards.being_by_id(card).expect("a being");
    if cards.being(id).is_legend() {
        remove_first(&mut s.legend_deck, id);
        s.legend_hand[0].push(id);
    } else {
        remove_first(&mut s.deck[0], id);
        s.hand[0].push(id);
    }
    game
}

/// Player 0 summons the card it holds with its summoning square on `at` in `orientation` (spending the
/// action), as `summon` of tests/helpers.py.
pub fn summon(game: &mut Game, at: &str, orientation: u8) {
    let s = &game.state;
    let card = *s.hand[0]
        .first()
        .or(s.legend_hand[0].first())
        .expect("a card in hand");
    let cards = Arc::clone(&s.cards);
    let pl = game
        .legal_placements(0, card)
        .into_iter()
        .find(|&i| {
            let p = &cards.being(card).placements[i as usize];
            p.origin == sq(at) && p.orientation == orientation
        })
        .unwrap_or_else(|| panic!("cannot summon at {at} in orientation {orientation}"));
    game.state.actions_left -= 1;
    game.summon(0, card, pl);
    game.state.check_invariants().expect("invariants");
}

/// The being of the game's card set called `id`.
pub fn being(game: &Game, id: &str) -> BeingId {
    game.state.cards.being_by_id(id).expect("a being")
}

/// The placement of `card` with its summoning square on `at` in orientation 0.
pub fn placement(game: &Game, card: BeingId, at: &str) -> u16 {
    let b = game.state.cards.being(card);
    b.placements
        .iter()
        .position(|p| p.origin == sq(at) && p.orientation == 0)
        .expect("a placement") as u16
}

/// The pieces in the arena as "e5=1h" tokens, square order.
pub fn arena(game: &Game) -> String {
    let s = &game.state;
    board::squares()
        .filter_map(|q| {
            s.piece_at(q)
                .map(|(p, r)| format!("{}={}{}", name(q), p + 1, ['c', 'h', 'l'][r as usize]))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a piece stands on `at`.
pub fn has(game: &Game, at: &str) -> bool {
    game.state.occupied() & bit(sq(at)) != 0
}

/// Player 1's pieces forming `card`'s pattern (orientation 0) with its summoning square on `at`.
pub fn pattern_at(card: &str, at: &str) -> String {
    let cards = cards();
    let being = cards.being(cards.being_by_id(card).expect("a being"));
    being
        .pattern
        .cells
        .iter()
        .map(|&(dx, dy, r)| {
            let q = board::offset(sq(at), dx, dy).expect("a pattern on the arena");
            format!("{}=1{}", name(q), ['c', 'h', 'l'][r as usize])
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The name of a square, e.g. `e5`.
pub fn name(q: Square) -> String {
    let (x, y) = board::coords(q);
    format!("{}{}", (b'a' + x as u8 - 1) as char, y)
}

/// Replays the cases of `core/engine/tests/effect_cases.py` (random positions around a summon, played
/// by random players in Python) and compares the events, the arena and the turn counters:
/// `TK_EFFECT_CASES=cases.jsonl cargo test -p tk_engine --lib effect_cases -- --ignored`.
#[test]
#[ignore]
fn effect_cases_match_python() {
    use crate::players::random::RandomStrategy;
    use serde_json::Value;

    let path = std::env::var("TK_EFFECT_CASES").expect("TK_EFFECT_CASES: a file of cases");
    let text = std::fs::read_to_string(&path).expect("the cases file");
    let (mut cases, mut failures) = (0, Vec::new());
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).expect("a JSON case");
        let int = |v: &Value| v.as_i64().expect("an integer");
        let pair = |k: &str| [int(&case[k][0]) as i32, int(&case[k][1]) as i32];
        let card = case["card"].as_str().expect("card");
        let mode = Mode::parse(case["mode"].as_str().expect("mode")).expect("a mode");
        let seeds = pair("seeds");
        let players: Vec<Box<dyn Strategy>> = vec![
            Box::new(RandomStrategy::new(seeds[0] as u64)),
            Box::new(RandomStrategy::new(seeds[1] as u64)),
        ];
        let decks = [0, 1].map(|i| case["decks"][i].as_str().expect("a deck name"));
        let mut game = game_with(mode, &decks, card, players);
        let s = &mut game.state;
        s.turn = int(&case["turn"]) as u32;
        s.actions_left = int(&case["actions"]) as i32;
        s.first_player = if s.turn % 2 == 1 { 0 } else { 1 };
        for piece in case["pieces"].as_array().expect("pieces") {
            s.pieces[int(&piece[1]) as usize][int(&piece[2]) as usize] |= bit(int(&piece[0]) as u8);
        }
        let four = |[a, b]: [i32; 2]| [a, b, 0, 0];
        (s.tokens, s.legend_stock) = (four(pair("tokens")), four(pair("legend_stock")));
        (s.token_total, s.legend_total) = (four(pair("token_total")), four(pair("legend_total")));
        for d in case["discarded"].as_array().expect("discarded") {
            let d = s
                .cards
                .being_by_id(d.as_str().expect("a card id"))
                .expect("a being");
            remove_first(&mut s.deck[0], d);
            s.discarded[0].push(d);
        }
        let id = s.cards.being_by_id(card).expect("a being");
        let (origin, orientation) = (int(&case["origin"]) as u8, int(&case["orientation"]) as u8);
        let cards = Arc::clone(&s.cards);
        let pl = game
            .legal_placements(0, id)
            .into_iter()
            .find(|&i| {
                let p = &cards.being(id).placements[i as usize];
                p.origin == origin && p.orientation == orientation
            })
            .expect("the placement Python used");
        game.state.actions_left -= 1;
        game.summon(0, id, pl);
        let s = &game.state;
        let mut events = String::from("[");
        for (i, e) in s.record.events.iter().enumerate() {
            if i > 0 {
                events.push(',');
            }
            e.write_json(&mut events);
        }
        events.push(']');
        let events: Value = serde_json::from_str(&events).expect("events JSON");
        let after: Vec<Value> = board::bits(s.occupied())
            .map(|q| {
                let (p, r) = s.piece_at(q).expect("a piece");
                serde_json::json!([q, p, r])
            })
            .collect();
        let c = &s.counters;
        let counters = serde_json::json!([
            c.destroyed,
            c.extra_draws,
            c.extra_legend_draws,
            c.extra_turn,
            s.actions_left
        ]);
        cases += 1;
        if events != case["events"]
            || Value::from(after) != case["after"]
            || counters != case["counters"]
        {
            failures.push(format!(
                "{card} {line}\n  core events: {events}\n  core counters: {counters}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{cases} cases match");
}

/// A named effect function that changed the game reports that it did something (a later `if = "previous"`
/// step reads it): every being whose effect calls one, on random arenas, with random choices. (The converse
/// does not hold as simply: moves out and back change nothing, and some texts act by choosing alone.)
#[test]
fn a_named_effect_that_changed_the_game_reports_it() {
    use crate::effects::context::EffectContext;
    use crate::effects::steps::Op;
    use crate::players::random::RandomStrategy;

    /// What an effect can change, printed.
    fn print(game: &Game) -> String {
        let s = &game.state;
        format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {} {:?} {:?} {:?} {:?} {}",
            s.pieces,
            s.tokens,
            s.legend_stock,
            s.deck,
            s.hand,
            s.legend_hand,
            s.flare_hand,
            s.discarded,
            s.dm_points,
            s.actions_left,
            s.counters,
            s.frozen,
            s.gateway,
            s.pending,
            s.record.events.len()
        )
    }
    let cards = cards();
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let mut wrong = Vec::new();
    for being in &cards.beings {
        let Some((step, f)) = being.effect.iter().find_map(|st| match st.op {
            Op::Custom { f, .. } => Some((st, f)),
            _ => None,
        }) else {
            continue;
        };
        let family = being.id.split('/').next().expect("family/name");
        let deck = if family == "legend" {
            "imperial"
        } else {
            family
        };
        for round in 0..40 {
            let players: Vec<Box<dyn Strategy>> = vec![
                Box::new(RandomStrategy::new(next(1 << 40))),
                Box::new(RandomStrategy::new(next(1 << 40))),
            ];
            let mut game = game_with(Mode::Deathmatch, &[deck, deck], being.id, players);
            let pl = being.placements[next(being.placements.len() as u64) as usize].clone();
            let s = &mut game.state;
            s.put(0, being.rank, pl.origin);
            for sq in board::bits(pl.need_any) {
                let rank = if pl.need_legendary & bit(sq) != 0 {
                    2
                } else {
                    (pl.need_heroic & bit(sq) != 0) as u8
                };
                s.put(0, rank, sq);
            }
            for sq in board::squares() {
                if s.piece_at(sq).is_none() && next(3) == 0 {
                    let owner = next(2) as usize;
                    let rank = [0, 0, 0, 1, 1, 2][next(6) as usize];
                    let left = if rank == 2 {
                        s.legend_stock[owner]
                    } else {
                        s.tokens[owner]
                    };
                    if left > 0 && (rank != 1 || s.pieces[owner][1].count_ones() < 4) {
                        s.put(owner, rank, sq);
                    }
                }
            }
            s.actions_left = 1 + next(2) as i32;
            let id = cards.being_by_id(being.id).expect("a being");
            let before = print(&game);
            let mut ctx = EffectContext::new(&mut game, 0, being.id, Some(id), Some(pl));
            let did = f(&mut ctx, step);
            drop(ctx);
            if print(&game) != before && !did {
                wrong.push(format!(
                    "{} (round {round}) changed the game and reported nothing",
                    being.id
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
