//! Scenario tests of the players in a Deathmatch melee: the value of a melee position, the colour and
//! opponent choices, and improvised summoning weighed like any other placement.

use super::evaluate::{colour_scores, standing, Evaluator};
use super::lookahead::Lookahead;
use super::make_strategy;
use super::params::Params;
use super::reflex;
use crate::board::bit;
use crate::decisions::{Decision, Kind, Opt, PlayerView, Strategy};
use crate::effects::testing::{arena, being, placement, sq, table};
use crate::game::Players;
use crate::record::Event;
use crate::state::GameState;

fn builders(seats: usize) -> Players<'static> {
    Players::Seats(
        (0..seats)
            .map(|p| make_strategy("builder", p, 1).unwrap())
            .collect(),
    )
}

fn seat_decision(kind: Kind, options: &[Opt]) -> Decision<'_> {
    Decision {
        kind,
        player: 0,
        options,
        card: "",
        prompt: "",
    }
}

// ----- the value of a position

#[test]
fn the_destruction_of_the_turn_scores_colour_by_colour_with_one_point_for_unpaired_commons() {
    let (mut game, _) = table(&["imperial"; 4], "imperial/swordmaster", "", &[]);
    let s = &mut game.state;
    s.active = 0;
    s.colour_points[0] = [0, 2, 1, 5];
    // seat 1: a legendary and a common, seat 2: a common, seat 3: two commons
    s.counters.destroyed_of[1] = [1, 0, 1];
    s.counters.destroyed_of[2] = [1, 0, 0];
    s.counters.destroyed_of[3] = [2, 0, 0];
    // 2 in seat 1's colour, a pair in seat 3's; the odd commons of seats 1 and 2 give one point in the
    // lower of their colours (seat 2's: 1 against 4)
    assert_eq!(colour_scores(s, 0), [0.0, 4.0, 2.0, 6.0]);
    // a single odd common counts in part
    s.counters.destroyed_of[2] = [0; 3];
    assert_eq!(colour_scores(s, 0), [0.0, 4.4, 1.0, 6.0]);
    // nothing counts for a player who is not the active one
    assert_eq!(colour_scores(s, 1), [0.0; 4]);
}

#[test]
fn the_lowest_colour_counts_most_and_the_strongest_opponent_most_against_you() {
    let (mut game, _) = table(&["imperial"; 3], "imperial/swordmaster", "", &[]);
    let s = &mut game.state;
    s.active = 1;
    let ev = Evaluator::new(Params::preset("builder").unwrap());
    let value = |s: &GameState| ev.static_value(s, 0);
    s.colour_points[0] = [0, 5, 0, 0];
    let lopsided = value(s);
    s.colour_points[0] = [0, 3, 2, 0];
    let even = value(s);
    assert!(even > lopsided, "{even} {lopsided}");
    assert_eq!(standing(s, &colour_scores(s, 0), 0), 2.0 + 0.3 * 3.0);
    // a point to the leader's lowest colour costs more than one to the last player's
    s.colour_points[1] = [4, 0, 4, 0];
    s.colour_points[2] = [1, 1, 0, 0];
    let base = value(s);
    s.colour_points[1][2] += 1;
    s.colour_points[1][0] += 1;
    let leader_up = value(s);
    s.colour_points[1][2] -= 1;
    s.colour_points[1][0] -= 1;
    s.colour_points[2][0] += 1;
    s.colour_points[2][1] += 1;
    let last_up = value(s);
    assert!(
        base > last_up && last_up > leader_up,
        "{base} {last_up} {leader_up}"
    );
    // an improvisation spent is worth less than one kept
    s.improvised[0][1] = true;
    assert!(value(s) < last_up);
}

// ----- decisions

#[test]
fn the_legend_colour_and_the_leftover_colour_raise_the_lowest_colour() {
    let (mut game, _) = table(&["imperial"; 4], "imperial/swordmaster", "", &[]);
    let s = &mut game.state;
    s.active = 0;
    s.colour_points[0] = [0, 3, 1, 2];
    let three = [Opt::Seat(1), Opt::Seat(2), Opt::Seat(3)];
    let legend = seat_decision(Kind::LegendColour, &three);
    assert_eq!(reflex::lowest_colour_option(s, &legend), 1);
    // the destruction of the turn will score 2 in seat 2's colour before the end of the turn
    s.counters.destroyed_of[2] = [0, 2, 0];
    assert_eq!(reflex::lowest_colour_option(s, &legend), 2);
    // the leftover point is asked once that destruction has scored: the points as they are
    s.colour_points[0] = [0, 3, 3, 2];
    let two = [Opt::Seat(1), Opt::Seat(2)];
    let leftover = seat_decision(Kind::LeftoverColour, &two);
    assert_eq!(reflex::lowest_colour_option(s, &leftover), 0);
    s.colour_points[0] = [0, 4, 3, 2];
    assert_eq!(reflex::lowest_colour_option(s, &leftover), 1);
}

