//! The engine of the scripted strategies (parameters declared in players/params.rs): every option of a main decision is
//! tried on a sandbox copy of the game and scored by the position it leads to (`evaluate`); the choices the
//! option then needs (placement, effect targets) are made by the same rules inside the sandbox, and the real
//! game gets the same answers back from the plan kept for the chosen option. In a melee a summon's options
//! include its improvised placements, tried like the others (the evaluation counts an improvisation
//! spent as a small loss).

use std::collections::VecDeque;

use super::evaluate::{later_turn, Evaluator, Readiness};
use super::params::Params;
use super::readiness::Position;
use super::reflex;
use super::sandbox::{best_outcome, Answer, Outcome};
use super::task_progress::helpful_squares;
use crate::board::{bits, Bits, ADJACENT, WITHIN};
use crate::cards::{Being, BeingId};
use crate::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use crate::effects::steps::{Op, Step, Where};
use crate::game::{Game, Players};
use crate::ranks::{COMMON, LEGENDARY};
use crate::state::{shared_rng, GameState, Mode, PerSeat, SharedRng};

/// A strategy scoring options by the position they lead to; presets of its weights make the named
/// scripted strategies.
pub struct Lookahead {
    name: String,
    rng: SharedRng,
    ev: Evaluator,
    flare_margin: f64,
    max_placements: usize,
    place_candidates: usize,
    explore: i64,
    full_values: usize,
    pass_control: bool,
    /// The default player's base: the choices inside an effect valued by the position they lead to with
    /// the full evaluation, and the extra sandbox runs that try the alternatives of the choices `Rerun`
    /// names (None: the choices inside effects are judged by what they do at once, as the scripted
    /// strategies judge them).
    positional: Option<(i64, Rerun)>,
    /// A discard that returns cards is valued with what their replacements are expected to add (the
    /// player has no rollouts to weigh it otherwise); false: valued as the plain discard.
    returns_valued: bool,
    plan: VecDeque<Answer>,
    /// Team games: the turn, turn seat and controller the plan was made in (None: the next decision's).
    /// A plan is never answered from in another turn, nor after control has passed.
    plan_key: Option<TeamTurn>,
}

/// Team games: the turn, its seat and the teammate who took control of it, if any.
type TeamTurn = (u32, usize, Option<usize>);

/// Team games: the turn of `view`'s decision (None outside team games).
fn team_turn_key(view: &PlayerView) -> Option<TeamTurn> {
    view.team_turn()
        .map(|(seat, controller)| (view.turn(), seat, controller))
}

/// Team games: whether `d` is an effect decision asked of the active side that offers passing control
/// (`Opt::Action(Action::Pass)`, always its last option).
pub fn offers_pass(d: &Decision) -> bool {
    d.kind != Kind::Action && d.options.last() == Some(&Opt::Action(Action::Pass))
}

/// `d` without the option of passing control (the other options keep their indexes).
pub fn without_pass<'a>(d: &Decision<'a>) -> Decision<'a> {
    Decision {
        options: &d.options[..d.options.len() - 1],
        ..*d
    }
}

impl Lookahead {
    pub fn new(name: &str, seed: u64, params: &Params) -> Lookahead {
        Lookahead::sharing(name, &shared_rng(seed), params)
    }

    /// A player drawing from the stream `rng`, shared with its caller (a rollout's players).
    pub fn sharing(name: &str, rng: &SharedRng, params: &Params) -> Lookahead {
        Lookahead {
            name: name.to_string(),
            rng: std::rc::Rc::clone(rng),
            ev: Evaluator::new(*params),
            flare_margin: params.flare_margin,
            max_placements: params.max_placements as usize,
            place_candidates: params.place_candidates as usize,
            explore: params.explore,
            full_values: params.full_values as usize,
            pass_control: params.pass_control,
            positional: None,
            returns_valued: false,
            plan: VecDeque::new(),
            plan_key: None,
        }
    }

    /// A player continuing the stream `rng` (a Python lookahead player's, see core/py/src/players.rs).
    pub fn with_rng(name: &str, rng: crate::rng::PyRandom, params: &Params) -> Lookahead {
        let l = Lookahead::new(name, 0, params);
        *l.rng.borrow_mut() = rng;
        l
    }

    /// The value of its parameter `name` (players/params.rs `Params`) as it plays with it.
    pub fn setting(&self, name: &str) -> Option<f64> {
        let w = &self.ev.w;
        Some(match name {
            "score" => w.score,
            "common" => w.common,
            "heroic" => w.heroic,
            "legendary" => w.legendary,
            "threat" => w.threat,
            "tasks" => w.tasks,
            "patterns" => w.patterns,
            "readiness_decay" => w.readiness_decay,
            "legend_cards" => w.legend_cards,
            "destruction" => w.destruction,
            "flare_margin" => self.flare_margin,
            "max_placements" => self.max_placements as f64,
            "place_candidates" => self.place_candidates as f64,
            "explore" => self.explore as f64,
            "full_values" => self.full_values as f64,
            "frozen" => w.frozen,
            "pending" => w.pending,
            "gateway" => w.gateway,
            "stasis" => w.stasis,
            "removed" => w.removed,
            "free_action" => w.free_action,
            "lost_action" => w.lost_action,
            "pass_control" => self.pass_control as i64 as f64,
            _ => return None,
        })
    }

    /// Value the choices inside effects (moves, leaps, optional parts, targets) by playing each in the
    /// sandbox and evaluating the position reached in full (hand readiness included), within `runs`
    /// extra sandbox runs per option tried; discards also plan returning the cards worth less than a
    /// fresh draw (`return_plan`). The default player's base (players/planner.rs).
    pub fn value_positions(&mut self, runs: i64, rerun: Rerun) {
        self.positional = Some((runs, rerun));
    }

    /// Value a discard's returns (with `value_positions`) by the readiness their replacements are expected
    /// to bring over the cards returned, instead of at the plain discard's value (`swift`, which plays no
    /// rollout on a clear decision, would otherwise never find a return worth making).
    pub fn value_returns(&mut self) {
        self.returns_valued = true;
    }

    /// The answers planned for the decisions of the action chosen last (empty between actions).
    pub fn plan(&self) -> &VecDeque<Answer> {
        &self.plan
    }

    /// Drop the plan: the next decisions are answered afresh (its action was not the one taken, or a
    /// searching player chose the action itself).
    pub fn forget_plan(&mut self) {
        self.plan.clear();
    }

    /// The player's random stream as it stands.
    pub fn stream(&self) -> crate::rng::PyRandom {
        self.rng.borrow().clone()
    }

