//! Scenario tests of team games, 2 against 2 (../shared/MULTIPLAYER.md, "Team games"; the decisions in
//! docs/rules-decisions.md): seats and sides, the setup, sideways cards and the deck trigger, the legend
//! handover, passing control, team scoring, the end and strict random games.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

use crate::board::{self, bit};
use crate::cards::{BeingId, CardSet};
use crate::decisions::{Action, Decision, Kind, Opt, PlayerView, Strategy};
use crate::effects::testing::{pattern_at, sq};
use crate::game::{Game, GameOptions};
use crate::players::make_strategy;
use crate::ranks::{COMMON, HEROIC, LEGENDARY};
use crate::record::Event;
use crate::state::{EndTrigger, Mode, SIDEWAYS};

fn cards() -> Arc<CardSet> {
    Arc::new(CardSet::from_json(include_str!("../tests/data/cards.json")).expect("card set"))
}

/// One decision as a seat saw it: (seat, side, kind, options, the hand its view showed).
type Asked = (usize, usize, Kind, Vec<Opt>, Vec<BeingId>);
type Log = Rc<RefCell<Vec<Asked>>>;
/// Answers for the table, in order: (the seat that must be asked, the option it picks).
type Script = Rc<RefCell<VecDeque<(usize, Opt)>>>;

/// A seat that answers from the table's script while it lasts (failing if another seat is asked or the
/// answer is not offered), then takes the first option; every decision is logged.
struct Seat {
    seat: usize,
    log: Log,
    script: Script,
}

impl Strategy for Seat {
    fn name(&self) -> &str {
        "scripted"
    }
    fn choose(&mut self, view: &PlayerView, d: &Decision) -> usize {
        assert_eq!(
            view.seat(),
            self.seat,
            "the view shows another seat's cards"
        );
        self.log.borrow_mut().push((
            self.seat,
            d.player,
            d.kind,
            d.options.to_vec(),
            view.hand().to_vec(),
        ));
        match self.script.borrow_mut().pop_front() {
            Some((seat, answer)) => {
                assert_eq!(seat, self.seat, "{:?} asked of the wrong seat", d.kind);
                d.options
                    .iter()
                    .position(|&o| o == answer)
                    .unwrap_or_else(|| panic!("{answer:?} not among {:?}", d.options))
            }
            None => 0,
        }
    }
}

/// A team game of `decks` (by seat) set up with `seed`, strict, asking every decision; its log and
/// script.
fn team_game(mode: Mode, decks: [&str; 4], seed: u64) -> (Game<'static>, Log, Script) {
    let log: Log = Rc::default();
    let script: Script = Rc::default();
    let players = (0..4)
        .map(|seat| {
            Box::new(Seat {
                seat,
                log: Rc::clone(&log),
                script: Rc::clone(&script),
            }) as Box<dyn Strategy>
        })
        .collect();
    let options = GameOptions {
        strict: true,
        ask_all: true,
        ..GameOptions::default()
    };
    let game = Game::teams(cards(), mode, &decks, players, seed, options).unwrap();
    (game, log, script)
}

const IMPERIAL: [&str; 4] = ["imperial", "highland", "sylvan", "imperial"];

/// A set-up game whose next turn is `seat`'s with two actions, the arena empty but for `pieces`
/// ("e6=0c": side 0's common), and `card` in the seat's hand (taken from its deck).
fn turn_of(mode: Mode, seat: usize, card: &str, pieces: &str) -> (Game<'static>, Log, Script) {
    let (mut game, log, script) = team_game(mode, IMPERIAL, 1);
    game.setup();
    let s = &mut game.state;
    for side in 0..2 {
        for r in 0..3u8 {
            for q in board::bits(s.pieces[side][r as usize]) {
                s.lift(side, r, q);
            }
        }
    }
    for piece in pieces.split_whitespace() {
        let (at, what) = piece.split_once('=').expect("square=piece");
        let w = what.as_bytes();
        let rank = [COMMON, HEROIC, LEGENDARY][b"chl".iter().position(|&c| c == w[1]).unwrap()];
        s.put((w[0] - b'0') as usize, rank, sq(at));
    }
    s.hold(seat);
    s.hold((seat + 1) % 4);
    s.active = seat % 2;
    s.teams.as_deref_mut().unwrap().turn_seat = seat;
    s.turn = 4;
    s.actions_left = 2;
    if !card.is_empty() {
        let id = s.cards.being_by_id(card).expect("a being");
        let side = seat % 2;
        if let Some(i) = s.deck[side].iter().position(|&c| c == id) {
            s.deck[side].remove(i);
            let old = s.hand[side].remove(0);
            s.deck[side].insert(0, old);
            s.hand[side].push(id);
        } else {
            assert!(
                s.hand[side].contains(&id),
                "{card} not in seat {seat}'s deck"
            );
        }
    }
    s.check_invariants().expect("invariants");
    (game, log, script)
}

