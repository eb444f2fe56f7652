"""Game records to Arrow tables with the schemas of pipelines.schema.

This runs on the workers for every game, so ``add`` only collects the raw event tuples; ``tables`` turns
a whole shard's events into the table rows at once with Polars (columnar work instead of a Python loop
per event). An effect's outcome is counted on the events that follow a summon and name its card, up to
the game's next summon.
"""

from __future__ import annotations

from typing import Any

import polars as pl
import pyarrow as pa

from pipelines.schema import SCHEMA_VERSION, TABLES
from sim.record import GameRecord
from sim.state import GameState

_EVENT_COLUMNS = (("turn", pa.int16()), ("seat", pa.int8()), ("kind", pa.string()), ("card", pa.string()),
                  ("a", pa.int32()), ("b", pa.int32()))
_LIFECYCLE = {"discard": "discarded", "return": "returned", "held": "held"}
_EFFECT_KINDS = ("destroy", "upgrade", "downgrade", "place", "convert")
_COUNTERS = ("enemy_common", "enemy_heroic", "enemy_legendary", "own_destroyed", "upgrades", "downgrades",
             "placed", "converted")


def _card_type(card: pl.Expr) -> pl.Expr:
    return (pl.when(card.str.starts_with("legend/")).then(pl.lit("legend"))
            .when(card.str.starts_with("flare/")).then(pl.lit("flare")).otherwise(pl.lit("being")))


def setup_order(state: GameState) -> tuple[list[str], list[str]]:
    """Each seat's being deck in the order the setup shuffle left it, first drawn first: the opening hand
    (in draw order), then the deck from its top. Call it right after ``Game.setup``."""
    return tuple([c.id for c in state.hand[p]] + [c.id for c in reversed(state.deck[p])]  # type: ignore[return-value]
                 for p in (0, 1))


