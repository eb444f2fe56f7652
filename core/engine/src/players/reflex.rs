//! Quick answers to effect decisions: each option is scored by what it does at once
//! to the pieces involved (destroying, upgrading, converting, moving, placing), without simulating the rest
//! of the effect. Decisions it cannot read (branches, directions, anything new) are left to the caller,
//! which explores their options in the sandbox.

use super::evaluate::{colour_scores, lowest_colour, standing, Evaluator};
use super::task_progress::helpful_squares;
use crate::board::{Bits, Square};
use crate::decisions::{Decision, Kind, Opt};
use crate::ranks::LEGENDARY;
use crate::state::{GameState, Mode, MAX_SEATS};

/// Deathmatch points for destroying an enemy piece, by rank.
const DM_POINTS: [f64; 3] = [0.5, 1.0, 2.0];

/// The best option by its immediate effect, or None when this kind of decision is not understood.
pub fn judge(ev: &Evaluator, s: &GameState, d: &Decision) -> Option<usize> {
    let understood = match d.kind {
        Kind::Destroy | Kind::Upgrade | Kind::Downgrade | Kind::Convert | Kind::Place => d
            .options
            .iter()
            .all(|o| matches!(o, Opt::None | Opt::Square(_))),
        Kind::Move | Kind::Leap => d
            .options
            .iter()
            .all(|o| matches!(o, Opt::None | Opt::Move(..))),
        _ => false,
    };
    if !understood {
        return None;
    }
    let mut score = Scorer::new(ev, s, d.player);
    let (mut best, mut best_value) = (0, f64::NEG_INFINITY);
    // passing wins ties: an effect that gains nothing is not worth doing
    if let Some(i) = d.options.iter().position(|o| *o == Opt::None) {
        (best, best_value) = (i, 1e-9);
    }
    for (i, &option) in d.options.iter().enumerate() {
        let v = match option {
            Opt::None => continue,
            Opt::Square(sq) => match d.kind {
                Kind::Destroy => score.destroy(sq),
                Kind::Upgrade => score.upgrade(sq),
                Kind::Downgrade => score.downgrade(sq),
                Kind::Convert => score.convert(sq),
                _ => score.place(sq),
            },
            Opt::Move(src, dst) => score.move_(src, dst),
            _ => unreachable!("checked above"),
        };
        if v > best_value {
            (best, best_value) = (i, v);
        }
    }
    Some(best)
}

// ----- melee decisions

/// The colour option (`Opt::Seat`) whose point raises the player's lowest colour score: the colour where
/// their score is lowest (the lowest seat on ties). For the legend's point, where the score counts this
/// turn's destruction as it will score, and the point of the unpaired commons, asked once the
/// destruction has scored.
pub fn lowest_colour_option(s: &GameState, d: &Decision) -> usize {
    let p = d.player;
    let pts = if d.kind == Kind::LeftoverColour {
        std::array::from_fn(|c| s.colour_points[p][c] as f64)
    } else {
        colour_scores(s, p)
    };
    let colours: Vec<usize> = d.options.iter().map(seat_of).collect();
    let c = lowest_colour(&pts, &colours);
    colours
        .iter()
        .position(|&x| x == c)
        .expect("an offered colour")
}

/// The opponent to compare a flare against (`Opt::Seat` options): the one against whom it resolves the
/// most halves, then the one the point it scores in the player's colour helps least (it does not raise
/// their lowest colour score), then the one with the lowest standing, then the first offered.
pub fn flare_opponent(s: &GameState, d: &Decision) -> usize {
    let p = d.player;
    let flare = s.cards.flare(s.flare_hand[p][0]);
    let key = |q: usize| {
        let (me, them) = (&s.pieces[p], &s.pieces[q]);
        let up = |b: &[Bits; 3]| (b[1] | b[2]).count_ones() as i32;
        let all = |b: &[Bits; 3]| (b[0] | b[1] | b[2]).count_ones() as i32;
        // as `Game::flare_halves_against`
        let halves = (up(them) - up(me) >= flare.upper.threshold) as i32
            + (all(them) - all(me) >= flare.lower.threshold) as i32;
        let pts = colour_scores(s, q);
        let now = standing(s, &pts, q);
        let mut after = pts;
        after[p] += 1.0;
        (halves, -(standing(s, &after, q) - now), -now)
    };
    let mut best = 0;
    let mut best_key = key(seat_of(&d.options[0]));
    for (i, o) in d.options.iter().enumerate().skip(1) {
        let k = key(seat_of(o));
        if k.partial_cmp(&best_key) == Some(std::cmp::Ordering::Greater) {
            (best, best_key) = (i, k);
        }
    }
    best
}

/// Melee: an enemy piece placed by an effect in a colour of the player's choice (`Opt::SeatSquare`
/// options, Forest Ancient): the colour where the player's score is lowest, since the effects that place
/// enemy pieces destroy pieces of the colours placed, and the first square offered for it.
pub fn enemy_colour_place(s: &GameState, d: &Decision) -> usize {
    let pts = colour_scores(s, d.player);
    let mut best: Option<(usize, f64)> = None;
    for (i, o) in d.options.iter().enumerate() {
        if let Opt::SeatSquare(c, _) = *o {
            if best.is_none_or(|(_, v)| pts[c as usize] < v) {
                best = Some((i, pts[c as usize]));
            }
        }
    }
    best.map_or(0, |(i, _)| i)
}

fn seat_of(o: &Opt) -> usize {
    match *o {
        Opt::Seat(c) => c as usize,
        _ => unreachable!("seat options"),
    }
}

/// Python's `seq[i]` for a possibly negative index.
fn py_at(seq: &[f64; 3], i: i32) -> f64 {
    seq[i.rem_euclid(3) as usize]
}

