//! Effect functions of the sylvan cards that the step vocabulary cannot express.

use super::context::EffectContext;
use super::steps::{MoveKind, Step};
use super::Registry;
use crate::board::{self, bit, popcount, Bits, Square, ADJACENT, DIAGONAL_DIRECTIONS};
use crate::decisions::{Kind, Opt};
use crate::game::remove_first;
use crate::ranks::{COMMON, HEROIC, LEGENDARY};
use crate::record::Event;
use crate::state::GameState;

/// Add this module's functions to the registry.
pub fn register(table: &mut Registry) {
    table.push(("sylvan.forest_wardens", forest_wardens));
    table.push(("sylvan.naiad", naiad));
    table.push(("sylvan.kiskin_spirit", kiskin_spirit));
    table.push(("sylvan.centaur_spearman", centaur_spearman));
    table.push(("sylvan.centaur_chieftain", centaur_chieftain));
    table.push(("sylvan.forest_mystic", forest_mystic));
    table.push(("sylvan.kiskin_leafsplitter", kiskin_leafsplitter));
    table.push(("sylvan.kiskin_boughrunner", kiskin_boughrunner));
    table.push(("sylvan.tree_shepherd", tree_shepherd));
}

/// Offer the summoned being's moves of `kind` (optional); the (from, to) pair done, or None.
fn move_self(
    ctx: &mut EffectContext<'_, '_>,
    kind: MoveKind,
    prompt: &'static str,
) -> Option<(Square, Square)> {
    let src = ctx.self_sq?;
    let options: Vec<(Square, Square)> = ctx
        .move_targets(src, kind, None, false)
        .into_iter()
        .map(|dst| (src, dst))
        .collect();
    let choice = ctx.choose_move(Kind::Move, &options, true, prompt);
    if let Some((a, b)) = choice {
        ctx.move_piece(a, b);
    }
    choice
}

/// The pieces of `ranks`'s first rank of the opponents who have more pieces of `ranks` than `player`.
fn of_opponents_with_more(s: &GameState, player: usize, ranks: &[u8]) -> Bits {
    let mine = popcount(s.of_ranks(player, ranks));
    s.opponents(player)
        .filter(|&q| popcount(s.of_ranks(q, ranks)) > mine)
        .fold(0, |m, q| m | s.pieces[q][ranks[0] as usize])
}

/// Destroy a common of an opponent who has more commons; then a heroic of an opponent who has more
/// upgraded pieces (in a melee, each compared with the owner of the piece chosen).
fn forest_wardens(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let player = ctx.player;
    let mut done = false;
    let commons = of_opponents_with_more(ctx.state(), player, &[COMMON]);
    if commons != 0 {
        let sq = ctx
            .choose_square(
                Kind::Destroy,
                commons,
                false,
                "enemy common piece to destroy",
            )
            .expect("the enemy has a common piece");
        done = ctx.destroy(sq, true).is_some();
    }
    let heroic = of_opponents_with_more(ctx.state(), player, &[HEROIC, LEGENDARY]);
    if let Some(sq) = ctx.choose_square(
        Kind::Destroy,
        heroic,
        false,
        "enemy heroic piece to destroy",
    ) {
        done |= ctx.destroy(sq, true).is_some();
    }
    done
}

/// Up to two different pieces of yours next to the Naiad each do one standard move.
fn naiad(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let around = ADJACENT[ctx.origin.expect("the Naiad has a summoning square") as usize];
    let mut moved = 0; // the square of the piece that already moved
    let mut done = false;
    for _ in 0..2 {
        let sources = around & ctx.state().mine(ctx.player) & !moved;
        let options: Vec<(Square, Square)> = board::bits(sources)
            .flat_map(|src| {
                ctx.move_targets(src, MoveKind::Standard, None, false)
                    .into_iter()
                    .map(move |dst| (src, dst))
            })
            .collect();
        let Some((_, dst, _)) = ctx.optional_move(
            &options,
            "standard move with one of your pieces next to the Naiad",
        ) else {
            break;
        };
        moved = bit(dst);
        done = true;
    }
    done
}

/// Put a card of your discard pile on top of your deck (optional); if you do, or the pile is empty,
/// draw one extra card at the end of the turn.
fn kiskin_spirit(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let p = ctx.player;
    let pile: Vec<Opt> = ctx.state().discarded[p]
        .iter()
        .map(|&c| Opt::Being(c))
        .collect();
    if !pile.is_empty() {
        let choice = ctx.choose(
            Kind::Card,
            pile,
            true,
            "card of your discard pile to put on top of your deck",
        );
        let Some(Opt::Being(card)) = choice else {
            return false;
        };
        let s = ctx.state_mut();
        remove_first(&mut s.discarded[p], card);
        s.deck[p].push(card);
        let event = Event::ToDeck {
            turn: s.turn,
            seat: p as i8,
            card: s.cards.being(card).id,
        };
        s.record.add(event);
    }
    ctx.state_mut().counters.extra_draws += 1;
    true
}

