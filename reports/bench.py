"""Benchmark: the full report over a study's run, in the layout `tashkalar run` writes.

``python -m reports.bench [--games 100000] [--workers 2] [--dir runs/bench-100k] [--keep]`` runs a study of
random players (both forms, every pairing of the base decks, the default shard size) with ``tashkalar run``
(compacted when it finishes, as every run is; no history entry),
then times ``tashkalar report`` over it, HTML, Markdown and CSV included, in wall time and in CPU time (the
process's user and system time, DuckDB's threads included). ``--keep`` reuses the run in ``--dir`` (a run
is resumed, not replayed, when it is complete).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FORMS = 2
PAIRINGS = 6  # "all" pairs the three base decks with each other and themselves (seats rotate)


def study_toml(games: int) -> str:
    """A study of at least ``games`` random games: both forms, every pairing of the base decks."""
    per_cell = -(-games // (FORMS * PAIRINGS))
    per_cell += per_cell % 2  # half from each seat
    return (f'name = "report-bench"\nforms = ["high-form", "deathmatch"]\ndeck_pairings = "all"\n'
            f'strategy_pairings = [["random", "random"]]\ngames_per_cell = {per_cell}\nbase_seed = 1\n')


def build(run: Path, games: int, workers: int) -> None:
    """Write the run with `tashkalar run` itself (local Ray, ``workers`` CPUs)."""
    with tempfile.TemporaryDirectory() as tmp:
        study = Path(tmp) / "report-bench.toml"
        study.write_text(study_toml(games))
        subprocess.run([sys.executable, "-c", "from sim.cli import app; app()", "run", str(study), "--out",
                        str(run), "--workers", str(workers), "--no-progress", "--no-history"], check=True)


def main(argv: list[str] | None = None) -> None:
    from reports.build import write_report
    from sim.bench import machine

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2, help="local Ray CPUs that play the study")
    parser.add_argument("--dir", type=Path, default=Path("runs/bench-100k"))
    parser.add_argument("--keep", action="store_true", help="reuse the run in --dir if it is there")
    args = parser.parse_args(argv)
    run = args.dir
    if not (args.keep and (run / "manifest.json").exists()):
        start = time.perf_counter()
        build(run, args.games, args.workers)
        print(f"built {run} in {time.perf_counter() - start:.1f} s")
    start, start_cpu = time.perf_counter(), time.process_time()
    report = write_report([run], html=run / "report.html", md=run / "report.md", csv_dir=run / "csv")
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    games = next(value for key, value in report.facts if key == "Games")
    files = sum(1 for _ in run.glob("*/*.parquet"))
    # CPU time: this process's user and system time, DuckDB's threads included; steady on a shared machine
    print(f"report over {games} games ({files} files): {elapsed:.1f} s wall, {cpu:.1f} s CPU on {machine()}")


if __name__ == "__main__":
    main()
