"""The summed tables (``pipelines.schema.SUMMED``): what a shard's seats did with each card, where each being lay in
their shuffled deck, and what became of each task, summed over the shard's games by the seat's kind of game, deck,
player and result.

The report's per-card, position and task queries need only counts and sums per (form, deck, player) cell and
result, and the columns it selects games by (duels, melees or team games; the unchanged card set or an ablation
arm; mirror games): a few hundred to a few thousand rows a shard against about 180 card events and 36 deck
positions a game. Each table is made in two steps: a game's rows per seat (``summarize``: SEAT_CARD_ROWS, schema
6's seat_cards; the deck_order table; a game's tasks from each seat), then those rows summed over the games whose
seats share the keys (``seats`` says each seat's). Flat rows, not lists: DuckDB decodes a list
of structs at about twice the CPU time of the same values as flat columns (docs/reports.md, "Speed").

These are the one declaration of the sums: run over a shard's tables when they are built in Python
(pipelines/tables.py) and by reports/legacy.py over an older run's files; a shard played in the core sums the same
rows there (core/py/src/tables.rs, held to these by tests/test_pipelines_arrow.py). ``resum`` sums several shards'
rows again (a compacted block's, pipelines/compact.py).
"""

from __future__ import annotations

import polars as pl
import pyarrow as pa

from pipelines.schema import SEAT_CARD_ROWS, SEAT_KIND, SUMMED, TABLES

_COUNTERS = ("enemy_common", "enemy_heroic", "enemy_legendary", "own_destroyed", "upgrades", "downgrades",
             "placed", "converted")
_EXPANSION = ("frozen", "thawed", "warped")
_KIND = [name for name, _ in SEAT_KIND]


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


def seats(games: pl.LazyFrame, seat_results: pl.LazyFrame) -> pl.LazyFrame:
    """One row per seat of every game: ``game_id``, ``seat``, the seat kind's columns (pipelines.schema.SEAT_KIND;
    seats 0 and 1 from the games row, a melee's or a team game's others from seat_results), ``won`` (the game's
    winner is the seat's team: in a team game seat % 2, else the seat), ``first`` (it took the first turn) and
    ``opp_strategy`` (a duel: the other seat's player label; otherwise "")."""
    seat, teams = pl.col("seat"), pl.col("teams")
    game = games.select("game_id", "mode", "players", "teams", "variant",
                        (pl.col("strategy_0") == pl.col("strategy_1")).alias("mirror"), "winner", "first_player",
                        "strategy_0", "strategy_1")
    first_two = [games.select("game_id", pl.lit(s, pl.Int8).alias("seat"), pl.col(f"deck_{s}").alias("deck"),
                              pl.col(f"strategy_{s}").alias("strategy")) for s in (0, 1)]
    others = seat_results.filter(seat >= 2).select("game_id", "seat", "deck", "strategy")
    duel = (pl.col("players") == 2) & ~teams
    other = pl.when(seat == 0).then(pl.col("strategy_1")).otherwise(pl.col("strategy_0"))
    return pl.concat([*first_two, others]).join(game, on="game_id", how="inner").select(
        "game_id", "seat", *_KIND,
        (pl.col("winner") == pl.when(teams).then(seat % 2).otherwise(seat)).alias("won"),
        (seat == pl.col("first_player")).alias("first"),
        pl.when(duel).then(other).otherwise(pl.lit("")).alias("opp_strategy"))


def _summed(name: str, rows: pl.LazyFrame, sums: list[pl.Expr]) -> pa.Table:
    """``rows`` (with the keys of ``name``) summed by its keys, sorted by them, as the table's schema says."""
    keys, schema = SUMMED[name], TABLES[name]
    return rows.group_by(keys).agg(sums).sort(keys).select(schema.names).collect().to_arrow().cast(schema)