#[test]
fn the_flare_goes_against_the_opponent_with_most_halves_then_the_one_the_point_helps_least() {
    let (mut game, _) = table(&["imperial"; 3], "imperial/swordmaster", "", &[]);
    game.players = builders(3);
    let s = &mut game.state;
    let flare = s
        .cards
        .flares
        .iter()
        .find(|f| f.id == "flare/02")
        .expect("flare/02")
        .index;
    s.flare_deck.retain(|&f| f != flare);
    s.flare_hand[0].push(flare);
    // seat 1: four heroes (both halves of flare/02: 4 and 4); seat 2: four commons (the lower half)
    for at in ["b2", "c2", "d2", "e2"] {
        s.put(1, 1, sq(at));
    }
    for at in ["b8", "c8", "d8", "e8"] {
        s.put(2, 0, sq(at));
    }
    let d = seat_decision(Kind::FlareOpponent, &[Opt::Seat(1), Opt::Seat(2)]);
    assert_eq!(reflex::flare_opponent(s, &d), 0);
    // both halves against either: the point goes where it does not raise the lowest colour score
    for at in ["b8", "c8", "d8", "e8"] {
        s.upgrade(sq(at), "test");
    }
    s.colour_points[1] = [0, 0, 5, 0];
    s.colour_points[2] = [3, 0, 0, 0];
    assert_eq!(reflex::flare_opponent(s, &d), 1);
    // in the real game, builder invokes the flare against seat 2, who scores a point in seat 0's colour
    game.state.active = 0;
    game.invoke_flare(0);
    let against = game.state.record.events.iter().find_map(|e| match e {
        Event::Flare { against, .. } => Some(*against),
        _ => None,
    });
    assert_eq!(against, Some(2));
    assert_eq!(game.state.colour_points[2][0], 4);
}

#[test]
fn an_enemy_piece_placed_by_an_effect_goes_to_the_lowest_colour() {
    let (mut game, _) = table(&["sylvan"; 3], "sylvan/forest-ancient", "", &[]);
    let s = &mut game.state;
    s.colour_points[0] = [0, 2, 1, 0];
    let options = [
        Opt::SeatSquare(1, sq("e5")),
        Opt::SeatSquare(1, sq("e6")),
        Opt::SeatSquare(2, sq("e5")),
        Opt::SeatSquare(2, sq("e6")),
        Opt::None,
    ];
    let d = Decision {
        kind: Kind::Place,
        player: 0,
        options: &options,
        card: "sylvan/forest-ancient",
        prompt: "",
    };
    assert_eq!(reflex::enemy_colour_place(s, &d), 2);
}

// ----- improvised summoning

#[test]
fn builder_improvises_a_summon_that_pays() {
    // Swordmaster on e5 needs commons on e4 and e6; e6 is seat 1's: improvising against seat 1 lets
    // it summon, destroy seat 2's common on d4 and become a hero
    let card = "imperial/swordmaster";
    let (mut game, _) = table(&["imperial"; 3], card, "e4=1c e6=2c d4=3c", &[]);
    game.players = builders(3);
    let sw = being(&game, card);
    assert!(!game.has_placement(0, sw));
    assert_eq!(
        game.improvised_placements(0, sw),
        [(placement(&game, sw, "e5"), 1)]
    );
    game.finish_turn();
    let s = &game.state;
    assert!(s.record.events.iter().any(|e| matches!(
        e,
        Event::Improvise {
            seat: 0,
            colour: 1,
            ..
        }
    )));
    assert!(s.improvised[0][1] && !s.improvised[0][2]);
    assert!(arena(&game).contains("e5=1h"), "{}", arena(&game));
    assert_eq!(game.state.occupied() & bit(sq("d4")), 0);
}

#[test]
fn a_placement_of_own_pieces_is_preferred_to_an_improvised_one_doing_the_same() {
    let card = "imperial/swordmaster";
    let (game, _) = table(&["imperial"; 3], card, "e4=1c e6=1c b4=1c b6=2c", &[]);
    let sw = being(&game, card);
    let (own, borrowed) = (placement(&game, sw, "e5"), placement(&game, sw, "b5"));
    assert_eq!(game.legal_placements(0, sw), [own]);
    assert_eq!(game.improvised_placements(0, sw), [(borrowed, 1)]);
    let params = Params::preset("builder").unwrap();
    for options in [
        [Opt::Placement(sw, own), Opt::Improvised(sw, borrowed, 1)],
        [Opt::Improvised(sw, borrowed, 1), Opt::Placement(sw, own)],
    ] {
        let d = Decision {
            kind: Kind::Summon,
            player: 0,
            options: &options,
            card,
            prompt: "",
        };
        let mut b = Lookahead::new("builder", 3, &params);
        let i = b.choose(&PlayerView::new(&game.state, 0), &d);
        assert_eq!(options[i], Opt::Placement(sw, own));
    }
}
