//! Effect functions of the legends cards that the step vocabulary cannot express.

use super::context::EffectContext;
use super::interpreter::can_downgrade;
use super::steps::{MoveKind, Step};
use super::Registry;
use crate::board::{self, bit, Bits, Square, ADJACENT, ARENA, DIRECTIONS, GREEN, RED, WITHIN};
use crate::decisions::{Kind, Opt};
use crate::patterns::transform;
use crate::ranks::{COMMON, HEROIC, LEGENDARY, RANK_NAMES};

const C: usize = COMMON as usize;
const H: usize = HEROIC as usize;
const L: usize = LEGENDARY as usize;

/// Storm Elemental: most moves by the placed piece's rank (common, heroic, legendary).
const STORM_MOVES: [u32; 3] = [5, 3, 1];

/// Add this module's functions to the registry.
pub fn register(table: &mut Registry) {
    table.push(("legends.fire_dragon", fire_dragon));
    table.push(("legends.hell_bull", hell_bull));
    table.push(("legends.angel_of_death", angel_of_death));
    table.push(("legends.eldest_tree", eldest_tree));
    table.push(("legends.bone_catapult", bone_catapult));
    table.push(("legends.fire_elemental", fire_elemental));
    table.push(("legends.leviathan", leviathan));
    table.push(("legends.two_headed_dragon", two_headed_dragon));
    table.push(("legends.earth_elemental_move", earth_elemental_move));
    table.push(("legends.time_elemental", time_elemental));
    table.push(("legends.storm_elemental", storm_elemental));
}

/// The directions the card's marked squares indicate (each marked square is adjacent to the being),
/// turned with the pattern, in the card's order of marked squares.
fn marked_directions(ctx: &EffectContext<'_, '_>) -> Vec<u8> {
    let orientation = ctx
        .placement
        .as_ref()
        .expect("a summoned being")
        .orientation;
    let being = ctx.being.expect("a summoned being");
    ctx.state()
        .cards
        .being(being)
        .pattern
        .marked
        .iter()
        .map(|&(dx, dy)| {
            let step = transform(dx, dy, orientation);
            DIRECTIONS
                .iter()
                .position(|&d| d == step)
                .expect("a marked square next to the being") as u8
        })
        .collect()
}

/// Optional combat moves with the piece on `src` in one direction, up to `most` (None: any number).
/// The first decision picks the first move, which fixes the direction; each later move is asked as that
/// move or stop. Returns the square where the piece ends.
fn line_moves(
    ctx: &mut EffectContext<'_, '_>,
    mut src: Square,
    most: Option<u32>,
    stop_on_legendary: bool,
) -> Square {
    let mut options: Vec<(Square, Square)> = (0..8)
        .filter_map(|d| {
            ctx.ray_targets(src, d, MoveKind::Combat)
                .map(|dst| (src, dst))
        })
        .collect();
    let mut direction = None;
    let mut done = 0;
    while !options.is_empty() && most.is_none_or(|m| done < m) {
        let Some((from, to)) = ctx.choose_move(Kind::Move, &options, true, "") else {
            break;
        };
        let d = *direction.get_or_insert_with(|| {
            board::direction_between(from, to).expect("a move to an adjacent square")
        });
        let destroyed = ctx.move_piece(from, to);
        src = to;
        done += 1;
        if stop_on_legendary && destroyed.is_some_and(|p| p.1 == LEGENDARY) {
            break;
        }
        options = ctx
            .ray_targets(src, d, MoveKind::Combat)
            .map(|next| vec![(src, next)])
            .unwrap_or_default();
    }
    src
}

/// Choose an indicated direction; destroy the non-legendary pieces at distance 1-2 in it and in the two
/// directions at 45 degrees. Every indicated direction is offered, also one with nothing to destroy.
fn fire_dragon(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(origin) = ctx.self_sq else {
        return false;
    };
    let options = marked_directions(ctx)
        .into_iter()
        .map(Opt::Direction)
        .collect();
    let Some(Opt::Direction(d)) = ctx.choose(Kind::Direction, options, false, "") else {
        return false;
    };
    let fan: Vec<Square> = [d + 7, d, d + 1]
        .iter()
        .flat_map(|&fd| board::ray(origin, fd % 8).iter().take(2).copied())
        .collect();
    for sq in fan {
        if ctx.piece_at(sq).is_some_and(|p| p.1 != LEGENDARY) {
            ctx.destroy(sq, true);
        }
    }
    true
}

