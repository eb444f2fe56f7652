"""Scenario tests of the Sylvan beings."""

from __future__ import annotations

from sim import board
from sim.board import DIRECTIONS
from sim.record import ToDeck
from tests.helpers import arena, setup, sq, summon

NE, SE, SW, NW = (DIRECTIONS.index(d) for d in ((1, -1), (1, 1), (-1, 1), (-1, -1)))


def position(card: str, pieces: str, *extra: str) -> str:
    """A scenario: player 1 (Sylvan, against Imperial) holds ``card``; ``pieces`` like "e6=1c f5=2h"."""
    at = dict(p.split("=") for p in pieces.split())
    rows = []
    for y in range(1, 10):
        row = []
        for x in range(1, 10):
            if not board.on_arena(x, y):
                row.append("--")
            else:
                row.append(at.pop(board.name(board.square(x, y)), ".."))
        rows.append(" ".join(row))
    assert not at, f"not squares of the arena: {at}"
    return "\n".join(["decks: sylvan, imperial", f"hand 1: {card}", *extra, "arena:", *rows])


def moves(*pairs: tuple[str, str]) -> list[tuple[int, int]]:
    return [(sq(a), sq(b)) for a, b in pairs]


# ----- Sapling
def test_sapling_upgrades_itself():
    game, me = setup(position("sylvan/sapling", "e6=1c e7=1c"))
    summon(game, "sylvan/sapling", "e5")
    assert me.asked == []
    assert arena(game) == {"e5": "1h", "e6": "1c", "e7": "1c"}


# ----- Kiskin Farseeders
FARSEEDERS = "f5=1c d6=1c h8=2c"


def test_farseeders_place_next_to_one_of_your_pieces():
    game, me = setup(position("sylvan/kiskin-farseeders", FARSEEDERS), "g4")
    summon(game, "sylvan/kiskin-farseeders", "e5", 0)
    options = me.asked[0].options
    assert None in options and sq("g4") in options and sq("c7") in options
    assert sq("h7") not in options and sq("e5") not in options  # far from my pieces / occupied
    assert arena(game)["g4"] == "1c"


def test_farseeders_may_decline():
    game, _ = setup(position("sylvan/kiskin-farseeders", FARSEEDERS), None)
    summon(game, "sylvan/kiskin-farseeders", "e5", 0)
    assert arena(game) == {"e5": "1c", "f5": "1c", "d6": "1c", "h8": "2c"}


def test_farseeders_place_nothing_from_an_empty_stock():
    game, me = setup(position("sylvan/kiskin-farseeders", FARSEEDERS, "stock 1: tokens=1"))
    summon(game, "sylvan/kiskin-farseeders", "e5", 0)
    assert me.asked == [] and len(arena(game)) == 4


# ----- Charging Buck
BUCK = "d6=1c e6=1c d7=1c c3=2c g5=2h e4=2c"


def test_charging_buck_leaps_twice_at_distance_two():
    game, me = setup(position("sylvan/charging-buck", BUCK), ("e5", "e3"), ("e3", "c3"))
    summon(game, "sylvan/charging-buck", "e5", 0)
    first = me.asked[0].options
    assert None in first and (sq("e5"), sq("c3")) in first and (sq("e5"), sq("g3")) in first
    assert (sq("e5"), sq("g5")) not in first  # a common cannot leap onto a heroic piece
    assert (sq("e5"), sq("e4")) not in first  # distance 1
    a = arena(game)
    assert a["c3"] == "1c" and "e5" not in a and "e3" not in a and a["e4"] == "2c"
    assert game.state.counters.destroyed == [1, 0, 0]


def test_charging_buck_may_stop_after_one_leap_or_not_leap():
    game, me = setup(position("sylvan/charging-buck", BUCK), ("e5", "c3"), None)
    summon(game, "sylvan/charging-buck", "e5", 0)
    assert len(me.asked) == 2 and arena(game)["c3"] == "1c"
    game, _ = setup(position("sylvan/charging-buck", BUCK), None)
    summon(game, "sylvan/charging-buck", "e5", 0)
    assert arena(game)["e5"] == "1c" and game.state.counters.destroyed == [0, 0, 0]


