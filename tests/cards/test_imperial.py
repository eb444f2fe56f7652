"""Scenario tests of the Imperial beings."""

from sim import board
from tests.helpers import arena, setup, sq, summon

SWORDMASTER = """
hand 1: imperial/swordmaster
arena:
-- -- .. .. .. .. .. -- --
-- .. .. .. .. .. .. .. --
.. .. .. .. .. .. .. .. ..
.. .. .. .. 1c .. .. .. ..
.. .. .. 2c .. 2h .. .. ..
.. .. .. 2c 1c .. .. .. ..
.. .. .. .. .. .. .. .. ..
-- .. .. .. .. .. .. .. --
-- -- .. .. .. .. .. -- --
"""


def scene(card: str, pieces: str, *fields: str) -> str:
    """Scenario text: player 1 holds ``card``; the arena holds ``pieces`` written like "e5=1c d6=2h"."""
    where = dict(p.split("=") for p in pieces.split())
    rows = [" ".join(where.get(f"{'abcdefghi'[x - 1]}{y}", ".." if board.on_arena(x, y) else "--")
                     for x in range(1, 10)) for y in range(1, 10)]
    return "\n".join([f"hand 1: imperial/{card}", *fields, "arena:", *rows])


def squares(*names: str) -> list[int]:
    return [sq(n) for n in names]


def moves(*pairs: tuple[str, str]) -> set[tuple[int, int]]:
    return {(sq(a), sq(b)) for a, b in pairs}


def sources(options: list) -> set[int]:
    return {o[0] for o in options if o is not None}


# ----- Swordmaster
def test_swordmaster_destroys_a_diagonal_common_and_upgrades():
    game, me = setup(SWORDMASTER, "d6")
    summon(game, "imperial/swordmaster", "e5")
    assert me.asked[0].options == [sq("d6"), None]
    a = arena(game)
    assert a["e5"] == "1h" and "d6" not in a and a["d5"] == "2c" and a["f5"] == "2h"
    assert game.state.counters.destroyed == [1, 0, 0]


def test_swordmaster_may_decline():
    game, me = setup(SWORDMASTER, None)
    summon(game, "imperial/swordmaster", "e5")
    assert arena(game)["e5"] == "1c" and arena(game)["d6"] == "2c"


def test_swordmaster_ignores_orthogonal_and_heroic_pieces():
    game, me = setup(SWORDMASTER.replace(".. .. .. 2c 1c", ".. .. .. .. 1c"))
    summon(game, "imperial/swordmaster", "e5")
    assert me.asked == []  # nothing to destroy: no decision offered
    assert arena(game)["e5"] == "1c"


# ----- Messenger: pattern f6 g7 for a summon at e5
MESSENGER = scene("messenger", "f6=1c g7=1c b3=1h d3=2c e3=2h h2=1l c7=2c")


def test_messenger_slides_a_heroic_piece_through_a_lower_piece():
    game, me = setup(MESSENGER, ("b3", "d3"))
    summon(game, "imperial/messenger", "e5")
    options = me.asked[0].options
    assert len(me.asked) == 1 and options[-1] is None
    assert moves(("b3", "c3"), ("b3", "d3")) <= set(options)
    assert (sq("b3"), sq("e3")) not in options  # a heroic piece stops: standard moves skip equal ranks
    assert (sq("f6"), sq("g7")) not in options  # a common cannot enter a common
    assert sq("h2") not in sources(options)  # legendary pieces cannot be sent
    assert sq("c7") not in sources(options)  # enemy pieces neither
    assert (sq("e5"), sq("a5")) in options  # the Messenger itself, several squares away
    a = arena(game)
    assert a["d3"] == "1h" and "b3" not in a and "c3" not in a and a["e3"] == "2h"
    assert game.state.counters.destroyed == [1, 0, 0]


def test_messenger_may_decline():
    game, me = setup(MESSENGER, None)
    summon(game, "imperial/messenger", "e5")
    assert arena(game)["b3"] == "1h" and arena(game)["d3"] == "2c"


