"""``tashkalar run`` on real Ray: local, killed and resumed, a worker killed mid-shard, a two-node cluster.

Every run plays the same study; each must give exactly the rows of the uninterrupted two-worker run.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from filelock import FileLock

from pipelines.schema import TABLES
from tests.ray_cluster import local_env, two_node_cluster

pytestmark = pytest.mark.ray

BIN = Path(sys.executable).parent
STUDY = """
name = "ray-test"
forms = ["high-form", "deathmatch"]
deck_pairings = [["imperial", "imperial"], ["imperial", "sylvan"]]
strategy_pairings = [["random", "random"]]
games_per_cell = 150
base_seed = 11
shard_size = 25
"""
GAMES, SHARDS = 600, 24


def run_command(study: Path, out: Path, *args: str) -> list[str]:
    return [str(BIN / "tashkalar"), "run", str(study), "--out", str(out), "--no-progress", *args]


def tashkalar_run(study: Path, out: Path, *args: str, env: dict[str, str] | None = None,
                  ) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(run_command(study, out, *args), env=env or local_env(), capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def dataset(out: Path) -> dict[str, dict[str, pa.Table]]:
    return {name: {p.name: pq.read_table(p) for p in sorted((out / name).glob("*.parquet"))}
            for name in TABLES}


def assert_same_rows(expected: Path, actual: Path) -> None:
    want, got = dataset(expected), dataset(actual)
    for name in TABLES:
        assert list(got[name]) == list(want[name]), name
        for file, table in want[name].items():
            assert got[name][file].equals(table), f"{name}/{file}"


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


@pytest.fixture(scope="session")
def shared_dir(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """A directory every xdist worker of this session sees (their own temp dirs are siblings in it)."""
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


@pytest.fixture(scope="session")
def study_file(shared_dir: Path) -> Path:
    path = shared_dir / "pipelines-ray-test.toml"
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(STUDY)
        os.replace(tmp, path)
    return path


@pytest.fixture(scope="session")
def reference(study_file: Path, shared_dir: Path) -> tuple[Path, str]:
    """An uninterrupted run on local Ray with two workers, and what it printed; made once per session
    even when these tests are spread over several xdist workers."""
    out, printed = shared_dir / "pipelines-reference", shared_dir / "pipelines-reference.txt"
    with FileLock(str(shared_dir / "pipelines-reference.lock")):
        if not printed.exists():
            printed.write_text(tashkalar_run(study_file, out, "--workers", "2").stdout)
    return out, printed.read_text()


def test_a_local_run_writes_a_dataset_read_with_one_glob(reference):
    out, printed = reference
    assert f"ran {SHARDS} shards ({GAMES} games), kept 0" in printed and "local Ray with 2 workers" in printed
    info = manifest(out)
    assert [s["status"] for s in info["shard_status"]] == ["done"] * SHARDS
    assert info["sessions"][-1]["complete"] and info["sessions"][-1]["workers"] == 2
    ids = duckdb.sql(f"select count(*), count(distinct game_id), min(game_id), max(game_id) "
                     f"from '{out}/games/*.parquet'").fetchall()[0]
    assert ids == (GAMES, GAMES, 0, GAMES - 1)
    for name in TABLES:
        rows = pl.scan_parquet(str(out / name / "*.parquet")).select(pl.len()).collect().item()
        assert rows == sum(s["rows"][name] for s in info["shard_status"])
        # a melee's table and a team game's: none in a study of duels
        assert rows > 0 or name in ("colour_points", "pass_control")
    balance = duckdb.sql(f"select cell, sum((deck_0 = 'imperial')::int), count(*) "
                         f"from '{out}/games/*.parquet' where cell like '%imperial-sylvan%' "
                         f"group by cell").fetchall()
    assert sorted(n for _, n, _ in balance) == [75, 75] and {c for _, _, c in balance} == {150}


def descendants(pid: int) -> dict[int, str]:
    """Every process below ``pid``, by pid, with its command name."""
    children: dict[int, list[tuple[int, str]]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, rest = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2:].split()
        children.setdefault(int(rest[1]), []).append((int(stat.parent.name), name))
    found: dict[int, str] = {}
    stack = [pid]
    while stack:
        for child, name in children.get(stack.pop(), []):
            found[child] = name
            stack.append(child)
    return found


def alive(pids: dict[int, str]) -> dict[int, str]:
    out = {}
    for pid, name in pids.items():
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out[pid] = name
    return out


def start_run(study: Path, out: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(run_command(study, out, *args), env=local_env(), start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_shards(driver: subprocess.Popen[str], out: Path, count: int) -> None:
    deadline = time.monotonic() + 120
    while len(list((out / "games").glob("*.parquet"))) < count:
        assert driver.poll() is None, driver.communicate()
        assert time.monotonic() < deadline, "no shard was written in time"
        time.sleep(0.02)


def test_a_killed_run_resumes_to_exactly_the_same_rows(reference, study_file, tmp_path):
    out = tmp_path / "run"
    driver = start_run(study_file, out, "--workers", "1")
    wait_for_shards(driver, out, 3)
    ray_processes = descendants(driver.pid)
    assert {"raylet", "gcs_server"} <= set(ray_processes.values())
    driver.kill()  # the driver alone, mid-run: its local Ray must not outlive it
    driver.communicate()
    deadline = time.monotonic() + 10
    while alive(ray_processes) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = alive(ray_processes)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"outlived the driver: {left}"
    done = sorted(p.name for p in (out / "games").glob("*.parquet"))
    assert 3 <= len(done) < SHARDS
    damaged = out / "card_events" / done[0]
    damaged.write_bytes(damaged.read_bytes()[: damaged.stat().st_size // 2])
    printed = tashkalar_run(study_file, out).stdout
    assert f"kept {len(done) - 1} from an earlier run" in printed
    assert_same_rows(reference[0], out)
    assert manifest(out)["sessions"][-1]["complete"]


def test_sigterm_stops_like_ctrl_c_and_the_run_resumes(reference, study_file, tmp_path):
    out = tmp_path / "run"
    driver = start_run(study_file, out, "--workers", "1")
    wait_for_shards(driver, out, 2)
    ray_processes = descendants(driver.pid)
    driver.terminate()
    _, stderr = driver.communicate(timeout=60)
    assert driver.returncode == 143 and "Traceback" not in stderr, stderr
    assert "terminated; finished shards are kept: rerun the same command to resume" in stderr
    deadline = time.monotonic() + 10
    while alive(ray_processes) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(ray_processes), "Ray processes outlived the run"
    session = manifest(out)["sessions"][-1]
    assert session["finished"] and not session["complete"] and session["shards_run"] >= 2
    assert f"kept {session['shards_run']} from an earlier run" in tashkalar_run(study_file, out).stdout
    assert_same_rows(reference[0], out)


def _ignoring_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a background job of a script inherits it


def _ray_started(driver: subprocess.Popen[str]) -> bool:
    return "raylet" in descendants(driver.pid).values()


# When the signal comes: at once (Python still importing), while local Ray starts, and mid-run.
MOMENTS = {"at once": lambda driver, out: time.sleep(0.2),
           "during Ray's start-up": lambda driver, out: _wait_until(lambda: _ray_started(driver)),
           "mid-run": lambda driver, out: wait_for_shards(driver, out, 1)}


def _wait_until(condition) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


@pytest.mark.parametrize("moment", sorted(MOMENTS))
@pytest.mark.parametrize(("signum", "status", "word"), [(signal.SIGINT, 130, "interrupted"),
                                                       (signal.SIGTERM, 143, "terminated")])
def test_a_signal_without_a_terminal_at_any_moment_stops_with_one_line(study_file, tmp_path, moment, signum,
                                                                       status, word):
    """Started without a terminal, SIGINT inherited ignored (a script's background job), the signal sent to
    the process group (as a shell or a scheduler does): exit 130 or 143, one line, what was written kept."""
    out = tmp_path / "run"
    driver = subprocess.Popen(run_command(study_file, out, "--workers", "1"), env=local_env(),
                              start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, preexec_fn=_ignoring_sigint)
    MOMENTS[moment](driver, out)
    os.killpg(driver.pid, signum)
    _, stderr = driver.communicate(timeout=60)
    assert driver.returncode == status and stderr.startswith(word), stderr
    assert len(stderr.strip().splitlines()) == 1, stderr
    if (out / "manifest.json").exists():
        session = manifest(out)["sessions"][-1]
        assert session["finished"] and not session["complete"]


HUGE = """
name = "huge"
forms = ["high-form", "deathmatch"]
deck_pairings = "all"
strategy_pairings = [["random", "random"]]
games_per_cell = 1_000_000_000_000
base_seed = 1
"""


def test_a_huge_study_starts_at_once_in_bounded_memory_and_stops_on_ctrl_c(tmp_path):
    study, out = tmp_path / "huge.toml", tmp_path / "run"
    study.write_text(HUGE)
    start = time.monotonic()
    driver = start_run(study, out, "--workers", "1")
    wait_for_shards(driver, out, 1)
    assert time.monotonic() - start < 120
    status = Path(f"/proc/{driver.pid}/status").read_text()
    peak_kb = int(next(line for line in status.splitlines() if line.startswith("VmHWM:")).split()[1])
    assert peak_kb < 600 * 1024, f"driver peak {peak_kb} kB"
    driver.send_signal(signal.SIGINT)
    _, stderr = driver.communicate(timeout=60)
    assert driver.returncode == 130 and "interrupted; finished shards are kept" in stderr
    info = manifest(out)
    assert info["games"] == 12 * 10**12 and 1 <= len(info["shard_status"]) == info["sessions"][-1]["shards_run"]


def test_a_worker_killed_mid_shard_is_retried_and_one_worker_gives_the_same_rows(reference, study_file,
                                                                                tmp_path):
    out, marker = tmp_path / "run", tmp_path / "crashed"
    printed = tashkalar_run(study_file, out, "--workers", "1",
                            env=local_env(TASHKALAR_TEST_CRASH=f"5:{marker}")).stdout
    assert marker.exists(), "the worker was not killed"
    assert "local Ray with 1 worker " in printed
    assert_same_rows(reference[0], out)
    ids = pq.read_table(out / "games" / "shard-00005.parquet").column("game_id").to_pylist()
    assert ids == list(range(125, 150))


def test_a_two_node_cluster_gives_the_same_rows(reference, study_file, tmp_path):
    out = tmp_path / "run"
    with two_node_cluster() as (address, env):
        printed = tashkalar_run(study_file, out, "--address", address, env=env).stdout
    assert f"Ray cluster {address} with 2 workers" in printed
    assert len({s["node"] for s in manifest(out)["shard_status"]}) == 1, "the second node played every shard"
    assert_same_rows(reference[0], out)


ABLATION_STUDY = """
name = "ablation-ray-test"
forms = ["deathmatch"]
deck_pairings = [["imperial", "highland"]]
strategy_pairings = [["random", "random"]]
games_per_cell = 50
base_seed = 21
shard_size = 25

[ablation]
cards = ["imperial/bomb", "flare/01"]
"""


def test_an_ablation_study_runs_resumes_and_reports_on_local_ray(tmp_path):
    study = tmp_path / "ablation.toml"
    study.write_text(ABLATION_STUDY)
    out = tmp_path / "run"
    tashkalar_run(study, out, "--workers", "2")
    arms = duckdb.sql(f"select variant, count(*), count(distinct seed) from '{out}/games/*.parquet' "
                      f"group by variant order by variant").fetchall()
    assert arms == [("", 50, 50), ("vanilla:flare/01", 50, 50), ("vanilla:imperial/bomb", 50, 50)]
    lost = sorted((out / "games").glob("*.parquet"))[-1]  # a shard of the last arm
    lost.unlink()
    assert "kept 5 from an earlier run" in tashkalar_run(study, out, "--workers", "2").stdout
    csv_dir = tmp_path / "csv"
    result = subprocess.run([str(BIN / "tashkalar"), "report", str(out), "--csv", str(csv_dir), "--no-html"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    rows = (csv_dir / "ablation.csv").read_text().splitlines()
    assert len(rows) == 1 + 1 + 2 and any("Bomb" in r for r in rows)  # a flare: per deck of the seat dealt it


MELEE_STUDY = """
name = "ray-melee"
forms = ["melee-3", "melee-4"]
deck_tables = [["imperial", "sylvan", "highland"], ["imperial", "sylvan", "highland", "imperial"]]
strategy_tables = [["random", "random", "random"], ["random", "random", "random", "random"]]
games_per_cell = 24
base_seed = 5
shard_size = 8
"""


def test_a_melee_study_gives_the_same_rows_on_one_or_two_workers_and_is_reported(tmp_path):
    study = tmp_path / "melee.toml"
    study.write_text(MELEE_STUDY)
    one, two = tmp_path / "one", tmp_path / "two"
    printed = tashkalar_run(study, two, "--workers", "2").stdout
    assert "melee-4|imperial-sylvan-highland-imperial|random-random-random-random" in printed
    tashkalar_run(study, one, "--workers", "1")
    assert_same_rows(two, one)
    seats = duckdb.sql(f"select count(*), count(distinct game_id) from '{two}/seat_results/*.parquet'").fetchall()[0]
    assert seats == (24 * 3 + 24 * 4, 48)
    csv_dir = tmp_path / "csv"
    result = subprocess.run([str(BIN / "tashkalar"), "report", str(two), "--csv", str(csv_dir), "--no-html"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    positions = (csv_dir / "melee_positions.csv").read_text().splitlines()
    assert len(positions) == 1 + 3 + 4


def test_an_address_that_answers_but_is_no_ray_cluster_fails_within_half_a_minute(study_file, tmp_path):
    with socket.socket() as server:  # accepts connections and says nothing, like a wrong service
        server.bind(("", 0))
        server.listen()
        address = f"127.0.0.1:{server.getsockname()[1]}"
        start = time.monotonic()
        result = subprocess.run(run_command(study_file, tmp_path / "run", "--address", address),
                                env=local_env(), capture_output=True, text=True, timeout=120)
    assert time.monotonic() - start < 45
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"error: --address {address}: cannot join the Ray cluster" in result.stderr
