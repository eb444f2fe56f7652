"""Scenario tests of the Highland beings.

Positions are written compactly: ``"1c d6 f6 2h b5"`` puts player 1's common pieces on d6 and f6 and a
heroic piece of player 2 on b5 (a piece code applies to the squares after it).
"""

from __future__ import annotations

from sim import board
from sim.game import Game
from tests.helpers import Answer, Scripted, arena, setup, sq, summon


def position(card: str, pieces: str, extra: str = "") -> str:
    """Scenario text: player 1 (Highland, to play) holds ``card``; ``pieces`` as in the module docstring."""
    at: dict[str, str] = {}
    code = ""
    for tok in pieces.split():
        if tok[0] in "12":
            code = tok
        else:
            at[tok] = code
    rows = []
    for y in range(1, 10):
        rows.append(" ".join(
            "--" if not board.on_arena(x, y) else at.get(board.name(board.square(x, y)), "..")
            for x in range(1, 10)))
    return f"decks: highland, imperial\nhand 1: {card}\n{extra}\narena:\n" + "\n".join(rows)


def play(card: str, pieces: str, *answers: Answer, at: str = "e5", extra: str = "") -> tuple[Game, Scripted]:
    """Summon highland ``card`` at ``at`` in the position, player 1 answering the effect's decisions."""
    cid = f"highland/{card}"
    game, me = setup(position(cid, pieces, extra), *answers)
    summon(game, cid, at)
    return game, me


def pair(a: str, b: str) -> tuple[int, int]:
    return sq(a), sq(b)


def squares(*names: str) -> set[int]:
    return {sq(n) for n in names}


def sources(moves: list) -> set[int]:
    """The squares of the pieces a move decision lets move."""
    return {m[0] for m in moves if m is not None}


def destroyed(game: Game) -> list[int]:
    return game.state.counters.destroyed


# ----- Wild Eagle: may combat leap anywhere
EAGLE = "1c d6 f6 2c h8 2h b5"


def test_wild_eagle_combat_leaps_onto_an_enemy_common():
    game, me = play("wild-eagle", EAGLE, ("e5", "h8"))
    opts = me.asked[0].options
    assert pair("e5", "h8") in opts and pair("e5", "a5") in opts and pair("e5", "d6") in opts and None in opts
    assert pair("e5", "b5") not in opts  # a common cannot leap onto a heroic piece
    a = arena(game)
    assert a["h8"] == "1c" and "e5" not in a
    assert destroyed(game) == [1, 0, 0]


def test_wild_eagle_may_stay():
    game, _ = play("wild-eagle", EAGLE, None)
    assert arena(game)["e5"] == "1c" and arena(game)["h8"] == "2c"


# ----- Eagle Lord: may combat leap anywhere
def test_eagle_lord_combat_leaps_onto_an_enemy_heroic_but_not_a_legend():
    game, me = play("eagle-lord", "1c c5 g5 d6 f6 2h b5 2l h8", ("e5", "b5"))
    opts = me.asked[0].options
    assert pair("e5", "h8") not in opts and None in opts
    assert arena(game)["b5"] == "1h" and "e5" not in arena(game)
    assert destroyed(game) == [0, 1, 0]


def test_eagle_lord_may_stay():
    game, _ = play("eagle-lord", "1c c5 g5 d6 f6 2h b5", None)
    assert arena(game)["e5"] == "1h" and arena(game)["b5"] == "2h"


# ----- Clan Axeman: may destroy an orthogonal non-legendary piece
AXEMAN = "1c f4 d6 e6 2c e4 2h f5 2l d5"


def test_clan_axeman_destroys_an_orthogonal_heroic():
    game, me = play("clan-axeman", AXEMAN, "f5")
    assert set(me.asked[0].options) == {sq("e4"), sq("f5"), sq("e6"), None}  # the legend on d5 is safe
    assert "f5" not in arena(game) and arena(game)["e4"] == "2c"
    assert destroyed(game) == [0, 1, 0]


def test_clan_axeman_may_decline():
    game, _ = play("clan-axeman", AXEMAN, None)
    assert arena(game)["f5"] == "2h" and arena(game)["e4"] == "2c"
    assert destroyed(game) == [0, 0, 0]


def test_clan_axeman_with_only_a_legend_near_asks_nothing():
    game, me = play("clan-axeman", "1c f4 d6 2l d5 2c d4")
    assert me.asked == []
    assert arena(game)["d5"] == "2l" and arena(game)["d4"] == "2c"


