//! Scenario tests of the Etherweave cards (normal and warp texts) and of the deck's rules: the warp free
//! play, the pending being, the causality penalty, summoning anywhere, void summoning, stasis.

use std::sync::Arc;

use crate::board::bit;
use crate::cards::BeingId;
use crate::decisions::{Action, Kind, Opt, PlayerView};
use crate::effects::testing::{arena, being, mv, pattern_at, position, sq, summon, Asked};
use crate::game::{remove_first, Game, GameOptions};
use crate::players::make_strategy;
use crate::record::Event;
use crate::state::{shared_rng, EndTrigger, Mode};

const DM: Mode = Mode::Deathmatch;
const DUEL: [&str; 2] = ["etherweave", "imperial"];

fn id(game: &Game, name: &str) -> BeingId {
    being(game, &format!("etherweave/{name}"))
}

/// Moves `name` from seat 0's deck into its hand.
fn give(game: &mut Game, name: &str) -> BeingId {
    let b = id(game, name);
    remove_first(&mut game.state.deck[0], b);
    game.state.hand[0].push(b);
    b
}

/// Moves `name` from seat 0's deck into its hand as its pending being.
fn make_pending(game: &mut Game, name: &str) -> BeingId {
    let b = give(game, name);
    game.state.pending[0] = Some(b);
    b
}

/// Moves `name` from seat 0's deck onto its discard pile.
fn to_discard(game: &mut Game, name: &str) -> BeingId {
    let b = id(game, name);
    remove_first(&mut game.state.deck[0], b);
    game.state.discarded[0].push(b);
    b
}

/// A game after the first round (turn 3, 2 actions) with seat 0 holding `card` and `pieces` on the arena.
fn later(card: &str, pieces: &str, answers: &[Opt]) -> (Game<'static>, Asked) {
    let (mut game, asked) = position(DM, DUEL, &format!("etherweave/{card}"), pieces, answers);
    game.state.turn = 3;
    game.state.actions_left = 2;
    (game, asked)
}

/// Seat 0 plays `card`'s warp from hand.
fn warp(game: &mut Game, card: &str) {
    let b = id(game, card);
    game.apply_action(0, Action::Warp(b));
    game.state.check_invariants().expect("invariants");
}

fn label(l: &'static str) -> Opt {
    Opt::Label(l)
}

fn kinds(game: &Game) -> Vec<&'static str> {
    game.state.record.events.iter().map(Event::kind).collect()
}

// ----- the warp free play
#[test]
fn warps_are_refused_in_the_first_round_and_offered_after_it() {
    let (mut game, _) = position(DM, DUEL, "etherweave/translocationist", "", &[]);
    let card = id(&game, "translocationist");
    for turn in [1, 2] {
        game.state.turn = turn;
        assert!(!game
            .action_options(0)
            .contains(&Opt::Action(Action::Warp(card))));
    }
    game.state.turn = 3;
    assert!(game
        .action_options(0)
        .contains(&Opt::Action(Action::Warp(card))));
}

#[test]
fn a_warp_makes_the_card_pending_costs_no_action_and_blocks_other_warps() {
    let (mut game, _) = later("translocationist", "", &[]);
    let other = give(&mut game, "lesser-shadow-twin");
    warp(&mut game, "translocationist");
    let card = id(&game, "translocationist");
    assert_eq!(game.state.pending[0], Some(card));
    assert!(
        game.state.hand[0].contains(&card),
        "the pending being stays in hand"
    );
    assert_eq!(game.state.actions_left, 3, "no action spent, one gained");
    assert!(kinds(&game).contains(&"warp"));
    let options = game.action_options(0);
    assert!(!options.contains(&Opt::Action(Action::Warp(other))));
}

#[test]
fn with_no_action_left_a_warp_is_offered_beside_end_and_a_gained_action_reopens_the_turn() {
    let (mut game, _) = later("translocationist", "", &[]);
    game.state.actions_left = 0;
    let card = id(&game, "translocationist");
    assert_eq!(
        game.action_options(0),
        vec![Opt::Action(Action::Warp(card)), Opt::Action(Action::End)]
    );
    warp(&mut game, "translocationist");
    assert!(game.action_options(0).contains(&Opt::Action(Action::Place)));
}

#[test]
fn a_warp_with_nothing_to_do_still_makes_the_card_pending() {
    let (mut game, _) = later("greater-shadow-twin", "", &[]);
    warp(&mut game, "greater-shadow-twin");
    assert_eq!(
        game.state.pending[0],
        Some(id(&game, "greater-shadow-twin"))
    );
}

#[test]
fn the_pending_being_cannot_be_discarded_or_returned() {
    let (mut game, _) = later("translocationist", "", &[]);
    game.state.pending[0] = Some(id(&game, "translocationist"));
    assert!(!game
        .action_options(0)
        .contains(&Opt::Action(Action::Discard)));
    let other = give(&mut game, "doppelganger");
    assert!(game
        .action_options(0)
        .contains(&Opt::Action(Action::Discard)));
    let (mut game2, asked) = later("translocationist", "", &[Opt::Being(other), Opt::None]);
    game2.state.pending[0] = Some(id(&game2, "translocationist"));
    let o2 = give(&mut game2, "doppelganger");
    give(&mut game2, "paradox-worm");
    assert_eq!(o2, other);
    game2.discard_action(0);
    assert!(game2.state.discarded[0].contains(&o2));
    let asked = asked.borrow();
    assert!(!asked[0]
        .1
        .contains(&Opt::Being(id(&game2, "translocationist"))));
    let (kind, options) = &asked[1];
    assert_eq!(*kind, Kind::Return);
    assert!(!options.contains(&Opt::Being(id(&game2, "translocationist"))));
}

