//! Effect functions of the imperial cards that the step vocabulary cannot express.

use super::context::EffectContext;
use super::steps::{MoveKind, Owner, Step};
use super::Registry;
use crate::board::{self, bit, Square};
use crate::decisions::{Kind, Opt};
use crate::ranks::{COMMON, HEROIC, LEGENDARY};

/// Add this module's functions to the registry.
pub fn register(table: &mut Registry) {
    table.push(("imperial.messenger", messenger));
    table.push(("imperial.chronicler", chronicler));
    table.push(("imperial.step_onto_marked", step_onto_marked));
    table.push(("imperial.hypnotist", hypnotist));
    table.push(("imperial.cannon", cannon));
    table.push(("imperial.gun_tower", gun_tower));
    table.push(("imperial.champion", champion));
    table.push(("imperial.cavalry_captain", cavalry_captain));
    table.push(("imperial.knight", knight));
    table.push(("imperial.master_of_intrigue", master_of_intrigue));
}

/// How many squares the piece on `src` goes by successive moves in `direction` before it meets one it
/// may not enter (the squares are the first ones of `board::ray(src, direction)`).
fn path_len(ctx: &EffectContext, src: Square, direction: u8, kind: MoveKind) -> usize {
    board::ray(src, direction)
        .iter()
        .take_while(|&&sq| ctx.can_enter(src, sq, kind))
        .count()
}

/// The card's arrows: the directions from the summoning square to each marked square on the arena.
fn indicated_directions(ctx: &EffectContext) -> Vec<u8> {
    let origin = ctx.origin.expect("a being's effect");
    let placement = ctx.placement.as_ref().expect("a being's effect");
    placement
        .marked_squares
        .iter()
        .flatten()
        .map(|&m| board::direction_between(origin, m).expect("marked squares next to the being"))
        .collect()
}

/// One of your non-legendary pieces goes any number of standard moves in one direction. One decision picks
/// the piece, the direction and how far (the last square reached).
fn messenger(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut options = Vec::new();
    let mut paths = Vec::new(); // (direction, number of squares) of each option
    for src in board::bits(ctx.state().of_ranks(ctx.player, &[COMMON, HEROIC])) {
        for d in 0..8 {
            for i in 0..path_len(ctx, src, d, MoveKind::Standard) {
                options.push((src, board::ray(src, d)[i]));
                paths.push((d, i + 1));
            }
        }
    }
    let prompt = "piece, direction and last square of its standard moves";
    let Some(choice) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
        return false;
    };
    let (d, n) = paths[options
        .iter()
        .position(|&o| o == choice)
        .expect("a listed move")];
    let mut cur = choice.0;
    for &sq in &board::ray(choice.0, d)[..n] {
        ctx.move_piece(cur, sq);
        cur = sq;
    }
    true
}

/// Upgrade one of your other common pieces; that piece may then make a standard move.
fn chronicler(ctx: &mut EffectContext, _step: &Step) -> bool {
    let origin = ctx.origin.expect("a being's effect");
    let targets = ctx.state().pieces[ctx.player][COMMON as usize] & !bit(origin);
    let Some(sq) = ctx.choose_square(
        Kind::Upgrade,
        targets,
        false,
        "your common piece to upgrade",
    ) else {
        return false;
    };
    ctx.upgrade(sq);
    let moves: Vec<_> = ctx
        .move_targets(sq, MoveKind::Standard, None, false)
        .into_iter()
        .map(|d| (sq, d))
        .collect();
    if let Some((src, dst)) = ctx.choose_move(
        Kind::Move,
        &moves,
        true,
        "standard move with the upgraded piece",
    ) {
        ctx.move_piece(src, dst);
    }
    true
}