# ----- Clan Healer: may place up to 2 commons next to green squares
HEALER = "1c f4 d5 f5 2c b4"


def test_clan_healer_places_two_commons_next_to_green():
    game, me = play("clan-healer", HEALER, "c4", "g4")
    opts = me.asked[0].options
    assert sq("c4") in opts and sq("g7") in opts and None in opts
    assert sq("c3") not in opts and sq("b4") not in opts and sq("e6") not in opts  # green, occupied, far
    assert sq("c4") not in me.asked[1].options
    assert arena(game)["c4"] == "1c" and arena(game)["g4"] == "1c"


def test_clan_healer_may_place_one_or_none():
    game, me = play("clan-healer", HEALER, "c4", None)
    assert arena(game)["c4"] == "1c" and len(arena(game)) == 6
    game, me = play("clan-healer", HEALER, None)
    assert len(me.asked) == 1 and len(arena(game)) == 5


def test_clan_healer_is_limited_by_the_stock():
    game, me = play("clan-healer", HEALER, "c4", extra="stock 1: tokens=2")  # one goes to the Healer
    assert len(me.asked) == 1 and game.state.tokens[0] == 0
    game, me = play("clan-healer", HEALER, extra="stock 1: tokens=1")
    assert me.asked == [] and arena(game)["e5"] == "1c"


# ----- Dire Wolf: up to 2 combat moves
WOLF = "1c d6 e6 c7 2c f4 2h f5"


def test_dire_wolf_makes_two_combat_moves():
    game, me = play("dire-wolf", WOLF, ("e5", "f4"), ("f4", "g3"))
    opts = me.asked[0].options
    assert pair("e5", "f4") in opts and pair("e5", "d6") in opts and None in opts
    assert pair("e5", "f5") not in opts  # a common cannot enter a heroic piece
    assert arena(game)["g3"] == "1c" and "f4" not in arena(game)
    assert destroyed(game) == [1, 0, 0]


def test_dire_wolf_may_stop_after_one_move_or_stay():
    game, me = play("dire-wolf", WOLF, ("e5", "e4"), None)
    assert arena(game)["e4"] == "1c" and len(me.asked) == 2
    game, _ = play("dire-wolf", WOLF, None)
    assert arena(game)["e5"] == "1c"


# ----- Ritual Keeper: green upgrades a common of yours, red allows one combat move
def test_ritual_keeper_on_green_upgrades_one_of_your_commons():
    game, me = play("ritual-keeper", "1c c2 b3 e7 1h e8 2c d3", "e7", at="c3")
    assert set(me.asked[0].options) == {sq("c2"), sq("b3"), sq("c3"), sq("e7")}  # mandatory: no None
    assert arena(game)["e7"] == "1h"


def test_ritual_keeper_on_red_moves_one_of_your_pieces_in_combat():
    game, me = play("ritual-keeper", "1c e4 d5 g6 2c g7", ("g6", "g7"))
    assert pair("e4", "e3") in me.asked[0].options and None in me.asked[0].options
    assert arena(game)["g7"] == "1c" and "g6" not in arena(game)
    assert destroyed(game) == [1, 0, 0]


def test_ritual_keeper_on_red_may_decline():
    game, _ = play("ritual-keeper", "1c e4 d5 g6 2c g7", None)
    assert arena(game)["g6"] == "1c" and arena(game)["g7"] == "2c"


def test_ritual_keeper_elsewhere_does_nothing():
    game, me = play("ritual-keeper", "1c f4 e5 2c g6", at="f5")
    assert me.asked == [] and arena(game)["f5"] == "1c" and arena(game)["e5"] == "1c"


# ----- Wolf Rider: up to 2 combat moves
def test_wolf_rider_combat_moves_through_heroic_and_common():
    game, me = play("wolf-rider", "1c e6 f6 g6 e7 2h e4 2c e3 2l f4", ("e5", "e4"), ("e4", "e3"))
    assert pair("e5", "f4") not in me.asked[0].options and pair("e5", "e4") in me.asked[0].options
    assert arena(game)["e3"] == "1h" and arena(game)["f4"] == "2l"
    assert destroyed(game) == [1, 1, 0]


def test_wolf_rider_may_stay():
    game, _ = play("wolf-rider", "1c e6 f6 g6 e7 2h e4", None)
    assert arena(game)["e5"] == "1h" and arena(game)["e4"] == "2h"


