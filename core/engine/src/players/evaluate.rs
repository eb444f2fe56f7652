//! The value of a position for one player: points, material, threats, task progress and hand readiness.
//! It reads only what that player may know, so it applies to any sandbox copy.

use super::geometry::around;
use super::params::Params;
use super::readiness::{CostFloor, Position, FAR};
use super::task_progress::{progress, Measure};
use crate::board::{bits, Bits, ADJACENT, GREEN, RED};
use crate::cards::{Being, BeingId, TaskId};
use crate::state::{GameState, Mode, PerSeat, MAX_SEATS};
use std::cell::OnceCell;

/// Share of a task's points counted against you when the opponent meets it now.
const OPPONENT_CLAIM: f64 = 0.8;
/// Readiness expected of the being drawn into an empty hand slot, per heroic rank value.
const REFILL: f64 = 0.2;
const TURN_TASKS: [&str; 2] = ["destruction", "summoning"];
const LEGENDARY: usize = 2;
const HEROIC: usize = 1;
/// Share of an odd common destroyed this turn counted as a point (another may pair it before the end).
const ODD_COMMON: f64 = 0.4;
/// Melee: weight of a point in a colour other than a player's lowest one (the lowest is the score).
const OTHER_COLOURS: f64 = 0.3;
/// Melee: the strongest opponent's standing counts this much against you, the mean of all opponents' the
/// rest.
const LEADER_SHARE: f64 = 0.75;
/// Melee: value of each improvised summoning the player has not spent yet (so that one is spent only when
/// the summon pays for it).
const IMPROVISATION: f64 = 1.5;
/// The causality penalty: points a player with a pending being loses when the game ends (Etherweave).
const CAUSALITY: f64 = 2.0;
/// A personal deck once the opening hand is drawn (18 beings, 3 in hand).
const FULL_DECK: f64 = 15.0;
/// The Gateway is worth `gateway` × (1 + this share per enemy piece the Nethervoid cards in its holder's
/// hand would strike there, or per bonus they would get: Demon of Wrath, Flame Imp, the Acolytes, Gate
/// Master).
const GATEWAY_HAND: f64 = 0.5;

/// The hand's readiness (`total`), each card's share of it (`worth`), and for each empty square the
/// readiness a common piece of yours placed there would add (`field`).
#[derive(Clone, Debug)]
pub struct Readiness {
    pub total: f64,
    pub worth: Vec<(BeingId, f64)>,
    pub field: [f64; 81],
}

impl Readiness {
    pub fn none() -> Readiness {
        Readiness {
            total: 0.0,
            worth: Vec::new(),
            field: [0.0; 81],
        }
    }

    /// A card's worth, 0 when it is not in the hand (Python's `worth.get(card, 0.0)`).
    pub fn worth_of(&self, card: BeingId) -> f64 {
        self.worth
            .iter()
            .find(|(c, _)| *c == card)
            .map_or(0.0, |&(_, v)| v)
    }
}

/// An upper bound of the hand's readiness once a common piece of the player's is placed on an empty square
/// and any others of theirs are taken off: each card's cost falls by 1 at most, and only where the piece
/// fills a cell of one of its cheapest placements (`Position::lowering_squares`; removing one of your
/// commons never lowers a cost). Summed as `Evaluator::readiness` sums, term by term no smaller, so the
/// bound holds in floating point too (rounding is monotone).
pub struct ReadinessBound {
    /// Per card of the hand, in `each_card`'s order: its value, and its cost now with the squares that
    /// lower it.
    cards: Vec<(f64, (usize, Bits))>,
    refill: f64,
}

impl ReadinessBound {
    pub fn with_common_at(&self, decay: &[f64; FAR + 1], square: u8) -> f64 {
        let mut total = 0.0;
        for &(v, (cost, lowering)) in self.cards.iter() {
            let lowered = lowering >> square & 1 != 0;
            total += v * decay[cost - lowered as usize];
        }
        total + self.refill
    }
}