/// The being may move onto its (single, adjacent) marked square when that square is empty.
fn step_onto_marked(ctx: &mut EffectContext, _step: &Step) -> bool {
    let targets = ctx.marked_squares() & ctx.state().empty();
    let Some(me) = ctx.self_sq else { return false };
    if targets == 0 {
        return false;
    }
    let options: Vec<_> = board::bits(targets).map(|dst| (me, dst)).collect();
    let Some((src, dst)) =
        ctx.choose_move(Kind::Move, &options, true, "move onto the marked square")
    else {
        return false;
    };
    ctx.move_piece(src, dst);
    true
}

/// One combat move with each of up to 3 enemy common or up to 2 enemy heroic pieces, all of one enemy
/// colour. The first move's piece fixes the rank and the colour; each piece moves at most once.
fn hypnotist(ctx: &mut EffectContext, _step: &Step) -> bool {
    let enemy = ctx.enemy_pieces();
    let mut unmoved = enemy[COMMON as usize] | enemy[HEROIC as usize];
    let mut rank: Option<u8> = None;
    let mut done = 0;
    while rank.is_none_or(|r| done < if r == COMMON { 3 } else { 2 }) {
        let mut options = Vec::new();
        for src in board::bits(unmoved) {
            for dst in ctx.move_targets(src, MoveKind::Combat, None, false) {
                options.push((src, dst));
            }
        }
        let Some((src, dst)) = ctx.choose_move(
            Kind::Move,
            &options,
            true,
            "combat move with an enemy piece",
        ) else {
            break;
        };
        let (owner, moved_rank) = ctx.piece_at(src).expect("an enemy piece");
        let r = *rank.get_or_insert(moved_rank);
        ctx.move_piece(src, dst);
        done += 1;
        unmoved &= ctx.state().pieces[owner][r as usize] & !bit(src) & !bit(dst);
    }
    done > 0
}

/// Every common piece from the being to the edge of the arena in `direction`.
fn commons_in_line(ctx: &EffectContext, direction: u8) -> Vec<Square> {
    let commons = ctx.rank_mask(&[COMMON], Owner::Any);
    let origin = ctx.origin.expect("a being's effect");
    board::ray(origin, direction)
        .iter()
        .copied()
        .filter(|&sq| commons >> sq & 1 != 0)
        .collect()
}

/// The first two pieces in `direction`; a legendary piece stops the shot before it.
fn first_two_pieces(ctx: &EffectContext, direction: u8) -> Vec<Square> {
    let mut out = Vec::new();
    for &sq in board::ray(ctx.origin.expect("a being's effect"), direction) {
        let Some((_, rank)) = ctx.piece_at(sq) else {
            continue;
        };
        if rank == LEGENDARY {
            break;
        }
        out.push(sq);
        if out.len() == 2 {
            break;
        }
    }
    out
}

/// Offer the indicated directions where `shot` hits something; destroy its hits in the chosen one.
fn fire(ctx: &mut EffectContext, shot: fn(&EffectContext, u8) -> Vec<Square>) -> bool {
    let shots: Vec<(u8, Vec<Square>)> = indicated_directions(ctx)
        .into_iter()
        .map(|d| (d, shot(ctx, d)))
        .collect();
    let options = shots
        .iter()
        .filter(|(_, hit)| !hit.is_empty())
        .map(|&(d, _)| Opt::Direction(d))
        .collect();
    let Some(Opt::Direction(d)) = ctx.choose(Kind::Direction, options, true, "direction to shoot")
    else {
        return false;
    };
    let (_, hits) = shots
        .into_iter()
        .find(|(dir, _)| *dir == d)
        .expect("a listed direction");
    for sq in hits {
        ctx.destroy(sq, true);
    }
    true
}

/// Destroy every common piece in one of the indicated directions.
fn cannon(ctx: &mut EffectContext, _step: &Step) -> bool {
    fire(ctx, commons_in_line)
}

/// Destroy the first two pieces in one of the indicated directions; a legendary piece stops the shot.
fn gun_tower(ctx: &mut EffectContext, _step: &Step) -> bool {
    fire(ctx, first_two_pieces)
}