# ----- Blood Shaman: destroy a non-legendary piece; on red, also the commons around it
SHAMAN = "1c f4 f5 d6 e6 i6 2h h6 h7 2c g5 g7 2l i7"


def test_blood_shaman_on_red_clears_the_commons_around_it():
    game, me = play("blood-shaman", SHAMAN, "h6")
    opts = me.asked[0].options
    assert None not in opts and sq("i7") not in opts  # mandatory; legends are safe
    assert sq("e5") in opts and sq("f4") in opts  # any piece, the Shaman and your own included
    a = arena(game)
    assert not {"h6", "g5", "g7", "i6"} & set(a)  # the own common on i6 goes too
    assert a["h7"] == "2h" and a["i7"] == "2l"
    assert destroyed(game) == [2, 1, 0]


def test_blood_shaman_off_red_destroys_one_piece():
    game, _ = play("blood-shaman", SHAMAN, "g5")
    a = arena(game)
    assert "g5" not in a and a["g7"] == "2c" and a["h6"] == "2h"
    assert destroyed(game) == [1, 0, 0]


# ----- War Drummer: your other pieces make 1 combat move or up to 2 standard moves
DRUMMER = "1c e5 f5 e6 f6 2c g5"


def test_war_drummer_combat_move_with_another_piece():
    game, me = play("war-drummer", DRUMMER, "1 combat move", ("f5", "g5"))
    assert me.asked[0].kind == "branch"
    assert me.asked[0].options == ["1 combat move", "up to 2 standard moves"]
    moves = me.asked[1].options
    assert None not in moves and all(src != sq("e5") for src, _ in moves)  # not the Drummer itself
    assert arena(game)["g5"] == "1c" and arena(game)["e5"] == "1h"
    assert destroyed(game) == [1, 0, 0]  # the own common summoned over does not count


def test_war_drummer_two_standard_moves():
    game, me = play("war-drummer", DRUMMER, "up to 2 standard moves", ("f6", "f7"), ("f7", "f8"))
    first = me.asked[1].options
    assert pair("f5", "g5") not in first and None in first  # standard: a common cannot enter a common
    assert arena(game)["f8"] == "1c" and arena(game)["g5"] == "2c"


def test_war_drummer_standard_moves_may_stop():
    game, me = play("war-drummer", DRUMMER, "up to 2 standard moves", ("e6", "d7"), None)
    assert arena(game)["d7"] == "1c" and len(me.asked) == 3


# ----- Hill Giant: destroys every orthogonal non-legendary piece
def test_hill_giant_destroys_orthogonal_non_legendary_pieces():
    game, me = play("hill-giant", "1c e6 d7 e7 f7 2c e4 d4 2h d5 2l f5")
    assert me.asked == []
    a = arena(game)
    assert not {"e4", "d5", "e6"} & set(a)  # e6 is its own pattern piece
    assert a["f5"] == "2l" and a["d4"] == "2c"
    assert destroyed(game) == [1, 1, 0]


# ----- Warlord: up to 3 combat moves; a third one needs the Warlord among them
WARLORD = "1c d6 e6 f6 c7 g7 2h e4"


def test_warlord_third_move_must_be_the_warlord_if_it_has_not_moved():
    game, me = play("warlord", WARLORD, ("c7", "c8"), ("g7", "g8"), ("e5", "e4"))
    third = me.asked[2].options
    assert None in third and sources(third) == {sq("e5")}
    assert pair("e5", "e4") in third  # combat: a heroic may enter a heroic
    assert arena(game)["e4"] == "1h"
    assert destroyed(game) == [0, 1, 0]


def test_warlord_moving_first_frees_the_other_moves():
    game, me = play("warlord", WARLORD, ("e5", "e4"), ("c7", "c8"), ("g7", "g8"))
    assert sources(me.asked[2].options) >= squares("e4", "c8", "g7")
    assert arena(game)["g8"] == "1c" and arena(game)["c8"] == "1c"


def test_warlord_may_make_fewer_moves():
    game, me = play("warlord", WARLORD, ("c7", "c8"), None)
    assert len(me.asked) == 2 and arena(game)["e5"] == "1h"
    game, me = play("warlord", WARLORD, None)
    assert arena(game)["e4"] == "2h"


