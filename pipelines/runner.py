"""Running a study on Ray: prepare the run directory, run the missing shards as tasks, write what returns.

Workers play shards and send back encoded Parquet files; the driver alone writes the run directory, so
it may sit on the head node of a cluster without shared storage. The driver keeps a bounded number of
shards in flight, so its memory stays flat whatever the size of the study.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from pipelines import cardfiles
from pipelines.manifest import dataset_id, differences, new_manifest, now, read_manifest, write_manifest
from pipelines.progress import GameProgress, RunReport
from pipelines.shard import ShardJob, ShardOutput, peak_rss, play_shard
from pipelines.store import RunDir
from pipelines.study import Study
from sim.errors import UserError

MAX_RETRIES = 3  # a shard whose worker dies is run again, up to this many times
MANIFEST_EVERY_S = 1.0
WINDOW_EVERY_S = 5.0


class StudyRunError(RuntimeError):
    """A shard failed for good (an error in its games, or its workers died too often)."""


@dataclass
class Prepared:
    run: RunDir
    manifest: dict[str, Any]
    job: ShardJob
    pending: list[int]


def prepare(study: Study, out: Path, force: bool) -> Prepared:
    """Check the directory against the study, keep the shards that are complete, list the others.

    Call with the run directory locked.
    """
    cards = study.load_cards()
    ident = dataset_id(study, cards.fingerprint())
    run = RunDir(out, study.shard_count)
    manifest = new_manifest(study, cards, ident)
    old = None if force else read_manifest(run.manifest_path)
    if force:
        run.clear()
    elif old is None and run.foreign_entries():
        raise UserError(f"{out}: not empty and not a run directory (no manifest.json); choose another --out "
                        f"or use --force")
    elif old is not None and old["dataset_id"] != ident:
        changed = ", ".join(differences(old, manifest))
        raise UserError(f"{out}: holds a run of a different study (differs in: {changed}); use another "
                        f"--out, or --force to discard it")
    if old is not None:
        manifest["sessions"] = old.get("sessions", [])
    recorded = {s["shard"]: s for s in (old or {}).get("shard_status", []) if s.get("status") == "done"}
    out.mkdir(parents=True, exist_ok=True)
    run.remove_temp_files()
    pending = []
    for status in manifest["shard_status"]:
        i = status["shard"]
        rows = recorded.get(i, {}).get("rows")
        if run.verify_shard(i, ident, status["games"], rows):
            status.update(recorded.get(i, {}), status="done")
        else:
            run.remove_shard(i)
            pending.append(i)
    write_manifest(run.manifest_path, manifest)
    job = ShardJob(study.to_config(), cardfiles.pack(study.card_set), ident)
    return Prepared(run, manifest, job, pending)


def _connect(address: str | None, workers: int | None) -> str:
    """Start or join Ray; says where the games run."""
    import ray

    if address:
        ray.init(address=address, logging_level=logging.WARNING)
        where = f"Ray cluster {address}"
    else:
        # A local Ray turns token authentication on by itself and says so on every run; the docs say it once.
        logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
        ray.init(address="local", num_cpus=workers or os.cpu_count(), include_dashboard=False,
                 logging_level=logging.WARNING)
        where = "local Ray"
    return where


def _cluster_cpus() -> int:
    import ray

    return int(ray.cluster_resources().get("CPU", 0))


def _play_on_ray(job: ShardJob, shard: int) -> ShardOutput:
    import ray

    output = play_shard(job, shard)
    output.node = ray.get_runtime_context().get_node_id()
    return output


def _disconnect() -> None:
    import ray

    if ray.is_initialized():
        ray.shutdown()


class _Execution:
    """The driver loop: submit shards up to a bound, write each as it returns, keep the manifest current."""

    def __init__(self, prepared: Prepared, cap: int | None):
        """``cap``: the most shards at once; None: twice the cluster's CPUs, followed as nodes come and go."""
        self.p = prepared
        self.cap = cap
        self.outputs: list[ShardOutput] = []
        self.write_seconds = 0.0
        self.workers = 0  # the most shards that could run at once
        self._manifest_at = 0.0
        self._window_at = -WINDOW_EVERY_S
        self._window = 1

    def window(self) -> int:
        """How many shards to keep submitted: enough to keep every CPU busy, and to show an autoscaler
        the demand for more nodes."""
        now_s = time.perf_counter()
        if now_s - self._window_at >= WINDOW_EVERY_S:
            cpus = _cluster_cpus()
            self.workers = max(self.workers, min(cpus, self.cap) if self.cap else cpus)
            self._window = self.cap or max(1, 2 * cpus)
            self._window_at = now_s
        return self._window

    def record(self, out: ShardOutput, progress: GameProgress) -> None:
        t = time.perf_counter()
        self.p.run.write_shard(out.shard, out.files)
        status = self.p.manifest["shard_status"][out.shard]
        status.update(status="done", rows=out.rows, worker=out.worker, node=out.node)
        if t - self._manifest_at >= MANIFEST_EVERY_S:
            write_manifest(self.p.run.manifest_path, self.p.manifest)
            self._manifest_at = t
        self.write_seconds += time.perf_counter() - t
        out.files = {}
        self.outputs.append(out)
        progress.advance(status["games"])

    def run(self, progress: GameProgress) -> None:
        import ray

        task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(_play_on_ray)
        job = ray.put(self.p.job)
        queue = list(reversed(self.p.pending))
        in_flight: dict[Any, int] = {}
        try:
            while queue or in_flight:
                while queue and len(in_flight) < self.window():
                    shard = queue.pop()
                    in_flight[task.remote(job, shard)] = shard
                done, _ = ray.wait(list(in_flight), num_returns=1)
                for ref in done:
                    shard = in_flight.pop(ref)
                    try:
                        output = ray.get(ref)
                    except ray.exceptions.RayError as e:
                        raise StudyRunError(f"shard {shard} failed: {e}") from None
                    self.record(output, progress)
        finally:
            for ref in in_flight:
                ray.cancel(ref, force=True)


