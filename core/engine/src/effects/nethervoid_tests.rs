//! Scenario tests of the Nethervoid deck: every card's text, the Gateway rules, Hell Hound's return,
//! possessed summoning, and strict random games with the deck in every form.

use std::sync::Arc;

use crate::cards::CardSet;
use crate::decisions::{Action, Kind, Opt};
use crate::effects::testing::{
    arena, being, mv, name, pattern_at, position, sq, sqs, summon, table, Asked,
};
use crate::game::{Game, GameOptions};
use crate::players::make_strategy;
use crate::ranks::{COMMON, HEROIC, LEGENDARY};
use crate::record::Event;
use crate::state::Mode;

fn cards() -> Arc<CardSet> {
    Arc::new(CardSet::from_json(include_str!("../../tests/data/cards.json")).expect("card set"))
}

// ----- strict random games

// The strict random duels of every ordered pairing with an expansion deck, 1,000 per pairing and form, are
// in tests/expansions.rs (all 27 pairings of the six decks at once).

#[test]
fn strict_random_melees_and_team_games_with_nethervoid_keep_every_invariant() {
    let cards = cards();
    let decks = ["nethervoid", "imperial", "sylvan", "highland", "nethervoid"];
    let options = GameOptions {
        strict: true,
        ..GameOptions::default()
    };
    for seed in 0..400u64 {
        let seats = 3 + (seed % 2) as usize;
        let table: Vec<&str> = (0..seats).map(|i| decks[(seed as usize + i) % 5]).collect();
        let players = (0..seats)
            .map(|i| make_strategy("random", i, seed).unwrap())
            .collect();
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
        let mode = if seed % 2 == 0 {
            Mode::HighForm
        } else {
            Mode::Deathmatch
        };
        let table: Vec<&str> = (0..4).map(|i| decks[(seed as usize + 2 * i) % 5]).collect();
        let players = (0..4)
            .map(|i| make_strategy("random", i, seed).unwrap())
            .collect();
        let mut game =
            Game::teams(Arc::clone(&cards), mode, &table, players, seed, options).unwrap();
        game.play();
    }
}

#[test]
fn the_lookahead_players_play_nethervoid_without_panicking() {
    let cards = cards();
    let options = GameOptions {
        strict: true,
        ..GameOptions::default()
    };
    for (i, name) in [
        "builder", "greedy", "hunter", "brawler", "planner", "mc", "expert",
    ]
    .into_iter()
    .enumerate()
    {
        for mode in [Mode::HighForm, Mode::Deathmatch] {
            let seed = i as u64;
            let players = [
                make_strategy(name, 0, seed).unwrap(),
                make_strategy("random", 1, seed).unwrap(),
            ];
            let mut game = Game::new(
                Arc::clone(&cards),
                mode,
                ["nethervoid", "nethervoid"],
                players,
                seed,
                options,
            )
            .unwrap();
            game.play();
        }
    }
}

// ----- scenarios

/// A High Form game (player 0 Nethervoid against Imperial) on turn 1 with player 0 holding `card`,
/// `pieces` on the arena ("e5=1c": seat 1 is player 0) and player 0's Gateway on `gateway`.
fn nv(card: &str, pieces: &str, gateway: Option<&str>, answers: &[Opt]) -> (Game<'static>, Asked) {
    nv_in(Mode::HighForm, card, pieces, gateway, answers)
}

fn nv_in(
    mode: Mode,
    card: &str,
    pieces: &str,
    gateway: Option<&str>,
    answers: &[Opt],
) -> (Game<'static>, Asked) {
    let (mut game, asked) = position(mode, ["nethervoid", "imperial"], card, pieces, answers);
    game.state.gateway[0] = gateway.map(sq);
    (game, asked)
}

/// `card`'s pattern (orientation 0) at `at` plus `more` pieces.
fn with_pattern(card: &str, at: &str, more: &str) -> String {
    format!("{} {more}", pattern_at(card, at))
}

fn gateway(game: &Game) -> Option<String> {
    game.state.gateway[0].map(name)
}

fn gateway_events(game: &Game) -> Vec<i8> {
    game.state
        .record
        .events
        .iter()
        .filter_map(|e| match *e {
            Event::Gateway { square, .. } => Some(square),
            _ => None,
        })
        .collect()
}

fn kinds(asked: &Asked) -> Vec<Kind> {
    asked.borrow().iter().map(|(k, _)| *k).collect()
}

fn options(asked: &Asked, i: usize) -> Vec<Opt> {
    asked.borrow()[i].1.clone()
}

// ----- the Gateway

#[test]
fn with_no_gateway_the_summoned_nethervoid_being_becomes_it_before_its_effect() {
    let card = "nethervoid/flame-imp";
    let pieces = with_pattern(card, "e5", "f5=2c g7=2c");
    let (mut game, asked) = nv(card, &pieces, None, &[Opt::Square(sq("f5"))]);
    summon(&mut game, "e5", 0);
    assert_eq!(gateway(&game).as_deref(), Some("e5"));
    assert_eq!(gateway_events(&game), [sq("e5") as i8]);
    // the effect already sees the new Gateway: commons next to e5
    let mut want = sqs(&["f5", "d6"]);
    want.push(Opt::None);
    assert_eq!(options(&asked, 0), want);
    assert!(!crate::effects::testing::has(&game, "f5"));
}