/// Any number of combat moves in one direction with the Hell Bull; taking a legendary piece stops it.
fn hell_bull(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(start) = ctx.self_sq else {
        return false;
    };
    line_moves(ctx, start, None, true) != start
}

/// May pick any other piece: upgrade it (if the stock allows), then combat-leap the Angel onto it.
fn angel_of_death(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(angel) = ctx.self_sq else {
        return false;
    };
    // The Angel is legendary, so a combat leap may enter any square: every other piece is a target.
    let options: Vec<(Square, Square)> = board::bits(ctx.state().occupied() & !bit(angel))
        .map(|sq| (angel, sq))
        .collect();
    let Some((_, target)) =
        ctx.choose_move(Kind::Leap, &options, true, "piece to upgrade and take")
    else {
        return false;
    };
    ctx.upgrade(target);
    ctx.move_piece(angel, target);
    true
}

/// On up to 3 different adjacent squares: destroy an enemy non-legendary piece, upgrade your common
/// piece, or place your common piece on an empty square.
fn eldest_tree(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    if ctx.self_sq.is_none() {
        return false;
    }
    let mut used: Bits = 0;
    let mut done = false;
    for _ in 0..3 {
        let here = ctx.self_sq.expect("the Eldest Tree stays where it is");
        let s = ctx.state();
        let adjacent = ADJACENT[here as usize] & !used;
        let (enemy, mine) = (ctx.enemy_pieces(), s.pieces[ctx.player]);
        let mut options = adjacent & (enemy[C] | enemy[H] | mine[C]);
        if s.tokens[ctx.player] > 0 {
            options |= adjacent & s.empty();
        }
        let Some(sq) = ctx.choose_square(Kind::Square, options, true, "") else {
            break;
        };
        used |= bit(sq);
        match ctx.piece_at(sq) {
            None => {
                ctx.place(sq, COMMON, None);
            }
            Some((owner, _)) if owner == ctx.player => {
                ctx.upgrade(sq);
            }
            Some(_) => {
                ctx.destroy(sq, true);
            }
        }
        done = true;
    }
    done
}

/// May pick any piece on a line in an indicated direction (not blocked): destroy it and the commons
/// adjacent to it.
fn bone_catapult(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(origin) = ctx.self_sq else {
        return false;
    };
    let occupied = ctx.state().occupied();
    let line = board::mask_of(
        marked_directions(ctx)
            .into_iter()
            .flat_map(|d| board::ray(origin, d).iter().copied()),
    );
    let Some(target) = ctx.choose_square(Kind::Destroy, line & occupied, true, "") else {
        return false;
    };
    ctx.destroy(target, true);
    let s = ctx.state();
    let commons = s.all_pieces()[C];
    for sq in board::bits(ADJACENT[target as usize] & commons) {
        ctx.destroy(sq, true);
    }
    true
}

/// Destroy every non-legendary enemy piece adjacent, or every common enemy piece within distance 2. Both
/// branches are always offered, even one that destroys nothing (the project's ruling for "A or B").
fn fire_elemental(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(here) = ctx.self_sq else {
        return false;
    };
    let enemy = ctx.enemy_pieces();
    let sets = [
        ("adjacent", ADJACENT[here as usize] & (enemy[C] | enemy[H])),
        ("commons within 2", WITHIN[2][here as usize] & enemy[C]),
    ];
    let options = sets.iter().map(|&(label, _)| Opt::Label(label)).collect();
    let Some(Opt::Label(label)) = ctx.choose(Kind::Branch, options, false, "") else {
        unreachable!("two branches to choose from");
    };
    let (_, chosen) = *sets.iter().find(|(l, _)| *l == label).expect("a label");
    for sq in board::bits(chosen) {
        ctx.destroy(sq, true);
    }
    chosen != 0
}