# ----- Forest Wardens
def test_forest_wardens_destroy_a_common_and_a_heroic():
    pieces = "c5=1c f5=1c a5=2c b7=2c h3=2c h4=2c g7=2h"
    game, me = setup(position("sylvan/forest-wardens", pieces), "b7")
    summon(game, "sylvan/forest-wardens", "e5", 0)
    assert me.asked[0].options == [sq("h3"), sq("h4"), sq("a5"), sq("b7")]  # mandatory: no None
    assert len(me.asked) == 1  # the only heroic is destroyed without asking
    a = arena(game)
    assert "b7" not in a and "g7" not in a and a["a5"] == "2c"
    assert game.state.counters.destroyed == [1, 1, 0]


def test_forest_wardens_count_themselves_and_spare_legends():
    # 3 enemy commons against the Wardens and its 2 pattern pieces; the only upgraded enemy piece is a legend
    pieces = "c5=1c f5=1c a5=2c b7=2c h3=2c g7=2l"
    game, me = setup(position("sylvan/forest-wardens", pieces))
    summon(game, "sylvan/forest-wardens", "e5", 0)
    assert me.asked == []
    assert len(arena(game)) == 7 and game.state.counters.destroyed == [0, 0, 0]


# ----- Naiad
NAIAD = "c6=1c d6=1c e6=1c f4=1h g3=2c e7=2c"


def test_naiad_moves_two_different_pieces_next_to_it():
    game, me = setup(position("sylvan/naiad", NAIAD), ("d6", "d5"), ("f4", "g3"))
    summon(game, "sylvan/naiad", "e5", 0)
    first = me.asked[0].options
    assert None in first and {o[0] for o in first if o is not None} == {sq("d6"), sq("e6"), sq("f4")}
    assert (sq("e6"), sq("e7")) not in first  # standard: a common cannot take a common
    assert (sq("f4"), sq("g3")) in first
    assert sq("d5") not in {o[0] for o in me.asked[1].options[:-1]}  # the moved piece does not move again
    a = arena(game)
    assert a["d5"] == "1c" and a["g3"] == "1h" and "d6" not in a and "f4" not in a
    assert game.state.counters.destroyed == [1, 0, 0]


def test_naiad_moves_are_optional():
    game, me = setup(position("sylvan/naiad", NAIAD), ("e6", "f6"), None)
    summon(game, "sylvan/naiad", "e5", 0)
    assert len(me.asked) == 2 and arena(game)["f6"] == "1c"
    game, _ = setup(position("sylvan/naiad", NAIAD), None)
    summon(game, "sylvan/naiad", "e5", 0)
    assert arena(game)["f4"] == "1h" and arena(game)["d6"] == "1c"


# ----- Kiskin Spirit
SPIRIT = "c5=1c c6=1c e6=1c"


def _discard(game, *card_ids: str) -> None:
    with game.edit() as s:
        for cid in card_ids:
            card = next(c for c in s.deck[0] if c.id == cid)
            s.deck[0].remove(card)
            s.discarded[0].append(card)


def test_kiskin_spirit_puts_a_discarded_card_on_top_and_draws_one_more():
    game, me = setup(position("sylvan/kiskin-spirit", SPIRIT),
                     lambda d: next(c for c in d.options if c is not None and c.id == "sylvan/naiad"))
    _discard(game, "sylvan/sapling", "sylvan/naiad")
    summon(game, "sylvan/kiskin-spirit", "e5", 0)
    s = game.state
    assert [c.id if c else None for c in me.asked[0].options] == ["sylvan/sapling", "sylvan/naiad", None]
    assert s.deck[0][-1].id == "sylvan/naiad" and [c.id for c in s.discarded[0]] == ["sylvan/sapling",
                                                                                      "sylvan/kiskin-spirit"]
    assert s.counters.extra_draws == 1
    assert [e.card for e in s.record.of_kind(ToDeck)] == ["sylvan/naiad"]
    game.end_turn(0)
    assert len(s.hand[0]) == 4 and "sylvan/naiad" in [c.id for c in s.hand[0]]


