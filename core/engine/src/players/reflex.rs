//! Quick answers to effect decisions (strategies/reflex.py): each option is scored by what it does at once
//! to the pieces involved (destroying, upgrading, converting, moving, placing), without simulating the rest
//! of the effect. Decisions it cannot read (branches, directions, anything new) are left to the caller,
//! which explores their options in the sandbox.

use super::evaluate::Evaluator;
use super::task_progress::helpful_squares;
use crate::board::{Bits, Square};
use crate::decisions::{Decision, Kind, Opt};
use crate::ranks::LEGENDARY;
use crate::state::{GameState, Mode};

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
    /// (bitboard, what losing a piece there costs the player): negative for enemy pieces.
    losses: [(Bits, f64); 6],
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
        let (me, them) = (&s.pieces[p], &s.pieces[1 - p]);
        let losses = [
            (me[0], material[0]),
            (me[1], material[1]),
            (me[2], material[2]),
            (them[0], -material[0] - kill[0]),
            (them[1], -material[1] - kill[1]),
            (them[2], -material[2] - kill[2]),
        ];
        Scorer {
            ev,
            s,
            p,
            material,
            field: None,
            helpful: None,
            mine: s.mine(p),
            losses,
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
        } else {
            -gain
        }
    }

    fn downgrade(&self, sq: Square) -> f64 {
        let (owner, rank) = self.s.piece_at(sq).expect("a piece to downgrade");
        let loss = self.rank_gain(rank as i32 - 1);
        if owner == self.p {
            -loss
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
