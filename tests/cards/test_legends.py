"""Scenario tests of the 12 legends (shared deck)."""

from __future__ import annotations

import random

import pytest

from sim import board
from sim.cards import load_card_set
from sim.patterns import oriented
from sim.ranks import LEGENDARY
from sim.record import Place
from strategies.random_player import RandomStrategy
from tests.helpers import arena, setup, sq, summon

RANK_OF = {0: "c", 1: "h", 2: "l"}


def pattern_at(card_id: str, at: str) -> dict[str, str]:
    """Player 1's pieces forming ``card_id``'s pattern with its summoning square on ``at``."""
    card = load_card_set().by_id[card_id]
    origin = sq(at)
    return {board.name(board.offset(origin, dx, dy)): f"1{RANK_OF[r]}"  # type: ignore[arg-type]
            for dx, dy, r in card.pattern.cells}


def position(card_id: str, at: str, pieces: dict[str, str], extra: str = "") -> str:
    """A scenario: player 1 holds the legend ``card_id``, its pattern stands at ``at``, plus ``pieces``."""
    return f"legends 1: {card_id}\n{extra}\narena:\n{grid({**pattern_at(card_id, at), **pieces})}"


def grid(pieces: dict[str, str]) -> str:
    """The arena rows of a scenario holding ``pieces`` (square name -> token such as "2h")."""
    rows = [" ".join("--" if not board.on_arena(x, y) else pieces.get(board.name(board.square(x, y)), "..")
                     for x in range(1, 10)) for y in range(1, 10)]
    return "\n".join(rows) + "\n"


def play(card_id: str, at: str, pieces: dict[str, str], *answers, extra: str = ""):
    game, me = setup(position(card_id, at, pieces, extra), *answers)
    summon(game, card_id, at, orientation=0)
    return game, me


def squares(*names: str) -> list[int]:
    return [sq(n) for n in names]


# ----- Fire Dragon: the fan of an indicated direction
DRAGON = "legend/fire-dragon"
DRAGON_FAN = {"e6": "2c", "e7": "2h", "f6": "2l", "d6": "1c", "c3": "2c"}


def test_fire_dragon_destroys_the_fan_of_the_chosen_direction_but_not_legends():
    game, me = play(DRAGON, "e5", DRAGON_FAN, 4)
    # every indicated direction: E (its fan holds only the legendary f6), SE, S, SW, W
    assert me.asked[0].kind == "direction" and sorted(me.asked[0].options) == [2, 3, 4, 5, 6]
    a = arena(game)
    assert a["e5"] == "1l" and a["f6"] == "2l" and a["c3"] == "2c"
    assert not {"e6", "e7", "d6"} & set(a)  # own d6 goes too
    assert game.state.counters.destroyed == [1, 1, 0]


def test_fire_dragon_reaches_distance_two_only():
    game, me = play(DRAGON, "e5", {"e7": "2c", "e8": "2c", "f7": "2c"}, 4)
    a = arena(game)
    assert "e7" not in a and a["e8"] == "2c" and a["f7"] == "2c"  # f7 lies on no line from the dragon


def test_fire_dragon_may_choose_a_direction_with_nothing_to_destroy():
    # only own pieces, due south: the player may turn east, where nothing burns
    game, me = play(DRAGON, "e5", {"e6": "1c", "e7": "1h"}, 2)
    assert sorted(me.asked[0].options) == [2, 3, 4, 5, 6]
    a = arena(game)
    assert a["e6"] == "1c" and a["e7"] == "1h"
    assert game.state.counters.destroyed == [0, 0, 0]


def test_fire_dragon_with_only_legends_around_still_chooses_a_direction():
    game, me = play(DRAGON, "e5", {"e6": "2l", "f6": "2l"}, 4)
    assert len(me.asked) == 1 and me.asked[0].kind == "direction"
    assert arena(game)["e6"] == "2l" and arena(game)["f6"] == "2l"
    assert game.state.counters.destroyed == [0, 0, 0]


def test_fire_dragon_at_the_edge_offers_directions_that_leave_the_arena():
    # on the bottom row the southern fan lies off the arena: south is still an indicated direction
    game, me = setup(position(DRAGON, "e9", {"d8": "2c", "f9": "2c"}), 4)
    summon(game, DRAGON, "e9", orientation=0)
    assert sorted(me.asked[0].options) == [2, 3, 4, 5, 6]
    assert arena(game)["d8"] == "2c" and arena(game)["f9"] == "2c"