#[test]
fn a_heroic_being_takes_a_common_gateway_but_not_a_heroic_one() {
    let card = "nethervoid/hell-rider";
    let pieces = with_pattern(card, "e5", "c2=1c");
    let (mut game, _) = nv(card, &pieces, Some("c2"), &[Opt::None]);
    summon(&mut game, "e5", 0);
    assert_eq!(gateway(&game).as_deref(), Some("e5"));
    let pieces = with_pattern(card, "e5", "c2=1h");
    let (mut game, _) = nv(card, &pieces, Some("c2"), &[Opt::None]);
    summon(&mut game, "e5", 0);
    assert_eq!(gateway(&game).as_deref(), Some("c2"));
    assert!(gateway_events(&game).is_empty());
}

#[test]
fn a_common_being_leaves_a_common_gateway_where_it_is() {
    let card = "nethervoid/flame-imp";
    let pieces = with_pattern(card, "e5", "g7=1c");
    let (mut game, _) = nv(card, &pieces, Some("g7"), &[Opt::None]);
    summon(&mut game, "e5", 0);
    assert_eq!(gateway(&game).as_deref(), Some("g7"));
}

#[test]
fn oversummoning_the_gateway_hands_the_status_to_the_new_being() {
    let card = "nethervoid/shadow-imp";
    let pieces = with_pattern(card, "e5", "e5=1c");
    let (mut game, _) = nv(card, &pieces, Some("e5"), &[Opt::None]);
    summon(&mut game, "e5", 0);
    assert_eq!(gateway(&game).as_deref(), Some("e5"));
    assert_eq!(gateway_events(&game), [-1, sq("e5") as i8]);
}

#[test]
fn legends_and_beings_of_other_decks_never_become_the_gateway() {
    let (mut game, _) = nv("nethervoid/flame-imp", "e5=1h", None, &[]);
    let cards = Arc::clone(&game.state.cards);
    for id in ["legend/hell-bull", "imperial/swordmaster"] {
        let b = cards.being(being(&game, id));
        super::nethervoid::gateway_on_summon(&mut game.state, 0, b, sq("e5"));
        assert_eq!(gateway(&game), None, "{id}");
    }
}

#[test]
fn the_gateway_follows_its_piece_keeps_through_a_downgrade_and_is_lost_when_legendary_or_destroyed()
{
    let (mut game, _) = nv("nethervoid/flame-imp", "e5=1h e6=2h", Some("e5"), &[]);
    let s = &mut game.state;
    s.move_piece(sq("e5"), sq("e6"), "test");
    assert_eq!(s.gateway[0], Some(sq("e6")));
    s.downgrade(sq("e6"), "test");
    s.upgrade(sq("e6"), "test");
    assert_eq!(s.gateway[0], Some(sq("e6")));
    s.upgrade(sq("e6"), "test");
    assert_eq!(s.gateway[0], None, "a legendary piece is never the Gateway");
    s.check_invariants().unwrap();
    s.gateway[0] = Some(sq("e5"));
    s.put(0, HEROIC, sq("e5"));
    s.destroy(sq("e5"), "test", true);
    assert_eq!(s.gateway[0], None);
    // an enemy piece moving onto it destroys it
    s.put(0, COMMON, sq("d4"));
    s.put(1, COMMON, sq("d3"));
    s.set_gateway(0, sq("d4"));
    s.move_piece(sq("d3"), sq("d4"), "test");
    assert_eq!(s.gateway[0], None);
    s.check_invariants().unwrap();
}

#[test]
fn the_gateway_is_lost_when_its_piece_is_picked_up_for_a_place_action() {
    let (mut game, _) = nv(
        "nethervoid/flame-imp",
        "e5=1c",
        Some("e5"),
        &[Opt::Square(sq("e5")), Opt::Square(sq("a5"))],
    );
    game.state.tokens[0] = 0;
    game.state.token_total[0] = 1;
    game.ask_all = true;
    game.place_action(0);
    assert_eq!(gateway(&game), None);
    assert_eq!(arena(&game), "a5=1c");
}

#[test]
fn stasis_suspends_the_gateway_until_its_piece_returns_unless_a_new_one_appeared() {
    use super::nethervoid::{gateway_from_stasis, gateway_to_stasis};
    let (mut game, _) = nv("nethervoid/flame-imp", "e5=1h", Some("e5"), &[]);
    let s = &mut game.state;
    gateway_to_stasis(s, sq("e5"));
    assert_eq!((s.gateway[0], s.gateway_suspended[0]), (None, true));
    gateway_from_stasis(s, 0, sq("c3"));
    assert_eq!(
        (s.gateway[0], s.gateway_suspended[0]),
        (Some(sq("c3")), false)
    );
    gateway_to_stasis(s, sq("c3"));
    s.set_gateway(0, sq("g7"));
    gateway_from_stasis(s, 0, sq("c3"));
    assert_eq!(
        (s.gateway[0], s.gateway_suspended[0]),
        (Some(sq("g7")), false)
    );
}