def seat_cards(rows: pl.LazyFrame, flare_events: pl.LazyFrame, seat_rows: pl.LazyFrame) -> pa.Table:
    """The seat_cards table: ``summarize``'s ``rows``, with each seat-game's invocations of a flare from
    ``flare_events``, summed by seat kind, card and result (``seat_rows``: from ``seats``)."""
    drawn, plays = pl.col("drawn"), pl.col("plays")
    upper, lower, invoked = pl.col("upper"), pl.col("lower"), pl.col("invocations") > 0
    flares = flare_events.group_by("game_id", "seat", "flare_id").agg(
        pl.len().alias("invocations"), upper.any(), lower.any(), (pl.col("behind_by") < 0).any().alias("behind"),
        pl.col("behind_by").cast(pl.Int64).sum().alias("behind_gap")).rename({"flare_id": "card_id"})
    # a full join: a flare's invocations count even where no card event says so (hand-made test data)
    joined = (rows.join(flares, on=["game_id", "seat", "card_id"], how="full", coalesce=True)
              .with_columns(pl.col("drawn", "opening", "played", "upper", "lower", "behind").fill_null(False),
                            pl.col("first_play").fill_null(-1),
                            pl.col("plays", "play_turns", *_COUNTERS, "turn_points", *_EXPANSION, "invocations",
                                   "behind_gap").fill_null(0))
              .join(seat_rows, on=["game_id", "seat"], how="left"))
    return _summed("seat_cards", joined, [
        drawn.sum().alias("drawn"), (drawn & pl.col("opening")).sum().alias("opening"),
        (drawn & pl.col("played")).sum().alias("played"), pl.col("plays", "play_turns").sum(),
        (plays > 0).sum().alias("first_plays"),
        pl.when(plays > 0).then(pl.col("first_play")).otherwise(0).cast(pl.Int64).sum().alias("first_play_turns"),
        pl.col(*_COUNTERS, "turn_points", *_EXPANSION, "invocations").sum(), invoked.sum().alias("invoked"),
        (upper & ~lower).sum().alias("upper_only"), (lower & ~upper).sum().alias("lower_only"),
        (upper & lower).sum().alias("both_halves"), pl.col("behind").sum(), pl.col("behind_gap").sum()])


def deck_positions(deck_order: pl.LazyFrame, seat_rows: pl.LazyFrame) -> pa.Table:
    """The deck_positions table: the deck_order rows counted by seat kind, card, position and result."""
    joined = deck_order.join(seat_rows, on=["game_id", "seat"], how="left")
    return _summed("deck_positions", joined, [pl.len().alias("games")])


def seat_tasks(task_events: pl.LazyFrame, seat_rows: pl.LazyFrame) -> pa.Table:
    """The seat_tasks table from the games' task events (in event order): every task revealed in a game, from each
    seat, summed by seat kind, opponent, first turn, task and result. A task enters the row at setup (the first
    three reveals of a game) or, revealed as the next task, at the first claim after its reveal (that claim frees
    the place it moves into); it is revealed and claimed at most once a game."""
    event, turn = pl.col("event"), pl.col("turn")
    revealed, claimed = event == "revealed", event == "claimed"
    ordered = task_events.with_columns(
        revealed.cast(pl.Int32).cum_sum().over("game_id").alias("nth"),
        pl.when(claimed).then(turn).backward_fill().over("game_id").alias("next_claim"))
    reveals = ordered.filter(revealed).select(
        "game_id", "task_id", (turn == 0).alias("dealt"),
        pl.when(pl.col("nth") <= 3).then(0).otherwise(pl.col("next_claim")).alias("entered"))
    claims = ordered.filter(claimed).select("game_id", "task_id", pl.col("seat").alias("claimer"),
                                            turn.alias("claim_turn"), pl.col("points").alias("claim_points"))
    tasks = reveals.join(claims, on=["game_id", "task_id"], how="left").join(seat_rows, on="game_id", how="inner")
    mine = pl.col("claimer") == pl.col("seat")
    return _summed("seat_tasks", tasks, [
        pl.col("dealt").sum(), pl.len().alias("revealed"), mine.sum().alias("claims"),
        pl.when(mine).then(pl.col("claim_points")).otherwise(0).sum().alias("points"),
        pl.when(mine).then(pl.col("claim_turn").cast(pl.Int64) - pl.col("entered").fill_null(0))
        .otherwise(0).sum().alias("row_turns")])


def shard_summaries(tables: dict[str, pa.Table]) -> dict[str, pa.Table]:
    """A shard's summed tables from its other tables."""
    frame = {name: pl.from_arrow(tables[name]).lazy() for name in (
        "card_events", "points", "flare_events", "task_events", "deck_order", "games", "seat_results")}
    seat_rows = seats(frame["games"], frame["seat_results"])
    rows = pl.from_arrow(summarize(frame["card_events"], frame["points"])).lazy()
    return {"seat_cards": seat_cards(rows, frame["flare_events"], seat_rows),
            "deck_positions": deck_positions(frame["deck_order"], seat_rows),
            "seat_tasks": seat_tasks(frame["task_events"], seat_rows)}


def resum(name: str, tables: list[pa.Table]) -> pa.Table:
    """Rows of the summed table ``name`` from several shards (a compacted block's) summed again by their keys: the
    same sums in fewer rows, since every column but the keys is a count or a sum."""
    values = [n for n in TABLES[name].names if n not in SUMMED[name]]
    frame = pl.from_arrow(pa.concat_tables(tables).replace_schema_metadata(None)).lazy()
    return _summed(name, frame, [pl.col(values).sum()])