def run_study(study: Study, out: Path, *, address: str | None = None, workers: int | None = None,
              force: bool = False, console: Console | None = None, show_progress: bool = True) -> RunReport:
    """Run (or resume) ``study`` into ``out``. ``address``: an existing Ray cluster; None starts local Ray.

    ``workers``: local Ray gets that many CPUs; on a cluster, at most that many shards run at once.
    """
    console = console or Console(stderr=True)
    run = RunDir(out, study.shard_count)
    with run.lock():
        prepared = prepare(study, out, force)
        pending = set(prepared.pending)
        kept_games = sum(len(study.shard_games(i)) for i in range(study.shard_count) if i not in pending)
        session: dict[str, Any] = {"started": now(), "code_version": prepared.manifest["code_version"]}
        prepared.manifest["sessions"].append(session)
        execution = _Execution(prepared, workers if address else None)
        where, startup, wall = "", 0.0, 0.0
        try:
            if pending:
                t = time.perf_counter()
                where = _connect(address, workers)
                startup = time.perf_counter() - t
                session["ray"] = where
                with GameProgress(study.total_games, kept_games, console, show_progress) as progress:
                    t = time.perf_counter()
                    try:
                        execution.run(progress)
                    finally:
                        wall = time.perf_counter() - t
        finally:
            session |= {"workers": execution.workers, "shards_run": len(execution.outputs), "finished": now(),
                        "complete": all(s["status"] == "done" for s in prepared.manifest["shard_status"])}
            write_manifest(run.manifest_path, prepared.manifest)
            if pending:
                _disconnect()
    outs = execution.outputs
    return RunReport(
        out=out, games=study.total_games, shards=study.shard_count,
        shards_kept=study.shard_count - len(pending), shards_run=len(outs),
        games_run=sum(len(study.shard_games(o.shard)) for o in outs), ray=where,
        workers=execution.workers, startup_seconds=startup, wall_seconds=wall,
        play_seconds=sum(o.play_seconds for o in outs), convert_seconds=sum(o.convert_seconds for o in outs),
        encode_seconds=sum(o.encode_seconds for o in outs), write_seconds=execution.write_seconds,
        peak_worker_rss=max((o.peak_rss_bytes for o in outs), default=0), driver_peak_rss=peak_rss(),
    )