/// An upper bound of the hand's readiness once one square of the arena changes for the better for the
/// player and every other change is for the worse (a piece of theirs moved or added, a target taken, an
/// enemy piece moved off): each card's cost falls no lower than its `CostFloor` at that square. Summed as
/// `Evaluator::readiness` sums, so the bound holds in floating point too.
pub struct ReadinessFloor {
    /// Per card of the hand, in `each_card`'s order: its value and its floor.
    cards: Vec<(f64, CostFloor)>,
    refill: f64,
}

impl ReadinessFloor {
    pub fn with_better(&self, decay: &[f64; FAR + 1], square: u8) -> f64 {
        let mut total = 0.0;
        for (v, floor) in self.cards.iter() {
            total += v * decay[floor.at(square)];
        }
        total + self.refill
    }
}

/// What of a duel's static value only the opponent's pieces decide, found once for the options of one
/// choice (most of which leave the opponent's pieces alone): it holds in every position where their pieces
/// are the same, whatever the player's pieces do.
pub struct TheirSide {
    pieces: [Bits; 3],
    /// High Form: their progress toward each task of the row that only their own pieces decide (a colour,
    /// a chain, the diagonals), in the row's order (None for the others).
    of_task: Vec<Option<f64>>,
    /// The squares next to their upgraded pieces and next to their legendary ones (see `threats`).
    near: (Bits, Bits),
}

/// The squares next to a side's upgraded pieces (which move and fight) and next to its legendary ones.
fn near_fighters(pieces: &[Bits; 3]) -> (Bits, Bits) {
    (around(pieces[1] | pieces[2]), around(pieces[2]))
}

/// What the evaluator needs of a task, found once per card set.
#[derive(Clone, Copy)]
struct TaskInfo {
    measure: Measure,
    /// Destruction and summoning tasks only count what the active player did this turn.
    turn_task: bool,
    points: i32,
}

pub struct Evaluator {
    pub w: Params,
    pub decay: [f64; FAR + 1],
    pub rank_value: [f64; 3],
    tasks: OnceCell<Vec<TaskInfo>>,
}

impl Evaluator {
    pub fn new(w: Params) -> Evaluator {
        let mut decay = [0.0; FAR + 1];
        for (c, d) in decay.iter_mut().enumerate().take(FAR) {
            *d = w.readiness_decay.powf(c as f64);
        }
        Evaluator {
            w,
            decay,
            rank_value: [1.0, 2.0, 3.0],
            tasks: OnceCell::new(),
        }
    }

    // ----- the whole position
    pub fn value(&self, s: &GameState, p: usize) -> f64 {
        self.with_readiness(self.static_value(s, p), s, p)
    }

    /// The value of a position whose `static_value` is `stat`.
    pub fn with_readiness(&self, stat: f64, s: &GameState, p: usize) -> f64 {
        if self.w.patterns != 0.0 {
            return stat + self.w.patterns * self.readiness(s, p);
        }
        stat
    }

    /// An upper bound of `with_readiness(stat, ..)` for a position a common piece of the player's reached
    /// on the empty `square` (see `ReadinessBound`).
    pub fn bounded_value(&self, stat: f64, bound: &ReadinessBound, square: u8) -> f64 {
        stat + self.w.patterns * bound.with_common_at(&self.decay, square)
    }

    /// An upper bound of `with_readiness(stat, ..)` for a position where only `square` changed for the
    /// better for the player (see `ReadinessFloor`).
    pub fn floored_value(&self, stat: f64, floor: &ReadinessFloor, square: u8) -> f64 {
        stat + self.w.patterns * floor.with_better(&self.decay, square)
    }

    /// `with_readiness(stat, s, p)` exactly, for a position `s` where only `square` changed for the better
    /// for `p` from the one `floor` was found in: a card whose floor there is "far" is far, and its pattern
    /// is not searched.
    pub fn with_floored_readiness(
        &self,
        stat: f64,
        s: &GameState,
        p: usize,
        floor: &ReadinessFloor,
        square: u8,
    ) -> f64 {
        let pos = Position::new(&s.pieces[p], &s.enemy_pieces(p));
        let mut total = 0.0;
        let mut floors = floor.cards.iter();
        self.each_card(s, p, |_, card, v| {
            let far = floors.next().is_some_and(|(_, f)| f.at(square) == FAR);
            total += v * self.decay[if far { FAR } else { pos.best_cost(card) }]
        });
        stat + self.w.patterns * (total + self.refill() * self.empty_slots(s, p) as f64)
    }

