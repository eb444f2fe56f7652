//! The expert search player `expert`: single-observer information-set Monte Carlo tree search (Cowling,
//! Powley and Whitehouse 2012) over the main decisions of the rest of this turn and the next turns
//! (`depth` turns in all), with `builder` playing every other decision and every decision below the
//! tree's frontier, and leaves scored by the builder's evaluation.
//!
//! The root's moves are *ways* of acting, not only actions: each place with one of its `width` best
//! squares, each summon with one of its `width` best placements (and the effect targets `builder` plans
//! for it, valued by the position they lead to as the planner's builder values them, within `effect_runs`
//! extra sandbox runs), as `Lookahead::wide_outcomes` values them; the `shortlist` best by that value are searched,
//! with discarding, the flare and ending the turn besides. Where the piece goes is most of what a move
//! is, and searching it is what lifts the expert above the default `planner`, which searches actions
//! only and leaves the square to `builder`.
//!
//! Each iteration deals a fresh determinization (`PlayerView::sandbox` from the player's own stream: it
//! never sees hidden cards), walks down the tree choosing among the options available in that
//! determinization by UCB (availability counted, as ISMCTS does), expands one node, lets `builder` play
//! on to the horizon, and backs the result up: a win or loss when the game ended, else the evaluation's
//! gain over the position at the root squashed to [0, 1]. Below the root the tree is keyed by the options
//! along the path (a node is reached by the same sequence of main-decision options, whoever took them);
//! the root move visited most is played, with its planned placement and targets.
//!
//! In a melee (3-4 players) the search is max-n: every seat's leaf reward is computed the same way from
//! that seat's side, and each edge is backed up with the reward of the player who chose it (in a duel,
//! the opponent's is one minus the player's). `depth` counts turns of any player, so depth 4 reaches
//! the end of the third opponent's turn after this one.

use super::evaluate::Evaluator;
use super::lookahead::{shortlist, Lookahead, Rerun};
use super::params::{ExpertParams, Params};
use super::planner::outcome;
use super::sandbox::Answer;
use crate::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use crate::game::{Game, Players};
use crate::rng::PyRandom;
use crate::state::{shared_rng, GameState, SharedRng};

/// Evaluation units (one point of score margin is 10) over which the squashed leaf value goes from 0.27 to
/// 0.73: a leaf `SCALE` better than the root scores 0.73.
const SCALE: f64 = 10.0;

struct Edge {
    opt: Opt,
    /// At the root, the move's index among the candidates (its plan); elsewhere None.
    way: Option<usize>,
    child: usize,
    /// Visits, total reward (from the side of the player who chose it), and how often it was available.
    n: u32,
    w: f64,
    avail: u32,
}

impl Edge {
    fn new(opt: Opt, way: Option<usize>) -> Edge {
        Edge {
            opt,
            way,
            child: NO_CHILD,
            n: 0,
            w: 0.0,
            avail: 0,
        }
    }
}

#[derive(Default)]
struct Node {
    edges: Vec<Edge>,
}

const NO_CHILD: usize = usize::MAX;
const ROOT: usize = 0;

/// The search tree of one decision.
struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    fn new() -> Tree {
        Tree {
            nodes: vec![Node::default()],
        }
    }
}

/// Plays both seats of an iteration's game: main decisions in the tree by UCB, the rest by builder.
struct Runner<'a> {
    tree: &'a mut Tree,
    /// The node the game stands at, None once it left the tree.
    at: Option<usize>,
    /// (node, edge, player who chose)
    path: Vec<(usize, usize, usize)>,
    sims: &'a mut [Lookahead],
    /// The plans of the root's moves (placement, effect targets), by `Edge::way`.
    plans: &'a [Vec<Answer>],
    exploration: f64,
    /// Team games, passing forbidden: the side whose passes are not searched (None: every pass is).
    no_pass: Option<usize>,
}