#[test]
fn the_merchant_of_time_suspends_a_gateway_it_lifts_and_brings_it_back_with_its_piece() {
    use crate::etherweave::{put_in_stasis, release};
    let (mut game, _) = nv("nethervoid/flame-imp", "e5=1h", Some("e5"), &[]);
    let s = &mut game.state;
    put_in_stasis(s, 1, sq("e5"), "etherweave/merchant-of-time");
    assert_eq!((s.gateway[0], s.gateway_suspended[0]), (None, true));
    assert_eq!(s.stasis[1], Some((0, HEROIC)));
    release(s, 1, sq("c3"), "etherweave/merchant-of-time");
    assert_eq!(
        (s.gateway[0], s.gateway_suspended[0]),
        (Some(sq("c3")), false)
    );
    assert_eq!(s.piece_at(sq("c3")), Some((0, HEROIC)));
}

#[test]
fn a_gateway_keeps_its_status_through_a_swap() {
    let (mut game, _) = nv("nethervoid/flame-imp", "e5=1h c3=2h", Some("e5"), &[]);
    let s = &mut game.state;
    crate::etherweave::swap(s, sq("c3"), sq("e5"), "etherweave/paradox-worm");
    assert_eq!(s.gateway[0], Some(sq("c3")));
    assert_eq!(s.piece_at(sq("c3")), Some((0, HEROIC)));
    s.check_invariants().unwrap();
}

// ----- the cards

#[test]
fn shadow_imp_steps_and_the_gateway_follows_the_same_way() {
    let card = "nethervoid/shadow-imp";
    let pieces = with_pattern(card, "e5", "c7=1h");
    let (mut game, asked) = nv(card, &pieces, Some("c7"), &[mv("e5", "e4"), mv("c7", "c6")]);
    summon(&mut game, "e5", 0);
    assert_eq!(options(&asked, 1), [mv("c7", "c6"), Opt::None]);
    assert_eq!(gateway(&game).as_deref(), Some("c6"));
    assert_eq!(arena(&game), "d4=1c e4=1c f5=1c c6=1h");
}

#[test]
fn shadow_imp_as_the_gateway_or_with_the_way_blocked_moves_alone() {
    let card = "nethervoid/shadow-imp";
    let pieces = with_pattern(card, "e5", "");
    let (mut game, asked) = nv(card, &pieces, None, &[mv("e5", "e4")]);
    summon(&mut game, "e5", 0);
    assert_eq!(asked.borrow().len(), 1);
    assert_eq!(gateway(&game).as_deref(), Some("e4"));
    let pieces = with_pattern(card, "e5", "c7=1h c6=2l");
    let (mut game, asked) = nv(card, &pieces, Some("c7"), &[mv("e5", "e4")]);
    summon(&mut game, "e5", 0);
    assert_eq!(asked.borrow().len(), 1);
    assert_eq!(gateway(&game).as_deref(), Some("c7"));
}

#[test]
fn flame_imp_burns_only_commons_next_to_the_gateway() {
    let card = "nethervoid/flame-imp";
    let pieces = with_pattern(card, "e5", "h5=1h g4=2c g6=2h i5=2c f5=2c");
    let (mut game, asked) = nv(card, &pieces, Some("h5"), &[Opt::Square(sq("g4"))]);
    summon(&mut game, "e5", 0);
    assert_eq!(
        options(&asked, 0),
        [Opt::Square(sq("g4")), Opt::Square(sq("i5")), Opt::None]
    );
    assert!(!crate::effects::testing::has(&game, "g4"));
}

#[test]
fn gate_keeper_upgrades_a_common_piece_or_places_one_and_it_becomes_the_gateway() {
    let card = "nethervoid/gate-keeper";
    let pieces = with_pattern(card, "e5", "c3=1h");
    let (mut game, asked) = nv(card, &pieces, Some("c3"), &[Opt::Square(sq("d5"))]);
    summon(&mut game, "e5", 0);
    assert_eq!(kinds(&asked), [Kind::Square]);
    assert!(
        options(&asked, 0).contains(&Opt::Square(sq("e5"))),
        "itself"
    );
    assert!(
        !options(&asked, 0).contains(&Opt::Square(sq("c3"))),
        "a heroic piece"
    );
    assert_eq!(game.state.piece_at(sq("d5")), Some((0, HEROIC)));
    assert_eq!(gateway(&game).as_deref(), Some("d5"));
    let (mut game, _) = nv(card, &pieces, Some("c3"), &[Opt::Square(sq("i5"))]);
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("i5")), Some((0, COMMON)));
    assert_eq!(gateway(&game).as_deref(), Some("i5"));
    let (mut game, _) = nv(card, &pieces, Some("c3"), &[Opt::None]);
    summon(&mut game, "e5", 0);
    assert_eq!(gateway(&game).as_deref(), Some("c3"));
}