    /// The value without the hand's readiness (the part that is slow to compute).
    pub fn static_value(&self, s: &GameState, p: usize) -> f64 {
        self.static_value_beside(s, p, None)
    }

    /// `static_value`, what only the opponent's pieces decide taken from `theirs` where it still holds.
    pub fn static_value_beside(&self, s: &GameState, p: usize, theirs: Option<&TheirSide>) -> f64 {
        if s.melee() {
            return self.melee_static_value(s, p);
        }
        let w = &self.w;
        let o = 1 - p;
        let (me, op) = (&s.pieces[p], &s.pieces[o]);
        let theirs = theirs.filter(|k| k.pieces == *op);
        let diff = |r: usize| me[r].count_ones() as i64 - op[r].count_ones() as i64;
        let mat =
            w.common * diff(0) as f64 + w.heroic * diff(1) as f64 + w.legendary * diff(2) as f64;
        let near_op = theirs.map_or_else(|| near_fighters(op), |k| k.near);
        let mut v = mat + self.threats(me, op, near_op);
        if s.mode == Mode::Deathmatch {
            v += w.score * self.dm_margin(s, p);
            if w.destruction != 0.0 && s.active == p {
                let d = s.counters.destroyed;
                v += w.destruction * (d[0] + d[1] + d[2]) as f64;
            }
        } else {
            v += self.high_form_margin(s, p, theirs);
        }
        if has_expansion_state(s) {
            v += self.expansion_value(s, p);
        }
        v
    }

    /// Your score minus the opponent's, counting the destruction this turn will score.
    pub fn dm_margin(&self, s: &GameState, p: usize) -> f64 {
        let mut mine = s.score(p) as f64;
        if s.active == p {
            let [c, h, leg] = s.counters.destroyed;
            let whole = (2 * leg + h + c / 2) as f64;
            mine += whole + ODD_COMMON * (c % 2) as f64;
        }
        mine - s.score(1 - p) as f64
    }

    /// Score margin (with the task you can claim this turn, and the one the opponent meets now counted in
    /// part against you) and progress towards the current tasks, weighted by their points.
    pub fn high_form_margin(&self, s: &GameState, p: usize, known: Option<&TheirSide>) -> f64 {
        let w = &self.w;
        let o = 1 - p;
        let known = known.filter(|k| k.pieces == s.pieces[o]);
        let (mut claim, mut their_claim) = (0i64, 0i64);
        let mut progress_margin = 0.0;
        for (i, &t) in s.task_row.iter().enumerate() {
            let task = self.task(s, t);
            let (mine, theirs) = if task.turn_task {
                (progress(task.measure, s, p), 0.0)
            } else {
                let theirs = known.and_then(|k| k.of_task.get(i).copied().flatten());
                let theirs = theirs.unwrap_or_else(|| progress(task.measure, s, o));
                (progress(task.measure, s, p), theirs)
            };
            let points = task.points as i64;
            if mine == 1.0 && s.active == p {
                claim = claim.max(points);
            }
            if theirs == 1.0 {
                their_claim = their_claim.max(points);
            }
            progress_margin += points as f64 * (mine - theirs);
        }
        let margin = (s.score(p) as i64 + claim - s.score(o) as i64) as f64
            - OPPONENT_CLAIM * their_claim as f64;
        w.score * margin + w.tasks * progress_margin
    }

