//! Everfrost: scenario tests of the deck's rules (the frozen effect, thawing as a free play, the
//! keep-one choice, Frostweave summoning, removal from the game, the action loss) and strict random
//! games with the deck in duels, melees and team games. The cards' own tests are in
//! `effects/everfrost.rs`.

use std::sync::Arc;

use crate::cards::{BeingId, CardSet};
use crate::decisions::{Action, Kind, Opt};
use crate::effects::testing::{arena, being, pattern_at, placement, position, sq, summon, Asked};
use crate::everfrost;
use crate::game::{remove_first, Game, GameOptions};
use crate::players::make_strategy;
use crate::record::Event;
use crate::state::Mode;

const THAW: Opt = Opt::Action(Action::Thaw);
const END: Opt = Opt::Action(Action::End);

/// A HighForm duel on turn 1, player 0 (Everfrost) to act holding `card`, `pieces` on the arena and
/// `frozen` in play (taken from the deck).
fn game_with(
    card: &str,
    pieces: &str,
    frozen: Option<&str>,
    answers: &[Opt],
) -> (Game<'static>, Asked) {
    let (mut game, asked) = position(
        Mode::HighForm,
        ["everfrost", "imperial"],
        &format!("everfrost/{card}"),
        pieces,
        answers,
    );
    if let Some(f) = frozen {
        let id = being(&game, &format!("everfrost/{f}"));
        remove_first(&mut game.state.deck[0], id);
        game.state.frozen[0] = Some(id);
    }
    (game, asked)
}

fn id(game: &Game, name: &str) -> BeingId {
    being(game, &format!("everfrost/{name}"))
}

fn count(game: &Game, kind: &str) -> usize {
    game.state
        .record
        .events
        .iter()
        .filter(|e| e.kind() == kind)
        .count()
}

// ----- the frozen effect in play

#[test]
fn a_frozen_card_goes_into_the_empty_slot_without_a_choice() {
    let pieces = pattern_at("everfrost/winter-whisperer", "e5");
    let (mut game, asked) = game_with("winter-whisperer", &pieces, None, &[]);
    summon(&mut game, "e5", 0);
    assert!(asked.borrow().is_empty());
    assert_eq!(game.state.frozen[0], Some(id(&game, "winter-whisperer")));
    assert!(game.state.discarded[0].is_empty());
}

#[test]
fn with_a_frozen_effect_in_play_the_player_keeps_one_of_the_two() {
    let pieces = pattern_at("everfrost/winter-whisperer", "e5");
    for keep_new in [false, true] {
        let (game, asked) = game_with("winter-whisperer", &pieces, Some("ice-princess"), &[]);
        let (old, new) = (id(&game, "ice-princess"), id(&game, "winter-whisperer"));
        let answer = Opt::Being(if keep_new { new } else { old });
        let (mut game, asked) = {
            drop((game, asked));
            game_with("winter-whisperer", &pieces, Some("ice-princess"), &[answer])
        };
        summon(&mut game, "e5", 0);
        assert_eq!(asked.borrow()[0].0, Kind::Card);
        assert_eq!(asked.borrow()[0].1, [Opt::Being(old), Opt::Being(new)]);
        let (kept, dropped) = if keep_new { (new, old) } else { (old, new) };
        assert_eq!(game.state.frozen[0], Some(kept));
        assert_eq!(game.state.discarded[0], [dropped]);
        assert_eq!(count(&game, "to_discard"), 1);
        assert_eq!(count(&game, "freeze"), keep_new as usize);
    }
}

#[test]
fn thawing_is_offered_before_and_after_actions_and_beside_end() {
    let (mut game, _) = game_with("snow-fox", "a5=1c", Some("crystal-grower"), &[]);
    game.state.actions_left = 2;
    let options = game.action_options(0);
    assert!(options.contains(&THAW) && !options.contains(&END));
    game.state.actions_left = 0;
    game.state.flare_used_this_turn = true;
    assert_eq!(game.action_options(0), [THAW, END]);
    game.state.frozen[0] = None;
    assert!(
        game.action_options(0).is_empty(),
        "nothing frozen: no thaw, the turn just ends"
    );
}