/// `card`'s pattern at `at` (orientation 0) in side `side`'s pieces, as `turn_of` pieces.
fn pattern(card: &str, at: &str, side: usize) -> String {
    pattern_at(card, at).replace("=1", &format!("={side}"))
}

fn placement_at(game: &Game, card: BeingId, at: &str) -> Opt {
    let b = game.state.cards.being(card);
    let i = b
        .placements
        .iter()
        .position(|p| p.origin == sq(at) && p.orientation == 0)
        .expect("a placement");
    Opt::Placement(card, i as u16)
}

fn id(game: &Game, card: &str) -> BeingId {
    game.state.cards.being_by_id(card).expect("a being")
}

const PASS: Opt = Opt::Action(Action::Pass);

// ----- setup and turn order

#[test]
fn setup_deals_each_seat_its_cards_and_the_earlier_teammates_the_legends() {
    for seed in 0..8 {
        let (mut game, _, _) = team_game(Mode::HighForm, IMPERIAL, seed);
        game.setup();
        let s = &game.state;
        let first = s.record.first_player;
        let t = s.teams.as_deref().unwrap();
        assert_eq!(t.turn_seat, first);
        assert_eq!(s.active, first % 2);
        // the first two seats hold their sides' cards; each player 3 beings and a flare
        assert_eq!(t.holder, {
            let mut h = [0; 2];
            h[first % 2] = first;
            h[(first + 1) % 2] = (first + 1) % 4;
            h
        });
        for side in 0..2 {
            assert_eq!((s.hand[side].len(), s.flare_hand[side].len()), (3, 1));
            assert_eq!(
                (t.bench[side].hand.len(), t.bench[side].flare_hand.len()),
                (3, 1)
            );
            assert_eq!(s.legend_hand[side].len(), 2, "the team's 2 legends");
            assert_eq!(s.tokens[side], 17);
            assert_eq!(s.legend_stock[side], 3);
        }
        // legends were drawn only by the first two seats
        let legend_draws: Vec<i8> = s
            .record
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Draw {
                    seat,
                    deck: crate::record::DrawDeck::Legend,
                    ..
                } => Some(*seat),
                _ => None,
            })
            .collect();
        let (a, b) = (first as i8, ((first + 1) % 4) as i8);
        assert_eq!(legend_draws, [a, a, b, b]);
        // each seat's own deck: seats 0 and 3 play Imperial, 1 Highland, 2 Sylvan
        for (seat, name) in IMPERIAL.iter().enumerate() {
            let side = seat % 2;
            let deck = if t.holder[side] == seat {
                s.decks[side]
            } else {
                t.bench[side].deck_index
            };
            assert_eq!(s.cards.decks[deck].name, *name);
        }
        assert_eq!(s.task_row.len(), 3);
    }
}

