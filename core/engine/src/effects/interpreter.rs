//! The effect step vocabulary: each card's effect is a list of steps run in
//! order. See `steps` for the keys; this module runs them.

use super::context::EffectContext;
use super::steps::{Amount, Cond, MoveSpec, Op, Owner, Reach, Step, Where};
use crate::board::{self, bit, Bits, Square};
use crate::decisions::{Kind, Opt};
use crate::ranks::{COMMON, LEGENDARY};

/// Run steps in order; returns whether the last step did something.
pub fn run_steps(ctx: &mut EffectContext, steps: &[Step]) -> bool {
    for st in steps {
        if let Some(cond) = st.cond {
            if !holds(ctx, cond) {
                ctx.did = false;
                continue;
            }
        }
        ctx.did = run_step(ctx, st);
    }
    ctx.did
}

/// Run one step, ignoring its condition; whether it did something.
pub fn run_step(ctx: &mut EffectContext, st: &Step) -> bool {
    match &st.op {
        Op::GainActions(n) => {
            ctx.gain_actions(*n);
            true
        }
        Op::Destroy { counts } => destroy(ctx, st, *counts),
        Op::Upgrade => upgrade(ctx, st),
        Op::Downgrade => downgrade(ctx, st),
        Op::Place { rank, enemy } => place(ctx, st, *rank, *enemy),
        Op::Convert { to_common } => convert(ctx, st, *to_common),
        Op::Move(spec) => moves(ctx, st, spec, None),
        Op::Leap(spec, reach) => moves(ctx, st, spec, Some(*reach)),
        Op::OneOf { branches, labels } => {
            let options: Vec<Opt> = labels.iter().map(|&l| Opt::Label(l)).collect();
            let Some(Opt::Label(label)) = ctx.choose(Kind::Branch, options, false, st.prompt)
            else {
                unreachable!()
            };
            let i = labels.iter().position(|&l| l == label).expect("label");
            run_steps(ctx, &branches[i])
        }
        Op::Custom { f, .. } => f(ctx, st),
    }
}

fn holds(ctx: &EffectContext, cond: Cond) -> bool {
    match cond {
        Cond::Previous => ctx.did,
        Cond::NotPrevious => !ctx.did,
        Cond::SelfAlive => ctx.self_sq.is_some(),
        Cond::OnRed => ctx.origin.is_some_and(|o| board::RED >> o & 1 != 0),
        Cond::OnGreen => ctx.origin.is_some_and(|o| board::GREEN >> o & 1 != 0),
        Cond::LastAction => ctx.is_last_action(),
        Cond::NotLastAction => !ctx.is_last_action(),
        Cond::SelfGateway => ctx.self_sq.is_some() && ctx.self_sq == ctx.gateway(),
        Cond::NotSelfGateway => !(ctx.self_sq.is_some() && ctx.self_sq == ctx.gateway()),
    }
}

/// The squares a step's `where`/`owner`/`ranks`/`not_self` select (occupied or not).
pub fn squares(ctx: &EffectContext, st: &Step) -> Bits {
    squares_owned(ctx, st, st.owner)
}

/// `squares` with `owner` in place of the step's own.
pub fn squares_owned(ctx: &EffectContext, st: &Step, owner: Owner) -> Bits {
    let centre = ctx.self_sq.or(ctx.origin);
    let mut m = match st.where_ {
        Where::SelfSq => ctx.self_sq.map_or(0, bit),
        Where::Any => board::ARENA,
        Where::Marked => ctx.marked_squares(),
        Where::Pattern => board::mask_of(ctx.pattern_sqs.iter().copied()),
        Where::Red => board::RED,
        Where::Green => board::GREEN,
        Where::NearGreen | Where::NearRed | Where::AdjacentToGreen => {
            let colour = if st.where_ == Where::NearRed {
                board::RED
            } else {
                board::GREEN
            };
            let start = if st.where_ == Where::AdjacentToGreen {
                0
            } else {
                colour
            };
            board::bits(colour).fold(start, |m, sq| m | board::ADJACENT[sq as usize])
        }
        Where::AdjacentToMine => board::bits(ctx.state().mine(ctx.player))
            .fold(0, |m, sq| m | board::ADJACENT[sq as usize]),
        Where::MarkedOther => ctx.placement.as_ref().map_or(0, |p| p.marked_other),
        Where::AdjacentToEnemy => board::bits(ctx.owner_mask(Owner::Enemy))
            .fold(0, |m, sq| m | board::ADJACENT[sq as usize]),
        Where::AdjacentToGateway => ctx.gateway().map_or(0, |g| board::ADJACENT[g as usize]),
        Where::Adjacent => centre.map_or(0, |c| board::ADJACENT[c as usize]),
        Where::Orthogonal => centre.map_or(0, |c| board::ORTHOGONAL[c as usize]),
        Where::Diagonal => centre.map_or(0, |c| board::DIAGONAL[c as usize]),
        Where::Within(n) => centre.map_or(0, |c| board::WITHIN[n as usize][c as usize]),
    };
    if let Some(ranks) = st.ranks {
        m &= ctx.rank_set_mask(ranks, owner);
    } else if owner != Owner::Any {
        m &= ctx.owner_mask(owner);
    }
    if st.not_self {
        if let Some(s) = ctx.self_sq {
            m &= !bit(s);
        }
    }
    m
}