# ----- War Summoner: gain an action; the next summon may use one enemy piece
def test_war_summoner_gains_an_action_and_lends_one_enemy_piece():
    text = position("highland/war-summoner, highland/hungry-bear", "1c d5 f5 e6 e7 h3 h4 h8 2c g4 h7 g8")
    game, me = setup(text, None)
    bear = next(c for c in game.state.hand[0] if c.id == "highland/hungry-bear")
    assert all(p.origin != sq("g3") for p in game.legal_placements(0, bear))
    summon(game, "highland/war-summoner", "e5")
    assert game.state.actions_left == 2 and game.state.counters.borrow_enemy_piece
    origins = {p.origin for p in game.legal_placements(0, bear)}
    assert sq("g3") in origins and sq("g7") not in origins  # one enemy piece, not two
    summon(game, "highland/hungry-bear", "g3")
    assert not game.state.counters.borrow_enemy_piece
    assert arena(game)["g4"] == "2c" and arena(game)["g3"] == "1h"


# ----- Ritual Master: green gains 2 actions; red may destroy a heroic and a common piece
MASTER_RED = "1c d4 d6 f6 1h a5 2h b5 2c h5 2l g2"


def test_ritual_master_on_green_gains_two_actions():
    game, me = play("ritual-master", "1c f2 f4 h4 2h g4", at="g3")
    assert me.asked == [] and game.state.actions_left == 3


def test_ritual_master_on_red_destroys_a_heroic_and_a_common():
    game, me = play("ritual-master", MASTER_RED, "b5", "h5")
    assert set(me.asked[0].options) == {sq("a5"), sq("b5"), sq("e5"), None}  # no legend; itself included
    assert set(me.asked[1].options) == {sq("d4"), sq("d6"), sq("f6"), sq("h5"), None}
    assert not {"b5", "h5"} & set(arena(game)) and arena(game)["g2"] == "2l"
    assert destroyed(game) == [1, 1, 0] and game.state.actions_left == 1


def test_ritual_master_on_red_each_destruction_is_optional():
    game, _ = play("ritual-master", MASTER_RED, None, "h5")
    assert arena(game)["b5"] == "2h" and "h5" not in arena(game)
    assert destroyed(game) == [1, 0, 0]
    game, _ = play("ritual-master", MASTER_RED, None, None)
    assert destroyed(game) == [0, 0, 0] and len(arena(game)) == 8


def test_ritual_master_elsewhere_does_nothing():
    game, me = play("ritual-master", "1c e4 e6 g6 2h b5", at="f5")
    assert me.asked == [] and game.state.actions_left == 1 and arena(game)["b5"] == "2h"


# ----- Legend Slayer: a diagonal legend, or up to 2 diagonal non-legendary pieces
SLAYER = "1c e6 f6 e7 g7 2l d4 2h f4 2c d6"


def test_legend_slayer_destroys_one_legend_and_stops():
    game, me = play("legend-slayer", SLAYER, "d4")
    assert set(me.asked[0].options) == {sq("d4"), sq("f4"), sq("d6"), sq("f6"), None}
    assert len(me.asked) == 1 and arena(game)["f4"] == "2h" and "d4" not in arena(game)
    assert destroyed(game) == [0, 0, 1]


def test_legend_slayer_destroys_two_non_legendary_pieces():
    game, me = play("legend-slayer", SLAYER, "f4", "d6")
    assert set(me.asked[1].options) == {sq("d6"), sq("f6"), None}  # no legend after a non-legendary one
    assert arena(game)["d4"] == "2l" and not {"f4", "d6"} & set(arena(game))
    assert destroyed(game) == [1, 1, 0]


def test_legend_slayer_may_stop_after_one_or_decline():
    game, _ = play("legend-slayer", SLAYER, "f4", None)
    assert destroyed(game) == [0, 1, 0] and arena(game)["d6"] == "2c"
    game, _ = play("legend-slayer", SLAYER, None)
    assert destroyed(game) == [0, 0, 0] and len(arena(game)) == 8


# ----- Mountain Troll: destroys adjacent enemy commons; 2 or more gain an action
def test_mountain_troll_destroys_adjacent_enemy_commons_and_gains_an_action():
    game, me = play("mountain-troll", "1c d6 e6 e7 f7 2c d4 f5 g5 2h e4")
    a = arena(game)
    assert me.asked == [] and not {"d4", "f5"} & set(a)
    assert a["e4"] == "2h" and a["g5"] == "2c" and a["d6"] == "1c"
    assert destroyed(game) == [2, 0, 0] and game.state.actions_left == 2


