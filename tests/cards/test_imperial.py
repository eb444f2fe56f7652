"""Scenario tests of the Imperial beings."""

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