#[test]
fn gluttony_upgrades_after_a_meal_and_takes_the_gateway_after_a_second() {
    let card = "nethervoid/demon-of-gluttony";
    let pieces = with_pattern(card, "e5", "a5=1h e4=2c e3=2h");
    let answers = [mv("e5", "e4"), mv("e4", "e3")];
    let (mut game, _) = nv(card, &pieces, Some("a5"), &answers);
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("e3")), Some((0, HEROIC)));
    assert_eq!(gateway(&game).as_deref(), Some("e3"));
    // an empty square first: no upgrade, no second move
    let (mut game, asked) = nv(card, &pieces, Some("a5"), &[mv("e5", "f4")]);
    summon(&mut game, "e5", 0);
    assert_eq!(asked.borrow().len(), 1);
    assert_eq!(game.state.piece_at(sq("f4")), Some((0, COMMON)));
    // one meal, then a step onto an empty square: heroic but not the Gateway
    let (mut game, _) = nv(card, &pieces, Some("a5"), &[mv("e5", "e4"), mv("e4", "d4")]);
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("d4")), Some((0, HEROIC)));
    assert_eq!(gateway(&game).as_deref(), Some("a5"));
}

#[test]
fn pride_turns_heroic_takes_the_gateway_and_may_step() {
    let card = "nethervoid/demon-of-pride";
    let pieces = with_pattern(card, "e5", "c3=1h e4=2h");
    let (mut game, _) = nv(card, &pieces, Some("c3"), &[mv("e5", "e4")]);
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("e4")), Some((0, HEROIC)));
    assert_eq!(gateway(&game).as_deref(), Some("e4"));
}

#[test]
fn acolyte_of_destruction_needs_the_gateway_on_red_for_its_heroic_victim() {
    let card = "nethervoid/acolyte-of-destruction";
    let pieces = with_pattern(card, "e5", "h6=1h g5=2c g4=2h");
    let (mut game, asked) = nv(card, &pieces, Some("h6"), &sqs(&["g5", "g4"]));
    summon(&mut game, "e5", 0);
    assert_eq!(
        options(&asked, 1),
        [Opt::Square(sq("g4")), Opt::Square(sq("h6")), Opt::None]
    );
    assert!(!crate::effects::testing::has(&game, "g4"));
    assert_eq!(game.state.counters.destroyed, [1, 1, 0]);
    // the Gateway off red: only the common
    let pieces = with_pattern(card, "e5", "h5=1h g5=2c g4=2h");
    let (mut game, asked) = nv(card, &pieces, Some("h5"), &sqs(&["g5"]));
    summon(&mut game, "e5", 0);
    assert_eq!(asked.borrow().len(), 1);
    assert!(crate::effects::testing::has(&game, "g4"));
}

#[test]
fn acolyte_of_growth_adds_a_heroic_piece_with_the_gateway_on_green() {
    let card = "nethervoid/acolyte-of-growth";
    let pieces = with_pattern(card, "e5", "c3=1h");
    let (mut game, asked) = nv(card, &pieces, Some("c3"), &sqs(&["i5", "h5"]));
    summon(&mut game, "e5", 0);
    assert_eq!(options(&asked, 1), sqs(&["h4", "i4", "h5", "h6", "i6"]));
    assert_eq!(game.state.piece_at(sq("h5")), Some((0, HEROIC)));
    assert_eq!(game.state.piece_at(sq("i5")), Some((0, COMMON)));
    let pieces = with_pattern(card, "e5", "c4=1h");
    let (mut game, asked) = nv(card, &pieces, Some("c4"), &sqs(&["i5"]));
    summon(&mut game, "e5", 0);
    assert_eq!(asked.borrow().len(), 1);
}

#[test]
fn power_seeker_closes_in_on_the_gateway_and_may_take_it() {
    let card = "nethervoid/power-seeker";
    let pieces = with_pattern(card, "c5", "c8=1h");
    let answers = [mv("c5", "c6"), mv("c6", "c7"), mv("c7", "c8")];
    let (mut game, asked) = nv(card, &pieces, Some("c8"), &answers);
    summon(&mut game, "c5", 0);
    assert_eq!(
        options(&asked, 0),
        [mv("c5", "b6"), mv("c5", "c6"), mv("c5", "d6"), Opt::None]
    );
    assert_eq!(asked.borrow().len(), 3, "no Gateway left to approach");
    assert_eq!(gateway(&game), None);
    assert_eq!(game.state.piece_at(sq("c8")), Some((0, HEROIC)));
}