    fn patterns(&self) -> f64 {
        self.ev.w.patterns
    }

    fn random(&self) -> f64 {
        self.rng.borrow_mut().random()
    }

    // ----- the real game
    /// The chosen option of the main "action" decision, and the plan for the choices it needs.
    fn action(&self, sb: Box<GameState>, d: &Decision) -> (usize, Vec<Answer>) {
        let p = d.player;
        let mut at = self.at_decision(sb, p);
        let mut best_i: Option<usize> = None;
        let mut best = Outcome::new(f64::NEG_INFINITY, Vec::new());
        for (i, option) in d.options.iter().enumerate() {
            let Opt::Action(action) = *option else {
                unreachable!("action options")
            };
            if action == Action::Pass && !self.pass_control {
                continue;
            }
            if action == Action::Flare {
                let flare = self.full(self.try_action(&at.game.state, p, action), p);
                if self.flare_pays(flare.value, at.base) {
                    at.game.state.recycle();
                    return (i, flare.into_answers());
                }
                continue;
            }
            let mut outcome = self.outcome(&mut at, p, action);
            if action == Action::Discard && self.positional.is_some() {
                if let Some((returns, gain)) =
                    self.return_plan(&at.game.state, p, &outcome.answers, &at.ready)
                {
                    outcome.value += self.returns_gain(gain);
                    outcome.answers = returns;
                }
            }
            if outcome.value > best.value {
                best_i = Some(i);
                best = outcome;
            }
        }
        at.game.state.recycle();
        match best_i {
            // only a flare not worth it, and no END offered: nothing else is possible
            None => (0, Vec::new()),
            Some(i) => (i, best.into_answers()),
        }
    }

    /// Each option of an action decision valued as `action` values them, with the answers planned for its
    /// follow-ups; a flare is valued like the others (instead of being taken as soon as it clears
    /// `flare_margin`). A searching player's shortlist and plans.
    pub fn option_outcomes(&self, sb: Box<GameState>, d: &Decision) -> Vec<(f64, Vec<Answer>)> {
        self.wide_outcomes(sb, d, 1)
            .into_iter()
            .map(|(_, value, answers)| (value, answers))
            .collect()
    }

    /// The sandbox of an action decision with what every option's value starts from.
    fn at_decision(&self, sb: Box<GameState>, p: usize) -> AtDecision {
        let ready = if self.patterns() != 0.0 {
            self.ev.readiness_parts(&sb, p, true)
        } else {
            Readiness::none()
        };
        let stat = self.ev.static_value(&sb, p);
        let base = stat + self.patterns() * ready.total;
        AtDecision {
            game: Game::around(sb, Players::Nobody),
            ready,
            stat,
            base,
        }
    }

    /// The outcome of one option of an action decision.
    fn outcome(&self, at: &mut AtDecision, p: usize, action: Action) -> Outcome {
        match action {
            Action::End => Outcome::new(at.base, Vec::new()),
            Action::Place if at.game.state.tokens[p] > 0 => {
                self.place_outcome(&mut at.game.state, p, &at.ready)
            }
            Action::Discard => self.discard_outcome(&at.game.state, p, &at.ready, at.stat),
            Action::Summon(card) => self.summon_outcome(&at.game, p, card),
            Action::Pass => self.pass_outcome(&at.game.state, p, at.base),
            Action::Thaw | Action::Warp(_) => self.free_play_outcome(&at.game.state, p, action),
            _ => self.full(self.try_action(&at.game.state, p, action), p),
        }
    }

    /// Answer the next decisions from `answers` (a searching player chose the action they follow).
    pub fn set_plan(&mut self, answers: Vec<Answer>) {
        self.plan = answers.into();
        self.plan_key = None;
    }

    /// `set_plan` at `view`'s decision: in a team game the plan is answered from in that turn only.
    pub fn set_plan_for(&mut self, view: &PlayerView, answers: Vec<Answer>) {
        self.set_plan(answers);
        self.plan_key = team_turn_key(view);
    }

    /// A free play (a thaw, a warp) tried in the sandbox and valued in full, each action it gains (Winter
    /// Whisperer's thaw) worth `free_action`: no evaluation counts the actions left, since every other
    /// option spends one. The value of the frozen effect or the pending being it leaves is the
    /// evaluation's (`Evaluator::expansion_value`), so it is played when it pays for them.
    fn free_play_outcome(&self, sb: &GameState, p: usize, action: Action) -> Outcome {
        let before = sb.actions_left;
        let mut outcome = self.full(self.try_action(sb, p, action), p);
        if let Some(state) = &outcome.state {
            let gained = state.actions_left - before;
            if gained != 0 && state.active == p {
                outcome.value += self.ev.w.free_action * gained as f64;
            }
        }
        outcome
    }

    /// Team games: passing control (`Action::Pass`) played in the sandbox: the teammate, asked with the
    /// cards the sandbox dealt him (his hand is not seen), spends the remaining actions placing common
    /// pieces by this player's own rules for his hand; the position reached is valued by the side's
    /// evaluation like any option's, its gain over ending the turn (`base`) counted per action spent, as
    /// every other option spends one (else two placements would outbid any single action: measured,
    /// builder passing so lost 2 games in 3 to builder not passing). Nothing is planned: the teammate
    /// answers for himself.
    fn pass_outcome(&self, sb: &GameState, p: usize, base: f64) -> Outcome {
        let spent = sb.actions_left.max(1) as f64;
        let outcome = self.explore(sb, p, &|g: &mut Game| {
            g.apply_action(p, Action::Pass);
            while g.action_options(p).contains(&Opt::Action(Action::Place)) {
                g.apply_action(p, Action::Place);
            }
        });
        let mut outcome = self.full(outcome, p);
        outcome.value = base + (outcome.value - base) / spent;
        outcome.answers = Vec::new();
        outcome
    }

    /// The best placement's outcome, fully valued. Placements are compared without the hand's readiness
    /// first, and only the best few are valued in full.
    fn summon_outcome(&self, at: &Game, p: usize, card: BeingId) -> Outcome {
        self.summon_outcomes(at, p, card, 1).swap_remove(0)
    }

