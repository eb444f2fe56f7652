"""Benchmark: the full report over a million games.

``python -m reports.bench [--games 1000000] [--base 2000] [--dir runs/bench-1m]`` plays a small real run,
replicates it under fresh game ids until it holds ``--games`` games (so that building it takes a minute,
not hours), then times ``tashkalar report`` over it, HTML, Markdown and CSV included.
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from pipelines.schema import TABLES
from reports.sample import build_run


def replicate(base: Path, out: Path, games: int, copies_per_shard: int = 10) -> Path:
    """Write ``out`` with ``games`` games: copies of ``base`` whose game ids are shifted past each other."""
    tables = {name: pq.read_table(base / name) for name in TABLES}
    base_games = tables["games"].num_rows
    span = int(pc.max(tables["games"]["game_id"]).as_py()) + 1
    copies = -(-games // base_games)
    if out.exists():
        shutil.rmtree(out)
    for name in TABLES:
        (out / name).mkdir(parents=True)
    for shard, first in enumerate(range(0, copies, copies_per_shard)):
        last = min(first + copies_per_shard, copies)
        for name, table in tables.items():
            parts = []
            for copy in range(first, last):
                part = table
                if copy == copies - 1:  # the last copy may be partial: keep its first games only
                    kept = tables["games"]["game_id"][: games - copy * base_games]
                    part = part.filter(pc.is_in(part["game_id"], value_set=kept))
                ids = pc.add(part["game_id"], pa.scalar(copy * span, pa.int64()))
                parts.append(part.set_column(0, "game_id", ids))
            pq.write_table(pa.concat_tables(parts), out / name / f"part-{shard:05d}.parquet")
    manifest = json.loads((base / "manifest.json").read_text())
    manifest |= {"games": games, "replicated_from": {"games": base_games, "copies": copies}}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return out


def main(argv: list[str] | None = None) -> None:
    from reports.build import write_report
    from sim.bench import machine

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--base", type=int, default=2000, help="games in the real run that is replicated")
    parser.add_argument("--dir", type=Path, default=Path("runs/bench-1m"))
    parser.add_argument("--keep", action="store_true", help="reuse the dataset in --dir if it is there")
    args = parser.parse_args(argv)
    run = args.dir
    if not (args.keep and (run / "manifest.json").exists()):
        base = run.with_name(run.name + "-base")
        if base.exists():
            shutil.rmtree(base)
        start = time.perf_counter()
        build_run(base, args.base, seed=1, shards=1)
        replicate(base, run, args.games)
        shutil.rmtree(base)
        print(f"built {args.games} games in {time.perf_counter() - start:.1f} s: {run}")
    start, start_cpu = time.perf_counter(), time.process_time()
    write_report([run], html=run / "report.html", md=run / "report.md", csv_dir=run / "report-csv")
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    # CPU time: this process's user and system time, DuckDB's threads included; steady on a shared machine
    print(f"report over {args.games} games: {elapsed:.1f} s wall, {cpu:.1f} s CPU on {machine()}")


if __name__ == "__main__":
    main()