#[test]
fn power_seeker_as_the_gateway_takes_one_standard_step() {
    let card = "nethervoid/power-seeker";
    let pieces = with_pattern(card, "c5", "c4=2h");
    let (mut game, asked) = nv(card, &pieces, None, &[mv("c5", "b5")]);
    summon(&mut game, "c5", 0);
    assert!(
        !options(&asked, 0).contains(&mv("c5", "c4")),
        "standard: not onto a heroic piece"
    );
    assert_eq!(asked.borrow().len(), 1);
    assert_eq!(gateway(&game).as_deref(), Some("b5"));
}

#[test]
fn hell_hound_goes_under_the_deck_at_the_end_of_the_turn() {
    let card = "nethervoid/hell-hound";
    let pieces = with_pattern(card, "f5", "g5=2c");
    let (mut game, _) = nv(card, &pieces, None, &[Opt::Square(sq("g5"))]);
    summon(&mut game, "f5", 0);
    let hound = being(&game, card);
    assert_eq!(game.state.hound_return[0], Some(hound));
    assert!(!game.state.discarded[0].contains(&hound));
    game.end_turn(0);
    assert_eq!(game.state.hound_return[0], None);
    assert_eq!(game.state.deck[0][0], hound);
    assert!(game
        .state
        .record
        .events
        .iter()
        .any(|e| matches!(e, Event::UnderDeck { .. })));
    game.state.check_invariants().unwrap();
}

#[test]
fn hell_hound_is_discarded_after_a_legendary_victim_or_with_an_empty_deck() {
    let card = "nethervoid/hell-hound";
    let pieces = with_pattern(card, "f5", "g5=2l");
    let (mut game, _) = nv(card, &pieces, None, &[Opt::Square(sq("g5"))]);
    summon(&mut game, "f5", 0);
    let hound = being(&game, card);
    assert_eq!(game.state.hound_return[0], None);
    assert!(game.state.discarded[0].contains(&hound));
    // no victim at all still returns it; but not into an empty deck
    let (mut game, _) = nv(card, &pattern_at(card, "f5"), None, &[Opt::None]);
    summon(&mut game, "f5", 0);
    assert_eq!(game.state.hound_return[0], Some(hound));
    let deck = std::mem::take(&mut game.state.deck[0]);
    game.state.discarded[0].extend(deck);
    game.end_turn(0);
    assert!(game.state.discarded[0].contains(&hound));
    game.state.check_invariants().unwrap();
}

#[test]
fn vortex_master_moves_the_gateway_then_a_piece_next_to_it() {
    let card = "nethervoid/vortex-master";
    let pieces = with_pattern(card, "e7", "c3=1h");
    let (mut game, asked) = nv(card, &pieces, Some("c3"), &[mv("c3", "c4"), mv("d5", "d4")]);
    summon(&mut game, "e7", 0);
    assert!(options(&asked, 1)
        .iter()
        .all(|o| matches!(o, Opt::Move(s, _) if *s == sq("d5")) || *o == Opt::None));
    assert_eq!(gateway(&game).as_deref(), Some("c4"));
    assert_eq!(game.state.piece_at(sq("d4")), Some((0, COMMON)));
}

#[test]
fn gate_master_raises_a_heroic_gateway_to_legendary_for_a_legend_point_and_names_a_new_one() {
    let card = "nethervoid/gate-master";
    let pieces = with_pattern(card, "e5", "c3=1h");
    let (mut game, asked) = nv_in(
        Mode::Deathmatch,
        card,
        &pieces,
        Some("c3"),
        &[Opt::Square(sq("g5"))],
    );
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("c3")), Some((0, LEGENDARY)));
    assert_eq!(kinds(&asked), [Kind::Piece]);
    assert_eq!(
        options(&asked, 0),
        sqs(&["e4", "f4", "d5", "e5", "f5", "g5"])
    );
    assert_eq!(gateway(&game).as_deref(), Some("g5"));
    assert_eq!(game.state.dm_points[0], 1);
    assert_eq!(game.state.counters.summoned, [(sq("e5"), LEGENDARY)]);
    assert!(game
        .state
        .record
        .events
        .iter()
        .any(|e| matches!(e, Event::LegendCredit { .. })));
}

#[test]
fn gate_master_taking_a_common_gateway_raises_itself_to_legendary() {
    let card = "nethervoid/gate-master";
    let pieces = with_pattern(card, "e5", "c3=1c");
    let (mut game, _) = nv(card, &pieces, Some("c3"), &[Opt::Square(sq("c3"))]);
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("e5")), Some((0, LEGENDARY)));
    assert_eq!(gateway(&game).as_deref(), Some("c3"));
    // High Form: the legendary summoning task counts it as a legend, not as a second being
    let cond = crate::tasks::condition("summoned_2_one_legendary").unwrap();
    assert!(!cond(&game.state, 0));
    game.state.counters.summoned.insert(0, (sq("a5"), COMMON));
    assert!(cond(&game.state, 0));
}

