"""Versioned schemas of the study dataset's Parquet tables. See docs/dataset.md.

Every table but the summed ones (``SUMMED``: sums over a shard's games, by the seat's kind of game, deck, player and
result) has ``game_id``, which is unique within a run and equal to the game's index in the study.
"""

from __future__ import annotations

import functools
from typing import Any

import pyarrow as pa

# 2: games.variant and variant_seat, the deck_order table; 3: melee (games.players, the seat_results and
# colour_points tables, points.colour, flare_events.against); 4: team games (games.teams, seat_results.team,
# the pass_control table); 5: the expansions' card_events (frozen, thawed, warped); 6: the seat_cards table (a row
# per seat of a game and card: SEAT_CARD_ROWS); 7: seat_cards summed within each shard by the seat's kind of game,
# deck, player and result, the deck_positions and seat_tasks tables (summed alike), string columns
# dictionary-encoded.
# reports/legacy.py reads versions 1 to 6 too.
SCHEMA_VERSION = 7
# The keys of a shard file's Parquet metadata: its dataset, shard number and schema version.
META_DATASET = b"tashkalar.dataset"
META_SHARD = b"tashkalar.shard"
META_SCHEMA_VERSION = b"tashkalar.schema_version"

GAMES = pa.schema([
    ("game_id", pa.int64()),
    ("cell", pa.string()),  # the study cell: "form|deck_a-deck_b|strategy_a-strategy_b" before seat rotation
    ("seed", pa.int64()),
    ("mode", pa.string()),  # high-form or deathmatch (a melee is a deathmatch with players > 2)
    ("players", pa.int8()),  # 2 for a duel, 3 or 4 for a melee, 4 for a team game; seats 2-3 are in seat_results
    ("teams", pa.bool_()),  # a team game, 2 against 2: team A = seats 0 and 2, team B = seats 1 and 3
    ("deck_0", pa.string()),
    ("deck_1", pa.string()),
    ("strategy_0", pa.string()),
    ("strategy_1", pa.string()),
    ("first_player", pa.int8()),  # the seat that took the first turn (0-3 in a team game)
    ("winner", pa.int8()),  # the winning seat, -1 for a tie (a shared first place in a melee); a team game: the team
    ("score_0", pa.int16()),  # in a melee the seat's lowest colour score; in a team game team A's score
    ("score_1", pa.int16()),  # in a team game team B's score
    ("turns", pa.int16()),
    ("end_reason", pa.string()),  # deck, score, turn-limit
    ("tiebreak", pa.string()),  # "", upgraded, pieces, tie; in a melee also second-lowest, highest
    ("card_set", pa.string()),  # card-set fingerprint
    ("schema_version", pa.int16()),
    ("variant", pa.string()),  # the ablation arm ("vanilla:imperial/cannon"); "" for the unchanged card set
    ("variant_seat", pa.int8()),  # the seat playing the changed copy of an ablated being's deck, else -1
])

CARD_EVENTS = pa.schema([
    ("game_id", pa.int64()),
    ("turn", pa.int16()),  # 0 for the opening hand
    ("seat", pa.int8()),
    ("card_id", pa.string()),
    ("card_type", pa.string()),  # being, legend, flare
    ("event", pa.string()),  # drawn, played, discarded, returned, held, invoked; frozen, thawed, warped (expansions)
    ("opening", pa.bool_()),  # drawn into the opening hand
    ("square", pa.int16()),  # played: the summoning square, else -1
    ("enemy_common", pa.int8()),  # played (thawed, warped): enemy pieces destroyed by the summon and its effect
    ("enemy_heroic", pa.int8()),
    ("enemy_legendary", pa.int8()),
    ("own_destroyed", pa.int8()),
    ("upgrades", pa.int8()),
    ("downgrades", pa.int8()),
    ("placed", pa.int8()),
    ("converted", pa.int8()),
])

TASK_EVENTS = pa.schema([
    ("game_id", pa.int64()),
    ("turn", pa.int16()),
    ("seat", pa.int8()),  # the claimer; -1 for a reveal
    ("task_id", pa.string()),
    ("event", pa.string()),  # revealed, claimed
    ("points", pa.int8()),
])

FLARE_EVENTS = pa.schema([
    ("game_id", pa.int64()),
    ("turn", pa.int16()),
    ("seat", pa.int8()),
    ("flare_id", pa.string()),
    ("upper", pa.bool_()),
    ("lower", pa.bool_()),
    ("behind_by", pa.int16()),  # the invoker's score minus the opponent's, at invocation
    ("against", pa.int8()),  # melee: the opponent the flare was compared against; -1 in a duel
])

POINTS = pa.schema([
    ("game_id", pa.int64()),
    ("turn", pa.int16()),
    ("seat", pa.int8()),
    ("source", pa.string()),  # a task id, destruction, flare, legend-summon, (melee) leftover-commons
    ("points", pa.int16()),
    ("colour", pa.int8()),  # melee: the opponent colour the points count in; -1 in a duel
])

