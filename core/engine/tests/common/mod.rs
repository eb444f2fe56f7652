//! Helpers shared by the integration tests.

use tk_engine::rng::PyRandom;
use tk_engine::state::GameState;

/// What seat 0 cannot see dealt again: the opponent's hands with their decks, the legend deck, and every
/// deck's order (the hidden-information tests of the search players).
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
