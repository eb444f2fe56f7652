"""The seat_cards table: per seat of a game and card, what the seat did with the card, summed from the shard's
card events and points.

The report's per-card queries need, per seat and card, only whether the card was drawn, in the opening hand
and played, and sums over its plays (turns, outcome counters, the points scored in those turns): about 40
such rows a game against about 180 card events. Flat rows, not a list per seat: DuckDB decodes a list of
structs at about twice the CPU time of the same values as flat columns (docs/reports.md, "Speed"). The one
declaration, ``summarize``, is run over a shard's tables when they are built in Python (pipelines/tables.py)
and by reports/legacy.py over an older run's Parquet files; a shard played in the core sums the same rows
there (core/py/src/tables.rs, held to ``summarize`` by tests/test_pipelines_arrow.py).
"""

from __future__ import annotations

import polars as pl
import pyarrow as pa

from pipelines.schema import SEAT_CARDS

_COUNTERS = ("enemy_common", "enemy_heroic", "enemy_legendary", "own_destroyed", "upgrades", "downgrades",
             "placed", "converted")
_EXPANSION = ("frozen", "thawed", "warped")


def summarize(card_events: pl.LazyFrame, points: pl.LazyFrame) -> pa.Table:
    """The seat_cards rows of the games in ``card_events`` (with their ``points``), by game, seat and card."""
    event = pl.col("event")
    played = event == "played"

    def when_played(column: str) -> pl.Expr:
        return pl.when(played).then(pl.col(column)).otherwise(0)

    turn_points = points.group_by("game_id", "turn", "seat").agg(pl.col("points").sum().alias("turn_points"))
    # the columns summed, masked to the plays first: plain sums group much faster than filtered ones
    masked = (card_events.join(turn_points, on=["game_id", "turn", "seat"], how="left").select(
        "game_id", "seat", "card_id", (event == "drawn").alias("drawn"), "opening",
        event.is_in(["played", "invoked"]).alias("played"), played.cast(pl.Int16).alias("plays"),
        when_played("turn").cast(pl.Int32).alias("play_turns"),
        pl.when(played).then(pl.col("turn")).alias("first_play"),
        *[when_played(c).cast(pl.Int16).alias(c) for c in _COUNTERS],
        when_played("turn_points").fill_null(0).cast(pl.Int32).alias("turn_points"),
        *[(event == e).cast(pl.Int16).alias(e) for e in _EXPANSION]))
    per_card = masked.group_by("game_id", "seat", "card_id").agg(
        pl.col("drawn", "opening", "played").any(), pl.col("first_play").min().fill_null(-1),
        pl.col("plays", "play_turns", *_COUNTERS, "turn_points", *_EXPANSION).sum())
    rows = per_card.sort("game_id", "seat", "card_id").select(SEAT_CARDS.names)
    return rows.collect().to_arrow().cast(SEAT_CARDS)


def seat_cards(tables: dict[str, pa.Table]) -> pa.Table:
    """The seat_cards table of one shard, from its card_events and points tables."""
    return summarize(pl.from_arrow(tables["card_events"]).lazy(), pl.from_arrow(tables["points"]).lazy())
