//! `mc`: the one-step Monte Carlo improvement of a lookahead player or of the default `planner` (its
//! parameters: `McParams`, players/params.rs). At each main "action" decision every option is played out
//! `rollouts` times, each time on a fresh sandbox (`PlayerView::sandbox`: what the player cannot see dealt
//! anew from its own stream): the base player takes the option, finishes the turn and plays the opponent's
//! next turn for them, and the position reached is valued by the base player's own evaluation from this
//! player's side. In a melee the rollout plays every opponent's next turn, up to the start of this player's
//! next turn. The option with the best mean is taken (the first on ties). Every other decision, and the
//! follow-up choices of the chosen option, is answered by the base player as it would answer them.
//!
//! Rollout `r` of every option starts from the same deal and the same players' streams (common random
//! numbers: the options are compared on the same determinizations), all drawn from this player's stream.

use super::evaluate::Evaluator;
use super::lookahead::Lookahead;
use super::params::{Params, PlannerParams};
use super::planner::{self, Planner};
use super::sandbox::Answer;
use super::strategy_seed;
use crate::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use crate::game::{Game, Players};
use crate::rng::PyRandom;
use crate::state::{shared_rng, GameState, SharedRng, TurnCounters};
use std::cell::RefCell;
use std::rc::Rc;

pub const NAME: &str = "mc";

pub use super::params::McParams;

/// The base player of the real game: a lookahead preset, or the planner (whose builder plans the
/// follow-ups).
enum Base {
    Lookahead(Box<Lookahead>),
    Planner(Box<Planner>),
}

impl Base {
    fn new(name: &'static str, seed: u64, params: &Params) -> Base {
        if name == planner::NAME {
            let planner = PlannerParams {
                pass_control: params.pass_control,
                ..PlannerParams::default()
            };
            Base::Planner(Box::new(Planner::new(seed, &planner)))
        } else {
            Base::Lookahead(Box::new(Lookahead::new(name, seed, params)))
        }
    }

    fn player(&mut self) -> &mut dyn Strategy {
        match self {
            Base::Lookahead(l) => l.as_mut(),
            Base::Planner(p) => p.as_mut(),
        }
    }

    fn forget_plan(&mut self) {
        match self {
            Base::Lookahead(l) => l.forget_plan(),
            Base::Planner(p) => p.forget_plan(),
        }
    }

    fn lookahead(&self) -> &Lookahead {
        match self {
            Base::Lookahead(l) => l,
            Base::Planner(p) => p.base(),
        }
    }
}

/// The evaluation and sandbox weights of a base: a preset's own, builder's for the planner.
fn base_params(name: &str) -> Params {
    let preset = if name == planner::NAME {
        "builder"
    } else {
        name
    };
    Params::preset(preset).expect("a checked base name")
}

/// The one-step Monte Carlo player.
pub struct MonteCarlo {
    rng: SharedRng,
    base_name: &'static str,
    base_params: Params,
    rollouts: usize,
    ev: Evaluator,
    /// The base player of the real game: it answers every decision but the action decisions.
    base: Base,
}

impl MonteCarlo {
    pub fn new(seed: u64, params: &McParams) -> MonteCarlo {
        let base_params = Params {
            pass_control: params.pass_control,
            ..base_params(params.base)
        };
        let rng = shared_rng(seed);
        let base_seed = rng.borrow_mut().getrandbits(64);
        MonteCarlo {
            base: Base::new(params.base, base_seed, &base_params),
            rng,
            base_name: params.base,
            ev: Evaluator::new(base_params),
            base_params,
            rollouts: params.rollouts as usize,
        }
    }

    /// A player continuing the stream `rng` (a Python `mc` player's, see core/py/src/players.rs).
    pub fn with_rng(rng: crate::rng::PyRandom, params: &McParams) -> MonteCarlo {
        let mut m = MonteCarlo::new(0, params);
        *m.rng.borrow_mut() = rng;
        let base_seed = m.rng.borrow_mut().getrandbits(64);
        m.base = Base::new(params.base, base_seed, &m.base_params);
        m
    }