def test_kiskin_spirit_declined_draws_nothing_extra():
    game, me = setup(position("sylvan/kiskin-spirit", SPIRIT), None)
    _discard(game, "sylvan/sapling")
    summon(game, "sylvan/kiskin-spirit", "e5", 0)
    assert game.state.counters.extra_draws == 0 and len(game.state.discarded[0]) == 2


def test_kiskin_spirit_with_an_empty_discard_pile_draws_one_more():
    game, me = setup(position("sylvan/kiskin-spirit", SPIRIT))
    summon(game, "sylvan/kiskin-spirit", "e5", 0)
    assert me.asked == [] and game.state.counters.extra_draws == 1


# ----- Dryad
DRYAD = "d4=1c e5=1c e6=1c d5=2c f5=2h f6=2l"


def test_dryad_converts_an_adjacent_heroic_to_your_common():
    game, me = setup(position("sylvan/dryad", DRYAD), "f5")
    summon(game, "sylvan/dryad", "e5", 0)
    assert me.asked[0].options == [sq("d5"), sq("f5"), None]  # the legendary piece is out of reach
    a = arena(game)
    assert a["e5"] == "1h" and a["f5"] == "1c" and a["d5"] == "2c" and a["f6"] == "2l"
    assert game.state.counters.destroyed == [0, 1, 0]


def test_dryad_may_decline_and_needs_a_token():
    game, _ = setup(position("sylvan/dryad", DRYAD), None)
    summon(game, "sylvan/dryad", "e5", 0)
    assert arena(game)["f5"] == "2h" and game.state.counters.destroyed == [0, 0, 0]
    # the summon frees the common on e5 and takes it back as the Dryad: no token left to convert with
    game, me = setup(position("sylvan/dryad", DRYAD, "stock 1: tokens=0"))
    summon(game, "sylvan/dryad", "e5", 0)
    assert me.asked == [] and arena(game)["d5"] == "2c"


# ----- Centaur Spearman
SPEARMAN = "d5=1c e5=1c f5=1c f6=1c"


def test_centaur_spearman_moves_and_spears_the_next_piece():
    game, me = setup(position("sylvan/centaur-spearman", SPEARMAN + " d2=2h c3=2h"), ("d4", "d3"))
    summon(game, "sylvan/centaur-spearman", "d4", 0)
    assert (sq("d4"), sq("c3")) in me.asked[0].options and None in me.asked[0].options  # combat: equal rank
    a = arena(game)
    assert a["d3"] == "1h" and "d2" not in a and a["c3"] == "2h"
    assert game.state.counters.destroyed == [0, 1, 0]


def test_centaur_spearman_spears_the_first_piece_past_empty_squares():
    game, _ = setup(position("sylvan/centaur-spearman", SPEARMAN + " d1=2c"), ("d4", "d3"))
    summon(game, "sylvan/centaur-spearman", "d4", 0)
    assert "d1" not in arena(game)  # d2 is empty: the next piece that way is on d1
    assert game.state.counters.destroyed == [1, 0, 0]
    game, _ = setup(position("sylvan/centaur-spearman", SPEARMAN + " e2=2c g1=2h"), ("d4", "e3"))
    summon(game, "sylvan/centaur-spearman", "d4", 0)  # d4 -> e3 is NE: f2 is empty, then g1
    a = arena(game)
    assert a["e3"] == "1h" and "g1" not in a and a["e2"] == "2c"


def test_centaur_spearman_spares_a_legend_and_what_lies_behind_it():
    game, _ = setup(position("sylvan/centaur-spearman", SPEARMAN + " d2=2l d1=2c"), ("d4", "d3"))
    summon(game, "sylvan/centaur-spearman", "d4", 0)
    assert arena(game)["d2"] == "2l" and arena(game)["d1"] == "2c"
    assert game.state.counters.destroyed == [0, 0, 0]
    game, _ = setup(position("sylvan/centaur-spearman", SPEARMAN + " d1=2l"), ("d4", "d3"))
    summon(game, "sylvan/centaur-spearman", "d4", 0)  # past the empty d2, the first piece is a legend
    assert arena(game)["d1"] == "2l"


