"""Benchmark of the study pipeline: ``python -m pipelines.bench --games 20000 --workers 1,2``.

Runs one study (both forms, Imperial mirror, random players by default) on local Ray once per worker count and
reports throughput, parallel efficiency against the first count, where worker time goes, and peak
memory per worker and of the driver. The pipeline figures in docs/performance.md come from it.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer

from pipelines.progress import RunReport
from pipelines.runner import run_study
from pipelines.study import Study, parse_study
from sim.bench import machine


def bench_study(games: int, shard_size: int, strategy: str = "random") -> Study:
    return parse_study({
        "name": "bench", "forms": ["high-form", "deathmatch"], "deck_pairings": [["imperial", "imperial"]],
        "strategy_pairings": [[strategy, strategy]], "games_per_cell": games // 2, "base_seed": 1,
        "shard_size": shard_size,
    }, Path("bench.toml"))


def figures(report: RunReport) -> dict[str, Any]:
    return {
        "workers": report.workers,
        "games": report.games_run,
        "seconds": round(report.wall_seconds, 2),
        "games_per_second": round(report.games_per_second, 1),
        "share_playing": round(report.share(report.play_seconds), 4),
        "share_building_rows": round(report.share(report.convert_seconds), 4),
        "share_encoding": round(report.share(report.encode_seconds), 4),
        "share_other": round(1 - report.share(report.play_seconds + report.convert_seconds
                                              + report.encode_seconds), 4),
        "driver_write_seconds": round(report.write_seconds, 2),
        "peak_worker_mb": round(report.peak_worker_rss / 2**20),
        "driver_peak_mb": round(report.driver_peak_rss / 2**20),
        "ray_startup_seconds": round(report.startup_seconds, 1),
    }


def run_bench(games: int, worker_counts: list[int], shard_size: int, out: Path,
              strategy: str = "random") -> dict[str, Any]:
    study = bench_study(games, shard_size, strategy)
    runs = [figures(run_study(study, out / f"workers-{n}", workers=n, show_progress=False))
            for n in worker_counts]
    base = runs[0]
    for r in runs:
        r["parallel_efficiency"] = round(r["games_per_second"] * base["workers"]
                                         / (base["games_per_second"] * r["workers"]), 3)
    return {"machine": machine(), "study": study.to_config(), "runs": runs}


def main(
    games: Annotated[int, typer.Option(help="games in the study (split over both forms)")] = 20_000,
    workers: Annotated[str, typer.Option(help="worker counts to compare, e.g. 1,2")] = "1,2",
    shard_size: Annotated[int, typer.Option(help="games per shard")] = 250,
    out: Annotated[Path | None, typer.Option(help="keep the runs here [default: a temp dir]")] = None,
    strategy: Annotated[str, typer.Option(help="the strategy of both players")] = "random",
    json_out: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    counts = [int(n) for n in workers.split(",")]
    with tempfile.TemporaryDirectory(prefix="tashkalar-bench-") as tmp:
        results = run_bench(games, counts, shard_size, out or Path(tmp), strategy)
    if json_out:
        typer.echo(json.dumps(results, indent=1))
        return
    typer.echo(f"machine: {results['machine']}")
    for r in results["runs"]:
        typer.echo(f"{r['workers']} workers: {r['games']:,} games in {r['seconds']:.1f} s = "
                   f"{r['games_per_second']:,.0f} games/s, efficiency {r['parallel_efficiency']:.0%}; "
                   f"outside play {1 - r['share_playing']:.1%} (rows {r['share_building_rows']:.1%}, Parquet "
                   f"{r['share_encoding']:.1%}, other {r['share_other']:.1%}); peak memory "
                   f"{r['peak_worker_mb']} MB per worker, {r['driver_peak_mb']} MB driver")


if __name__ == "__main__":
    typer.run(main)