#[test]
fn summoning_the_pending_being_ends_its_pending_status_first() {
    let pieces = pattern_at("etherweave/translocationist", "e5");
    let (mut game, _) = later("translocationist", &pieces, &[Opt::None]);
    game.state.pending[0] = Some(id(&game, "translocationist"));
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.pending[0], None);
    let k = kinds(&game);
    assert_eq!(&k[..2], &["pending_end", "summon"]);
    assert!(game.state.discarded[0].contains(&id(&game, "translocationist")));
}

// ----- the causality penalty
#[test]
fn a_pending_being_keeps_the_score_from_triggering_the_end() {
    for pending in [true, false] {
        let (mut game, _) = later("doppelganger", "", &[]);
        game.state.dm_points[0] = 18;
        game.state.record.points(3, 0, "test", 18);
        if pending {
            make_pending(&mut game, "translocationist");
        }
        game.end_turn(0);
        let trigger = game.state.end_trigger;
        assert_eq!(trigger.is_some(), !pending, "pending {pending}");
        if !pending {
            assert_eq!(trigger, Some(EndTrigger::Score));
        }
    }
}

#[test]
fn a_pending_being_at_the_end_costs_two_points_in_every_form() {
    for mode in [Mode::Deathmatch, Mode::HighForm] {
        let (mut game, _) = position(mode, DUEL, "etherweave/doppelganger", "", &[]);
        make_pending(&mut game, "translocationist");
        crate::etherweave::apply_causality(&mut game.state);
        assert_eq!(game.state.score(0), -2, "{mode:?}");
        assert_eq!(game.state.score(1), 0);
        game.state.check_invariants().expect("invariants");
    }
}

#[test]
fn in_a_melee_the_penalty_comes_off_every_colour_score() {
    let (mut game, _) = crate::effects::testing::table(
        &["etherweave", "imperial", "sylvan"],
        "etherweave/doppelganger",
        "",
        &[],
    );
    make_pending(&mut game, "translocationist");
    crate::etherweave::apply_causality(&mut game.state);
    assert_eq!(game.state.colour_points[0][1], -2);
    assert_eq!(game.state.colour_points[0][2], -2);
    game.state.check_invariants().expect("invariants");
}

#[test]
fn in_a_melee_the_end_check_lowers_the_colour_scores_of_a_player_with_a_pending_being() {
    let (mut game, _) = crate::effects::testing::table(
        &["etherweave", "imperial", "sylvan"],
        "etherweave/doppelganger",
        "",
        &[],
    );
    game.state.colour_points[0][1] = 9;
    game.state.colour_points[1][0] = 8;
    make_pending(&mut game, "translocationist");
    let check = |game: &Game| crate::etherweave::end_check_score(&game.state);
    assert_eq!(check(&game), 8, "seat 0's 9 counts as 7");
    game.state.colour_points[0][2] = 11;
    assert_eq!(check(&game), 9);
}

// ----- public information, team games
#[test]
fn a_lookahead_sandbox_keeps_the_opponents_pending_being_in_hand() {
    let (mut game, _) = later("doppelganger", "", &[]);
    let card = make_pending(&mut game, "merchant-of-time");
    for seed in 0..20 {
        let sb = PlayerView::new(&game.state, 1).sandbox(&shared_rng(seed));
        assert!(sb.hand[0].contains(&card));
        assert_eq!(sb.pending[0], Some(card));
        sb.check_invariants().expect("invariants");
    }
}

#[test]
fn a_team_members_pending_being_and_stasis_go_with_his_cards() {
    let players = (0..4)
        .map(|i| make_strategy("random", i, 1).unwrap())
        .collect();
    let cards = game_cards();
    let mut game = Game::teams(
        cards,
        DM,
        &["etherweave", "imperial", "sylvan", "highland"],
        players,
        1,
        GameOptions::default(),
    )
    .unwrap();
    game.setup();
    let holder = game.state.seat_of(0);
    let card = game.state.hand[0][0];
    game.state.pending[0] = Some(card);
    game.state.swap_members(0);
    assert_eq!(game.state.pending[0], None);
    assert_eq!(
        game.state.teams.as_ref().unwrap().bench[0].pending,
        Some(card)
    );
    game.state.swap_members(0);
    assert_eq!(game.state.seat_of(0), holder);
    assert_eq!(game.state.pending[0], Some(card));
}

fn game_cards() -> Arc<crate::cards::CardSet> {
    let (game, _) = position(DM, DUEL, "etherweave/doppelganger", "", &[]);
    Arc::clone(&game.state.cards)
}

// ----- Doppelganger
#[test]
fn doppelganger_copies_the_pending_beings_warp() {
    let pieces = pattern_at("etherweave/doppelganger", "e5");
    let (mut game, _) = later("doppelganger", &pieces, &[Opt::Square(sq("d5"))]);
    make_pending(&mut game, "lesser-shadow-twin");
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("d5")), Some((0, 1)));
    assert!(kinds(&game).contains(&"copy_warp"));
    assert!(
        game.state.pending[0].is_some(),
        "a copy leaves the pending being pending"
    );
}

