//! Trying an option on a sandbox copy of the game: the acting player's later choices
//! inside it are made by a policy, recorded, and can be forced to explore the alternatives of choices the
//! policy cannot judge.

use crate::decisions::{Decision, Kind, Opt, PlayerView, Strategy};
use crate::game::{Game, Players};
use crate::state::{GameState, SharedRng};

/// A decision's kind and the option chosen: what the real game is answered from later.
pub type Answer = (Kind, Opt);

/// A policy answers a decision in a sandbox: (option index, whether it judged the options itself).
pub type Policy<'p> = dyn Fn(&GameState, &Decision) -> (usize, bool) + 'p;

/// Plays both seats of a sandbox game: the first answers are forced, the rest come from the policy.
struct Recorder<'a> {
    policy: &'a Policy<'a>,
    forced: &'a [usize],
    answers: Vec<Answer>,
    indexes: Vec<usize>,
    /// (position among the answers, number of options)
    unjudged: Vec<(usize, usize)>,
}

impl Strategy for Recorder<'_> {
    fn name(&self) -> &str {
        "sandbox"
    }

    fn choose(&mut self, view: &PlayerView, decision: &Decision) -> usize {
        let i = self.answers.len();
        let idx = if i < self.forced.len() {
            self.forced[i]
        } else {
            let (idx, judged) = (self.policy)(view.sandbox_state(), decision);
            if !judged {
                // team games: passing control inside an effect is never explored (the policy finishes
                // the effect itself), so the alternatives are the options before it
                let n = decision.options.len() - super::lookahead::offers_pass(decision) as usize;
                self.unjudged.push((i, n));
            }
            idx
        };
        self.answers.push((decision.kind, decision.options[idx]));
        self.indexes.push(idx);
        idx
    }
}

pub struct Outcome {
    pub value: f64,
    pub answers: Vec<Answer>,
    /// The sandbox after the option.
    pub state: Option<Box<GameState>>,
}

impl Outcome {
    pub fn new(value: f64, answers: Vec<Answer>) -> Outcome {
        Outcome {
            value,
            answers,
            state: None,
        }
    }

    /// The answers planned, the outcome done with (its sandbox kept for the next copies).
    pub fn into_answers(mut self) -> Vec<Answer> {
        std::mem::take(&mut self.answers)
    }
}

impl Drop for Outcome {
    fn drop(&mut self) {
        if let Some(state) = self.state.take() {
            state.recycle();
        }
    }
}

/// What a simulation leaves for exploring its alternatives.
struct Trace {
    indexes: Vec<usize>,
    unjudged: Vec<(usize, usize)>,
}

/// Play `act` on a copy of `base`; the trace holds the answers' indexes and the unjudged choices.
fn simulate(
    base: &GameState,
    rng: &SharedRng,
    act: &dyn Fn(&mut Game),
    policy: &Policy,
    forced: &[usize],
    value: &dyn Fn(&GameState) -> f64,
) -> (Outcome, Trace) {
    let state = base.clone_for(rng);
    let mut rec = Recorder {
        policy,
        forced,
        answers: Vec::new(),
        indexes: Vec::new(),
        unjudged: Vec::new(),
    };
    let state = {
        let mut game = Game::around(state, Players::Shared(&mut rec));
        act(&mut game);
        game.state
    };
    let outcome = Outcome {
        value: value(&state),
        answers: rec.answers,
        state: Some(state),
    };
    (
        outcome,
        Trace {
            indexes: rec.indexes,
            unjudged: rec.unjudged,
        },
    )
}

/// The best outcome of `act` over the alternatives of the choices the policy did not judge, trying them
/// depth first (earliest choice first) within `budget` extra simulations.
pub fn best_outcome(
    base: &GameState,
    rng: &SharedRng,
    act: &dyn Fn(&mut Game),
    policy: &Policy,
    value: &dyn Fn(&GameState) -> f64,
    mut budget: i64,
) -> Outcome {
    let (mut best, trace) = simulate(base, rng, act, policy, &[], value);
    let mut stack = vec![(trace, 0usize)];
    while budget > 0 {
        let Some((trace, start)) = stack.pop() else {
            break;
        };
        let Some(&(at, n)) = trace.unjudged.iter().find(|&&(at, _)| at >= start) else {
            continue;
        };
        let mut forced = trace.indexes[..at].to_vec();
        forced.push(0);
        for alt in 0..n {
            if alt == trace.indexes[at] || budget <= 0 {
                continue;
            }
            budget -= 1;
            forced[at] = alt;
            let (outcome, alt_trace) = simulate(base, rng, act, policy, &forced, value);
            if outcome.value > best.value {
                best = outcome;
            }
            stack.push((alt_trace, at + 1));
        }
        stack.push((trace, at + 1));
    }
    best
}
