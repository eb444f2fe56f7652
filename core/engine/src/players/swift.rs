//! `swift`, a fast planner (its parameters declared in params.rs; issue 25, docs/strategies.md "A
//! fast player"): `builder` that plays out only the action decisions it finds close.
//!
//! At each main "action" decision builder values every option (its choices inside effects valued by the
//! position they lead to, as the planner's builder does, with `effect_runs` extra sandbox runs per option
//! for the choices the position cannot value, `Rerun::Unvalued`; measured, that builder alone about
//! matches `planner-classic`). The flare costs no action: it is invoked when it gains more than
//! `flare_margin` over not invoking it (builder's rule), never weighed against an action.
//! The options within `margin` of the best are close; when only one is, it is taken at once, with no rollout. Otherwise the
//! best `shortlist` close options are each played out `rollouts` times, as the planner plays them out
//! (the option, the rest of the turn, the opponent's reply; a finished game won or lost outright plus the
//! position's value), on deals shared by every option (common random numbers) and by a cheaper builder
//! (`rollout_placements` placements of a card tried, no extra runs for the choices inside effects). Most
//! decisions are clear, so a game costs about a fifth of a `planner-classic` game.
//!
//! Every draw comes from the player's own stream, so a game is a function of its seed.

use super::evaluate::Evaluator;
use super::lookahead::{Lookahead, Rerun};
use super::params::{Declared, Params, SwiftParams, SwiftSettings, SWIFT_BASE, WEIGHTS};
use super::planner::{outcome, rollout_means, Rollouts};
use super::sandbox::Answer;
use crate::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use crate::state::{shared_rng, GameState, SharedRng};

pub const NAME: &str = "swift";
/// The value of a game won in a rollout: above any position's value.
const WIN: f64 = 1000.0;

pub struct Swift {
    rng: SharedRng,
    settings: SwiftSettings,
    /// The cheaper builder that plays the rollouts.
    rollout_params: Params,
    ev: Evaluator,
    /// The builder of the real game: it values the options and answers every other decision.
    base: Lookahead,
}

impl Swift {
    pub fn new(seed: u64, settings: &SwiftSettings) -> Swift {
        let params = &settings.params;
        let base_params = Self::base_params(settings);
        let rng = shared_rng(seed);
        let base_seed = rng.borrow_mut().getrandbits(64);
        Swift {
            base: Self::base_player(base_seed, &base_params, params),
            rng,
            settings: settings.clone(),
            rollout_params: Params {
                max_placements: params.rollout_placements,
                explore: 0,
                ..base_params
            },
            ev: Evaluator::new(base_params),
        }
    }

    /// A player continuing the stream `rng` (a Python `swift` player's, see core/py/src/players.rs).
    pub fn with_rng(rng: crate::rng::PyRandom, settings: &SwiftSettings) -> Swift {
        let mut swift = Swift::new(0, settings);
        *swift.rng.borrow_mut() = rng;
        let base_seed = swift.rng.borrow_mut().getrandbits(64);
        swift.base = Self::base_player(base_seed, &Self::base_params(settings), &settings.params);
        swift
    }

    /// builder with the settings' weights, passing control as they allow.
    fn base_params(settings: &SwiftSettings) -> Params {
        Params {
            pass_control: settings.params.pass_control,
            ..settings.weights
        }
    }

    /// The builder of the real game: with `effect_runs`, the choices inside effects valued by position
    /// within those runs alone (none of builder's own `explore`); with 0, builder's quick rules.
    fn base_player(seed: u64, base_params: &Params, params: &SwiftParams) -> Lookahead {
        if params.effect_runs == 0 {
            return Lookahead::new(SWIFT_BASE, seed, base_params);
        }
        let base_params = Params {
            explore: 0,
            ..*base_params
        };
        let mut base = Lookahead::new(SWIFT_BASE, seed, &base_params);
        base.value_positions(params.effect_runs, Rerun::Unvalued);
        base.value_returns();
        base
    }