    /// The value of its parameter `name` as it plays with it (`base` has no number).
    pub fn setting(&self, name: &str) -> Option<f64> {
        match name {
            "rollouts" => Some(self.rollouts as f64),
            "pass_control" => Some(self.base_params.pass_control as i64 as f64),
            _ => None,
        }
    }

    pub fn base_name(&self) -> &'static str {
        self.base_name
    }

    /// The lookahead of the real game whose plan the follow-up decisions are answered from (the base
    /// preset, or the planner's builder).
    pub fn base(&self) -> &Lookahead {
        self.base.lookahead()
    }

    /// The player's random stream as it stands.
    pub fn stream(&self) -> crate::rng::PyRandom {
        self.rng.borrow().clone()
    }

    /// The mean value of each option of an action decision over the rollouts.
    pub fn option_values(&self, view: &PlayerView, decision: &Decision) -> Vec<f64> {
        let deals: Vec<Deal> = {
            let mut r = self.rng.borrow_mut();
            let seeds: Vec<u64> = (0..self.rollouts).map(|_| r.getrandbits(64)).collect();
            seeds
                .into_iter()
                .map(|seed| Deal::new(view, seed))
                .collect()
        };
        decision
            .options
            .iter()
            .map(|o| {
                let Opt::Action(action) = *o else {
                    unreachable!("action options")
                };
                if action == Action::Pass && !self.base_params.pass_control {
                    // team games, passing forbidden
                    return f64::NEG_INFINITY;
                }
                let total: f64 = deals
                    .iter()
                    .map(|deal| self.rollout(deal, decision.player, action))
                    .sum();
                total / deals.len() as f64
            })
            .collect()
    }

    /// One rollout of `action` on a copy of `deal`, valued for `p` as at the start of its next turn.
    fn rollout(&self, deal: &Deal, p: usize, action: Action) -> f64 {
        let base = (self.base_name, &self.base_params);
        let state = play_out(deal, p, (action, &[]), base, false);
        let v = self.ev.value(&state, p);
        state.recycle();
        v
    }
}

/// A rollout's start: the sandbox of a view dealt from a seed, and that seed's stream as the deal left
/// it. Rollout `r` of every option starts from the same deal (common random numbers), so it is dealt
/// once and copied for each option: the copy is the same state and the same stream that dealing anew
/// would give, without reseeding the generator (624 words) and redealing every hidden card.
pub struct Deal {
    seed: u64,
    sandbox: Box<GameState>,
    stream: PyRandom,
}

impl Deal {
    pub fn new(view: &PlayerView, seed: u64) -> Deal {
        let rng = shared_rng(seed);
        let mut sandbox = view.sandbox(&rng);
        // its record starts empty: the points it lists cannot match the scores
        sandbox.strict = false;
        let stream = rng.borrow().clone();
        Deal {
            seed,
            sandbox,
            stream,
        }
    }

    /// A fresh copy of the dealt sandbox with a copy of its stream, shared by the sandbox and the players
    /// of `one_stream` rollouts.
    fn start(&self) -> (Box<GameState>, SharedRng) {
        let rng = Rc::new(RefCell::new(self.stream.clone()));
        (self.sandbox.clone_for(&rng), rng)
    }
}