#[test]
fn deathmatch_stocks_and_the_last_seat_places_the_starting_pieces() {
    for seed in 0..6 {
        let (mut game, log, _) = team_game(Mode::Deathmatch, IMPERIAL, seed);
        game.setup();
        let s = &game.state;
        let first = s.record.first_player;
        let asked = log.borrow();
        let (seat, side, kind, _, _) = &asked[0];
        assert_eq!(*kind, Kind::StartSquare);
        assert_eq!(
            *seat,
            (first + 3) % 4,
            "the fourth player places the pieces"
        );
        assert_eq!(*side, (first + 1) % 2);
        assert_eq!(s.tokens, [15, 15, 0, 0]);
        assert_eq!(s.mine(0).count_ones() + s.mine(1).count_ones(), 2);
        let starts = board::DEATHMATCH_START;
        assert!(s.occupied() == bit(starts[0]) | bit(starts[1]));
    }
}

#[test]
fn turns_go_clockwise_so_the_teams_alternate() {
    let (mut game, _, _) = team_game(Mode::HighForm, IMPERIAL, 5);
    game.setup();
    let first = game.state.record.first_player;
    let mut seats = Vec::new();
    for _ in 0..8 {
        seats.push(game.state.teams.as_deref().unwrap().turn_seat);
        assert_eq!(
            game.state.seat_of(game.state.active),
            seats[seats.len() - 1]
        );
        game.play_turn();
    }
    let expected: Vec<usize> = (0..8).map(|i| (first + i) % 4).collect();
    assert_eq!(seats, expected);
    assert_eq!(game.state.turn, 8);
}

#[test]
fn every_seats_view_names_the_seat_whose_turn_it_is() {
    let (mut game, _, _) = team_game(Mode::HighForm, IMPERIAL, 5);
    game.setup();
    let first = game.state.record.first_player;
    for i in 0..4 {
        for me in 0..2 {
            let view = PlayerView::new(&game.state, me);
            assert_eq!(view.team_turn(), Some(((first + i) % 4, None)));
        }
        game.play_turn();
    }
}

// ----- the team's colour

#[test]
fn a_member_summons_with_pieces_his_teammate_placed() {
    // seat 3 (team B) summons the Swordmaster on pieces of team B's colour, placed by seat 1
    let pieces = pattern("imperial/swordmaster", "e5", 1);
    let (mut game, _, script) = turn_of(Mode::HighForm, 3, "imperial/swordmaster", &pieces);
    let card = id(&game, "imperial/swordmaster");
    let pl = placement_at(&game, card, "e5");
    script.borrow_mut().push_back((3, pl));
    game.apply_action(1, Action::Summon(card));
    assert_eq!(game.state.pieces[1][0] & bit(sq("e5")), bit(sq("e5")));
    let summon = game.state.record.events.iter().rev().find_map(|e| match e {
        Event::Summon { seat, .. } => Some(*seat),
        _ => None,
    });
    assert_eq!(summon, Some(3), "the record names the seat");
}

// ----- sideways cards and the deck trigger

#[test]
fn the_deck_trigger_is_the_last_upright_card() {
    let (mut game, _, _) = turn_of(Mode::HighForm, 0, "", "");
    let s = &mut game.state;
    while s.deck[0].len() > SIDEWAYS + 2 {
        let c = s.deck[0].pop().unwrap();
        s.discarded[0].push(c);
    }
    assert_eq!(s.upright(0), 2);
    let mut hand = std::mem::take(&mut s.hand[0]);
    s.discarded[0].append(&mut hand);
    let c = s.deck[0].pop().unwrap();
    s.hand[0].push(c); // 1 upright card left
    s.check_invariants().unwrap();
    game.end_turn(0); // draws 2: the last upright card, then a sideways one
    let s = &game.state;
    assert_eq!(s.end_trigger, Some(EndTrigger::Deck));
    assert_eq!(s.end_trigger_player, 0);
    let t = s.teams.as_deref().unwrap();
    assert_eq!(
        (t.bench[0].deck.len(), t.bench[0].hand.len()),
        (SIDEWAYS - 1, 3)
    );
}

#[test]
fn drawing_only_sideways_cards_triggers_nothing() {
    let (mut game, _, _) = turn_of(Mode::HighForm, 0, "", "");
    let s = &mut game.state;
    while s.deck[0].len() > SIDEWAYS {
        let c = s.deck[0].pop().unwrap();
        s.discarded[0].push(c);
    }
    let c = s.hand[0].remove(0);
    s.discarded[0].push(c);
    game.end_turn(0);
    assert_eq!(game.state.end_trigger, None);
}