class TableBuilder:
    """Collects the records of many games and makes one Arrow table per kind."""

    def __init__(self) -> None:
        self.games: list[tuple[Any, ...]] = []
        self.event_columns: tuple[list[Any], ...] = tuple([] for _ in _EVENT_COLUMNS)
        self.event_games: list[int] = []
        self.deck_order: list[tuple[int, int, str, int]] = []

    def add(self, game_id: int, cell: str, record: GameRecord, card_set: str,
            players: tuple[str, str] | None = None, variant: str = "", variant_seat: int = -1,
            deck_order: tuple[list[str], list[str]] = ([], [])) -> None:
        """``players``: the labels for the strategy columns (a study's player labels); default: the names.
        ``deck_order``: each seat's being ids in their shuffled order at setup (see ``setup_order``)."""
        cfg = record.config
        strategies = players or cfg["strategies"]
        self.games.append((
            game_id, cell, cfg["seed"], cfg["mode"], cfg["decks"][0], cfg["decks"][1], strategies[0],
            strategies[1], record.first_player, record.winner, record.scores[0], record.scores[1], record.turns,
            record.end_reason, record.tiebreak, card_set, SCHEMA_VERSION, variant, variant_seat))
        self.deck_order.extend((game_id, seat, card, pos) for seat, ids in enumerate(deck_order)
                               for pos, card in enumerate(ids))
        if record.events:
            for column, values in zip(self.event_columns, zip(*record.events, strict=True), strict=True):
                column.extend(values)
            self.event_games.extend([game_id] * len(record.events))

    def _event_frame(self) -> pl.DataFrame:
        columns = {name: pa.array(values, type=kind)
                   for (name, kind), values in zip(_EVENT_COLUMNS, self.event_columns, strict=True)}
        columns["game_id"] = pa.array(self.event_games, type=pa.int64())
        ev = pl.from_arrow(pa.table(columns)).with_row_index("idx")
        summon = pl.col("kind") == "summon"
        return ev.with_columns(
            pl.when(summon).then(pl.col("idx")).forward_fill().over("game_id").alias("summon_idx"),
            pl.when(summon).then(pl.col("card")).forward_fill().over("game_id").alias("summon_card"),
        )

    def _card_rows(self, ev: pl.DataFrame) -> pl.DataFrame:
        kind, card = pl.col("kind"), pl.col("card")
        owner, rank = pl.col("a") // 3, pl.col("a") % 3
        destroy = kind == "destroy"
        enemy = destroy & (owner != pl.col("seat").cast(pl.Int32))
        effects = (ev.filter(kind.is_in(_EFFECT_KINDS) & (card == pl.col("summon_card")))
                   .group_by("summon_idx").agg(
                       (enemy & (rank == 0)).sum().alias("enemy_common"),
                       (enemy & (rank == 1)).sum().alias("enemy_heroic"),
                       (enemy & (rank == 2)).sum().alias("enemy_legendary"),
                       (destroy & ~enemy).sum().alias("own_destroyed"),
                       *[(kind == k).sum().alias(name) for k, name in zip(_EFFECT_KINDS[1:], _COUNTERS[4:],
                                                                           strict=True)]))
        zero = [pl.lit(0).alias(c) for c in _COUNTERS]
        base = [pl.col("idx"), pl.col("game_id"), pl.col("turn"), pl.col("seat"), card.alias("card_id")]
        played = (ev.filter(kind == "summon")
                  .join(effects, left_on="idx", right_on="summon_idx", how="left")
                  .select(*base, _card_type(card).alias("card_type"), pl.lit("played").alias("event"),
                          pl.lit(False).alias("opening"), pl.col("a").alias("square"),
                          *[pl.col(c).fill_null(0) for c in _COUNTERS]))
        drawn = ev.filter(kind == "draw").select(
            *base, pl.col("b").replace_strict({0: "being", 1: "legend", 2: "flare"}, return_dtype=pl.String)
            .alias("card_type"), pl.lit("drawn").alias("event"), (pl.col("a") == 0).alias("opening"),
            pl.lit(-1).alias("square"), *zero)
        other = ev.filter(kind.is_in([*_LIFECYCLE, "flare"])).select(
            *base, _card_type(card).alias("card_type"),
            kind.replace_strict({**_LIFECYCLE, "flare": "invoked"}, return_dtype=pl.String).alias("event"),
            pl.lit(False).alias("opening"), pl.lit(-1).alias("square"), *zero)
        return pl.concat([drawn, played, other], how="vertical_relaxed").sort("idx").drop("idx")

    def tables(self) -> dict[str, pa.Table]:
        schemas = TABLES
        ev = self._event_frame()
        kind = pl.col("kind")
        frames = {
            "card_events": self._card_rows(ev),
            "task_events": ev.filter(kind.is_in(["task_reveal", "task_claim"])).select(
                "game_id", "turn", pl.when(kind == "task_claim").then(pl.col("seat")).otherwise(-1).alias("seat"),
                pl.col("card").alias("task_id"),
                pl.when(kind == "task_claim").then(pl.lit("claimed")).otherwise(pl.lit("revealed")).alias("event"),
                pl.when(kind == "task_claim").then(pl.col("a")).otherwise(0).alias("points")),
            "flare_events": ev.filter(kind == "flare").select(
                "game_id", "turn", "seat", pl.col("card").alias("flare_id"), (pl.col("a") & 1 > 0).alias("upper"),
                (pl.col("a") & 2 > 0).alias("lower"), pl.col("b").alias("behind_by")),
            "points": ev.filter(kind == "points").select(
                "game_id", "turn", "seat", pl.col("card").alias("source"), pl.col("a").alias("points")),
        }
        out = {"games": pa.Table.from_pylist(
            [dict(zip(schemas["games"].names, row, strict=True)) for row in self.games], schema=schemas["games"])}
        out["deck_order"] = pa.Table.from_pylist(
            [dict(zip(schemas["deck_order"].names, row, strict=True)) for row in self.deck_order],
            schema=schemas["deck_order"])
        for name, frame in frames.items():
            out[name] = frame.to_arrow().select(schemas[name].names).cast(schemas[name])
        return out