    /// The `width` best placements' outcomes, fully valued, best first (the best few by the value
    /// without readiness are valued in full: `full_values`, or `width` if more). `at` holds the
    /// sandbox.
    fn summon_outcomes(&self, at: &Game, p: usize, card: BeingId, width: usize) -> Vec<Outcome> {
        let options = summon_options(at, p, card);
        let sb = &at.state;
        let mut outcomes = Vec::new();
        for j in self.promising(sb, p, &options, card) {
            let option = options[j];
            let mut outcome = self.explore(sb, p, &|g: &mut Game| summon_action(g, p, option));
            if options.len() > 1 {
                // the engine asks for the placement only when there is a choice
                outcome.answers.insert(0, (Kind::Summon, option));
            }
            outcomes.push(outcome);
        }
        assert!(!outcomes.is_empty(), "a legal placement");
        outcomes.sort_by(|a, b| b.value.partial_cmp(&a.value).expect("no NaN values"));
        outcomes.truncate(self.full_values.max(width));
        let mut full: Vec<Outcome> = outcomes.into_iter().map(|o| self.full(o, p)).collect();
        // stable: among equal values the earlier one first, as a strict comparison would pick
        full.sort_by(|a, b| b.value.partial_cmp(&a.value).expect("no NaN values"));
        full.truncate(width);
        full
    }

    /// A placement asked without a plan (the plan was lost): try each like the action would have.
    fn summon(&self, sb: Box<GameState>, d: &Decision) -> (usize, Vec<Answer>) {
        let p = d.player;
        let cards = &sb.cards;
        let card = sb.hand[p]
            .iter()
            .chain(sb.legend_hand[p].iter())
            .copied()
            .find(|&c| cards.being(c).id == d.card)
            .expect("the summoned card in the hand");
        let mut best_j = 0;
        let mut best = Outcome::new(f64::NEG_INFINITY, Vec::new());
        for j in self.promising(&sb, p, d.options, card) {
            let option = d.options[j];
            let outcome = self.full(
                self.explore(&sb, p, &|g: &mut Game| summon_placement(g, p, option)),
                p,
            );
            if outcome.value > best.value {
                best_j = j;
                best = outcome;
            }
        }
        sb.recycle();
        (best_j, best.into_answers())
    }

    fn try_action(&self, sb: &GameState, p: usize, action: Action) -> Outcome {
        self.explore(sb, p, &|g: &mut Game| g.apply_action(p, action))
    }

    /// The best outcome of `act` in the sandbox, valued without the hand's readiness.
    /// (With `positional`: every choice explored, valued with the hand's readiness.)
    fn explore(&self, sb: &GameState, p: usize, act: &dyn Fn(&mut Game)) -> Outcome {
        let policy = |s: &GameState, d: &Decision| self.policy(s, d);
        if let Some((runs, _)) = self.positional {
            let value = |s: &GameState| self.ev.value(s, p);
            return best_outcome(sb, &self.rng, act, &policy, &value, self.explore + runs);
        }
        let value = |s: &GameState| self.ev.static_value(s, p);
        best_outcome(sb, &self.rng, act, &policy, &value, self.explore)
    }

    fn full(&self, outcome: Outcome, p: usize) -> Outcome {
        if self.patterns() == 0.0 || self.positional.is_some() {
            return outcome;
        }
        let Some(state) = &outcome.state else {
            return outcome;
        };
        let ready = self.ev.readiness(state, p);
        let mut outcome = outcome;
        outcome.value += self.patterns() * ready;
        outcome
    }

    fn place_outcome(&self, sb: &mut GameState, p: usize, ready: &Readiness) -> Outcome {
        let squares: Vec<u8> = bits(sb.empty()).collect();
        let (i, value) = self.place_choice(sb, p, &squares, Some(ready));
        Outcome::new(value, vec![(Kind::Place, Opt::Square(squares[i]))])
    }

    /// Each option of an action decision with the `width` best ways of taking it (the squares of a place,
    /// the placements of a summon; one way for the others), in the options' order, best way first:
    /// (option index, value, the answers planned for its follow-ups). A searching player's candidates;
    /// with `width` 1, one per option, as `action` values them (a flare included, valued like the rest).
    pub fn wide_outcomes(
        &self,
        sb: Box<GameState>,
        d: &Decision,
        width: usize,
    ) -> Vec<(usize, f64, Vec<Answer>)> {
        self.wide_outcomes_and_base(sb, d, width).0
    }

    /// `wide_outcomes`, and the value of the position as it stands (what ending the turn, or not invoking
    /// the flare, keeps) with whether the player has a turn after this one (`later_turn`).
    pub fn wide_outcomes_and_base(
        &self,
        sb: Box<GameState>,
        d: &Decision,
        width: usize,
    ) -> (Vec<(usize, f64, Vec<Answer>)>, Standing) {
        let p = d.player;
        let mut at = self.at_decision(sb, p);
        let mut out = Vec::with_capacity(d.options.len() * width);
        for (i, option) in d.options.iter().enumerate() {
            let Opt::Action(action) = *option else {
                unreachable!("action options")
            };
            match action {
                Action::Place if at.game.state.tokens[p] > 0 => {
                    let squares: Vec<u8> = bits(at.game.state.empty()).collect();
                    let ranked =
                        self.place_values(&mut at.game.state, p, &squares, Some(&at.ready));
                    for &(j, v) in ranked.iter().take(width) {
                        out.push((i, v, vec![(Kind::Place, Opt::Square(squares[j]))]));
                    }
                }
                Action::Summon(card) => {
                    let outcomes = self.summon_outcomes(&at.game, p, card, width);
                    out.extend(outcomes.into_iter().map(|o| (i, o.value, o.into_answers())));
                }
                // team games, passing forbidden: valued last (the searching players drop it)
                Action::Pass if !self.pass_control => out.push((i, f64::NEG_INFINITY, Vec::new())),
                // positional: the discard also with the returns that cycle toward playable cards
                Action::Discard if self.positional.is_some() => {
                    let outcome = self.outcome(&mut at, p, action);
                    let value = outcome.value;
                    let answers = outcome.into_answers();
                    let returns = self.return_plan(&at.game.state, p, &answers, &at.ready);
                    out.push((i, value, answers));
                    if let Some((returns, gain)) = returns {
                        out.push((i, value + self.returns_gain(gain), returns));
                    }
                }
                _ => {
                    let outcome = self.outcome(&mut at, p, action);
                    out.push((i, outcome.value, outcome.into_answers()));
                }
            }
        }
        let standing = Standing {
            value: at.base,
            later_turn: later_turn(&at.game.state, p, false),
        };
        at.game.state.recycle();
        (out, standing)
    }

    /// Whether a flare whose outcome is worth `value`, from a position worth `base`, is invoked: it costs
    /// no action, so it is weighed against keeping it (`flare_margin`), not against the actions.
    pub fn flare_pays(&self, value: f64, base: f64) -> bool {
        value - base > self.flare_margin
    }

