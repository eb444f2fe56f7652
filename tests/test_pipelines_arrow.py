"""A shard played in the core (its tables built there and handed over as Arrow) against the same shard played
through the Python API with its tables built by ``pipelines.tables`` from the records and summed by
``pipelines.summaries``: pinned small studies of every kind of game give equal tables, row for row, column for
column, types included (the summed tables too: the core's sums against the one declaration's)."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines import shard
from pipelines.cardfiles import pack
from pipelines.schema import SUMMED, TABLES
from pipelines.study import parse_study
from sim import _core
from strategies.registry import STRATEGIES

DUEL = {"forms": ["high-form", "deathmatch"], "deck_pairings": [["imperial", "sylvan"], ["highland", "highland"]],
        "strategy_pairings": [["random", "builder"], ["random", "random"]], "games_per_cell": 2}
STUDIES: dict[str, dict[str, Any]] = {
    "duel": DUEL,
    "ablation": DUEL | {"strategy_pairings": [["random", "builder"]],
                        "ablation": {"cards": ["sylvan/charging-buck", "flare/01", "legend/fire-dragon"],
                                     "mode": "vanilla"}},
    "copy": DUEL | {"strategy_pairings": [["random", "random"]], "ablation": {"cards": ["imperial/*"], "mode": "copy"}},
    "melee": {"forms": ["melee-3", "melee-4"],
              "deck_tables": [["imperial", "sylvan", "highland"], ["imperial", "sylvan", "highland", "imperial"]],
              "strategy_tables": [["random", "random", "random"], ["random", "builder", "random", "random"]],
              "games_per_cell": 12},
    "teams": {"forms": ["team-high-form", "team-deathmatch"],
              "team_deck_tables": [[["imperial", "sylvan"], ["highland", "imperial"]]],
              "team_strategy_tables": [[["random", "builder"], ["builder.solo", "random"]]], "games_per_cell": 4,
              "players": {"builder.solo": {"strategy": "builder", "params": {"pass_control": False}}}},
    "expansions": DUEL | {"deck_pairings": [["everfrost", "etherweave"], ["nethervoid", "imperial"]],
                          "strategy_pairings": [["random", "builder"]]},
}


def _job(name: str, config: dict[str, Any]) -> tuple[shard.ShardJob, int]:
    study = parse_study({"name": name, "base_seed": 11, "shard_size": 1000} | config, Path(f"{name}.toml"))
    return shard.ShardJob(study.to_config(), pack(study.card_set), f"arrow-{name}"), study.total_games


def _tables(out: shard.ShardOutput) -> dict[str, pa.Table]:
    return {name: pq.read_table(io.BytesIO(data)) for name, data in out.files.items()}


def test_the_core_declares_the_columns_of_the_python_schemas():
    core = {name: [(c, t) for c, t in columns] for name, columns in _core.table_columns()}
    assert core == {name: [(f.name, str(f.type)) for f in schema] for name, schema in TABLES.items()}


@pytest.mark.parametrize("name", list(STUDIES))
def test_a_shard_of_core_players_gives_the_tables_of_the_python_path(name):
    job, games = _job(name, STUDIES[name])
    in_core, in_python = shard.play_shard(job, 0), shard.play_shard(job, 0, python=True)
    core, python = _tables(in_core), _tables(in_python)
    assert core["games"].num_rows == games
    assert set(core) == set(python) == set(TABLES)
    for table in TABLES:
        assert core[table].schema == python[table].schema == TABLES[table].with_metadata(core[table].schema.metadata)
        assert core[table].equals(python[table]), table
    assert in_core.rows == in_python.rows
    assert all(core[table].num_rows > 0 for table in SUMMED if table != "seat_tasks" or name != "melee")


class _PythonRandom:
    """A Python strategy (no ``native`` flag): the core asks it through Python."""

    name = "pyrandom"

    def __init__(self, seed: int):
        self._rng = random.Random(seed)

    def choose(self, view: Any, decision: Any) -> int:
        return self._rng.randrange(len(decision.options))


def test_a_shard_with_a_python_strategy_is_played_through_the_python_api(monkeypatch):
    monkeypatch.setitem(STRATEGIES, "pyrandom", lambda seat, seed, params: _PythonRandom(seed))
    job, games = _job("python", DUEL | {"strategy_pairings": [["pyrandom", "random"]]})
    study, _ = shard._prepare(job)
    assert shard.core_players(study) is None
    out = _tables(shard.play_shard(job, 0))
    assert out["games"].num_rows == games
    assert set(out["seat_results"]["strategy"].to_pylist()) == {"pyrandom", "random"}