#[test]
fn returned_cards_go_sideways_and_turn_the_lowest_upright_card_sideways() {
    let (mut game, _, _) = turn_of(Mode::HighForm, 0, "", "");
    let s = &mut game.state;
    while s.deck[0].len() > SIDEWAYS + 1 {
        let c = s.deck[0].pop().unwrap();
        s.discarded[0].push(c);
    }
    // a returned card goes to the bottom, sideways; the upright count stays
    let c = s.hand[0].remove(0);
    s.deck[0].insert(0, c);
    assert_eq!(
        s.upright(0),
        2,
        "the returned card is sideways, one sideways card turned up"
    );
    let c = s.hand[0].remove(0);
    game.state.discarded[0].push(c);
    // two draws take the two upright cards: the trigger, on the second
    game.end_turn(0);
    assert_eq!(game.state.end_trigger, Some(EndTrigger::Deck));
}

#[test]
fn a_deck_with_upright_cards_left_does_not_trigger() {
    let (mut game, _, _) = turn_of(Mode::HighForm, 0, "", "");
    let s = &mut game.state;
    while s.deck[0].len() > SIDEWAYS + 3 {
        let c = s.deck[0].pop().unwrap();
        s.discarded[0].push(c);
    }
    let c = s.hand[0].remove(0);
    s.discarded[0].push(c);
    let c = s.hand[0].remove(0);
    s.discarded[0].push(c);
    game.end_turn(0); // draws 2 of 3 upright cards
    assert_eq!(game.state.end_trigger, None);
    assert_eq!(game.state.teams.as_deref().unwrap().bench[0].hand.len(), 3);
}

// ----- whole games

/// `games` strict team games of random players in `mode` over rotating deck tables.
fn strict_random_games(mode: Mode, games: u64) {
    let decks = ["imperial", "sylvan", "highland"];
    let cards = cards();
    for seed in 0..games {
        let table: Vec<&str> = (0..4)
            .map(|i| decks[(seed as usize / (i + 1) + i) % 3])
            .collect();
        let players = (0..4)
            .map(|i| make_strategy("random", i, seed).unwrap())
            .collect();
        let options = GameOptions {
            strict: true,
            ..GameOptions::default()
        };
        let mut game =
            Game::teams(Arc::clone(&cards), mode, &table, players, seed, options).unwrap();
        game.play();
        let r = &game.state.record;
        assert_eq!(r.scores.len(), 2);
        assert!(r.winner < 2);
        for e in &r.events {
            let seat = *e.clone().seat_mut();
            assert!((-1..4).contains(&seat), "{e:?}");
        }
    }
}

#[test]
fn thousands_of_strict_random_high_form_team_games_keep_every_invariant() {
    strict_random_games(Mode::HighForm, 2000);
}

#[test]
fn thousands_of_strict_random_deathmatch_team_games_keep_every_invariant() {
    strict_random_games(Mode::Deathmatch, 2000);
}

// ----- passing control

/// The log's entries from `from` on: (seat, kind, options).
fn asked_since(log: &Log, from: usize) -> Vec<(usize, Kind, Vec<Opt>)> {
    log.borrow()[from..]
        .iter()
        .map(|(seat, _, kind, options, _)| (*seat, *kind, options.clone()))
        .collect()
}

fn pass_events(game: &Game) -> Vec<(i8, u8, &'static str)> {
    game.state
        .record
        .events
        .iter()
        .filter_map(|e| match *e {
            Event::PassControl {
                seat, to, during, ..
            } => Some((seat, to, during)),
            _ => None,
        })
        .collect()
}