/// Immediate gains of one decision's options, for `p`.
struct Scorer<'a> {
    ev: &'a Evaluator,
    s: &'a GameState,
    p: usize,
    material: [f64; 3],
    field: Option<[f64; 81]>,
    helpful: Option<Bits>,
    mine: Bits,
    /// (bitboard, what losing a piece there costs the player): negative for enemy pieces. A duel fills
    /// the first 6 (own pieces by rank, then the opponent's), a melee 3 more per opponent.
    losses: [(Bits, f64); 3 * MAX_SEATS],
    /// The share of one enemy piece's material in the value (1 in a duel, 1 / opponents in a melee,
    /// whose value weighs the opponents' mean material).
    enemy_share: f64,
}

impl<'a> Scorer<'a> {
    fn new(ev: &'a Evaluator, s: &'a GameState, p: usize) -> Scorer<'a> {
        let w = &ev.w;
        let material = w.material();
        let kill: [f64; 3] = if s.mode == Mode::Deathmatch {
            DM_POINTS.map(|pts| w.score * pts + w.destruction)
        } else {
            let points: i32 = s
                .task_row
                .iter()
                .map(|&t| s.cards.task(t))
                .filter(|t| t.category == "destruction")
                .map(|t| t.points)
                .sum();
            let per_piece = points as f64 / 3.0;
            [w.tasks * per_piece; 3]
        };
        let mut losses = [(0, 0.0); 3 * MAX_SEATS];
        let me = &s.pieces[p];
        for r in 0..3 {
            losses[r] = (me[r], material[r]);
        }
        let mut enemy_share = 1.0;
        if s.melee() {
            enemy_share = 1.0 / (s.seats - 1) as f64;
            // a kill scores in the victim's colour: worth what the points add to the player's standing
            let pts = colour_scores(s, p);
            let now = standing(s, &pts, p);
            for (k, q) in s.opponents(p).enumerate() {
                for r in 0..3 {
                    let mut after = pts;
                    after[q] += DM_POINTS[r];
                    let kill = w.score * (standing(s, &after, p) - now) + w.destruction;
                    losses[3 + 3 * k + r] = (s.pieces[q][r], -material[r] * enemy_share - kill);
                }
            }
        } else {
            let them = &s.pieces[1 - p];
            for r in 0..3 {
                losses[3 + r] = (them[r], -material[r] - kill[r]);
            }
        }
        Scorer {
            ev,
            s,
            p,
            material,
            field: None,
            helpful: None,
            mine: s.mine(p),
            losses,
            enemy_share,
        }
    }

    /// What losing the piece on `sq` costs the player (negative for an enemy piece, 0 for none).
    fn piece_value(&self, sq: Square) -> f64 {
        for &(bb, loss) in self.losses.iter() {
            if bb >> sq & 1 != 0 {
                return loss;
            }
        }
        0.0
    }

    /// The gain of a piece going from `rank` to `rank + 1`.
    fn rank_gain(&self, rank: i32) -> f64 {
        let mut gain = py_at(&self.material, rank + 1) - py_at(&self.material, rank);
        if rank + 1 == LEGENDARY as i32 && self.s.mode != Mode::Deathmatch {
            gain += self.ev.w.score;
        }
        gain
    }

    /// A bonus for a piece of the player's on a square that helps with a current task.
    fn on_task_square(&mut self, sq: Square) -> f64 {
        let helpful = *self.helpful.get_or_insert_with(|| {
            let s = self.s;
            let mut helpful = 0;
            if s.mode != Mode::Deathmatch {
                for &t in s.task_row.iter() {
                    helpful |= helpful_squares(self.ev.task_measure(s, t), s, self.p);
                }
            }
            helpful
        });
        if helpful >> sq & 1 != 0 {
            0.2 * self.ev.w.tasks
        } else {
            0.0
        }
    }

    fn destroy(&self, sq: Square) -> f64 {
        -self.piece_value(sq)
    }

    fn upgrade(&self, sq: Square) -> f64 {
        let (owner, rank) = self.s.piece_at(sq).expect("a piece to upgrade");
        let gain = self.rank_gain(rank as i32);
        if owner == self.p {
            gain
        } else if self.s.melee() {
            -gain * self.enemy_share
        } else {
            -gain
        }
    }

    fn downgrade(&self, sq: Square) -> f64 {
        let (owner, rank) = self.s.piece_at(sq).expect("a piece to downgrade");
        let loss = self.rank_gain(rank as i32 - 1);
        if owner == self.p {
            -loss
        } else if self.s.melee() {
            loss * self.enemy_share
        } else {
            loss
        }
    }

    fn convert(&self, sq: Square) -> f64 {
        match self.s.piece_at(sq) {
            Some((owner, rank)) if owner != self.p => {
                -self.piece_value(sq) + self.material[rank as usize]
            }
            _ => 0.0,
        }
    }

    fn place(&mut self, sq: Square) -> f64 {
        let (ev, s, p) = (self.ev, self.s, self.p);
        let field = self.field.get_or_insert_with(|| {
            if ev.w.patterns != 0.0 {
                ev.readiness_parts(s, p, true).field
            } else {
                [0.0; 81]
            }
        });
        let f = field[sq as usize];
        self.material[0] + self.ev.w.patterns * f + self.on_task_square(sq)
    }

    fn move_(&mut self, src: Square, dst: Square) -> f64 {
        let mut gain = -self.piece_value(dst);
        if self.mine >> src & 1 != 0 {
            gain += 0.5 * (self.on_task_square(dst) - self.on_task_square(src));
        }
        gain
    }
}
