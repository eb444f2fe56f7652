//! `planner`, the default player (players/params.rs declares its parameters): `builder` made to look at
//! the whole turn and the opponent's reply.
//!
//! At each main "action" decision it shortlists the options `builder` values best (`shortlist` of them)
//! together with the ones `builder` undervalues by construction: discarding (cycling toward playable
//! cards), the flare (against keeping it for a better moment) and ending the turn. Each shortlisted option is
//! played out `rollouts` times on fresh deals of what the player cannot see: `builder` takes the option,
//! finishes the turn (the second action and the flare planned with the first) and plays the opponent's
//! reply (their pattern, their task, their flare: what a plan must deny). The position reached is valued by
//! `builder`'s evaluation, except that a finished game counts as a win or a loss outright, so racing to
//! the end trigger or stalling before it is weighed by who it makes win. The best mean is taken; the
//! choices it then needs (placement, effect targets) are `builder`'s. The Deathmatch start square is
//! `builder`'s too: the two squares are mirror images in a symmetric arena and patterns match in every
//! orientation, so either leads to the same game mirrored.
//!
//! In a melee (3-4 players) the rollouts play every opponent's next turn, up to the start of the player's
//! own, and a finished game is won only from a first place of one's own (a shared first place is a tie).
//!
//! Rollout `r` of every option starts from the same deal and the same players' streams (common random
//! numbers), all drawn from the player's own stream, so a game is a function of its seed.
//!
//! Without blind spots (issue 25; `planner-classic` keeps the planner from before): its builder values the
//! choices inside effects by the position they lead to (`Lookahead::value_positions`), a discard is played
//! out with and without the returns builder plans, every legend summon and the best summon are always
//! played out, and a finished game adds the position's value to the win or loss (docs/strategies.md,
//! "Blind spots").
//!
//! With `halving` (off by default) the candidates are played out one rollout at a time and the worse half
//! of those left is dropped after the 1st, 2nd, 4th... rollout, down to the best two (`rollout_means`;
//! docs/strategies.md, "Spending rollouts where the decision is close").

use super::evaluate::Evaluator;
use super::lookahead::{shortlist, Lookahead, Rerun};
use super::mc::{play_out, Deal};
use super::params::{Params, PlannerParams};
use super::sandbox::Answer;
use crate::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use crate::state::{shared_rng, GameState, SharedRng};

pub const NAME: &str = "planner";
/// The planner before issue 25's blind-spot work, kept so that the two can be compared.
pub const CLASSIC_NAME: &str = "planner-classic";
const BASE: &str = "builder";
/// The value of a game won in a rollout: above any position's value.
const WIN: f64 = 1000.0;

pub struct Planner {
    rng: SharedRng,
    params: PlannerParams,
    base_params: Params,
    ev: Evaluator,
    /// The builder of the real game: it shortlists and answers every decision but the action decisions.
    base: Lookahead,
}

impl Planner {
    pub fn new(seed: u64, params: &PlannerParams) -> Planner {
        let base_params = Params {
            pass_control: params.pass_control,
            ..Params::preset(BASE).expect("the builder preset")
        };
        let rng = shared_rng(seed);
        let base_seed = rng.borrow_mut().getrandbits(64);
        Planner {
            base: Self::base_player(base_seed, &base_params, params),
            rng,
            params: params.clone(),
            ev: Evaluator::new(base_params),
            base_params,
        }
    }

    /// A player continuing the stream `rng` (a Python `planner` player's, see core/py/src/players.rs).
    pub fn with_rng(rng: crate::rng::PyRandom, params: &PlannerParams) -> Planner {
        let mut planner = Planner::new(0, params);
        *planner.rng.borrow_mut() = rng;
        let base_seed = planner.rng.borrow_mut().getrandbits(64);
        planner.base = Self::base_player(base_seed, &planner.base_params, params);
        planner
    }

    /// The builder of the real game; the planner's values the choices inside effects by position.
    fn base_player(seed: u64, base_params: &Params, params: &PlannerParams) -> Lookahead {
        let mut base = Lookahead::new(BASE, seed, base_params);
        if let Some(runs) = params.effect_runs {
            base.value_positions(runs, Rerun::Every);
        }
        base
    }