#[test]
fn a_card_may_be_thawed_on_the_turn_it_was_frozen_and_thawing_costs_no_action() {
    let pieces = format!("{} a5=1c", pattern_at("everfrost/crystal-grower", "e5"));
    let (mut game, _) = game_with("crystal-grower", &pieces, None, &[Opt::Square(sq("a5"))]);
    game.state.actions_left = 2;
    summon(&mut game, "e5", 0);
    assert_eq!(game.state.actions_left, 1);
    assert!(game.action_options(0).contains(&THAW));
    game.apply_action(0, Action::Thaw);
    assert_eq!(game.state.actions_left, 1);
    assert!(arena(&game).contains("a5=1h"));
    assert_eq!(game.state.discarded[0], [id(&game, "crystal-grower")]);
}

#[test]
fn a_frozen_effect_that_can_do_nothing_may_still_be_thawed_to_empty_the_slot() {
    let (mut game, _) = game_with("snow-fox", "", Some("ice-princess"), &[]);
    game.apply_action(0, Action::Thaw);
    assert_eq!(game.state.frozen[0], None);
    assert_eq!(count(&game, "thaw"), 1);
    game.state.check_invariants().unwrap();
}

#[test]
fn an_action_gained_by_thawing_in_the_end_step_reopens_the_action_phase() {
    let flare = crate::cards::FlareId(0);
    let (mut game, _) = game_with(
        "snow-fox",
        "a5=1c",
        Some("winter-whisperer"),
        &[Opt::Square(sq("a5")), Opt::Flare(flare)],
    );
    game.state.flare_deck.retain(|&f| f != flare);
    game.state.flare_hand[0] = vec![flare];
    game.state.actions_left = 0;
    game.state.flare_used_this_turn = true;
    assert_eq!(game.action_options(0), [THAW, END]);
    game.apply_action(0, Action::Thaw);
    assert_eq!(game.state.actions_left, 1);
    assert!(game.action_options(0).contains(&Opt::Action(Action::Place)));
}

#[test]
fn a_frozen_card_is_neither_in_hand_nor_in_the_deck() {
    let (mut game, _) = game_with("snow-fox", "", Some("ice-queen"), &[]);
    game.state.check_invariants().unwrap();
    let queen = id(&game, "ice-queen");
    // the refill draws up to 3 beings in hand: the frozen card is not one of them
    game.end_turn(0);
    assert_eq!(game.state.hand[0].len(), 3);
    assert!(!game.state.hand[0].contains(&queen) && !game.state.deck[0].contains(&queen));
    // strict mode counts it once: a frozen card also in the discard pile is caught
    game.state.discarded[0].push(queen);
    assert!(game.state.check_invariants().is_err());
}

// ----- Frostweave summoning

#[test]
fn the_frostweave_permission_survives_a_place_action_and_ends_at_the_next_thaw() {
    let (mut game, _) = game_with(
        "snow-fox",
        "a1=1c",
        Some("frostweave-summoner"),
        &[Opt::Square(sq("i5"))],
    );
    game.apply_action(0, Action::Thaw);
    assert!(game.state.counters.borrow_enemy_piece);
    game.state.actions_left = 2;
    game.apply_action(0, Action::Place);
    assert!(
        game.state.counters.borrow_enemy_piece,
        "a place action keeps it"
    );
    let grower = id(&game, "crystal-grower");
    remove_first(&mut game.state.deck[0], grower);
    game.state.frozen[0] = Some(grower);
    game.apply_action(0, Action::Thaw);
    assert!(
        !game.state.counters.borrow_enemy_piece,
        "another card effect starting ends it"
    );
}

#[test]
fn an_enemy_piece_on_the_summoning_cell_is_overwritten_and_counts_as_destroyed() {
    // Frozen Chest needs your common on e5; the enemy's stands in for it
    // (the Chest then offers the Summoner just thawed back from the discard pile: declined)
    let (mut game, _) = game_with(
        "frozen-chest",
        "d5=1c e5=2c f5=1c",
        Some("frostweave-summoner"),
        &[Opt::None],
    );
    game.apply_action(0, Action::Thaw);
    let chest = id(&game, "frozen-chest");
    let pl = placement(&game, chest, "e5");
    assert!(game.legal_placements(0, chest).contains(&pl));
    game.summon(0, chest, pl);
    assert!(arena(&game).contains("e5=1h"));
    assert_eq!(game.state.counters.destroyed, [1, 0, 0]);
}

// ----- removal from the game