    /// What only the opponent's pieces decide in a duel (see `TheirSide`); None in a melee.
    pub fn their_side(&self, s: &GameState, p: usize) -> Option<TheirSide> {
        if s.melee() {
            return None;
        }
        let o = 1 - p;
        let of_task = if s.mode == Mode::HighForm {
            s.task_row
                .iter()
                .map(|&t| {
                    let task = self.task(s, t);
                    let own = !task.turn_task && task.measure.reads_own_pieces_only();
                    own.then(|| progress(task.measure, s, o))
                })
                .collect()
        } else {
            Vec::new()
        };
        Some(TheirSide {
            pieces: s.pieces[o],
            of_task,
            near: near_fighters(&s.pieces[o]),
        })
    }

    // ----- the melee (3-4 players)
    /// A melee position's value without the hand's readiness: material against the opponents' mean,
    /// threats from and to any opponent, the standing margin (`melee_margin`), this turn's destruction,
    /// and the improvisations not spent yet.
    pub fn melee_static_value(&self, s: &GameState, p: usize) -> f64 {
        let w = &self.w;
        let others = (s.seats - 1) as f64;
        let me = &s.pieces[p];
        let enemy = s.enemy_pieces(p);
        let count = |b: Bits| b.count_ones() as f64;
        let mat: f64 = (0..3)
            .map(|r| w.material()[r] * (count(me[r]) - count(enemy[r]) / others))
            .sum();
        let mut v = mat + self.melee_threats(me, &enemy, others);
        v += w.score * self.melee_margin(s, p);
        if w.destruction != 0.0 && s.active == p {
            let d = s.counters.destroyed;
            v += w.destruction * (d[0] + d[1] + d[2]) as f64;
        }
        let unspent = s.opponents(p).filter(|&c| !s.improvised[p][c]).count();
        let v = v + IMPROVISATION * unspent as f64;
        if has_expansion_state(s) {
            return v + self.expansion_value(s, p);
        }
        v
    }

    // ----- the expansion mechanics (Everfrost, Nethervoid, Etherweave)
    /// What the expansion state is worth to `p` against the opponents' mean (a duel: the opponent): frozen
    /// effects in play, pending beings (the causality penalty), Gateways, pieces in stasis, pieces
    /// removed from the game and next turns cut to one action. Only called when some of that state exists
    /// (`has_expansion_state`), so that the base decks' values are untouched.
    pub fn expansion_value(&self, s: &GameState, p: usize) -> f64 {
        let others = (s.seats - 1) as f64;
        let mut v = self.side_expansion(s, p, true);
        for q in s.opponents(p) {
            v -= self.side_expansion(s, q, false) / others;
        }
        // pieces in stasis belong to their owners whoever holds the Merchant of Time
        if self.w.stasis != 0.0 {
            let material = self.w.material();
            let held = s.stasis[..s.seats].iter().copied().chain(
                s.teams
                    .as_deref()
                    .into_iter()
                    .flat_map(|t| t.bench.iter().map(|m| m.stasis)),
            );
            for (owner, rank) in held.flatten() {
                let worth = self.w.stasis * material[rank as usize];
                v += if owner == p { worth } else { -worth / others };
            }
        }
        v
    }

    /// One side's own expansion state, valued for that side.
    fn side_expansion(&self, s: &GameState, q: usize, own: bool) -> f64 {
        let w = &self.w;
        let mut v = 0.0;
        let bench = s.teams.as_deref().map(|t| &t.bench[q]);
        // Everfrost: a frozen effect is worth `frozen` while its holder has a turn left to thaw it,
        // nothing after (an unused frozen effect scores nothing)
        let near = nearness(s);
        if w.frozen != 0.0 {
            let worth = w.frozen * (1.0 - near);
            if s.frozen[q].is_some() && later_turn(s, q, false) {
                v += worth;
            }
            if bench.is_some_and(|m| m.frozen.is_some()) && later_turn(s, q, true) {
                v += worth;
            }
        }
        // Etherweave: a pending being costs `pending` of the causality penalty while its holder may still
        // summon it, all of it once no turn is left
        if w.pending != 0.0 {
            let share = |later: bool| {
                if later {
                    (w.pending * near).min(1.0)
                } else {
                    1.0
                }
            };
            if s.pending[q].is_some() {
                v -= w.score * CAUSALITY * share(later_turn(s, q, false));
            }
            if bench.is_some_and(|m| m.pending.is_some()) {
                v -= w.score * CAUSALITY * share(later_turn(s, q, true));
            }
        }
        // Nethervoid: the Gateway, where the deck's cards use it
        if let (Some(sq), true) = (s.gateway[q], w.gateway != 0.0) {
            v += w.gateway * gateway_worth(s, q, sq, own);
        }
        // Everfrost: a next turn cut to one action (Everfrost Sentinel) costs `lost_action` while that turn
        // is still to come (the evaluation counts no actions)
        if s.action_loss[q] != 0 && later_turn(s, q, false) {
            v -= w.lost_action;
        }
        // Everfrost: pieces removed from the game shrink their owner's supply for good
        if w.removed != 0.0 {
            let [tokens, legends] = s.removed[q];
            v -= w.removed * (tokens + 2 * legends) as f64;
        }
        v
    }

