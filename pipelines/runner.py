"""Running a study on Ray: prepare the run directory, run the missing shards as tasks, write what returns.

Workers play shards and send back encoded Parquet files; the driver alone writes the run directory, so
it may sit on the head node of a cluster without shared storage. The driver keeps a bounded number of
shards in flight, so its memory stays flat whatever the size of the study.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from pipelines import cardfiles, reaper, storage
from pipelines.compact import compact
from pipelines.interrupts import StopSignals, Terminated
from pipelines.manifest import (
    dataset_id,
    differences,
    done_shards,
    new_manifest,
    now,
    read_manifest,
    write_manifest,
)
from pipelines.progress import GameProgress, RunReport
from pipelines.schema import TABLES
from pipelines.shard import ShardJob, ShardOutput, peak_rss, play_shard
from pipelines.store import MANIFEST_DAMAGED, WRITE_ORDER, RunDir
from pipelines.study import Study
from sim.errors import UserError

MAX_RETRIES = 3  # a shard whose worker dies is run again, up to this many times
MANIFEST_EVERY_S = 1.0
PROBE_TIMEOUT_S = 5.0  # how long a cluster address may take to accept a connection
# Joining a cluster: Ray's defaults retry an address that accepts connections but never answers as a GCS
# for some 12 minutes (20 tries of 35 s); these make it about 25 s. Set in the environment, they win.
JOIN_LIMITS = {"RAY_gcs_server_port_wait_time_s": "2", "RAY_py_gcs_connect_timeout_s": "5",
               "RAY_gcs_rpc_server_connect_timeout_s": "3"}
WINDOW_EVERY_S = 5.0
STOP_CHECK_S = 0.25  # the longest the driver waits inside Ray before it looks for a signal


class StudyRunError(RuntimeError):
    """A shard failed for good (an error in its games, or its workers died too often)."""


@dataclass
class Prepared:
    run: RunDir
    manifest: dict[str, Any]
    job: ShardJob
    done: dict[int, dict[str, Any]]  # the manifest's entries of the shards done, by shard
    shard_count: int
    games_of: Callable[[int], int]  # a shard's number of games
    sync: Callable[[list[Path]], None] = lambda paths: None  # files just written (a run at a URI uploads them)

    def pending(self) -> Iterator[int]:
        """The shards still to run, in order; lazy, so a study of any size costs no memory here."""
        return (i for i in range(self.shard_count) if i not in self.done)

    def record(self, shard: int, files: dict[str, bytes], rows: dict[str, int], **where: str) -> None:
        """Write a shard's files and enter it in the manifest (in memory) with row counts and checksums."""
        sums = self.run.write_shard(shard, files)
        self.sync([self.run.shard_path(name, shard) for name in WRITE_ORDER])
        self.done[shard] = {"shard": shard, "games": self.games_of(shard), "status": "done", "rows": rows,
                            "sha256": sums, **where}

    def save(self) -> None:
        write_manifest(self.run.manifest_path, self.manifest, self.done)
        self.sync([self.run.manifest_path])


def prepare(study: Study, out: Path, force: bool, repair: bool = False) -> Prepared:
    """Check the directory against the study and keep the shards whose files are intact.

    Only shards the manifest records or whose files are present are looked at, so preparing costs time
    in proportion to the work already done, not to the size of the study. With ``repair``, a damaged or
    missing manifest is rebuilt from the shard files (each carries its dataset id and shard number, and is
    kept when every page decodes and its games are the shard's). Call with the run directory locked.
    """
    cards = study.load_cards()
    ident = dataset_id(study, cards.fingerprint())
    run = RunDir(out, study.shard_count)
    manifest = new_manifest(study, cards, ident)
    if repair:
        _check_repairable(run, ident)
    old = None if force or repair else read_manifest(run.manifest_path)
    if force:
        run.clear()
    elif old is None and not repair and run.foreign_entries():
        raise UserError(f"{out}: not empty and not a run directory (no manifest.json); choose another --out "
                        f"or use --force")
    elif old is not None and old["dataset_id"] != ident:
        changed = ", ".join(differences(old, manifest))
        raise UserError(f"{out}: holds a run of a different study (differs in: {changed}); use another "
                        f"--out, or --force to discard it")
    if old is not None:
        manifest["sessions"] = old.get("sessions", [])
    recorded = done_shards(old)
    out.mkdir(parents=True, exist_ok=True)
    run.remove_temp_files()
    done: dict[int, dict[str, Any]] = {}
    manifest["compacted"] = _kept_blocks(run, study, ident, old, recorded, done)
    for i in sorted(recorded.keys() | run.shards_on_disk()):
        if i in done:  # compacted: its block was verified
            continue
        games = len(study.shard_games(i))
        entry = {k: v for k, v in recorded[i].items() if k != "block"} if i in recorded else None
        if i < study.shard_count and run.verify_shard(i, ident, games, entry):
            if not (entry and entry.get("sha256")):  # verified by decoding: record what it now holds
                entry = (entry or {}) | {"shard": i, "games": games, "status": "done",
                                         "rows": run.row_counts(i), "sha256": run.checksums(i)}
            done[i] = entry
        else:
            run.remove_shard(i)
    prepared = Prepared(run, manifest, ShardJob(study.to_config(), cardfiles.pack(study.card_set), ident),
                        done, study.shard_count, lambda i: len(study.shard_games(i)))
    prepared.save()
    return prepared