#[test]
fn gate_master_without_a_legendary_piece_in_stock_upgrades_nothing_and_scores_nothing() {
    let card = "nethervoid/gate-master";
    let pieces = with_pattern(card, "e5", "c3=1h");
    let (mut game, _) = nv_in(
        Mode::Deathmatch,
        card,
        &pieces,
        Some("c3"),
        &[Opt::Square(sq("c3"))],
    );
    game.state.legend_stock[0] = 0;
    game.state.legend_total[0] = 0;
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("c3")), Some((0, HEROIC)));
    assert_eq!(game.state.dm_points[0], 0);
}

#[test]
fn gate_master_in_a_melee_scores_the_legend_point_in_a_chosen_colour() {
    let card = "nethervoid/gate-master";
    let pieces = format!("{} c3=1h", pattern_at(card, "e5"));
    let answers: &[Opt] = &[Opt::Square(sq("g5")), Opt::Seat(2)];
    let (mut game, asked) = table(
        &["nethervoid", "imperial", "sylvan"],
        card,
        &pieces,
        &[answers],
    );
    game.state.gateway[0] = Some(sq("c3"));
    summon(&mut game, "e5", 0);
    assert_eq!(
        asked[0].borrow()[1],
        (Kind::LegendColour, vec![Opt::Seat(1), Opt::Seat(2)])
    );
    assert_eq!(game.state.colour_points[0][2], 1);
}

#[test]
fn hell_rider_takes_three_combat_steps_or_one_as_the_gateway() {
    let card = "nethervoid/hell-rider";
    let pieces = with_pattern(card, "e5", "c3=1h");
    let answers = [mv("e5", "e4"), mv("e4", "e3"), mv("e3", "e2")];
    let (mut game, _) = nv(card, &pieces, Some("c3"), &answers);
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.piece_at(sq("e2")), Some((0, HEROIC)));
    let (mut game, asked) = nv(card, &pieces, None, &[mv("e5", "e4")]);
    game.state.gateway[0] = None;
    summon(&mut game, "e5", 0);
    assert_eq!(asked.borrow().len(), 1, "one step only");
    assert_eq!(gateway(&game).as_deref(), Some("e4"));
}

#[test]
fn wrath_wipes_the_enemy_commons_around_the_gateway() {
    let card = "nethervoid/demon-of-wrath";
    let pieces = with_pattern(card, "e5", "c3=1h b3=2c c4=2c d3=2h b2=1c");
    let (mut game, asked) = nv(card, &pieces, Some("c3"), &[]);
    summon(&mut game, "e5", 0);
    assert!(asked.borrow().is_empty());
    assert_eq!(
        arena(&game),
        "b2=1c c3=1h d3=2h e5=1h f5=1c d6=1c f6=1c e7=1c"
    );
}

#[test]
fn wrath_with_no_enemy_common_around_lets_the_gateway_step_first() {
    let card = "nethervoid/demon-of-wrath";
    let pieces = with_pattern(card, "e5", "c3=1h b5=2c");
    let (mut game, asked) = nv(card, &pieces, Some("c3"), &[mv("c3", "c4")]);
    summon(&mut game, "e5", 0);
    assert_eq!(kinds(&asked), [Kind::Move]);
    assert_eq!(gateway(&game).as_deref(), Some("c4"));
    assert!(!crate::effects::testing::has(&game, "b5"));
}

#[test]
fn greed_sacrifices_a_common_and_a_heroic_non_gateway_piece_for_two_actions() {
    let card = "nethervoid/demon-of-greed";
    let pieces = with_pattern(card, "e5", "c3=1h");
    let (mut game, asked) = nv(card, &pieces, Some("c3"), &[Opt::Square(sq("d4"))]);
    summon(&mut game, "e5", 0);
    assert_eq!(
        kinds(&asked),
        [Kind::Destroy],
        "the Greed is the only heroic piece left to take"
    );
    assert_eq!(arena(&game), "c3=1h e4=1c d6=1c f6=1c");
    assert_eq!(game.state.actions_left, 2);
    assert_eq!(game.state.counters.destroyed, [0, 0, 0]);
}

#[test]
fn greed_as_the_gateway_spares_itself() {
    let card = "nethervoid/demon-of-greed";
    let pieces = with_pattern(card, "e5", "");
    let (mut game, _) = nv(card, &pieces, None, &[Opt::Square(sq("d4"))]);
    summon(&mut game, "e5", 0);
    assert_eq!(gateway(&game).as_deref(), Some("e5"));
    assert_eq!(
        game.state.actions_left, 1,
        "no heroic non-Gateway piece: one action"
    );
}