# ----- Herald: pattern f6 g6 f7 for a summon at e5
HERALD = scene("herald", "f6=1c g6=1c f7=1c d5=2c a5=2c b4=1h b3=2c")


def test_herald_moves_one_piece_twice_onto_empty_squares():
    game, me = setup(HERALD, ("e5", "e4"), ("e4", "e3"))
    summon(game, "imperial/herald", "e5")
    first = me.asked[0].options
    assert first[-1] is None
    assert (sq("b4"), sq("b3")) not in first  # never onto an occupied square, even a lower one
    assert (sq("b4"), sq("c4")) in first
    assert sources(first) == set(squares("b4", "e5", "f6", "g6", "f7"))  # only the player's pieces
    a = arena(game)
    assert a["e3"] == "1c" and "e5" not in a and "e4" not in a
    assert len(me.asked) == 2


def test_herald_may_stop_after_one_move():
    game, me = setup(HERALD, ("g6", "h6"), None)
    summon(game, "imperial/herald", "e5")
    assert arena(game)["h6"] == "1c" and arena(game)["e5"] == "1c"


# ----- Bomb: pattern f6 f7 for a summon at e5
BOMB = "f6=1c f7=1c d4=2c e4=2c d5=2h d6=1c"


def test_bomb_explodes_when_actions_remain():
    game, me = setup(scene("bomb", BOMB, "actions: 2"))
    summon(game, "imperial/bomb", "e5")
    assert me.asked == []
    assert arena(game) == {"d5": "2h", "f7": "1c"}  # the Bomb, its common neighbours of both colours gone
    assert game.state.counters.destroyed == [2, 0, 0]  # own pieces do not count


def test_bomb_does_nothing_as_the_last_action():
    game, me = setup(scene("bomb", BOMB, "actions: 1"))
    summon(game, "imperial/bomb", "e5")
    assert arena(game)["e5"] == "1c" and arena(game)["d4"] == "2c" and arena(game)["f6"] == "1c"
    assert game.state.counters.destroyed == [0, 0, 0]


# ----- Chronicler: pattern e4 d5 f5 for a summon at e5
CHRONICLER = scene("chronicler", "e4=1c d5=1c f5=1c c5=2c d4=2h")


def test_chronicler_upgrades_then_moves_the_piece():
    game, me = setup(CHRONICLER, "d5", ("d5", "c5"))
    summon(game, "imperial/chronicler", "e5")
    assert me.asked[0].options == squares("e4", "d5", "f5")  # mandatory, the Chronicler left out
    move = me.asked[1].options
    assert move[-1] is None and (sq("d5"), sq("c5")) in move
    assert (sq("d5"), sq("d4")) not in move  # standard move: not onto a heroic piece
    a = arena(game)
    assert a["c5"] == "1h" and "d5" not in a
    assert game.state.counters.destroyed == [1, 0, 0]


def test_chronicler_move_is_optional():
    game, me = setup(CHRONICLER, "f5", None)
    summon(game, "imperial/chronicler", "e5")
    assert arena(game)["f5"] == "1h" and arena(game)["e5"] == "1c"


def test_chronicler_with_one_candidate_upgrades_it_without_asking():
    game, me = setup(scene("chronicler", "e4=1c d5=1h f5=1h"), None)
    summon(game, "imperial/chronicler", "e5")
    assert [d.kind for d in me.asked] == ["move"]
    assert arena(game)["e4"] == "1h"


def test_chronicler_without_other_commons_does_nothing():
    game, me = setup(scene("chronicler", "e4=1h d5=1h f5=1l"))
    summon(game, "imperial/chronicler", "e5")
    assert me.asked == []
    assert arena(game) == {"e4": "1h", "d5": "1h", "f5": "1l", "e5": "1c"}