impl Runner<'_> {
    /// The edges of `node` for the options offered in this determinization, as (option index, edge),
    /// their availability counted; below the root an option first met gets its edge.
    fn offered(&mut self, node: usize, d: &Decision) -> Vec<(usize, usize)> {
        let edges = &mut self.tree.nodes[node].edges;
        let mut offered: Vec<(usize, usize)> = Vec::with_capacity(d.options.len());
        if node == ROOT {
            // the root's moves are fixed before the search: one edge per way of acting
            for (e, edge) in edges.iter_mut().enumerate() {
                if let Some(i) = d.options.iter().position(|o| *o == edge.opt) {
                    edge.avail += 1;
                    offered.push((i, e));
                }
            }
            return offered;
        }
        for (i, opt) in d.options.iter().enumerate() {
            if *opt == Opt::Action(Action::Pass) && self.no_pass == Some(d.player) {
                continue;
            }
            let e = match edges.iter().position(|e| e.opt == *opt) {
                Some(e) => e,
                None => {
                    edges.push(Edge::new(*opt, None));
                    edges.len() - 1
                }
            };
            edges[e].avail += 1;
            offered.push((i, e));
        }
        offered
    }

    fn select(&mut self, node: usize, view: &PlayerView, d: &Decision) -> usize {
        let offered = self.offered(node, d);
        let edges = &self.tree.nodes[node].edges;
        let unvisited: Vec<(usize, usize)> = offered
            .iter()
            .copied()
            .filter(|&(_, e)| edges[e].n == 0)
            .collect();
        let (i, e) = if !unvisited.is_empty() {
            // expansion: at the root the moves in builder's order of value; below it, builder's own
            // choice first, then the options in the order offered
            let mut pick = unvisited[0];
            if node != ROOT && unvisited.len() > 1 {
                let b = self.sims[d.player].choose(view, d);
                if let Some(&u) = unvisited.iter().find(|&&(i, _)| i == b) {
                    pick = u;
                }
            }
            let child = self.tree.nodes.len();
            self.tree.nodes.push(Node::default());
            self.tree.nodes[node].edges[pick.1].child = child;
            self.at = None;
            pick
        } else {
            let c = self.exploration;
            let mut best = offered[0];
            let mut best_u = f64::NEG_INFINITY;
            for &(i, e) in offered.iter() {
                let edge = &edges[e];
                let n = edge.n as f64;
                let u = edge.w / n + c * ((edge.avail as f64).ln() / n).sqrt();
                if u > best_u {
                    best_u = u;
                    best = (i, e);
                }
            }
            self.at = Some(edges[best.1].child);
            best
        };
        self.path.push((node, e, d.player));
        // the tree chose the action: builder answers its choices as the move planned them, or afresh
        let sim = &mut self.sims[d.player];
        match self.tree.nodes[node].edges[e].way {
            Some(way) => sim.set_plan_for(view, self.plans[way].clone()),
            None => sim.forget_plan(),
        }
        i
    }
}

impl Strategy for Runner<'_> {
    fn name(&self) -> &str {
        "expert-search"
    }

    fn choose(&mut self, view: &PlayerView, decision: &Decision) -> usize {
        if decision.kind == Kind::Action {
            if let Some(node) = self.at {
                return self.select(node, view, decision);
            }
        }
        self.sims[decision.player].choose(view, decision)
    }
}

pub struct Expert {
    rng: SharedRng,
    /// Answers the choices of the chosen action, and every decision other than the main one (by position,
    /// with `effect_runs`); the iterations' builders below the root keep the quick rules.
    builder: Lookahead,
    /// Play every seat inside the iterations (a melee's third and fourth are drawn when first needed).
    sims: Vec<Lookahead>,
    ev: Evaluator,
    params: ExpertParams,
}

impl Expert {
    pub fn new(seed: u64, params: &ExpertParams) -> Expert {
        Expert::with_rng(PyRandom::new(seed), params)
    }

    /// A player continuing the stream `rng`; its builders' streams are drawn from it.
    pub fn with_rng(mut rng: PyRandom, params: &ExpertParams) -> Expert {
        let base = Params {
            pass_control: params.pass_control,
            ..Params::preset("builder").expect("the builder preset")
        };
        let mut sub = || Lookahead::new("builder", rng.getrandbits(64), &base);
        let mut builder = sub();
        if params.effect_runs > 0 {
            builder.value_positions(params.effect_runs, Rerun::Every);
        }
        let sims = vec![sub(), sub()];
        let rng_shared = shared_rng(0);
        *rng_shared.borrow_mut() = rng;
        Expert {
            rng: rng_shared,
            builder,
            sims,
            ev: Evaluator::new(base),
            params: params.clone(),
        }
    }

    pub fn setting(&self, name: &str) -> Option<f64> {
        self.params.setting(name)
    }

    /// The player's random stream as it stands.
    pub fn stream(&self) -> PyRandom {
        self.rng.borrow().clone()
    }

    /// The answers planned for the follow-ups of the move chosen last (placement, effect targets).
    pub fn plan(&self) -> &std::collections::VecDeque<Answer> {
        self.builder.plan()
    }

    /// The moves the search of `d` would weigh at the root, best first by builder's value: (the option
    /// taken, the answers planned for its follow-ups). Draws from the player's stream like a search.
    pub fn root_moves_of(&self, view: &PlayerView, d: &Decision) -> Vec<(Opt, Vec<Answer>)> {
        let (edges, plans) = self.root_moves(view, d);
        edges.into_iter().map(|e| e.opt).zip(plans).collect()
    }

    /// The root's moves: the ways of acting worth searching (`width` per action, the `shortlist` best by
    /// builder's value, discard, flare and end besides), best first, with their plans.
    fn root_moves(&self, view: &PlayerView, d: &Decision) -> (Vec<Edge>, Vec<Vec<Answer>>) {
        let width = self.params.width as usize;
        let mut ways = self
            .builder
            .wide_outcomes(view.sandbox(&self.rng), d, width);
        let values: Vec<f64> = ways.iter().map(|w| w.1).collect();
        let actions: Vec<Opt> = ways.iter().map(|w| d.options[w.0]).collect();
        let mut kept = shortlist(&values, &actions, self.params.shortlist as usize);
        if !self.params.pass_control {
            // team games, passing forbidden
            kept.retain(|&k| actions[k] != Opt::Action(Action::Pass));
        }
        let edges = kept
            .iter()
            .enumerate()
            .map(|(way, &k)| Edge::new(actions[k], Some(way)))
            .collect();
        let plans = kept
            .into_iter()
            .map(|k| std::mem::take(&mut ways[k].2))
            .collect();
        (edges, plans)
    }