    /// `flare_pays`, except that on the player's last turn keeping the flare is worth nothing: it is invoked
    /// unless the position loses by it (a flare whose planned answers change nothing the evaluation sees
    /// still gets its answers chosen afresh in the game; measured, those flares won games:
    /// scripts/skipped_option_value.py).
    pub fn flare_pays_from(&self, value: f64, standing: &Standing) -> bool {
        if standing.later_turn {
            self.flare_pays(value, standing.value)
        } else {
            value >= standing.value
        }
    }

    /// Discarding the being of least worth (and returning nothing): its readiness is traded for that of the
    /// being drawn in its place.
    fn discard_outcome(&self, sb: &GameState, p: usize, ready: &Readiness, stat: f64) -> Outcome {
        // Etherweave: a pending being cannot be discarded.
        let mut discardable = sb.hand[p]
            .iter()
            .copied()
            .filter(|&c| sb.pending[p] != Some(c));
        let mut card = discardable.next().expect("a card to discard");
        let mut least = ready.worth_of(card);
        for c in discardable {
            let w = ready.worth_of(c);
            if w < least {
                card = c;
                least = w;
            }
        }
        let refill = if sb.deck[p].is_empty() {
            0.0
        } else {
            self.ev.refill()
        };
        let value = stat + self.patterns() * (ready.total - least + refill);
        Outcome::new(
            value,
            vec![(Kind::Discard, Opt::Being(card)), (Kind::Return, Opt::None)],
        )
    }

    /// The value a discard's returns add when `returns_valued`: `gain` (readiness worth) at the
    /// patterns' weight; nothing otherwise.
    fn returns_gain(&self, gain: f64) -> f64 {
        if self.returns_valued {
            self.patterns() * gain
        } else {
            0.0
        }
    }

    /// The discard `plan` (discard, then return nothing) with the cards returned first whose readiness
    /// worth is below what a draw from their deck is expected to bring (the mean worth of that deck's
    /// cards in the position, the sandbox's deal of it): beings and legends, each replaced at the end of
    /// the turn; with the readiness worth the replacements are expected to gain over them. None when no
    /// card is worth returning. A flare is not returned: no evaluation values the flare held, so the
    /// rollouts could not weigh it.
    fn return_plan(
        &self,
        sb: &GameState,
        p: usize,
        plan: &[Answer],
        ready: &Readiness,
    ) -> Option<(Vec<Answer>, f64)> {
        let Some(&(Kind::Discard, Opt::Being(discarded))) = plan.first() else {
            return None;
        };
        if self.patterns() == 0.0 {
            return None;
        }
        let legends: Vec<BeingId> = if sb.legend_deck.is_empty() {
            sb.legend_discard.clone()
        } else {
            sb.legend_deck.clone()
        };
        let draw_being = self.ev.mean_worth(sb, p, &sb.deck[p]);
        let draw_legend = self.ev.mean_worth(sb, p, &legends);
        let mut answers = vec![plan[0]];
        let beings = sb.hand[p]
            .iter()
            .copied()
            .filter(|&c| c != discarded && sb.pending[p] != Some(c))
            .map(|c| (c, draw_being));
        let held_legends = sb.legend_hand[p].iter().map(|&c| (c, draw_legend));
        let mut returned_beings = 0;
        let mut gain = 0.0;
        for (card, draw) in beings.chain(held_legends) {
            let Some(draw) = draw else { continue };
            let legend = sb.cards.being(card).is_legend();
            // a being returned is drawn back only while the deck holds one for it
            if !legend && returned_beings >= sb.deck[p].len() {
                continue;
            }
            let worth = ready.worth_of(card);
            if worth < draw {
                answers.push((Kind::Return, Opt::Being(card)));
                returned_beings += !legend as usize;
                gain += draw - worth;
            }
        }
        if answers.len() == 1 {
            return None;
        }
        answers.push((Kind::Return, Opt::None));
        Some((answers, gain))
    }

    /// Indexes of the summon options (placements, improvised ones after them) worth trying: one per
    /// summoning square when the card's effect does not depend on the rest of the placement (a placement
    /// of the player's own pieces before an improvised one), and those nearest enemy pieces (where
    /// effects bite) first.
    fn promising(&self, s: &GameState, p: usize, options: &[Opt], card: BeingId) -> Vec<usize> {
        let being = s.cards.being(card);
        let placements: Vec<u16> = options.iter().map(placement_of).collect();
        let indexes: Vec<usize> = if placements.len() > 1 && !depends_on_placement(being) {
            let mut seen: u128 = 0;
            let mut out = Vec::new();
            for (j, &pl) in placements.iter().enumerate() {
                let origin = being.placements[pl as usize].origin;
                if seen >> origin & 1 == 0 {
                    seen |= 1 << origin;
                    out.push(j);
                }
            }
            out
        } else {
            (0..placements.len()).collect()
        };
        if indexes.len() <= self.max_placements {
            return indexes;
        }
        let [_, hero, leg] = s.enemy_pieces(p);
        let (enemy, upgraded) = (s.enemies(p), hero | leg);
        let keys: Vec<(u32, f64)> = indexes
            .iter()
            .map(|&j| {
                let pl = &being.placements[placements[j] as usize];
                let near = WITHIN[2][pl.origin as usize];
                let promise = 3 * (enemy >> pl.origin & 1) as u32
                    + 2 * (pl.marked & enemy).count_ones()
                    + (near & enemy).count_ones()
                    + (near & upgraded).count_ones();
                (promise, self.random())
            })
            .collect();
        let mut order: Vec<usize> = (0..indexes.len()).collect();
        order.sort_by(|&a, &b| {
            let (ka, kb) = (keys[a], keys[b]);
            kb.0.cmp(&ka.0)
                .then(kb.1.partial_cmp(&ka.1).expect("no NaN"))
        });
        order.truncate(self.max_placements);
        order.into_iter().map(|k| indexes[k]).collect()
    }