#[test]
fn passing_before_an_action_hands_the_remaining_actions_to_the_teammate_for_placing_only() {
    let (mut game, log, script) = turn_of(Mode::HighForm, 0, "", "e5=0c");
    game.state.actions_left = 2;
    let seat2_hand = game.state.teams.as_deref().unwrap().bench[0].hand.clone();
    let seat0_hand = game.state.hand[0].clone();
    let start = log.borrow().len();
    script.borrow_mut().extend([
        (0, PASS),
        (2, Opt::Action(Action::Place)),
        (2, Opt::Square(sq("a5"))),
        (2, Opt::Action(Action::Place)),
        (2, Opt::Square(sq("i5"))),
    ]);
    game.finish_turn();
    let asked = asked_since(&log, start);
    let (seat, kind, options) = &asked[0];
    assert_eq!((*seat, *kind), (0, Kind::Action));
    assert_eq!(
        options.last(),
        Some(&PASS),
        "passing is offered before any action"
    );
    let kinds: Vec<(usize, Kind)> = asked[1..5].iter().map(|(s, k, _)| (*s, *k)).collect();
    assert_eq!(
        kinds,
        [
            (2, Kind::Action),
            (2, Kind::Place),
            (2, Kind::Action),
            (2, Kind::Place)
        ]
    );
    assert_eq!(
        asked[1].2,
        [Opt::Action(Action::Place)],
        "only placing: no summon, discard, flare"
    );
    // the teammate chose seeing his own hand; the turn's player draws his own cards at the end
    let entries = log.borrow();
    assert_eq!(entries[start + 1].4, seat2_hand);
    assert_eq!(entries[start].4, seat0_hand);
    drop(entries);
    assert_eq!(pass_events(&game), [(0, 2, "")]);
    let placers: Vec<i8> = game
        .state
        .record
        .events
        .iter()
        .filter_map(|e| match *e {
            Event::Place { seat, .. } => Some(seat),
            _ => None,
        })
        .collect();
    assert_eq!(
        placers[placers.len() - 2..],
        [2, 2],
        "the record names the teammate who placed"
    );
    let s = &game.state;
    assert_eq!(
        s.pieces[0][0],
        bit(sq("e5")) | bit(sq("a5")) | bit(sq("i5"))
    );
    assert_eq!(s.active, 1, "the turn passed on to team B");
    let t = s.teams.as_deref().unwrap();
    assert_eq!((t.turn_seat, t.controller, t.holder[0]), (1, None, 2));
    assert_eq!(t.bench[0].hand.len(), 3, "seat 0 refilled his own hand");
}

#[test]
fn control_passed_inside_an_effect_lets_the_teammate_finish_it_and_spend_the_gained_action() {
    // Time Mage: gains an action, destroys the enemy piece on its marked square (d4 when summoned on e3)
    let pieces = pattern("imperial/time-mage", "e3", 0) + " d4=1c";
    let (mut game, log, script) = turn_of(Mode::HighForm, 0, "imperial/time-mage", &pieces);
    game.state.actions_left = 2;
    let card = id(&game, "imperial/time-mage");
    let pl = placement_at(&game, card, "e3");
    let start = log.borrow().len();
    script.borrow_mut().extend([
        (0, Opt::Action(Action::Summon(card))),
        (0, pl),
        (0, PASS),
        (2, Opt::Square(sq("d4"))),
        (2, Opt::Action(Action::Place)),
        (2, Opt::Square(sq("a5"))),
        (2, Opt::Action(Action::Place)),
        (2, Opt::Square(sq("i5"))),
    ]);
    game.finish_turn();
    let asked = asked_since(&log, start);
    let destroy: Vec<&(usize, Kind, Vec<Opt>)> = asked
        .iter()
        .filter(|(_, k, _)| *k == Kind::Destroy)
        .collect();
    assert_eq!(destroy[0].0, 0);
    assert_eq!(
        destroy[0].2,
        [Opt::Square(sq("d4")), PASS],
        "passing offered inside the effect"
    );
    assert_eq!(destroy[1].0, 2);
    assert_eq!(
        destroy[1].2,
        [Opt::Square(sq("d4"))],
        "the teammate finishes the effect"
    );
    assert_eq!(pass_events(&game), [(0, 2, "imperial/time-mage")]);
    // the action the effect gained joined the one left: both spent placing by the teammate
    let places = game
        .state
        .record
        .events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Place {
                    cause: "place-action",
                    ..
                }
            )
        })
        .count();
    assert_eq!(places, 2);
    assert!(!game.state.occupied() & bit(sq("d4")) != 0, "d4 destroyed");
    // Destruction made in the teammate's part counts for the turn (decision 9)
    let destroyed =
        game.state.record.events.iter().any(
            |e| matches!(e, Event::Destroy { counted: true, square, .. } if *square == sq("d4")),
        );
    assert!(destroyed);
}