SEAT_RESULTS = pa.schema([  # one row per seat of every game, duels included
    ("game_id", pa.int64()),
    ("seat", pa.int8()),
    ("team", pa.int8()),  # a team game: seat % 2 (0: team A, seats 0 and 2); otherwise the seat itself
    ("deck", pa.string()),
    ("strategy", pa.string()),
    ("position", pa.int8()),  # place in turn order: 0 for the first player
    ("score", pa.int16()),  # the final score (in a melee the lowest colour score; in a team game the team's)
    ("place", pa.int8()),  # 1 for the winner (a team game: both seats of the winning team); tied seats share a place
    ("improvised", pa.int8()),  # melee: improvised summonings made (one per opponent colour at most)
])

COLOUR_POINTS = pa.schema([  # melee only: each seat's final points in each opponent's colour
    ("game_id", pa.int64()),
    ("seat", pa.int8()),
    ("colour", pa.int8()),
    ("points", pa.int16()),
    ("lowest", pa.bool_()),  # the seat's lowest colour (its score); every colour at that score is marked
])

DECK_ORDER = pa.schema([  # each seat's being deck as the setup shuffle left it (randomized by the seed alone)
    ("game_id", pa.int64()),
    ("seat", pa.int8()),
    ("card_id", pa.string()),
    ("position", pa.int8()),  # 0: the first card drawn; the opening hand is positions 0-2
])

# The columns the summed tables (seat_cards, deck_positions, seat_tasks) key their sums by first: the seat's kind of
# game (the games' columns the report selects games by) and its deck and player label (pipelines/summaries.py).
SEAT_KIND = [
    ("mode", pa.string()),  # games.mode, players, teams, variant
    ("players", pa.int8()),
    ("teams", pa.bool_()),
    ("variant", pa.string()),
    ("mirror", pa.bool_()),  # games.strategy_0 = games.strategy_1 (a strength level's games)
    ("deck", pa.string()),  # the seat's deck and player label (seat_results.deck, strategy)
    ("strategy", pa.string()),
]

DECK_POSITIONS = pa.schema([  # deck_order counted within a shard: seat-games per seat kind, card, position, result
    *SEAT_KIND,
    ("card_id", pa.string()),
    ("position", pa.int8()),
    ("won", pa.bool_()),  # the seat won: games.winner is its seat (a team game: its team, seat % 2)
    ("games", pa.int32()),
])

PASS_CONTROL = pa.schema([  # team games only: each time a player handed his turn to his teammate
    ("game_id", pa.int64()),
    ("turn", pa.int16()),
    ("seat", pa.int8()),  # the player whose turn it was (who passed)
    ("to_seat", pa.int8()),  # his teammate, who took control
    ("during", pa.string()),  # the card whose effect was being resolved; "" when passed before an action
])

SEAT_CARD_ROWS = pa.schema([  # per seat of a game and card, its card events summed (pipelines/summaries.py);
    # the seat_cards table of schema 6, and what seat_cards (schema 7) sums within a shard
    ("game_id", pa.int64()),
    ("seat", pa.int8()),
    ("card_id", pa.string()),
    ("drawn", pa.bool_()),  # drawn into the seat's hand at least once
    ("opening", pa.bool_()),  # drawn into the opening hand
    ("played", pa.bool_()),  # played (a flare: invoked) at least once
    ("plays", pa.int16()),  # the card's played events (summons)
    ("play_turns", pa.int32()),  # the sum of their turns
    ("first_play", pa.int16()),  # the turn of the first, -1 if none
    ("enemy_common", pa.int16()),  # the sums over the plays of card_events' outcome counters
    ("enemy_heroic", pa.int16()),
    ("enemy_legendary", pa.int16()),
    ("own_destroyed", pa.int16()),
    ("upgrades", pa.int16()),
    ("downgrades", pa.int16()),
    ("placed", pa.int16()),
    ("converted", pa.int16()),
    ("turn_points", pa.int32()),  # over the plays: the points the seat scored in the turn of the play
    ("frozen", pa.int16()),  # the card's frozen, thawed and warped events (expansions)
    ("thawed", pa.int16()),
    ("warped", pa.int16()),
])

