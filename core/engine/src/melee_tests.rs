//! Scenario tests of the Deathmatch melee (3-4 players): setup, turn order, per-colour scoring, legend
//! and flare points, improvised summoning, the end and the ranking, and card texts read colour by colour
//! (../shared/MULTIPLAYER.md, "Deathmatch melee"; the decisions in docs/rules-decisions.md).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::board::{self, bit};
use crate::cards::{CardSet, FlareId};
use crate::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use crate::effects::testing::{arena, being, pattern_at, placement, sq, table};
use crate::game::{one_enemy_cell, Game, GameOptions};
use crate::patterns::rank_or_better;
use crate::players::make_strategy;
use crate::record::Event;
use crate::state::Mode;

/// (seat, kind, options) of every decision a `FirstOption` table was asked.
type Log = Rc<RefCell<Vec<(usize, Kind, Vec<Opt>)>>>;

/// Takes the first option of every decision and logs it.
struct FirstOption(Log);

impl Strategy for FirstOption {
    fn name(&self) -> &str {
        "first-option"
    }
    fn choose(&mut self, _view: &PlayerView, d: &Decision) -> usize {
        self.0
            .borrow_mut()
            .push((d.player, d.kind, d.options.to_vec()));
        0
    }
}

fn cards() -> Arc<CardSet> {
    Arc::new(CardSet::from_json(include_str!("../tests/data/cards.json")).expect("card set"))
}

/// A melee of `decks` set up with `seed`, every seat taking the first option; the decisions asked.
fn set_up(decks: &[&str], seed: u64) -> (Game<'static>, Log) {
    let log: Log = Rc::default();
    let players = decks
        .iter()
        .map(|_| Box::new(FirstOption(Rc::clone(&log))) as Box<dyn Strategy>)
        .collect();
    let options = GameOptions {
        ask_all: true,
        strict: true,
        ..GameOptions::default()
    };
    let mut game = Game::table(cards(), Mode::Deathmatch, decks, players, seed, options).unwrap();
    game.setup();
    (game, log)
}

fn flare(game: &Game, id: &str) -> FlareId {
    game.state
        .cards
        .flares
        .iter()
        .find(|f| f.id == id)
        .expect("a flare")
        .index
}