/// An optional combat move; then the next piece that way (the first met past any empty squares) is
/// destroyed unless it is legendary.
fn centaur_spearman(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some((src, dst)) = move_self(ctx, MoveKind::Combat, "combat move of the Centaur Spearman")
    else {
        return false;
    };
    let direction = board::direction_between(src, dst).expect("a move to an adjacent square");
    let occupied = ctx.state().occupied();
    if let Some(&sq) = board::ray(dst, direction)
        .iter()
        .find(|&&sq| occupied >> sq & 1 != 0)
    {
        if ctx.piece_at(sq).expect("an occupied square").1 != LEGENDARY {
            ctx.destroy(sq, true);
        }
    }
    true
}

/// The prompts of the Centaur Chieftain's followers, by direction (Python's f-string).
const FOLLOW_PROMPTS: [&str; 8] = [
    "combat move N with another piece of yours",
    "combat move NE with another piece of yours",
    "combat move E with another piece of yours",
    "combat move SE with another piece of yours",
    "combat move S with another piece of yours",
    "combat move SW with another piece of yours",
    "combat move W with another piece of yours",
    "combat move NW with another piece of yours",
];

/// An optional combat move; then up to three combat moves in that direction by your other pieces.
fn centaur_chieftain(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let Some((src, dst)) = move_self(
        ctx,
        MoveKind::Combat,
        "combat move of the Centaur Chieftain",
    ) else {
        return false;
    };
    let direction = board::direction_between(src, dst).expect("a move to an adjacent square");
    for _ in 0..3 {
        let mut others = ctx.state().mine(ctx.player);
        if let Some(me) = ctx.self_sq {
            others &= !bit(me);
        }
        let options: Vec<(Square, Square)> = board::bits(others)
            .filter_map(|s| {
                ctx.ray_targets(s, direction, MoveKind::Combat)
                    .map(|d| (s, d))
            })
            .collect();
        let prompt = FOLLOW_PROMPTS[direction as usize];
        let Some((a, b)) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
            break;
        };
        ctx.move_piece(a, b);
    }
    true
}

/// One extra card from your deck and one from the legend deck at the end of the turn.
fn forest_mystic(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let counters = &mut ctx.state_mut().counters;
    counters.extra_draws += 1;
    counters.extra_legend_draws += 1;
    true
}

/// The first piece met from `sq` in `direction`, if any.
fn first_piece(ctx: &EffectContext<'_, '_>, sq: Square, direction: u8) -> Option<Square> {
    let occupied = ctx.state().occupied();
    board::ray(sq, direction)
        .iter()
        .copied()
        .find(|&s| occupied >> s & 1 != 0)
}

/// Up to twice: pick a diagonal direction and destroy the first piece that way (any owner or rank).
fn kiskin_leafsplitter(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let mut done = false;
    for _ in 0..2 {
        let Some(here) = ctx.self_sq else {
            break;
        };
        let options: Vec<Opt> = DIAGONAL_DIRECTIONS
            .iter()
            .filter(|&&d| first_piece(ctx, here, d).is_some())
            .map(|&d| Opt::Direction(d))
            .collect();
        let Some(Opt::Direction(d)) = ctx.choose(
            Kind::Direction,
            options,
            true,
            "diagonal direction to shoot",
        ) else {
            break;
        };
        let target = first_piece(ctx, here, d).expect("a direction with a piece");
        ctx.destroy(target, true);
        done = true;
    }
    done
}

/// Up to three combat moves of the Boughrunner, each ending next to another piece of yours.
fn kiskin_boughrunner(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let mut moved = false;
    for _ in 0..3 {
        let options: Vec<(Square, Square)> = match ctx.self_sq {
            None => Vec::new(),
            Some(src) => {
                let others = ctx.state().mine(ctx.player) & !bit(src);
                ctx.move_targets(src, MoveKind::Combat, None, false)
                    .into_iter()
                    .filter(|&dst| ADJACENT[dst as usize] & others & !bit(dst) != 0)
                    .map(|dst| (src, dst))
                    .collect()
            }
        };
        if ctx
            .optional_move(&options, "combat move ending next to one of your pieces")
            .is_none()
        {
            break;
        }
        moved = true;
    }
    moved
}