SEAT_CARDS = pa.schema([  # SEAT_CARD_ROWS summed within a shard: one row per seat kind, card and result
    # (pipelines/summaries.py); no game_id
    *SEAT_KIND,
    ("card_id", pa.string()),
    ("won", pa.bool_()),  # the seat won: games.winner is its seat (a team game: its team, seat % 2)
    ("drawn", pa.int32()),  # the seat-games the card was drawn into the seat's hand in
    ("opening", pa.int32()),  # drawn into the opening hand
    ("played", pa.int32()),  # drawn and played (a flare: invoked)
    ("plays", pa.int32()),  # the sums of SEAT_CARD_ROWS' plays, play_turns
    ("play_turns", pa.int64()),
    ("first_plays", pa.int32()),  # the seat-games with a play, and the sum of their first play's turn
    ("first_play_turns", pa.int64()),
    ("enemy_common", pa.int32()),  # the sums of the outcome counters over the plays
    ("enemy_heroic", pa.int32()),
    ("enemy_legendary", pa.int32()),
    ("own_destroyed", pa.int32()),
    ("upgrades", pa.int32()),
    ("downgrades", pa.int32()),
    ("placed", pa.int32()),
    ("converted", pa.int32()),
    ("turn_points", pa.int64()),
    ("frozen", pa.int32()),
    ("thawed", pa.int32()),
    ("warped", pa.int32()),
    ("invocations", pa.int32()),  # a flare's: its invocations (flare_events rows)
    ("invoked", pa.int32()),  # the seat-games it was invoked in
    ("upper_only", pa.int32()),  # of those, the seat-games that used only its upper half, only its lower half, both
    ("lower_only", pa.int32()),
    ("both_halves", pa.int32()),
    ("behind", pa.int32()),  # the seat-games it was invoked in while behind on score (behind_by < 0)
    ("behind_gap", pa.int64()),  # the sum of behind_by over the invocations
])

SEAT_TASKS = pa.schema([  # per seat kind, task and result, summed within a shard: each game's tasks from each seat
    *SEAT_KIND,
    ("opp_strategy", pa.string()),  # a duel: the other seat's player label; otherwise ""
    ("first", pa.bool_()),  # the seat took the first turn
    ("task_id", pa.string()),
    ("won", pa.bool_()),
    ("dealt", pa.int32()),  # the seat-games in which the task was dealt at setup (revealed on turn 0)
    ("revealed", pa.int32()),  # the seat-games in which it was revealed (at setup or later)
    ("claims", pa.int32()),  # the seat's claims of it (a task is claimed at most once a game)
    ("points", pa.int32()),  # the points of those claims
    ("row_turns", pa.int64()),  # over the claims: the turns from the task's entering the row to the claim
])

TABLES: dict[str, pa.Schema] = {
    "games": GAMES,
    "card_events": CARD_EVENTS,
    "task_events": TASK_EVENTS,
    "flare_events": FLARE_EVENTS,
    "points": POINTS,
    "deck_order": DECK_ORDER,
    "seat_results": SEAT_RESULTS,
    "colour_points": COLOUR_POINTS,
    "pass_control": PASS_CONTROL,
    "seat_cards": SEAT_CARDS,
    "deck_positions": DECK_POSITIONS,
    "seat_tasks": SEAT_TASKS,
}
# The tables summed within a shard, with the columns their rows are keyed by (the first ones; every other column
# is a count or a sum, so the rows of several shards sum again by these keys).
_KIND = [name for name, _ in SEAT_KIND]
SUMMED: dict[str, list[str]] = {"seat_cards": [*_KIND, "card_id", "won"],
                                "deck_positions": [*_KIND, "card_id", "position", "won"],
                                "seat_tasks": [*_KIND, "opp_strategy", "first", "task_id", "won"]}


def file_metadata(dataset_id: str, shards: int | str) -> dict[bytes, bytes]:
    """The key-value metadata of a file of shard ``shards`` (a compacted file: "FIRST-LAST")."""
    return {META_DATASET: dataset_id.encode(), META_SHARD: str(shards).encode(),
            META_SCHEMA_VERSION: str(SCHEMA_VERSION).encode()}


@functools.cache
def write_options(table: str, block: bool = False) -> dict[str, Any]:
    """How a table's files are encoded: a shard's with LZ4, a compacted block's (pipelines/compact.py) with zstd
    (LZ4's cost per column chunk is a third of zstd's, which was most of a shard's encoding time; zstd's files are
    smaller: 0.6 of LZ4's for card_events); page checksums (a resume and a report verify them); dictionary encoding
    for the string columns only (the others gain nothing from it, and building their dictionaries was about a
    third of the encoding time); statistics for game_id only (nothing reads the others' min and max, and writing
    them was a fifth of the encoding time of card_events); no Arrow schema in the footer (the core hands string
    columns over as dictionaries, which the files store as plain strings: read back, every column has the type
    of pipelines.schema; the file's own metadata is added apart: ``add_key_value_metadata``). docs/core.md,
    "Shards as Arrow", has the figures."""
    schema = TABLES[table]
    return {"compression": "zstd" if block else "lz4", "write_page_checksum": True,
            "use_dictionary": [f.name for f in schema if f.type == pa.string()],
            "write_statistics": ["game_id"] if "game_id" in schema.names else False, "store_schema": False}