# ----- Assassin: pattern d2 c3 b4, marked d4 for a summon at e5 (orientation 0)
ASSASSIN = "d2=1c c3=1c b4=1c"


def test_assassin_destroys_even_a_legendary_piece_on_the_marked_square():
    game, me = setup(scene("assassin", ASSASSIN + " d4=2l"))
    summon(game, "imperial/assassin", "e5", 0)
    assert me.asked == []
    assert "d4" not in arena(game) and arena(game)["e5"] == "1h"
    assert game.state.counters.destroyed == [0, 0, 1]


def test_assassin_destroys_an_own_piece_without_counting_it():
    game, me = setup(scene("assassin", ASSASSIN + " d4=1c"))
    summon(game, "imperial/assassin", "e5", 0)
    assert "d4" not in arena(game) and arena(game)["e5"] == "1h"
    assert game.state.counters.destroyed == [0, 0, 0]


def test_assassin_may_step_onto_an_empty_marked_square():
    game, me = setup(scene("assassin", ASSASSIN), ("e5", "d4"))
    summon(game, "imperial/assassin", "e5", 0)
    assert me.asked[0].options == [(sq("e5"), sq("d4")), None]
    assert arena(game)["d4"] == "1h" and "e5" not in arena(game)


def test_assassin_may_stay():
    game, me = setup(scene("assassin", ASSASSIN), None)
    summon(game, "imperial/assassin", "e5", 0)
    assert arena(game)["e5"] == "1h"


def test_assassin_marked_square_turns_with_the_pattern():
    game, me = setup(scene("assassin", "h4=1c g3=1c f2=1c f4=2h d4=2c"))
    summon(game, "imperial/assassin", "e5", 1)  # a quarter turn: the marked square is f4
    assert "f4" not in arena(game) and arena(game)["d4"] == "2c"
    assert game.state.counters.destroyed == [0, 1, 0]


# ----- Time Mage: pattern d5 c6 e6 d7, marked d6 for a summon at e5
TIME_MAGE = "d5=1c c6=1c e6=1c d7=1c"


def test_time_mage_gains_an_action_and_destroys_the_enemy_on_the_marked_square():
    game, me = setup(scene("time-mage", TIME_MAGE + " d6=2h"))
    summon(game, "imperial/time-mage", "e5", 0)
    assert me.asked == []
    assert game.state.actions_left == 2  # 2, minus the summon, plus one
    assert "d6" not in arena(game)
    assert game.state.counters.destroyed == [0, 1, 0]


def test_time_mage_spares_an_own_piece_on_the_marked_square():
    game, me = setup(scene("time-mage", TIME_MAGE + " d6=1c"))
    summon(game, "imperial/time-mage", "e5", 0)
    assert arena(game)["d6"] == "1c" and game.state.actions_left == 2


# ----- Summoner: pattern d6 e6 f6; marked c3 e3 g3 d4 e4 f4 c5 d5 f5 g5 for a summon at e5
SUMMONER = "d6=1c e6=1c f6=1c e4=2c"


def test_summoner_places_two_commons_on_empty_marked_squares():
    game, me = setup(scene("summoner", SUMMONER), "d4", "g3")
    summon(game, "imperial/summoner", "e5", 0)
    assert me.asked[0].options == [*squares("c3", "e3", "g3", "d4", "f4", "c5", "d5", "f5", "g5"), None]
    a = arena(game)
    assert a["d4"] == "1c" and a["g3"] == "1c" and a["e4"] == "2c"


def test_summoner_may_stop_after_one():
    game, me = setup(scene("summoner", SUMMONER), "c5", None)
    summon(game, "imperial/summoner", "e5")
    assert arena(game)["c5"] == "1c" and len(arena(game)) == 6


def test_summoner_places_only_what_the_stock_holds():
    game, me = setup(scene("summoner", SUMMONER, "stock 1: tokens=2"), "c5")
    summon(game, "imperial/summoner", "e5")  # the Summoner takes one token, one is left to place
    assert len(me.asked) == 1 and arena(game)["c5"] == "1c" and game.state.tokens[0] == 0


