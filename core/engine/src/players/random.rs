//! `random`: uniform over the legal options of every decision (strategies/random_player.py).

use crate::decisions::{Decision, PlayerView, Strategy};
use crate::rng::PyRandom;

pub struct RandomStrategy {
    rng: PyRandom,
}

impl RandomStrategy {
    pub fn new(seed: u64) -> RandomStrategy {
        RandomStrategy {
            rng: PyRandom::new(seed),
        }
    }

    /// A player continuing the stream `rng` (a Python random player's, see core/py/src/players.rs).
    pub fn from_rng(rng: PyRandom) -> RandomStrategy {
        RandomStrategy { rng }
    }

    pub fn rng(&self) -> &PyRandom {
        &self.rng
    }
}

impl Strategy for RandomStrategy {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, _view: &PlayerView, decision: &Decision) -> usize {
        self.rng.randrange(decision.options.len())
    }
}