#[test]
fn doppelganger_does_nothing_without_a_pending_being_or_with_the_merchant() {
    for merchant in [false, true] {
        let pieces = format!("{} c3=2h", pattern_at("etherweave/doppelganger", "e5"));
        let (mut game, _) = later("doppelganger", &pieces, &[]);
        if merchant {
            make_pending(&mut game, "merchant-of-time");
        }
        summon(&mut game, "e5", 0);
        assert!(!kinds(&game).contains(&"copy_warp"));
        assert!(!kinds(&game).contains(&"stasis"));
    }
}

// ----- Paradox Worm
#[test]
fn paradox_worm_swaps_a_piece_of_yours_with_an_enemy_piece_of_its_rank() {
    let pieces = format!(
        "{} g7=1h h5=2h",
        pattern_at("etherweave/paradox-worm", "f5")
    );
    let (mut game, asked) = later("paradox-worm", &pieces, &[mv("g7", "h5")]);
    summon(&mut game, "f5", 0);
    assert_eq!(game.state.piece_at(sq("g7")), Some((1, 1)));
    assert_eq!(game.state.piece_at(sq("h5")), Some((0, 1)));
    assert_eq!(asked.borrow()[0].1, vec![mv("g7", "h5"), Opt::None]);
    assert!(kinds(&game).contains(&"swap"));
}

#[test]
fn paradox_worms_warp_upgrades_an_enemy_common_and_may_discard_the_worm_itself() {
    let worm_opt = |g: &Game| Opt::Being(id(g, "paradox-worm"));
    let (game0, _) = later("paradox-worm", "", &[]);
    let answer = worm_opt(&game0);
    let (mut game, _) = later("paradox-worm", "c4=2c", &[answer]);
    warp(&mut game, "paradox-worm");
    assert_eq!(game.state.piece_at(sq("c4")), Some((1, 1)));
    assert_eq!(game.state.pending[0], None);
    assert!(game.state.discarded[0].contains(&id(&game, "paradox-worm")));
    let ends: Vec<_> = game
        .state
        .record
        .events
        .iter()
        .filter_map(|e| match e {
            Event::PendingEnd { reason, .. } => Some(*reason),
            _ => None,
        })
        .collect();
    assert_eq!(ends, vec!["discard"]);
}

// ----- Shadow Twins
#[test]
fn lesser_shadow_twin_destroys_two_commons_around_a_piece_if_the_greater_twin_is_discarded() {
    let pieces = format!(
        "{} d2=2c f2=2c",
        pattern_at("etherweave/lesser-shadow-twin", "e3")
    );
    let answers = [
        Opt::Square(sq("e3")),
        Opt::Square(sq("d2")),
        Opt::Square(sq("f2")),
    ];
    let (mut game, _) = later("lesser-shadow-twin", &pieces, &answers);
    to_discard(&mut game, "greater-shadow-twin");
    summon(&mut game, "e3", 0);
    assert!(game.state.piece_at(sq("d2")).is_none());
    assert!(game.state.piece_at(sq("f2")).is_none());
    assert_eq!(game.state.counters.destroyed, [2, 0, 0]);
    // without the Greater Twin in the discard pile: nothing is asked
    let (mut game, _) = later("lesser-shadow-twin", &pieces, &[]);
    summon(&mut game, "e3", 0);
    assert_eq!(game.state.counters.destroyed, [0, 0, 0]);
}

#[test]
fn greater_shadow_twin_destroys_a_heroic_piece_next_to_two_of_yours() {
    let pieces = format!(
        "{} c4=2h h2=2h",
        pattern_at("etherweave/greater-shadow-twin", "c5")
    );
    let (mut game, asked) = later("greater-shadow-twin", &pieces, &[Opt::Square(sq("c4"))]);
    to_discard(&mut game, "lesser-shadow-twin");
    summon(&mut game, "c5", 0);
    assert_eq!(asked.borrow()[0].1, vec![Opt::Square(sq("c4")), Opt::None]);
    assert_eq!(game.state.counters.destroyed, [0, 1, 0]);
    let (mut game, _) = later("greater-shadow-twin", &pieces, &[]);
    summon(&mut game, "c5", 0);
    assert_eq!(game.state.counters.destroyed, [0, 0, 0]);
}

#[test]
fn the_twins_warps_upgrade_one_of_your_commons() {
    for twin in ["lesser-shadow-twin", "greater-shadow-twin"] {
        let (mut game, _) = later(twin, "c4=1c h2=2c", &[]);
        warp(&mut game, twin);
        assert_eq!(game.state.piece_at(sq("c4")), Some((0, 1)), "{twin}");
        assert_eq!(game.state.piece_at(sq("h2")), Some((1, 0)));
    }
}

// ----- Translocationist
#[test]
fn translocationist_swaps_up_to_two_heroics_with_commons_of_yours() {
    let pieces = format!("{} h7=1h", pattern_at("etherweave/translocationist", "e5"));
    let (mut game, _) = later("translocationist", &pieces, &[mv("h7", "f4"), Opt::None]);
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("f4")), Some((0, 1)));
    assert_eq!(game.state.piece_at(sq("h7")), Some((0, 0)));
}

// ----- Antimatter Spirit
#[test]
fn antimatter_spirits_warp_moves_your_common_then_an_enemy_common_the_other_way() {
    let answers = [Opt::Square(sq("e4")), mv("e4", "e3")];
    let (mut game, _) = later("antimatter-spirit", "", &answers);
    warp(&mut game, "antimatter-spirit");
    assert_eq!(arena(&game), "e3=1c e5=2c");
}

