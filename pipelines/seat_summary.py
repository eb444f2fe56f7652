"""The seat_summary table: per seat of a game, what it did with each card, summed from the shard's other tables.

The report's per-card queries need, per seat and card, only whether the card was drawn, in the opening hand
and played, and sums over its plays (turns, outcome counters, the points scored in those turns); reading
those from one row per seat instead of from every card event reads about a hundredth of the rows. The one
declaration, ``SQL``, is run by the shard writer over the shard's Arrow tables and by reports/legacy.py over
an older run's Parquet files (``{card_events}``, ``{points}`` and ``{seat_results}`` are the relations).
"""

from __future__ import annotations

from collections.abc import Mapping

import duckdb
import pyarrow as pa

from pipelines.schema import SEAT_SUMMARY

READS = ("card_events", "points", "seat_results")
_COUNTERS = ("enemy_common", "enemy_heroic", "enemy_legendary", "own_destroyed", "upgrades", "downgrades",
             "placed", "converted")
_PLAYED = "event = 'played'"

SQL = f"""
WITH turn_points AS (
    SELECT game_id, turn, seat, sum(points) AS points
    FROM {{points}}
    GROUP BY game_id, turn, seat
),
events AS (
    SELECT e.*, CASE WHEN e.{_PLAYED} THEN coalesce(tp.points, 0) END AS turn_points
    FROM {{card_events}} e
    LEFT JOIN turn_points tp
        ON e.{_PLAYED} AND tp.game_id = e.game_id AND tp.turn = e.turn AND tp.seat = e.seat
),
per_card AS (
    SELECT game_id, seat, card_id,
           bool_or(event = 'drawn') AS drawn, bool_or(opening) AS opening,
           bool_or(event IN ('played', 'invoked')) AS played,
           (count(*) FILTER ({_PLAYED}))::SMALLINT AS plays,
           coalesce(sum(turn) FILTER ({_PLAYED}), 0)::INTEGER AS play_turns,
           coalesce(min(turn) FILTER ({_PLAYED}), -1)::SMALLINT AS first_play,
           {", ".join(f"coalesce(sum({c}) FILTER ({_PLAYED}), 0)::SMALLINT AS {c}" for c in _COUNTERS)},
           coalesce(sum(turn_points), 0)::INTEGER AS turn_points,
           {", ".join(f"(count(*) FILTER (event = '{e}'))::SMALLINT AS {e}" for e in ("frozen", "thawed", "warped"))}
    FROM events
    GROUP BY game_id, seat, card_id
)
SELECT s.game_id, s.seat,
       list_filter(list(struct_pack(card_id := c.card_id, drawn := c.drawn, opening := c.opening,
                                    played := c.played, plays := c.plays, play_turns := c.play_turns,
                                    first_play := c.first_play, {", ".join(f"{c} := c.{c}" for c in _COUNTERS)},
                                    turn_points := c.turn_points, frozen := c.frozen, thawed := c.thawed,
                                    warped := c.warped) ORDER BY c.card_id),
                   lambda x: x.card_id IS NOT NULL) AS cards
FROM {{seat_results}} s
LEFT JOIN per_card c ON c.game_id = s.game_id AND c.seat = s.seat
GROUP BY s.game_id, s.seat
ORDER BY s.game_id, s.seat
"""


def seat_summary(tables: Mapping[str, pa.Table]) -> pa.Table:
    """The seat_summary table of one shard, from its card_events, points and seat_results tables."""
    con = duckdb.connect(":memory:")
    try:
        con.execute("SET threads = 1")  # a worker plays on one CPU
        for name in READS:
            con.register(name, tables[name])
        return con.sql(SQL.format(**{name: name for name in READS})).to_arrow_table().cast(SEAT_SUMMARY)
    finally:
        con.close()
