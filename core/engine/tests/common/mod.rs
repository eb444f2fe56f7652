//! Helpers shared by the integration tests.

use std::sync::Arc;

use tk_engine::cards::CardSet;
use tk_engine::decisions::Strategy;
use tk_engine::game::{Game, GameOptions};
use tk_engine::players::make_strategy;
use tk_engine::rng::PyRandom;
use tk_engine::state::{GameState, Mode, TurnCounters};

/// What seat 0 cannot see dealt again: the opponent's hands with their decks, the legend deck, and every
/// deck's order (the hidden-information tests of the search players).
#[allow(dead_code)]
pub fn reshuffled_hidden(s: &GameState, rng: &mut PyRandom) -> GameState {
    let mut t = s.clone();
    let n = t.hand[1].len();
    let mut pool: Vec<_> = t.hand[1].iter().chain(t.deck[1].iter()).copied().collect();
    rng.shuffle(&mut pool);
    t.hand[1] = pool[..n].to_vec();
    t.deck[1] = pool[n..].to_vec();
    let n = t.legend_hand[1].len();
    let mut legends: Vec<_> = t.legend_hand[1]
        .iter()
        .chain(t.legend_deck.iter())
        .copied()
        .collect();
    rng.shuffle(&mut legends);
    t.legend_hand[1] = legends[..n].to_vec();
    t.legend_deck = legends[n..].to_vec();
    rng.shuffle(&mut t.deck[0]);
    rng.shuffle(&mut t.flare_deck);
    rng.shuffle(&mut t.task_deck);
    t
}

/// The card set of the tests (a fixture regenerated when the cards change).
#[allow(dead_code)]
pub fn cards() -> Arc<CardSet> {
    Arc::new(CardSet::from_json(include_str!("../data/cards.json")).expect("card set"))
}

/// A game of Imperial (seat 0) against Highland.
#[allow(dead_code)]
pub fn game<'s>(mode: Mode, players: [Box<dyn Strategy + 's>; 2], seed: u64) -> Game<'s> {
    Game::new(
        cards(),
        mode,
        ["imperial", "highland"],
        players,
        seed,
        GameOptions::default(),
    )
    .unwrap()
}

/// A game of random players after `turns` turns or a few more, at the start of player 0's turn.
#[allow(dead_code)]
pub fn after_some_turns(mode: Mode, seed: u64, turns: u32) -> GameState {
    let players = [
        make_strategy("random", 0, seed).unwrap(),
        make_strategy("random", 1, seed).unwrap(),
    ];
    at_seat_0_after(game(mode, players, seed), turns)
}

/// `g` set up and played for `turns` turns or a few more, at the start of seat 0's turn.
fn at_seat_0_after(mut g: Game, turns: u32) -> GameState {
    g.setup();
    while g.state.turn < turns || g.state.active != 0 {
        g.play_turn();
        assert!(!g.state.over, "the game ended before turn {turns}");
    }
    let s = &mut g.state;
    s.turn += 1;
    s.actions_left = 2;
    s.counters = TurnCounters::default();
    *g.state
}

/// A melee of `decks` (3 or 4) played by random players for `turns` turns or a few more, at the start of
/// seat 0's turn.
#[allow(dead_code)]
pub fn melee_after_some_turns(decks: &[&str], seed: u64, turns: u32) -> GameState {
    let players = (0..decks.len())
        .map(|seat| make_strategy("random", seat, seed).unwrap())
        .collect();
    let g = Game::table(
        cards(),
        Mode::Deathmatch,
        decks,
        players,
        seed,
        GameOptions::default(),
    )
    .unwrap();
    at_seat_0_after(g, turns)
}

/// What seat 0 cannot see in a melee dealt again: each opponent's hand with their deck, the legends and
/// the flares the opponents hold with the legend and flare decks, and every deck's order.
#[allow(dead_code)]
pub fn reshuffled_hidden_melee(s: &GameState, rng: &mut PyRandom) -> GameState {
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
    for q in 1..t.seats {
        let (hand, deck) = (&mut t.hand[q], &mut t.deck[q]);
        redeal(rng, &mut [hand], deck);
    }
    let (legend_hand, legend_deck) = (&mut t.legend_hand, &mut t.legend_deck);
    let mut hands: Vec<&mut Vec<_>> = legend_hand.iter_mut().skip(1).collect();
    redeal(rng, &mut hands, legend_deck);
    let (flare_hand, flare_deck) = (&mut t.flare_hand, &mut t.flare_deck);
    let mut hands: Vec<&mut Vec<_>> = flare_hand.iter_mut().skip(1).collect();
    redeal(rng, &mut hands, flare_deck);
    rng.shuffle(&mut t.deck[0]);
    rng.shuffle(&mut t.task_deck);
    t
}
