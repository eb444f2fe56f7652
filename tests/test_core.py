"""The compiled core (sim._core) reproduces the records the retired Python engine made (tests/golden), reads
the card set of today, and is named in every manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scripts.golden_records import mismatches, read
from sim import core
from sim.cards import load_card_set
from sim.core_cards import card_set_document
from sim.state import MODES

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


def test_the_manifest_names_the_core_that_played() -> None:
    from pipelines.manifest import code_version

    version = code_version()["core"]
    assert version["version"] == core.VERSION and len(version["source"]) == 16