#[test]
fn lust_draws_two_pieces_towards_the_gateway_never_onto_it() {
    let card = "nethervoid/demon-of-lust";
    let pieces = with_pattern(card, "e5", "a5=1h b4=1c c5=2c c7=2h");
    let (mut game, asked) = nv(card, &pieces, Some("a5"), &[mv("c5", "b5"), mv("c7", "b6")]);
    summon(&mut game, "e5", 0);
    let first = options(&asked, 0);
    assert!(!first
        .iter()
        .any(|o| matches!(o, Opt::Move(_, t) if *t == sq("a5"))));
    assert!(!first
        .iter()
        .any(|o| matches!(o, Opt::Move(s, _) if *s == sq("b4"))));
    assert!(
        first.contains(&mv("c5", "b4")),
        "onto a piece of the same rank"
    );
    let second = options(&asked, 1);
    assert!(
        !second
            .iter()
            .any(|o| matches!(o, Opt::Move(s, _) if *s == sq("b5"))),
        "moved already"
    );
    assert_eq!(game.state.piece_at(sq("b6")), Some((1, HEROIC)));
}

/// A piece drawn once is not drawn again, even where it could come closer still.
#[test]
fn lust_draws_a_piece_only_once() {
    let card = "nethervoid/demon-of-lust";
    let pieces = with_pattern(card, "e5", "a5=1h d5=2h");
    let (mut game, asked) = nv(card, &pieces, Some("a5"), &[mv("d5", "c5"), Opt::None]);
    summon(&mut game, "e5", 0);
    assert!(options(&asked, 0).contains(&mv("d5", "c5")));
    let second = options(&asked, 1);
    assert!(
        !second
            .iter()
            .any(|o| matches!(o, Opt::Move(s, _) if *s == sq("c5"))),
        "drawn already: {second:?}"
    );
    assert!(second.len() > 1, "other pieces may still be drawn");
    assert_eq!(game.state.piece_at(sq("c5")), Some((1, HEROIC)));
}

#[test]
fn sloth_spends_an_action_or_destroys_the_gateway_on_the_last_one() {
    let card = "nethervoid/demon-of-sloth";
    let pieces = with_pattern(card, "e5", "c3=1h");
    let (mut game, _) = nv(card, &pieces, Some("c3"), &[]);
    game.state.actions_left = 2;
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.actions_left, 0);
    assert_eq!(gateway(&game).as_deref(), Some("c3"));
    let (mut game, _) = nv(card, &pieces, Some("c3"), &[]);
    summon(&mut game, "e5", 0);
    assert_eq!(gateway(&game), None);
    assert!(!crate::effects::testing::has(&game, "c3"));
    // as the Gateway itself, it destroys itself
    let (mut game, _) = nv(card, &pattern_at(card, "e5"), None, &[]);
    summon(&mut game, "e5", 0);
    assert!(!crate::effects::testing::has(&game, "e5"));
}

#[test]
fn envy_places_next_to_the_gateway_until_no_opponent_has_more_pieces() {
    let card = "nethervoid/demon-of-envy";
    let pieces = with_pattern(card, "e5", "c3=1h g8=2c h8=2c g9=2c h7=2c i6=2c i5=2c");
    let (mut game, asked) = nv(card, &pieces, Some("c3"), &sqs(&["b3", "c4"]));
    summon(&mut game, "e5", 0);
    assert_eq!(asked.borrow().len(), 2);
    assert_eq!(game.state.mine(0).count_ones(), 6);
    // even level: one placement
    let pieces = with_pattern(card, "e5", "c3=1h");
    let (mut game, asked) = nv(card, &pieces, Some("c3"), &sqs(&["b3"]));
    summon(&mut game, "e5", 0);
    assert_eq!(asked.borrow().len(), 1);
}

#[test]
fn possessed_summoner_plants_an_enemy_common_and_may_trade_the_flare_for_an_action() {
    let card = "nethervoid/possessed-summoner";
    let pieces = with_pattern(card, "e5", "c3=1h g3=2c");
    let flare = Opt::Flare(crate::cards::FlareId(0));
    let (mut game, asked) = nv(card, &pieces, Some("c3"), &[Opt::Square(sq("h3")), flare]);
    game.state.flare_deck.retain(|&f| f.0 != 0);
    game.state.flare_hand[0].push(crate::cards::FlareId(0));
    summon(&mut game, "e5", 0);
    assert_eq!(
        options(&asked, 0),
        sqs(&["f2", "g2", "h2", "f3", "h3", "f4", "g4", "h4"])
    );
    assert_eq!(game.state.piece_at(sq("h3")), Some((1, COMMON)));
    assert_eq!(game.state.possessed[0], Some(1));
    assert_eq!(options(&asked, 1), [flare, Opt::None]);
    assert!(game.state.flare_hand[0].is_empty());
    assert_eq!(game.state.flare_discard, [crate::cards::FlareId(0)]);
    assert_eq!(game.state.actions_left, 1);
    assert_eq!(game.state.score(1), 0, "discarding is not invoking");
}

#[test]
fn possessed_summoner_with_nowhere_to_plant_possesses_nothing() {
    let card = "nethervoid/possessed-summoner";
    let pieces = with_pattern(card, "e5", "c3=1h");
    let (mut game, asked) = nv(card, &pieces, Some("c3"), &[]);
    summon(&mut game, "e5", 0);
    assert!(asked.borrow().is_empty());
    assert_eq!(game.state.possessed[0], None);
}

