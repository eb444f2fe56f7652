"""Hand-made run directories for regression tests: Parquet tables of the real schema, written directly."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.schema import TABLES

CONFIG = {"name": "hand", "forms": ["deathmatch"], "deck_pairings": [["imperial", "highland"]],
          "strategy_pairings": [["a", "a"]], "players": {"a": {"strategy": "random", "params": {}}},
          "games_per_cell": 0, "base_seed": 1, "shard_size": 100, "seat_balance": True, "card_set": "builtin"}


def write_run(path: Path, games: list[tuple[str, str, str, int]], *, base_seed: int = 1,
              opening: list[tuple[int, int, str]] = (), cards: dict[str, str] | None = None) -> Path:
    """A run of ``games`` (mode, deck of seat 0, deck of seat 1, winner), ids in order; ``opening`` lists
    (game id, seat, card id) dealt in opening hands; ``cards`` the per-card fingerprints of its manifest."""
    rows = {table: {f.name: [] for f in schema} for table, schema in TABLES.items()}
    for game_id, (mode, deck_0, deck_1, winner) in enumerate(games):
        game = {"game_id": game_id, "cell": f"{mode}|x", "seed": game_id, "mode": mode, "deck_0": deck_0,
                "deck_1": deck_1, "strategy_0": "a", "strategy_1": "a", "first_player": 0, "winner": winner,
                "score_0": 0, "score_1": 0, "turns": 10, "end_reason": "deck", "tiebreak": "",
                "card_set": "x", "schema_version": 1}
        for name, value in game.items():
            rows["games"][name].append(value)
    for game_id, seat, card in opening:
        event = {"game_id": game_id, "turn": 0, "seat": seat, "card_id": card, "card_type": "being",
                 "event": "drawn", "opening": True, "square": -1}
        for f in TABLES["card_events"]:
            rows["card_events"][f.name].append(event.get(f.name, 0))
    for table, schema in TABLES.items():
        (path / table).mkdir(parents=True)
        pq.write_table(pa.table(rows[table], schema=schema), path / table / "shard-00000.parquet")
    config = CONFIG | {"base_seed": base_seed, "games_per_cell": len(games)}
    manifest = {"name": "hand", "config": config, "code_version": {"package": "test"},
                "card_set": {"fingerprint": "f", "cards": cards or {"imperial/knight": "k1"}}}
    (path / "manifest.json").write_text(json.dumps(manifest))
    return path