def test_centaur_spearman_with_no_piece_up_to_the_edge_or_no_move():
    game, me = setup(position("sylvan/centaur-spearman", SPEARMAN + " b5=2c"), ("d4", "d3"))
    summon(game, "sylvan/centaur-spearman", "d4", 0)
    assert len(arena(game)) == 6 and len(me.asked) == 1  # nothing up to d1: nothing destroyed, nothing asked
    game, _ = setup(position("sylvan/centaur-spearman", SPEARMAN + " d2=2c"), None)
    summon(game, "sylvan/centaur-spearman", "d4", 0)
    assert arena(game)["d4"] == "1h" and arena(game)["d2"] == "2c"


def test_centaur_spearman_spears_your_own_piece_without_scoring():
    game, _ = setup(position("sylvan/centaur-spearman", SPEARMAN + " c3=2c b2=1h"), ("d4", "c3"))
    summon(game, "sylvan/centaur-spearman", "d4", 0)
    a = arena(game)
    assert a["c3"] == "1h" and "b2" not in a
    assert game.state.counters.destroyed == [1, 0, 0]  # the enemy common only


# ----- Centaur Chieftain
CHIEFTAIN = "c4=1c d5=1c e6=1c f7=1c c3=2c d4=2h"


def test_centaur_chieftain_leads_a_charge_in_one_direction():
    game, me = setup(position("sylvan/centaur-chieftain", CHIEFTAIN),
                     ("e5", "e4"), ("c4", "c3"), ("e6", "e5"), ("f7", "f6"))
    summon(game, "sylvan/centaur-chieftain", "e5", 0)
    follow = me.asked[1].options
    assert follow == [*moves(("c4", "c3"), ("e6", "e5"), ("f7", "f6")), None]  # d5 cannot take the heroic
    a = arena(game)
    assert a == {"e4": "1h", "c3": "1c", "d5": "1c", "e5": "1c", "f6": "1c", "d4": "2h"}
    assert game.state.counters.destroyed == [1, 0, 0]


def test_centaur_chieftain_followers_are_optional_and_may_repeat():
    game, me = setup(position("sylvan/centaur-chieftain", CHIEFTAIN),
                     ("e5", "e4"), ("c4", "c3"), ("c3", "c2"), None)
    summon(game, "sylvan/centaur-chieftain", "e5", 0)
    assert arena(game)["c2"] == "1c" and len(me.asked) == 4
    game, me = setup(position("sylvan/centaur-chieftain", CHIEFTAIN), None)
    summon(game, "sylvan/centaur-chieftain", "e5", 0)
    assert len(me.asked) == 1 and arena(game)["c4"] == "1c"


# ----- Unicorn
UNICORN = "d5=1c c6=1c d6=1c c7=1c f5=2h"


def test_unicorn_gains_an_action():
    game, me = setup(position("sylvan/unicorn", UNICORN), "action")
    summon(game, "sylvan/unicorn", "e5", 0)
    assert me.asked[0].options == ["move", "action"]
    assert game.state.actions_left == 2 and arena(game)["e5"] == "1h"


def test_unicorn_combat_move():
    game, me = setup(position("sylvan/unicorn", UNICORN), "move", ("e5", "f5"))
    summon(game, "sylvan/unicorn", "e5", 0)
    assert None in me.asked[1].options
    assert arena(game)["f5"] == "1h" and game.state.actions_left == 1
    assert game.state.counters.destroyed == [0, 1, 0]


# ----- Sylvan Queen and Princess
QUEEN = "d5=1c f5=1c e6=1c e7=1c c3=2c e3=2h c5=2l"


def test_sylvan_queen_converts_keeping_the_rank():
    game, me = setup(position("sylvan/sylvan-queen", QUEEN), "e3")
    summon(game, "sylvan/sylvan-queen", "d4", 0)
    assert me.asked[0].options == [sq("c3"), sq("e3"), None]
    assert arena(game)["e3"] == "1h" and arena(game)["c5"] == "2l"
    assert game.state.counters.destroyed == [0, 1, 0]


def test_sylvan_queen_may_decline_and_needs_a_token():
    game, _ = setup(position("sylvan/sylvan-queen", QUEEN), None)
    summon(game, "sylvan/sylvan-queen", "d4", 0)
    assert arena(game)["e3"] == "2h"
    game, me = setup(position("sylvan/sylvan-queen", QUEEN, "stock 1: tokens=1"))
    summon(game, "sylvan/sylvan-queen", "d4", 0)
    assert me.asked == [] and arena(game)["c3"] == "2c"