#[test]
fn antimatter_spirit_is_offered_only_where_an_enemy_common_can_follow() {
    // the opponent has no common in stock: the first move must free one
    let (mut game, asked) = later("antimatter-spirit", "e3=2c", &[Opt::Square(sq("e4"))]);
    game.state.token_total[1] = 1;
    game.state.tokens[1] = 0;
    warp(&mut game, "antimatter-spirit");
    let starts = &asked.borrow()[0].1;
    assert!(starts.iter().all(
        |o| matches!(o, Opt::Square(q) if crate::board::ADJACENT[sq("e3") as usize] & bit(*q) != 0)
    ));
    assert_eq!(arena(&game), "e3=1c e5=2c");
    assert_eq!(game.state.counters.destroyed, [1, 0, 0]);
}

// ----- Merchant of Time
#[test]
fn merchant_of_time_holds_a_piece_out_of_the_game_then_releases_it() {
    let pieces = format!(
        "c4=2h e2=1c {}",
        pattern_at("etherweave/merchant-of-time", "e3")
    );
    let (mut game, _) = later("merchant-of-time", &pieces, &[Opt::Square(sq("c4"))]);
    game.state.put(1, 0, sq("g6"));
    warp(&mut game, "merchant-of-time");
    assert_eq!(game.state.stasis[0], Some((1, 1)));
    assert!(game.state.piece_at(sq("c4")).is_none());
    assert_eq!(
        game.state.counters.destroyed,
        [0, 0, 0],
        "stasis is no destruction"
    );
    // summoning the Merchant releases it onto a colourless square, destroying a lower piece there
    let (mut after, _) = later("merchant-of-time", "", &[Opt::Square(sq("g6"))]);
    after.state = game.state.clone_for(&shared_rng(0));
    summon(&mut after, "e3", 0);
    assert_eq!(after.state.piece_at(sq("g6")), Some((1, 1)));
    assert_eq!(after.state.stasis[0], None);
    assert_eq!(after.state.pending[0], None);
    assert_eq!(after.state.counters.destroyed, [1, 0, 0]);
}

#[test]
fn a_pending_merchant_cannot_be_discarded_or_returned_to_hand() {
    let pieces = pattern_at("etherweave/warpmaster", "e5");
    let (mut game, asked) = later("warpmaster", &pieces, &[Opt::None]);
    make_pending(&mut game, "merchant-of-time");
    summon(&mut game, "e5", 0);
    let labels = &asked.borrow()[0].1;
    assert!(!labels.contains(&label("return your pending being to your hand")));
    assert!(game.state.pending[0].is_some());
}

// ----- Gate of Oblivion
#[test]
fn gate_of_oblivion_destroys_the_purple_square_then_maybe_another_marked_one() {
    let pieces = format!(
        "e5=2l g4=2h c4=2l {}",
        pattern_at("etherweave/gate-of-oblivion", "e4")
    );
    let (mut game, asked) = later("gate-of-oblivion", &pieces, &[Opt::Square(sq("g4"))]);
    summon(&mut game, "e4", 0);
    assert_eq!(asked.borrow()[0].1, vec![Opt::Square(sq("g4")), Opt::None]);
    assert_eq!(game.state.counters.destroyed, [0, 1, 1]);
    assert_eq!(game.state.piece_at(sq("c4")), Some((1, 2)));
}

#[test]
fn gate_of_oblivions_warp_counts_each_enemy_piece_destroyed_once_more_this_turn() {
    let (mut game, _) = later("gate-of-oblivion", "c4=2c c6=1c", &[]);
    warp(&mut game, "gate-of-oblivion");
    game.state.destroy(sq("c4"), "test", true);
    game.state.destroy(sq("c6"), "test", true);
    assert_eq!(
        game.state.counters.destroyed,
        [2, 0, 0],
        "own pieces count for nothing"
    );
    game.end_turn(0);
    assert_eq!(game.state.dm_points[0], 1);
}

// ----- Time Traveler
#[test]
fn time_traveler_goes_on_any_empty_colourless_square_and_may_bring_back_a_discard() {
    let pieces = format!("b4=2c {}", pattern_at("etherweave/time-traveler", "e4"));
    let answers = [Opt::Square(sq("b5")), Opt::Square(sq("b4"))];
    let (mut game, asked) = later("time-traveler", &pieces, &answers);
    let twin = to_discard(&mut game, "lesser-shadow-twin");
    summon(&mut game, "e4", 0);
    assert_eq!(arena(&game), "d3=1c e4=1c b5=1h f5=1c");
    assert_eq!(game.state.deck[0].last(), Some(&twin));
    let squares = &asked.borrow()[0].1;
    assert!(
        !squares.contains(&Opt::Square(sq("e5"))),
        "never a red square"
    );
    assert!(
        !squares.contains(&Opt::Square(sq("e4"))),
        "never onto its pattern"
    );
}

#[test]
fn time_traveler_needs_an_empty_colourless_square() {
    let (mut game, _) = later(
        "time-traveler",
        &pattern_at("etherweave/time-traveler", "e4"),
        &[],
    );
    let card = id(&game, "time-traveler");
    assert!(game.has_placement(0, card));
    let empty = crate::etherweave::COLOURLESS & game.state.empty();
    for q in crate::board::bits(empty) {
        game.state.pieces[1][2] |= bit(q); // a wall (not counted in stocks; no invariants checked)
    }
    assert!(!game.has_placement(0, card));
}

