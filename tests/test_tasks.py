"""The 24 tasks: for each, a position where it is met and positions where it nearly is but is not.

Red squares: c8 d2 e5 h6. Green squares: a5 c3 f8 g3 i4. Long diagonals: b2..h8 and b8..h2 (e5 on both).
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from sim import board
from sim.decisions import SUMMON, Action
from sim.ranks import COMMON, HEROIC, LEGENDARY
from tests.helpers import sq
from tests.ruleset import at, card, position, rules_cards


class Case(NamedTuple):
    task: str
    met: bool
    pieces: dict[str, str]
    destroyed: tuple[int, int, int] = (0, 0, 0)  # enemy pieces destroyed this turn: common, heroic, legendary
    summoned: tuple[tuple[str, int], ...] = ()  # (square, rank) of beings summoned this turn


def row(y: int, token: str, columns: str = "abcdefghi") -> dict[str, str]:
    return {f"{c}{y}": token for c in columns if board.on_arena("abcdefghi".index(c) + 1, y)}


def mine(*squares: str) -> dict[str, str]:
    return {s: "1c" for s in squares}


def column(c: str, token: str, rows: str = "123456789") -> dict[str, str]:
    x = "abcdefghi".index(c) + 1
    return {f"{c}{y}": token for y in rows if board.on_arena(x, int(y))}


RING = mine("d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6")  # around e5
WALLED = mine("d4", "e4", "f4", "d5", "f5", "d6", "f6") | {"e5": "2c", "e3": "2c", "d3": "2c"}
DIAGONAL_1 = ("b2", "c3", "d4", "e5", "f6", "g7", "h8")
DIAGONAL_2 = ("b8", "c7", "d6", "e5", "f4", "g3", "h2")

CASES = [
    # destruction
    Case("task/destruction", True, {}, (3, 0, 0)),
    Case("task/destruction", True, {}, (1, 1, 1)),
    Case("task/destruction", False, {}, (2, 0, 0)),
    Case("task/devastation", True, {}, (2, 1, 1)),
    Case("task/devastation", False, {}, (3, 0, 0)),
    Case("task/heroic-destruction", True, {}, (2, 1, 0)),
    Case("task/heroic-destruction", True, {}, (2, 0, 1)),
    Case("task/heroic-destruction", False, {}, (3, 0, 0)),
    Case("task/heroic-destruction", False, {}, (1, 1, 0)),
    Case("task/heroic-devastation", True, {}, (2, 1, 1)),
    Case("task/heroic-devastation", True, {}, (0, 4, 0)),
    Case("task/heroic-devastation", False, {}, (3, 1, 0)),
    Case("task/heroic-devastation", False, {}, (1, 2, 0)),
    Case("task/end-of-legends", True, {}, (0, 0, 1)),
    Case("task/end-of-legends", True, {}, (0, 2, 0)),
    Case("task/end-of-legends", False, {}, (5, 1, 0)),
    # colored
    Case("task/red-conquest", True, {"c8": "1h", "d2": "1l", "e5": "1c"}),
    Case("task/red-conquest", False, {"c8": "1h", "d2": "1h", "e4": "1c"}),  # the third is off red
    Case("task/red-conquest", False, {"c8": "1h", "d2": "1c", "e5": "1c"}),  # one upgraded
    Case("task/red-conquest", False, {"c8": "1h", "d2": "1h", "e5": "2c"}),  # the third is the enemy's
    Case("task/green-conquest", True, {"a5": "1h", "c3": "1h", "i4": "1c"}),
    Case("task/green-conquest", False, {"a5": "1h", "c3": "1c", "i4": "1c", "e5": "1h"}),  # e5 is red
    Case("task/color-conquest", True, {"c8": "1h", "d2": "1h", "a5": "1l", "c3": "1c", "f8": "1c"}),
    Case("task/color-conquest", False, {"c8": "1h", "d2": "1h", "a5": "1l", "c3": "1c"}),  # four pieces
    Case("task/color-conquest", False, {"c8": "1h", "d2": "1h", "a5": "1c", "c3": "1c", "f8": "1c"}),
    Case("task/red-legends", True, {"c8": "1l", "d2": "1h"}),
    Case("task/red-legends", False, {"c8": "1h", "d2": "1h", "e5": "1h"}),  # no legendary piece
    Case("task/red-legends", False, {"c8": "1l", "d2": "1c"}),  # one upgraded piece
    Case("task/red-legends", False, {"c8": "1l", "d3": "1h"}),  # d3 is not red
    Case("task/green-legends", True, {"g3": "1l", "i4": "1l"}),
    Case("task/green-legends", False, {"g3": "1l", "e5": "1h"}),
    Case("task/rainbow-dominance", True, {"c8": "1h", "a5": "1h", "d2": "2c", "c3": "2c"}),  # commons don't
    Case("task/rainbow-dominance", False, {"c8": "1h", "d2": "1h", "a5": "1h", "e5": "2h", "c3": "2l"}),
    Case("task/rainbow-dominance", False, {"c8": "1h", "a5": "1c"}),  # none upgraded on green
    Case("task/rainbow-dominance", False, {"c8": "1h", "e5": "2h", "a5": "1h"}),  # as many on red
    # summoning
    Case("task/red-summoning", True, {}, summoned=(("e5", COMMON), ("b5", COMMON))),
    Case("task/red-summoning", False, {}, summoned=(("e5", HEROIC),)),
    Case("task/red-summoning", False, {}, summoned=(("a5", COMMON), ("b5", COMMON))),  # a5 is green
    Case("task/green-summoning", True, {}, summoned=(("b5", COMMON), ("f8", LEGENDARY))),
    Case("task/green-summoning", False, {}, summoned=(("e5", COMMON), ("h6", COMMON))),
    Case("task/colored-summoning", True, {}, summoned=(("e5", COMMON), ("a5", COMMON))),
    Case("task/colored-summoning", True, {}, summoned=(("e5", COMMON), ("e5", HEROIC))),  # one square twice
    Case("task/colored-summoning", False, {}, summoned=(("e5", COMMON), ("b5", COMMON), ("b6", COMMON))),
    Case("task/legendary-summoning", True, {}, summoned=(("b5", LEGENDARY), ("b6", COMMON))),
    Case("task/legendary-summoning", False, {}, summoned=(("b5", LEGENDARY),)),
    Case("task/legendary-summoning", False, {}, summoned=(("b5", HEROIC), ("b6", HEROIC))),
    # pattern
    Case("task/central-dominance", True, {"d4": "1h", "e4": "1l", "f4": "1c", "d5": "1c", "f6": "1c"}),
    Case("task/central-dominance", False, {"d4": "1h", "e4": "1h", "f4": "1c", "d5": "1c", "c4": "1c"}),
    Case("task/central-dominance", False, {"d4": "1h", "e4": "1c", "f4": "1c", "d5": "1c", "f6": "1c"}),
    Case("task/center-cross", True, {"e4": "1c", "e5": "1c", "e6": "1c", "d5": "1c", "f5": "1c"}),
    Case("task/center-cross", True, {"d4": "1c", "e5": "1h", "f6": "1c", "d6": "1c", "f4": "1c"}),
    Case("task/center-cross", False, {"e4": "1c", "e5": "1c", "e6": "2c", "d5": "1c", "f5": "1c"}),
    Case("task/center-cross", False, {"e4": "1c", "e5": "1c", "e6": "1c", "d5": "1c", "f4": "1c"}),  # mixed
    Case("task/line-dominance", True, row(5, "1c", "abcdef")),
    Case("task/line-dominance", True, column("d", "1c", "1234567") | {"d8": "2c"}),  # 7 to 1: 6 more
    Case("task/line-dominance", True, row(6, "1c", "abcdefgh") | {"i6": "2c"}),  # 8 to 1: 7 more
    Case("task/line-dominance", False, row(4, "1c", "abcdefg") | {"h4": "2c", "i4": "2c"}),  # 7 to 2
    Case("task/line-dominance", False, row(3, "1c")),  # row 3 does not go through the centre
    Case("task/line-dominance", False, row(4, "1c", "abc") | row(5, "1c", "abc")),  # two lines, 3 each
    Case("task/diagonals", True, mine(*DIAGONAL_1[:4], "f4", "g3", "h2") | {"e5": "1h"}),  # e5 serves both
    Case("task/diagonals", True, mine(*DIAGONAL_1[:4], *DIAGONAL_2[:4]) | {"b2": "1h", "b8": "1l"}),
    Case("task/diagonals", False, mine(*DIAGONAL_1[:4], *DIAGONAL_2[:2]) | {"e5": "1h"}),  # 4 and 3
    Case("task/diagonals", False, mine(*DIAGONAL_1, *DIAGONAL_2) | {"b2": "1h"}),  # b8..h2: none up
    Case("task/side-chain", True, row(5, "1c")),
    Case("task/side-chain", True, mine("a5", "b4", "c5", "d4", "e5", "f4", "g5", "h4", "i5")),
    Case("task/side-chain", True, column("e", "1c") | {"e5": "1l"}),
    Case("task/side-chain", False, row(5, "1c") | {"e5": ".."}),  # a gap
    Case("task/side-chain", False, row(5, "1c") | {"e5": "2c"}),  # through an enemy piece
    Case("task/side-chain", False, mine("a3", "b2", "c1")),  # adjacent sides, not opposite
    Case("task/corner-chain", True, mine(*DIAGONAL_1)),
    Case("task/corner-chain", True, mine("c9", "c8", "d7", "e6", "f5", "g4", "h3", "i3")),
    Case("task/corner-chain", False, mine(*(s for s in DIAGONAL_1 if s != "e5"))),
    Case("task/corner-chain", False, row(2, "1c")),  # b2 to h2: neighbouring corners
    # enemy
    Case("task/imprisonment", True, {"e5": "2c"} | dict(list(RING.items())[:6])),
    Case("task/imprisonment", False, {"e5": "2c"} | dict(list(RING.items())[:5])),
    Case("task/imprisonment", False, {"a5": "2c"} | mine("a4", "a6", "b4", "b5", "b6", "c5")),  # 5 neighbours
    Case("task/imprisonment", False, {"e5": "2c", "e7": "2c"} | mine("d5", "f5", "d6", "e6", "f6", "d8",
                                                                     "e8")),  # 5 around each
    Case("task/envelopment", True, {"e5": "2h"} | dict(list(RING.items())[:7])),
    Case("task/envelopment", False, {"e5": "2h"} | dict(list(RING.items())[:6])),
    Case("task/isolation", True, RING | {"e5": "2c", "g5": "2c"}),
    Case("task/isolation", False, RING | {"e5": "2c", "g5": "2c", "f5": ".."}),  # f5 is next to both
    Case("task/isolation", False, RING | {"e5": "2c", "e8": "2c"}),  # no enemy piece within 2 of e5
    Case("task/isolation", True, WALLED | {"i7": "2c"}),  # e5 needs 4 moves to come next to i7
    Case("task/isolation", False, WALLED | {"h8": "2c"}),  # e5 needs 3 moves to come next to h8
    Case("task/isolation", False, {"e5": "2c", "g5": "2c"}),  # it can simply step to f5
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.task[5:]}-{'met' if c.met else 'not'}-{i}"
                                             for i, c in enumerate(CASES)])
def test_task_condition(case):
    pieces = {name: tok for name, tok in case.pieces.items() if tok != ".."}
    other = "task/devastation" if case.task == "task/destruction" else "task/destruction"
    game, _ = position(pieces, tasks=case.task, next_task=other)
    with game.edit() as s:
        s.counters.destroyed = list(case.destroyed)
        s.counters.summoned = [(sq(name), rank) for name, rank in case.summoned]
    assert game.claimable_tasks(0) == ([card(game, case.task)] if case.met else [])


def test_every_task_has_cases_both_ways():
    tasks = {t.id for t in rules_cards().tasks}
    assert {c.task for c in CASES if c.met} == tasks and {c.task for c in CASES if not c.met} == tasks


def test_tasks_are_judged_for_the_player_at_the_end_of_their_turn():
    """The same arena gives the task to one player and not the other."""
    game, _ = position(RING | {"e5": "2c"}, tasks="task/envelopment", next_task="task/destruction")
    assert game.claimable_tasks(0) == [card(game, "task/envelopment")] and game.claimable_tasks(1) == []


def test_destroying_and_summoning_in_a_turn_feed_the_tasks():
    enemies = {"d4": "2c", "e4": "2c", "f4": "2h"}
    answers = [at("e5"), lambda d: card(game, "task/heroic-destruction")]
    game, me = position({"c5": "1c"} | enemies, *answers, hand_1="test/bomber",
                        tasks="task/heroic-destruction, task/red-summoning, task/center-cross",
                        next_task="task/imprisonment", actions="1")
    game.apply_action(0, Action(SUMMON, card(game, "test/bomber")))
    game.end_turn(0)
    assert [t and t.id for t in me.asked[-1].options] == ["task/heroic-destruction", None]
    assert game.state.task_points[0] == 2


def test_two_summons_in_a_turn_one_on_red():
    game, me = position({"d5": "1c", "a6": "1c"}, hand_1="test/single, test/knight",
                        tasks="task/red-summoning, task/destruction, task/center-cross",
                        next_task="task/imprisonment")
    single, knight = card(game, "test/single"), card(game, "test/knight")
    me.answers = [Action(SUMMON, single), at("e5"), Action(SUMMON, knight), at("b6"), lambda d: d.options[0]]
    game.play_turn()
    assert game.state.counters.summoned == [(sq("e5"), COMMON), (sq("b6"), HEROIC)]
    assert [t.id for t in game.state.claimed[0]] == ["task/red-summoning"]
