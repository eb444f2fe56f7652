"""Versioned schemas of the study dataset's Parquet tables. See docs/dataset.md.

Every table has ``game_id``, which is unique within a run and equal to the game's index in the study.
"""

from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = 2  # 2: games.variant and variant_seat, the deck_order table

GAMES = pa.schema([
    ("game_id", pa.int64()),
    ("cell", pa.string()),  # the study cell: "mode|deck_a-deck_b|strategy_a-strategy_b" before seat swap
    ("seed", pa.int64()),
    ("mode", pa.string()),
    ("deck_0", pa.string()),
    ("deck_1", pa.string()),
    ("strategy_0", pa.string()),
    ("strategy_1", pa.string()),
    ("first_player", pa.int8()),
    ("winner", pa.int8()),  # seat 0 or 1, -1 for a tie
    ("score_0", pa.int16()),
    ("score_1", pa.int16()),
    ("turns", pa.int16()),
    ("end_reason", pa.string()),  # deck, score, turn-limit
    ("tiebreak", pa.string()),  # "", upgraded, pieces, tie
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
    ("event", pa.string()),  # drawn, played, discarded, returned, held, invoked
    ("opening", pa.bool_()),  # drawn into the opening hand
    ("square", pa.int16()),  # played: the summoning square, else -1
    ("enemy_common", pa.int8()),  # played: enemy pieces destroyed by the summon and its effect, by rank
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
])

POINTS = pa.schema([
    ("game_id", pa.int64()),
    ("turn", pa.int16()),
    ("seat", pa.int8()),
    ("source", pa.string()),  # a task id, destruction, flare, legend-summon
    ("points", pa.int16()),
])

DECK_ORDER = pa.schema([  # each seat's being deck as the setup shuffle left it (randomized by the seed alone)
    ("game_id", pa.int64()),
    ("seat", pa.int8()),
    ("card_id", pa.string()),
    ("position", pa.int8()),  # 0: the first card drawn; the opening hand is positions 0-2
])

TABLES: dict[str, pa.Schema] = {
    "games": GAMES,
    "card_events": CARD_EVENTS,
    "task_events": TASK_EVENTS,
    "flare_events": FLARE_EVENTS,
    "points": POINTS,
    "deck_order": DECK_ORDER,
}
