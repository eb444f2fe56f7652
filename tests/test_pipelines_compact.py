"""Compaction of a finished run (pipelines/compact.py), without Ray: the same rows in a few files, the same
report, and resume, repair and damage handled as for shards; only full blocks are compacted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipelines import compact as compaction
from pipelines.compact import compact, counted_blocks, dataset_files
from pipelines.runner import Prepared, prepare
from pipelines.schema import SUMMED, TABLES
from pipelines.shard import play_shard
from pipelines.store import RunDir, check_recorded
from pipelines.study import Study, parse_study
from pipelines.summaries import resum
from sim.cli import app

CONFIG = {"forms": ["high-form", "deathmatch"], "deck_pairings": [["imperial", "sylvan"], ["highland", "highland"]],
          "strategy_pairings": [["random", "random"]], "games_per_cell": 6, "base_seed": 3, "shard_size": 4}
BLOCK = 3  # shards per block here: 24 games in 6 shards make blocks 0-2 and 3-5


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compaction, "BLOCK_GAMES", BLOCK * CONFIG["shard_size"])


def fill(study: Study, out: Path) -> Prepared:
    prepared = prepare(study, out, force=False)
    for i in list(prepared.pending()):
        output = play_shard(prepared.job, i)
        prepared.record(i, output.files, output.rows)
    prepared.save()
    return prepared


def run_compact(prepared: Prepared, study: Study) -> int:
    return compact(prepared.run, prepared.manifest, prepared.done, prepared.job.dataset_id, study.shard_size,
                   prepared.save, prepared.sync, threads=2)


def tables(out: Path) -> dict[str, pa.Table]:
    return {name: pa.concat_tables([pq.read_table(f).replace_schema_metadata(None)
                                    for f in dataset_files(out / name, counted_blocks(out))]) for name in TABLES}


def files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.glob("*/*.parquet"))}


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Study, Path, Path]:
    """The same study written twice: ``plain`` as its shards, ``packed`` compacted."""
    study = parse_study(CONFIG, tmp_path / "study.toml")
    plain, packed = tmp_path / "plain", tmp_path / "packed"
    fill(study, plain)
    shutil.copytree(plain, packed)
    assert run_compact(prepare(study, packed, force=False), study) == 2
    return study, plain, packed


def test_a_compacted_run_holds_the_same_rows_in_a_file_per_table_and_block(runs) -> None:
    study, plain, packed = runs
    assert sorted(p.name for p in (packed / "games").iterdir()) == ["shards-00000-00002.parquet",
                                                                    "shards-00003-00005.parquet"]
    assert sorted(p.name for p in packed.glob("*/*.parquet")) == sorted(
        ["shards-00000-00002.parquet", "shards-00003-00005.parquet"] * len(TABLES))
    before, after = tables(plain), tables(packed)
    for name in TABLES:
        if name not in SUMMED:
            assert after[name].equals(before[name]), name
    for name in SUMMED:  # sums: summed again over each block
        shards = [pq.read_table(f) for f in sorted((plain / name).iterdir())]
        assert after[name].equals(pa.concat_tables([resum(name, shards[:3]), resum(name, shards[3:])])), name
        assert after[name].num_rows < before[name].num_rows, name
    manifest = json.loads((packed / "manifest.json").read_text())
    assert [(b["first"], b["last"], b["games"]) for b in manifest["compacted"]] == [(0, 2, 12), (3, 5, 12)]
    assert all("block" in s and "sha256" not in s for s in manifest["shard_status"])
    assert check_recorded(packed) == []


def test_a_compacted_run_gives_the_same_report(runs, tmp_path: Path) -> None:
    _, plain, packed = runs
    for run in (plain, packed):
        result = CliRunner().invoke(app, ["report", str(run), "--csv", str(tmp_path / run.name), "--no-html",
                                          "--md", str(tmp_path / f"{run.name}.md")])
        assert result.exit_code == 0, result.output
    csv = sorted(p.name for p in (tmp_path / "plain").glob("*.csv") if p.name != "runs.csv")
    assert "beings.csv" in csv
    for name in csv:
        assert (tmp_path / "packed" / name).read_text() == (tmp_path / "plain" / name).read_text(), name


def test_a_resume_keeps_the_blocks_and_drops_shard_files_left_behind(runs) -> None:
    study, plain, packed = runs
    compacted = files(packed)
    shutil.copy(plain / "points" / "shard-00001.parquet", packed / "points")  # a deletion cut short
    shutil.copy(plain / "games" / "shard-00001.parquet", packed / "games")
    assert dataset_files(packed / "games", counted_blocks(packed))[0].name == "shards-00000-00002.parquet"
    prepared = prepare(study, packed, force=False)
    assert list(prepared.pending()) == [] and files(packed) == compacted
    assert run_compact(prepared, study) == 0


def test_a_damaged_block_is_played_again_and_compacted_to_the_same_bytes(runs) -> None:
    study, _, packed = runs
    compacted = files(packed)
    block = packed / "card_events" / "shards-00003-00005.parquet"
    data = bytearray(block.read_bytes())
    data[len(data) // 2] ^= 0xFF
    block.write_bytes(bytes(data))
    with pytest.raises(Exception, match="damaged"):
        check_recorded(packed)
    assert list(prepare(study, packed, force=False).pending()) == [3, 4, 5]
    assert not (packed / "games" / "shards-00003-00005.parquet").exists()
    prepared = fill(study, packed)
    assert run_compact(prepared, study) == 1 and files(packed) == compacted


def test_repair_rebuilds_the_manifest_from_the_blocks(runs) -> None:
    study, _, packed = runs
    compacted = files(packed)
    (packed / "manifest.json").write_text('{"format": 1, "data')
    prepared = prepare(study, packed, force=False, repair=True)
    assert list(prepared.pending()) == [] and files(packed) == compacted
    assert [(b["first"], b["last"]) for b in prepared.manifest["compacted"]] == [(0, 2), (3, 5)]
    assert check_recorded(packed) == []


def test_a_block_counts_for_readers_only_once_its_games_file_is_written(runs) -> None:
    _, plain, packed = runs
    half = plain.parent / "half"
    shutil.copytree(plain, half)
    shutil.copy(packed / "card_events" / "shards-00000-00002.parquet", half / "card_events")
    assert [p.name for p in dataset_files(half / "card_events", counted_blocks(half))][:1] == ["shard-00000.parquet"]
    shutil.copy(packed / "games" / "shards-00000-00002.parquet", half / "games")
    names = [p.name for p in dataset_files(half / "card_events", counted_blocks(half))]
    assert names == ["shard-00003.parquet", "shard-00004.parquet", "shard-00005.parquet",
                     "shards-00000-00002.parquet"]


def test_a_blocks_games_file_is_written_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    study = parse_study(CONFIG, tmp_path / "study.toml")
    prepared = fill(study, tmp_path / "run")
    renamed: list[str] = []
    real_replace = compaction.os.replace
    def replace(src: Path, dst: Path) -> None:
        if Path(dst).suffix == ".parquet":
            renamed.append(Path(dst).parent.name)
        real_replace(src, dst)

    monkeypatch.setattr(compaction.os, "replace", replace)
    assert run_compact(prepared, study) == 2
    assert len(renamed) == 2 * len(TABLES) and renamed[len(TABLES) - 1] == "games" and renamed[-1] == "games"
    assert not RunDir(tmp_path / "run", study.shard_count).shards_on_disk()


def test_only_full_blocks_are_compacted(tmp_path: Path) -> None:
    """A last block with fewer games than a block stays as its shards (so does every run smaller than a block)."""
    study = parse_study(CONFIG | {"shard_size": 5}, tmp_path / "study.toml")  # 24 games: 4 shards of 5, one of 4
    assert compaction.block_ranges(study.total_games, study.shard_size) == [(0, 1), (2, 3)]  # blocks of 12 games
    prepared = fill(study, tmp_path / "run")
    assert run_compact(prepared, study) == 2
    assert sorted(p.name for p in (tmp_path / "run" / "games").iterdir()) == [
        "shard-00004.parquet", "shards-00000-00001.parquet", "shards-00002-00003.parquet"]
    assert compaction.block_ranges(11, 4) == [] and compaction.block_ranges(23, 4) == [(0, 2)]