#[test]
fn time_traveler_still_needs_its_pattern() {
    let (game, _) = later("time-traveler", "", &[]);
    let card = id(&game, "time-traveler");
    assert!(game.state.tokens[0] > 0);
    assert!(
        !game.has_placement(0, card),
        "pieces to spare, but no pattern"
    );
}

#[test]
fn a_legendary_being_summoned_anywhere_needs_a_legendary_piece() {
    // No legend of the game is summoned anywhere: a card set whose Time Traveler is legendary.
    let json = include_str!("../../tests/data/cards.json").replace(
        r#""id":"etherweave/time-traveler","deck":"etherweave","rank":1"#,
        r#""id":"etherweave/time-traveler","deck":"etherweave","rank":2"#,
    );
    let legendary = Arc::new(crate::cards::CardSet::from_json(&json).expect("card set"));
    let (mut game, _) = later(
        "time-traveler",
        &pattern_at("etherweave/time-traveler", "e4"),
        &[],
    );
    game.state.cards = legendary;
    let card = id(&game, "time-traveler");
    assert_eq!(game.state.cards.being(card).rank, 2);
    assert!(game.state.tokens[0] > 0);
    game.state.legend_stock[0] = 0;
    assert!(
        !game.has_placement(0, card),
        "common tokens do not make a legendary piece"
    );
    game.state.pieces[0][2] |= bit(sq("a5")); // a legendary piece of its own off the pattern
    assert!(game.has_placement(0, card));
    game.state.pieces[0][2] &= !bit(sq("a5"));
    game.state.legend_stock[0] = 1;
    assert!(game.has_placement(0, card));
}

// ----- Warpmaster
#[test]
fn warpmaster_returns_the_pending_being_to_hand_or_steps() {
    let pieces = pattern_at("etherweave/warpmaster", "e5");
    let answers = [label("return your pending being to your hand")];
    let (mut game, _) = later("warpmaster", &pieces, &answers);
    let twin = make_pending(&mut game, "lesser-shadow-twin");
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.pending[0], None);
    assert!(game.state.hand[0].contains(&twin));
    let answers = [label("standard move with the Warpmaster"), mv("e5", "e4")];
    let (mut game, _) = later("warpmaster", &pieces, &answers);
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("e4")), Some((0, 1)));
}

// ----- Dark Sphere
#[test]
fn dark_sphere_moves_up_to_three_pieces_two_squares_away_at_most_two_per_colour() {
    let pieces = format!("g4=2c {}", pattern_at("etherweave/dark-sphere", "e5"));
    let answers = [mv("d5", "c4"), mv("d6", "c7"), Opt::None];
    let (mut game, asked) = later("dark-sphere", &pieces, &answers);
    summon(&mut game, "e5", 0);
    assert!(game.state.piece_at(sq("c4")).is_some() && game.state.piece_at(sq("c7")).is_some());
    let asked = asked.borrow();
    let third = &asked[2].1;
    assert!(third.contains(&mv("g4", "g3")));
    assert!(
        third
            .iter()
            .all(|o| !matches!(o, Opt::Move(a, _) if *a == sq("e6"))),
        "two of one colour moved"
    );
    assert!(asked[0].1.iter().all(|o| match o {
        Opt::Move(_, b) => crate::board::distance(*b, sq("e5")) == 2,
        _ => true,
    }));
}

// ----- Void Summoner
#[test]
fn void_summoner_lets_the_next_summoning_use_two_empty_squares() {
    let (mut game, _) = later(
        "void-summoner",
        &pattern_at("etherweave/void-summoner", "e3"),
        &[],
    );
    let dopp = give(&mut game, "doppelganger");
    assert!(!game.has_placement(0, dopp));
    let card = id(&game, "void-summoner");
    let i = game.state.hand[0].iter().position(|&c| c == card).unwrap();
    game.state.hand[0].swap(0, i);
    summon(&mut game, "e3", 0);
    assert_eq!(game.state.warp_turn.void_squares, 2);
    assert!(game.has_placement(0, dopp), "both pattern cells empty");
    let pl = game.legal_placements(0, dopp)[0];
    game.summon(0, dopp, pl);
    assert_eq!(
        game.state.warp_turn.void_squares, 0,
        "used up by the summoning"
    );
}

/// Whether seat 0 may summon the being it holds with its summoning square on `at` (orientation 0).
fn may_summon_at(game: &Game, card: BeingId, at: &str) -> bool {
    let pl = crate::effects::testing::placement(game, card, at);
    game.legal_placements(0, card).contains(&pl)
}

#[test]
fn void_summoning_fills_empty_common_squares_only_and_borrows_only_with_the_war_summoner() {
    // The Doppelganger at e5 needs commons on d5 and d6.
    let with = |pieces: &str, void: u8, borrow: bool| {
        let (mut game, _) = later("doppelganger", pieces, &[]);
        game.state.warp_turn.void_squares = void;
        game.state.counters.borrow_enemy_piece = borrow;
        let card = id(&game, "doppelganger");
        may_summon_at(&game, card, "e5")
    };
    assert!(with("d5=1c d6=1c", 1, false), "the whole pattern");
    assert!(with("d5=1c", 1, false), "one empty square filled");
    assert!(!with("", 1, false), "two empty squares, one void square");
    assert!(with("", 2, false), "two empty squares, two void squares");
    assert!(
        !with("d5=1c d6=2c", 1, false),
        "an enemy piece is not an empty square"
    );
    assert!(
        with("d5=1c d6=2c", 1, true),
        "the War Summoner lends one enemy piece"
    );
    assert!(!with("d5=2c d6=2c", 1, true), "but not two");
}

