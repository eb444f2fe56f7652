"""One shard of a study: play its games and encode its tables as Parquet files. No Ray here.

The output is a pure function of (study config, card set, shard index): games are played in id order
with seeds from the study, so rows come out sorted by game id, each game's events in the order they
happened, whatever worker runs the shard and whenever.

When every player of the study is one the core plays itself, the core plays the whole shard and builds
its tables as it goes, handing them over as Arrow (``sim._core.play_shard``, docs/core.md "Shards as
Arrow"); otherwise each game is played through the Python API and its record made into rows by
``pipelines.tables``, the summed tables by ``pipelines.summaries`` (the core sums them as it builds each game's
rows). Both give the same tables (tests/test_pipelines_arrow.py).
"""

from __future__ import annotations

import os
import resource
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.cardfiles import CardSetPayload, unpack
from pipelines.schema import SCHEMA_VERSION, file_metadata, write_options
from pipelines.study import Study, form_mode
from pipelines.tables import TableBuilder, setup_order
from pipelines.variants import player_seed, seat_decks, variant_cards, variant_seat
from sim import _core
from sim.core import core_cards, plays_natively
from sim.game import Game
from sim.record import GameRecord

CRASH_ENV = "TASHKALAR_TEST_CRASH"  # "SHARD:MARKER": the worker dies halfway through SHARD once (tests)


@dataclass(frozen=True)
class ShardJob:
    """What every shard of one run shares; sent to the cluster once."""

    config: dict[str, Any]  # Study.to_config()
    cards: CardSetPayload
    dataset_id: str  # stamped into every file, so a resume can tell this run's files from others


@dataclass
class ShardOutput:
    shard: int
    files: dict[str, bytes]  # table name -> Parquet file contents
    rows: dict[str, int]
    play_seconds: float  # setting up and playing the games
    convert_seconds: float  # game records to table rows (a shard played in the core: into Arrow tables)
    encode_seconds: float  # rows to Parquet
    peak_rss_bytes: int  # the worker process's peak resident memory so far
    worker: str = ""  # host:pid
    node: str = ""  # the Ray node id, when run on Ray


_LOADED: dict[str, tuple[Study, Any]] = {}  # dataset id -> (study, card set), per worker process
_VARIANTS: dict[tuple[str, str], tuple[Any, str]] = {}  # (dataset id, variant) -> (card set, fingerprint)


def _prepare(job: ShardJob) -> tuple[Study, Any]:
    if job.dataset_id not in _LOADED:
        _LOADED[job.dataset_id] = (Study.from_config(job.config), unpack(job.cards))
    return _LOADED[job.dataset_id]


def _maybe_crash(shard: int) -> None:
    """Test hook: kill this worker process mid-shard, once per marker file."""
    spec = os.environ.get(CRASH_ENV)
    if not spec:
        return
    target, _, marker = spec.partition(":")
    if int(target) == shard and not Path(marker).exists():
        Path(marker).write_text(f"{socket.gethostname()}:{os.getpid()}\n")
        os._exit(17)


def peak_rss() -> int:
    """This process's peak resident memory, in bytes."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def encode(name: str, table: pa.Table | pa.RecordBatch, dataset_id: str, shard: int) -> bytes:
    sink = pa.BufferOutputStream()
    with pq.ParquetWriter(sink, table.schema, **write_options(name)) as writer:
        writer.write(table)
        writer.add_key_value_metadata(file_metadata(dataset_id, shard))
    return sink.getvalue().to_pybytes()


def play_recording_order(game: Game) -> tuple[GameRecord, tuple[list[str], ...]]:
    """Play ``game`` (as ``Game.play``) and return its record with each seat's deck order after setup."""
    game.setup()
    order = setup_order(game.state)
    game.play_turns()
    return game.state.record, order


def _cards(job: ShardJob, base: tuple[Any, str], spec: Any) -> tuple[Any, str]:
    """The card set of ``spec``'s game and its fingerprint: the study's (``base``), or its variant's (made
    once)."""
    if spec.variant is None:
        return base
    base_cards = base[0]
    key = (job.dataset_id, spec.variant.name)
    if key not in _VARIANTS:
        changed = variant_cards(base_cards, spec.variant)
        _VARIANTS[key] = (changed, changed.fingerprint())
    return _VARIANTS[key]


