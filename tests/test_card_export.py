"""``tashkalar cards --json`` against the reference card data, and the engine's 8 orientations of every
pattern against the reference patterns turned by this test's own reading of the rules."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from typer.testing import CliRunner

from sim import board
from sim.cards import load_card_set
from sim.cli import app
from tests.ruleset import REFERENCE, turn

Cells = frozenset[tuple[int, int, str]]


@functools.cache
def reference() -> dict[str, Any]:
    return json.loads(REFERENCE.read_text())


def reference_beings() -> list[dict[str, Any]]:
    ref = reference()
    out = [dict(c, deck=deck) for deck in ref["decks"] for c in ref["decks"][deck]["cards"]]
    return out + [dict(c, deck="legend") for c in ref["legends"]]


@functools.cache
def exported() -> dict[str, Any]:
    result = CliRunner().invoke(app, ["cards", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def exported_by_id() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in exported()["cards"]}


REF_IDS = [c["id"] for c in reference_beings()]


def test_every_being_of_the_six_decks_and_every_legend_is_exported():
    assert len(REF_IDS) == 6 * 18 + 12
    assert set(REF_IDS) <= set(exported_by_id())


@pytest.mark.parametrize("ref", reference_beings(), ids=REF_IDS)
def test_exported_card_matches_the_reference(ref):
    ours = exported_by_id()[ref["id"]]
    assert (ours["name"], ours["deck"], ours["rank"]) == (ref["name"], ref["deck"], ref["rank"])
    assert all(len(cell) == 3 and cell[2] in ("common", "heroic", "legendary") for cell in ours["pattern"])
    assert sorted(map(tuple, ours["pattern"])) == sorted(map(tuple, ref["pattern"]))
    for key in ("marked", "marked_other"):
        assert sorted(map(tuple, ours.get(key, []))) == sorted(map(tuple, ref.get(key, []))), key
    assert ours["describe"] and ours["describe"] != ref["text"]  # our own words, never the publisher's
    for text, describe in (("frozen_text", "frozen_describe"), ("warp_text", "warp_describe")):
        # an expansion card's second text exactly where the reference has one, in our own words
        assert (describe in ours) == (text in ref), describe
        if text in ref:
            assert ours[describe] and ours[describe] != ref[text]
    assert bool(ours.get("summon_anywhere")) == bool(ref.get("summon_anywhere")), "summon_anywhere"


def test_flares_and_tasks_match_the_reference():
    ref = reference()
    flares = {f["id"]: f for f in exported()["flares"]}
    for f in ref["flares"]:
        ours = flares[f["id"]]
        assert ours["name"] == f["name"]
        assert ours["upper"]["needs_more_upgraded"] == f["upper"]["needs_more_upgraded"]
        assert ours["lower"]["needs_more_pieces"] == f["lower"]["needs_more_pieces"]
    tasks = {t["id"]: t for t in exported()["tasks"]}
    assert set(tasks) == {t["id"] for t in ref["tasks"]}
    for t in ref["tasks"]:
        assert {k: tasks[t["id"]][k] for k in ("name", "category", "difficulty", "points")} == {
            k: t[k] for k in ("name", "category", "difficulty", "points")}


# ----- orientations
def _on_arena(x: int, y: int) -> bool:
    return [x, y] in reference_board_squares()


@functools.cache
def reference_board_squares() -> list[list[int]]:
    return json.loads((REFERENCE.parent / "board.json").read_text())["squares"]


def reference_at(ref: dict[str, Any], x0: int, y0: int, orientation: int) -> tuple[Cells, frozenset] | None:
    """The reference pattern turned and put with its summoning square on (x0, y0); None if off the arena."""
    cells = frozenset((x0 + tx, y0 + ty, rank) for dx, dy, rank in ref["pattern"]
                      for tx, ty in [turn(dx, dy, orientation)])
    if not all(_on_arena(x, y) for x, y, _ in cells):
        return None
    turned = (turn(dx, dy, orientation) for dx, dy in ref.get("marked", []))
    marked = frozenset((x0 + tx, y0 + ty) for tx, ty in turned if _on_arena(x0 + tx, y0 + ty))
    return cells, marked


def engine_at(pl) -> tuple[Cells, frozenset]:
    def rank(s: int) -> str:
        return ("common", "heroic", "legendary")[(pl.need_heroic >> s & 1) + (pl.need_legendary >> s & 1)]

    cells = frozenset((*board.coords(s), rank(s)) for s in board.bits(pl.need_any))
    return cells, frozenset(board.coords(s) for s in board.bits(pl.marked))


@pytest.mark.parametrize("ref", reference_beings(), ids=REF_IDS)
def test_the_engine_turns_every_pattern_as_the_reference_does(ref):
    being = load_card_set().by_id[ref["id"]]
    for x0, y0 in ((5, 5), (3, 4), (8, 6)):
        origin = board.square(x0, y0)
        ours = {pl.orientation: engine_at(pl) for pl in being.placements if pl.origin == origin}
        theirs = {o: reference_at(ref, x0, y0, o) for o in range(8)}
        assert ours or (x0, y0) != (5, 5)
        # the same set of oriented patterns...
        assert set(ours.values()) == {v for v in theirs.values() if v is not None}
        # ...and each orientation number turns the pattern the documented way
        assert all(theirs[o] == shape for o, shape in ours.items())