#[test]
fn void_summoning_a_legend_needs_its_heroic_pieces_and_a_legendary_piece_to_place() {
    // The Storm Elemental at e5 needs heroics on d3, d4 and f4 and a common on e5.
    let with = |pieces: &str, stock: i32| {
        let decks = ["etherweave", "imperial"];
        let (mut game, _) = position(DM, decks, "legend/storm-elemental", pieces, &[]);
        (game.state.turn, game.state.actions_left) = (3, 2);
        game.state.warp_turn.void_squares = 1;
        game.state.legend_stock[0] = stock;
        let card = being(&game, "legend/storm-elemental");
        may_summon_at(&game, card, "e5")
    };
    let pattern = pattern_at("legend/storm-elemental", "e5");
    assert_eq!(pattern, "d3=1h d4=1h f4=1h e5=1c");
    assert!(with(&pattern, 1));
    assert!(
        with("d3=1h d4=1h f4=1h", 1),
        "the empty common square filled"
    );
    assert!(
        !with("d3=1h d4=1h e5=1c", 1),
        "a heroic square is never filled"
    );
    assert!(
        !with("d3=1h d4=1h f4=1c e5=1c", 1),
        "a common piece on a heroic square"
    );
    assert!(!with(&pattern, 0), "no legendary piece in stock");
    assert!(
        with(&format!("{pattern} a1=1l"), 0),
        "a legendary piece of yours to move instead"
    );
}

#[test]
fn void_summoning_never_fills_a_legendary_square() {
    // No built-in being has a legendary pattern square: a Doppelganger made to need two (d5 and d6 for a
    // summon at e5), in a card set of its own.
    let mut doc: serde_json::Value =
        serde_json::from_str(include_str!("../../tests/data/cards.json")).expect("JSON");
    let dopp = doc["decks"]
        .as_array_mut()
        .expect("decks")
        .iter_mut()
        .flat_map(|d| d["beings"].as_array_mut().expect("beings"))
        .find(|b| b["id"] == "etherweave/doppelganger")
        .expect("the Doppelganger");
    assert_eq!(dopp["cells"], serde_json::json!([[-1, 0, 0], [-1, 1, 0]]));
    dopp["cells"] = serde_json::json!([[-1, 0, 2], [-1, 1, 2]]);
    let stub: crate::effects::CustomFn = |_, _| false;
    let cards = Arc::new(
        crate::cards::CardSet::from_json_with(&doc.to_string(), &|_| Some(stub)).expect("cards"),
    );
    let with = |pieces: &[(&str, u8)]| {
        let players = (0..2)
            .map(|i| make_strategy("random", i, 1).unwrap())
            .collect();
        let mut game = Game::table(
            Arc::clone(&cards),
            DM,
            &DUEL,
            players,
            1,
            GameOptions::default(),
        )
        .expect("game");
        for &(at, rank) in pieces {
            game.state.put(0, rank, sq(at));
        }
        (game.state.active, game.state.warp_turn.void_squares) = (0, 1);
        let card = id(&game, "doppelganger");
        let pl = crate::effects::testing::placement(&game, card, "e5");
        game.legal_placements(0, card).contains(&pl)
    };
    assert!(
        with(&[("d5", 2), ("d6", 2)]),
        "your legendary pieces on both"
    );
    assert!(
        !with(&[("d5", 2)]),
        "an empty legendary square is not filled"
    );
    assert!(
        !with(&[("d5", 2), ("d6", 1)]),
        "a heroic piece on a legendary square"
    );
    assert!(
        !with(&[("d5", 2), ("d6", 0)]),
        "a common piece on a legendary square"
    );
}

#[test]
fn void_summoners_warp_steps_a_piece_of_yours() {
    let (mut game, _) = later("void-summoner", "c4=1c", &[mv("c4", "c3")]);
    warp(&mut game, "void-summoner");
    assert_eq!(arena(&game), "c3=1c");
}

// ----- Eternal Emperor
#[test]
fn eternal_emperor_performs_its_warp_unless_it_was_warped_this_turn() {
    let pieces = pattern_at("etherweave/eternal-emperor", "e5");
    let answers = [label("place a common piece"), Opt::Square(sq("c2"))];
    let (mut game, _) = later("eternal-emperor", &pieces, &answers);
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("c2")), Some((0, 0)));
    let (mut game, _) = later("eternal-emperor", &pieces, &[]);
    let emperor = id(&game, "eternal-emperor");
    game.state.warp_turn.warped |= 1 << emperor.0;
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.record.events.len(), 2, "summon and effect only");
}

#[test]
fn eternal_emperors_warp_moves_commons_in_combat_and_upgraded_pieces_standard() {
    let answers = [label("move one of your pieces"), mv("c4", "c3")];
    let (mut game, asked) = later("eternal-emperor", "c4=1c c3=2c g6=1h g5=2h", &answers);
    warp(&mut game, "eternal-emperor");
    assert_eq!(game.state.piece_at(sq("c3")), Some((0, 0)), "a combat move");
    let moves = &asked.borrow()[1].1;
    assert!(
        !moves.contains(&mv("g6", "g5")),
        "a standard move of the heroic"
    );
    assert!(game
        .state
        .warp_turn
        .was_warped(id(&game, "eternal-emperor")));
}