/// May destroy an adjacent enemy piece; a legendary one costs the Champion its life for an action.
fn champion(ctx: &mut EffectContext, _step: &Step) -> bool {
    let Some(me) = ctx.self_sq else { return false };
    let targets = board::ADJACENT[me as usize] & ctx.owner_mask(Owner::Enemy);
    let Some(sq) = ctx.choose_square(
        Kind::Destroy,
        targets,
        true,
        "adjacent enemy piece to destroy",
    ) else {
        return false;
    };
    if let Some((_, LEGENDARY)) = ctx.destroy(sq, true) {
        ctx.destroy(me, true);
        ctx.gain_actions(1);
    }
    true
}

/// One of your other pieces makes up to 1 combat and up to 2 standard moves, in any order. The first move
/// picks the piece. A move that a standard move allows uses up a standard move while one is left: that
/// keeps every later move open, so the engine need not ask which kind it was.
fn cavalry_captain(ctx: &mut EffectContext, _step: &Step) -> bool {
    let (mut standard_left, mut combat_left) = (2, 1);
    let mut sources: Vec<Square> = board::bits(ctx.state().mine(ctx.player))
        .filter(|&sq| Some(sq) != ctx.self_sq)
        .collect();
    let mut done = false;
    while standard_left > 0 || combat_left > 0 {
        let kind = if combat_left > 0 {
            MoveKind::Combat
        } else {
            MoveKind::Standard
        };
        let mut options = Vec::new();
        for &src in &sources {
            for dst in ctx.move_targets(src, kind, None, false) {
                options.push((src, dst));
            }
        }
        let Some((src, dst)) =
            ctx.choose_move(Kind::Move, &options, true, "move with the chosen piece")
        else {
            break;
        };
        if standard_left > 0 && ctx.can_enter(src, dst, MoveKind::Standard) {
            standard_left -= 1;
        } else {
            combat_left -= 1;
        }
        ctx.move_piece(src, dst);
        sources = vec![dst];
        done = true;
    }
    done
}

/// Up to 3 combat moves with the Knight, never onto a common piece.
fn knight(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut moved = false;
    for _ in 0..3 {
        let options: Vec<_> = match ctx.self_sq {
            None => Vec::new(),
            Some(src) => {
                let commons = ctx.rank_mask(&[COMMON], Owner::Any);
                ctx.move_targets(src, MoveKind::Combat, None, false)
                    .into_iter()
                    .filter(|&dst| commons >> dst & 1 == 0)
                    .map(|dst| (src, dst))
                    .collect()
            }
        };
        if ctx
            .optional_move(&options, "combat move with the Knight")
            .is_none()
        {
            break;
        }
        moved = true;
    }
    moved
}

/// Up to 3 moves: standard ones with the being, combat ones with its non-legendary pattern pieces.
fn master_of_intrigue(ctx: &mut EffectContext, _step: &Step) -> bool {
    let mut done = false;
    for _ in 0..3 {
        let mut options = Vec::new();
        if let Some(me) = ctx.self_sq {
            options.extend(
                ctx.move_targets(me, MoveKind::Standard, None, false)
                    .into_iter()
                    .map(|d| (me, d)),
            );
        }
        for &src in &ctx.pattern_sqs {
            if ctx.piece_at(src).expect("a pattern piece").1 != LEGENDARY {
                options.extend(
                    ctx.move_targets(src, MoveKind::Combat, None, false)
                        .into_iter()
                        .map(|d| (src, d)),
                );
            }
        }
        let prompt = "his standard move or a pattern piece's combat move";
        let Some((src, dst)) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
            break;
        };
        ctx.move_piece(src, dst);
        done = true;
    }
    done
}