/// Downgrade a connected group of up to 3 upgraded pieces, or destroy one of up to 4 common pieces (any
/// colours). The group is chosen piece by piece, each new piece adjacent to one already chosen.
fn leviathan(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let options = vec![Opt::Label("downgrade"), Opt::Label("destroy")];
    // both choices, even one that would find no piece
    let Some(Opt::Label(label)) = ctx.choose(Kind::Branch, options, false, "") else {
        return false;
    };
    let downgrade = label == "downgrade";
    let (most, prompt) = if downgrade {
        (3, "piece to downgrade")
    } else {
        (4, "piece to destroy")
    };
    let mut chosen: Bits = 0;
    for _ in 0..most {
        let reach = if chosen == 0 {
            ARENA
        } else {
            board::bits(chosen).fold(0, |m, sq| m | ADJACENT[sq as usize])
        };
        let all = ctx.state().all_pieces();
        let candidates = if downgrade {
            board::mask_of(board::bits(all[H] | all[L]).filter(|&sq| can_downgrade(ctx, sq)))
        } else {
            all[C]
        };
        let Some(sq) = ctx.choose_square(Kind::Square, candidates & reach & !chosen, true, prompt)
        else {
            break;
        };
        chosen |= bit(sq);
        if downgrade {
            ctx.downgrade(sq);
        } else {
            ctx.destroy(sq, true);
        }
    }
    chosen != 0
}

/// May upgrade one of the pieces used to summon it; then may destroy a heroic piece next to that one.
fn two_headed_dragon(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let s = ctx.state();
    let mut upgradable: Vec<Square> = ctx
        .pattern_sqs
        .iter()
        .copied()
        .filter(|&sq| match s.piece_at(sq) {
            Some((owner, rank)) => {
                rank == COMMON || (rank == HEROIC && s.can_have_piece(owner, LEGENDARY))
            }
            None => false,
        })
        .collect();
    upgradable.sort_unstable();
    let options = upgradable.into_iter().map(Opt::Square).collect();
    let Some(Opt::Square(sq)) = ctx.choose(Kind::Upgrade, options, true, "") else {
        return false;
    };
    ctx.upgrade(sq);
    let heroic = ctx.state().all_pieces()[H];
    if let Some(target) = ctx.choose_square(Kind::Destroy, ADJACENT[sq as usize] & heroic, true, "")
    {
        ctx.destroy(target, true);
    }
    true
}

/// The Earth Elemental may do one combat move onto an adjacent red or green square.
fn earth_elemental_move(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(here) = ctx.self_sq else {
        return false;
    };
    let coloured = ADJACENT[here as usize] & (RED | GREEN);
    let options: Vec<(Square, Square)> = ctx
        .move_targets(here, MoveKind::Combat, Some(coloured), false)
        .into_iter()
        .map(|dst| (here, dst))
        .collect();
    let Some((a, b)) = ctx.choose_move(Kind::Move, &options, true, "") else {
        return false;
    };
    ctx.move_piece(a, b);
    true
}

/// The player takes another turn after this one (the engine plays it even in the final round).
fn time_elemental(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    ctx.state_mut().counters.extra_turn = true;
    true
}

/// May place a piece of any rank in stock within distance 3; it does up to 5/3/1 combat moves (common/
/// heroic/legendary) in one direction, then is destroyed.
fn storm_elemental(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some(here) = ctx.self_sq else {
        return false;
    };
    let s = ctx.state();
    let squares = WITHIN[3][here as usize] & s.empty();
    let ranks: Vec<Opt> = [COMMON, HEROIC, LEGENDARY]
        .into_iter()
        .filter(|&r| s.can_have_piece(ctx.player, r))
        .map(|r| Opt::Label(RANK_NAMES[r as usize]))
        .collect();
    if squares == 0 {
        return false;
    }
    let Some(Opt::Label(label)) =
        ctx.choose(Kind::Branch, ranks, true, "rank of the piece to place")
    else {
        return false;
    };
    let rank = RANK_NAMES
        .iter()
        .position(|&n| n == label)
        .expect("a rank name") as u8;
    let sq = ctx
        .choose_square(Kind::Place, squares, false, "")
        .expect("an empty square");
    ctx.place(sq, rank, None);
    let end = line_moves(ctx, sq, Some(STORM_MOVES[rank as usize]), false);
    ctx.destroy(end, true);
    true
}