// ----- Reality Patch
#[test]
fn reality_patch_destroys_heroics_and_discards_the_pending_being_and_a_hand_card() {
    let pieces = format!("g7=2h {}", pattern_at("etherweave/reality-patch", "e5"));
    let (g0, _) = later("reality-patch", "", &[]);
    let (twin, dopp) = (id(&g0, "lesser-shadow-twin"), id(&g0, "doppelganger"));
    let answers = [Opt::Square(sq("g7")), Opt::Being(twin), Opt::Being(dopp)];
    let (mut game, asked) = later("reality-patch", &pieces, &answers);
    make_pending(&mut game, "lesser-shadow-twin");
    give(&mut game, "doppelganger");
    let patch = id(&game, "reality-patch");
    let i = game.state.hand[0].iter().position(|&c| c == patch).unwrap();
    game.state.hand[0].swap(0, i);
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.counters.destroyed, [0, 1, 0]);
    assert_eq!(game.state.pending[0], None);
    assert!(game.state.discarded[0].contains(&twin) && game.state.discarded[0].contains(&dopp));
    assert!(!asked.borrow()[2].1.contains(&Opt::Being(twin)));
}

// ----- Polarity Queen
#[test]
fn polarity_queen_moves_two_pieces_in_opposite_directions() {
    let pieces = pattern_at("etherweave/polarity-queen", "e3");
    let (mut game, asked) = later("polarity-queen", &pieces, &[mv("d4", "c4"), mv("f4", "g4")]);
    summon(&mut game, "e3", 0);
    assert_eq!(game.state.piece_at(sq("c4")), Some((0, 0)));
    assert_eq!(game.state.piece_at(sq("g4")), Some((0, 0)));
    let second = &asked.borrow()[1].1;
    assert!(second.iter().all(|o| match o {
        Opt::Move(a, b) => crate::board::direction_between(*a, *b) == Some(2),
        _ => false,
    }));
}

#[test]
fn polarity_queen_does_nothing_when_the_linked_effect_cannot_be_done_in_full() {
    let (mut game, _) = later("polarity-queen", "", &[]);
    game.state.put(0, 2, sq("e3"));
    game.state.put(0, 0, sq("a5"));
    let queen = id(&game, "polarity-queen");
    game.state.actions_left -= 1;
    let ctx_game = &mut game;
    let pl = ctx_game
        .state
        .cards
        .being(queen)
        .placements
        .iter()
        .position(|p| p.origin == sq("e5"))
        .unwrap() as u16;
    // summon on an empty square directly (the effect is what is tested)
    ctx_game.summon(0, queen, pl);
    assert!(!kinds(ctx_game).contains(&"destroy"));
    assert_eq!(ctx_game.state.piece_at(sq("a5")), Some((0, 0)));
}

// ----- Singularity
#[test]
fn singularity_pulls_every_common_around_a_colourless_square_onto_it_in_turn() {
    let pieces = format!(
        "b2=2c c2=2c c4=1c {}",
        pattern_at("etherweave/singularity", "f6")
    );
    let answers = [Opt::Square(sq("b3")), mv("b2", "b3"), mv("c4", "b3")];
    let (mut game, _) = later("singularity", &pieces, &answers);
    summon(&mut game, "f6", 0);
    assert_eq!(game.state.piece_at(sq("b3")), Some((1, 0)));
    assert!(game.state.piece_at(sq("b2")).is_none() && game.state.piece_at(sq("c4")).is_none());
    assert_eq!(game.state.counters.destroyed, [1, 0, 0]);
}

// ----- Ziggurat Sentinel
#[test]
fn ziggurat_sentinel_charges_towards_its_marked_square() {
    let pieces = format!("d5=2h {}", pattern_at("etherweave/ziggurat-sentinel", "f3"));
    let answers = [
        label("combat moves in the marked direction"),
        mv("e4", "d5"),
        Opt::None,
    ];
    let (mut game, _) = later("ziggurat-sentinel", &pieces, &answers);
    summon(&mut game, "f3", 0);
    assert_eq!(game.state.piece_at(sq("d5")), Some((0, 1)));
    assert_eq!(game.state.counters.destroyed, [0, 1, 0]);
}

#[test]
fn ziggurat_sentinel_copies_a_warp_from_the_discard_pile_but_never_the_merchants() {
    let pieces = pattern_at("etherweave/ziggurat-sentinel", "f3");
    let answers = [label("copy a warp text from your discard pile")];
    let (mut game, asked) = later("ziggurat-sentinel", &pieces, &answers);
    to_discard(&mut game, "translocationist");
    to_discard(&mut game, "merchant-of-time");
    to_discard(&mut game, "warpmaster");
    summon(&mut game, "f3", 0);
    assert_eq!(
        game.state.actions_left, 2,
        "one spent, one gained by the copy"
    );
    assert!(kinds(&game).contains(&"copy_warp"));
    assert_eq!(
        asked.borrow().len(),
        1,
        "the one copyable card is taken without asking"
    );
}