# ----- Hypnotist: pattern f4 d5 f5 d6 for a summon at e5
HYPNOTIST = "f4=1c d5=1c f5=1c d6=1c c2=2c c3=2c h3=2c h7=2c b7=1c h6=1h h5=2h b5=2h c8=2h"


def test_hypnotist_moves_up_to_three_enemy_commons_once_each():
    game, me = setup(scene("hypnotist", HYPNOTIST), ("c2", "c3"), ("h3", "h4"), ("h7", "g7"))
    summon(game, "imperial/hypnotist", "e5")
    first, second = me.asked[0].options, me.asked[1].options
    assert first[-1] is None
    assert sources(first) == set(squares("c2", "c3", "h3", "h7", "h5", "b5", "c8"))
    assert (sq("c2"), sq("c3")) in first  # combat: onto an equal rank
    assert (sq("h7"), sq("h6")) not in first and (sq("h5"), sq("h6")) in first  # never onto a higher rank
    assert sources(second) == set(squares("h3", "h7"))  # commons only, and not the piece that moved
    assert len(me.asked) == 3
    a = arena(game)
    assert a["c3"] == "2c" and "c2" not in a and a["h4"] == "2c" and a["g7"] == "2c"
    assert game.state.counters.destroyed == [1, 0, 0]  # an enemy piece destroyed by an enemy piece counts


def test_hypnotist_moves_up_to_two_enemy_heroics():
    game, me = setup(scene("hypnotist", HYPNOTIST), ("h5", "h6"), ("b5", "b4"))
    summon(game, "imperial/hypnotist", "e5")
    assert sources(me.asked[1].options) == set(squares("b5", "c8"))
    assert len(me.asked) == 2
    a = arena(game)
    assert a["h6"] == "2h" and a["b4"] == "2h"
    assert game.state.counters.destroyed == [0, 0, 0]  # own heroic destroyed: not counted


def test_hypnotist_may_decline_and_needs_enemy_pieces():
    game, me = setup(scene("hypnotist", HYPNOTIST), None)
    summon(game, "imperial/hypnotist", "e5")
    assert len(me.asked) == 1 and arena(game)["c2"] == "2c"
    game, me = setup(scene("hypnotist", "f4=1c d5=1c f5=1c d6=1c a5=2l"))
    summon(game, "imperial/hypnotist", "e5")
    assert me.asked == []


# ----- Cannon: pattern d5, e5 (own), c6; arrows NW N NE E SE S SW (not W) for a summon at e5
CANNON = "d5=1c e5=1c c6=1c f5=2c g5=2h h5=1c i5=2c b5=2c e2=2h"


def test_cannon_destroys_every_common_in_the_chosen_direction():
    game, me = setup(scene("cannon", CANNON), 2)
    summon(game, "imperial/cannon", "e5", 0)
    assert me.asked[0].options == [2, None]  # W has no arrow; N holds no common piece
    a = arena(game)
    assert "f5" not in a and "h5" not in a and "i5" not in a and a["g5"] == "2h" and a["b5"] == "2c"
    assert game.state.counters.destroyed == [2, 0, 0]


def test_cannon_may_decline():
    game, me = setup(scene("cannon", CANNON), None)
    summon(game, "imperial/cannon", "e5", 0)
    assert arena(game)["f5"] == "2c"


def test_cannon_arrows_turn_with_the_pattern():
    game, me = setup(scene("cannon", "f5=1c e5=1c g6=1c b5=2c c5=2c h5=2c"), 6)
    summon(game, "imperial/cannon", "e5", 4)  # mirrored: W has an arrow, E has none
    assert me.asked[0].options == [6, None]
    assert arena(game)["h5"] == "2c" and "b5" not in arena(game) and "c5" not in arena(game)


