"""Runs at an object-store URI (a local S3 server, moto), the client/cluster version check, and a study
submitted with ``ray job submit`` to a local two-node cluster that runs the product from its wheel."""

from __future__ import annotations

import json
import logging
import os
import pwd
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pyarrow.fs as pafs
import pytest

from pipelines import runner, storage
from pipelines.interrupts import StopSignals
from sim.errors import UserError
from tests.ray_cluster import free_port, stop_group

ROOT = Path(__file__).parent.parent
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def s3() -> Iterator[dict[str, str]]:
    """A local S3 server with a bucket ``bucket``; yields the environment that reaches it (fake credentials,
    never the user's)."""
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per request otherwise
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1",
           "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}", "AWS_CONFIG_FILE": os.devnull,
           "AWS_SHARED_CREDENTIALS_FILE": os.devnull}
    pafs.S3FileSystem(endpoint_override=env["AWS_ENDPOINT_URL"], access_key="testing", secret_key="testing",
                      region="us-east-1", allow_bucket_creation=True).create_dir("bucket")
    try:
        yield env
    finally:
        server.stop()


@pytest.fixture
def s3_env(s3, monkeypatch, tmp_path) -> dict[str, str]:
    for name, value in s3.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv(storage.CACHE_ENV, str(tmp_path / "cache"))
    return s3


def test_a_uri_is_recognised_even_after_a_path_folded_its_slashes():
    assert storage.uri_of("s3://bucket/run/") == "s3://bucket/run"
    assert storage.uri_of(Path("s3://bucket/run")) == "s3://bucket/run"
    assert storage.uri_of("gs://b/r") == "gs://b/r"
    assert storage.uri_of(Path("runs/s3")) is None and storage.uri_of("/tmp/s3:/x") is None


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_a_mirror_publishes_pulls_only_what_differs_and_follows_removals(s3_env, tmp_path, monkeypatch):
    uri = f"s3://bucket/mirror-{secrets.token_hex(4)}"
    first = storage.Mirror(uri)
    _write(first.local, {"manifest.json": "{}", "games/shard-00000.parquet": "a", "games/shard-00001.parquet": "b"})
    (first.local / ".lock").write_text("")
    first.publish()
    monkeypatch.setenv(storage.CACHE_ENV, str(tmp_path / "elsewhere"))  # another machine
    second = storage.Mirror(uri)
    assert second.local != first.local
    local = second.pull()
    assert sorted(p.relative_to(local).as_posix() for p in local.rglob("*") if p.is_file()) == [
        "games/shard-00000.parquet", "games/shard-00001.parquet", "manifest.json"]  # no lock travels
    (local / "games/shard-00001.parquet").unlink()  # a resume found it damaged
    second.publish()
    (first.local / "games/shard-00000.parquet").write_text("x")  # a stale copy, same size
    first.pull()
    assert not (first.local / "games/shard-00001.parquet").exists()
    assert (first.local / "games/shard-00000.parquet").read_text() == "x"  # no checksum recorded: kept


def test_reading_a_uri_without_a_run_says_so(s3_env):
    with pytest.raises(UserError, match=r"s3://bucket/nothing-here: no run there \(no manifest.json\)"):
        storage.local_run(Path("s3://bucket/nothing-here"))


class _FakeTask:
    def __init__(self, result):
        self.result = result

    def remote(self):
        return self.result


def test_a_finished_run_at_a_uri_is_compacted_there_and_read_back_from_the_blocks(s3_env, tmp_path, monkeypatch):
    """A run at an object-store URI whose shards are all done (so no Ray starts) is compacted: the store gets
    each block's files and the manifest that records them, and loses the shard files they replaced; a reader on
    another machine pulls the blocks, checks them against the manifest's checksums, gets a damaged copy again,
    and reports the same as from the shard files."""
    from io import StringIO

    from rich.console import Console
    from typer.testing import CliRunner

    from pipelines import compact
    from pipelines.runner import prepare
    from pipelines.store import check_recorded, sha256
    from pipelines.study import parse_study
    from sim.cli import app
    from tests.test_pipelines_compact import BLOCK, CONFIG, fill

    monkeypatch.setattr(compact, "BLOCK_GAMES", BLOCK * CONFIG["shard_size"])
    study = parse_study(CONFIG, tmp_path / "study.toml")
    plain = tmp_path / "plain"
    fill(study, plain)
    uri = f"s3://bucket/compact-{secrets.token_hex(4)}"
    mirror = storage.Mirror(uri)
    shutil.copytree(plain, mirror.local)
    mirror.publish()
    done = runner.run_study(study, uri, console=Console(file=StringIO()), show_progress=False)
    assert (done.shards_run, done.blocks_compacted) == (0, 2)
    fs, base = pafs.FileSystem.from_uri(uri)
    stored = sorted(i.path[len(base) + 1:] for i in fs.get_file_info(pafs.FileSelector(base, recursive=True))
                    if i.type == pafs.FileType.File)
    assert [p for p in stored if p.startswith("games/")] == ["games/shards-00000-00002.parquet",
                                                             "games/shards-00003-00005.parquet"]
    assert not [p for p in stored if "/shard-" in p], "the shard files the blocks replaced left the store"
    monkeypatch.setenv(storage.CACHE_ENV, str(tmp_path / "elsewhere"))  # a reader on another machine
    copy = storage.local_run(Path(uri))
    assert check_recorded(copy) == [] and list(prepare(study, copy, force=False).pending()) == []
    block = copy / "card_events" / "shards-00003-00005.parquet"
    good = sha256(block)
    block.write_bytes(block.read_bytes()[::-1])  # a damaged copy, the same size
    assert sha256(storage.local_run(Path(uri)) / "card_events" / "shards-00003-00005.parquet") == good
    for run, out in ((uri, "stored"), (str(plain), "plain")):
        result = CliRunner().invoke(app, ["report", run, "--csv", str(tmp_path / out), "--no-html"])
        assert result.exit_code == 0, result.output
    tables = sorted(p.name for p in (tmp_path / "plain").glob("*.csv") if p.name != "runs.csv")
    assert "beings.csv" in tables
    for name in tables:
        assert (tmp_path / "stored" / name).read_text() == (tmp_path / "plain" / name).read_text(), name