#[test]
fn after_passing_the_active_player_still_claims_a_task() {
    let (mut game, log, script) = turn_of(Mode::HighForm, 0, "", "");
    let s = &mut game.state;
    let task = s
        .cards
        .tasks
        .iter()
        .find(|t| t.id == "task/destruction")
        .unwrap()
        .index;
    s.task_deck.retain(|&t| t != task);
    if let Some(i) = s.task_row.iter().position(|&t| t == task) {
        s.task_row.remove(i);
    } else {
        let t = s.task_row.pop().unwrap();
        s.task_deck.push(t);
    }
    if s.next_task == Some(task) {
        s.next_task = s.task_deck.pop();
    }
    s.task_row.push(task);
    s.counters.destroyed = [3, 0, 0];
    s.actions_left = 1;
    script.borrow_mut().extend([
        (0, PASS),
        (2, Opt::Action(Action::Place)),
        (2, Opt::Square(sq("e5"))),
        (0, Opt::Task(task)),
    ]);
    let start = log.borrow().len();
    game.finish_turn();
    let asked = asked_since(&log, start);
    let claim = asked.iter().find(|(_, k, _)| *k == Kind::Claim).unwrap();
    assert_eq!(claim.0, 0, "the active player ends his own turn");
    assert_eq!(game.state.task_points[0], 1);
    assert_eq!(game.state.claimed[0].len(), 1);
}

#[test]
fn with_no_piece_to_place_passing_ends_the_turn() {
    let (mut game, log, script) = turn_of(Mode::HighForm, 0, "", "");
    game.state.tokens[0] = 0;
    game.state.token_total[0] = 0;
    script.borrow_mut().push_back((0, PASS));
    let start = log.borrow().len();
    game.finish_turn();
    let asked = asked_since(&log, start);
    assert_eq!(asked[0].1, Kind::Action);
    assert!(
        asked[1..].iter().all(|(seat, _, _)| *seat != 2),
        "nothing left for the teammate"
    );
    assert_eq!(game.state.active, 1);
    assert_eq!(game.state.actions_left, 2);
}

// ----- drawing and the team's legends

#[test]
fn the_team_legends_go_to_the_teammate_who_draws_up_to_two() {
    let (mut game, _, _) = turn_of(Mode::HighForm, 0, "", "");
    let s = &mut game.state;
    let legend = s.legend_hand[0].pop().unwrap();
    s.legend_discard.push(legend);
    s.counters.extra_legend_draws = 1;
    let before = s.record.events.len();
    game.end_turn(0);
    let s = &game.state;
    assert_eq!(s.seat_of(0), 2);
    assert_eq!(
        s.legend_hand[0].len(),
        3,
        "1 held, 1 to reach 2, 1 extra: drawn by the teammate"
    );
    let draws: Vec<(i8, crate::record::DrawDeck)> = s.record.events[before..]
        .iter()
        .filter_map(|e| match *e {
            Event::Draw { seat, deck, .. } => Some((seat, deck)),
            _ => None,
        })
        .collect();
    assert!(draws
        .iter()
        .all(|&(seat, deck)| (deck == crate::record::DrawDeck::Legend) == (seat == 2)));
    assert_eq!(
        draws.iter().filter(|d| d.0 == 2).count(),
        2,
        "the teammate draws the legends"
    );
}

