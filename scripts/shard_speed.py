"""A study's shards on one worker against the engine, in CPU time (user+sys) of one process, side by side:
``python scripts/shard_speed.py --strategy random --games 2000 --shard-size 250``.

Plays the shards of ``pipelines.bench``'s study (Imperial mirror, both forms, no Ray) in the core
(``pipelines.shard.play_shard``) and through the Python API (``python=True``), Parquet encoding included,
and the same games with ``sim._core.play_many`` (the engine alone, no records, one call a game). Each rate is the
best of ``--repeats``; each repeat plays the core path and the engine back to back, and the median of their
ratios is printed too (steadier on a shared machine). See docs/core.md, "Shards as Arrow".
"""

from __future__ import annotations

import argparse
import resource
import statistics

from pipelines.bench import bench_study
from pipelines.cardfiles import pack
from pipelines.shard import ShardJob, play_shard
from pipelines.study import form_mode
from sim import _core
from sim.cards import load_card_set
from sim.core import core_cards


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strategy", default="random")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--shard-size", type=int, default=250)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--python", action="store_true", help="also the Python path")
    args = parser.parse_args()
    study = bench_study(args.games, args.shard_size, args.strategy)
    job = ShardJob(study.to_config(), pack(study.card_set), "shard-speed")
    cards = core_cards(load_card_set())

    def shards(python: bool) -> float:
        start = cpu()
        for shard in range(study.shard_count):
            play_shard(job, shard, python=python)
        return cpu() - start

    games = [(form_mode(spec.cell.form), spec.seed) for spec in map(study.game, range(study.total_games))]

    def engine() -> float:
        start = cpu()
        for mode, seed in games:  # the study's games: same decks, players and seeds
            _core.play_many(cards, mode, ["imperial"] * 2, [args.strategy] * 2, (seed, seed + 1))
        return cpu() - start

    play_shard(job, 0)  # card sets loaded, caches warm
    runs = {"core": [], "engine": [], "python": []}
    for _ in range(args.repeats):
        runs["core"].append(shards(False))
        runs["engine"].append(engine())
        if args.python:
            runs["python"].append(shards(True))
    n = study.total_games
    rate = {k: n / min(v) for k, v in runs.items() if v}
    paired = statistics.median(e / c for e, c in zip(runs["engine"], runs["core"], strict=True))
    print(f"{args.strategy}, {n} games in shards of {args.shard_size}: engine {rate['engine']:,.0f} games/s CPU; "
          + "; ".join(f"{k} path {rate[k]:,.0f} games/s ({rate[k] / rate['engine']:.3f} of the engine)"
                      for k in ("core", "python") if k in rate)
          + f"; core path, median of paired repeats: {paired:.3f} of the engine")


if __name__ == "__main__":
    main()