# ----- Hell Bull: a charge in one direction
BULL = "legend/hell-bull"
BULL_LINE = {"e4": "2c", "e3": "2h", "e2": "2l", "e1": "2c"}


def test_hell_bull_charges_and_stops_after_a_legend():
    game, me = play(BULL, "e5", BULL_LINE, ("e5", "e4"), ("e4", "e3"), ("e3", "e2"))
    first = me.asked[0]
    assert first.kind == "move" and None in first.options
    around = set(squares("e4", "f4", "f5", "f6", "e6", "d6", "d5", "d4"))
    assert {dst for _, dst in first.options[:-1]} == around  # every direction, own pieces included
    assert me.asked[1].options == [(sq("e4"), sq("e3")), None]  # the direction is kept
    assert len(me.asked) == 3  # no move offered after taking the legend
    a = arena(game)
    assert a["e2"] == "1l" and a["e1"] == "2c" and "e5" not in a
    assert game.state.counters.destroyed == [1, 1, 1]


def test_hell_bull_may_stop_or_stay():
    game, _ = play(BULL, "e5", BULL_LINE, ("e5", "e4"), None)
    assert arena(game)["e4"] == "1l" and arena(game)["e3"] == "2h"
    game, _ = play(BULL, "e5", BULL_LINE, None)
    assert arena(game)["e5"] == "1l" and game.state.counters.destroyed == [0, 0, 0]


def test_hell_bull_runs_to_the_edge():
    game, me = play(BULL, "e5", {}, ("e5", "f5"), ("f5", "g5"), ("g5", "h5"), ("h5", "i5"))
    assert len(me.asked) == 4 and arena(game)["i5"] == "1l"


# ----- Angel of Death: upgrade a piece, then take it
ANGEL = "legend/angel-of-death"


def test_angel_of_death_upgrades_an_enemy_heroic_to_a_legend_then_takes_it():
    game, me = play(ANGEL, "e5", {"e8": "2h", "h5": "2c"}, ("e5", "e8"))
    options = me.asked[0].options
    assert me.asked[0].kind == "leap" and options[-1] is None
    occupied = set(squares("d4", "f4", "c5", "g5", "e6", "e8", "h5"))
    assert {dst for _, dst in options[:-1]} == occupied  # any piece but the Angel, own ones included
    a = arena(game)
    assert a["e8"] == "1l" and "e5" not in a
    assert game.state.counters.destroyed == [0, 0, 1]
    assert game.state.legend_stock[1] == 3  # the enemy's new legendary piece went back to its stock


def test_angel_of_death_without_enemy_legend_stock_takes_the_heroic():
    game, _ = play(ANGEL, "e5", {"e8": "2h"}, ("e5", "e8"), extra="stock 2: legends=0")
    assert arena(game)["e8"] == "1l" and game.state.counters.destroyed == [0, 1, 0]


def test_angel_of_death_takes_a_legend_and_may_take_its_own_piece():
    game, _ = play(ANGEL, "e5", {"a5": "2l"}, ("e5", "a5"))
    assert arena(game)["a5"] == "1l" and game.state.counters.destroyed == [0, 0, 1]
    game, _ = play(ANGEL, "e5", {}, ("e5", "e6"))
    assert arena(game)["e6"] == "1l" and game.state.counters.destroyed == [0, 0, 0]


def test_angel_of_death_may_decline():
    game, _ = play(ANGEL, "e5", {"e8": "2h"}, None)
    assert arena(game)["e5"] == "1l" and arena(game)["e8"] == "2h"


# ----- The Eldest Tree: destroy, upgrade or place on up to 3 adjacent squares
TREE = "legend/the-eldest-tree"
TREE_AROUND = {"d4": "2c", "e4": "2h", "f6": "2l", "d5": "1c"}


def test_eldest_tree_acts_on_three_different_adjacent_squares():
    game, me = play(TREE, "e5", TREE_AROUND, "d4", "d5", "f5")
    # enemy non-legendary, own common, empty; not own heroics (f4, d6) nor the enemy legend (f6)
    assert me.asked[0].options == [*squares("d4", "e4", "d5", "f5", "e6"), None]
    assert sq("d4") not in me.asked[1].options  # each square once, even once emptied
    assert len(me.asked) == 3
    a = arena(game)
    assert "d4" not in a and a["d5"] == "1h" and a["f5"] == "1c" and a["e4"] == "2h"
    assert game.state.counters.destroyed == [1, 0, 0]


