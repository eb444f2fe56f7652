"""``tashkalar report`` on unusable datasets: a clear message, exit status 2, no traceback."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipelines.schema import SCHEMA_VERSION, TABLES
from sim.cli import app
from tests.test_reports import make_run


@pytest.fixture(scope="module")
def good_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_run(tmp_path_factory.mktemp("runs") / "good", games=18, seed=3, shards=1)


def _copy(good: Path, tmp: Path) -> Path:
    return Path(shutil.copytree(good, tmp / "run"))


def _empty_games(run: Path) -> None:
    pq.write_table(pa.Table.from_pylist([], schema=TABLES["games"]), run / "games" / "part-0.parquet")


def _corrupt_events(run: Path) -> None:
    (run / "card_events" / "part-0.parquet").write_bytes(b"PAR1 this is not a parquet file")


def _truncated_events(run: Path) -> None:
    f = run / "card_events" / "part-0.parquet"
    f.write_bytes(f.read_bytes()[:-100])


def _scrambled_pages(run: Path) -> None:
    """Data pages overwritten, the footer intact: only reading the data finds out (seat_cards: the card
    events are read only for ablation arms, and a run's manifest checksums cover them)."""
    f = run / "seat_cards" / "part-0.parquet"
    data = bytearray(f.read_bytes())
    footer = int.from_bytes(data[-8:-4], "little") + 8  # the metadata, its length and the closing magic
    for i in range(4, len(data) - footer, 7):
        data[i] = (data[i] * 31 + 17) % 256
    f.write_bytes(bytes(data))


def _missing_table(run: Path) -> None:
    shutil.rmtree(run / "task_events")


def _other_schema(run: Path) -> None:
    pq.write_table(pa.table({"game_id": [1, 2]}), run / "games" / "part-0.parquet")


def _bad_manifest(run: Path) -> None:
    (run / "manifest.json").write_text("{not json")


@pytest.mark.parametrize(("damage", "message"), [
    (_empty_games, "the dataset holds no games"),
    (_corrupt_events, "part-0.parquet: not a readable Parquet file"),
    (_truncated_events, "part-0.parquet: not a readable Parquet file"),
    (_scrambled_pages, "could not read the data (a damaged Parquet file?)"),
    (_missing_table, "no Parquet files in task_events/"),
    (_other_schema, f"not a games table of schema version {SCHEMA_VERSION} (missing columns: cell, seed"),
    (_bad_manifest, "manifest.json: not readable JSON"),
])
def test_unusable_run_is_refused_clearly(good_run: Path, tmp_path: Path, damage: Callable[[Path], None],
                                         message: str) -> None:
    run = _copy(good_run, tmp_path)
    damage(run)
    result = CliRunner().invoke(app, ["report", str(run), "--out", str(tmp_path / "r.html")])
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "r.html").exists()


def test_missing_run_directory_exits_2_without_traceback(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-run"
    command = [sys.executable, "-c", "from sim.cli import app; app()", "report", str(missing)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert f"error: {missing}: no such run directory" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_the_same_run_twice_is_refused(good_run: Path, tmp_path: Path) -> None:
    args = ["report", str(good_run), str(good_run), "--out", str(tmp_path / "r.html")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "given twice" in result.output


def test_report_command_writes_every_output(good_run: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", str(good_run), "--out", str(tmp_path / "r.html"),
                                      "--md", str(tmp_path / "r.md"), "--csv", str(tmp_path / "csv")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "r.html").stat().st_size > 10_000
    assert (tmp_path / "r.md").read_text().startswith("# Balance report: good")
    assert (tmp_path / "csv" / "beings.csv").exists() and (tmp_path / "csv" / "summary.txt").exists()
    assert "18 games" in result.output


@pytest.mark.parametrize(("option", "kind", "message"), [
    ("--out", "folder", "--out: {path} is a directory, expected a file name"),
    ("--md", "folder", "--md: {path} is a directory, expected a file name"),
    ("--csv", "file", "--csv: {path} is a file, expected a directory"),
])
def test_an_output_that_cannot_be_written_is_refused_before_the_report(good_run: Path, tmp_path: Path, option: str,
                                                                       kind: str, message: str) -> None:
    path = tmp_path / "taken"
    path.mkdir() if kind == "folder" else path.write_text("x")
    result = CliRunner().invoke(app, ["report", str(good_run), option, str(path)])
    assert result.exit_code == 2 and result.stderr == f"error: {message.format(path=path)}\n", result.output
    assert "wrote" not in result.stdout  # refused before any work: nothing else was written
