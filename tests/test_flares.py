"""The 12 flares of sim/cards/flares.toml: when each half may be used, and what each half does."""

from __future__ import annotations

import json

import pytest

from sim import board
from sim.decisions import FLARE, Action
from sim.game import Game
from tests.helpers import Answer, Scripted, arena, sq
from tests.ruleset import REFERENCE, position, rules_cards

FLARE_ACTION = Action(FLARE)
FLARES = {f.id: f for f in rules_cards().flares}
_THEIR_FILLER = [board.name(board.square(x, y)) for y in (9, 8) for x in range(1, 10) if board.on_arena(x, y)]
_MY_FILLER = [board.name(board.square(x, y)) for y in (1, 2) for x in range(1, 10) if board.on_arena(x, y)]


def lead(upgraded: int, pieces: int, base: dict[str, str]) -> dict[str, str]:
    """``base`` plus filler pieces (rows 8-9 for the opponent, rows 1-2 for you) so that the opponent has
    exactly ``upgraded`` more upgraded pieces and ``pieces`` more pieces in all than you."""
    out = dict(base)
    theirs = (s for s in _THEIR_FILLER if s not in out)
    mine = (s for s in _MY_FILLER if s not in out)

    def gap(ranks: str) -> int:
        return sum(1 if t[0] == "2" else -1 for t in out.values() if t[1] in ranks)

    while gap("hl") != upgraded:
        out[next(theirs) if gap("hl") < upgraded else next(mine)] = "2h" if gap("hl") < upgraded else "1h"
    while gap("chl") != pieces:
        out[next(theirs) if gap("chl") < pieces else next(mine)] = "2c" if gap("chl") < pieces else "1c"
    return out


def flare_position(fid: str, halves: str, base: dict[str, str], *answers: Answer,
                   **keys: str) -> tuple[Game, Scripted]:
    """Player 1 holds flare ``fid`` in a position where exactly ``halves`` ("upper", "lower", "both") hold."""
    f = FLARES[fid]
    up, low = f.upper.threshold, f.lower.threshold
    gaps = {"upper": (up, low - 1), "lower": (up - 1, low), "both": (up, low)}[halves]
    return position(lead(*gaps, base), *answers, flare_1=fid, **keys)


def invoke(game: Game) -> None:
    assert FLARE_ACTION in game.action_options(0)
    game.apply_action(0, FLARE_ACTION)
    game.state.check_invariants()


# ----- the conditions
def test_flare_thresholds_match_the_reference():
    ref = {f["id"]: f for f in json.loads(REFERENCE.read_text())["flares"]}
    assert sorted(ref) == sorted(FLARES)
    for fid, f in FLARES.items():
        assert (f.upper.threshold, f.lower.threshold) == (ref[fid]["upper"]["needs_more_upgraded"],
                                                          ref[fid]["lower"]["needs_more_pieces"]), fid


@pytest.mark.parametrize("fid", sorted(FLARES))
@pytest.mark.parametrize("upper_gap, lower_gap, halves",
                         [(0, -1, 1), (-1, 0, 2), (0, 0, 3), (-1, -1, 0), (1, 1, 3)])
def test_each_half_needs_its_lead_when_invoked(fid, upper_gap, lower_gap, halves):
    """The upper half needs the opponent X more upgraded pieces, the lower Y more pieces (at least)."""
    f = FLARES[fid]
    up, low = f.upper.threshold + upper_gap, f.lower.threshold + lower_gap
    game, _ = position(lead(up, low, {}), flare_1=fid)
    assert game.flare_halves(0, f) == halves
    assert (FLARE_ACTION in game.action_options(0)) == bool(halves)


def test_a_flare_of_the_opponent_counts_from_their_side():
    f = FLARES["flare/02"]  # 4/4
    game, _ = position(lead(-4, -4, {}), flare_2="flare/02", active="2")
    assert game.flare_halves(1, f) == 3 and game.flare_halves(0, f) == 0


# ----- what each half does
def test_place_a_common_piece_anywhere_empty():
    for fid in ("flare/01", "flare/02", "flare/04", "flare/07", "flare/10", "flare/11"):
        game, me = flare_position(fid, "upper", {"e5": "2c"}, "d5", "f5")
        empty = [s for s in board.SQUARES if game.state.piece_at(s) is None]
        invoke(game)
        assert me.asked[0].kind == "place" and me.asked[0].options == empty  # mandatory: no "None"
        assert arena(game)["d5"] == "1c", fid
        assert ("f5" in arena(game)) == (fid == "flare/10"), fid  # flare/10 places two