def test_cannon_without_common_targets_asks_nothing():
    game, me = setup(scene("cannon", "d5=1c e5=1c c6=1c e2=2h b5=2c"))
    summon(game, "imperial/cannon", "e5", 0)
    assert me.asked == []


# ----- Champion: pattern d5 d6 e6 e7 for a summon at e5
CHAMPION = "d5=1c d6=1c e6=1c e7=1c f4=2c f5=2h d4=2l"


def test_champion_destroys_an_adjacent_enemy():
    game, me = setup(scene("champion", CHAMPION), "f5")
    summon(game, "imperial/champion", "e5")
    assert me.asked[0].options == [*squares("d4", "f4", "f5"), None]  # own neighbours are not offered
    assert arena(game)["e5"] == "1h" and "f5" not in arena(game)
    assert game.state.counters.destroyed == [0, 1, 0] and game.state.actions_left == 1


def test_champion_killing_a_legend_dies_and_gains_an_action():
    game, me = setup(scene("champion", CHAMPION), "d4")
    summon(game, "imperial/champion", "e5")
    a = arena(game)
    assert "d4" not in a and "e5" not in a
    assert game.state.counters.destroyed == [0, 0, 1]  # the Champion itself does not count
    assert game.state.actions_left == 2


def test_champion_legend_kill_scores_two_in_deathmatch():
    game, me = setup(scene("champion", CHAMPION, "mode: deathmatch"), "d4")
    summon(game, "imperial/champion", "e5")
    game.end_turn(0)
    assert game.state.dm_points == [2, 0]


def test_champion_may_decline_and_needs_an_adjacent_enemy():
    game, me = setup(scene("champion", CHAMPION), None)
    summon(game, "imperial/champion", "e5")
    assert len(arena(game)) == 8
    game, me = setup(scene("champion", "d5=1c d6=1c e6=1c e7=1c g5=2c"))
    summon(game, "imperial/champion", "e5")
    assert me.asked == []


# ----- Infantry Captain: pattern c6 d6 f6 g6 for a summon at e5
INFANTRY = "c6=1c d6=1c f6=1c g6=1c c7=2c h3=1h h4=2h b6=2l"


def test_infantry_captain_makes_two_combat_moves_with_other_pieces():
    game, me = setup(scene("infantry-captain", INFANTRY), ("c6", "c7"), ("h3", "h4"))
    summon(game, "imperial/infantry-captain", "e5")
    first = me.asked[0].options
    assert sq("e5") not in sources(first)  # not the Captain
    assert (sq("c6"), sq("b6")) not in first  # a combat move cannot enter a higher rank
    a = arena(game)
    assert a["c7"] == "1c" and a["h4"] == "1h" and a["e5"] == "1h"
    assert game.state.counters.destroyed == [1, 1, 0]


def test_infantry_captain_may_move_one_piece_twice_or_stop():
    game, me = setup(scene("infantry-captain", INFANTRY), ("g6", "g7"), ("g7", "g8"))
    summon(game, "imperial/infantry-captain", "e5")
    assert arena(game)["g8"] == "1c"
    game, me = setup(scene("infantry-captain", INFANTRY), None)
    summon(game, "imperial/infantry-captain", "e5")
    assert len(me.asked) == 1 and arena(game)["c6"] == "1c"


# ----- Cavalry Captain: pattern d6 f6 d7 f7 for a summon at e5
CAVALRY = "d6=1c f6=1c d7=1c f7=1c c3=1h d3=2h e3=2c d2=2h"


def test_cavalry_captain_one_combat_and_two_standard_moves():
    game, me = setup(scene("cavalry-captain", CAVALRY), ("c3", "d3"), ("d3", "e3"), ("e3", "e2"))
    summon(game, "imperial/cavalry-captain", "e5")
    assert sq("e5") not in sources(me.asked[0].options)
    second = me.asked[1].options
    assert sources(second) == {sq("d3")}  # only the chosen piece
    assert (sq("d3"), sq("d2")) not in second  # the combat move is spent: no equal rank now
    assert len(me.asked) == 3
    a = arena(game)
    assert a["e2"] == "1h" and "c3" not in a and "d3" not in a and "e3" not in a
    assert game.state.counters.destroyed == [1, 1, 0]