/// Pick a piece of yours: a common is upgraded; a heroic may do a combat move, a legend a standard one.
/// Every piece of yours may be picked, even one that could then do nothing.
fn tree_shepherd(ctx: &mut EffectContext<'_, '_>, _step: &Step) -> bool {
    let mine = ctx.state().mine(ctx.player);
    let Some(sq) = ctx.choose_square(Kind::Piece, mine, false, "your piece for the Tree Shepherd")
    else {
        return false;
    };
    let rank = ctx.piece_at(sq).expect("your piece").1;
    if rank == COMMON {
        return ctx.upgrade(sq);
    }
    let (kind, prompt) = if rank == HEROIC {
        (MoveKind::Combat, "combat move of that piece")
    } else {
        (MoveKind::Standard, "standard move of that piece")
    };
    let options: Vec<(Square, Square)> = ctx
        .move_targets(sq, kind, None, false)
        .into_iter()
        .map(|dst| (sq, dst))
        .collect();
    let Some((a, b)) = ctx.choose_move(Kind::Move, &options, true, prompt) else {
        return false;
    };
    ctx.move_piece(a, b);
    true
}

#[cfg(test)]
mod tests {
    use crate::decisions::{Kind, Opt};
    use crate::effects::testing::{arena, mv, position, sq, sqs, summon, Asked};
    use crate::game::Game;
    use crate::state::Mode;

    const NE: u8 = 1;
    const SE: u8 = 3;
    const NW: u8 = 7;

    fn play(card: &str, pieces: &str, at: &str, answers: &[Opt]) -> (Game<'static>, Asked) {
        let (mut game, asked) = position(
            Mode::HighForm,
            ["sylvan", "imperial"],
            &format!("sylvan/{card}"),
            pieces,
            answers,
        );
        summon(&mut game, at, 0);
        (game, asked)
    }

    fn options(asked: &Asked, i: usize) -> Vec<Opt> {
        asked.borrow()[i].1.clone()
    }

    #[test]
    fn forest_wardens_destroy_a_common_and_a_heroic() {
        let pieces = "c5=1c f5=1c a5=2c b7=2c h3=2c h4=2c g7=2h";
        let (game, asked) = play("forest-wardens", pieces, "e5", &sqs(&["b7"]));
        assert_eq!(options(&asked, 0), sqs(&["h3", "h4", "a5", "b7"])); // mandatory: no None
        assert_eq!(asked.borrow().len(), 1); // the only heroic goes without asking
        assert_eq!(arena(&game), "h3=2c h4=2c a5=2c c5=1c e5=1c f5=1c");
        assert_eq!(game.state.counters.destroyed, [1, 1, 0]);
    }

    #[test]
    fn forest_wardens_count_themselves_and_spare_legends() {
        let pieces = "c5=1c f5=1c a5=2c b7=2c h3=2c g7=2l";
        let (game, asked) = play("forest-wardens", pieces, "e5", &[]);
        assert!(asked.borrow().is_empty());
        assert_eq!(game.state.counters.destroyed, [0, 0, 0]);
    }

    #[test]
    fn naiad_moves_two_different_pieces_next_to_it() {
        let pieces = "c6=1c d6=1c e6=1c f4=1h g3=2c e7=2c";
        let (game, asked) = play("naiad", pieces, "e5", &[mv("d6", "d5"), mv("f4", "g3")]);
        let first = options(&asked, 0);
        assert_eq!(first.last(), Some(&Opt::None));
        assert!(!first.contains(&mv("e6", "e7")) && first.contains(&mv("f4", "g3")));
        assert!(options(&asked, 1)
            .iter()
            .all(|o| !matches!(o, Opt::Move(a, _) if *a == sq("d5"))));
        assert_eq!(arena(&game), "g3=1h d5=1c e5=1c c6=1c e6=1c e7=2c");
        assert_eq!(game.state.counters.destroyed, [1, 0, 0]);
    }

    fn spirit(discarded: &[&str], answers: &[Opt]) -> (Game<'static>, Asked) {
        let (mut game, asked) = position(
            Mode::HighForm,
            ["sylvan", "imperial"],
            "sylvan/kiskin-spirit",
            "c5=1c c6=1c e6=1c",
            answers,
        );
        let cards = game.state.cards.clone();
        for id in discarded {
            let card = cards.being_by_id(id).unwrap();
            crate::game::remove_first(&mut game.state.deck[0], card);
            game.state.discarded[0].push(card);
        }
        summon(&mut game, "e5", 0);
        (game, asked)
    }