// ----- possessed summoning

#[test]
fn a_possessed_summoning_takes_its_pattern_from_the_enemy_colour_only_and_ends_with_it() {
    let card = "nethervoid/flame-imp";
    // the enemy's pieces form the pattern at e5, the player's own at e8
    let pieces = "c5=2c d6=2c c8=1c d9=1c";
    let (mut game, _) = nv(card, pieces, None, &[Opt::None]);
    let imp = being(&game, card);
    let origin_of = |game: &Game| -> Vec<String> {
        let cards = Arc::clone(&game.state.cards);
        game.legal_placements(0, imp)
            .into_iter()
            .map(|i| cards.being(imp).placements[i as usize].clone())
            .filter(|p| p.orientation == 0)
            .map(|p| name(p.origin))
            .collect()
    };
    assert_eq!(origin_of(&game), ["e8"]);
    game.state.possessed[0] = Some(1);
    assert_eq!(origin_of(&game), ["e5"]);
    assert!(game.has_placement(0, imp));
    summon(&mut game, "e5", 0);
    assert_eq!(
        game.state.piece_at(sq("e5")),
        Some((0, COMMON)),
        "the being is the player's"
    );
    assert_eq!(game.state.possessed[0], None, "used by the summoning");
}

#[test]
fn possession_lasts_through_other_actions_and_ends_with_the_turn() {
    let (mut game, _) = nv("nethervoid/flame-imp", "c5=2c d6=2c", None, &[]);
    game.state.possessed[0] = Some(1);
    game.state.active = 0;
    let imp = being(&game, "nethervoid/flame-imp");
    assert!(game
        .action_options(0)
        .contains(&Opt::Action(Action::Summon(imp))));
    game.state.possessed = [None; crate::state::MAX_SEATS];
    assert!(!game
        .action_options(0)
        .contains(&Opt::Action(Action::Summon(imp))));
    // the next turn starts without it: its first action decision offers no summon
    let (mut game, asked) = nv(
        "nethervoid/flame-imp",
        "c5=2c d6=2c",
        None,
        &[
            Opt::Action(Action::Place),
            Opt::Square(sq("a5")),
            Opt::Action(Action::Place),
            Opt::Square(sq("i5")),
        ],
    );
    game.state.possessed[0] = Some(1);
    game.state.turn = 1;
    game.play_turn();
    assert_eq!(game.state.possessed[0], None);
    assert!(!options(&asked, 0).contains(&Opt::Action(Action::Summon(imp))));
}

#[test]
fn a_melee_possessed_summoner_picks_the_colour_with_the_square() {
    let card = "nethervoid/possessed-summoner";
    let pieces = format!("{} c3=1h g3=2c a5=3c", pattern_at(card, "e5"));
    let answers: &[Opt] = &[Opt::SeatSquare(2, sq("b4"))];
    let (mut game, asked) = table(
        &["nethervoid", "imperial", "sylvan"],
        card,
        &pieces,
        &[answers],
    );
    game.state.gateway[0] = Some(sq("c3"));
    summon(&mut game, "e5", 0);
    let opts = asked[0].borrow()[0].1.clone();
    assert!(
        opts.contains(&Opt::SeatSquare(1, sq("h3")))
            && opts.contains(&Opt::SeatSquare(2, sq("b4")))
    );
    assert_eq!(game.state.possessed[0], Some(2));
    assert_eq!(game.state.piece_at(sq("b4")), Some((2, COMMON)));
}

#[test]
fn a_team_members_waiting_hell_hound_swaps_with_his_cards() {
    let cards = cards();
    let players = (0..4)
        .map(|i| make_strategy("random", i, 1).unwrap())
        .collect();
    let mut game = Game::teams(
        cards,
        Mode::HighForm,
        &["nethervoid", "imperial", "sylvan", "highland"],
        players,
        1,
        GameOptions::default(),
    )
    .unwrap();
    game.setup();
    let hound = being(&game, "nethervoid/hell-hound");
    let s = &mut game.state;
    let side = 0;
    let holder = s.seat_of(side);
    // the Nethervoid member's card waits in his slot
    if s.deck[side].contains(&hound) || s.hand[side].contains(&hound) {
        s.deck[side].retain(|&c| c != hound);
        s.hand[side].retain(|&c| c != hound);
    } else {
        let t = s.teams.as_deref_mut().unwrap();
        t.bench[side].deck.retain(|&c| c != hound);
        t.bench[side].hand.retain(|&c| c != hound);
    }
    let nether_seat = 0;
    s.hold(nether_seat);
    s.hound_return[side] = Some(hound);
    s.check_invariants().unwrap();
    s.swap_members(side);
    assert_eq!(s.hound_return[side], None);
    assert_eq!(
        s.teams.as_deref().unwrap().bench[side].hound_return,
        Some(hound)
    );
    s.check_invariants().unwrap();
    let _ = holder;
}