def test_eldest_tree_may_stop_early():
    game, me = play(TREE, "e5", TREE_AROUND, "e4", None)
    assert len(me.asked) == 2 and "e4" not in arena(game)
    assert game.state.counters.destroyed == [0, 1, 0]


def test_eldest_tree_places_nothing_without_tokens():
    game, me = play(TREE, "e5", TREE_AROUND, "d4", None, extra="stock 1: tokens=0")
    assert me.asked[0].options == [*squares("d4", "e4", "d5"), None]
    assert me.asked[1].options == [*squares("e4", "d5"), None]  # d4 emptied, but no token to place


# ----- Bone Catapult: a piece along an indicated direction and the commons around it
CATAPULT = "legend/bone-catapult"


def test_bone_catapult_shoots_over_pieces_and_destroys_commons_around_the_target():
    pieces = {"e3": "1c", "e2": "2h", "e1": "2c", "d2": "1c", "f3": "2h", "e7": "2c", "h5": "2l"}
    game, me = play(CATAPULT, "e5", pieces, "e2")
    # N (e3 e2 e1), NE (none), W (none), E (h5); not e7 to the south nor the pattern piece d4
    assert me.asked[0].options == [*squares("e1", "e2", "e3", "h5"), None]
    a = arena(game)
    assert not {"e1", "e2", "e3", "d2"} & set(a) and a["f3"] == "2h" and a["e7"] == "2c"
    assert game.state.counters.destroyed == [1, 1, 0]


def test_bone_catapult_may_take_a_legend_or_decline():
    game, _ = play(CATAPULT, "e5", {"h5": "2l", "h6": "2c"}, "h5")
    assert "h5" not in arena(game) and "h6" not in arena(game)
    assert game.state.counters.destroyed == [1, 0, 1]
    game, _ = play(CATAPULT, "e5", {"h5": "2l"}, None)
    assert arena(game)["h5"] == "2l"


def test_bone_catapult_with_nothing_in_line_asks_nothing():
    game, me = play(CATAPULT, "e5", {"e7": "2c", "c3": "2c"})
    assert me.asked == [] and arena(game)["e7"] == "2c"


# ----- Fire Elemental: adjacent non-legends or commons within 2
FIRE = "legend/fire-elemental"
FIRE_AROUND = {"e4": "2h", "f5": "2c", "g3": "2c", "d4": "2l", "d5": "1c"}


def test_fire_elemental_burns_adjacent_enemy_non_legends():
    game, me = play(FIRE, "e5", FIRE_AROUND, "adjacent")
    assert me.asked[0].options == ["adjacent", "commons within 2"]
    a = arena(game)
    assert not {"e4", "f5"} & set(a) and a["g3"] == "2c" and a["d4"] == "2l" and a["d5"] == "1c"
    assert game.state.counters.destroyed == [1, 1, 0]


def test_fire_elemental_burns_enemy_commons_within_two():
    game, _ = play(FIRE, "e5", FIRE_AROUND, "commons within 2")
    a = arena(game)
    assert not {"f5", "g3"} & set(a) and a["e4"] == "2h"
    assert game.state.counters.destroyed == [2, 0, 0]


def test_fire_elemental_always_offers_both_choices():
    game, me = play(FIRE, "e5", {"e4": "2h"}, "commons within 2")  # only the adjacent choice burns
    assert me.asked[0].options == ["adjacent", "commons within 2"]
    assert arena(game)["e4"] == "2h" and game.state.counters.destroyed == [0, 0, 0]
    game, me = play(FIRE, "e5", {"f5": "2c"}, "adjacent")  # both choices destroy the same piece
    assert me.asked[0].options == ["adjacent", "commons within 2"]
    assert game.state.counters.destroyed == [1, 0, 0]
    game, me = play(FIRE, "e5", {"d4": "2l", "g2": "2c"}, "adjacent")  # nothing to destroy
    assert len(me.asked) == 1 and len(arena(game)) == 8


# ----- Leviathan: a connected group downgraded or destroyed
LEVIATHAN = "legend/leviathan"
LEVIATHAN_GROUP = {"g6": "2h", "g7": "2l", "h8": "2h", "c9": "2h"}