#[test]
fn a_removed_piece_never_returns_to_its_owners_supply() {
    let pieces = format!("{} e4=2c", pattern_at("everfrost/deathbringer", "e5"));
    let (mut game, _) = game_with("deathbringer", &pieces, None, &[Opt::Square(sq("e4"))]);
    let before = game.state.tokens[1];
    summon(&mut game, "e5", 0);
    let s = &game.state;
    assert_eq!(
        (s.tokens[1], s.token_total[1], s.removed[1]),
        (before, 16, [1, 0])
    );
    assert_eq!(
        s.counters.destroyed,
        [2, 0, 0],
        "an enemy piece counts as two destroyed"
    );
    let removed = s.record.events.iter().find_map(|e| match *e {
        Event::Remove {
            owner, rank, twice, ..
        } => Some((owner, rank, twice)),
        _ => None,
    });
    assert_eq!(removed, Some((1, 0, true)));
}

// ----- Everfrost Sentinel's action loss

#[test]
fn the_action_loss_cuts_each_other_players_next_turn_to_one_action() {
    let (mut game, _) = game_with("snow-fox", "", None, &[]);
    let s = &mut game.state;
    everfrost::cut_actions(s, 0, "everfrost/everfrost-sentinel");
    assert_eq!(s.action_loss, [0, 1, 0, 0]);
    s.active = 1;
    s.actions_left = 2;
    everfrost::start_turn(s);
    assert_eq!((s.actions_left, s.action_loss[1]), (1, 0));
    s.active = 0;
    s.actions_left = 2;
    everfrost::start_turn(s);
    assert_eq!(
        s.actions_left, 2,
        "the Everfrost player's own turn is untouched"
    );
}

#[test]
fn the_action_loss_ends_when_the_sentinels_owner_plays_again_first() {
    for (owner, other) in [(0, 1), (1, 0)] {
        let (mut game, _) = game_with("snow-fox", "", None, &[]);
        let s = &mut game.state;
        everfrost::cut_actions(s, owner, "everfrost/everfrost-sentinel");
        s.active = owner; // an extra turn of the Sentinel's owner comes first
        everfrost::start_turn(s);
        assert_eq!(s.action_loss, [0; 4], "owner {owner}");
        s.active = other;
        s.actions_left = 2;
        everfrost::start_turn(s);
        assert_eq!(s.actions_left, 2, "owner {owner}");
    }
}

#[test]
fn the_action_loss_through_a_whole_turn() {
    let pieces = format!("{} e5=2c", pattern_at("everfrost/everfrost-sentinel", "e5"));
    let (mut game, _) = game_with(
        "everfrost-sentinel",
        &pieces,
        None,
        &[Opt::Square(sq("e5"))],
    );
    summon(&mut game, "e5", 0);
    game.end_turn(0);
    assert_eq!(game.state.active, 1);
    // player 1's turn: one action only (it places, then must end)
    let s = &mut game.state;
    s.turn += 1;
    s.actions_left = 2;
    everfrost::start_turn(s);
    assert_eq!(s.actions_left, 1);
}

#[test]
fn the_strict_check_rejects_an_action_loss_aimed_at_its_owner_or_at_an_empty_seat() {
    for (p, loss) in [(0, 0b1), (1, 0b10), (1, 0b100), (0, 0b1000)] {
        let (mut game, _) = game_with("snow-fox", "", None, &[]);
        game.state.action_loss[p] = loss;
        let err = everfrost::check(&game.state).expect_err("a bad action loss");
        assert!(err.contains("action loss"), "{p} {loss:b}: {err}");
    }
    let (mut game, _) = game_with("snow-fox", "", None, &[]);
    game.state.action_loss[0] = 0b10;
    assert_eq!(everfrost::check(&game.state), Ok(()));
}

#[test]
fn the_strict_check_rejects_each_negative_count_of_pieces_alone() {
    let bad: [fn(&mut crate::state::GameState); 3] = [
        |s| s.removed[1] = [0, -1],
        |s| s.token_total[1] = -1,
        |s| s.legend_total[1] = -1,
    ];
    for (i, spoil) in bad.iter().enumerate() {
        let (mut game, _) = game_with("snow-fox", "", None, &[]);
        spoil(&mut game.state);
        let err = everfrost::check(&game.state).expect_err("a negative count");
        assert!(err.contains("removed pieces"), "{i}: {err}");
    }
}

// ----- team games: the frozen card is its member's