def test_mountain_troll_one_common_gains_no_action():
    game, _ = play("mountain-troll", "1c d6 e6 e7 f7 2c d4 2h e4")
    assert destroyed(game) == [1, 0, 0] and game.state.actions_left == 1


def test_mountain_troll_does_not_count_the_piece_it_was_summoned_onto():
    game, _ = play("mountain-troll", "1c d6 e6 e7 f7 2c e5 d4")
    assert destroyed(game) == [2, 0, 0] and game.state.actions_left == 1


# ----- Hungry Bear: up to 2 standard moves, stopping on an empty square
BEAR = "1c f5 e6 f6 2c d4 c3 2h e4"


def test_hungry_bear_eats_then_moves_on():
    game, me = play("hungry-bear", BEAR, ("e5", "d4"), ("d4", "c3"))
    first = me.asked[0].options
    assert pair("e5", "d4") in first and pair("e5", "f5") in first and None in first
    assert pair("e5", "e4") not in first  # standard: a heroic cannot enter a heroic
    assert arena(game)["c3"] == "1h"
    assert destroyed(game) == [2, 0, 0]


def test_hungry_bear_stops_on_an_empty_square():
    game, me = play("hungry-bear", BEAR, ("e5", "d5"))
    assert len(me.asked) == 1 and arena(game)["d5"] == "1h"


def test_hungry_bear_may_stop_or_stay():
    game, me = play("hungry-bear", BEAR, ("e5", "d4"), None)
    assert arena(game)["d4"] == "1h" and len(me.asked) == 2
    game, _ = play("hungry-bear", BEAR, None)
    assert arena(game)["e5"] == "1h"


# ----- Werewolf: 3 combat moves on an outer coloured square, else 1 standard move
def test_werewolf_on_outer_red_makes_three_combat_moves():
    game, me = play("werewolf", "1c f5 e6 f7 2h h5 2c h4 h3", ("h6", "h5"), ("h5", "h4"), ("h4", "h3"),
                    at="h6")
    assert len(me.asked) == 3 and arena(game)["h3"] == "1h"
    assert destroyed(game) == [2, 1, 0]


def test_werewolf_on_green_moves_in_combat_and_may_stop():
    game, me = play("werewolf", "1c e2 d3 e4 2h g2", ("g3", "g2"), None, at="g3")
    assert arena(game)["g2"] == "1h" and len(me.asked) == 2
    assert destroyed(game) == [0, 1, 0]


def test_werewolf_on_the_central_red_makes_one_standard_move():
    game, me = play("werewolf", "1c c4 b5 c6 2h e4 2c d4", ("e5", "d4"))
    opts = me.asked[0].options
    assert pair("e5", "e4") not in opts and None in opts
    assert len(me.asked) == 1 and arena(game)["d4"] == "1h"
    assert destroyed(game) == [1, 0, 0]


def test_werewolf_elsewhere_may_stay():
    game, me = play("werewolf", "1c d4 c5 d6 2h f4", None, at="f5")
    assert pair("f5", "f4") not in me.asked[0].options and arena(game)["f5"] == "1h"


# ----- Clan Guardian: may upgrade a common piece of its pattern
GUARDIAN = "1c c5 f5 e6 1h d5"


def test_clan_guardian_upgrades_a_common_pattern_piece():
    game, me = play("clan-guardian", GUARDIAN, "f5")
    assert set(me.asked[0].options) == {sq("c5"), sq("f5"), None}  # not the heroic d5, not e6 (no pattern)
    assert arena(game)["f5"] == "1h" and arena(game)["c5"] == "1c"


def test_clan_guardian_may_decline():
    game, _ = play("clan-guardian", GUARDIAN, None)
    assert arena(game)["f5"] == "1c" and arena(game)["c5"] == "1c"


def test_clan_guardian_with_an_upgraded_pattern_asks_nothing():
    game, me = play("clan-guardian", "1h c5 d5 f5 1c e6")
    assert me.asked == [] and arena(game)["e6"] == "1c"


def test_clan_guardian_may_upgrade_an_enemy_piece_borrowed_for_its_pattern():
    text = position("highland/war-summoner, highland/clan-guardian", "1c d5 f5 e6 e7 d2 g2 2c e2")
    game, me = setup(text, "e2")
    summon(game, "highland/war-summoner", "e5")
    summon(game, "highland/clan-guardian", "f2")
    assert set(me.asked[0].options) == {sq("d2"), sq("e2"), sq("g2"), None}
    assert arena(game)["e2"] == "2h"