    // ----- choices inside the sandbox (and in the real game when no plan covers them)
    /// The answer to a decision inside the sandbox, and whether it was judged (else the sandbox explores
    /// the other options). Placing and taking try pieces on a scratch copy of the state (Python changes the
    /// sandbox in place and restores it; here the sandbox is borrowed by the game that asks).
    fn policy(&self, s: &GameState, d: &Decision) -> (usize, bool) {
        if offers_pass(d) {
            // team games, inside an effect: the effect is finished by the player (see `choose`)
            return self.policy(s, &without_pass(d));
        }
        let squares = || -> Vec<u8> {
            d.options
                .iter()
                .map(|o| match *o {
                    Opt::Square(sq) => sq,
                    _ => unreachable!("square options"),
                })
                .collect()
        };
        match d.kind {
            Kind::Place if d.options.iter().any(|o| matches!(o, Opt::SeatSquare(..))) => {
                (reflex::enemy_colour_place(s, d), true)
            }
            Kind::Place if d.card.is_empty() => {
                let mut scratch = s.clone_for(&s.rng);
                (
                    self.place_choice(&mut scratch, d.player, &squares(), None)
                        .0,
                    true,
                )
            }
            Kind::Take => {
                let mut scratch = s.clone_for(&s.rng);
                (self.best_take(&mut scratch, d.player, &squares()), true)
            }
            Kind::Discard => (self.worst_card(s, d.player, d.options), true),
            Kind::Return => (
                d.options
                    .iter()
                    .position(|o| *o == Opt::None)
                    .expect("None to return"),
                true,
            ),
            Kind::Claim => {
                let points = |o: &Opt| match *o {
                    Opt::Task(t) => s.cards.task(t).points,
                    _ => -1,
                };
                let mut best = 0;
                for i in 1..d.options.len() {
                    if points(&d.options[i]) > points(&d.options[best]) {
                        best = i;
                    }
                }
                (best, true)
            }
            Kind::StartSquare => (0, true),
            Kind::MeleeStart => (self.melee_start(s, d), true),
            Kind::LegendColour | Kind::LeftoverColour => (reflex::lowest_colour_option(s, d), true),
            // the rule's choice first; the sandbox tries the other opponents too
            Kind::FlareOpponent => (reflex::flare_opponent(s, d), false),
            // positional: the option whose position is worth most first; the sandbox tries the others as
            // `Rerun` says, and the alternatives of a choice the position cannot value (the first first)
            _ if self.positional.is_some() => match positional_choice(&self.ev, s, d) {
                Some(i) => (
                    i,
                    self.positional.is_some_and(|(_, r)| r == Rerun::Unvalued),
                ),
                None => (0, false),
            },
            _ => match reflex::judge(&self.ev, s, d) {
                Some(i) => (i, true),
                None => (0, false),
            },
        }
    }

    /// Melee setup: the starting piece (colour and square) after which the position is worth most to
    /// the player (their own piece where their hand wants it, an opponent's where it hinders them least;
    /// the first offered on ties).
    fn melee_start(&self, s: &GameState, d: &Decision) -> usize {
        let p = d.player;
        let mut scratch = s.clone_for(&s.rng);
        let (mut best, mut best_v) = (0, f64::NEG_INFINITY);
        for (i, o) in d.options.iter().enumerate() {
            let Opt::SeatSquare(c, sq) = *o else {
                unreachable!("melee start options")
            };
            scratch.pieces[c as usize][COMMON as usize] |= 1 << sq;
            let v = self.ev.value(&scratch, p);
            scratch.pieces[c as usize][COMMON as usize] &= !(1 << sq);
            if v > best_v {
                (best, best_v) = (i, v);
            }
        }
        best
    }

    /// The best square to place a common piece of yours on, and the value it leads to.
    fn place_choice(
        &self,
        s: &mut GameState,
        p: usize,
        squares: &[u8],
        ready: Option<&Readiness>,
    ) -> (usize, f64) {
        self.place_values(s, p, squares, ready)[0]
    }

    /// The shortlisted squares (`place_candidates` of them, by the readiness they add and the tasks they
    /// help) with the value each leads to, best first: (index into `squares`, value).
    fn place_values(
        &self,
        s: &mut GameState,
        p: usize,
        squares: &[u8],
        ready: Option<&Readiness>,
    ) -> Vec<(usize, f64)> {
        let w = self.ev.w;
        let own;
        let ready = match ready {
            Some(r) => r,
            None => {
                own = if w.patterns != 0.0 {
                    self.ev.readiness_parts(s, p, true)
                } else {
                    Readiness::none()
                };
                &own
            }
        };
        let field = &ready.field;
        let mut helpful = 0;
        if s.mode != Mode::Deathmatch {
            for &t in s.task_row.iter() {
                helpful |= helpful_squares(self.ev.task_measure(s, t), s, p);
            }
        }
        let prelim: Vec<f64> = squares
            .iter()
            .map(|&sq| {
                let task = if helpful >> sq & 1 != 0 {
                    0.3 * w.tasks
                } else {
                    0.0
                };
                w.patterns * field[sq as usize] + task + 0.01 * self.random()
            })
            .collect();
        let mut shortlist: Vec<usize> = (0..squares.len()).collect();
        shortlist.sort_by(|&a, &b| prelim[b].partial_cmp(&prelim[a]).expect("no NaN"));
        shortlist.truncate(self.place_candidates);
        let mut valued: Vec<(usize, f64)> = shortlist
            .into_iter()
            .map(|i| {
                let sq = squares[i];
                s.pieces[p][COMMON as usize] |= 1 << sq;
                let v =
                    self.ev.static_value(s, p) + w.patterns * (ready.total + field[sq as usize]);
                s.pieces[p][COMMON as usize] &= !(1 << sq);
                (i, v)
            })
            .collect();
        // stable: among equal values the earlier one first, as a strict comparison would pick
        valued.sort_by(|a, b| b.1.partial_cmp(&a.1).expect("no NaN values"));
        valued
    }

    /// The piece of yours that the position misses least (commons with few friends nearby first).
    fn best_take(&self, s: &mut GameState, p: usize, squares: &[u8]) -> usize {
        let mine = s.mine(p);
        let rank_at = |s: &GameState, sq: u8| s.piece_at(sq).expect("a piece to take").1;
        let prelim: Vec<(u8, u32)> = squares
            .iter()
            .map(|&sq| (rank_at(s, sq), (ADJACENT[sq as usize] & mine).count_ones()))
            .collect();
        let mut shortlist: Vec<usize> = (0..squares.len()).collect();
        shortlist.sort_by(|&a, &b| prelim[a].cmp(&prelim[b]));
        shortlist.truncate(self.place_candidates);
        let (mut best_i, mut best_v) = (shortlist[0], f64::NEG_INFINITY);
        for &i in shortlist.iter() {
            let sq = squares[i];
            let rank = rank_at(s, sq) as usize;
            s.pieces[p][rank] &= !(1 << sq);
            let v = self.ev.value(s, p);
            s.pieces[p][rank] |= 1 << sq;
            if v > best_v {
                (best_i, best_v) = (i, v);
            }
        }
        best_i
    }