#[test]
fn an_extra_turn_keeps_the_cards_with_the_player() {
    let (mut game, _, _) = turn_of(Mode::HighForm, 0, "", "");
    game.state.counters.extra_turn = true;
    game.end_turn(0);
    let s = &game.state;
    assert_eq!((s.active, s.seat_of(0)), (0, 0));
    assert_eq!(s.teams.as_deref().unwrap().turn_seat, 0);
    assert_eq!(s.legend_hand[0].len(), 2);
}

// ----- scoring and the end

#[test]
fn deathmatch_scores_per_team_destruction_legends_and_flares() {
    let (mut game, _, _) = turn_of(Mode::Deathmatch, 2, "", "");
    let s = &mut game.state;
    s.counters.destroyed = [3, 1, 0];
    game.end_turn(0);
    assert_eq!(
        game.state.dm_points,
        [2, 0, 0, 0],
        "1 heroic + a pair of commons, the odd one lost"
    );
    let points = game
        .state
        .record
        .events
        .iter()
        .rev()
        .find_map(|e| match *e {
            Event::Points { seat, points, .. } => Some((seat, points)),
            _ => None,
        });
    assert_eq!(
        points,
        Some((2, 2)),
        "recorded for the seat whose turn scored"
    );
}

#[test]
fn destroying_the_teams_own_pieces_scores_nothing() {
    let (mut game, _, _) = turn_of(Mode::Deathmatch, 0, "", "e5=0c f5=1c");
    game.state.destroy(sq("e5"), "test", true);
    game.state.destroy(sq("f5"), "test", true);
    assert_eq!(game.state.counters.destroyed, [1, 0, 0]);
}

#[test]
fn a_flare_compares_the_two_team_colours_and_scores_the_other_team_a_point() {
    // team B has 3 more upgraded pieces than team A
    let (mut game, _, _) = turn_of(Mode::Deathmatch, 0, "", "a5=1h b5=1h c5=1h e5=0c");
    let s = &mut game.state;
    let flare = s
        .cards
        .flares
        .iter()
        .find(|f| f.upper.threshold <= 3)
        .unwrap()
        .index;
    if s.flare_hand[0][0] != flare {
        let held = std::mem::replace(&mut s.flare_hand[0][0], flare);
        let place = |v: &mut Vec<_>| v.iter().position(|&f| f == flare).map(|i| v[i] = held);
        place(&mut s.flare_deck)
            .or_else(|| place(&mut s.flare_discard))
            .or_else(|| place(&mut s.flare_hand[1]))
            .or_else(|| place(&mut s.teams.as_deref_mut().unwrap().bench[0].flare_hand))
            .or_else(|| place(&mut s.teams.as_deref_mut().unwrap().bench[1].flare_hand))
            .expect("the flare somewhere");
    }
    s.check_invariants().unwrap();
    let halves = game.flare_halves(0, flare);
    let f = game.state.cards.flare(flare);
    assert_eq!(halves & 1 != 0, 3 >= f.upper.threshold);
    assert_eq!(halves & 2 != 0, 2 >= f.lower.threshold);
    assert_ne!(halves, 0);
    game.invoke_flare(0);
    assert_eq!(game.state.dm_points[..2], [0, 1], "the other team scores 1");
}

#[test]
fn the_end_comes_after_one_more_turn_for_each_of_the_four_players() {
    let (mut game, _, _) = team_game(Mode::HighForm, IMPERIAL, 2);
    game.setup();
    game.play_turn();
    let s = &mut game.state;
    let side = 1 - s.active; // the side that plays next
    s.task_points[side] += 9;
    s.unnamed_task_points[side] += 9;
    s.record.points(s.turn, side, "test", 9);
    let trigger = s.turn + 1;
    game.play_turn();
    assert_eq!(game.state.end_trigger, Some(EndTrigger::Score));
    assert_eq!(game.state.trigger_turn, trigger);
    for _ in 0..3 {
        game.play_turn();
        assert!(!game.state.over);
    }
    game.play_turn();
    assert!(game.state.over);
    assert_eq!(game.state.turn, trigger + 4);
    let r = &game.state.record;
    assert_eq!(r.winner, side as i32);
    assert_eq!(r.scores.len(), 2);
    let held: Vec<i8> = r
        .events
        .iter()
        .filter_map(|e| match *e {
            Event::Held { seat, .. } => Some(seat),
            _ => None,
        })
        .collect();
    for seat in 0..4 {
        assert!(held.contains(&seat), "seat {seat}'s cards at the end");
    }
}