def core_players(study: Study) -> list[tuple[str, str, dict[str, Any]]] | None:
    """The study's players as the core plays them: (label, strategy name, parameters as checked), or None
    when one of them is a Python strategy."""
    from strategies import make_strategy

    out = []
    for label, player in study.players.items():
        strategy = make_strategy(player.strategy, 0, 0, player.params)
        if not plays_natively(strategy):
            return None
        out.append((label, strategy.name, dict(getattr(strategy, "params", {}))))
    return out


def play_shard(job: ShardJob, shard: int, *, python: bool = False) -> ShardOutput:
    """Play shard ``shard`` of the job's study; in the core when every player is a core player, unless
    ``python`` (the Python API and ``pipelines.tables``: tests compare the two)."""
    study, base_cards = _prepare(job)
    players = None if python else core_players(study)
    base = (base_cards, base_cards.fingerprint())
    t0 = time.perf_counter()
    tables: dict[str, pa.Table] | dict[str, pa.RecordBatch]
    if players is None:
        tables, play = _python_tables(job, study, base, shard)
    else:
        tables, play = _core_tables(job, study, base, shard, players)
    t1 = time.perf_counter()
    files = {name: encode(name, table, job.dataset_id, shard) for name, table in tables.items()}
    encoded = time.perf_counter() - t1
    return ShardOutput(shard, files, {name: t.num_rows for name, t in tables.items()}, play,
                       t1 - t0 - play, encoded, peak_rss(), f"{socket.gethostname()}:{os.getpid()}")


def _core_tables(job: ShardJob, study: Study, base: tuple[Any, str], shard: int,
                 players: list[tuple[str, str, dict[str, Any]]]) -> tuple[dict[str, pa.RecordBatch], float]:
    """The shard played in the core, which builds the tables while playing (so play time includes them)."""
    seat_player = {label: i for i, (label, _, _) in enumerate(players)}
    sets: list[tuple[Any, str]] = []
    set_index: dict[str, int] = {}
    games = []
    t0 = time.perf_counter()
    ids = study.shard_games(shard)
    for game_id in ids:
        if game_id == ids.start + len(ids) // 2:
            _maybe_crash(shard)
        spec = study.game(game_id)
        cards, fingerprint = _cards(job, base, spec)
        if fingerprint not in set_index:
            set_index[fingerprint] = len(sets)
            sets.append((core_cards(cards), fingerprint))
        games.append((game_id, spec.cell.name, set_index[fingerprint], form_mode(spec.cell.form),
                      seat_decks(spec, cards), spec.decks, tuple(map(seat_player.__getitem__, spec.players)),
                      spec.seed, player_seed(spec), spec.cell.teams, spec.variant.name if spec.variant else "",
                      variant_seat(spec, cards)))
    batches = _core.play_shard(sets, players, games, SCHEMA_VERSION)
    t1 = time.perf_counter()
    return {name: pa.record_batch(batch) for name, batch in batches}, t1 - t0


def _python_tables(job: ShardJob, study: Study, base: tuple[Any, str],
                   shard: int) -> tuple[dict[str, pa.Table], float]:
    """The shard played through the Python API, its records made into rows by ``pipelines.tables``."""
    from strategies import make_strategy

    builder = TableBuilder()
    play = 0.0
    ids = study.shard_games(shard)
    for game_id in ids:
        if game_id == ids.start + len(ids) // 2:
            _maybe_crash(shard)
        spec = study.game(game_id)
        t0 = time.perf_counter()
        cards, fingerprint = _cards(job, base, spec)
        players = [make_strategy(study.players[label].strategy, seat, player_seed(spec),
                                 study.players[label].params) for seat, label in enumerate(spec.players)]
        teams = {"teams": True} if spec.cell.teams else {}  # 2 against 2: decks and players by seat
        record, order = play_recording_order(Game(cards, form_mode(spec.cell.form), seat_decks(spec, cards),
                                                  players, spec.seed, **teams))
        record.config["decks"] = list(spec.decks)
        play += time.perf_counter() - t0
        builder.add(game_id, spec.cell.name, record, fingerprint, spec.players,
                    spec.variant.name if spec.variant else "", variant_seat(spec, cards), order)
    return builder.tables(), play