/// `card`'s pattern at `at` (orientation 0) for seat 1, with the piece on `borrowed` given to `seat`.
fn pattern_with(card: &str, at: &str, borrowed: &str, seat: u8) -> String {
    pattern_at(card, at)
        .split_whitespace()
        .map(|t| {
            if t.starts_with(borrowed) {
                t.replacen("=1", &format!("={seat}"), 1)
            } else {
                t.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

// ----- setup and turn order

#[test]
fn three_players_start_with_15_tokens_and_three_pieces_of_every_colour_placed_by_the_last_player() {
    for seed in 0..6 {
        let (game, log) = set_up(&["imperial", "sylvan", "highland"], seed);
        let s = &game.state;
        let first = s.first_player;
        let placer = (first + 2) % 3;
        let starts: Vec<_> = log
            .borrow()
            .iter()
            .filter(|d| d.1 == Kind::MeleeStart)
            .cloned()
            .collect();
        assert_eq!(starts.len(), 3);
        assert!(starts.iter().all(|d| d.0 == placer));
        assert_eq!(
            starts.iter().map(|d| d.2.len()).collect::<Vec<_>>(),
            [6, 4, 2]
        );
        let on_board: Vec<usize> = (0..3).map(|p| s.mine(p).count_ones() as usize).collect();
        assert_eq!(on_board, [1, 1, 1]);
        for (pair, decision) in board::MELEE_START.iter().zip(&starts) {
            let squares = pair.iter().fold(0, |m, &q| m | bit(q));
            assert_eq!(
                s.occupied() & squares,
                bit(match decision.2[0] {
                    Opt::SeatSquare(_, q) => q,
                    _ => unreachable!(),
                })
            );
        }
        assert_eq!(s.token_total[..3], [15, 15, 15]);
        assert_eq!(s.legend_total[..3], [3, 3, 3]);
        assert_eq!(s.active, first);
        for p in 0..3 {
            assert_eq!(
                (
                    s.hand[p].len(),
                    s.legend_hand[p].len(),
                    s.flare_hand[p].len()
                ),
                (3, 2, 1)
            );
        }
    }
}

#[test]
fn four_players_have_14_tokens_and_the_second_players_colour_starts_off_the_board() {
    for seed in 0..6 {
        let (game, log) = set_up(&["imperial", "sylvan", "highland", "imperial"], seed);
        let s = &game.state;
        let (first, second) = (s.first_player, (s.first_player + 1) % 4);
        let placer = (first + 3) % 4;
        let starts: Vec<_> = log
            .borrow()
            .iter()
            .filter(|d| d.1 == Kind::MeleeStart)
            .cloned()
            .collect();
        assert!(starts.iter().all(|d| d.0 == placer));
        assert_eq!(
            starts.iter().map(|d| d.2.len()).collect::<Vec<_>>(),
            [6, 4, 2]
        );
        assert!(starts[0]
            .2
            .iter()
            .all(|o| !matches!(o, Opt::SeatSquare(c, _) if *c as usize == second)));
        for p in 0..4 {
            assert_eq!(s.mine(p).count_ones(), u32::from(p != second), "seat {p}");
        }
        assert_eq!(s.token_total, [14; 4]);
    }
}

#[test]
fn turns_go_clockwise_and_only_the_starting_players_first_turn_has_one_action() {
    let (mut game, _) = set_up(&["imperial", "sylvan", "highland", "imperial"], 3);
    let first = game.state.first_player;
    for i in 0..8 {
        assert_eq!(game.state.active, (first + i as usize) % 4);
        game.play_turn();
        let placed = game
            .state
            .record
            .events
            .iter()
            .filter(
                |e| matches!(e, Event::Place { turn, cause: "place-action", .. } if *turn == i + 1),
            )
            .count();
        assert_eq!(placed, if i == 0 { 1 } else { 2 }, "turn {}", i + 1);
    }
}

#[test]
fn a_melee_needs_deathmatch_and_two_to_four_players() {
    let players = |n: usize| {
        (0..n)
            .map(|i| make_strategy("random", i, 0).unwrap())
            .collect()
    };
    let high_form = Game::table(
        cards(),
        Mode::HighForm,
        &["imperial"; 3],
        players(3),
        0,
        GameOptions::default(),
    );
    assert!(high_form.err().unwrap().contains("Deathmatch melee"));
    let five = Game::table(
        cards(),
        Mode::Deathmatch,
        &["imperial"; 5],
        players(5),
        0,
        GameOptions::default(),
    );
    assert!(five.err().unwrap().contains("2 to 4 players"));
}

// ----- scoring per colour

/// Seat 0 (active) destroys the pieces of `pieces` (all of other seats); its points per colour after the
/// end of its turn, and the leftover decision's options.
fn score_destroying(seats: usize, pieces: &str, answers: &[Opt]) -> (Vec<i32>, Vec<Vec<Opt>>) {
    let decks = vec!["imperial"; seats];
    let (mut game, asked) = table(&decks, "imperial/swordmaster", pieces, &[answers]);
    game.state.active = 0;
    for token in pieces.split_whitespace() {
        game.state.destroy(sq(&token[..2]), "test", true);
    }
    game.end_turn(0);
    game.state.check_invariants().expect("invariants");
    let points = (0..seats).map(|c| game.state.colour_points[0][c]).collect();
    let leftover = asked[0]
        .borrow()
        .iter()
        .filter(|d| d.0 == Kind::LeftoverColour)
        .map(|d| d.1.clone())
        .collect();
    (points, leftover)
}

#[test]
fn destroyed_pieces_score_in_their_owners_colour() {
    let (points, leftover) = score_destroying(3, "a5=2l b5=2h c5=2c d5=2c e5=3c e6=3c e7=3h", &[]);
    assert_eq!(points, [0, 2 + 1 + 1, 1 + 1]);
    assert!(leftover.is_empty());
}

#[test]
fn unpaired_commons_of_two_colours_give_one_point_in_the_colour_chosen() {
    let (points, leftover) = score_destroying(3, "a5=2c e5=3c", &[Opt::Seat(2)]);
    assert_eq!(leftover, [vec![Opt::Seat(1), Opt::Seat(2)]]);
    assert_eq!(points, [0, 0, 1]);
}

#[test]
fn three_unpaired_commons_still_give_one_point() {
    let (points, leftover) = score_destroying(4, "a5=2c e5=3c g5=4c", &[Opt::Seat(3)]);
    assert_eq!(leftover, [vec![Opt::Seat(1), Opt::Seat(2), Opt::Seat(3)]]);
    assert_eq!(points, [0, 0, 0, 1]);
}

#[test]
fn one_unpaired_common_is_lost() {
    let (points, leftover) = score_destroying(3, "a5=2c b5=2c c5=2c e5=3h", &[]);
    assert!(leftover.is_empty());
    assert_eq!(points, [0, 1, 1]);
}

#[test]
fn own_pieces_score_nothing() {
    let (points, _) = score_destroying(3, "a5=1c b5=1c c5=1h", &[]);
    assert_eq!(points, [0, 0, 0]);
}

#[test]
fn the_final_score_is_the_lowest_colour_score() {
    let (mut game, _) = table(&["imperial"; 4], "imperial/swordmaster", "", &[]);
    game.state.colour_points[0] = [0, 2, 6, 9];
    game.state.colour_points[1] = [3, 0, 3, 3];
    assert_eq!((game.state.score(0), game.state.score(1)), (2, 3));
}

#[test]
fn a_legend_scores_one_point_in_the_opponent_colour_chosen_before_its_effect() {
    let card = "legend/the-eldest-tree";
    let pieces = format!("{} a5=2c", pattern_at(card, "e5"));
    let (mut game, asked) = table(
        &["imperial"; 3],
        card,
        &pieces,
        &[&[Opt::Seat(2), Opt::None]],
    );
    let legend = being(&game, card);
    let pl = placement(&game, legend, "e5");
    game.summon(0, legend, pl);
    let asked = asked[0].borrow();
    assert_eq!(
        asked[0],
        (Kind::LegendColour, vec![Opt::Seat(1), Opt::Seat(2)])
    );
    assert_eq!(game.state.colour_points[0][..3], [0, 0, 1]);
    game.state.check_invariants().expect("invariants");
}

#[test]
fn upgrading_to_legendary_gives_no_legend_point() {
    let (mut game, _) = table(&["imperial"; 3], "imperial/swordmaster", "e5=1h", &[]);
    game.state.upgrade(sq("e5"), "test");
    assert_eq!(game.state.colour_points[0], [0; 4]);
}

// ----- flares

#[test]
fn a_flare_is_compared_with_one_opponent_who_meets_a_criterion_and_scores_him_a_point_in_the_invokers_colour(
) {
    // flare/03: upper half 3 more upgraded pieces, lower half (an action) 5 more pieces.
    let pieces = "a5=2c b5=2c c5=2c d5=2c e5=2c f5=2c a7=3h b7=3h c7=3h";
    let (mut game, asked) = table(&["imperial"; 3], "imperial/swordmaster", pieces, &[&[]]);
    let f = flare(&game, "flare/03");
    game.state.flare_hand[0] = vec![f];
    assert_eq!(game.flare_opponents(0, f), [1, 2]);
    assert_eq!(game.flare_halves_against(0, 1, f), 2);
    assert_eq!(game.flare_halves_against(0, 2, f), 1);
    game.state.put(0, 1, sq("i5"));
    // One upgraded piece of seat 0 takes seat 2 below the upper threshold: only seat 1 is left.
    assert_eq!(game.flare_opponents(0, f), [1]);
    let actions = game.state.actions_left;
    game.invoke_flare(0);
    assert!(
        asked[0].borrow().is_empty(),
        "one opponent to choose: not asked"
    );
    assert_eq!(game.state.actions_left, actions + 1);
    assert_eq!(game.state.colour_points[1][0], 1);
    assert_eq!(game.state.colour_points[2], [0; 4]);
    let flare_event = game
        .state
        .record
        .events
        .iter()
        .rev()
        .find(|e| matches!(e, Event::Flare { .. }));
    assert!(matches!(
        flare_event,
        Some(Event::Flare {
            against: 1,
            upper: false,
            lower: true,
            ..
        })
    ));
}

#[test]
fn a_flare_with_several_eligible_opponents_asks_which_one() {
    let pieces = "a5=2c b5=2c c5=2c d5=2c e5=2c f5=2c a7=3h b7=3h c7=3h";
    let (mut game, asked) = table(
        &["imperial"; 3],
        "imperial/swordmaster",
        pieces,
        &[&[Opt::Seat(2)]],
    );
    game.state.flare_hand[0] = vec![flare(&game, "flare/03")];
    game.invoke_flare(0);
    let asked = asked[0].borrow();
    assert_eq!(
        asked[0],
        (Kind::FlareOpponent, vec![Opt::Seat(1), Opt::Seat(2)])
    );
    assert_eq!(game.state.colour_points[2][0], 1);
    assert_eq!(game.state.colour_points[1][0], 0);
}

// ----- improvised summoning

#[test]
fn improvising_borrows_one_enemy_piece_once_per_colour() {
    let card = "imperial/swordmaster";
    let pieces = pattern_with(card, "e5", "e6", 2);
    let (mut game, asked) = table(&["imperial"; 3], card, &pieces, &[]);
    let sw = being(&game, card);
    let pl = placement(&game, sw, "e5");
    assert!(!game.has_placement(0, sw));
    assert_eq!(game.improvised_placements(0, sw), [(pl, 1)]);
    assert!(game
        .action_options(0)
        .contains(&Opt::Action(Action::Summon(sw))));
    game.summon_improvised(0, sw, pl, 1);
    assert!(asked[0].borrow().is_empty());
    assert!(game.state.improvised[0][1] && !game.state.improvised[0][2]);
    assert_eq!(arena(&game), "e4=1c e5=1c e6=2c");
    assert!(game.state.record.events.iter().any(|e| matches!(
        e,
        Event::Improvise {
            seat: 0,
            colour: 1,
            ..
        }
    )));
    // Seat 2's colour is spent now; seat 3's is not.
    let s = &mut game.state;
    s.lift(0, 0, sq("e5"));
    assert!(game.improvised_placements(0, sw).is_empty());
    let s = &mut game.state;
    s.lift(1, 0, sq("e6"));
    s.put(2, 0, sq("e6"));
    assert_eq!(game.improvised_placements(0, sw), [(pl, 2)]);
    game.state.check_invariants().expect("invariants");
}

#[test]
fn improvising_cannot_borrow_two_pieces_or_be_used_in_a_duel() {
    let card = "imperial/swordmaster";
    let (game, _) = table(&["imperial"; 3], card, "e4=3c e6=2c", &[]);
    let sw = being(&game, card);
    assert!(game.improvised_placements(0, sw).is_empty());
    let (duel, _) = table(
        &["imperial"; 2],
        card,
        &pattern_with(card, "e5", "e6", 2),
        &[],
    );
    assert!(duel.improvised_placements(0, sw).is_empty());
}

#[test]
fn improvising_with_war_summoners_borrowing_takes_two_enemy_pieces_and_pays_with_one_colour() {
    let card = "imperial/swordmaster";
    let (mut game, _) = table(&["imperial"; 3], card, "e4=3c e6=2c", &[]);
    game.state.counters.borrow_enemy_piece = true;
    let sw = being(&game, card);
    let pl = placement(&game, sw, "e5");
    assert_eq!(game.improvised_placements(0, sw), [(pl, 2), (pl, 1)]);
    game.state.improvised[0][1] = true;
    assert_eq!(game.improvised_placements(0, sw), [(pl, 2)]);
}

#[test]
fn an_improvised_piece_on_the_summoning_square_is_destroyed_and_scores() {
    let card = "imperial/high-priestess";
    let pieces = pattern_with(card, "e5", "e5", 2);
    let (mut game, _) = table(&["imperial"; 3], card, &pieces, &[&[Opt::None, Opt::None]]);
    let hp = being(&game, card);
    let pl = placement(&game, hp, "e5");
    assert_eq!(game.improvised_placements(0, hp), [(pl, 1)]);
    game.state.active = 0;
    game.summon_improvised(0, hp, pl, 1);
    assert_eq!(game.state.piece_at(sq("e5")), Some((0, 1)));
    assert_eq!(game.state.counters.destroyed_of[1], [1, 0, 0]);
}

// ----- enemy pieces in card texts

#[test]
fn an_enemy_piece_is_a_piece_of_any_opponent() {
    let card = "imperial/champion";
    let pieces = format!("{} f4=2c f5=3h", pattern_at(card, "e5"));
    let (mut game, asked) = table(&["imperial"; 3], card, &pieces, &[&[Opt::Square(sq("f5"))]]);
    let ch = being(&game, card);
    game.state.active = 0;
    game.summon(0, ch, placement(&game, ch, "e5"));
    let options = &asked[0].borrow()[0].1;
    assert!(options.contains(&Opt::Square(sq("f4"))) && options.contains(&Opt::Square(sq("f5"))));
    assert!(game.state.piece_at(sq("f5")).is_none());
}

#[test]
fn woodland_druid_upgrades_one_common_of_each_colour() {
    let card = "sylvan/woodland-druid";
    let pieces = format!("{} a5=2c i5=3c", pattern_at(card, "e5"));
    let (mut game, asked) = table(
        &["sylvan", "imperial", "imperial"],
        card,
        &pieces,
        &[&[Opt::Square(sq("d4"))]],
    );
    let wd = being(&game, card);
    game.summon(0, wd, placement(&game, wd, "e5"));
    assert_eq!(game.state.piece_at(sq("a5")), Some((1, 1)));
    assert_eq!(game.state.piece_at(sq("i5")), Some((2, 1)));
    assert_eq!(
        asked[0].borrow().len(),
        1,
        "one choice among own commons, one enemy common of each colour"
    );
}

#[test]
fn forest_wardens_compare_with_the_owner_of_the_piece_chosen() {
    let card = "sylvan/forest-wardens";
    // Seat 0 will have 3 commons and no upgraded piece. Seat 2 has more commons and no upgraded piece;
    // seat 3 fewer commons and more upgraded pieces.
    let pieces = format!(
        "{} a4=2c a5=2c a6=2c b5=2c i4=3c i5=3h i6=3h h5=3h",
        pattern_at(card, "e5")
    );
    let (mut game, asked) = table(
        &["sylvan", "imperial", "imperial"],
        card,
        &pieces,
        &[&[Opt::Square(sq("a4")), Opt::Square(sq("i5"))]],
    );
    let fw = being(&game, card);
    game.state.active = 0;
    game.summon(0, fw, placement(&game, fw, "e5"));
    let asked = asked[0].borrow();
    let squares = |names: &[&str]| names.iter().map(|n| Opt::Square(sq(n))).collect::<Vec<_>>();
    let sorted = |mut v: Vec<Opt>| {
        v.sort_by_key(|o| format!("{o:?}"));
        v
    };
    assert_eq!(
        sorted(asked[0].1.clone()),
        sorted(squares(&["a4", "a5", "a6", "b5"]))
    );
    assert_eq!(
        sorted(asked[1].1.clone()),
        sorted(squares(&["i5", "i6", "h5"]))
    );
    assert!(game.state.piece_at(sq("a4")).is_none() && game.state.piece_at(sq("i5")).is_none());
}

#[test]
fn hypnotist_moves_pieces_of_one_enemy_colour() {
    let card = "imperial/hypnotist";
    let pieces = format!("{} a5=2c a6=2c i5=3c", pattern_at(card, "e5"));
    let (mut game, asked) = table(
        &["imperial"; 3],
        card,
        &pieces,
        &[&[Opt::Move(sq("a5"), sq("b5")), Opt::None]],
    );
    let hy = being(&game, card);
    game.summon(0, hy, placement(&game, hy, "e5"));
    let asked = asked[0].borrow();
    let moves_from = |i: usize, from: &str| {
        asked[i]
            .1
            .iter()
            .any(|o| matches!(o, Opt::Move(a, _) if *a == sq(from)))
    };
    assert!(moves_from(0, "i5") && moves_from(0, "a6"));
    assert!(moves_from(1, "a6") && !moves_from(1, "i5"));
}

#[test]
fn forest_ancient_places_enemy_commons_in_chosen_colours_then_destroys_commons_of_those_colours() {
    let card = "sylvan/forest-ancient";
    let pieces = format!("{} e7=3c", pattern_at(card, "e5"));
    let (mut game, asked) = table(
        &["sylvan", "imperial", "imperial"],
        card,
        &pieces,
        &[&[
            Opt::SeatSquare(1, sq("e3")),
            Opt::SeatSquare(1, sq("f3")),
            Opt::Square(sq("e3")),
        ]],
    );
    let fa = being(&game, card);
    game.state.active = 0;
    game.summon(0, fa, placement(&game, fa, "e5"));
    let asked = asked[0].borrow();
    assert!(asked[0].1.contains(&Opt::SeatSquare(2, sq("e3"))));
    assert!(
        !asked[2].1.contains(&Opt::Square(sq("e7"))),
        "seat 3's common is not of the colour placed"
    );
    assert_eq!(game.state.piece_at(sq("e7")), Some((2, 0)));
    assert_eq!(game.state.counters.destroyed_of[1], [2, 0, 0]);
}

// ----- end and ranking

/// A melee whose colour points are set; `finish` by the turn limit.
fn ranked(points: [[i32; 4]; 4], seats: usize, pieces: &str) -> crate::record::GameRecord {
    let decks = vec!["imperial"; seats];
    let (mut game, _) = table(&decks, "imperial/swordmaster", pieces, &[]);
    game.state.colour_points = points;
    game.state.turn = game.state.max_turns;
    game.state.end_trigger = Some(crate::state::EndTrigger::TurnLimit);
    game.state.active = 0;
    game.end_turn(0);
    assert!(game.state.over);
    game.take_record()
}

#[test]
fn the_highest_lowest_colour_score_wins() {
    let r = ranked(
        [[0, 2, 6, 9], [3, 0, 3, 3], [1, 1, 0, 1], [5, 4, 2, 0]],
        4,
        "",
    );
    assert_eq!((r.winner, r.tiebreak), (1, ""));
    assert_eq!(r.scores, [2, 3, 1, 2]);
    assert_eq!(r.places, [2, 1, 4, 3]);
    assert_eq!(r.colour_scores[1], [Some(3), None, Some(3), Some(3)]);
}

#[test]
fn ties_go_to_the_second_lowest_then_the_highest_colour_score() {
    let r = ranked([[0, 2, 5, 9], [2, 0, 4, 9], [2, 2, 0, 2], [0; 4]], 4, "");
    assert_eq!((r.winner, r.tiebreak), (0, "second-lowest"));
    let r = ranked([[0, 2, 4, 9], [2, 0, 4, 8], [2, 2, 0, 2], [0; 4]], 4, "");
    assert_eq!((r.winner, r.tiebreak), (0, "highest"));
}

#[test]
fn then_upgraded_pieces_then_pieces_then_a_shared_place() {
    let same = [[0, 3, 3, 0], [3, 0, 3, 0], [1, 1, 0, 0], [0; 4]];
    let r = ranked(same, 3, "e2=2h e3=1c");
    assert_eq!((r.winner, r.tiebreak), (1, "upgraded"));
    let r = ranked(same, 3, "e2=2c e3=1c e4=1c");
    assert_eq!((r.winner, r.tiebreak), (0, "pieces"));
    let r = ranked(same, 3, "e2=2c e3=1c");
    assert_eq!((r.winner, r.tiebreak), (-1, "tie"));
    assert_eq!(r.places, [1, 1, 3]);
}

#[test]
fn twelve_points_in_one_colour_end_a_three_player_melee_after_one_more_turn_each() {
    let (mut game, _) = set_up(&["imperial", "sylvan", "highland"], 1);
    game.play_turn();
    let p = game.state.active;
    let colour = (p + 1) % 3;
    assert!(game.state.end_trigger.is_none());
    game.state.colour_points[p][colour] += 12;
    game.state
        .record
        .colour_points(game.state.turn, p, colour, "test", 12);
    game.play_turn();
    assert_eq!(
        game.state.end_trigger,
        Some(crate::state::EndTrigger::Score)
    );
    for _ in 0..2 {
        assert!(!game.state.over);
        game.play_turn();
    }
    assert!(!game.state.over, "the trigger player has one more turn too");
    game.play_turn();
    assert!(game.state.over);
}

#[test]
fn ten_points_in_one_colour_trigger_the_end_with_four_players() {
    let (mut game, _) = set_up(&["imperial", "sylvan", "highland", "imperial"], 2);
    game.play_turn();
    let p = game.state.active;
    let colour = (p + 2) % 4;
    game.state.colour_points[p][colour] += 10;
    game.state
        .record
        .colour_points(game.state.turn, p, colour, "test", 10);
    game.play_turn();
    assert_eq!(
        game.state.end_trigger,
        Some(crate::state::EndTrigger::Score)
    );
}

// ----- whole games

/// `games` strict melee games of random players over rotating deck combinations.
fn strict_random_games(seats: usize, games: u64) {
    let decks = ["imperial", "sylvan", "highland"];
    let cards = cards();
    for seed in 0..games {
        let table: Vec<&str> = (0..seats)
            .map(|i| decks[(seed as usize / (i + 1) + i) % 3])
            .collect();
        let players = (0..seats)
            .map(|i| make_strategy("random", i, seed).unwrap())
            .collect();
        let options = GameOptions {
            strict: true,
            ..GameOptions::default()
        };
        let mut game = Game::table(
            Arc::clone(&cards),
            Mode::Deathmatch,
            &table,
            players,
            seed,
            options,
        )
        .unwrap();
        game.play();
        let r = &game.state.record;
        assert_eq!(r.scores.len(), seats);
        assert_eq!(r.places.len(), seats);
        let best = *r.scores.iter().max().unwrap();
        assert!(r.winner < 0 || r.scores[r.winner as usize] == best);
        assert!(r.places.contains(&1));
    }
}

#[test]
fn thousands_of_strict_random_three_player_melees_keep_every_invariant() {
    strict_random_games(3, 2000);
}

#[test]
fn thousands_of_strict_random_four_player_melees_keep_every_invariant() {
    strict_random_games(4, 2000);
}

/// `one_enemy_cell` finds exactly the placements whose pattern lacks one piece of yours where an enemy piece
/// of the rank needed stands: every placement of every being, on random arenas, against the plain check.
#[test]
fn one_enemy_cell_finds_exactly_the_placements_one_enemy_piece_completes() {
    let cards = cards();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut found = 0;
    for _ in 0..100 {
        let (mut mine, mut theirs) = ([0; 3], [0; 3]);
        for s in board::squares() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let rank = (x / 10 % 3) as usize;
            match x % 10 {
                0..=5 => mine[rank] |= bit(s),
                6..=8 => theirs[rank] |= bit(s),
                _ => {}
            }
        }
        let (own, enemy) = (rank_or_better(&mine), rank_or_better(&theirs));
        for card in &cards.beings {
            let want: Vec<u16> = (0..card.placements.len() as u16)
                .filter(|&i| {
                    let pl = &card.placements[i as usize];
                    let fails = pl.unfilled(own);
                    fails.count_ones() == 1 && pl.unfilled(enemy) & fails == 0
                })
                .collect();
            found += want.len();
            assert_eq!(one_enemy_cell(card, own, enemy), want, "{}", card.id);
        }
    }
    assert!(
        found > 1000,
        "the arenas give many such placements: {found}"
    );
}
