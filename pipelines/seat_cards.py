"""The seat_cards table: what the seats of a shard's games did with each card, summed per kind of game, seat's
deck and player, and card.

The report's per-card queries need, per seat and card, only whether the card was drawn, in the opening hand
and played, and sums over its plays (turns, outcome counters, the points scored in those turns), counted by
the seat's (form, deck, player) cell and whether it won. Two steps: ``summarize`` sums a game's card events
per seat and card (about 40 rows a game against about 180 card events: ``SEAT_CARD_ROWS``, schema 6's
seat_cards); ``by_cell`` sums those rows over the shard's games that share the columns the report selects
games and cells by (a few hundred rows a shard, about 0.5% of its card events). Flat rows, not lists: DuckDB
decodes a list of structs at about twice the CPU time of the same values as flat columns (docs/reports.md,
"Speed"). These are the one declaration, run over a shard's tables when they are built in Python
(pipelines/tables.py) and by reports/legacy.py over an older run's Parquet files; a shard played in the core
makes the ``summarize`` rows there (core/py/src/tables.rs, held to ``summarize`` by
tests/test_pipelines_arrow.py) and ``by_cell`` sums them.
"""

from __future__ import annotations

import polars as pl
import pyarrow as pa

from pipelines.schema import SEAT_CARD_ROWS, SEAT_CARDS

_COUNTERS = ("enemy_common", "enemy_heroic", "enemy_legendary", "own_destroyed", "upgrades", "downgrades",
             "placed", "converted")
_EXPANSION = ("frozen", "thawed", "warped")


def summarize(card_events: pl.LazyFrame, points: pl.LazyFrame) -> pa.Table:
    """The SEAT_CARD_ROWS of the games in ``card_events`` (with their ``points``), by game, seat and card."""
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
    rows = per_card.sort("game_id", "seat", "card_id").select(SEAT_CARD_ROWS.names)
    return rows.collect().to_arrow().cast(SEAT_CARD_ROWS)


_KEYS = ("mode", "players", "teams", "variant", "mirror", "deck", "strategy", "card_id", "won")


def by_cell(rows: pl.LazyFrame, games: pl.LazyFrame, seat_results: pl.LazyFrame) -> pa.Table:
    """The seat_cards rows: ``summarize``'s ``rows`` summed per (mode, players, teams, variant, mirror) of their
    game, the seat's deck and player (seats 0 and 1: the games row's; a melee's or a team game's others: their
    seat_results row's), card, and whether the seat won (the game's winner is its team: in a team game seat % 2,
    else the seat), as the report's seat tables say. Sorted by those keys."""
    seat, teams = pl.col("seat"), pl.col("teams")
    game = games.select("game_id", "mode", "players", "teams", "variant",
                        (pl.col("strategy_0") == pl.col("strategy_1")).alias("mirror"), "winner",
                        "deck_0", "deck_1", "strategy_0", "strategy_1")
    others = seat_results.filter(pl.col("seat") >= 2).select("game_id", "seat", "deck", "strategy")
    joined = rows.join(game, on="game_id", how="left").join(others, on=["game_id", "seat"], how="left")

    def by_seat(column: str) -> pl.Expr:
        return (pl.when(seat == 0).then(pl.col(f"{column}_0")).when(seat == 1).then(pl.col(f"{column}_1"))
                .otherwise(pl.col(column)).alias(column))

    team = pl.when(teams).then(seat % 2).otherwise(seat).cast(pl.Int16)
    drawn, won, plays = pl.col("drawn"), pl.col("winner").cast(pl.Int16) == team, pl.col("plays")
    opening, played = drawn & pl.col("opening"), drawn & pl.col("played")
    sums = joined.with_columns(by_seat("deck"), by_seat("strategy"), won.alias("won")).group_by(_KEYS).agg(
        drawn.sum().alias("drawn"), opening.sum().alias("opening"), played.sum().alias("played"),
        pl.col("plays", "play_turns").sum(), (plays > 0).sum().alias("first_plays"),
        pl.when(plays > 0).then(pl.col("first_play")).otherwise(0).cast(pl.Int64).sum().alias("first_play_turns"),
        pl.col(*_COUNTERS, "turn_points", *_EXPANSION).sum())
    out = sums.sort(_KEYS).select(SEAT_CARDS.names)
    return out.collect().to_arrow().cast(SEAT_CARDS)


def seat_cards(tables: dict[str, pa.Table], rows: pa.Table | None = None) -> pa.Table:
    """The seat_cards table of one shard, from its tables (``rows``: its ``summarize`` rows, if made already)."""
    if rows is None:
        rows = summarize(pl.from_arrow(tables["card_events"]).lazy(), pl.from_arrow(tables["points"]).lazy())
    return by_cell(*(pl.from_arrow(t).lazy() for t in (rows, tables["games"], tables["seat_results"])))


def resum(tables: list[pa.Table]) -> pa.Table:
    """seat_cards rows of several shards (a compacted block's) summed again by their keys: the same sums with
    fewer rows, since every column but the keys is a count or a sum."""
    values = [n for n in SEAT_CARDS.names if n not in _KEYS]
    frame = pl.from_arrow(pa.concat_tables(tables).replace_schema_metadata(None)).lazy()
    out = frame.group_by(_KEYS).agg(pl.col(values).sum()).sort(_KEYS).select(SEAT_CARDS.names)
    return out.collect().to_arrow().cast(SEAT_CARDS)
