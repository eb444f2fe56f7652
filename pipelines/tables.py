"""Game records to Arrow tables with the schemas of pipelines.schema."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from pipelines.schema import SCHEMA_VERSION, TABLES
from sim.record import GameRecord

_CARD_TYPES = {0: "being", 1: "legend", 2: "flare"}
_EFFECT_KINDS = ("destroy", "upgrade", "downgrade", "place", "convert")


def _card_type(card_id: str) -> str:
    if card_id.startswith("legend/"):
        return "legend"
    if card_id.startswith("flare/"):
        return "flare"
    return "being"


class TableBuilder:
    """Collects the rows of many games, column by column, and makes one Arrow table per kind."""

    def __init__(self) -> None:
        self.columns: dict[str, dict[str, list[Any]]] = {
            name: {f.name: [] for f in schema} for name, schema in TABLES.items()
        }

    def _row(self, table: str, *values: Any) -> None:
        for col, v in zip(self.columns[table].values(), values, strict=True):
            col.append(v)

    def add(self, game_id: int, cell: str, record: GameRecord, card_set: str,
            players: tuple[str, str] | None = None) -> None:
        """``players``: the labels for the strategy columns (a study's player labels); default: the names."""
        cfg = record.config
        strategies = players or cfg["strategies"]
        self._row("games", game_id, cell, cfg["seed"], cfg["mode"], cfg["decks"][0], cfg["decks"][1],
                  strategies[0], strategies[1], record.first_player, record.winner,
                  record.scores[0], record.scores[1], record.turns, record.end_reason, record.tiebreak, card_set,
                  SCHEMA_VERSION)
        played: list[Any] | None = None  # the open "played" row while its effect resolves
        for turn, seat, kind, card, a, b in record.events:
            if played is not None and kind in _EFFECT_KINDS and card == played[3]:
                if kind == "destroy":
                    owner, rank = divmod(a, 3)
                    if owner == played[2]:
                        played[11] += 1
                    else:
                        played[8 + rank] += 1
                else:
                    played[12 + _EFFECT_KINDS.index(kind) - 1] += 1
                continue
            if kind == "effect" and played is not None:
                self._row("card_events", *played)
                played = None
            elif kind == "summon":
                played = [game_id, turn, seat, card, _card_type(card), "played", False, a, 0, 0, 0, 0, 0, 0, 0, 0]
            elif kind == "draw":
                self._row("card_events", game_id, turn, seat, card, _CARD_TYPES[b], "drawn", a == 0, -1,
                          0, 0, 0, 0, 0, 0, 0, 0)
            elif kind in ("discard", "return", "held"):
                event = {"discard": "discarded", "return": "returned", "held": "held"}[kind]
                self._row("card_events", game_id, turn, seat, card, _card_type(card), event, False, -1,
                          0, 0, 0, 0, 0, 0, 0, 0)
            elif kind == "flare":
                self._row("card_events", game_id, turn, seat, card, "flare", "invoked", False, -1,
                          0, 0, 0, 0, 0, 0, 0, 0)
                self._row("flare_events", game_id, turn, seat, card, bool(a & 1), bool(a & 2), b)
            elif kind == "task_reveal":
                self._row("task_events", game_id, turn, -1, card, "revealed", 0)
            elif kind == "task_claim":
                self._row("task_events", game_id, turn, seat, card, "claimed", a)
            elif kind == "points":
                self._row("points", game_id, turn, seat, card, a)

    def tables(self) -> dict[str, pa.Table]:
        return {name: pa.Table.from_pydict(cols, schema=TABLES[name]) for name, cols in self.columns.items()}