def _kept_blocks(run: RunDir, study: Study, ident: str, old: dict[str, Any] | None,
                 recorded: dict[int, dict[str, Any]], done: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The compacted blocks (pipelines/compact.py) the manifest records or whose files are present, checked as
    shards are: a sound block's shards go into ``done`` (any of their shard files left are deleted), a block
    that is not sound is deleted (its shards' own files, if any are left, are then checked one by one)."""
    entries = {(b["first"], b["last"]): b for b in (old or {}).get("compacted", [])}
    kept: list[dict[str, Any]] = []
    for first, last in sorted(entries.keys() | run.blocks_on_disk()):
        shards = range(first, last + 1)
        games = sum(len(study.shard_games(i)) for i in shards)
        entry = entries.get((first, last))
        if (last < study.shard_count and not any(i in done for i in shards)
                and run.verify_block(first, last, ident, games, entry)):
            if not (entry and entry.get("sha256")):
                entry = {"first": first, "last": last, "games": games, "rows": run.block_rows(first, last),
                         "sha256": run.block_checksums(first, last)}
            kept.append(entry)
            name = run.block_name(first, last)
            for i in shards:
                shard = {k: v for k, v in recorded.get(i, {}).items() if k not in ("rows", "sha256")}
                done[i] = shard | {"shard": i, "games": len(study.shard_games(i)), "status": "done", "block": name}
                run.remove_shard(i)
        else:
            run.remove_block(first, last)
    return kept


def _check_repairable(run: RunDir, ident: str) -> None:
    """Refuse a repair that would throw away another study's shards (a wrong study file, a wrong --out)."""
    if run.foreign_entries():
        raise UserError(f"{run.root}: not a run directory (it holds {', '.join(run.foreign_entries()[:3])}); "
                        "nothing to repair")
    carried = run.shard_datasets()
    others = sorted({d for ids in carried.values() for d in ids} - {ident})
    if others:
        raise UserError(f"{run.root}: holds shards of another dataset ({', '.join(others)}; this study's is "
                        f"{ident}); repair it with the study file that wrote it")
    if run.manifest_path.exists():
        damaged = run.manifest_path.with_name(MANIFEST_DAMAGED)
        os.replace(run.manifest_path, damaged)  # kept for a look, out of the way of the rebuilt one


def _probe(address: str) -> None:
    """Fail fast when nothing answers at a cluster address (ray.init would retry for minutes)."""
    target = address.split("://", 1)[-1]
    if address == "auto":
        from ray._private.services import canonicalize_bootstrap_address

        try:
            target = canonicalize_bootstrap_address("auto") or ""
        except (ConnectionError, ValueError) as e:
            raise UserError(f"--address auto: {e}") from None
        if not target:
            raise UserError("--address auto: no Ray cluster was started on this machine (ray start)")
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        raise UserError(f"--address {address!r}: expected HOST:PORT (or ray://HOST:PORT, or auto)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_TIMEOUT_S).close()
    except OSError as e:
        reason = "timed out" if isinstance(e, TimeoutError) else e.strerror or str(e)
        raise UserError(f"--address {address}: no Ray cluster answers there ({reason}); check the address, "
                        f"or leave out --address and RAY_ADDRESS to run on local Ray") from None


def _connect(address: str | None, workers: int | None, stop: StopSignals) -> str:
    """Start or join Ray; says where the games run."""
    import ray

    try:
        if address:
            try:
                ray.init(address=address, logging_level=logging.WARNING)
            except ConnectionError as e:
                raise UserError(f"--address {address}: cannot join the Ray cluster ({e})") from None
            except RuntimeError as e:
                if (found := _RAY_MISMATCH.findall(str(e))) and len(found) == 2:
                    (ours, ours_py), (theirs, theirs_py) = found[1], found[0]
                    _mismatch(address, "Ray", f"{ours} (Python {ours_py})", f"{theirs} (Python {theirs_py})")
                raise
            check_versions(address)
            where = f"Ray cluster {address}"
        else:
            # A local Ray turns token authentication on by itself and says so on every run; the docs say it once.
            logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
            ray.init(address="local", num_cpus=workers or os.cpu_count(), include_dashboard=False,
                     logging_level=logging.WARNING)
            where = "local Ray"
    except SystemExit:  # ray.init's own SIGTERM handler, active while it starts, exits this way
        raise Terminated from None
    except (UserError, StudyRunError, KeyboardInterrupt):
        raise
    except Exception as e:  # a node that timed out, a port taken: one line, not Ray's traceback
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise StudyRunError(f"Ray did not start: {first}") from None
    finally:
        stop.install()  # ray.init replaced the handlers with its own
    stop.check()  # a signal that came while Ray started
    return where


_RAY_MISMATCH = re.compile(r"Ray: (\S+)\s+Python: (\S+)")  # ray.init's version mismatch: cluster's, then ours


def versions() -> dict[str, str]:
    """What a process runs: Ray, and the compiled core's version and source fingerprint."""
    import ray

    from sim import _core

    return {"Ray": ray.__version__, "core": f"{_core.__version__} ({_core.SOURCE_FINGERPRINT})"}


def _mismatch(address: str, what: str, here: str, there: str) -> None:
    raise UserError(f"--address {address}: version mismatch: this client runs {what} {here}, the cluster runs "
                    f"{what} {there}; submit the job with the wheel of this checkout (scripts/submit_job.sh) "
                    f"or install the cluster's versions here")


def check_versions(address: str) -> None:
    """Refuse a cluster whose workers run another Ray or another core than this driver, before any shard."""
    import ray

    task = ray.remote(num_cpus=0, max_retries=0)(versions)
    try:
        there = ray.get(task.remote(), timeout=300)
    except ray.exceptions.RayError as e:  # e.g. no core there at all: sim._core does not import
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise StudyRunError(f"the cluster cannot run this project's code: {first}") from None
    here = versions()
    for what in here:
        if here[what] != there.get(what):
            _mismatch(address, what, here[what], there.get(what, "nothing"))


def _cluster_cpus() -> int:
    import ray

    return int(ray.cluster_resources().get("CPU", 0))


def _play_on_ray(job: ShardJob, shard: int) -> ShardOutput:
    import ray

    output = play_shard(job, shard)
    output.node = ray.get_runtime_context().get_node_id()
    return output


def _disconnect() -> None:
    """Leave Ray, if it got as far as starting: a signal may have stopped ``import ray`` half-way, leaving a
    module without its attributes (the reaper stops any Ray process that outlives the driver)."""
    ray = sys.modules.get("ray")
    is_initialized = getattr(ray, "is_initialized", None)
    if is_initialized is not None and is_initialized():
        ray.shutdown()


class _Execution:
    """The driver loop: submit shards up to a bound, write each as it returns, keep the manifest current."""

    def __init__(self, prepared: Prepared, cap: int | None):
        """``cap``: the most shards at once; None: twice the cluster's CPUs, followed as nodes come and go."""
        self.p = prepared
        self.cap = cap
        self._kept_shards = len(prepared.done)
        self._kept_games = sum(s["games"] for s in prepared.done.values())
        self.seconds = {"play": 0.0, "convert": 0.0, "encode": 0.0, "write": 0.0}
        self.peak_worker_rss = 0
        self.workers = 0  # the most shards that could run at once
        self._manifest_at = 0.0
        self._window_at = -WINDOW_EVERY_S
        self._window = 1

    @property
    def shards_run(self) -> int:
        """Counted from the manifest's entries, so a Ctrl-C between writing a shard and counting it
        cannot leave the session's count behind its shards."""
        return len(self.p.done) - self._kept_shards

    @property
    def games_run(self) -> int:
        return sum(s["games"] for s in self.p.done.values()) - self._kept_games

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
        self.p.record(out.shard, out.files, out.rows, worker=out.worker, node=out.node)
        if t - self._manifest_at >= MANIFEST_EVERY_S:
            self.p.save()
            self._manifest_at = t
        games = self.p.games_of(out.shard)
        self.seconds["play"] += out.play_seconds
        self.seconds["convert"] += out.convert_seconds
        self.seconds["encode"] += out.encode_seconds
        self.seconds["write"] += time.perf_counter() - t
        self.peak_worker_rss = max(self.peak_worker_rss, out.peak_rss_bytes)
        progress.advance(games)

    def run(self, progress: GameProgress, stop: StopSignals) -> None:
        import ray

        # SPREAD: shards go to every node with a free CPU. Ray's default fills the driver's node first, and a
        # shard played in the core finishes so fast that the head's CPUs would take nearly every shard.
        task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False,
                          scheduling_strategy="SPREAD")(_play_on_ray)
        job = ray.put(self.p.job)
        queue = self.p.pending()
        # Shards still in flight when the loop ends are not cancelled: leaving Ray ends them (a local Ray stops,
        # a cluster ends the job's tasks), and a cancel whose task completes meanwhile trips a check in Ray's
        # native code that aborts the driver.
        in_flight: dict[Any, int] = {}
        while True:
            while len(in_flight) < self.window() and (shard := next(queue, None)) is not None:
                in_flight[task.remote(job, shard)] = shard
            if not in_flight:
                break
            with stop.deferred():  # a signal inside Ray's native wait must not raise there
                done, _ = ray.wait(list(in_flight), num_returns=1, timeout=STOP_CHECK_S)
            for ref in done:
                shard = in_flight.pop(ref)
                try:
                    with stop.deferred():
                        output = ray.get(ref)
                except ray.exceptions.RayError as e:
                    stop.check()  # workers stopped by the same signal (sent to the group): a stop, not a failure
                    raise StudyRunError(f"shard {shard} failed: {e}") from None
                self.record(output, progress)


def run_study(study: Study, out: Path | str, *, address: str | None = None, workers: int | None = None,
              force: bool = False, repair: bool = False, console: Console | None = None,
              show_progress: bool = True) -> RunReport:
    """Run (or resume) ``study`` into ``out``. ``address``: an existing Ray cluster; None starts local Ray.

    ``out`` may be an object-store URI (pipelines/storage.py): the run is then written in a local cache and
    every file uploaded as it is written; the report's ``out`` is the cache.

    ``workers``: local Ray gets that many CPUs; on a cluster, at most that many shards run at once.
    SIGINT stops the run with KeyboardInterrupt, SIGTERM with ``Terminated`` (pipelines/interrupts.py): the
    manifest is written, Ray stopped.
    """
    console = console or Console(stderr=True)
    uri = storage.uri_of(out)
    mirror = storage.Mirror(uri) if uri else None
    out = mirror.local if mirror else out
    if address:
        for name, value in JOIN_LIMITS.items():  # before Ray is imported: its native code reads them once
            os.environ.setdefault(name, value)
        _probe(address)  # before anything is written
    with StopSignals() as stop:
        return _run(study, out, address, workers, force, repair, console, show_progress, stop, mirror)


def _run(study: Study, out: Path, address: str | None, workers: int | None, force: bool, repair: bool,
         console: Console, show_progress: bool, stop: StopSignals, mirror: storage.Mirror | None) -> RunReport:
    run = RunDir(out, study.shard_count)
    with run.lock():
        if mirror:
            mirror.pull()
        prepared = prepare(study, out, force, repair)
        if mirror:
            mirror.publish()
            prepared.sync = mirror.push
        kept_shards = len(prepared.done)
        kept_games = sum(s["games"] for s in prepared.done.values())
        to_run = kept_shards < study.shard_count
        session: dict[str, Any] = {"started": now(), "code_version": prepared.manifest["code_version"]}
        prepared.manifest["sessions"].append(session)
        execution = _Execution(prepared, workers if address else None)
        where, startup, wall, watcher, blocks, compact_seconds = "", 0.0, 0.0, None, 0, 0.0
        try:
            if to_run:
                t = time.perf_counter()
                watcher = None if address else reaper.start()  # local Ray must not outlive a killed driver
                where = _connect(address, workers, stop)
                startup = time.perf_counter() - t
                session["ray"] = where
                with GameProgress(study.total_games, kept_games, console, show_progress) as progress:
                    t = time.perf_counter()
                    try:
                        execution.run(progress, stop)
                    finally:
                        wall = time.perf_counter() - t
            if len(prepared.done) == study.shard_count:
                t = time.perf_counter()
                blocks = compact(run, prepared.manifest, prepared.done, prepared.job.dataset_id, study.shard_size,
                                 prepared.save, prepared.sync, threads=min(len(TABLES), os.cpu_count() or 1))
                if blocks and mirror:
                    mirror.publish()  # the store drops the shard files the blocks replaced
                compact_seconds = time.perf_counter() - t
        finally:
            with stop.deferred(raise_after=False):  # a second signal must not cut the clean-up short
                session |= {"workers": execution.workers, "shards_run": execution.shards_run, "finished": now(),
                            "complete": len(prepared.done) == study.shard_count}
                prepared.save()
                if to_run:
                    _disconnect()
                reaper.stop(watcher)
    e, secs = execution, execution.seconds
    return RunReport(
        out=out, games=study.total_games, shards=study.shard_count, shards_kept=kept_shards,
        shards_run=e.shards_run, games_run=e.games_run, ray=where, workers=e.workers, startup_seconds=startup,
        wall_seconds=wall, play_seconds=secs["play"], convert_seconds=secs["convert"],
        encode_seconds=secs["encode"], write_seconds=secs["write"], peak_worker_rss=e.peak_worker_rss,
        driver_peak_rss=peak_rss(), blocks_compacted=blocks, compact_seconds=compact_seconds,
    )