/// A custom effect run on a hand-made position, for the unit tests of this module and `highland`. The
/// expected outcomes in the tests were printed by the Python engine for the same positions and answers.
#[cfg(test)]
pub(super) mod scene {
    use crate::decisions::Opt;
    use crate::effects::context::EffectContext;
    use crate::effects::steps::Op;
    use crate::effects::testing::{arena, mv, name, position, sq};
    use crate::state::Mode;

    /// An option as the tests write it: "N" (pass), "e4" (square), "e5-e4" (move), "D2" (direction).
    fn option(text: &str) -> Opt {
        match text.split_once('-') {
            _ if text == "N" => Opt::None,
            Some((a, b)) => mv(a, b),
            None if text.starts_with('D') => {
                Opt::Direction(text[1..].parse().expect("a direction"))
            }
            None => Opt::Square(sq(text)),
        }
    }

    fn option_name(o: &Opt) -> String {
        match *o {
            Opt::None => "N".into(),
            Opt::Square(s) => name(s),
            Opt::Move(a, b) => format!("{}-{}", name(a), name(b)),
            Opt::Direction(d) => format!("D{d}"),
            other => format!("{other:?}"),
        }
    }

    /// What the effect did: its return value, the actions left, the pieces on the arena ("e5=1h", players
    /// from 1, lowest square first) and the decisions asked ("kind[options]" joined by " | ").
    #[derive(Debug, PartialEq)]
    pub struct Outcome {
        pub did: bool,
        pub actions: i32,
        pub arena: String,
        pub asked: String,
    }