    fn worst_card(&self, s: &GameState, p: usize, options: &[Opt]) -> usize {
        let pos = Position::new(&s.pieces[p], &s.enemy_pieces(p));
        let worth = |o: &Opt| {
            let Opt::Being(id) = *o else {
                unreachable!("discard options")
            };
            let card = s.cards.being(id);
            self.ev.card_value(card.rank, card.is_legend()) * self.ev.decay[pos.best_cost(card)]
        };
        let mut best = 0;
        let mut least = worth(&options[0]);
        for (i, o) in options.iter().enumerate().skip(1) {
            let w = worth(o);
            if w < least {
                (best, least) = (i, w);
            }
        }
        best
    }
}

impl Strategy for Lookahead {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, view: &PlayerView, decision: &Decision) -> usize {
        if offers_pass(decision) {
            // Team games: control could pass in the middle of this effect. The teammate would finish it by
            // the same rules for the same side's evaluation, with a hand the player cannot see, and then
            // place common pieces only; passing between actions (valued at the action decision) gives
            // him the same placements. So the player finishes the effect and never passes here.
            return self.choose(view, &without_pass(decision));
        }
        if let Some(key) = team_turn_key(view) {
            // a plan is the seat's own and its turn's: none is answered from in another turn or once
            // control has passed (the teammate answers then, for himself)
            if self.plan_key.is_some_and(|k| k != key) {
                self.plan.clear();
            }
            self.plan_key = Some(key);
        }
        if decision.kind != Kind::Action {
            if let Some((kind, answer)) = self.plan.pop_front() {
                if kind == decision.kind {
                    if let Some(i) = decision.options.iter().position(|o| *o == answer) {
                        return i;
                    }
                }
            }
        }
        self.plan.clear();
        let sb = view.sandbox(&self.rng);
        let (i, plan) = match decision.kind {
            Kind::Action => self.action(sb, decision),
            Kind::Summon => self.summon(sb, decision),
            _ => {
                let i = self.policy(&sb, decision).0;
                sb.recycle();
                (i, Vec::new())
            }
        };
        self.plan = plan.into();
        i
    }
}

/// The moves worth searching, given builder's `values` of them and the action option each takes: the best
/// `n` by value, then every discard, flare and end (what builder undervalues by construction), every free
/// play of the expansions (a thaw, a warp: its worth shows in the turns after it), and in team games
/// passing control, as indexes.
pub fn shortlist(values: &[f64], actions: &[Opt], n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    order.truncate(n);
    for (i, o) in actions.iter().enumerate() {
        let always = matches!(
            o,
            Opt::Action(
                Action::Discard
                    | Action::Flare
                    | Action::End
                    | Action::Pass
                    | Action::Thaw
                    | Action::Warp(_)
            )
        );
        if always && !order.contains(&i) {
            order.push(i);
        }
    }
    order
}

/// An action decision's sandbox, the hand's readiness there, and the position's value without it
/// (`stat`) and with it (`base`, the value of ending the turn).
struct AtDecision {
    /// The sandbox, in a game of nobody's that offers its summon options.
    game: Game<'static>,
    ready: Readiness,
    stat: f64,
    base: f64,
}

/// The summon action as `Game::apply_action` plays it, once the placement (`Opt::Placement`, or in a
/// melee `Opt::Improvised`) is chosen.
fn summon_action(game: &mut Game, p: usize, option: Opt) {
    game.state.actions_left -= 1;
    summon_placement(game, p, option);
}

/// Summon with the placement chosen: the player's own pieces, or improvised with a colour.
fn summon_placement(game: &mut Game, p: usize, option: Opt) {
    match option {
        Opt::Placement(card, pl) => game.summon(p, card, pl),
        Opt::Improvised(card, pl, colour) => game.summon_improvised(p, card, pl, colour as usize),
        _ => unreachable!("summon options"),
    }
}

/// The placement index of a summon option.
fn placement_of(option: &Opt) -> u16 {
    match *option {
        Opt::Placement(_, pl) | Opt::Improvised(_, pl, _) => pl,
        _ => unreachable!("summon options"),
    }
}

/// The options of summoning `card`, as `Game::apply_action` offers them: its legal placements, then in a
/// melee the improvised ones.
fn summon_options(game: &Game, p: usize, card: BeingId) -> Vec<Opt> {
    let mut options: Vec<Opt> = game
        .legal_placements(p, card)
        .into_iter()
        .map(|pl| Opt::Placement(card, pl))
        .collect();
    if game.state.melee() {
        options.extend(
            game.improvised_placements(p, card)
                .into_iter()
                .map(|(pl, c)| Opt::Improvised(card, pl, c)),
        );
    }
    options
}

/// Whether the card's effect may differ between placements with the same summoning square: it reads the
/// marked squares or the pattern's pieces, or runs custom code that might.
fn depends_on_placement(card: &Being) -> bool {
    steps_depend(&card.effect)
}

fn steps_depend(steps: &[Step]) -> bool {
    steps.iter().any(|st| match &st.op {
        Op::Custom { .. } => true,
        Op::OneOf { branches, .. } => {
            matches!(st.where_, Where::Marked | Where::Pattern)
                || branches.iter().any(|b| steps_depend(b))
        }
        _ => matches!(st.where_, Where::Marked | Where::Pattern),
    })
}