    /// `threats` against all the opponents together: each opponent's pieces at risk count for a share
    /// of one opponent (`1 / others`), as their material does.
    fn melee_threats(&self, me: &[Bits; 3], enemy: &[Bits; 3], others: f64) -> f64 {
        let w = &self.w;
        if w.threat == 0.0 {
            return 0.0;
        }
        let (near_op_up, near_op_leg) = (around(enemy[1] | enemy[2]), around(enemy[2]));
        let (near_me_up, near_me_leg) = (around(me[1] | me[2]), around(me[2]));
        let n = |b: Bits| b.count_ones() as f64;
        let mine_at_risk = w.common * n(me[0] & near_op_up)
            + w.heroic * n(me[1] & near_op_up)
            + w.legendary * n(me[2] & near_op_leg);
        let theirs_at_risk = w.common * n(enemy[0] & near_me_up)
            + w.heroic * n(enemy[1] & near_me_up)
            + w.legendary * n(enemy[2] & near_me_leg);
        w.threat * (0.5 * theirs_at_risk / others - mine_at_risk)
    }

    /// Melee: your standing minus the opponents' (`LEADER_SHARE` of the strongest one's, the rest of
    /// their mean), each counting the destruction of the turn in progress as it will score.
    pub fn melee_margin(&self, s: &GameState, p: usize) -> f64 {
        let mine = standing(s, &colour_scores(s, p), p);
        let (mut best, mut sum) = (f64::NEG_INFINITY, 0.0);
        for q in s.opponents(p) {
            let theirs = standing(s, &colour_scores(s, q), q);
            best = best.max(theirs);
            sum += theirs;
        }
        let mean = sum / (s.seats - 1) as f64;
        mine - (LEADER_SHARE * best + (1.0 - LEADER_SHARE) * mean)
    }

    fn task(&self, s: &GameState, t: TaskId) -> TaskInfo {
        let tasks = self.tasks.get_or_init(|| {
            s.cards
                .tasks
                .iter()
                .map(|task| TaskInfo {
                    measure: Measure::from_name(task.condition_name)
                        .expect("a known task condition"),
                    turn_task: TURN_TASKS.contains(&task.category),
                    points: task.points,
                })
                .collect()
        });
        tasks[t.0 as usize]
    }

    /// The progress measure of a task (for the squares that help with it).
    pub fn task_measure(&self, s: &GameState, t: TaskId) -> Measure {
        self.task(s, t).measure
    }

    /// Pieces next to an enemy piece that could take them (upgraded pieces move and fight), theirs counted
    /// at half: the opponent plays next (`near_op`: `near_fighters(op)`).
    fn threats(&self, me: &[Bits; 3], op: &[Bits; 3], near_op: (Bits, Bits)) -> f64 {
        let w = &self.w;
        if w.threat == 0.0 {
            return 0.0;
        }
        let (near_op_up, near_op_leg) = near_op;
        let (near_me_up, near_me_leg) = near_fighters(me);
        let n = |b: Bits| b.count_ones() as f64;
        let mine_at_risk = w.common * n(me[0] & near_op_up)
            + w.heroic * n(me[1] & near_op_up)
            + w.legendary * n(me[2] & near_op_leg);
        let theirs_at_risk = w.common * n(op[0] & near_me_up)
            + w.heroic * n(op[1] & near_me_up)
            + w.legendary * n(op[2] & near_me_leg);
        w.threat * (0.5 * theirs_at_risk - mine_at_risk)
    }