def test_cavalry_captain_moves_in_any_order():
    game, me = setup(scene("cavalry-captain", CAVALRY), ("c3", "c4"), ("c4", "d4"), ("d4", "d3"))
    summon(game, "imperial/cavalry-captain", "e5")
    assert arena(game)["d3"] == "1h" and game.state.counters.destroyed == [0, 1, 0]


def test_cavalry_captain_may_decline():
    game, me = setup(scene("cavalry-captain", CAVALRY), None)
    summon(game, "imperial/cavalry-captain", "e5")
    assert arena(game)["c3"] == "1h"


# ----- Gryphon Rider: pattern d5 c6 e6 f7 for a summon at e5
GRYPHON = "d5=1c c6=1c e6=1c f7=1c h2=2h a5=2l"


def test_gryphon_rider_leaps_then_downgrades_to_place_a_piece():
    game, me = setup(scene("gryphon-rider", GRYPHON), ("e5", "h2"), "h2", "g3")
    summon(game, "imperial/gryphon-rider", "e5")
    assert (sq("e5"), sq("a5")) not in me.asked[0].options  # no combat leap onto a legendary piece
    assert me.asked[1].options == [sq("h2"), None]
    a = arena(game)
    assert a["h2"] == "1c" and a["g3"] == "1c" and "e5" not in a
    assert game.state.counters.destroyed == [0, 1, 0]


def test_gryphon_rider_may_keep_her_rank():
    game, me = setup(scene("gryphon-rider", GRYPHON), ("e5", "h2"), None)
    summon(game, "imperial/gryphon-rider", "e5")
    assert arena(game)["h2"] == "1h" and len(me.asked) == 2


def test_gryphon_rider_without_a_leap_offers_nothing_more():
    game, me = setup(scene("gryphon-rider", GRYPHON), None)
    summon(game, "imperial/gryphon-rider", "e5")
    assert len(me.asked) == 1 and arena(game)["e5"] == "1h"


def test_gryphon_rider_downgrades_but_places_nothing_from_an_empty_stock():
    game, me = setup(scene("gryphon-rider", GRYPHON, "stock 1: tokens=1"), ("e5", "h2"), "h2")
    summon(game, "imperial/gryphon-rider", "e5")
    assert [d.kind for d in me.asked] == ["leap", "downgrade"]
    assert arena(game)["h2"] == "1c" and len(arena(game)) == 6


# ----- Knight: pattern d6 e6 f6 d7 for a summon at e5
KNIGHT = "d6=1c e6=1c f6=1c d7=1c d4=2c f4=2c f5=2l e3=2h"


def test_knight_makes_three_combat_moves_sparing_commons():
    game, me = setup(scene("knight", KNIGHT), ("e5", "e4"), ("e4", "e3"), ("e3", "e2"))
    summon(game, "imperial/knight", "e5")
    first = me.asked[0].options
    assert set(first) == {*moves(("e5", "d5"), ("e5", "e4")), None}  # not onto commons nor a legend
    assert len(me.asked) == 3
    assert arena(game)["e2"] == "1h" and "e3" not in arena(game)
    assert game.state.counters.destroyed == [0, 1, 0]


def test_knight_may_stop():
    game, me = setup(scene("knight", KNIGHT), ("e5", "e4"), None)
    summon(game, "imperial/knight", "e5")
    assert arena(game)["e4"] == "1h" and arena(game)["e3"] == "2h"


# ----- High Priestess: own common on e5, pattern d7 f7
PRIESTESS = "e5=1c d7=1c f7=1c e4=2c d3=2c f3=2h f4=1c"


