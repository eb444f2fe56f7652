"""The benchmark's study: random players, both forms, every pairing of the base decks, at least the games asked
for, half of each cell from each seat; in the layout `tashkalar run` writes (its default shard size)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.study import load_study
from reports.bench import study_toml


@pytest.mark.parametrize("games", [1, 100_000, 1_000_000])
def test_the_bench_study_plays_at_least_the_games_asked_for(tmp_path: Path, games: int) -> None:
    path = tmp_path / "bench.toml"
    path.write_text(study_toml(games))
    study = load_study(path)
    assert games <= study.total_games < games + 24
    assert {c.name.split("|")[2] for c in study.cells} == {"random-random"}
    assert len(study.cells) == 12 and study.shard_size == 200