/// (maximum number, whether stopping early is allowed).
fn how_many(st: &Step) -> (u32, bool) {
    match st.amount {
        Amount::UpTo(n) => (n, true),
        Amount::Exactly(n) => (n, false),
    }
}

/// Choose and act on squares one at a time, as many as the step says.
fn repeat(
    ctx: &mut EffectContext,
    st: &Step,
    kind: Kind,
    candidates: &dyn Fn(&EffectContext) -> Bits,
    act: &mut dyn FnMut(&mut EffectContext, Square) -> bool,
) -> bool {
    let mut done = false;
    if st.all {
        for sq in board::bits(candidates(ctx)) {
            done |= act(ctx, sq);
        }
        return done;
    }
    let (n, optional) = how_many(st);
    for _ in 0..n {
        let Some(sq) = ctx.choose_square(kind, candidates(ctx), optional, st.prompt) else {
            break;
        };
        done |= act(ctx, sq);
    }
    done
}

fn destroy(ctx: &mut EffectContext, st: &Step, counts: bool) -> bool {
    repeat(
        ctx,
        st,
        Kind::Destroy,
        &|c| squares(c, st) & c.state().occupied(),
        &mut |c, sq| c.destroy(sq, counts).is_some(),
    )
}

fn can_upgrade(ctx: &EffectContext, sq: Square) -> bool {
    match ctx.piece_at(sq) {
        Some((_, 0)) => true,
        Some((owner, 1)) => ctx.state().can_have_piece(owner, LEGENDARY),
        _ => false,
    }
}

/// Whether the piece on `sq` may be downgraded: a heroic, or a legendary one whose owner has a token.
pub(super) fn can_downgrade(ctx: &EffectContext, sq: Square) -> bool {
    match ctx.piece_at(sq) {
        Some((_, 1)) => true,
        Some((owner, 2)) => ctx.state().tokens[owner] > 0,
        _ => false,
    }
}

fn filtered(ctx: &EffectContext, m: Bits, keep: fn(&EffectContext, Square) -> bool) -> Bits {
    board::bits(m)
        .filter(|&sq| keep(ctx, sq))
        .fold(0, |m, sq| m | bit(sq))
}

/// Upgrades of enemy pieces are made once per enemy colour in a melee ("one of each colour").
fn upgrade(ctx: &mut EffectContext, st: &Step) -> bool {
    let mut once = |ctx: &mut EffectContext| {
        repeat(
            ctx,
            st,
            Kind::Upgrade,
            &|c| filtered(c, squares(c, st) & c.state().occupied(), can_upgrade),
            &mut |c, sq| c.upgrade(sq),
        )
    };
    if st.owner == Owner::Enemy {
        ctx.for_each_enemy_colour(&mut once)
    } else {
        once(ctx)
    }
}

fn downgrade(ctx: &mut EffectContext, st: &Step) -> bool {
    repeat(
        ctx,
        st,
        Kind::Downgrade,
        &|c| filtered(c, squares(c, st) & c.state().occupied(), can_downgrade),
        &mut |c, sq| c.downgrade(sq),
    )
}

fn place(ctx: &mut EffectContext, st: &Step, rank: u8, enemy: bool) -> bool {
    if enemy && ctx.state().melee() {
        return place_enemy_colours(ctx, st, rank);
    }
    let player = if enemy {
        ctx.state().opponent(ctx.player)
    } else {
        ctx.player
    };
    repeat(
        ctx,
        st,
        Kind::Place,
        &|c| {
            if c.state().can_have_piece(player, rank) {
                squares(c, st) & c.state().empty()
            } else {
                0
            }
        },
        &mut |c, sq| c.place(sq, rank, Some(player)),
    )
}

