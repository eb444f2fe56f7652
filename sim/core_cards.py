"""The card set as the compiled core reads it: one JSON document, built from a loaded (validated) CardSet.

Python loads and validates the TOML card files (errors name the file and field); the core receives the
result, so a designer's change that fits the step vocabulary needs no compiler. Effects are passed as the
step tables of the card files, unchanged. Order matters: beings are listed deck by deck in the CardSet's
order, then legends, which is the order of ``Being.index``; flares and tasks in file order.
"""

from __future__ import annotations

import json
from typing import Any

from sim.cards import Being, CardSet


def _being(b: Being) -> dict[str, Any]:
    out = {
        "id": b.id,
        "deck": b.deck,
        "rank": b.rank,
        "cells": [list(c) for c in b.pattern.cells],
        "marked": [list(m) for m in b.pattern.marked],
        "marked_other": [list(m) for m in b.pattern.marked_other],
        "effect": list(b.effect),
    }
    if b.warp is not None:
        out["warp"] = list(b.warp)
    if b.summon_anywhere:
        out["summon_anywhere"] = True
    if b.frozen is not None:
        out["frozen"] = list(b.frozen)
    return out


def card_set_document(cards: CardSet) -> dict[str, Any]:
    return {
        "decks": [{"name": name, "beings": [_being(b) for b in beings]} for name, beings in cards.decks.items()],
        "legends": [_being(b) for b in cards.legends],
        "flares": [{"id": f.id,
                    "upper": {"threshold": f.upper.threshold, "effect": list(f.upper.effect)},
                    "lower": {"threshold": f.lower.threshold, "effect": list(f.lower.effect)}}
                   for f in cards.flares],
        "tasks": [{"id": t.id, "category": t.category, "advanced": t.advanced, "points": t.points,
                   "condition": t.condition} for t in cards.tasks],
    }


def card_set_json(cards: CardSet) -> str:
    return json.dumps(card_set_document(cards), separators=(",", ":"))