    fn being(game: &Game, id: &str) -> crate::cards::BeingId {
        game.state.cards.being_by_id(id).unwrap()
    }

    #[test]
    fn kiskin_spirit_puts_a_discarded_card_on_top_and_draws_one_more() {
        let naiad = Opt::Being(game_cards().being_by_id("sylvan/naiad").unwrap());
        let (game, asked) = spirit(&["sylvan/sapling", "sylvan/naiad"], &[naiad]);
        let (sapling, spirit) = (
            being(&game, "sylvan/sapling"),
            being(&game, "sylvan/kiskin-spirit"),
        );
        assert_eq!(options(&asked, 0), [Opt::Being(sapling), naiad, Opt::None]);
        assert_eq!(asked.borrow()[0].0, Kind::Card);
        let s = &game.state;
        assert_eq!(s.deck[0].last().map(|&c| Opt::Being(c)), Some(naiad));
        assert_eq!(s.discarded[0], [sapling, spirit]);
        assert_eq!(s.counters.extra_draws, 1);
        assert!(s.record.events.iter().any(|e| matches!(
            e,
            crate::record::Event::ToDeck {
                card: "sylvan/naiad",
                seat: 0,
                turn: 1
            }
        )));
    }

    #[test]
    fn kiskin_spirit_declined_draws_nothing_extra() {
        let (game, _) = spirit(&["sylvan/sapling"], &[Opt::None]);
        assert_eq!(game.state.counters.extra_draws, 0);
        assert_eq!(game.state.discarded[0].len(), 2);
    }

    #[test]
    fn kiskin_spirit_with_an_empty_discard_pile_draws_one_more() {
        let (game, asked) = spirit(&[], &[]);
        assert!(asked.borrow().is_empty());
        assert_eq!(game.state.counters.extra_draws, 1);
    }

    fn game_cards() -> std::sync::Arc<crate::cards::CardSet> {
        position(
            Mode::HighForm,
            ["sylvan", "imperial"],
            "sylvan/sapling",
            "",
            &[],
        )
        .0
        .state
        .cards
    }

    const SPEARMAN: &str = "d5=1c e5=1c f5=1c f6=1c";

    #[test]
    fn centaur_spearman_moves_and_spears_the_next_piece() {
        let pieces = format!("{SPEARMAN} d2=2h c3=2h");
        let (game, asked) = play("centaur-spearman", &pieces, "d4", &[mv("d4", "d3")]);
        let first = options(&asked, 0);
        assert!(first.contains(&mv("d4", "c3")) && first.contains(&Opt::None));
        assert_eq!(arena(&game), "c3=2h d3=1h d5=1c e5=1c f5=1c f6=1c");
        assert_eq!(game.state.counters.destroyed, [0, 1, 0]);
    }

    #[test]
    fn centaur_spearman_spears_past_empty_squares_but_spares_legends() {
        let pieces = format!("{SPEARMAN} e2=2c g1=2h");
        let (game, _) = play("centaur-spearman", &pieces, "d4", &[mv("d4", "e3")]);
        assert_eq!(arena(&game), "e2=2c e3=1h d5=1c e5=1c f5=1c f6=1c");
        let pieces = format!("{SPEARMAN} d2=2l d1=2c");
        let (game, _) = play("centaur-spearman", &pieces, "d4", &[mv("d4", "d3")]);
        assert_eq!(game.state.counters.destroyed, [0, 0, 0]);
        assert!(arena(&game).starts_with("d1=2c d2=2l d3=1h"));
    }

    #[test]
    fn centaur_spearman_spears_your_own_piece_without_scoring() {
        let pieces = format!("{SPEARMAN} c3=2c b2=1h");
        let (game, _) = play("centaur-spearman", &pieces, "d4", &[mv("d4", "c3")]);
        assert_eq!(arena(&game), "c3=1h d5=1c e5=1c f5=1c f6=1c");
        assert_eq!(game.state.counters.destroyed, [1, 0, 0]);
    }

    const CHIEFTAIN: &str = "c4=1c d5=1c e6=1c f7=1c c3=2c d4=2h";

    #[test]
    fn centaur_chieftain_leads_a_charge_in_one_direction() {
        let answers = [
            mv("e5", "e4"),
            mv("c4", "c3"),
            mv("e6", "e5"),
            mv("f7", "f6"),
        ];
        let (game, asked) = play("centaur-chieftain", CHIEFTAIN, "e5", &answers);
        assert_eq!(
            options(&asked, 1),
            [mv("c4", "c3"), mv("e6", "e5"), mv("f7", "f6"), Opt::None]
        );
        assert_eq!(arena(&game), "c3=1c d4=2h e4=1h d5=1c e5=1c f6=1c");
        assert_eq!(game.state.counters.destroyed, [1, 0, 0]);
    }