    pub fn setting(&self, name: &str) -> Option<f64> {
        self.params.setting(name)
    }

    /// The builder of the real game (its plan answers the follow-ups of the action chosen).
    pub fn base(&self) -> &Lookahead {
        &self.base
    }

    /// Drop the builder's plan: the action it planned for was not the one taken.
    pub fn forget_plan(&mut self) {
        self.base.forget_plan();
    }

    pub fn stream(&self) -> crate::rng::PyRandom {
        self.rng.borrow().clone()
    }

    /// The shortlisted options with their mean value over the rollouts, and the answers builder plans for
    /// each option's follow-ups: (option index, mean, plan). An option may come with more than one plan
    /// (a discard with and without returning cards), each played out.
    pub fn option_values(
        &self,
        view: &PlayerView,
        decision: &Decision,
    ) -> Vec<(usize, f64, Vec<Answer>)> {
        let candidates = if self.params.effect_runs.is_some() {
            self.candidates(view, decision)
        } else {
            self.classic_candidates(view, decision)
        };
        let p = decision.player;
        rollout_means(
            &self.rng,
            view,
            decision,
            candidates,
            Rollouts {
                per_option: self.params.rollouts as usize,
                halving: self.params.halving,
                base: &self.base_params,
            },
            |s| self.value(s, p),
        )
    }

    /// `planner-classic`'s options to play out: builder's best `shortlist`, every discard, flare and end.
    fn classic_candidates(
        &self,
        view: &PlayerView,
        decision: &Decision,
    ) -> Vec<(usize, Vec<Answer>)> {
        let outcomes = self.base.option_outcomes(view.sandbox(&self.rng), decision);
        let values: Vec<f64> = outcomes.iter().map(|o| o.0).collect();
        let mut shortlist = shortlist(&values, decision.options, self.params.shortlist as usize);
        if !self.params.pass_control {
            // team games, passing forbidden
            shortlist.retain(|&i| decision.options[i] != Opt::Action(Action::Pass));
        }
        let mut plans: Vec<Option<Vec<Answer>>> = outcomes.into_iter().map(|o| Some(o.1)).collect();
        shortlist
            .into_iter()
            .map(|i| (i, plans[i].take().expect("each option once")))
            .collect()
    }

    /// The options to play out: as `planner-classic`'s, and also every legend summon and the best summon
    /// (so that a legal legend summon and a summon instead of a discard are weighed, not left out by
    /// builder's ranking), and a discard both with and without the returns builder plans.
    fn candidates(&self, view: &PlayerView, decision: &Decision) -> Vec<(usize, Vec<Answer>)> {
        let outcomes = self
            .base
            .wide_outcomes(view.sandbox(&self.rng), decision, 1);
        let mut values = vec![f64::NEG_INFINITY; decision.options.len()];
        for &(i, v, _) in outcomes.iter() {
            values[i] = values[i].max(v);
        }
        let mut shortlist = shortlist(&values, decision.options, self.params.shortlist as usize);
        let cards = view.cards();
        let summon = |i: usize| match decision.options[i] {
            Opt::Action(Action::Summon(card)) => Some(cards.being(card).is_legend()),
            _ => None,
        };
        let best_summon = (0..values.len())
            .filter(|&i| summon(i).is_some())
            .max_by(|&a, &b| values[a].total_cmp(&values[b]).then(b.cmp(&a)));
        for i in (0..values.len())
            .filter(|&i| summon(i) == Some(true))
            .chain(best_summon)
        {
            if !shortlist.contains(&i) {
                shortlist.push(i);
            }
        }
        if !self.params.pass_control {
            // team games, passing forbidden
            shortlist.retain(|&i| decision.options[i] != Opt::Action(Action::Pass));
        }
        let mut plans: Vec<Vec<(usize, Vec<Answer>)>> = vec![Vec::new(); values.len()];
        for (i, _, plan) in outcomes {
            plans[i].push((i, plan));
        }
        shortlist
            .into_iter()
            .flat_map(|i| std::mem::take(&mut plans[i]))
            .collect()
    }