/// The option of a choice inside an effect (a target square, a move or leap, "none" for stopping) after
/// which the position is worth most to the player, by the full evaluation (hand readiness included) of
/// the pieces as the option leaves them: moved, destroyed (counted as this turn's destruction),
/// upgraded, downgraded, converted or placed. Stopping is valued the same way (the position as it is)
/// and wins ties, then the first option. None when the options are not of these kinds (branches,
/// directions: the sandbox explores them).
///
/// Options are first valued by an upper bound of their readiness, best bound first, and evaluated in full
/// only while their bound could still win: the same choice as evaluating every option, at a fraction of
/// the cost where a piece can move far (Imperial's Messenger offers about 30 moves). The bound of an
/// option that only brings one of the player's common pieces to an empty square (most moves) is
/// `ReadinessBound`; that of one that changes a single square for the better (a heroic piece moved, a
/// capture, a target) is `ReadinessFloor`.
fn positional_choice(ev: &Evaluator, s: &GameState, d: &Decision) -> Option<usize> {
    let squares = matches!(
        d.kind,
        Kind::Destroy | Kind::Upgrade | Kind::Downgrade | Kind::Convert | Kind::Place
    );
    let moves = matches!(d.kind, Kind::Move | Kind::Leap);
    let understood = d.options.iter().all(|o| match o {
        Opt::None => true,
        Opt::Square(_) => squares,
        Opt::Move(..) => moves,
        _ => false,
    });
    if !understood || !(squares || moves) {
        return None;
    }
    let p = d.player;
    let mut scratch = s.clone_for(&s.rng);
    let arrivals = common_arrivals(s, p, d.kind, d.options);
    let bound = if arrivals.iter().flatten().count() >= BOUNDED_AT_LEAST {
        ev.readiness_bound(s, p)
    } else {
        None
    };
    let improved: Vec<Option<u8>> = d
        .options
        .iter()
        .zip(&arrivals)
        .map(|(&option, arrival)| match (&bound, arrival) {
            (Some(_), Some(_)) => None,
            _ => improved_square(s, p, d.kind, option),
        })
        .collect();
    let theirs = ev.their_side(s, p);
    let floor = if improved.iter().flatten().count() >= FLOORED_AT_LEAST {
        ev.readiness_floor(s, p, touched_squares(d.options))
    } else {
        None
    };
    // (value, order): stopping is first, then the options in their order
    let mut best = (None, f64::NEG_INFINITY, 0);
    let consider = |i: usize, v: f64, order: usize, best: &mut (Option<usize>, f64, usize)| {
        if v > best.1 || (v == best.1 && order < best.2) {
            *best = (Some(i), v, order);
        }
    };
    if let Some(i) = d.options.iter().position(|o| *o == Opt::None) {
        consider(i, ev.value(&scratch, p) + 1e-9, 0, &mut best);
    }
    // (bound, option, static value, whether the bound is the floor)
    let mut bounded: Vec<(f64, usize, f64, bool)> = Vec::new();
    for (i, &option) in d.options.iter().enumerate() {
        if option == Opt::None {
            continue;
        }
        let undo = AtOnce::saved(&scratch);
        apply_at_once(&mut scratch, p, d.kind, option);
        let stat = ev.static_value_beside(&scratch, p, theirs.as_ref());
        match (&bound, arrivals[i], &floor, improved[i]) {
            (Some(b), Some(square), _, _) => {
                bounded.push((ev.bounded_value(stat, b, square), i, stat, false))
            }
            (_, _, Some(f), Some(square)) => {
                bounded.push((ev.floored_value(stat, f, square), i, stat, true))
            }
            _ => consider(i, ev.with_readiness(stat, &scratch, p), i + 1, &mut best),
        }
        undo.restore(&mut scratch);
    }
    // best bound first; an option whose bound cannot beat the best so far cannot win, nor can any after it
    bounded.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for (ub, i, stat, floored) in bounded {
        if ub < best.1 || (ub == best.1 && i + 1 > best.2) {
            break;
        }
        let undo = AtOnce::saved(&scratch);
        apply_at_once(&mut scratch, p, d.kind, d.options[i]);
        let value = match (&floor, improved[i]) {
            (Some(f), Some(square)) if floored => {
                ev.with_floored_readiness(stat, &scratch, p, f, square)
            }
            _ => ev.with_readiness(stat, &scratch, p),
        };
        consider(i, value, i + 1, &mut best);
        undo.restore(&mut scratch);
    }
    scratch.recycle();
    best.0.or(Some(0))
}

/// An action decision's position as it stands: its value, and whether the player has a turn after this one.
pub struct Standing {
    pub value: f64,
    pub later_turn: bool,
}

/// Which choices inside an effect the extra sandbox runs of a player valuing positions try the
/// alternatives of (depth first, the earliest choice first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rerun {
    /// Every choice, the moves and targets the position valued included (the planner, the expert).
    Every,
    /// Only the choices the position does not value: a branch of an effect, a direction, a piece, card
    /// or square picked (swift: 16-24% faster than `Every`, as strong from 3 runs; docs/strategies.md).
    Unvalued,
}

/// Bounding the options' readiness pays once this many of them bring a common piece to an empty square.
const BOUNDED_AT_LEAST: usize = 4;

/// Bounding the options' readiness by the square each improves (`ReadinessFloor`) pays once this many of
/// them have one.
const FLOORED_AT_LEAST: usize = 4;

/// The one square an effect option may change for the better for `p` when every other change it makes is
/// for the worse: where a piece of `p`'s arrives (moved, capturing or not; the square it leaves only gets
/// worse) or where an enemy piece is moved off; the target of a destruction, upgrade, downgrade,
/// conversion or placement. None for the others (stopping).
fn improved_square(s: &GameState, p: usize, kind: Kind, option: Opt) -> Option<u8> {
    match option {
        Opt::Move(src, dst) if matches!(kind, Kind::Move | Kind::Leap) => {
            Some(if s.mine(p) >> src & 1 != 0 { dst } else { src })
        }
        Opt::Square(sq)
            if matches!(
                kind,
                Kind::Destroy | Kind::Upgrade | Kind::Downgrade | Kind::Convert | Kind::Place
            ) =>
        {
            Some(sq)
        }
        _ => None,
    }
}

/// Every square the options change: where a piece blocking a summon could leave.
fn touched_squares(options: &[Opt]) -> Bits {
    options.iter().fold(0, |touched, option| match *option {
        Opt::Move(src, dst) => touched | 1 << src | 1 << dst,
        Opt::Square(sq) => touched | 1 << sq,
        _ => touched,
    })
}

/// For each option, the empty square it brings one of `p`'s common pieces to, when that is all it does to
/// the pieces (a move or leap of such a piece to an empty square, a common piece placed on one).
fn common_arrivals(s: &GameState, p: usize, kind: Kind, options: &[Opt]) -> Vec<Option<u8>> {
    let commons = s.pieces[p][COMMON as usize];
    let empty = !s.occupied();
    let at = |bits: Bits, sq: u8| bits >> sq & 1 != 0;
    options
        .iter()
        .map(|&option| match option {
            Opt::Move(src, dst) if at(commons, src) && at(empty, dst) => Some(dst),
            Opt::Square(sq) if kind == Kind::Place && at(empty, sq) => Some(sq),
            _ => None,
        })
        .collect()
}

/// What `apply_at_once` changes, saved to be put back.
struct AtOnce {
    pieces: PerSeat<[Bits; 3]>,
    destroyed: [i32; 3],
    destroyed_of: PerSeat<[i32; 3]>,
}

impl AtOnce {
    fn saved(s: &GameState) -> AtOnce {
        AtOnce {
            pieces: s.pieces,
            destroyed: s.counters.destroyed,
            destroyed_of: s.counters.destroyed_of,
        }
    }

    fn restore(self, s: &mut GameState) {
        s.pieces = self.pieces;
        s.counters.destroyed = self.destroyed;
        s.counters.destroyed_of = self.destroyed_of;
    }
}