#[test]
fn ziggurat_sentinels_warp_is_a_combat_move_then_maybe_a_standard_one() {
    let (mut game, _) = later(
        "ziggurat-sentinel",
        "c4=1c",
        &[mv("c4", "c3"), mv("c3", "d2")],
    );
    warp(&mut game, "ziggurat-sentinel");
    assert_eq!(arena(&game), "d2=1c");
    // a first move that destroys a piece of equal rank ends it
    let (mut game, _) = later("ziggurat-sentinel", "c4=1c c3=2c", &[mv("c4", "c3")]);
    warp(&mut game, "ziggurat-sentinel");
    assert_eq!(arena(&game), "c3=1c");
}

// ----- Iris of Eternity
#[test]
fn iris_of_eternity_made_legendary_counts_as_a_legend_summoned() {
    let pieces = pattern_at("etherweave/iris-of-eternity", "g5");
    let (mut game, _) = later("iris-of-eternity", &pieces, &[label("upgrade the Iris")]);
    for _ in 0..2 {
        let l = game.state.legend_deck.pop().unwrap();
        game.state.legend_hand[0].push(l);
    }
    summon(&mut game, "g5", 0);
    assert_eq!(game.state.piece_at(sq("g5")), Some((0, 2)));
    assert_eq!(game.state.dm_points[0], 1);
    assert!(game.state.legend_hand[0].is_empty());
    assert_eq!(game.state.counters.summoned, vec![(sq("g5"), 2)]);
}

#[test]
fn iris_of_eternity_may_destroy_an_adjacent_legend_instead() {
    let pieces = format!("h5=2l {}", pattern_at("etherweave/iris-of-eternity", "g5"));
    let answers = [label("destroy an adjacent legendary piece")];
    let (mut game, _) = later("iris-of-eternity", &pieces, &answers);
    summon(&mut game, "g5", 0);
    assert_eq!(game.state.counters.destroyed, [0, 0, 1]);
    assert_eq!(game.state.piece_at(sq("g5")), Some((0, 1)));
}

#[test]
fn iris_of_eternity_offers_no_upgrade_to_a_player_with_three_legends_in_the_arena() {
    let pieces = format!(
        "a5=1l e1=1l e9=1l {}",
        pattern_at("etherweave/iris-of-eternity", "g5")
    );
    let (mut game, asked) = later("iris-of-eternity", &pieces, &[]);
    summon(&mut game, "g5", 0);
    assert!(asked.borrow().is_empty(), "nothing to choose");
    assert_eq!(game.state.piece_at(sq("g5")), Some((0, 1)));
}

// ----- Polarity Queen's warp
#[test]
fn polarity_queens_warp_places_a_common_next_to_an_enemy_piece() {
    let (mut game, asked) = later("polarity-queen", "a5=2c", &[Opt::Square(sq("a4"))]);
    warp(&mut game, "polarity-queen");
    assert_eq!(game.state.piece_at(sq("a4")), Some((0, 0)));
    assert_eq!(asked.borrow()[0].1.len(), 5);
}

// ----- whole games
// The strict random duels of every ordered pairing with an expansion deck, 1,000 per pairing and form, are
// in tests/expansions.rs (all 27 pairings of the six decks at once).

#[test]
fn strict_random_etherweave_melees_and_team_games_keep_every_invariant() {
    let cards = game_cards();
    for seed in 0..300u64 {
        let options = GameOptions {
            strict: true,
            ..GameOptions::default()
        };
        let seats = 3 + (seed % 2) as usize;
        let table: Vec<&str> = ["etherweave", "imperial", "sylvan", "highland"][..seats].to_vec();
        let players = (0..seats)
            .map(|i| make_strategy("random", i, seed).unwrap())
            .collect();
        Game::table(Arc::clone(&cards), DM, &table, players, seed, options)
            .unwrap()
            .play();
        let mode = if seed % 2 == 0 { DM } else { Mode::HighForm };
        let players = (0..4)
            .map(|i| make_strategy("random", i, seed).unwrap())
            .collect();
        let table = ["etherweave", "sylvan", "imperial", "etherweave"];
        Game::teams(Arc::clone(&cards), mode, &table, players, seed, options)
            .unwrap()
            .play();
    }
}

#[test]
fn the_lookahead_players_play_etherweave_without_panicking() {
    let cards = game_cards();
    let names = [
        "builder", "greedy", "hunter", "brawler", "planner", "mc", "expert",
    ];
    for (seed, name) in names.iter().enumerate() {
        let players = [
            make_strategy(name, 0, seed as u64).unwrap(),
            make_strategy("random", 1, seed as u64).unwrap(),
        ];
        let options = GameOptions {
            strict: true,
            max_turns: if seed < 4 { 40 } else { 16 },
            ..GameOptions::default()
        };
        let mode = if seed % 2 == 0 { DM } else { Mode::HighForm };
        Game::new(
            Arc::clone(&cards),
            mode,
            DUEL,
            players,
            seed as u64,
            options,
        )
        .unwrap()
        .play();
    }
}

#[test]
fn a_being_past_the_warp_bitset_never_counts_as_warped() {
    // The bitset holds ids 0-127; a larger card set's being 128 must not read bit 0 (128 mod 128).
    let turn = crate::etherweave::WarpTurn {
        warped: 1 | 1 << 127,
        ..Default::default()
    };
    assert!(turn.was_warped(BeingId(0)) && turn.was_warped(BeingId(127)));
    assert!(!turn.was_warped(BeingId(128)) && !turn.was_warped(BeingId(255)));
}
