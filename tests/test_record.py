"""The game record's events against docs/record.md, and their JSON form."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sim.cards import load_card_set
from sim.game import Game
from sim.record import EVENT_KINDS, MELEE_ONLY, Destroy, GameRecord, Place, Points, Summon
from strategies import make_strategy

RECORD_DOC = Path(__file__).resolve().parents[1] / "docs" / "record.md"


def documented_events() -> dict[str, tuple[str, list[str]]]:
    """Per kind in docs/record.md: the class name and the fields after ``turn`` and ``seat``."""
    out = {}
    for line in RECORD_DOC.read_text().splitlines():
        cells = [c.strip() for c in line.split("|")[1:-1]]
        kind = re.fullmatch(r"`(\w+)`", cells[0]) if len(cells) == 4 else None
        if kind:
            fields = re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", cells[2]))
            out[kind.group(1)] = (cells[1].strip("`"), fields)
    return out


def test_every_event_kind_and_field_is_documented() -> None:
    documented = documented_events()
    assert documented == {kind: (cls.__name__, list(cls.__match_args__[2:])) for kind, cls in EVENT_KINDS.items()}
    assert all(cls.__match_args__[:2] == ("turn", "seat") for cls in EVENT_KINDS.values())


def test_events_are_json_objects_with_the_documented_keys() -> None:
    players = [make_strategy("random", seat, 3) for seat in (0, 1)]
    record = Game(load_card_set(), "deathmatch", ("highland", "imperial"), players, 3).play()
    events = json.loads(json.dumps(record.to_dict()))["events"]
    documented = documented_events()
    assert len(events) == len(record.events)
    for event in events:
        duel_fields = [f for f in documented[event["kind"]][1] if f not in MELEE_ONLY]
        assert list(event) == ["kind", "turn", "seat", *duel_fields]
    melee_players = [make_strategy("random", seat, 3) for seat in range(3)]
    melee = Game(load_card_set(), "deathmatch", ("highland", "imperial", "sylvan"), melee_players, 3).play()
    melee_events = json.loads(json.dumps(melee.to_dict()))["events"]
    assert {e["kind"] for e in melee_events} >= {"points", "flare", "improvise"}
    for event in melee_events:
        assert list(event) == ["kind", "turn", "seat", *documented[event["kind"]][1]]
    summon = next(e for e in record.events if isinstance(e, Summon))
    assert events[record.events.index(summon)] == {
        "kind": "summon", "turn": summon.turn, "seat": summon.seat, "card": summon.card, "square": summon.square,
        "orientation": summon.orientation}


def test_events_of_different_kinds_differ_even_with_the_same_values() -> None:
    r = GameRecord()
    r.add(Place(1, 0, "place-action", 40, 0))
    r.add(Destroy(1, 0, "imperial/assassin", 40, 1, 2, True))
    r.add(Points(1, 0, "destruction", 2))
    assert r.of_kind(Place) == [Place(1, 0, "place-action", 40, 0)]
    assert [type(e).__name__ for e in r.events] == ["Place", "Destroy", "Points"]
    assert EVENT_KINDS["discard"](1, 0, "x") != EVENT_KINDS["return"](1, 0, "x")