def _cluster_reports(monkeypatch, there: dict[str, str]) -> None:
    import ray

    monkeypatch.setattr(ray, "remote", lambda **options: lambda f: _FakeTask(there))
    monkeypatch.setattr(ray, "get", lambda ref, timeout=None: ref)


def test_a_cluster_with_another_core_is_refused_in_one_line_naming_both(monkeypatch):
    here = runner.versions()
    _cluster_reports(monkeypatch, here | {"core": "0.0.9 (0123456789abcdef)"})
    with pytest.raises(UserError) as e:
        runner.check_versions("10.0.0.1:6379")
    assert str(e.value) == (f"--address 10.0.0.1:6379: version mismatch: this client runs core {here['core']}, "
                            f"the cluster runs core 0.0.9 (0123456789abcdef); submit the job with the wheel of "
                            f"this checkout (scripts/submit_job.sh) or install the cluster's versions here")
    _cluster_reports(monkeypatch, here)
    runner.check_versions("10.0.0.1:6379")  # the same versions pass


def test_a_cluster_with_another_ray_is_refused_in_one_line_naming_both(monkeypatch):
    import ray

    def init(**kwargs):  # what ray.init raises when the GCS was started by another Ray
        raise RuntimeError("Version mismatch: The cluster was started with:\n    Ray: 2.59.0\n    Python: 3.11.7\n"
                           "This process on node 10.0.0.2 was started with:\n    Ray: 2.60.0\n    Python: 3.11.7\n")

    monkeypatch.setattr(ray, "init", init)
    with StopSignals() as stop, pytest.raises(UserError) as e:
        runner._connect("10.0.0.1:6379", None, stop)
    assert str(e.value).startswith("--address 10.0.0.1:6379: version mismatch: this client runs Ray 2.60.0 "
                                   "(Python 3.11.7), the cluster runs Ray 2.59.0 (Python 3.11.7);")