#[test]
fn a_team_members_frozen_card_goes_with_his_cards_to_the_bench() {
    let cards = cards();
    let players = (0..4)
        .map(|i| make_strategy("random", i, 3).unwrap())
        .collect();
    let mut game = Game::teams(
        cards,
        Mode::HighForm,
        &["everfrost", "imperial", "sylvan", "highland"],
        players,
        3,
        strict(),
    )
    .unwrap();
    game.setup();
    game.state.hold(0);
    let grower = game
        .state
        .cards
        .being_by_id("everfrost/crystal-grower")
        .unwrap();
    let s = &mut game.state;
    if let Some(i) = s.deck[0].iter().position(|&c| c == grower) {
        s.deck[0].remove(i);
    } else if let Some(i) = s.hand[0].iter().position(|&c| c == grower) {
        s.hand[0].remove(i);
    }
    s.frozen[0] = Some(grower);
    s.check_invariants().unwrap();
    s.swap_members(0); // seat 2 (Sylvan) holds the side's cards
    assert_eq!(s.frozen[0], None);
    assert_eq!(s.teams.as_ref().unwrap().bench[0].frozen, Some(grower));
    s.check_invariants().unwrap();
    s.swap_members(0);
    assert_eq!(s.frozen[0], Some(grower));
}

fn cards() -> Arc<CardSet> {
    Arc::new(CardSet::from_json(include_str!("../tests/data/cards.json")).expect("card set"))
}

// ----- whole games

fn strict() -> GameOptions {
    GameOptions {
        strict: true,
        ..GameOptions::default()
    }
}

// The strict random duels of every ordered pairing with an expansion deck, 1,000 per pairing and form, are
// in tests/expansions.rs (all 27 pairings of the six decks at once).

#[test]
fn strict_random_melees_with_everfrost_keep_every_invariant() {
    let cards = cards();
    let others = ["imperial", "highland", "sylvan", "everfrost"];
    for seats in [3, 4] {
        for seed in 0..1000u64 {
            let mut table: Vec<&str> = (1..seats)
                .map(|i| others[(seed as usize + i) % 4])
                .collect();
            table.insert(seed as usize % seats, "everfrost");
            let players = (0..seats)
                .map(|i| make_strategy("random", i, seed).unwrap())
                .collect();
            let mut game = Game::table(
                Arc::clone(&cards),
                Mode::Deathmatch,
                &table,
                players,
                seed,
                strict(),
            )
            .unwrap();
            game.play();
        }
    }
}

#[test]
fn strict_random_team_games_with_everfrost_keep_every_invariant() {
    let cards = cards();
    let others = ["imperial", "highland", "sylvan", "everfrost"];
    for mode in [Mode::HighForm, Mode::Deathmatch] {
        for seed in 0..500u64 {
            let mut table: Vec<&str> = (1..4).map(|i| others[(seed as usize + i) % 4]).collect();
            table.insert(seed as usize % 4, "everfrost");
            let players = (0..4)
                .map(|i| make_strategy("random", i, seed).unwrap())
                .collect();
            let mut game =
                Game::teams(Arc::clone(&cards), mode, &table, players, seed, strict()).unwrap();
            game.play();
        }
    }
}

#[test]
fn every_player_plays_games_with_everfrost_without_panicking() {
    let cards = cards();
    let names = [
        "builder", "greedy", "hunter", "brawler", "planner", "mc", "expert",
    ];
    for (i, name) in names.iter().enumerate() {
        for (j, mode) in [Mode::HighForm, Mode::Deathmatch].into_iter().enumerate() {
            let seed = (i * 2 + j) as u64;
            let decks = if j == 0 {
                ["everfrost", "imperial"]
            } else {
                ["sylvan", "everfrost"]
            };
            let players = [0, 1].map(|p| make_strategy(name, p, seed).unwrap());
            let options = GameOptions {
                strict: true,
                max_turns: if *name == "expert" || *name == "mc" {
                    12
                } else {
                    200
                },
                ..GameOptions::default()
            };
            let mut game =
                Game::new(Arc::clone(&cards), mode, decks, players, seed, options).unwrap();
            game.play();
        }
    }
}

#[test]
fn lookahead_players_play_melees_with_everfrost() {
    let cards = cards();
    for (seed, name) in ["builder", "hunter"].into_iter().enumerate() {
        let table = ["imperial", "everfrost", "sylvan"];
        let players = (0..3)
            .map(|i| make_strategy(name, i, seed as u64).unwrap())
            .collect();
        let mut game = Game::table(
            Arc::clone(&cards),
            Mode::Deathmatch,
            &table,
            players,
            seed as u64,
            strict(),
        )
        .unwrap();
        game.play();
    }
}