#[test]
fn a_tie_goes_to_the_team_with_more_upgraded_pieces() {
    let (mut game, _, _) = turn_of(Mode::Deathmatch, 0, "", "a5=1h e5=0c f5=0c");
    let s = &mut game.state;
    s.end_trigger = Some(EndTrigger::Score);
    s.trigger_turn = s.turn;
    s.turns_after_trigger = 3;
    game.state.turn += 1;
    game.end_turn(0);
    let r = &game.state.record;
    assert!(game.state.over);
    assert_eq!((r.winner, r.tiebreak), (1, "upgraded"));
}

// ----- what a player may see

#[test]
fn the_sandbox_deals_the_teammates_and_the_opponents_hidden_cards_anew() {
    let (mut game, _, _) = team_game(Mode::HighForm, IMPERIAL, 4);
    game.setup();
    let s = &game.state;
    let me = s.active;
    let rng = crate::state::shared_rng(99);
    let mut differs = false;
    for _ in 0..5 {
        let sb = PlayerView::new(s, me).sandbox(&rng);
        assert_eq!(sb.hand[me], s.hand[me], "own hand known");
        assert_eq!(
            sb.legend_hand[me], s.legend_hand[me],
            "own team's legends known"
        );
        let (real, dealt) = (s.teams.as_deref().unwrap(), sb.teams.as_deref().unwrap());
        for side in 0..2 {
            let (a, b) = (&real.bench[side], &dealt.bench[side]);
            assert_eq!(a.hand.len(), b.hand.len());
            let mut x: Vec<BeingId> = a.hand.iter().chain(&a.deck).copied().collect();
            let mut y: Vec<BeingId> = b.hand.iter().chain(&b.deck).copied().collect();
            x.sort();
            y.sort();
            assert_eq!(x, y, "the same cards, dealt anew");
            differs |= a.hand != b.hand;
        }
        sb.check_invariants().unwrap();
    }
    assert!(differs, "the benched hands are not copied");
}

#[test]
fn a_view_shows_each_seats_public_expansion_state_benched_or_not() {
    let (mut game, _, _) = team_game(
        Mode::HighForm,
        ["everfrost", "etherweave", "imperial", "sylvan"],
        4,
    );
    game.setup();
    let queen = id(&game, "everfrost/ice-queen");
    let s = &mut game.state;
    if s.teams.as_deref().unwrap().holder[0] != 0 {
        s.swap_members(0);
    }
    if s.deck[0].contains(&queen) {
        crate::game::remove_first(&mut s.deck[0], queen);
    } else {
        crate::game::remove_first(&mut s.hand[0], queen);
        let top = s.deck[0].pop().unwrap();
        s.hand[0].push(top);
    }
    s.frozen[0] = Some(queen);
    s.swap_members(0); // seat 0's cards (and frozen effect) go to the bench, seat 2's come in
    s.check_invariants().unwrap();
    let v = PlayerView::new(s, 1);
    let benched = v.seat_state(0).unwrap();
    assert_eq!(benched.frozen, Some(queen));
    assert_eq!(v.seat_state(2).unwrap().frozen, None);
    assert_eq!(v.frozen(0), None, "the side's slots hold seat 2's state");
    let sb = v.sandbox(&crate::state::shared_rng(3));
    assert_eq!(sb.teams.as_deref().unwrap().bench[0].frozen, Some(queen));
}

#[test]
fn a_team_game_needs_four_decks_and_four_players() {
    let players = (0..3)
        .map(|i| make_strategy("random", i, 0).unwrap())
        .collect();
    let err = Game::teams(
        cards(),
        Mode::HighForm,
        &["imperial", "sylvan", "highland"],
        players,
        0,
        GameOptions::default(),
    )
    .err()
    .unwrap();
    assert!(err.contains("4 players"), "{err}");
}