    /// The evaluation of a position for `p`; a finished game is won or lost outright (in a melee, a first
    /// place shared with others is a tie, any other place a loss).
    /// The planner (not `planner-classic`) tells finished games apart by the position too, so that on
    /// a last turn losing by less (a flare, a summon) is still worth playing.
    fn value(&self, s: &GameState, p: usize) -> f64 {
        if !s.over {
            return self.ev.value(s, p);
        }
        let settled = WIN * outcome(s, p);
        if self.params.effect_runs.is_none() {
            return settled;
        }
        settled + self.ev.value(s, p).clamp(-WIN / 2.0, WIN / 2.0)
    }
}

/// How the candidates of an action decision are played out.
pub struct Rollouts<'a> {
    /// Rollouts per candidate (at most, with `halving`).
    pub per_option: usize,
    /// Successive halving: after the 1st, 2nd, 4th... rollout the worse half of the candidates left is
    /// dropped, down to the best two, which get every rollout.
    pub halving: bool,
    /// The builder's parameters the rollouts are played with.
    pub base: &'a Params,
}

/// Each candidate `(option index, plan)` of `decision` played out (its option taken with the plan, the
/// turn finished and the opponent's reply played by `builder`), valued by `value`: (option index, mean
/// value, plan), for every candidate or, with halving, for those left at the end (two, or one alone). Rollout `r` of every
/// candidate starts from the same deal of what the player cannot see (common random numbers); the deals'
/// seeds are all drawn first from `rng`, so a game stays a function of its seed.
pub fn rollout_means(
    rng: &SharedRng,
    view: &PlayerView,
    decision: &Decision,
    candidates: Vec<(usize, Vec<Answer>)>,
    how: Rollouts,
    value: impl Fn(&GameState) -> f64,
) -> Vec<(usize, f64, Vec<Answer>)> {
    let seeds: Vec<u64> = {
        let mut r = rng.borrow_mut();
        (0..how.per_option).map(|_| r.getrandbits(64)).collect()
    };
    let p = decision.player;
    let mut totals = vec![0.0; candidates.len()];
    let mut left: Vec<usize> = (0..candidates.len()).collect();
    let mut played = 0;
    for seed in seeds {
        let deal = Deal::new(view, seed);
        for &c in left.iter() {
            let (i, plan) = &candidates[c];
            let Opt::Action(action) = decision.options[*i] else {
                unreachable!("action options")
            };
            let reached = play_out(&deal, p, (action, plan), (BASE, how.base), true);
            totals[c] += value(&reached);
            reached.recycle();
        }
        played += 1;
        if how.halving && left.len() > 2 && played & (played - 1) == 0 {
            // best first, the earlier candidate on ties (a stable sort)
            left.sort_by(|&a, &b| totals[b].total_cmp(&totals[a]));
            left.truncate(left.len().div_ceil(2).max(2));
            left.sort_unstable();
        }
    }
    let mut candidates: Vec<Option<(usize, Vec<Answer>)>> =
        candidates.into_iter().map(Some).collect();
    left.into_iter()
        .map(|c| {
            let (i, plan) = candidates[c].take().expect("each candidate once");
            (i, totals[c] / played as f64, plan)
        })
        .collect()
}

/// A finished game for `p`: 1 won, 0 tied, -1 lost. In a melee a first place shared is a tie and any
/// other place a loss.
pub fn outcome(s: &GameState, p: usize) -> f64 {
    let w = s.record.winner;
    if w == p as i32 {
        1.0
    } else if w == -1 && (!s.melee() || s.record.places.get(p) == Some(&1)) {
        0.0
    } else {
        -1.0
    }
}

impl Strategy for Planner {
    fn name(&self) -> &str {
        if self.params.effect_runs.is_some() {
            NAME
        } else {
            CLASSIC_NAME
        }
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
        if let Some(p) = pass.filter(|p| p.1 > best.1 + self.params.pass_margin) {
            best = p;
        }
        // builder answers the follow-ups of the option as it planned them
        self.base.set_plan_for(view, best.2);
        best.0
    }
}
