//! Scenario helpers for unit tests of card effects (as tests/helpers.py): a scripted player, a position
//! set up by square names, and a summon whose effect decisions go to the script.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

use crate::board::{self, bit, Square};
use crate::cards::CardSet;
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

/// The card set of tests/data/cards.json with every registered effect (others do nothing).
fn cards() -> Arc<CardSet> {
    let text = include_str!("../../tests/data/cards.json");
    let stub: CustomFn = |_, _| false;
    Arc::new(
        CardSet::from_json_with(text, &|name| custom_fn(name).or(Some(stub))).expect("card set"),
    )
}

/// A game on turn 1 with player 0 (`decks[0]`) to act, the arena holding `pieces` ("e6=1c f5=2h":
/// player 1 or 2, rank c/h/l) taken from the stocks, player 0 holding `card` and the other cards in
/// their decks (in card-set order).
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
    let mut game = Game::new(
        cards(),
        mode,
        decks,
        [Box::new(me), Box::new(them)],
        0,
        GameOptions::default(),
    )
    .expect("game");
    let s = &mut game.state;
    s.turn = 1;
    s.actions_left = 1;
    for piece in pieces.split_whitespace() {
        let (at, what) = piece.split_once('=').expect("square=piece");
        let w = what.as_bytes();
        let p = (w[0] - b'1') as usize;
        let rank = b"chl"
            .iter()
            .position(|&c| c == w[1])
            .expect("rank c, h or l") as u8;
        assert!(s.piece_at(sq(at)).is_none(), "two pieces on {at}");
        s.put(p, rank, sq(at));
    }
    let cards = Arc::clone(&s.cards);
    for p in 0..2 {
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
    (game, asked)
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
