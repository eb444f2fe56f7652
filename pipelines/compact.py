"""Compaction: a finished run's shard files merged into a few large files, one per table and block of shards.

A shard stays the unit of work, retry and resume while the run goes; once every shard is done, each full block of
consecutive shards (``BLOCK_GAMES`` games: the study's shards are cut into blocks from the first, and a last block
with fewer games is left as its shards) becomes ``<table>/shards-FIRST-LAST.parquet``, its shards' rows in shard
order (so still sorted by game id; the summed tables, sums without a game id, summed again over the block), encoded
as a shard's files are, with ``FIRST-LAST`` as the file's shard metadata. A report then opens a few files per
table instead of one per shard (docs/performance.md). A run of fewer than ``BLOCK_GAMES`` games keeps its shard
files. A block found damaged on resume is deleted and its shards played again.

Order, so that a reader and a resume always see each game once, with its events: a block's files are written
(``*.tmp``, renamed) with ``games`` last; the manifest then records the block (rows and sha256 per table) in
place of its shards' files; only then are the shard files deleted. A reader counts a block only once its
``games`` file is there and then skips the shard files it covers (``dataset_files``); a resume keeps a block
whose files match the manifest (or, with ``--repair``, decode and hold the block's games) and deletes the
shard files it covers, else deletes the block and keeps its shards' own files if they are sound.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.schema import SUMMED, TABLES, file_metadata, write_options
from pipelines.store import WRITE_ORDER, RunDir, sha256

BLOCK_GAMES = 100_000  # games per compacted file: 10 files per table for a million games
ROW_GROUP_ROWS = 1 << 17  # shards' rows gathered into row groups of about this many rows
_SHARD = re.compile(r"^shard-(\d+)\.parquet$")
_BLOCK = re.compile(r"^shards-(\d+)-(\d+)\.parquet$")


def block_ranges(games: int, shard_size: int) -> list[tuple[int, int]]:
    """The full blocks of a study of ``games`` games: (first, last) shards, ``BLOCK_GAMES`` games each (a block of
    shards of ``shard_size`` games; at least two shards)."""
    per = max(2, BLOCK_GAMES // max(1, shard_size))
    return [(a, a + per - 1) for a in range(0, games // shard_size - per + 1, per)]


def _merge(name: str, sources: list[Path], target: Path, metadata: dict[bytes, bytes],
           combine: Callable[[list[pa.Table]], pa.Table] | None = None) -> str:
    """Write the rows of table ``name``'s files ``sources`` in order to ``target`` (via ``*.tmp``), or with
    ``combine`` the table it makes of them; returns the file's sha256."""
    schema = TABLES[name]
    tmp = target.with_name(target.name + ".tmp")
    with pq.ParquetWriter(tmp, schema, **write_options(name, block=True)) as writer:
        if combine is not None:
            writer.write_table(combine([pq.read_table(f) for f in sources]))
        else:
            pending: list[pa.Table] = []
            rows = 0
            for source in sources:
                table = pq.read_table(source)
                pending.append(table)
                rows += table.num_rows
                if rows >= ROW_GROUP_ROWS:
                    writer.write_table(pa.concat_tables(pending), row_group_size=rows)
                    pending, rows = [], 0
            if pending or not sources:
                writer.write_table(pa.concat_tables(pending) if pending else schema.empty_table(),
                                   row_group_size=max(rows, 1))
        writer.add_key_value_metadata(metadata)
    digest = sha256(tmp)
    os.replace(tmp, target)
    return digest


def compact(run: RunDir, manifest: dict[str, Any], done: dict[int, dict[str, Any]], dataset_id: str,
            shard_size: int, save: Callable[[], None], sync: Callable[[list[Path]], None],
            threads: int = 1) -> int:
    """Compact every block whose shards are all done and not yet compacted (``manifest["compacted"]`` lists
    those that are); ``save`` writes the manifest, ``sync`` uploads files just written. Returns the number of
    blocks compacted."""
    from pipelines.summaries import resum  # Polars: imported by a run that compacts, not by every reader

    blocks = manifest.setdefault("compacted", [])
    have = {(b["first"], b["last"]) for b in blocks}
    made = 0
    with ThreadPoolExecutor(max(1, threads)) as pool:
        for first, last in block_ranges(int(manifest["games"]), shard_size):
            shards = range(first, last + 1)
            if (first, last) in have or not all(i in done for i in shards):
                continue
            if any("block" in done[i] for i in shards):  # compacted into another block (another block size)
                continue
            metadata = file_metadata(dataset_id, f"{first}-{last}")
            sums: dict[str, str] = {}
            non_games = [n for n in WRITE_ORDER if n != "games"]

            def merge(name: str, first: int = first, last: int = last, shards: range = shards,
                      metadata: dict[bytes, bytes] = metadata) -> str:
                combine = partial(resum, name) if name in SUMMED else None
                return _merge(name, [run.shard_path(name, i) for i in shards], run.block_path(name, first, last),
                              metadata, combine)

            sums |= dict(zip(non_games, pool.map(merge, non_games), strict=True))
            sums["games"] = merge("games")  # last: the block counts once its games are there
            paths = [run.block_path(name, first, last) for name in WRITE_ORDER]
            sync(paths)
            rows = {name: pq.read_metadata(run.block_path(name, first, last)).num_rows for name in TABLES}
            entry = {"first": first, "last": last, "games": sum(done[i]["games"] for i in shards),
                     "rows": rows, "sha256": {name: sums[name] for name in TABLES}}
            blocks.append(entry)
            blocks.sort(key=lambda b: b["first"])
            name = run.block_name(first, last)
            for i in shards:
                done[i] = {k: v for k, v in done[i].items() if k not in ("rows", "sha256")} | {"block": name}
            save()
            for i in shards:
                run.remove_shard(i)
            made += 1
    return made


def dataset_files(folder: Path, blocks: set[tuple[int, int]]) -> list[Path]:
    """A table's Parquet files as a reader should take them: the compacted files of the ``blocks`` that count
    (their games file is there), and every other file but the shard files those blocks cover; sorted."""
    covered = [range(a, b + 1) for a, b in blocks]
    out = []
    for path in sorted(folder.glob("*.parquet")):
        if (m := _BLOCK.match(path.name)) is not None:
            if (int(m.group(1)), int(m.group(2))) in blocks:
                out.append(path)
        elif (m := _SHARD.match(path.name)) is None or not any(int(m.group(1)) in r for r in covered):
            out.append(path)
    return out


def counted_blocks(root: Path) -> set[tuple[int, int]]:
    """The blocks of the run at ``root`` whose games file is there."""
    games = root / "games"
    if not games.is_dir():
        return set()
    return {(int(m.group(1)), int(m.group(2))) for p in games.iterdir() if (m := _BLOCK.match(p.name))}
