//! Strategies written in Rust, and the seeds they draw from.
//!
//! `mc` (`mc`) is the one-step Monte Carlo improvement of a lookahead preset: rollouts of each option of
//! the action decision, played by the preset on sandboxes.
//!
//! `planner` (the default player) is `builder` choosing its actions by short rollouts of the rest of the
//! turn and the opponent's reply; `planner-classic` is the planner before issue 25's blind-spot work;
//! `swift` plays out only the action decisions builder finds close, with a cheaper builder.
//!
//! `random` (uniform), and the scripted strategies `greedy`, `builder`, `hunter` and
//! `brawler`: presets of the weights of one lookahead engine (`lookahead`), which tries each option on a
//! sandbox copy of the game (`sandbox`), answers the choices inside it by quick rules (`reflex`) and values
//! the position it leads to (`evaluate`, from `readiness`, `task_progress` and `geometry`). Each module
//! ports the Python module of the same name in `strategies/` and makes the same decisions. `expert` searches
//! (information-set Monte Carlo tree search) with `builder` below its tree.
//!
//! Every strategy plays Deathmatch melees (3-4 players) too: the evaluation values the lowest colour
//! score against the strongest opponent's (`evaluate::melee_static_value`), the colour and opponent
//! choices have rules (`reflex`), improvised summons are summon options like the others (`lookahead`),
//! and the rollouts and the search play every seat (docs/strategies.md, "Melee").

pub mod evaluate;
pub mod expert;
pub mod geometry;
pub mod lookahead;
pub mod mc;
#[cfg(test)]
mod melee_tests;
pub mod params;
pub mod planner;
pub mod random;
pub mod readiness;
pub mod reflex;
pub mod sandbox;
pub mod swift;
pub mod task_progress;

use crate::decisions::Strategy;
use lookahead::Lookahead;
use params::{ExpertParams, ParamValue, Params, PlannerParams, SwiftParams, PRESET_NAMES};

/// A player's own random stream, derived from the game seed and the seat (strategies/registry.py).
pub fn strategy_seed(game_seed: u64, seat: usize) -> u64 {
    game_seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((seat as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9))
        .wrapping_add(1)
}

/// The strategy called `name` for `seat` in the game of `game_seed`, with its default parameters.
pub fn make_strategy(name: &str, seat: usize, game_seed: u64) -> Result<Box<dyn Strategy>, String> {
    make_strategy_with(name, seat, game_seed, &[])
}

/// The strategy called `name` for `seat` in the game of `game_seed`, with `params` checked and filled in
/// (strategies/registry.py `make_strategy`; the same error messages).
pub fn make_strategy_with(
    name: &str,
    seat: usize,
    game_seed: u64,
    params: &[(&str, ParamValue)],
) -> Result<Box<dyn Strategy>, String> {
    let seed = strategy_seed(game_seed, seat);
    if name == "random" {
        if !params.is_empty() {
            let mut names: Vec<&str> = params.iter().map(|&(n, _)| n).collect();
            names.sort_unstable();
            return Err(format!(
                "strategy 'random' takes no parameters, got {}",
                names.join(", ")
            ));
        }
        return Ok(Box::new(random::RandomStrategy::new(seed)));
    }
    if name == mc::NAME {
        return Ok(Box::new(mc::MonteCarlo::new(
            seed,
            &mc::McParams::resolve(params)?,
        )));
    }
    if name == planner::NAME {
        return Ok(Box::new(planner::Planner::new(
            seed,
            &PlannerParams::resolve(params)?,
        )));
    }
    if name == planner::CLASSIC_NAME {
        return Ok(Box::new(planner::Planner::new(
            seed,
            &PlannerParams::resolve_classic(params)?,
        )));
    }
    if name == swift::NAME {
        return Ok(Box::new(swift::Swift::new(
            seed,
            &SwiftParams::resolve(params)?,
        )));
    }
    if name == "expert" {
        return Ok(Box::new(expert::Expert::new(
            seed,
            &ExpertParams::resolve(params)?,
        )));
    }
    if !PRESET_NAMES.contains(&name) {
        let mut known: Vec<&str> = params::declarations().iter().map(|&(n, _)| n).collect();
        known.push("random");
        known.sort_unstable();
        return Err(format!(
            "unknown strategy '{name}'; known strategies: {}",
            known.join(", ")
        ));
    }
    Ok(Box::new(Lookahead::new(
        name,
        seed,
        &Params::resolve(name, params)?,
    )))
}