    // ----- the hand
    pub fn card_value(&self, rank: u8, legend: bool) -> f64 {
        self.rank_value[rank as usize] * if legend { self.w.legend_cards } else { 1.0 }
    }

    /// The hand's value weighted by how close each card is to being summoned (its pattern cost).
    /// The same sum as `readiness_parts`' total, without the per-card parts (evaluated by the
    /// hundred thousand in lookahead).
    pub fn readiness(&self, s: &GameState, p: usize) -> f64 {
        let pos = Position::new(&s.pieces[p], &s.enemy_pieces(p));
        let mut total = 0.0;
        self.each_card(s, p, |_, card, v| {
            total += v * self.decay[pos.best_cost(card)]
        });
        total + self.refill() * self.empty_slots(s, p) as f64
    }

    /// What one more common piece of `p`'s could do to the hand's readiness at most (see `ReadinessBound`);
    /// None when the weights make a lower cost worth less (a bound would not hold).
    pub fn readiness_bound(&self, s: &GameState, p: usize) -> Option<ReadinessBound> {
        let (cards, refill) = self.hand_bound(s, p, |pos, card| {
            let cost = pos.best_cost(card);
            let lowering = match cost {
                0 => 0,
                FAR => !0,
                _ => pos.lowering_squares(card, cost),
            };
            (cost, lowering)
        })?;
        Some(ReadinessBound { cards, refill })
    }

    /// What one square changed for the better for `p` (and none other) could do to the hand's readiness
    /// at most, the origins in `unblocked` usable (see `ReadinessFloor`); None as for `readiness_bound`.
    pub fn readiness_floor(
        &self,
        s: &GameState,
        p: usize,
        unblocked: Bits,
    ) -> Option<ReadinessFloor> {
        let (cards, refill) = self.hand_bound(s, p, |pos, card| pos.cost_floor(card, unblocked))?;
        Some(ReadinessFloor { cards, refill })
    }

    /// Each card of `p`'s hand with its value and `of` it, and what the refill is worth: what a bound on
    /// readiness is made of. None unless a lower cost is worth more and no card is worth less than nothing.
    fn hand_bound<T>(
        &self,
        s: &GameState,
        p: usize,
        of: impl Fn(&Position, &Being) -> T,
    ) -> Option<(Vec<(f64, T)>, f64)> {
        if !self.monotone() {
            return None;
        }
        let pos = Position::new(&s.pieces[p], &s.enemy_pieces(p));
        let mut cards = Vec::with_capacity(5);
        let mut valid = true;
        self.each_card(s, p, |_, card, v| {
            valid &= v >= 0.0;
            cards.push((v, of(&pos, card)));
        });
        valid.then(|| (cards, self.refill() * self.empty_slots(s, p) as f64))
    }

    /// A lower cost is worth more (the bounds on readiness rest on it).
    fn monotone(&self) -> bool {
        self.w.patterns > 0.0 && self.decay.windows(2).all(|d| d[0] >= d[1])
    }

    pub fn readiness_parts(&self, s: &GameState, p: usize, field: bool) -> Readiness {
        let pos = Position::new(&s.pieces[p], &s.enemy_pieces(p));
        let decay = &self.decay;
        let mut total = 0.0;
        let mut worth = Vec::with_capacity(5);
        let mut gains = [0.0f64; 81];
        self.each_card(s, p, |id, card, v| {
            let cost = pos.best_cost(card);
            let wv = v * decay[cost];
            worth.push((id, wv));
            total += wv;
            if field && 0 < cost && cost < FAR {
                let gain = v * (decay[cost - 1] - decay[cost]);
                for sq in bits(pos.improving_squares(card, cost)) {
                    gains[sq as usize] += gain;
                }
            }
        });
        Readiness {
            total: total + self.refill() * self.empty_slots(s, p) as f64,
            worth,
            field: gains,
        }
    }