def test_flare_01_lower_places_a_heroic_piece_and_nothing_without_a_token():
    game, _ = flare_position("flare/01", "lower", {}, "e5")
    invoke(game)
    assert arena(game)["e5"] == "1h"
    game, me = flare_position("flare/01", "lower", {}, stock_1="tokens=0")
    invoke(game)
    assert me.asked == [] and "e5" not in arena(game)


def test_flare_02_both_halves_place_two_common_pieces():
    game, _ = flare_position("flare/02", "both", {}, "d5", "e5")
    invoke(game)
    assert arena(game)["d5"] == arena(game)["e5"] == "1c"


def test_flare_03_upper_up_to_three_standard_moves_with_commons():
    base = {"e5": "1c", "e4": "2c", "d5": "1h"}
    game, me = flare_position("flare/03", "upper", base, ("e5", "f5"), ("f5", "g5"), None)
    invoke(game)
    first = me.asked[0].options
    assert (sq("e5"), sq("f5")) in first and None in first
    assert (sq("e5"), sq("e4")) not in first  # a standard move cannot take a piece of equal rank
    assert not any(src == sq("d5") for src, _ in first[:-1])  # heroic pieces do not move
    assert len(me.asked) == 3 and arena(game)["g5"] == "1c" and "e5" not in arena(game)
    game, me = flare_position("flare/03", "upper", base, ("e5", "f5"), ("f5", "g5"), ("g5", "h5"))
    invoke(game)
    assert len(me.asked) == 3 and arena(game)["h5"] == "1c"


@pytest.mark.parametrize("fid, half", [("flare/03", "lower"), ("flare/08", "upper"), ("flare/12", "lower")])
def test_gain_an_action(fid, half):
    game, _ = flare_position(fid, half, {})
    invoke(game)
    assert game.state.actions_left == 3


def test_flare_04_lower_places_or_converts_an_enemy_common():
    base = {"e5": "2c", "f5": "2h"}
    game, _ = flare_position("flare/04", "lower", base, "place", "d4")
    invoke(game)
    assert arena(game)["d4"] == "1c" and arena(game)["e5"] == "2c"
    game, me = flare_position("flare/04", "lower", base, "convert", "e5")
    invoke(game)
    assert me.asked[0].options == ["place", "convert"]
    targets = me.asked[1].options
    assert sq("f5") not in targets and all(game.state.piece_at(s)[1] == 0 for s in targets)  # commons only
    assert arena(game)["e5"] == "1c" and game.state.counters.destroyed == [1, 0, 0]


def test_flare_05_upper_moves_or_upgrades_one_common():
    base = {"e5": "1c", "c5": "1c"}
    game, me = flare_position("flare/05", "upper", base, "move", ("e5", "e6"))
    invoke(game)
    assert None not in me.asked[1].options  # the move is mandatory
    assert arena(game)["e6"] == "1c" and "e5" not in arena(game)
    game, me = flare_position("flare/05", "upper", base, "upgrade", "e5")
    invoke(game)
    assert arena(game)["e5"] == "1h" and None not in me.asked[1].options


def test_flare_05_lower_places_two_commons():
    game, me = flare_position("flare/05", "lower", {}, "d5", "e5")
    invoke(game)
    assert arena(game)["d5"] == arena(game)["e5"] == "1c" and len(me.asked) == 2


def test_flare_06_upper_places_or_upgrades():
    base = {"e5": "1c", "c5": "1c"}
    game, _ = flare_position("flare/06", "upper", base, "place", "d4")
    invoke(game)
    assert arena(game)["d4"] == "1c" and arena(game)["e5"] == "1c"
    game, _ = flare_position("flare/06", "upper", base, "upgrade", "e5")
    invoke(game)
    assert arena(game)["e5"] == "1h"


def test_flare_06_lower_an_optional_combat_leap_with_a_common():
    base = {"e5": "1c", "a5": "2c", "i5": "2h"}
    game, me = flare_position("flare/06", "lower", base, ("e5", "a5"))
    invoke(game)
    options = me.asked[0].options
    assert (sq("e5"), sq("a5")) in options and (sq("e5"), sq("i5")) not in options and None in options
    assert arena(game)["a5"] == "1c" and "e5" not in arena(game)
    assert game.state.counters.destroyed == [1, 0, 0]
    game, _ = flare_position("flare/06", "lower", base, None)
    invoke(game)
    assert arena(game)["e5"] == "1c" and arena(game)["a5"] == "2c"