    #[test]
    fn centaur_chieftain_followers_may_repeat_or_stop() {
        let answers = [mv("e5", "e4"), mv("c4", "c3"), mv("c3", "c2"), Opt::None];
        let (game, asked) = play("centaur-chieftain", CHIEFTAIN, "e5", &answers);
        assert!(arena(&game).starts_with("c2=1c"));
        assert_eq!(asked.borrow().len(), 4);
    }

    #[test]
    fn forest_mystic_draws_a_being_and_a_legend_more() {
        let (game, asked) = play("forest-mystic", "e4=1c d5=1c f6=1c", "e5", &[]);
        assert!(asked.borrow().is_empty());
        let c = &game.state.counters;
        assert_eq!((c.extra_draws, c.extra_legend_draws), (1, 1));
    }

    const LEAFSPLITTER: &str = "e4=1c d5=1c f5=1c e6=1c g3=2l f6=1c c3=2c b2=2h";

    #[test]
    fn kiskin_leafsplitter_shoots_the_same_diagonal_twice() {
        let nw = Opt::Direction(NW);
        let (game, asked) = play("kiskin-leafsplitter", LEAFSPLITTER, "e5", &[nw, nw]);
        assert_eq!(
            options(&asked, 0),
            [Opt::Direction(NE), Opt::Direction(SE), nw, Opt::None]
        );
        assert_eq!(asked.borrow()[0].0, Kind::Direction);
        assert_eq!(game.state.counters.destroyed, [1, 1, 0]);
        let (game, _) = play(
            "kiskin-leafsplitter",
            LEAFSPLITTER,
            "e5",
            &[Opt::Direction(NE), Opt::Direction(SE)],
        );
        assert_eq!(game.state.counters.destroyed, [0, 0, 1]);
        assert!(!arena(&game).contains("f6="));
    }

    #[test]
    fn kiskin_leafsplitter_without_diagonal_targets_asks_nothing() {
        let (_, asked) = play(
            "kiskin-leafsplitter",
            "e4=1c d5=1c f5=1c e6=1c e2=2c",
            "e5",
            &[],
        );
        assert!(asked.borrow().is_empty());
    }

    #[test]
    fn kiskin_boughrunner_moves_stay_next_to_your_pieces() {
        let pieces = "d5=1c e5=1c f5=1c e6=1c c5=2h a3=2l";
        let answers = [mv("e4", "d4"), mv("d4", "c4"), mv("c4", "c5")];
        let (game, asked) = play("kiskin-boughrunner", pieces, "e4", &answers);
        let first = options(&asked, 0);
        assert!(first.contains(&mv("e4", "d4")) && first.contains(&mv("e4", "f4")));
        assert!(!first.contains(&mv("e4", "e3")) && !first.contains(&mv("e4", "d3")));
        assert!(!options(&asked, 2).contains(&mv("c4", "b4")));
        assert!(arena(&game).contains("c5=1h"));
        assert_eq!(game.state.counters.destroyed, [0, 1, 0]);
    }

    const SHEPHERD: &str = "d5=1c f5=1c e6=1c f6=1c b5=1l e4=2h b4=2l c4=2h";

    #[test]
    fn tree_shepherd_upgrades_a_common_or_moves_an_upgraded_piece() {
        let (game, asked) = play("tree-shepherd", SHEPHERD, "e5", &sqs(&["d5"]));
        assert_eq!(
            options(&asked, 0),
            sqs(&["b5", "d5", "e5", "f5", "e6", "f6"])
        );
        assert_eq!(asked.borrow()[0].0, Kind::Piece);
        assert!(arena(&game).contains("d5=1h"));
        let answers = [Opt::Square(sq("e5")), mv("e5", "e4")];
        let (game, _) = play("tree-shepherd", SHEPHERD, "e5", &answers);
        assert_eq!(game.state.counters.destroyed, [0, 1, 0]);
        let answers = [Opt::Square(sq("b5")), mv("b5", "c4")];
        let (game, asked) = play("tree-shepherd", SHEPHERD, "e5", &answers);
        assert!(!options(&asked, 1).contains(&mv("b5", "b4"))); // standard: not onto an equal rank
        assert!(arena(&game).contains("c4=1l"));
    }
}