    /// Each card of `p`'s hand, beings then legends, with its value before readiness (its rank's, a
    /// legend's times `legend_cards`).
    fn each_card<'s>(
        &self,
        s: &'s GameState,
        p: usize,
        mut f: impl FnMut(BeingId, &'s Being, f64),
    ) {
        let legend_value = self.rank_value[LEGENDARY] * self.w.legend_cards;
        for (cards, legend) in [(&s.hand[p], false), (&s.legend_hand[p], true)] {
            for &id in cards.iter() {
                let card = s.cards.being(id);
                let v = if legend {
                    legend_value
                } else {
                    self.rank_value[card.rank as usize]
                };
                f(id, card, v);
            }
        }
    }

    /// Slots of the hand that the end of the turn fills with a being from the deck.
    pub fn empty_slots(&self, s: &GameState, p: usize) -> usize {
        if s.deck[p].is_empty() {
            0
        } else {
            3usize.saturating_sub(s.hand[p].len())
        }
    }

    /// The mean readiness worth, in `p`'s position, of the cards `pool` (a deck a returned card is
    /// replaced from: what a draw from it is expected to bring); None for an empty pool.
    pub fn mean_worth(&self, s: &GameState, p: usize, pool: &[BeingId]) -> Option<f64> {
        if pool.is_empty() {
            return None;
        }
        let pos = Position::new(&s.pieces[p], &s.enemy_pieces(p));
        let total: f64 = pool
            .iter()
            .map(|&id| {
                let card = s.cards.being(id);
                // as `readiness_parts` values a card of the hand
                let v = if card.is_legend() {
                    self.rank_value[LEGENDARY] * self.w.legend_cards
                } else {
                    self.rank_value[card.rank as usize]
                };
                v * self.decay[pos.best_cost(card)]
            })
            .sum();
        Some(total / pool.len() as f64)
    }

    /// The readiness expected of a being drawn into an empty hand slot.
    pub fn refill(&self) -> f64 {
        REFILL * self.rank_value[HEROIC]
    }
}

/// Melee: `p`'s points in each opponent colour (0 for the others) with, when `p` is the active player,
/// this turn's destruction as the end of the turn will score it: 2 per legendary, 1 per heroic, 1 per
/// pair of commons of one colour, and for the unpaired commons 1 point in the colour `leftover_colour`
/// would choose when 2 or more colours have one (`ODD_COMMON` for a single one, which a later common
/// of another colour could still pair).
pub fn colour_scores(s: &GameState, p: usize) -> PerSeat<f64> {
    let mut pts: PerSeat<f64> = [0.0; MAX_SEATS];
    for c in s.opponents(p) {
        pts[c] = s.colour_points[p][c] as f64;
    }
    if s.active != p {
        return pts;
    }
    let mut odd: Vec<usize> = Vec::new();
    for c in s.opponents(p) {
        let [com, hero, leg] = s.counters.destroyed_of[c];
        pts[c] += (2 * leg + hero + com / 2) as f64;
        if com % 2 == 1 {
            odd.push(c);
        }
    }
    match odd.len() {
        0 => {}
        1 => pts[odd[0]] += ODD_COMMON,
        _ => pts[lowest_colour(&pts, &odd)] += 1.0,
    }
    pts
}

/// Of the colours `among`, the one where `pts` is lowest (the lowest seat on ties): where a point raises
/// the lowest colour score most.
pub fn lowest_colour(pts: &PerSeat<f64>, among: &[usize]) -> usize {
    let mut best = among[0];
    for &c in &among[1..] {
        if pts[c] < pts[best] {
            best = c;
        }
    }
    best
}

/// Melee: a player's standing from their colour scores (`pts`, one per opponent of `p`): the lowest, which
/// is the score that wins, plus `OTHER_COLOURS` per point in the others (they break ties, trigger the end,
/// and leave the lowest colour less to catch up once it has risen).
pub fn standing(s: &GameState, pts: &PerSeat<f64>, p: usize) -> f64 {
    let (mut lowest, mut sum) = (f64::INFINITY, 0.0);
    for c in s.opponents(p) {
        lowest = lowest.min(pts[c]);
        sum += pts[c];
    }
    lowest + OTHER_COLOURS * (sum - lowest)
}