PRINCESS = "d5=1c e6=1c d7=1c e3=2h c5=2c e4=2c"


def test_sylvan_princess_converts_a_diagonal_common():
    game, me = setup(position("sylvan/sylvan-princess", PRINCESS), "c5")
    summon(game, "sylvan/sylvan-princess", "d4", 0)
    assert me.asked[0].options == [sq("c5"), None]  # not the heroic, not the orthogonal common
    assert arena(game)["c5"] == "1c" and game.state.counters.destroyed == [1, 0, 0]


def test_sylvan_princess_may_decline():
    game, _ = setup(position("sylvan/sylvan-princess", PRINCESS), None)
    summon(game, "sylvan/sylvan-princess", "d4", 0)
    assert arena(game)["c5"] == "2c"


# ----- Woodland Druid
def test_woodland_druid_upgrades_a_common_of_each_colour():
    game, me = setup(position("sylvan/woodland-druid", "d4=1c f4=1c e6=1c g7=2c h5=2h"), "f4")
    summon(game, "sylvan/woodland-druid", "e5", 0)
    assert me.asked[0].options == [sq("d4"), sq("f4"), sq("e6")]  # mandatory; the enemy's is the only one
    a = arena(game)
    assert a["f4"] == "1h" and a["g7"] == "2h" and a["d4"] == "1c"


def test_woodland_druid_without_enemy_commons_upgrades_only_yours():
    game, _ = setup(position("sylvan/woodland-druid", "d4=1c f4=1c e6=1c h5=2h"), "d4")
    summon(game, "sylvan/woodland-druid", "e5", 0)
    assert arena(game)["d4"] == "1h" and arena(game)["h5"] == "2h"


# ----- Forest Ancient
ANCIENT = "e4=1c d5=1c f5=1c d6=1c b5=2c a5=2c g6=2h"


def test_forest_ancient_places_then_destroys_enemy_commons():
    game, me = setup(position("sylvan/forest-ancient", ANCIENT), "g5", "e7", "g5", "b5")
    summon(game, "sylvan/forest-ancient", "e5", 0)
    place = me.asked[0].options
    assert None not in place and sq("g5") in place and sq("b5") not in place and sq("h5") not in place
    destroy = me.asked[2].options
    assert destroy == [sq("b5"), sq("g5"), sq("e7")]  # not a5 (distance 4), not the heroic
    a = arena(game)
    assert a["e7"] == "2c" and a["a5"] == "2c" and "g5" not in a and "b5" not in a
    assert game.state.counters.destroyed == [2, 0, 0]


def test_forest_ancient_with_a_short_enemy_stock():
    game, me = setup(position("sylvan/forest-ancient", ANCIENT, "stock 2: tokens=1"), "g5", "g5")
    summon(game, "sylvan/forest-ancient", "e5", 0)
    assert len(me.asked) == 2  # one placement, then two destructions, the last without a choice
    a = arena(game)
    assert "g5" not in a and "b5" not in a and game.state.counters.destroyed == [2, 0, 0]


# ----- Forest Mystic
def test_forest_mystic_draws_a_being_and_a_legend_more():
    game, me = setup(position("sylvan/forest-mystic", "e4=1c d5=1c f6=1c"))
    summon(game, "sylvan/forest-mystic", "e5", 0)
    s = game.state
    assert me.asked == [] and (s.counters.extra_draws, s.counters.extra_legend_draws) == (1, 1)
    game.end_turn(0)
    assert len(s.hand[0]) == 4 and len(s.legend_hand[0]) == 3


# ----- Kiskin Leafsplitter
LEAFSPLITTER = "e4=1c d5=1c f5=1c e6=1c g3=2l f6=1c c3=2c b2=2h"


def test_kiskin_leafsplitter_shoots_the_same_diagonal_twice():
    game, me = setup(position("sylvan/kiskin-leafsplitter", LEAFSPLITTER), NW, NW)
    summon(game, "sylvan/kiskin-leafsplitter", "e5", 0)
    assert me.asked[0].options == [NE, SE, NW, None]  # nothing south-west
    a = arena(game)
    assert "c3" not in a and "b2" not in a and a["g3"] == "2l"
    assert game.state.counters.destroyed == [1, 1, 0]