    /// The search of one main decision: the index of the move visited most at the root, and its plan.
    fn search(&mut self, view: &PlayerView, d: &Decision) -> (usize, Vec<Answer>) {
        let me = d.player;
        let seats = view.seats();
        while self.sims.len() < seats {
            let seed = self.rng.borrow_mut().getrandbits(64);
            let base = Params {
                pass_control: self.params.pass_control,
                ..Params::preset("builder").expect("the builder preset")
            };
            self.sims.push(Lookahead::new("builder", seed, &base));
        }
        let mut tree = Tree::new();
        let (root, mut plans) = self.root_moves(view, d);
        tree.nodes[ROOT].edges = root;
        let mut base: Option<f64> = None;
        // a melee's: every seat's value at the root, and each seat's reward at a leaf
        let mut bases: Vec<f64> = Vec::new();
        let mut rewards: Vec<f64> = vec![0.0; seats];
        for _ in 0..self.params.iterations {
            let mut sb = view.sandbox(&self.rng);
            // its record starts empty: the points it lists cannot match the scores
            sb.strict = false;
            let base = *base.get_or_insert_with(|| self.ev.value(&sb, me));
            if sb.melee() && bases.is_empty() {
                bases = (0..seats).map(|q| self.ev.value(&sb, q)).collect();
            }
            for s in self.sims.iter_mut() {
                s.forget_plan();
            }
            let mut runner = Runner {
                tree: &mut tree,
                at: Some(ROOT),
                path: Vec::new(),
                sims: &mut self.sims[..],
                plans: &plans,
                exploration: self.params.exploration,
                no_pass: (!self.params.pass_control).then_some(me),
            };
            let state = {
                let mut game = Game::around(sb, Players::Shared(&mut runner));
                game.finish_turn();
                let mut turns = 1;
                while turns < self.params.depth && !game.state.over {
                    game.play_turn();
                    turns += 1;
                }
                game.state
            };
            let path = std::mem::take(&mut runner.path);
            if state.melee() {
                // each player's choices are backed up with that player's own reward (max-n)
                for (q, r) in rewards.iter_mut().enumerate() {
                    *r = self.reward(&state, q, bases[q]);
                }
                for &(node, e, player) in path.iter() {
                    let edge = &mut tree.nodes[node].edges[e];
                    edge.n += 1;
                    edge.w += rewards[player];
                }
                continue;
            }
            let reward = self.reward(&state, me, base);
            for &(node, e, player) in path.iter() {
                let edge = &mut tree.nodes[node].edges[e];
                edge.n += 1;
                edge.w += if player == me { reward } else { 1.0 - reward };
            }
        }
        let mut best: Option<&Edge> = None;
        let mut key = (0u32, f64::NEG_INFINITY);
        for e in tree.nodes[ROOT].edges.iter() {
            let mean = if e.n > 0 { e.w / e.n as f64 } else { 0.0 };
            if best.is_none() || (e.n, mean) > key {
                key = (e.n, mean);
                best = Some(e);
            }
        }
        let best = best.expect("a move at the root");
        let i = d
            .options
            .iter()
            .position(|o| *o == best.opt)
            .expect("the root's moves are the decision's options");
        (
            i,
            std::mem::take(&mut plans[best.way.expect("a root move")]),
        )
    }

    /// 1 for a win, 0 for a loss, 0.5 for a tie (in a melee, a first place shared; any other place is
    /// a loss); before the end, the evaluation's gain over the root squashed to [0, 1].
    fn reward(&self, s: &GameState, me: usize, base: f64) -> f64 {
        if s.over && s.melee() {
            return (1.0 + outcome(s, me)) / 2.0;
        }
        if s.over {
            let w = s.record.winner;
            return if w < 0 {
                0.5
            } else if w as usize == me {
                1.0
            } else {
                0.0
            };
        }
        let gain = self.ev.value(s, me) - base;
        1.0 / (1.0 + (-gain / SCALE).exp())
    }
}

impl Strategy for Expert {
    fn name(&self) -> &str {
        "expert"
    }

    fn choose(&mut self, view: &PlayerView, decision: &Decision) -> usize {
        if decision.kind == Kind::Action && self.params.iterations > 0 && decision.options.len() > 1
        {
            let (i, plan) = self.search(view, decision);
            // builder answers the move's placement and targets as the search played them
            self.builder.set_plan_for(view, plan);
            return i;
        }
        self.builder.choose(view, decision)
    }
}