/// Melee: enemy pieces placed one at a time, each in an opponent colour of the player's choice. Later
/// steps of the effect that name enemy pieces mean the colours placed ("of the same colour or colours");
/// when none could be placed they keep meaning every opponent.
fn place_enemy_colours(ctx: &mut EffectContext, st: &Step, rank: u8) -> bool {
    let (n, optional) = how_many(st);
    let mut placed: u8 = 0;
    for _ in 0..n {
        let empty = squares(ctx, st) & ctx.state().empty();
        let options: Vec<Opt> = ctx
            .opponents()
            .into_iter()
            .filter(|&q| ctx.state().can_have_piece(q, rank))
            .flat_map(|q| board::bits(empty).map(move |sq| Opt::SeatSquare(q as u8, sq)))
            .collect();
        let Some(Opt::SeatSquare(q, sq)) = ctx.choose(Kind::Place, options, optional, st.prompt)
        else {
            break;
        };
        ctx.place(sq, rank, Some(q as usize));
        placed |= 1 << q;
    }
    if placed != 0 {
        ctx.enemy_seats = placed;
    }
    placed != 0
}

fn convert(ctx: &mut EffectContext, st: &Step, to_common: bool) -> bool {
    let candidates = |c: &EffectContext| -> Bits {
        let s = c.state();
        let m = squares_owned(c, st, Owner::Enemy) & c.owner_mask(Owner::Enemy);
        if to_common {
            return if s.can_have_piece(c.player, COMMON) {
                m
            } else {
                0
            };
        }
        board::bits(m)
            .filter(|&sq| s.can_have_piece(c.player, s.piece_at(sq).expect("enemy piece").1))
            .fold(0, |m, sq| m | bit(sq))
    };
    repeat(ctx, st, Kind::Convert, &candidates, &mut |c, sq| {
        c.convert(sq, if to_common { Some(COMMON) } else { None })
    })
}

fn movers(ctx: &EffectContext, st: &Step, spec: &MoveSpec) -> Vec<Square> {
    if spec.piece_self {
        return ctx.self_sq.into_iter().collect();
    }
    board::bits(squares(ctx, st) & ctx.state().occupied()).collect()
}

fn destinations(
    ctx: &EffectContext,
    spec: &MoveSpec,
    src: Square,
    reach: Option<Reach>,
) -> Vec<Square> {
    let squares = reach.map(|r| match r {
        Reach::Any => board::ARENA,
        Reach::Within(n) => board::WITHIN[n as usize][src as usize],
        Reach::Exactly(0) => 0,
        Reach::Exactly(n) => {
            board::WITHIN[n as usize][src as usize] & !board::WITHIN[n as usize - 1][src as usize]
        }
    });
    ctx.move_targets(src, spec.kind, squares, spec.empty_only)
}

/// Move and leap steps (`reach` is Some for a leap).
pub fn moves(ctx: &mut EffectContext, st: &Step, spec: &MoveSpec, reach: Option<Reach>) -> bool {
    let (n, optional) = how_many(st);
    let same_piece = spec.same_piece || spec.piece_self;
    let kind = if reach.is_some() {
        Kind::Leap
    } else {
        Kind::Move
    };
    let mut fixed: Option<Square> = None;
    let mut done = false;
    for _ in 0..n {
        let srcs = match fixed {
            Some(f) => vec![f],
            None => movers(ctx, st, spec),
        };
        let mut options = Vec::new();
        for src in srcs {
            for dst in destinations(ctx, spec, src, reach) {
                options.push((src, dst));
            }
        }
        let Some((src, dst)) = ctx.choose_move(kind, &options, optional, st.prompt) else {
            break;
        };
        ctx.move_piece(src, dst);
        done = true;
        if same_piece {
            fixed = if spec.piece_self {
                ctx.self_sq
            } else {
                Some(dst)
            };
            if fixed.is_none() {
                break;
            }
        }
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effects::steps::parse_steps;
    use crate::effects::testing::{mv, name, position};
    use crate::state::Mode;

    /// `same_piece`: a step's later moves are made by the piece that made the first; without it, by any.
    #[test]
    fn same_piece_keeps_the_first_mover() {
        for (same, movers) in [(true, vec!["d4"]), (false, vec!["d4", "g3"])] {
            let (mut game, asked) = position(
                Mode::HighForm,
                ["imperial", "imperial"],
                "imperial/swordmaster",
                "d3=1c g3=1c",
                &[mv("d3", "d4"), Opt::None],
            );
            let step = serde_json::json!([{"do": "move", "piece": "any", "owner": "mine", "up_to": 2,
                                           "same_piece": same}]);
            let step = parse_steps(&step, &|_| None).expect("a step").remove(0);
            let mut ctx = EffectContext::new(&mut game, 0, "test", None, None);
            assert!(run_step(&mut ctx, &step));
            let asked = asked.borrow();
            let mut second: Vec<String> = asked[1]
                .1
                .iter()
                .filter_map(|o| match o {
                    Opt::Move(src, _) => Some(name(*src)),
                    _ => None,
                })
                .collect();
            second.sort();
            second.dedup();
            assert_eq!(second, movers, "same_piece = {same}");
        }
    }
}