def test_flare_07_lower_upgrades_a_common_and_gains_an_action():
    game, _ = flare_position("flare/07", "lower", {"e5": "1c", "c5": "1c"}, "e5")
    invoke(game)
    assert arena(game)["e5"] == "1h" and arena(game)["c5"] == "1c" and game.state.actions_left == 3


def test_flare_08_both_halves_gain_an_action_then_place():
    game, _ = flare_position("flare/08", "both", {}, "e5")
    invoke(game)
    assert arena(game)["e5"] == "1c" and game.state.actions_left == 3


def test_flare_09_upper_places_a_heroic_piece():
    game, _ = flare_position("flare/09", "upper", {}, "e5")
    invoke(game)
    assert arena(game)["e5"] == "1h"


@pytest.mark.parametrize("order", ["standard first", "combat first"])
def test_flare_09_lower_a_standard_and_a_combat_move_in_either_order(order):
    base = {"e5": "1c", "e4": "2c", "c5": "1c"}
    standard, combat = ("c5", "c6"), ("e5", "e4")
    moves = [standard, combat] if order == "standard first" else [combat, standard]
    game, me = flare_position("flare/09", "lower", base, order, *moves)
    invoke(game)
    kinds = [d.options for d in me.asked[1:]]
    standard_options, combat_options = kinds if order == "standard first" else kinds[::-1]
    assert (sq("e5"), sq("e4")) not in standard_options and (sq("e5"), sq("e4")) in combat_options
    assert None in standard_options and None in combat_options
    assert arena(game)["e4"] == arena(game)["c6"] == "1c" and game.state.counters.destroyed == [1, 0, 0]


def test_flare_09_lower_moves_are_optional():
    game, me = flare_position("flare/09", "lower", {"e5": "1c"}, "standard first", None, None)
    invoke(game)
    assert arena(game)["e5"] == "1c" and len(me.asked) == 3


def test_flare_10_upper_places_two_commons_and_lower_one():
    game, me = flare_position("flare/10", "both", {}, "c5", "d5", "e5")
    invoke(game)
    assert [arena(game)[s] for s in ("c5", "d5", "e5")] == ["1c"] * 3 and len(me.asked) == 3


def test_flare_11_lower_one_combat_move_with_a_non_legendary_piece():
    base = {"e5": "1h", "e4": "2h", "d5": "1l", "c5": "2c"}
    game, me = flare_position("flare/11", "lower", base, "one combat move", ("e5", "e4"))
    invoke(game)
    options = me.asked[1].options
    assert not any(src == sq("d5") for src, _ in options[:-1]) and options[-1] is None
    assert arena(game)["e4"] == "1h" and game.state.counters.destroyed == [0, 1, 0]


def test_flare_11_lower_up_to_two_standard_moves_with_non_legendary_pieces():
    base = {"e5": "1h", "e4": "2h", "f5": "2c", "d5": "1l"}
    game, me = flare_position("flare/11", "lower", base, "two standard moves", ("e5", "f5"), None)
    invoke(game)
    options = me.asked[1].options
    assert (sq("e5"), sq("e4")) not in options and (sq("e5"), sq("f5")) in options  # heroic onto a common
    assert not any(src == sq("d5") for src, _ in options[:-1])
    assert arena(game)["f5"] == "1h" and len(me.asked) == 3 and game.state.counters.destroyed == [1, 0, 0]


def test_flare_12_upper_an_optional_standard_leap_with_a_common():
    game, me = flare_position("flare/12", "upper", {"e5": "1c", "a5": "2c"}, ("e5", "i5"))
    empty = {s for s in board.SQUARES if game.state.piece_at(s) is None}
    invoke(game)
    options = me.asked[0].options
    assert None in options
    assert {dst for src, dst in options[:-1] if src == sq("e5")} == empty  # anywhere, onto empty squares only
    assert arena(game)["i5"] == "1c" and "e5" not in arena(game)
    game, _ = flare_position("flare/12", "upper", {"e5": "1c", "a5": "2c"}, None)
    invoke(game)
    assert arena(game)["e5"] == "1c"


def test_flare_12_both_halves_leap_then_gain_an_action():
    game, _ = flare_position("flare/12", "both", {"e5": "1c"}, None)
    invoke(game)
    assert game.state.actions_left == 3 and arena(game)["e5"] == "1c"