/// The pieces as an effect option leaves them at once (see `positional_choice`).
fn apply_at_once(s: &mut GameState, p: usize, kind: Kind, option: Opt) {
    let take = |s: &mut GameState, sq: u8| -> Option<(usize, u8)> {
        let piece = s.piece_at(sq)?;
        s.pieces[piece.0][piece.1 as usize] &= !(1 << sq);
        Some(piece)
    };
    let destroyed = |s: &mut GameState, (owner, rank): (usize, u8)| {
        if owner != p {
            s.counters.destroyed[rank as usize] += 1;
            s.counters.destroyed_of[owner][rank as usize] += 1;
        }
    };
    match option {
        Opt::Move(src, dst) => {
            if let Some(victim) = take(s, dst) {
                destroyed(s, victim);
            }
            if let Some((owner, rank)) = take(s, src) {
                s.pieces[owner][rank as usize] |= 1 << dst;
            }
        }
        Opt::Square(sq) => match kind {
            Kind::Destroy => {
                if let Some(victim) = take(s, sq) {
                    destroyed(s, victim);
                }
            }
            Kind::Upgrade | Kind::Downgrade => {
                if let Some((owner, rank)) = take(s, sq) {
                    let rank = if kind == Kind::Upgrade {
                        (rank + 1).min(LEGENDARY)
                    } else {
                        rank.saturating_sub(1)
                    };
                    s.pieces[owner][rank as usize] |= 1 << sq;
                }
            }
            Kind::Convert => {
                if let Some((_, rank)) = take(s, sq) {
                    s.pieces[p][rank as usize] |= 1 << sq;
                }
            }
            _ => {
                take(s, sq);
                s.pieces[p][COMMON as usize] |= 1 << sq;
            }
        },
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::game::{Game, GameOptions};
    use crate::players::make_strategy_with;
    use crate::players::params::ParamValue;
    use crate::state::{shared_rng, Mode};
    use std::cell::Cell;
    use std::rc::Rc;
    use std::sync::Arc;

    /// `positional_choice` as it was before its bound: every option evaluated in full, stopping first and
    /// the first of equal values winning.
    fn every_option_valued(ev: &Evaluator, s: &GameState, d: &Decision) -> usize {
        let p = d.player;
        let mut scratch = s.clone_for(&s.rng);
        let (mut best, mut best_value) = (0, f64::NEG_INFINITY);
        if let Some(i) = d.options.iter().position(|o| *o == Opt::None) {
            (best, best_value) = (i, ev.value(&scratch, p) + 1e-9);
        }
        for (i, &option) in d.options.iter().enumerate() {
            if option == Opt::None {
                continue;
            }
            let undo = (scratch.pieces, scratch.counters.clone());
            apply_at_once(&mut scratch, p, d.kind, option);
            let v = ev.value(&scratch, p);
            (scratch.pieces, scratch.counters) = undo;
            if v > best_value {
                (best, best_value) = (i, v);
            }
        }
        best
    }

    /// A player that, before each move, leap or placement inside an effect, checks `positional_choice`
    /// against every option valued in full, with builder's weights and with `swift_tuned`'s.
    struct Checking {
        player: Box<dyn Strategy>,
        evaluators: Vec<Evaluator>,
        rng: crate::state::SharedRng,
        /// decisions compared, those among them where `ReadinessBound` was used, and where
        /// `ReadinessFloor` was
        compared: Rc<Cell<(usize, usize, usize)>>,
    }

    impl Strategy for Checking {
        fn name(&self) -> &str {
            "checking"
        }

        fn choose(&mut self, view: &PlayerView, d: &Decision) -> usize {
            let kinds = [
                Kind::Move,
                Kind::Leap,
                Kind::Place,
                Kind::Destroy,
                Kind::Upgrade,
                Kind::Downgrade,
                Kind::Convert,
            ];
            if kinds.contains(&d.kind) {
                let s = view.sandbox(&self.rng);
                let arrivals = common_arrivals(&s, d.player, d.kind, d.options);
                let bounded = arrivals.iter().flatten().count() >= BOUNDED_AT_LEAST;
                let floored = d
                    .options
                    .iter()
                    .zip(&arrivals)
                    .filter(|&(&o, a)| {
                        !(bounded && a.is_some())
                            && improved_square(&s, d.player, d.kind, o).is_some()
                    })
                    .count()
                    >= FLOORED_AT_LEAST;
                for ev in self.evaluators.iter() {
                    let expected = every_option_valued(ev, &s, d);
                    assert_eq!(
                        positional_choice(ev, &s, d),
                        Some(expected),
                        "{:?}",
                        d.options
                    );
                }
                let (n, b, f) = self.compared.get();
                self.compared
                    .set((n + 1, b + bounded as usize, f + floored as usize));
            }
            self.player.choose(view, d)
        }
    }

    #[test]
    fn the_bounds_on_readiness_make_the_same_positional_choices() {
        let cards = Arc::new(
            CardSet::from_json(include_str!("../../tests/data/cards.json")).expect("card set"),
        );
        let tuned = Params {
            common: 1.37,
            heroic: 5.53,
            legendary: 7.13,
            readiness_decay: 0.22,
            patterns: 1.24,
            tasks: 1.5,
            ..Params::preset("builder").expect("builder")
        };
        let compared = Rc::new(Cell::new((0, 0, 0)));
        let pairings = [
            ["imperial", "imperial"],
            ["imperial", "sylvan"],
            ["highland", "imperial"],
        ];
        for seed in 0..12u64 {
            let decks = pairings[seed as usize % pairings.len()];
            let mode = [Mode::HighForm, Mode::Deathmatch][seed as usize / 3 % 2];
            let players = [0, 1].map(|seat| {
                let swift = [
                    ("effect_runs", ParamValue::Int(1)),
                    ("margin", ParamValue::Float(0.0)),
                ];
                Box::new(Checking {
                    player: make_strategy_with("swift", seat, seed, &swift).unwrap(),
                    evaluators: vec![
                        Evaluator::new(Params::preset("builder").expect("builder")),
                        Evaluator::new(tuned),
                    ],
                    rng: shared_rng(seed),
                    compared: Rc::clone(&compared),
                }) as Box<dyn Strategy>
            });
            let mut game = Game::new(
                Arc::clone(&cards),
                mode,
                decks,
                players,
                seed,
                GameOptions::default(),
            )
            .unwrap();
            game.play();
        }
        let (n, bounded, floored) = compared.get();
        assert!(
            n > 300 && bounded > 200 && floored > 100,
            "decisions compared: {n}, with the bound on commons: {bounded}, with the floor: {floored}"
        );
    }
}