def test_leviathan_downgrades_a_connected_group_of_three():
    game, me = play(LEVIATHAN, "g3", LEVIATHAN_GROUP, "downgrade", "g6", "g7", "h8")
    assert me.asked[0].options == ["downgrade", "destroy"]
    assert sq("g3") in me.asked[1].options  # any upgraded piece, the Leviathan included
    assert me.asked[2].options == [sq("g7"), None]  # only pieces touching the group
    assert len(me.asked) == 4
    a = arena(game)
    assert a["g6"] == "2c" and a["g7"] == "2h" and a["h8"] == "2c" and a["c9"] == "2h"
    assert game.state.legend_stock[1] == 3 and game.state.counters.destroyed == [0, 0, 0]


def test_leviathan_cannot_downgrade_a_legend_without_a_token():
    game, me = play(LEVIATHAN, "g3", LEVIATHAN_GROUP, "downgrade", "g6", extra="stock 2: tokens=0")
    assert sq("g7") not in me.asked[1].options
    assert len(me.asked) == 2 and arena(game)["g7"] == "2l"  # g6 has no downgradable neighbour


def test_leviathan_destroys_a_connected_group_of_up_to_four_commons_of_any_colour():
    commons = {"a5": "2c", "b6": "1c", "c7": "2c", "b8": "2c", "b4": "2c", "h7": "2c"}
    game, me = play(LEVIATHAN, "g3", commons, "destroy", "b6", "a5", "b4", "c7")
    assert sq("h7") not in me.asked[2].options
    assert len(me.asked) == 5  # four pieces, then it stops
    a = arena(game)
    assert not {"a5", "b6", "c7", "b4"} & set(a) and a["b8"] == "2c"
    assert game.state.counters.destroyed == [3, 0, 0]


def test_leviathan_group_may_be_empty():
    game, me = play(LEVIATHAN, "g3", LEVIATHAN_GROUP, "destroy", None)
    assert arena(game)["d5"] == "1c" and game.state.counters.destroyed == [0, 0, 0]


def test_leviathan_offers_both_choices_even_with_no_common_piece_to_destroy():
    pattern = {name: ("1h" if token == "1c" else token) for name, token in pattern_at(LEVIATHAN, "g3").items()}
    game, me = setup(f"legends 1: {LEVIATHAN}\narena:\n{grid(pattern)}", "destroy")
    summon(game, LEVIATHAN, "g3", orientation=0)
    assert me.asked[0].options == ["downgrade", "destroy"]  # no common anywhere: "destroy" does nothing
    assert len(me.asked) == 1 and arena(game) == {**pattern, "g3": "1l"}


# ----- Two-Headed Dragon: upgrade a pattern piece, then a heroic next to it
TWO_HEADED = "legend/two-headed-dragon"


def test_two_headed_dragon_upgrades_a_pattern_piece_then_destroys_a_heroic_next_to_it():
    game, me = play(TWO_HEADED, "c3", {"e6": "2h", "f5": "2c", "h5": "2c"}, "e5", "e6")
    assert me.asked[0].options == [*squares("e3", "d4", "c5", "e5", "f6"), None]
    assert me.asked[1].options == [*squares("d4", "e6"), None]  # heroic pieces adjacent to e5, own ones too
    a = arena(game)
    assert a["e5"] == "1h" and "e6" not in a and a["f5"] == "2c"
    assert game.state.counters.destroyed == [0, 1, 0]


def test_two_headed_dragon_may_make_a_legend_and_spare_the_heroics():
    game, _ = play(TWO_HEADED, "c3", {"e6": "2h"}, "d4", None)
    assert arena(game)["d4"] == "1l" and arena(game)["e6"] == "2h"


def test_two_headed_dragon_cannot_upgrade_heroics_without_legend_stock():
    game, me = play(TWO_HEADED, "c3", {"e6": "2h"}, None, extra="stock 1: legends=1")
    assert me.asked[0].options == [*squares("e5", "f6"), None]
    assert len(me.asked) == 1  # declining the upgrade skips the destroy


# ----- Earth Elemental: red destroy, green upgrade, coloured step
EARTH = "legend/earth-elemental"