/// `action` taken on a copy of `deal`'s sandbox (its follow-ups answered from `plan` as far as it goes),
/// then the turn finished and the next one played by the preset `base` in both seats (in a melee, every
/// opponent's next turn, `base` in every seat): the position reached. The players' streams are their own,
/// derived from the deal's seed as in a game, or, with `one_stream`, the sandbox's own (one generator
/// seeded per rollout instead of three: seeding is a good share of a short rollout's cost).
pub fn play_out(
    deal: &Deal,
    p: usize,
    (action, plan): (Action, &[Answer]),
    (base, base_params): (&str, &Params),
    one_stream: bool,
) -> Box<GameState> {
    let seed = deal.seed;
    let (sandbox, rng) = deal.start();
    // the seat that takes the option: in a team game the turn's seat, or the teammate who took control
    let me = sandbox.seat_of(p);
    let player = |seat: usize| -> Box<dyn Strategy> {
        if base == planner::NAME {
            // the default player plays the rollout; its builder answers the option's follow-ups afresh
            let params = PlannerParams {
                pass_control: base_params.pass_control,
                ..PlannerParams::default()
            };
            return Box::new(Planner::new(strategy_seed(seed, seat), &params));
        }
        let mut player = if one_stream {
            Lookahead::sharing(base, &rng, base_params)
        } else {
            Lookahead::new(base, strategy_seed(seed, seat), base_params)
        };
        if seat == me {
            player.set_plan(plan.to_vec());
        }
        Box::new(player)
    };
    let seats = sandbox.seats;
    // a team game's players sit by seat (4), and play for the two sides
    let players = sandbox.players();
    let mut game = Game::around(sandbox, Players::Seats((0..players).map(player).collect()));
    if action == Action::End {
        game.end_turn(p);
    } else {
        game.apply_action(p, action);
        game.finish_turn();
    }
    if !game.state.melee() {
        if !game.state.over {
            game.play_turn();
        }
    } else {
        // a melee: every opponent's turn until the player's own comes round again
        for _ in 1..seats {
            if game.state.over || game.state.active == p {
                break;
            }
            game.play_turn();
        }
    }
    let mut state = game.state;
    // this turn's counters are the last player's, already scored: none for the turn to come
    state.counters = TurnCounters::default();
    state
}

impl Strategy for MonteCarlo {
    fn name(&self) -> &str {
        NAME
    }

    fn choose(&mut self, view: &PlayerView, decision: &Decision) -> usize {
        if decision.kind != Kind::Action {
            return self.base.player().choose(view, decision);
        }
        // the base player's own choice sets its plan for the choices that follow
        let base_choice = self.base.player().choose(view, decision);
        if decision.options.len() == 1 {
            return 0;
        }
        let values = self.option_values(view, decision);
        let mut best = 0;
        for (i, &v) in values.iter().enumerate() {
            if v > values[best] {
                best = i;
            }
        }
        if best != base_choice {
            // its plan was for another option: it answers the follow-ups afresh
            self.base.forget_plan();
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::params::ParamValue;

    #[test]
    fn parameters() {
        assert_eq!(
            McParams::resolve(&[]).unwrap(),
            McParams {
                base: "builder",
                rollouts: 55,
                pass_control: true,
            }
        );
        let p = McParams::resolve(&[
            ("base", ParamValue::Text("greedy")),
            ("rollouts", ParamValue::Int(3)),
        ])
        .unwrap();
        assert_eq!((p.base, p.rollouts), ("greedy", 3));
        assert_eq!(
            McParams::resolve(&[("rollouts", ParamValue::Int(0))]).unwrap_err(),
            "strategy 'mc': parameter 'rollouts' must be at least 1 (rollouts per option of an action \
             decision), got 0"
        );
        assert_eq!(
            McParams::resolve(&[("rollouts", ParamValue::Float(2.0))]).unwrap_err(),
            "strategy 'mc': parameter 'rollouts' must be a whole number (rollouts per option of an action \
             decision), got 2.0"
        );
        assert_eq!(
            McParams::resolve(&[("base", ParamValue::Text("mc"))]).unwrap_err(),
            "strategy 'mc': parameter 'base' must be one of brawler, builder, greedy, hunter, planner (the \
             scripted strategy that plays the rollouts and answers the other decisions), got 'mc'"
        );
        assert_eq!(
            McParams::resolve(&[("explore", ParamValue::Int(1))]).unwrap_err(),
            "strategy 'mc' has no parameter 'explore'; its parameters: base, pass_control, rollouts"
        );
    }
}