    /// The custom step of `card`'s effect run for player 1 as if summoned on `origin` with
    /// `orientation`, with `pieces` on the arena ("e5=1h d4=2c", the being's own piece included), `actions`
    /// actions left, and player 1 answering `answers` (space-separated, as `option` reads them).
    pub fn run(
        card: &str,
        origin: &str,
        orientation: u8,
        pieces: &str,
        answers: &str,
        actions: i32,
    ) -> Outcome {
        let deck = card.split('/').next().expect("deck/name");
        let answers: Vec<Opt> = answers.split_whitespace().map(option).collect();
        let (mut game, asked) = position(Mode::HighForm, [deck, deck], card, pieces, &answers);
        game.state.actions_left = actions;
        let cards = std::sync::Arc::clone(&game.state.cards);
        let id = cards.being_by_id(card).expect("a being");
        let being = cards.being(id);
        let placement = being
            .placements
            .iter()
            .find(|p| p.origin == sq(origin) && p.orientation == orientation)
            .expect("a placement")
            .clone();
        let (step, f) = being
            .effect
            .iter()
            .find_map(|st| match st.op {
                Op::Custom { f, .. } => Some((st, f)),
                _ => None,
            })
            .expect("a custom step");
        let mut ctx = EffectContext::new(&mut game, 0, being.id, Some(id), Some(placement));
        let did = f(&mut ctx, step);
        let asked: Vec<String> = asked
            .borrow()
            .iter()
            .map(|(kind, options)| {
                let names: Vec<String> = options.iter().map(option_name).collect();
                format!("{}[{}]", kind.as_str(), names.join(" "))
            })
            .collect();
        Outcome {
            did,
            actions: game.state.actions_left,
            arena: arena(&game),
            asked: asked.join(" | "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::scene::{run, Outcome};

    /// A legendary victim costs the Champion its life for an action.
    #[test]
    fn champion_legendary_victim() {
        let got = run(
            "imperial/champion",
            "e5",
            0,
            "e5=1h d5=1c d6=1c e6=1c e7=1c f4=2l f5=2h",
            "f4",
            2,
        );
        let want = Outcome {
            did: true,
            actions: 3,
            arena: "d5=1c f5=2h d6=1c e6=1c e7=1c".into(),
            asked: "destroy[f4 f5 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// A heroic victim costs nothing.
    #[test]
    fn champion_heroic_victim() {
        let got = run(
            "imperial/champion",
            "e5",
            0,
            "e5=1h d5=1c d6=1c e6=1c e7=1c f4=2l f5=2h",
            "f5",
            2,
        );
        let want = Outcome {
            did: true,
            actions: 2,
            arena: "f4=2l d5=1c e5=1h d6=1c e6=1c e7=1c".into(),
            asked: "destroy[f4 f5 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// A legendary piece stops the shot after the first piece; every direction with a hit is offered.
    #[test]
    fn gun_tower_stopped_by_legend() {
        let got = run(
            "imperial/gun-tower",
            "e5",
            0,
            "e5=1h e6=1c f6=1c e7=1c f7=1c c5=2c b5=2l a5=2c f5=2c h5=1h i5=2c",
            "D6",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "a5=2c b5=2l e5=1h f5=2c h5=1h i5=2c e6=1c f6=1c e7=1c f7=1c".into(),
            asked: "direction[D6 D2 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// A legend right next to the tower leaves that direction out; the other shot takes the first two pieces.
    #[test]
    fn gun_tower_two_pieces() {
        let got = run(
            "imperial/gun-tower",
            "e5",
            0,
            "e5=1h e6=1c f6=1c e7=1c f7=1c d5=2l c5=2c f5=2c h5=1h i5=2c",
            "D2",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "c5=2c d5=2l e5=1h i5=2c e6=1c f6=1c e7=1c f7=1c".into(),
            asked: "direction[D2 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// Every common piece on the chosen line, of either player; heroic ones stay.
    #[test]
    fn cannon_commons_in_line() {
        let got = run(
            "imperial/cannon",
            "e5",
            0,
            "e5=1h d5=1c c6=1c g5=2c h5=2h i5=1c e3=2c e1=2c",
            "D2",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "e1=2c e3=2c d5=1c e5=1h h5=2h c6=1c".into(),
            asked: "direction[D0 D2 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// Up to three combat moves, never onto a common piece.
    /// Declining the first move: the effect reports that it did nothing (a later `if = "previous"` step
    /// reads this).
    #[test]
    fn knight_no_move_did_nothing() {
        let got = run(
            "imperial/knight",
            "e5",
            0,
            "e5=1h d6=1c e6=1c f6=1c d7=1c d4=2h",
            "N",
            1,
        );
        assert!(!got.did);
        assert_eq!(got.arena, "d4=2h e5=1h d6=1c e6=1c f6=1c d7=1c");
    }

    #[test]
    fn knight_three_moves() {
        let got = run(
            "imperial/knight",
            "e5",
            0,
            "e5=1h d6=1c e6=1c f6=1c d7=1c d4=2h e4=2c d5=2l f4=2h c3=2c",
            "e5-d4 d4-d3 d3-c4",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "c3=2c c4=1h e4=2c f4=2h d5=2l d6=1c e6=1c f6=1c d7=1c".into(),
            asked: "move[e5-d4 e5-f4 e5-f5 N] | move[d4-d3 d4-e3 d4-c4 d4-c5 d4-e5 N] | move[d3-c2 d3-d2 d3-e2 d3-e3 d3-c4 d3-d4 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// A heroic first move allows one more move, with another heroic enemy piece.
    #[test]
    fn hypnotist_heroic_rank() {
        let got = run(
            "imperial/hypnotist",
            "e5",
            0,
            "e5=1h f4=1c d5=1c f5=1c d6=1c c3=2h g7=2h b8=2c h3=2c",
            "c3-d4 g7-g6",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "h3=2c d4=2h f4=1c d5=1c e5=1h f5=1c d6=1c g6=2h b8=2c".into(),
            asked: "move[c3-b2 c3-c2 c3-d2 c3-b3 c3-d3 c3-b4 c3-c4 c3-d4 h3-g2 h3-h2 h3-g3 h3-i3 h3-g4 h3-h4 h3-i4 g7-f6 g7-g6 g7-h6 g7-f7 g7-h7 g7-f8 g7-g8 g7-h8 b8-a7 b8-b7 b8-c7 b8-c8 b8-c9 N] | move[g7-f6 g7-g6 g7-h6 g7-f7 g7-h7 g7-f8 g7-g8 g7-h8 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// The combat move first, then two standard moves with the same piece.
    #[test]
    fn cavalry_captain_combat_then_standard() {
        let got = run(
            "imperial/cavalry-captain",
            "e5",
            0,
            "e5=1h d6=1c f6=1c d7=1c f7=1c c3=1h c2=2h d3=2c",
            "c3-c2 c2-d3 d3-d4",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "d4=1h e5=1h d6=1c f6=1c d7=1c f7=1c".into(),
            asked: "move[c3-b2 c3-c2 c3-d2 c3-b3 c3-d3 c3-b4 c3-c4 c3-d4 d6-c5 d6-d5 d6-c6 d6-e6 d6-c7 d6-d7 d6-e7 f6-f5 f6-g5 f6-e6 f6-g6 f6-e7 f6-f7 f6-g7 d7-c6 d7-d6 d7-e6 d7-c7 d7-e7 d7-c8 d7-d8 d7-e8 f7-e6 f7-f6 f7-g6 f7-e7 f7-g7 f7-e8 f7-f8 f7-g8 N] | move[c2-c1 c2-d1 c2-b2 c2-d2 c2-b3 c2-c3 c2-d3 N] | move[d3-c2 d3-d2 d3-e2 d3-c3 d3-e3 d3-c4 d3-d4 d3-e4 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// A heroic pattern piece takes the Master itself: his standard moves leave the options, the piece stays a pattern piece.
    #[test]
    fn master_of_intrigue_taken_by_own_piece() {
        let got = run(
            "imperial/master-of-intrigue",
            "e5",
            0,
            "e5=1h d4=1h f4=1c d6=1c f6=1l",
            "d4-e5 e5-e4 N",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "e4=1h f4=1c d6=1c f6=1l".into(),
            asked: "move[e5-e4 e5-f4 e5-d5 e5-f5 e5-d6 e5-e6 d4-c3 d4-d3 d4-e3 d4-c4 d4-e4 d4-c5 d4-d5 d4-e5 f4-e3 f4-f3 f4-g3 f4-e4 f4-g4 f4-f5 f4-g5 d6-c5 d6-d5 d6-c6 d6-e6 d6-c7 d6-d7 d6-e7 N] | move[e5-d4 e5-e4 e5-f4 e5-d5 e5-f5 e5-d6 e5-e6 f4-e3 f4-f3 f4-g3 f4-e4 f4-g4 f4-f5 f4-g5 d6-c5 d6-d5 d6-c6 d6-e6 d6-c7 d6-d7 d6-e7 N] | move[e4-d3 e4-e3 e4-f3 e4-d4 e4-f4 e4-d5 e4-e5 e4-f5 f4-e3 f4-f3 f4-g3 f4-g4 f4-e5 f4-f5 f4-g5 d6-c5 d6-d5 d6-e5 d6-c6 d6-e6 d6-c7 d6-d7 d6-e7 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// One decision picks the piece and its last square; the piece goes through lower pieces, destroying them.
    #[test]
    fn messenger_runs_through_lower_pieces() {
        let got = run(
            "imperial/messenger",
            "c7",
            0,
            "c7=1c d8=1c e9=1c b3=1h c3=2c e3=1c f3=2h",
            "b3-e3",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "e3=1h f3=2h c7=1c d8=1c e9=1c".into(),
            asked: "move[b3-b2 b3-c2 b3-d1 b3-c3 b3-d3 b3-e3 b3-c4 b3-d5 b3-e6 b3-f7 b3-g8 b3-b4 b3-b5 b3-b6 b3-b7 b3-b8 b3-a4 b3-a3 e3-e2 e3-e1 e3-f2 e3-g1 e3-f4 e3-g5 e3-h6 e3-i7 e3-e4 e3-e5 e3-e6 e3-e7 e3-e8 e3-d4 e3-c5 e3-b6 e3-a7 e3-d3 e3-d2 e3-c1 c7-c6 c7-c5 c7-c4 c7-d6 c7-e5 c7-f4 c7-g3 c7-h2 c7-d7 c7-e7 c7-f7 c7-g7 c7-h7 c7-i7 c7-c8 c7-c9 c7-b8 c7-b7 c7-a7 c7-b6 c7-a5 d8-d7 d8-d6 d8-d5 d8-d4 d8-d3 d8-d2 d8-d1 d8-e7 d8-f6 d8-g5 d8-h4 d8-i3 d8-e8 d8-f8 d8-g8 d8-h8 d8-d9 d8-c9 d8-c8 d8-b8 e9-e8 e9-e7 e9-e6 e9-e5 e9-e4 e9-f8 e9-g7 e9-h6 e9-i5 e9-f9 e9-g9 e9-d9 e9-c9 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// Another common piece (not the Chronicler) is upgraded, then moves.
    #[test]
    fn chronicler_upgrade_then_move() {
        let got = run(
            "imperial/chronicler",
            "e5",
            0,
            "e5=1c e4=1c d5=1c f5=1c d6=2c",
            "d5 d5-d6",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "e4=1c e5=1c f5=1c d6=1h".into(),
            asked: "upgrade[e4 d5 f5] | move[d5-c4 d5-d4 d5-e4 d5-c5 d5-e5 d5-c6 d5-d6 d5-e6 N]"
                .into(),
        };
        assert_eq!(got, want);
    }

    /// The Assassin may step onto its empty marked square.
    #[test]
    fn assassin_steps_onto_marked() {
        let got = run(
            "imperial/assassin",
            "e5",
            0,
            "e5=1h d2=1c c3=1c b4=1c",
            "e5-d4",
            1,
        );
        let want = Outcome {
            did: true,
            actions: 1,
            arena: "d2=1c c3=1c b4=1c d4=1h".into(),
            asked: "move[e5-d4 N]".into(),
        };
        assert_eq!(got, want);
    }

    /// An occupied marked square offers nothing.
    #[test]
    fn assassin_marked_occupied() {
        let got = run(
            "imperial/assassin",
            "e5",
            0,
            "e5=1h d2=1c c3=1c b4=1c d4=2c",
            "",
            1,
        );
        let want = Outcome {
            did: false,
            actions: 1,
            arena: "d2=1c c3=1c b4=1c d4=2c e5=1h".into(),
            asked: "".into(),
        };
        assert_eq!(got, want);
    }

    /// The Bomb blows up unless it is summoned with the turn's last action (`if = "not_last_action"`):
    /// with an action left it takes itself and every common piece around it, of both players.
    #[test]
    fn bomb_explodes_unless_last_action() {
        use crate::effects::testing::{arena, position, summon};
        use crate::state::Mode;

        let pieces = "f6=1c f7=1c d4=2c e4=2c d5=2h d6=1c";
        let decks = ["imperial", "imperial"];
        let (mut game, asked) = position(Mode::HighForm, decks, "imperial/bomb", pieces, &[]);
        game.state.actions_left = 2;
        summon(&mut game, "e5", 0);
        assert_eq!(arena(&game), "d5=2h f7=1c");
        assert_eq!(game.state.counters.destroyed, [2, 0, 0]);
        assert!(asked.borrow().is_empty());

        let (mut game, _) = position(Mode::HighForm, decks, "imperial/bomb", pieces, &[]);
        game.state.actions_left = 1;
        summon(&mut game, "e5", 0);
        assert_eq!(arena(&game), "d4=2c e4=2c d5=2h e5=1c d6=1c f6=1c f7=1c");
        assert_eq!(game.state.counters.destroyed, [0, 0, 0]);
    }
}