def test_earth_elemental_destroys_near_red_upgrades_near_green_and_steps():
    game, me = play(EARTH, "d3", {"d2": "2h", "b3": "2c", "h6": "2l"}, "d2", "b3", ("d3", "c3"))
    # near red: the enemy heroic d2 and own pieces e3 d4 e4 f5; not the legend on h6
    assert me.asked[0].options == squares("d2", "e3", "d4", "e4", "f5")
    assert me.asked[1].options == squares("b3", "d4")  # commons near green, any colour; mandatory
    assert me.asked[2].options == [(sq("d3"), sq("d2")), (sq("d3"), sq("c3")), None]
    a = arena(game)
    assert "d2" not in a and a["b3"] == "2h" and a["c3"] == "1l" and "d3" not in a
    assert game.state.counters.destroyed == [0, 1, 0]


def test_earth_elemental_must_destroy_its_own_piece_and_may_take_a_legend_on_green():
    game, me = play(EARTH, "d3", {"c3": "2l"}, "f5", ("d3", "c3"))
    assert None not in me.asked[0].options
    assert me.asked[1].kind == "move"  # the only common near green (d4) is upgraded without asking
    a = arena(game)
    assert "f5" not in a and a["d4"] == "1h" and a["c3"] == "1l"
    assert game.state.counters.destroyed == [0, 0, 1]


def test_earth_elemental_may_stay():
    game, _ = play(EARTH, "d3", {}, "e3", None)
    assert arena(game)["d3"] == "1l"


# ----- Time Elemental: another turn
TIME = "legend/time-elemental"


def _place_twice():
    """Scripted answers for a turn of two place actions."""
    return [lambda d: next(o for o in d.options if getattr(o, "kind", None) == "place"),
            lambda d: d.options[0]] * 2


def test_time_elemental_gives_another_turn():
    game, me = play(TIME, "e3", {})
    s = game.state
    assert s.counters.extra_turn
    game.end_turn(0)
    assert s.active == 0 and not s.over


def test_time_elemental_gives_another_turn_even_in_the_final_round():
    game, me = play(TIME, "e3", {})
    s = game.state
    with game.edit() as b:  # triggered before the previous turn: this turn ends the game
        b.end_trigger, b.end_trigger_player, b.trigger_turn, b.turns_after_trigger = "deck", 1, b.turn - 2, 1
        b.actions_left = 0
    game.end_turn(0)  # the last turn of the game, but the extra turn comes first
    assert s.active == 0 and not s.over
    me.answers.extend(_place_twice())
    game.play_turn()
    assert s.over and s.record.turns == 3
    assert len([e for e in s.record.of_kind(Place) if e.cause == "place-action"]) == 2


# ----- Storm Elemental: a temporary piece charges in a line
STORM = "legend/storm-elemental"
STORM_LINE = {"c6": "2c", "d6": "2c", "f6": "2h", "g6": "2c"}


def test_storm_elemental_common_charges_until_blocked_then_vanishes():
    answers = ("common", "b6", ("b6", "c6"), ("c6", "d6"), ("d6", "e6"))
    game, me = play(STORM, "e5", STORM_LINE, *answers)
    assert me.asked[0].options == ["common", "heroic", "legendary", None]
    taken = {sq(n) for n in (*STORM_LINE, *pattern_at(STORM, "e5"))}
    assert set(me.asked[1].options) == set(board.bits(board.WITHIN[3][sq("e5")])) - taken
    assert len(me.asked) == 5  # the heroic f6 blocks a common's combat move
    a = arena(game)
    assert not {"b6", "c6", "d6", "e6"} & set(a) and a["f6"] == "2h" and a["e5"] == "1l"
    assert game.state.counters.destroyed == [2, 0, 0]
    assert game.state.tokens[0] == 17 - 3  # the placed piece went back to the stock


def test_storm_elemental_heroic_makes_at_most_three_moves():
    answers = ("heroic", "c6", ("c6", "d6"), ("d6", "e6"), ("e6", "f6"))
    game, me = play(STORM, "e5", {"d6": "2c", "f6": "2h"}, *answers)
    assert len(me.asked) == 5 and not {"c6", "d6", "e6", "f6"} & set(arena(game))
    assert game.state.counters.destroyed == [1, 1, 0]


def test_storm_elemental_legend_makes_one_move_onto_a_legend():
    game, me = play(STORM, "e5", {"e8": "2l", "e9": "2c"}, "legendary", "e7", ("e7", "e8"))
    assert len(me.asked) == 3
    a = arena(game)
    assert not {"e7", "e8"} & set(a) and a["e9"] == "2c"
    assert game.state.counters.destroyed == [0, 0, 1] and game.state.legend_stock[0] == 2