def test_kiskin_leafsplitter_reaches_legends_and_own_pieces_or_stops():
    game, _ = setup(position("sylvan/kiskin-leafsplitter", LEAFSPLITTER), NE, SE)
    summon(game, "sylvan/kiskin-leafsplitter", "e5", 0)
    a = arena(game)
    assert "g3" not in a and "f6" not in a and game.state.counters.destroyed == [0, 0, 1]
    game, me = setup(position("sylvan/kiskin-leafsplitter", LEAFSPLITTER), None)
    summon(game, "sylvan/kiskin-leafsplitter", "e5", 0)
    assert len(me.asked) == 1 and len(arena(game)) == 9


def test_kiskin_leafsplitter_without_diagonal_targets_asks_nothing():
    game, me = setup(position("sylvan/kiskin-leafsplitter", "e4=1c d5=1c f5=1c e6=1c e2=2c"))
    summon(game, "sylvan/kiskin-leafsplitter", "e5", 0)
    assert me.asked == [] and arena(game)["e2"] == "2c"


# ----- Kiskin Boughrunner
BOUGHRUNNER = "d5=1c e5=1c f5=1c e6=1c c5=2h a3=2l"


def test_kiskin_boughrunner_moves_stay_next_to_your_pieces():
    game, me = setup(position("sylvan/kiskin-boughrunner", BOUGHRUNNER),
                     ("e4", "d4"), ("d4", "c4"), ("c4", "c5"))
    summon(game, "sylvan/kiskin-boughrunner", "e4", 0)
    first = me.asked[0].options
    assert (sq("e4"), sq("d4")) in first and (sq("e4"), sq("f4")) in first and None in first
    assert (sq("e4"), sq("e3")) not in first and (sq("e4"), sq("d3")) not in first  # only near its old square
    assert (sq("c4"), sq("b4")) not in me.asked[2].options
    assert arena(game)["c5"] == "1h" and game.state.counters.destroyed == [0, 1, 0]


def test_kiskin_boughrunner_may_stop():
    game, me = setup(position("sylvan/kiskin-boughrunner", BOUGHRUNNER), ("e4", "d4"), None)
    summon(game, "sylvan/kiskin-boughrunner", "e4", 0)
    assert arena(game)["d4"] == "1h" and len(me.asked) == 2


# ----- Tree Shepherd
SHEPHERD = "d5=1c f5=1c e6=1c f6=1c b5=1l e4=2h b4=2l c4=2h"


def test_tree_shepherd_upgrades_a_common():
    game, me = setup(position("sylvan/tree-shepherd", SHEPHERD), "d5")
    summon(game, "sylvan/tree-shepherd", "e5", 0)
    assert me.asked[0].options == [sq(n) for n in ("b5", "d5", "e5", "f5", "e6", "f6")]  # mandatory
    assert arena(game)["d5"] == "1h" and len(me.asked) == 1


def test_tree_shepherd_heroic_combat_move():
    game, me = setup(position("sylvan/tree-shepherd", SHEPHERD), "e5", ("e5", "e4"))
    summon(game, "sylvan/tree-shepherd", "e5", 0)
    assert None in me.asked[1].options
    assert arena(game)["e4"] == "1h" and game.state.counters.destroyed == [0, 1, 0]


def test_tree_shepherd_legend_standard_move_or_none():
    game, me = setup(position("sylvan/tree-shepherd", SHEPHERD), "b5", ("b5", "c4"))
    summon(game, "sylvan/tree-shepherd", "e5", 0)
    assert (sq("b5"), sq("b4")) not in me.asked[1].options  # standard: not onto an equal rank
    assert arena(game)["c4"] == "1l" and game.state.counters.destroyed == [0, 1, 0]
    game, _ = setup(position("sylvan/tree-shepherd", SHEPHERD), "b5", None)
    summon(game, "sylvan/tree-shepherd", "e5", 0)
    assert arena(game)["b5"] == "1l" and arena(game)["c4"] == "2h"
