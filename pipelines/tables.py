"""Game records to Arrow tables with the schemas of pipelines.schema.

This runs once per game on the workers, so it keeps to one pass over the events with tuple rows; the
rows become columns only once per shard, in ``tables()``.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from pipelines.schema import SCHEMA_VERSION, TABLES
from sim.record import GameRecord

_CARD_TYPES = ("being", "legend", "flare")
_LIFECYCLE = {"discard": "discarded", "return": "returned", "held": "held"}
# Columns of the effect counters in a "played" row: 8..10 enemy pieces by rank, 11 own, then these.
_EFFECT_COLUMN = {"upgrade": 12, "downgrade": 13, "place": 14, "convert": 15}
_NO_EFFECT = (0, 0, 0, 0, 0, 0, 0, 0)


def _card_type(card_id: str) -> str:
    if card_id.startswith("legend/"):
        return "legend"
    if card_id.startswith("flare/"):
        return "flare"
    return "being"


class TableBuilder:
    """Collects the rows of many games and makes one Arrow table per kind."""

    def __init__(self) -> None:
        self.rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in TABLES}

    def add(self, game_id: int, cell: str, record: GameRecord, card_set: str,
            players: tuple[str, str] | None = None) -> None:
        """``players``: the labels for the strategy columns (a study's player labels); default: the names."""
        cfg = record.config
        strategies = players or cfg["strategies"]
        self.rows["games"].append((
            game_id, cell, cfg["seed"], cfg["mode"], cfg["decks"][0], cfg["decks"][1], strategies[0],
            strategies[1], record.first_player, record.winner, record.scores[0], record.scores[1], record.turns,
            record.end_reason, record.tiebreak, card_set, SCHEMA_VERSION))
        cards = self.rows["card_events"]
        tasks = self.rows["task_events"]
        flares = self.rows["flare_events"]
        points = self.rows["points"]
        played: list[Any] | None = None  # the open "played" row while its effect resolves
        for turn, seat, kind, card, a, b in record.events:
            if played is not None and card == played[3]:
                if kind == "destroy":
                    owner, rank = divmod(a, 3)
                    played[11 if owner == played[2] else 8 + rank] += 1
                    continue
                column = _EFFECT_COLUMN.get(kind)
                if column is not None:
                    played[column] += 1
                    continue
                if kind == "effect":
                    cards.append(tuple(played))
                    played = None
                    continue
            if kind == "draw":
                cards.append((game_id, turn, seat, card, _CARD_TYPES[b], "drawn", a == 0, -1, *_NO_EFFECT))
            elif kind == "summon":
                played = [game_id, turn, seat, card, _card_type(card), "played", False, a, 0, 0, 0, 0, 0, 0, 0, 0]
            elif kind in _LIFECYCLE:
                cards.append((game_id, turn, seat, card, _card_type(card), _LIFECYCLE[kind], False, -1, *_NO_EFFECT))
            elif kind == "flare":
                cards.append((game_id, turn, seat, card, "flare", "invoked", False, -1, *_NO_EFFECT))
                flares.append((game_id, turn, seat, card, bool(a & 1), bool(a & 2), b))
            elif kind == "task_reveal":
                tasks.append((game_id, turn, -1, card, "revealed", 0))
            elif kind == "task_claim":
                tasks.append((game_id, turn, seat, card, "claimed", a))
            elif kind == "points":
                points.append((game_id, turn, seat, card, a))

    def tables(self) -> dict[str, pa.Table]:
        out = {}
        for name, schema in TABLES.items():
            rows = self.rows[name]
            columns = zip(*rows, strict=True) if rows else [() for _ in schema]
            out[name] = pa.Table.from_pydict(
                {field.name: list(col) for col, field in zip(columns, schema, strict=True)}, schema=schema)
        return out