    pub fn setting(&self, name: &str) -> Option<f64> {
        let params = &self.settings.params;
        let weight = || {
            let declared = Params::SPECS[..WEIGHTS].iter().any(|s| s.name == name);
            declared
                .then(|| self.settings.weights.setting(name))
                .flatten()
        };
        params.setting(name).or_else(weight)
    }

    /// The builder of the real game (its plan answers the follow-ups of the action chosen).
    pub fn base(&self) -> &Lookahead {
        &self.base
    }

    pub fn stream(&self) -> crate::rng::PyRandom {
        self.rng.borrow().clone()
    }

    /// The close options with their mean value over the rollouts, or the one clear option with builder's
    /// value: (option index, value, plan).
    pub fn option_values(
        &self,
        view: &PlayerView,
        decision: &Decision,
    ) -> Vec<(usize, f64, Vec<Answer>)> {
        let (mut ranked, standing) =
            self.base
                .wide_outcomes_and_base(view.sandbox(&self.rng), decision, 1);
        if !self.settings.params.pass_control {
            // team games, passing forbidden
            ranked.retain(|&(i, _, _)| decision.options[i] != Opt::Action(Action::Pass));
        }
        // the flare costs no action: invoked at once when it pays for keeping it (nothing on the last turn),
        // else not now (builder's rule), never weighed against an action as if it took one's place
        let flare = Opt::Action(Action::Flare);
        if let Some(k) = ranked.iter().position(|o| decision.options[o.0] == flare) {
            if self.base.flare_pays_from(ranked[k].1, &standing) {
                return vec![ranked.swap_remove(k)];
            }
            if ranked.len() > 1 {
                ranked.remove(k);
            }
        }
        // best first, the first option on ties (a stable sort)
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        let best = ranked[0].1;
        let close = ranked
            .iter()
            .take(self.settings.params.shortlist as usize)
            .take_while(|o| o.1 >= best - self.settings.params.margin)
            .count();
        ranked.truncate(close.max(1));
        if ranked.len() == 1 {
            return ranked;
        }
        let p = decision.player;
        let candidates = ranked.into_iter().map(|(i, _, plan)| (i, plan)).collect();
        rollout_means(
            &self.rng,
            view,
            decision,
            candidates,
            Rollouts {
                per_option: self.settings.params.rollouts as usize,
                halving: self.settings.params.halving,
                base: &self.rollout_params,
            },
            |s| self.value(s, p),
        )
    }

    /// The evaluation of a position for `p`; a finished game is won or lost outright, told apart by the
    /// position (as the planner values it).
    fn value(&self, s: &GameState, p: usize) -> f64 {
        let v = self.ev.value(s, p);
        if !s.over {
            return v;
        }
        WIN * outcome(s, p) + v.clamp(-WIN / 2.0, WIN / 2.0)
    }
}

impl Strategy for Swift {
    fn name(&self) -> &str {
        NAME
    }

    fn choose(&mut self, view: &PlayerView, decision: &Decision) -> usize {
        if decision.kind != Kind::Action || decision.options.len() == 1 {
            return self.base.choose(view, decision);
        }
        let mut best = (0, f64::NEG_INFINITY, Vec::new());
        let mut pass = None;
        for (i, v, plan) in self.option_values(view, decision) {
            if decision.options[i] == Opt::Action(Action::Pass) {
                pass = Some((i, v, plan));
            } else if v > best.1 {
                best = (i, v, plan);
            }
        }
        // passing control needs a lead: its rollouts value a teammate's hand dealt at random
        if let Some(p) = pass.filter(|p| p.1 > best.1 + self.settings.params.pass_margin) {
            best = p;
        }
        // builder answers the follow-ups of the option as it planned them
        self.base.set_plan_for(view, best.2);
        best.0
    }
}
