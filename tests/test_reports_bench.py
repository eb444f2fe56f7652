"""The benchmark's dataset: a real run replicated under fresh game ids, every event kept with its game."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

from pipelines.schema import TABLES
from reports.bench import replicate
from reports.sample import build_run


def test_replicate_makes_distinct_games_with_their_events(tmp_path: Path) -> None:
    base = build_run(tmp_path / "base", games=20, seed=4, shards=2)
    out = replicate(base, tmp_path / "big", games=50, copies_per_shard=2)  # 2 whole copies and a half
    games = pq.read_table(out / "games").to_pylist()
    ids = [g["game_id"] for g in games]
    assert len(ids) == len(set(ids)) == 50
    base_events = Counter(e["game_id"] for e in pq.read_table(base / "card_events").to_pylist())
    events = Counter(e["game_id"] for e in pq.read_table(out / "card_events").to_pylist())
    assert set(events) == set(ids)
    assert all(events[i] == base_events[i % 20] for i in ids)  # the copy of game i keeps all its events
    assert len(list((out / "games").glob("*.parquet"))) == 2
    for name in TABLES:
        assert pq.read_schema(next((out / name).glob("*.parquet"))).names == TABLES[name].names