/// What `q`'s Gateway on `sq` is worth (in units of `gateway`): 1, plus for the evaluating side (`own`)
/// what the Nethervoid cards in its hand would do with the Gateway there; an opponent's hand is not
/// looked at.
fn gateway_worth(s: &GameState, q: usize, sq: u8, own: bool) -> f64 {
    if !own {
        return 1.0;
    }
    let at = 1u128 << sq;
    let enemy = s.enemy_pieces(q);
    let commons = (ADJACENT[sq as usize] & enemy[0]).count_ones() as f64;
    let heroic = s.pieces[q][HEROIC] & at != 0;
    let mut v = 1.0;
    for &id in &s.hand[q] {
        v += match s.cards.being(id).id {
            "nethervoid/demon-of-wrath" => GATEWAY_HAND * commons,
            "nethervoid/flame-imp" => GATEWAY_HAND * commons.min(1.0),
            "nethervoid/acolyte-of-destruction" if RED & at != 0 && enemy[HEROIC] != 0 => {
                GATEWAY_HAND
            }
            "nethervoid/acolyte-of-growth" if GREEN & at != 0 => GATEWAY_HAND,
            "nethervoid/gate-master" if heroic => GATEWAY_HAND,
            _ => 0.0,
        };
    }
    v
}

/// Whether any expansion state exists (a frozen effect, a pending being, a Gateway, a piece in stasis, a
/// piece removed from the game, a turn cut to one action): the base decks never have any, and their
/// positions' values stay exactly as before the expansions.
pub fn has_expansion_state(s: &GameState) -> bool {
    (0..s.seats).any(|q| {
        s.frozen[q].is_some()
            || s.pending[q].is_some()
            || s.gateway[q].is_some()
            || s.stasis[q].is_some()
            || s.removed[q] != [0, 0]
            || s.action_loss[q] != 0
    }) || s.teams.as_deref().is_some_and(|t| {
        t.bench
            .iter()
            .any(|m| m.frozen.is_some() || m.pending.is_some() || m.stasis.is_some())
    })
}

/// How near the end of the game is, 0 (its start) to 1: the best score's share of the score that triggers
/// the end, or the share of the shortest personal deck already drawn (an empty deck triggers it too),
/// whichever is nearer; 1 once the end is triggered.
pub fn nearness(s: &GameState) -> f64 {
    if s.end_trigger.is_some() {
        return 1.0;
    }
    let by_score = s.best_score() as f64 / s.mode.end_score(s.seats) as f64;
    let shortest = s.deck[..s.seats].iter().map(Vec::len).min().unwrap_or(0);
    let by_deck = 1.0 - shortest as f64 / FULL_DECK;
    by_score.max(by_deck).clamp(0.0, 1.0)
}

/// Whether side `q` (its benched member when `bench`, in a team game) plays a turn after the turn in
/// progress: the end trigger gives every player one more turn after the trigger turn, and the turn limit
/// ends the game too.
pub fn later_turn(s: &GameState, q: usize, bench: bool) -> bool {
    if s.over {
        return false;
    }
    let n = s.players() as u32;
    let mut remaining = s.max_turns.saturating_sub(s.turn);
    if s.end_trigger.is_some() {
        let done = if s.turn > s.trigger_turn {
            s.turns_after_trigger + 1
        } else {
            0
        };
        remaining = remaining.min(n.saturating_sub(done));
    }
    let distance = if s.team_game() {
        // sides alternate; a side's members alternate on its turns
        match (q == s.active, bench) {
            (true, false) => 4,
            (true, true) => 2,
            (false, false) => 1,
            (false, true) => 3,
        }
    } else if q == s.active {
        n
    } else {
        ((q + s.seats - s.active) % s.seats) as u32
    };
    distance <= remaining
}
