"""Shards, the run directory and the manifest, without Ray: determinism, verification, resume decisions."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipelines import cardfiles
from pipelines.manifest import read_manifest, write_manifest
from pipelines.runner import prepare
from pipelines.schema import TABLES
from pipelines.shard import ShardJob, play_shard
from pipelines.store import RunDir
from pipelines.study import Study, game_seed, parse_study
from sim.cards import BUILTIN_DIR
from sim.cli import app
from sim.errors import UserError

CONFIG = {
    "forms": ["high-form", "deathmatch"],
    "deck_pairings": [["imperial", "sylvan"]],
    "strategy_pairings": [["random", "random"]],
    "games_per_cell": 6,
    "base_seed": 3,
    "shard_size": 5,
}


def make_study(where: Path, **changes: object) -> Study:
    return parse_study(CONFIG | changes, where / "study.toml")


def fill(study: Study, out: Path) -> list[int]:
    """Play and write the pending shards in-process, as the Ray driver would; returns the ones played."""
    prepared = prepare(study, out, force=False)
    pending = list(prepared.pending())
    for i in pending:
        output = play_shard(prepared.job, i)
        prepared.record(i, output.files, output.rows)
    prepared.save()
    return pending


def pending(study: Study, out: Path, force: bool = False) -> list[int]:
    return list(prepare(study, out, force=force).pending())


def snapshot(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.glob("*/*.parquet"))}


def test_a_shard_is_a_pure_function_of_config_and_index(tmp_path):
    study = make_study(tmp_path)
    job = ShardJob(study.to_config(), cardfiles.pack(None), "d1")
    later = play_shard(job, 1)
    first = play_shard(job, 0)
    again = play_shard(ShardJob(study.to_config(), cardfiles.pack(None), "d1"), 1)
    assert later.files == again.files and first.files != later.files
    games = pq.read_table(pa.BufferReader(first.files["games"])).to_pydict()
    assert games["game_id"] == [0, 1, 2, 3, 4]
    assert games["seed"] == [game_seed(3, i) for i in range(5)]
    assert games["deck_0"] == ["imperial", "sylvan"] * 2 + ["imperial"]
    events = pq.read_table(pa.BufferReader(first.files["card_events"])).column("game_id").to_pylist()
    assert events == sorted(events) and set(events) == set(range(5))
    assert first.rows["games"] == 5 and first.rows["card_events"] == len(events)


def test_player_labels_fill_the_strategy_columns(tmp_path):
    study = make_study(tmp_path, players={"r1": {"strategy": "random"}}, strategy_pairings=[["r1", "random"]])
    out = play_shard(ShardJob(study.to_config(), cardfiles.pack(None), "d"), 0)
    games = pq.read_table(pa.BufferReader(out.files["games"])).to_pydict()
    assert games["strategy_0"][:2] == ["r1", "random"] and games["strategy_1"][:2] == ["random", "r1"]
    assert games["cell"][0] == "high-form|imperial-sylvan|r1-random"


def test_an_edited_card_set_travels_as_files_and_is_checked(tmp_path):
    cards = tmp_path / "cards"
    shutil.copytree(BUILTIN_DIR, cards)
    text = (cards / "imperial.toml").read_text()
    (cards / "imperial.toml").write_text(text.replace('name = "Swordmaster"', 'name = "Blademaster"', 1))
    payload = cardfiles.pack(str(cards))
    assert payload.files is not None and "imperial.toml" in payload.files
    assert payload.fingerprint != cardfiles.pack(None).fingerprint
    assert cardfiles.unpack(payload).by_id["imperial/swordmaster"].name == "Blademaster"
    forged = cardfiles.CardSetPayload(cardfiles.pack(None).fingerprint, payload.files)
    with pytest.raises(cardfiles.CardSetMismatch):
        cardfiles.unpack(forged)


def test_a_complete_run_is_kept_and_every_damaged_shard_is_found(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    assert fill(study, out) == [0, 1, 2]
    clean = snapshot(out)
    run = RunDir(out, study.shard_count)
    assert pending(study, out) == []
    run.shard_path("games", 0).write_bytes(run.shard_path("games", 0).read_bytes()[:-40])  # truncated
    damaged = bytearray(run.shard_path("card_events", 1).read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF  # one flipped byte inside a data page
    run.shard_path("card_events", 1).write_bytes(bytes(damaged))
    run.shard_path("points", 2).unlink()  # a missing table file
    (out / "games" / "shard-00002.parquet.tmp").write_bytes(b"partial")
    assert pending(study, out) == [0, 1, 2]
    assert not list(out.glob("*/*.tmp")) and not list(out.glob("*/shard-00001.parquet"))
    assert fill(study, out) == [0, 1, 2] and snapshot(out) == clean


def test_files_of_another_dataset_are_not_kept(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    other = make_study(tmp_path, base_seed=4)
    foreign = play_shard(ShardJob(other.to_config(), cardfiles.pack(None), "someone-else"), 1)
    RunDir(out, study.shard_count).write_shard(1, foreign.files)
    assert pending(study, out) == [1]


def test_files_must_match_the_checksums_the_manifest_recorded(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert all(len(s["sha256"]) == len(TABLES) for s in manifest["shard_status"])
    manifest["shard_status"][1]["sha256"]["points"] = "0" * 64
    write_manifest(out / "manifest.json", manifest)
    assert pending(study, out) == [1]


def test_an_old_manifest_without_checksums_checks_row_counts_then_records_checksums(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    manifest = json.loads((out / "manifest.json").read_text())
    for entry in manifest["shard_status"]:
        del entry["sha256"]
    manifest["shard_status"][2]["rows"]["card_events"] += 1
    write_manifest(out / "manifest.json", manifest)
    assert pending(study, out) == [2]
    assert all("sha256" in s for s in json.loads((out / "manifest.json").read_text())["shard_status"])


def test_the_manifest_lists_only_the_shards_done(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    prepared = prepare(study, out, force=False)
    prepared.record(1, play_shard(prepared.job, 1).files, {})
    prepared.save()
    assert [s["shard"] for s in json.loads((out / "manifest.json").read_text())["shard_status"]] == [1]
    assert pending(study, out) == [0, 2]


def test_a_different_study_is_refused_unless_forced(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    changed = make_study(tmp_path, games_per_cell=8, base_seed=9, name="renamed")
    with pytest.raises(UserError, match=r"differs in: base_seed, games_per_cell\)"):
        prepare(changed, out, force=False)
    renamed = make_study(tmp_path, name="renamed")
    assert pending(renamed, out) == []  # a new name is no new dataset
    for name in ("report.html", "report.md", "regression.md"):
        (out / name).write_text("of the old study")
    (out / "csv").mkdir()
    (out / "csv" / "cards.csv").write_text("old")
    assert pending(changed, out, force=True) == [0, 1, 2, 3]
    assert not list(out.glob("*/*.parquet"))
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json"]  # its reports went too


def test_a_changed_card_is_named_when_refusing(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    cards = tmp_path / "cards"
    shutil.copytree(BUILTIN_DIR, cards)
    text = (cards / "sylvan.toml").read_text()
    (cards / "sylvan.toml").write_text(text.replace('rank = "common"', 'rank = "heroic"', 1))
    with pytest.raises(UserError, match=r"cards \(sylvan/"):
        prepare(make_study(tmp_path, card_set="cards"), out, force=False)


def test_a_directory_that_is_not_a_run_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="not a run directory"):
        prepare(make_study(tmp_path), tmp_path, force=False)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "manifest.json").write_text("{")
    with pytest.raises(UserError, match="unreadable manifest"):
        prepare(make_study(tmp_path), tmp_path / "run", force=False)


def test_the_manifest_records_config_cards_code_and_status(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    manifest = read_manifest(out / "manifest.json")
    assert manifest is not None
    assert manifest["config"] == study.to_config() and manifest["games"] == 12 and manifest["shards"] == 3
    assert manifest["card_set"]["fingerprint"] == study.load_cards().fingerprint()
    assert manifest["card_set"]["cards"]["imperial/swordmaster"] == study.load_cards().fingerprints[
        "imperial/swordmaster"]
    assert manifest["code_version"]["package"]
    assert [s["status"] for s in manifest["shard_status"]] == ["done"] * 3
    assert manifest["shard_status"][2]["rows"]["games"] == 2
    assert manifest["tables"] == list(TABLES)


def test_one_run_at_a_time_per_directory(tmp_path):
    run = RunDir(tmp_path, 1)
    with run.lock(), pytest.raises(UserError, match="another run"), RunDir(tmp_path, 1).lock():
        pass


def test_the_command_reports_config_and_directory_mistakes_without_starting_ray(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    bad = tmp_path / "bad.toml"
    bad.write_text('forms = ["high-form"]\ndeck_pairings = "all"\n'
                   'strategy_pairings = [["random", "random"]]\ngames_per_cell = 3\nbase_seed = 1\n')
    result = CliRunner().invoke(app, ["run", str(bad), "--out", str(tmp_path / "other")])
    assert result.exit_code == 2 and result.stderr.startswith("error: ")
    assert "games_per_cell: expected an even number" in result.stderr
    changed = tmp_path / "changed.toml"
    changed.write_text(bad.read_text().replace("games_per_cell = 3", "games_per_cell = 4"))
    result = CliRunner().invoke(app, ["run", str(changed), "--out", str(out)])
    assert result.exit_code == 2 and "holds a run of a different study" in result.stderr
    assert "ray" not in sys.modules or not sys.modules["ray"].is_initialized()


def _report(*args: object):
    return CliRunner().invoke(app, ["report", *(str(a) for a in args)])


def _flip_a_byte_in_column(file: Path, column: str) -> None:
    meta = pq.read_metadata(file)
    index = meta.schema.to_arrow_schema().names.index(column)
    chunk = meta.row_group(0).column(index)
    data = bytearray(file.read_bytes())
    start = chunk.dictionary_page_offset if chunk.has_dictionary_page else chunk.data_page_offset
    data[start + chunk.total_compressed_size - 2] ^= 0xFF  # in the chunk's last page
    file.write_bytes(bytes(data))


def test_a_report_refuses_a_file_damaged_where_its_queries_do_not_read(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    games = RunDir(out, study.shard_count).shard_path("games", 1)
    _flip_a_byte_in_column(games, "seed")  # no report query reads the seed
    result = _report(out, "--md", tmp_path / "r.md")
    assert result.exit_code == 2 and result.stderr.startswith("error: ") and "Traceback" not in result.output
    assert str(games) in result.stderr and "damaged" in result.stderr
    assert not (tmp_path / "r.md").exists()
    assert pending(study, out) == [1]  # and a resume runs that shard again


def test_a_report_over_an_old_manifest_checks_row_counts_with_a_warning(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    manifest = json.loads((out / "manifest.json").read_text())
    for entry in manifest["shard_status"]:
        del entry["sha256"]
    write_manifest(out / "manifest.json", manifest)
    result = _report(out, "--md", tmp_path / "r.md")
    assert result.exit_code == 0, result.output
    assert "warning: " in result.stderr and "only row counts were checked" in result.stderr
    manifest["shard_status"][0]["rows"]["games"] += 1
    write_manifest(out / "manifest.json", manifest)
    result = _report(out, "--md", tmp_path / "r.md")
    assert result.exit_code == 2 and "row count" in result.stderr


def test_a_report_that_cannot_be_written_is_a_clear_error(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    blocker = tmp_path / "file"
    blocker.write_text("mine")
    for args, message in ((["--out", blocker / "report.html"], f"--out: cannot write {blocker / 'report.html'}"),
                          (["--md", tmp_path], f"--md: {tmp_path} is a directory"),
                          (["--csv", blocker], f"--csv: {blocker} is a file")):
        result = _report(out, *args)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(f"error: {message}") and "Traceback" not in result.output
    assert blocker.read_text() == "mine"


def test_preparing_a_huge_study_costs_no_more_than_a_small_one(tmp_path):
    import time
    import tracemalloc

    huge = make_study(tmp_path, games_per_cell=10**12)  # 2 * 10**12 games, 4 * 10**11 shards
    tracemalloc.start()
    start = time.perf_counter()
    prepared = prepare(huge, tmp_path / "run", force=False)
    shards = prepared.pending()
    first = [next(shards) for _ in range(3)]
    seconds, (_, peak) = time.perf_counter() - start, tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert first == [0, 1, 2] and seconds < 10 and peak < 50 * 2**20
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["shards"] == 4 * 10**11 and manifest["shard_status"] == []


def test_a_shards_games_file_is_written_last(tmp_path, monkeypatch):
    """A game row must never be on disk without its events: the games file of a shard gets its final name
    after every other table's file (a crash in between leaves a shard without games, redone on resume)."""
    import pipelines.store as store

    study, out = make_study(tmp_path), tmp_path / "run"
    output = play_shard(ShardJob(study.to_config(), cardfiles.pack(None), "d"), 0)
    renamed: list[str] = []
    real_replace = store.os.replace
    monkeypatch.setattr(store.os, "replace", lambda src, dst: (renamed.append(Path(dst).parent.name),
                                                               real_replace(src, dst)))
    RunDir(out, study.shard_count).write_shard(0, output.files)
    assert sorted(renamed) == sorted(TABLES) and renamed[-1] == "games"