#[cfg(test)]
mod tests {
    use crate::board::{self, bit, WITHIN};
    use crate::decisions::{Kind, Opt};
    use crate::effects::testing::{
        arena, has, mv, name, pattern_at, position, sq, sqs, summon, Asked,
    };
    use crate::game::Game;
    use crate::state::Mode;

    /// Player 1 summons the legend `card` at `at` (orientation 0) over its pattern plus `pieces`
    /// (which may replace pattern pieces).
    fn play(card: &str, at: &str, pieces: &str, answers: &[Opt]) -> (Game<'static>, Asked) {
        let (mut game, asked) = setup(card, at, pieces, answers);
        summon(&mut game, at, 0);
        (game, asked)
    }

    fn setup(card: &str, at: &str, pieces: &str, answers: &[Opt]) -> (Game<'static>, Asked) {
        let card = format!("legend/{card}");
        let extra: Vec<&str> = pieces.split_whitespace().collect();
        let squares: Vec<&str> = extra.iter().map(|p| &p[..2]).collect();
        let pattern = pattern_at(&card, at);
        let all: Vec<&str> = pattern
            .split_whitespace()
            .filter(|p| !squares.contains(&&p[..2]))
            .chain(extra.iter().copied())
            .collect();
        position(
            Mode::HighForm,
            ["sylvan", "imperial"],
            &card,
            &all.join(" "),
            answers,
        )
    }

    /// Player `p`'s stock set to `n` tokens (as a scenario's `stock P: tokens=N`).
    fn set_tokens(game: &mut Game, p: usize, n: i32) {
        let s = &mut game.state;
        s.token_total[p] += n - s.tokens[p];
        s.tokens[p] = n;
    }

    /// Player `p`'s stock set to `n` legendary pieces (as a scenario's `stock P: legends=N`).
    fn set_legends(game: &mut Game, p: usize, n: i32) {
        let s = &mut game.state;
        s.legend_total[p] += n - s.legend_stock[p];
        s.legend_stock[p] = n;
    }

    fn options(asked: &Asked, i: usize) -> Vec<Opt> {
        asked.borrow()[i].1.clone()
    }

    fn directions(ds: &[u8]) -> Vec<Opt> {
        ds.iter().map(|&d| Opt::Direction(d)).collect()
    }

    const DRAGON_FAN: &str = "e6=2c e7=2h f6=2l d6=1c c3=2c";

    #[test]
    fn fire_dragon_destroys_the_fan_of_the_chosen_direction_but_not_legends() {
        let (game, asked) = play("fire-dragon", "e5", DRAGON_FAN, &[Opt::Direction(4)]);
        assert_eq!(asked.borrow()[0].0, Kind::Direction);
        let mut offered = options(&asked, 0);
        offered.sort_by_key(|o| match o {
            Opt::Direction(d) => *d,
            _ => 99,
        });
        assert_eq!(offered, directions(&[2, 3, 4, 5, 6]));
        assert!(!has(&game, "e6") && !has(&game, "e7") && !has(&game, "d6"));
        assert!(has(&game, "f6") && has(&game, "c3"));
        assert_eq!(game.state.counters.destroyed, [1, 1, 0]);
    }

    #[test]
    fn fire_dragon_reaches_distance_two_only_and_may_burn_nothing() {
        let (game, _) = play(
            "fire-dragon",
            "e5",
            "e7=2c e8=2c f7=2c",
            &[Opt::Direction(4)],
        );
        assert!(!has(&game, "e7") && has(&game, "e8") && has(&game, "f7"));
        let (game, _) = play("fire-dragon", "e9", "d8=2c f9=2c", &[Opt::Direction(4)]);
        assert!(has(&game, "d8") && has(&game, "f9"));
    }

    const BULL_LINE: &str = "e4=2c e3=2h e2=2l e1=2c";

    #[test]
    fn hell_bull_charges_and_stops_after_a_legend() {
        let answers = [mv("e5", "e4"), mv("e4", "e3"), mv("e3", "e2")];
        let (game, asked) = play("hell-bull", "e5", BULL_LINE, &answers);
        let first = options(&asked, 0);
        assert_eq!(first.len(), 9); // every direction, own pieces included, and stop
        assert_eq!(options(&asked, 1), [mv("e4", "e3"), Opt::None]);
        assert_eq!(asked.borrow().len(), 3);
        assert!(arena(&game).starts_with("e1=2c e2=1l"));
        assert_eq!(game.state.counters.destroyed, [1, 1, 1]);
    }