def test_a_study_beside_the_source_packages_is_not_submitted(tmp_path):
    (tmp_path / "sim").mkdir()  # would come first on the workers' sys.path and hide the wheel's
    (tmp_path / "study.toml").write_text(STUDY)
    result = subprocess.run(["bash", str(ROOT / "scripts" / "submit_job.sh"), str(tmp_path / "study.toml"),
                             "s3://bucket/run"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == (f"error: {tmp_path}: holds sim/, which would hide the wheel's on the cluster; keep "
                             f"study files in a folder of their own\n")


# --- a study submitted as a Ray job -----------------------------------------------------------------------

STUDY = """
name = "job-test"
forms = ["deathmatch"]
deck_pairings = [["imperial", "sylvan"]]
strategy_pairings = [["random", "random"]]
games_per_cell = 40
base_seed = 3
shard_size = 10
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The product's wheel, built once (core/target keeps the compiled crates between builds)."""
    out = tmp_path_factory.mktemp("wheel")
    home = Path(pwd.getpwuid(os.getuid()).pw_dir)  # the toolchain's: conftest moved $HOME
    env = {"RUSTUP_HOME": str(home / ".rustup"), "CARGO_HOME": str(home / ".cargo")} | os.environ
    env |= {"PATH": f"{env['CARGO_HOME']}/bin:{env['PATH']}", "PYO3_PYTHON": sys.executable}
    result = subprocess.run([str(BIN / "maturin"), "build", "--release", "--quiet", "--out", str(out)], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stderr[-3000:]
    return next(out.glob("tashkalar_balance-*.whl"))


@pytest.fixture(scope="module")
def job_cluster(s3) -> Iterator[dict[str, str]]:
    """A head (with the job server, no CPU for shards) and a worker node with two CPUs on this machine, token
    authentication on,
    started outside any checkout and without PYTHONPATH, so the jobs find the product only in their wheel.
    The nodes reach the S3 server as a cloud node would, through their environment. Yields the submitting
    client's environment."""
    # Ray copies the virtualenv it runs from into each node's job environment (1.2 GB here); in memory
    # the copies are made and removed several times faster than on this machine's shared disk.
    root = Path(tempfile.mkdtemp(prefix="tkjob-", dir="/dev/shm" if Path("/dev/shm").is_dir() else "/tmp"))
    token = root / "token"
    token.write_text(secrets.token_hex(32))
    dashboard = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "PYTHONPATH")}
    env |= s3 | {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token), "PATH": f"{BIN}:{env['PATH']}"}
    address = f"127.0.0.1:{free_port()}"
    groups: list[int] = []

    def start(name: str, cpus: int, *args: str) -> None:
        services = ("dashboard-agent-listen", "dashboard-agent-grpc", "metrics-export", "runtime-env-agent",
                    "node-manager", "object-manager")
        ports = [f"--{service}-port={free_port()}" for service in services]
        node = subprocess.Popen([str(BIN / "ray"), "start", f"--num-cpus={cpus}", "--disable-usage-stats",
                                 f"--temp-dir={root / name}", *ports, *args], env=env, cwd=root,
                                start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        groups.append(node.pid)
        log, _ = node.communicate(timeout=180)
        assert node.returncode == 0, log

    try:
        # The head takes no shard: every shard is played on the node that has no checkout, only the job's
        # wheel (with a CPU on the head, the head's workers, whose job environment exists first, would take
        # every shard of a study this small before the other node's environment is made).
        start("head", 0, "--head", f"--port={address.rsplit(':', 1)[1]}", "--include-dashboard=true",
              "--dashboard-host=127.0.0.1", f"--dashboard-port={dashboard}", f"--ray-client-server-port={free_port()}")
        start("node", 2, f"--address={address}")
        yield env | {"RAY_ADDRESS": f"http://127.0.0.1:{dashboard}"}
    finally:
        for group in reversed(groups):
            stop_group(group)
        shutil.rmtree(root, ignore_errors=True)


def _submit(env: dict[str, str], study: Path, out: str) -> str:
    result = subprocess.run(["bash", str(ROOT / "scripts" / "submit_job.sh"), str(study), out], env=env,
                            cwd=study.parent, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0 and "succeeded" in result.stdout, result.stdout[-4000:] + result.stderr[-4000:]
    return result.stdout


@pytest.mark.ray
def test_a_job_from_the_wheel_writes_to_s3_resumes_there_and_is_reported_from_there(job_cluster, wheel, s3_env,
                                                                                     tmp_path):
    env = job_cluster | {"TASHKALAR_WHEEL": str(wheel), "TASHKALAR_HISTORY": str(tmp_path / "head-history.duckdb")}
    folder = tmp_path / "job"
    folder.mkdir()
    (folder / "job-test.toml").write_text(STUDY)
    out = f"s3://bucket/runs/job-{secrets.token_hex(4)}"
    printed = _submit(env, folder / "job-test.toml", out)
    assert "ran 4 shards (40 games)" in printed and f"the run is at {out} (its local copy: " in printed
    fs, base = pafs.FileSystem.from_uri(out)
    manifest = json.loads(fs.open_input_stream(f"{base}/manifest.json").read())
    assert len(manifest["shard_status"]) == 4
    worker_node = {s["node"] for s in manifest["shard_status"]}
    assert len(worker_node) == 1, "the worker node played every shard (the head has no CPU for them)"
    assert "git_commit" not in manifest["code_version"], "played from the wheel, not from a checkout"
    assert (tmp_path / "head-history.duckdb").exists(), "the job recorded the run where it was told"

    for shard in (1, 2):  # lost shards: the next job plays them again
        fs.delete_file(f"{base}/games/shard-{shard:05d}.parquet")
    printed = _submit(env, folder / "job-test.toml", out)
    assert "ran 2 shards (20 games), kept 2 from an earlier run" in printed
    manifest = json.loads(fs.open_input_stream(f"{base}/manifest.json").read())
    replayed = [s for s in manifest["shard_status"] if s["shard"] in (1, 2)]
    assert {s["node"] for s in replayed} == worker_node, "the worker node played the lost shards from the wheel"

    cache = tmp_path / "reader-cache"
    reader = {k: v for k, v in env.items() if k != "RAY_ADDRESS"} | {"PYTHONPATH": str(ROOT),
                                                                     storage.CACHE_ENV: str(cache)}
    csv_dir = tmp_path / "csv"
    result = subprocess.run([str(BIN / "tashkalar"), "report", out, "--csv", str(csv_dir)], env=reader,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and "40 games in" in result.stdout, result.stdout + result.stderr
    assert any(csv_dir.glob("*.csv"))
    copy = tmp_path / "copy"  # the same run again, as a local directory: nothing moved
    shutil.copytree(next((cache / "runs").iterdir()), copy)
    result = subprocess.run([str(BIN / "tashkalar"), "regress", "--baseline", out, "--candidate", str(copy)],
                            env=reader, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