def test_a_damaged_manifest_is_rebuilt_by_repair_keeping_every_intact_shard(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    before = snapshot(out)
    (out / "manifest.json").write_text('{"format": 1, "dataset')  # cut short by a crash
    with pytest.raises(UserError, match="--repair"):
        pending(study, out)
    shard = RunDir(out, study.shard_count).shard_path("card_events", 1)
    shard.write_bytes(shard.read_bytes()[:-40])  # and one shard damaged as well
    prepared = prepare(study, out, force=False, repair=True)
    assert sorted(prepared.done) == [i for i in range(study.shard_count) if i != 1]
    assert list(prepared.pending()) == [1]
    assert (out / "manifest.json.damaged").exists() and read_manifest(out / "manifest.json")["shard_status"]
    assert {k: v for k, v in snapshot(out).items() if "shard-00001" not in k} == {
        k: v for k, v in before.items() if "shard-00001" not in k}
    fill(study, out)
    assert snapshot(out) == before  # the repaired run, resumed, is the uninterrupted one


def test_repair_refuses_shards_of_another_study_and_deletes_nothing(tmp_path):
    study, out = make_study(tmp_path), tmp_path / "run"
    fill(study, out)
    (out / "manifest.json").write_text("garbage")
    before = snapshot(out)
    with pytest.raises(UserError, match="holds shards of another dataset"):
        prepare(make_study(tmp_path, base_seed=4), out, force=False, repair=True)
    assert snapshot(out) == before and (out / "manifest.json").read_text() == "garbage"


def test_a_full_disk_names_the_file_it_could_not_write(tmp_path, monkeypatch):
    import errno

    study, out = make_study(tmp_path), tmp_path / "run"
    output = play_shard(ShardJob(study.to_config(), cardfiles.pack(None), "d"), 0)

    def full(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(OSError) as e:
        RunDir(out, study.shard_count).write_shard(0, output.files)
    assert e.value.strerror == "No space left on device" and e.value.filename.endswith(".parquet")


def test_a_ray_that_cannot_start_is_one_line(tmp_path, monkeypatch):
    import ray

    from pipelines.runner import StudyRunError, run_study

    def timed_out(**kwargs):
        raise Exception("The current node timed out during startup. This could happen because some of the "
                        "raylet failed to startup or the GCS has become overloaded.\nmore lines")

    monkeypatch.setattr(ray, "init", timed_out)
    with pytest.raises(StudyRunError) as e:
        run_study(make_study(tmp_path), tmp_path / "run", show_progress=False)
    assert str(e.value).startswith("Ray did not start: The current node timed out") and "\n" not in str(e.value)