    #[test]
    fn hell_bull_runs_to_the_edge_or_stays() {
        let answers = [
            mv("e5", "f5"),
            mv("f5", "g5"),
            mv("g5", "h5"),
            mv("h5", "i5"),
        ];
        let (game, asked) = play("hell-bull", "e5", "", &answers);
        assert_eq!(asked.borrow().len(), 4);
        assert!(arena(&game).contains("i5=1l"));
        let (game, _) = play("hell-bull", "e5", BULL_LINE, &[Opt::None]);
        assert!(arena(&game).contains("e5=1l"));
    }

    #[test]
    fn angel_of_death_upgrades_then_takes() {
        let (game, asked) = play("angel-of-death", "e5", "e8=2h h5=2c", &[mv("e5", "e8")]);
        assert_eq!(asked.borrow()[0].0, Kind::Leap);
        let dsts: Vec<Opt> = options(&asked, 0)
            .iter()
            .map(|o| match o {
                Opt::Move(_, d) => Opt::Square(*d),
                o => *o,
            })
            .collect();
        let mut expected = sqs(&["d4", "f4", "c5", "g5", "h5", "e6", "e8"]);
        expected.sort_by_key(|o| match o {
            Opt::Square(s) => *s,
            _ => 255,
        });
        expected.push(Opt::None);
        assert_eq!(dsts, expected);
        assert!(arena(&game).contains("e8=1l") && !has(&game, "e5"));
        assert_eq!(game.state.counters.destroyed, [0, 0, 1]);
        assert_eq!(game.state.legend_stock[1], 3);
    }

    #[test]
    fn angel_of_death_without_enemy_legend_stock_takes_the_heroic() {
        let (mut game, _) = setup("angel-of-death", "e5", "e8=2h", &[mv("e5", "e8")]);
        set_legends(&mut game, 1, 0);
        summon(&mut game, "e5", 0);
        assert_eq!(game.state.counters.destroyed, [0, 1, 0]);
    }

    const TREE_AROUND: &str = "d4=2c e4=2h f6=2l d5=1c";

    #[test]
    fn eldest_tree_acts_on_three_different_adjacent_squares() {
        let (game, asked) = play(
            "the-eldest-tree",
            "e5",
            TREE_AROUND,
            &sqs(&["d4", "d5", "f5"]),
        );
        let mut first = sqs(&["d4", "e4", "d5", "f5", "e6"]);
        first.push(Opt::None);
        assert_eq!(options(&asked, 0), first);
        assert!(!options(&asked, 1).contains(&Opt::Square(sq("d4"))));
        assert_eq!(asked.borrow().len(), 3);
        assert!(!has(&game, "d4"));
        assert!(arena(&game).contains("d5=1h") && arena(&game).contains("f5=1c"));
        assert_eq!(game.state.counters.destroyed, [1, 0, 0]);
    }

    #[test]
    fn eldest_tree_places_nothing_without_tokens() {
        let answers = [Opt::Square(sq("d4")), Opt::None];
        let (mut game, asked) = setup("the-eldest-tree", "e5", TREE_AROUND, &answers);
        set_tokens(&mut game, 0, 0);
        summon(&mut game, "e5", 0);
        let mut first = sqs(&["d4", "e4", "d5"]);
        first.push(Opt::None);
        assert_eq!(options(&asked, 0), first);
        assert_eq!(options(&asked, 1), [first[1], first[2], Opt::None]);
    }

    #[test]
    fn bone_catapult_shoots_over_pieces_and_destroys_commons_around_the_target() {
        let pieces = "e3=1c e2=2h e1=2c d2=1c f3=2h e7=2c h5=2l";
        let (game, asked) = play("bone-catapult", "e5", pieces, &sqs(&["e2"]));
        let mut first = sqs(&["e1", "e2", "e3", "h5"]);
        first.push(Opt::None);
        assert_eq!(options(&asked, 0), first);
        for gone in ["e1", "e2", "e3", "d2"] {
            assert!(!has(&game, gone), "{gone}");
        }
        assert!(has(&game, "f3") && has(&game, "e7"));
        assert_eq!(game.state.counters.destroyed, [1, 1, 0]);
    }

