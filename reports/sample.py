"""Small real runs without the Ray runner: play games in-process and write them in the dataset layout.

The layout is the one ``tashkalar run`` writes: ``RUN/<table>/*.parquet`` (one file per shard) plus
``RUN/manifest.json``. Used by the report tests and by the benchmark, which replicates such a run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.schema import SCHEMA_VERSION, TABLES
from pipelines.shard import play_recording_order
from pipelines.tables import TableBuilder
from sim.cards import BASE_DECKS, load_card_set
from sim.game import Game
from sim.state import MODES


def pairings() -> list[tuple[str, str, str]]:
    """Every form with every ordered deck pairing: (mode, deck_0, deck_1)."""
    return [(mode, a, b) for mode in MODES for a in BASE_DECKS for b in BASE_DECKS]


def play_tables(games: int, seed: int = 0, shards: int = 1,
                strategies: tuple[str, str] = ("random", "random")) -> list[dict[str, pa.Table]]:
    """Play ``games`` games round-robin over every form and deck pairing; one dict of tables per shard."""
    from strategies import make_strategy

    card_set = load_card_set()
    fingerprint = card_set.fingerprint()
    plan = pairings()
    per_shard = -(-games // shards)
    out = []
    for start in range(0, games, per_shard):
        builder = TableBuilder()
        for game_id in range(start, min(start + per_shard, games)):
            mode, a, b = plan[game_id % len(plan)]
            game_seed = seed + game_id
            players = [make_strategy(name, seat, game_seed) for seat, name in enumerate(strategies)]
            record, order = play_recording_order(Game(card_set, mode, (a, b), players, game_seed))
            builder.add(game_id, f"{mode}|{a}-{b}|{strategies[0]}-{strategies[1]}", record, fingerprint,
                        deck_order=order)
        out.append(builder.tables())
    return out


def write_run(path: Path, shards: list[dict[str, pa.Table]], manifest: dict | None = None) -> Path:
    """Write shard tables as ``path/<table>/part-NNNNN.parquet`` and a manifest."""
    for name in TABLES:
        (path / name).mkdir(parents=True, exist_ok=True)
    for i, tables in enumerate(shards):
        for name, table in tables.items():
            pq.write_table(table, path / name / f"part-{i:05d}.parquet")
    games = sum(t["games"].num_rows for t in shards)
    info = {"schema_version": SCHEMA_VERSION, "games": games, "shards": len(shards)} | (manifest or {})
    (path / "manifest.json").write_text(json.dumps(info, indent=1))
    return path


def build_run(path: Path, games: int, seed: int = 0, shards: int = 1) -> Path:
    """Play and write a small run; returns its directory."""
    return write_run(path, play_tables(games, seed, shards), {"name": path.name, "source": "reports.sample"})