def test_storm_elemental_may_decline_or_place_without_moving():
    game, _ = play(STORM, "e5", STORM_LINE, None)
    assert len(arena(game)) == len(pattern_at(STORM, "e5")) + len(STORM_LINE)
    game, _ = play(STORM, "e5", STORM_LINE, "common", "b6", None)
    assert "b6" not in arena(game) and game.state.counters.destroyed == [0, 0, 0]


def test_storm_elemental_offers_only_ranks_it_can_place():
    game, me = play(STORM, "e5", {}, None, extra="stock 1: legends=1")
    assert me.asked[0].options == ["common", "heroic", None]
    game, me = play(STORM, "e5", {"a5": "1l", "i5": "1l"}, None)  # three legendary pieces in the arena
    assert me.asked[0].options == ["common", "heroic", None]


def test_storm_elemental_without_any_piece_in_stock_does_nothing():
    # summoned onto your own legendary piece: no token is freed and the legendary piece becomes the Storm
    game, me = play(STORM, "e5", {"e5": "1l"}, extra="stock 1: tokens=0 legends=0")
    assert me.asked == [] and arena(game)["e5"] == "1l" and len(arena(game)) == 4


# ----- Titan: clears its surroundings without counting
TITAN = "legend/titan"
TITAN_AROUND = {"e2": "2l", "d3": "2h", "f2": "2l", "d2": "2c", "f4": "1h"}


def test_titan_destroys_around_it_without_counting():
    game, me = play(TITAN, "e3", TITAN_AROUND)
    assert me.asked == []
    a = arena(game)
    assert not {"e2", "d3", "d2", "f4", "e4"} & set(a)  # own pieces too, its pattern piece e4 included
    assert a["f2"] == "2l" and a["e3"] == "1l"
    assert game.state.counters.destroyed == [0, 0, 0]


def test_titan_summoned_onto_an_enemy_piece_counts_that_one():
    game, _ = play(TITAN, "e3", {**TITAN_AROUND, "e3": "2c"}, extra="mode: deathmatch")
    assert game.state.counters.destroyed == [1, 0, 0]
    game.end_turn(0)
    assert game.state.dm_points[0] == 1  # the legend summon; one common and the Titan's victims score nothing


# ----- every legend in random positions with random choices keeps the state consistent
def _random_position(rng: random.Random, card_id: str) -> tuple[str, str]:
    """A summoning square for ``card_id`` with its pattern (some pieces upgraded) and random pieces around."""
    card = load_card_set().by_id[card_id]
    placement = rng.choice(card.placements)
    at = board.name(placement.origin)
    pieces = {board.name(board.offset(placement.origin, dx, dy)): f"1{RANK_OF[max(r, rng.choice((0, 0, 1)))]}"
              for dx, dy, r in oriented(card.pattern, placement.orientation).cells}
    legends = [sum(1 for v in pieces.values() if v == "1l"), 0]
    tokens = [len(pieces) - legends[0], 0]
    for s in board.SQUARES:
        name = board.name(s)
        if name in pieces or rng.random() < 0.5:
            continue
        p, r = rng.randrange(2), rng.choice((0, 0, 1, 2))
        if r == LEGENDARY and legends[p] >= 2 or r < LEGENDARY and tokens[p] >= 15:
            continue
        legends[p] += r == LEGENDARY
        tokens[p] += r < LEGENDARY
        pieces[name] = f"{p + 1}{RANK_OF[r]}"
    mode = rng.choice(("high-form", "deathmatch"))
    return at, f"mode: {mode}\nlegends 1: {card_id}\narena:\n{grid(pieces)}"


@pytest.mark.parametrize("card_id", [c.id for c in load_card_set().legends])
def test_legend_in_random_positions_keeps_the_state_consistent(card_id):
    from sim.scenario import load_scenario

    rng = random.Random(card_id)
    for i in range(25):
        at, text = _random_position(rng, card_id)
        game = load_scenario(text, [RandomStrategy(i), RandomStrategy(i + 1)])
        card = game.state.legend_hand[0][0]
        options = [pl for pl in game.legal_placements(0, card) if pl.origin == sq(at)]
        if not options:
            continue
        with game.edit() as s:
            s.actions_left -= 1
        game.summon(0, card, options[0])
        game.state.check_invariants()
        game.end_turn(0)
        game.state.check_invariants()