    #[test]
    fn bone_catapult_with_nothing_in_line_asks_nothing() {
        let (_, asked) = play("bone-catapult", "e5", "e7=2c c3=2c", &[]);
        assert!(asked.borrow().is_empty());
    }

    const FIRE_AROUND: &str = "e4=2h f5=2c g3=2c d4=2l d5=1c";

    #[test]
    fn fire_elemental_offers_both_choices() {
        let labels = [Opt::Label("adjacent"), Opt::Label("commons within 2")];
        let (game, asked) = play("fire-elemental", "e5", FIRE_AROUND, &labels[..1]);
        assert_eq!(options(&asked, 0), labels);
        assert!(!has(&game, "e4") && !has(&game, "f5") && has(&game, "g3") && has(&game, "d5"));
        assert_eq!(game.state.counters.destroyed, [1, 1, 0]);
        let (game, _) = play("fire-elemental", "e5", FIRE_AROUND, &labels[1..]);
        assert!(!has(&game, "f5") && !has(&game, "g3") && has(&game, "e4"));
        assert_eq!(game.state.counters.destroyed, [2, 0, 0]);
    }

    const LEVIATHAN_GROUP: &str = "g6=2h g7=2l h8=2h c9=2h";

    #[test]
    fn leviathan_downgrades_a_connected_group_of_three() {
        let mut answers = vec![Opt::Label("downgrade")];
        answers.extend(sqs(&["g6", "g7", "h8"]));
        let (game, asked) = play("leviathan", "g3", LEVIATHAN_GROUP, &answers);
        assert_eq!(
            options(&asked, 0),
            [Opt::Label("downgrade"), Opt::Label("destroy")]
        );
        assert!(options(&asked, 1).contains(&Opt::Square(sq("g3"))));
        assert_eq!(options(&asked, 2), [Opt::Square(sq("g7")), Opt::None]);
        assert_eq!(asked.borrow().len(), 4);
        let a = arena(&game);
        assert!(
            a.contains("g6=2c")
                && a.contains("g7=2h")
                && a.contains("h8=2c")
                && a.contains("c9=2h")
        );
        assert_eq!(game.state.legend_stock[1], 3);
    }

    #[test]
    fn leviathan_cannot_downgrade_a_legend_without_a_token() {
        let answers = [Opt::Label("downgrade"), Opt::Square(sq("g6"))];
        let (mut game, asked) = setup("leviathan", "g3", LEVIATHAN_GROUP, &answers);
        set_tokens(&mut game, 1, 0);
        summon(&mut game, "g3", 0);
        assert!(!options(&asked, 1).contains(&Opt::Square(sq("g7"))));
        assert_eq!(asked.borrow().len(), 2);
    }

    #[test]
    fn leviathan_destroys_a_connected_group_of_commons_of_any_colour() {
        let commons = "a5=2c b6=1c c7=2c b8=2c b4=2c h7=2c";
        let mut answers = vec![Opt::Label("destroy")];
        answers.extend(sqs(&["b6", "a5", "b4", "c7"]));
        let (game, asked) = play("leviathan", "g3", commons, &answers);
        assert!(!options(&asked, 2).contains(&Opt::Square(sq("h7"))));
        assert_eq!(asked.borrow().len(), 5);
        assert!(has(&game, "b8") && !has(&game, "c7"));
        assert_eq!(game.state.counters.destroyed, [3, 0, 0]);
    }

    #[test]
    fn two_headed_dragon_upgrades_a_pattern_piece_then_destroys_a_heroic_next_to_it() {
        let pieces = "e6=2h f5=2c h5=2c";
        let (game, asked) = play("two-headed-dragon", "c3", pieces, &sqs(&["e5", "e6"]));
        let mut first = sqs(&["e3", "d4", "c5", "e5", "f6"]);
        first.push(Opt::None);
        assert_eq!(options(&asked, 0), first);
        assert_eq!(asked.borrow()[0].0, Kind::Upgrade);
        assert_eq!(
            options(&asked, 1),
            [first[1], Opt::Square(sq("e6")), Opt::None]
        );
        assert!(arena(&game).contains("e5=1h") && !has(&game, "e6"));
        assert_eq!(game.state.counters.destroyed, [0, 1, 0]);
    }

