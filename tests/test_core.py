"""The compiled core (sim._core) against the records of the retired Python engine, and its Python API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scripts.golden_records import mismatches, read
from sim import core
from sim.cards import load_card_set
from sim.core_cards import card_set_document
from sim.state import MODES
from strategies import make_player, make_strategy

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize("corpus", ["random", "builder"])
@pytest.mark.parametrize("mode", MODES)
def test_the_core_reproduces_every_record_of_the_python_engine(corpus: str, mode: str) -> None:
    """100,800 random and 5,040 builder games over every deck pairing, recorded by the Python engine."""
    kind, lines = read(str(GOLDEN / f"{corpus}.txt"))
    lines = [line for line in lines if line[0] == mode]
    assert kind == corpus and len(lines) == {"random": 504, "builder": 2520}[corpus]
    assert mismatches(kind, lines) == []


def test_the_rust_tests_read_the_card_set_of_today() -> None:
    fixture = json.loads((ROOT / "core/engine/tests/data/cards.json").read_text())
    assert fixture == card_set_document(load_card_set()), (
        "regenerate core/engine/tests/data/cards.json: python -c 'from sim.cards import load_card_set; "
        "from sim.core_cards import card_set_json; print(card_set_json(load_card_set()))'")


def test_python_strategies_play_core_games_with_the_options_of_the_python_api() -> None:
    """The Python random strategy draws from the same stream as the core's: identical games."""
    cards = load_card_set()
    for seed in range(20):
        mode = MODES[seed % 2]
        native, _ = core.play(cards, mode, ("sylvan", "highland"), [make_player("random", s, seed) for s in (0, 1)],
                              seed)
        python, _ = core.play(cards, mode, ("sylvan", "highland"),
                              [make_strategy("random", s, seed) for s in (0, 1)], seed)
        assert python.to_dict() == native.to_dict()


class _Asking:
    """Records what the core hands a Python strategy, then takes the first option."""

    name = "asking"

    def __init__(self) -> None:
        self.seen: list[tuple[str, list, object]] = []

    def choose(self, view, decision) -> int:
        self.seen.append((decision.kind, list(decision.options), view))
        return 0


def test_a_python_strategy_gets_decisions_and_a_view_like_the_python_engine_gave() -> None:
    cards = load_card_set()
    asking = _Asking()
    record, _ = core.play(cards, "high-form", ("imperial", "imperial"), [asking, make_player("random", 1, 3)], 3)
    kinds = {k for k, _, _ in asking.seen}
    assert "action" in kinds and record.config["strategies"] == ["asking", "random"]
    kind, options, view = next(x for x in asking.seen if x[0] == "action")
    assert all(type(o).__name__ == "Action" for o in options)
    assert view.player == 0 and view.opponent == 1 and view.mode == "high-form"
    assert len(view.hand) <= 3 and all(b.id.startswith("imperial/") for b in view.hand)
    assert view.stock(0)[1] == 3 and view.occupied() == sum(view.pieces(0)) + sum(view.pieces(1))


class _Failing:
    name = "failing"

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def choose(self, view, decision) -> int:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer  # type: ignore[return-value]


def test_a_python_strategy_error_ends_the_game_with_that_error() -> None:
    cards = load_card_set()
    with pytest.raises(KeyError, match="boom"):
        core.play(cards, "deathmatch", ("imperial", "imperial"), [_Failing(KeyError("boom")), _Failing(0)], 1)
    with pytest.raises(ValueError, match="strategy failing chose 99"):
        core.play(cards, "deathmatch", ("imperial", "imperial"), [_Failing(99), _Failing(0)], 1)


def test_native_strategies_take_their_parameters_and_refuse_unknown_ones() -> None:
    cards = load_card_set()
    tuned = core.NativePlayer("builder", 5, {"patterns": 2.5, "max_placements": 3})
    record, _ = core.play(cards, "high-form", ("imperial", "sylvan"), [tuned, make_player("builder", 1, 5)], 5)
    assert record.winner in (-1, 0, 1)
    with pytest.raises(ValueError, match="no parameter"):
        core.play(cards, "high-form", ("imperial", "sylvan"), [core.NativePlayer("builder", 5, {"x": 1}),
                                                                 make_player("random", 1, 5)], 5)


def test_the_manifest_names_the_core_that_played() -> None:
    from pipelines.manifest import code_version

    version = code_version()["core"]
    assert version["version"] == core.VERSION and len(version["source"]) == 16
