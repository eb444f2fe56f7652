"""What a run shows: a live bar while shards finish, then a closing summary with per-cell outcomes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import polars as pl
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column, Table
from rich.text import Text

from pipelines.compact import counted_blocks, dataset_files
from pipelines.study import MELEE_FORMS, TEAM_FORMS, TEAM_SEATS, Study

SUMMARY_CELLS = 40


class _GamesPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:,.0f} games/s", style="progress.data.speed")


class GameProgress:
    """A progress bar counted in games, with an ETA (``run``, ``suite``, ``ladder``); silent when ``enabled`` is
    false."""

    def __init__(self, total: int | None, done: int, console: Console, enabled: bool = True, label: str = "games"):
        self._progress = Progress(
            TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), _GamesPerSecond(),
            TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
            console=console, disable=not enabled, speed_estimate_period=60.0,
        )
        self._task = self._progress.add_task("games", total=total, completed=done)

    def __enter__(self) -> GameProgress:
        self._progress.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._progress.stop()

    def advance(self, games: int) -> None:
        self._progress.advance(self._task, games)

    def show(self, done: int, total: int) -> None:
        """``done`` of ``total`` games so far."""
        self._progress.update(self._task, completed=done, total=total)


@dataclass
class RunReport:
    """Figures of one invocation of a run. Worker shares are of ``workers * wall_seconds``."""

    out: Path
    games: int
    shards: int
    shards_kept: int
    shards_run: int
    games_run: int
    ray: str  # where the games ran
    workers: int
    startup_seconds: float  # connecting to or starting Ray
    wall_seconds: float  # first shard submitted to last shard written
    play_seconds: float
    convert_seconds: float
    encode_seconds: float
    write_seconds: float
    peak_worker_rss: int
    driver_peak_rss: int
    blocks_compacted: int = 0  # blocks of shards merged into one file per table (pipelines/compact.py)
    compact_seconds: float = 0.0

    @property
    def games_per_second(self) -> float:
        return self.games_run / self.wall_seconds if self.wall_seconds else 0.0

    def share(self, seconds: float) -> float:
        capacity = self.workers * self.wall_seconds
        return seconds / capacity if capacity else 0.0

    @property
    def outside_play_share(self) -> float:
        return 1.0 - self.share(self.play_seconds)


def cell_outcomes(out: Path, study: Study) -> pl.DataFrame:
    """Per cell: games, wins of the cell's first-named side (A) and of the others (B: the second side in a
    duel, the other team in a team game), ties, mean turns; the games of the unchanged card set only
    (ablation arms replay them)."""
    files = [str(f) for f in dataset_files(out / "games", counted_blocks(out))]
    games = (pl.scan_parquet(files).filter(pl.col("variant") == "")
             .select("game_id", "cell", "winner", "turns"))
    form = pl.col("cell").str.split("|").list.first()
    seats = form.replace_strict(MELEE_FORMS | dict.fromkeys(TEAM_FORMS, TEAM_SEATS), default=2,
                                return_dtype=pl.Int64)
    rotation = (pl.col("game_id") % study.games_per_cell % seats) * pl.lit(int(study.seat_balance))
    a_seat = (seats - rotation) % seats
    a_seat = pl.when(form.is_in(list(TEAM_FORMS))).then(a_seat % 2).otherwise(a_seat)  # a team game: A's team
    return (games.group_by("cell")
            .agg(pl.min("game_id").alias("first"), pl.len().alias("games"),
                 (pl.col("winner") == a_seat).sum().alias("a_wins"),
                 ((pl.col("winner") >= 0) & (pl.col("winner") != a_seat)).sum().alias("b_wins"),
                 (pl.col("winner") == -1).sum().alias("ties"), pl.mean("turns").alias("mean_turns"))
            .sort("first").drop("first").collect())


def print_summary(console: Console, report: RunReport, study: Study) -> None:
    r = report
    console.print(f"[bold]{study.name}[/]: {r.games:,} games in {r.shards:,} shards -> {r.out}")
    console.print(f"  ran {r.shards_run:,} shards ({r.games_run:,} games), kept {r.shards_kept:,} "
                  f"from an earlier run")
    if r.shards_run:
        workers = f"{r.workers} worker" + ("s" if r.workers > 1 else "")
        console.print(f"  {r.wall_seconds:.1f} s on {r.ray} with {workers} (+{r.startup_seconds:.1f} s "
                      f"starting Ray): {r.games_per_second:,.0f} games/s")
        busy = r.play_seconds + r.convert_seconds + r.encode_seconds
        console.print(f"  worker time: {r.share(r.play_seconds):.1%} playing, "
                      f"{r.share(r.convert_seconds):.1%} building rows, {r.share(r.encode_seconds):.1%} "
                      f"encoding Parquet, {1 - r.share(busy):.1%} other (transfer, writing, scheduling, "
                      f"idle)")
        console.print(f"  peak memory: {r.peak_worker_rss / 2**20:,.0f} MB per worker, "
                      f"{r.driver_peak_rss / 2**20:,.0f} MB driver")
    if r.blocks_compacted:
        console.print(f"  compacted {r.blocks_compacted:,} blocks of shards into a file per table each in "
                      f"{r.compact_seconds:.1f} s")
    table = Table(Column("cell", overflow="fold"), "games", "A wins", "B wins", "ties", "mean turns",
                  title_justify="left",
                  title="Outcomes (A: the cell's first-named deck and player (a team game: team), B: the second, or "
                        "in a melee the others)")
    outcomes = cell_outcomes(r.out, study)
    if outcomes.height > SUMMARY_CELLS:
        table.caption = f"the first {SUMMARY_CELLS} of {outcomes.height} cells; the dataset has them all"
    for row in outcomes.head(SUMMARY_CELLS).iter_rows(named=True):
        g = row["games"]
        table.add_row(row["cell"], f"{g:,}", f"{row['a_wins'] / g:.1%}", f"{row['b_wins'] / g:.1%}",
                      f"{row['ties'] / g:.1%}", f"{row['mean_turns']:.1f}")
    console.print(table)