    #[test]
    fn two_headed_dragon_cannot_upgrade_heroics_without_legend_stock() {
        let (mut game, asked) = setup("two-headed-dragon", "c3", "e6=2h", &[Opt::None]);
        set_legends(&mut game, 0, 1);
        summon(&mut game, "c3", 0);
        assert_eq!(
            options(&asked, 0),
            [Opt::Square(sq("e5")), Opt::Square(sq("f6")), Opt::None]
        );
        assert_eq!(asked.borrow().len(), 1);
    }

    #[test]
    fn earth_elemental_destroys_near_red_upgrades_near_green_and_steps() {
        let answers = [Opt::Square(sq("d2")), Opt::Square(sq("b3")), mv("d3", "c3")];
        let (game, asked) = play("earth-elemental", "d3", "d2=2h b3=2c h6=2l", &answers);
        assert_eq!(
            options(&asked, 2),
            [mv("d3", "d2"), mv("d3", "c3"), Opt::None]
        );
        assert!(arena(&game).contains("b3=2h") && arena(&game).contains("c3=1l"));
        assert!(!has(&game, "d2") && !has(&game, "d3"));
        assert_eq!(game.state.counters.destroyed, [0, 1, 0]);
    }

    #[test]
    fn time_elemental_gives_another_turn() {
        let (game, asked) = play("time-elemental", "e3", "", &[]);
        assert!(asked.borrow().is_empty() && game.state.counters.extra_turn);
    }

    const STORM_LINE: &str = "c6=2c d6=2c f6=2h g6=2c";

    #[test]
    fn storm_elemental_common_charges_until_blocked_then_vanishes() {
        let answers = [
            Opt::Label("common"),
            Opt::Square(sq("b6")),
            mv("b6", "c6"),
            mv("c6", "d6"),
            mv("d6", "e6"),
        ];
        let (game, asked) = play("storm-elemental", "e5", STORM_LINE, &answers);
        let ranks = ["common", "heroic", "legendary"].map(Opt::Label);
        assert_eq!(
            options(&asked, 0),
            [ranks[0], ranks[1], ranks[2], Opt::None]
        );
        let pattern = pattern_at("legend/storm-elemental", "e5");
        let taken: Vec<&str> = pattern
            .split_whitespace()
            .chain(STORM_LINE.split_whitespace())
            .map(|p| &p[..2])
            .collect();
        let free = board::bits(WITHIN[3][sq("e5") as usize])
            .filter(|&q| !taken.contains(&name(q).as_str()))
            .fold(0, |m, q| m | bit(q));
        let offered = options(&asked, 1).iter().fold(0, |m, o| match o {
            Opt::Square(q) => m | bit(*q),
            _ => panic!("a square"),
        });
        assert_eq!(offered, free);
        assert_eq!(asked.borrow().len(), 5);
        for gone in ["b6", "c6", "d6", "e6"] {
            assert!(!has(&game, gone), "{gone}");
        }
        assert!(has(&game, "f6"));
        assert_eq!(game.state.counters.destroyed, [2, 0, 0]);
        assert_eq!(game.state.tokens[0], 17 - 3);
    }

    #[test]
    fn storm_elemental_heroic_makes_at_most_three_moves() {
        let answers = [
            Opt::Label("heroic"),
            Opt::Square(sq("c6")),
            mv("c6", "d6"),
            mv("d6", "e6"),
            mv("e6", "f6"),
        ];
        let (game, asked) = play("storm-elemental", "e5", "d6=2c f6=2h", &answers);
        assert_eq!(asked.borrow().len(), 5);
        assert_eq!(game.state.counters.destroyed, [1, 1, 0]);
    }

    #[test]
    fn storm_elemental_offers_only_ranks_it_can_place() {
        let (mut game, asked) = setup("storm-elemental", "e5", "", &[Opt::None]);
        set_legends(&mut game, 0, 1);
        summon(&mut game, "e5", 0);
        assert_eq!(
            options(&asked, 0),
            [Opt::Label("common"), Opt::Label("heroic"), Opt::None]
        );
    }
}