def test_high_priestess_moves_then_upgrades_an_adjacent_common_of_any_colour():
    game, me = setup(scene("high-priestess", PRIESTESS), ("e5", "e4"), "d3")
    summon(game, "imperial/high-priestess", "e5")
    assert me.asked[1].options == [*squares("d3", "f4"), None]  # commons next to her new square
    a = arena(game)
    assert a["e4"] == "1h" and a["d3"] == "2h" and "e5" not in a
    assert game.state.counters.destroyed == [1, 0, 0]


def test_high_priestess_upgrades_without_moving():
    game, me = setup(scene("high-priestess", PRIESTESS), None, "f4")
    summon(game, "imperial/high-priestess", "e5")
    assert (sq("e5"), sq("e4")) in me.asked[0].options
    assert me.asked[1].options == [*squares("e4", "f4"), None]
    assert arena(game)["f4"] == "1h" and arena(game)["e5"] == "1h"


def test_high_priestess_standard_move_cannot_enter_a_heroic_piece():
    game, me = setup(scene("high-priestess", PRIESTESS.replace("e4=2c", "e4=2h")), None, None)
    summon(game, "imperial/high-priestess", "e5")
    assert (sq("e5"), sq("e4")) not in me.asked[0].options
    assert arena(game)["f4"] == "1c"


# ----- Master of Intrigue: pattern d4 f4 d6 f6 for a summon at e5
INTRIGUE = "d4=1c f4=1c d6=1c f6=1l c3=2c e4=2h h8=1c"


def test_master_of_intrigue_mixes_his_moves_and_pattern_combat_moves():
    game, me = setup(scene("master-of-intrigue", INTRIGUE), ("d4", "c3"), ("e5", "e6"), ("c3", "c2"))
    summon(game, "imperial/master-of-intrigue", "e5")
    first = me.asked[0].options
    assert sources(first) == set(squares("e5", "d4", "f4", "d6"))  # not the legendary f6, not h8
    assert (sq("e5"), sq("e4")) not in first  # his moves are standard
    assert (sq("d4"), sq("c3")) in first  # pattern moves are combat
    assert len(me.asked) == 3
    a = arena(game)
    assert a["c2"] == "1c" and a["e6"] == "1h" and "d4" not in a and "c3" not in a
    assert game.state.counters.destroyed == [1, 0, 0]


def test_master_of_intrigue_may_stop():
    game, me = setup(scene("master-of-intrigue", INTRIGUE), None)
    summon(game, "imperial/master-of-intrigue", "e5")
    assert arena(game)["e5"] == "1h" and arena(game)["c3"] == "2c"


# ----- Gun Tower: pattern e6 f6 e7 f7, arrows W and E for a summon at e5
GUN_TOWER = "e6=1c f6=1c e7=1c f7=1c f5=2c h5=1h i5=2h c5=2h b5=2l a5=2c e4=2c"


def test_gun_tower_destroys_the_first_two_pieces():
    game, me = setup(scene("gun-tower", GUN_TOWER), 2)
    summon(game, "imperial/gun-tower", "e5", 0)
    assert me.asked[0].options == [6, 2, None]  # only the arrows: N is not one
    a = arena(game)
    assert "f5" not in a and "h5" not in a and a["i5"] == "2h"
    assert game.state.counters.destroyed == [1, 0, 0]


def test_gun_tower_shot_stops_at_a_legendary_piece():
    game, me = setup(scene("gun-tower", GUN_TOWER), 6)
    summon(game, "imperial/gun-tower", "e5", 0)
    a = arena(game)
    assert "c5" not in a and a["b5"] == "2l" and a["a5"] == "2c"
    assert game.state.counters.destroyed == [0, 1, 0]


def test_gun_tower_without_targets_asks_nothing():
    game, me = setup(scene("gun-tower", "e6=1c f6=1c e7=1c f7=1c d5=2l a5=2c e4=2c"))
    summon(game, "imperial/gun-tower", "e5", 0)
    assert me.asked == [] and arena(game)["a5"] == "2c"
