"""What ``tashkalar report`` accepts as input: runs pooled only when each game counts once and the runs'
conditions agree (or the mix is asked for and stated), and runs of every schema version it reads.

The runs are real: played by the shard code (builder players), with the runner's own manifest."""

from __future__ import annotations

import csv
import json
import shutil
from importlib import metadata
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipelines.manifest import dataset_id, new_manifest, write_manifest
from pipelines.schema import SCHEMA_VERSION
from pipelines.store import RunDir, check_recorded
from pipelines.study import parse_study
from reports.calibration import planted_card_set, run_local
from reports.dataset import find_run
from reports.pooling import ALLOW_MIXED_FLAG
from reports.regression.compare import Thresholds, compare_runs
from sim.cli import app
from sim.errors import UserError

SCHEMA1_RUN = Path(__file__).parent / "fixtures" / "schema1-run"
# A run as schema 5 wrote it (no seat_cards): `tashkalar run` of a 8-game random study, made by the code
# just before version 6 and kept in git.
SCHEMA5_RUN = Path(__file__).parent / "fixtures" / "schema5-run"
# A run as schema 6 wrote it (seat_cards a row per seat of a game and card): `tashkalar run` of a 8-game random
# study, made by the code just before version 7 and kept in git.
SCHEMA6_RUN = Path(__file__).parent / "fixtures" / "schema6-run"


def _config(**extra: Any) -> dict[str, Any]:
    return {"name": "pool", "forms": ["high-form"], "deck_pairings": [["imperial", "highland"]],
            "strategy_pairings": [["builder", "builder"]], "games_per_cell": 20, "base_seed": 1,
            "shard_size": 10} | extra


def real_run(path: Path, **extra: Any) -> Path:
    """A run of the study as `tashkalar run` leaves it: the shards' files and a manifest recording them."""
    study = parse_study(_config(**extra), path.with_suffix(".toml"))
    run_local(study, path)
    cards = study.load_cards()
    manifest = new_manifest(study, cards, dataset_id(study, cards.fingerprint()))
    manifest["sessions"] = [{"code_version": manifest["code_version"], "shards_run": study.shard_count}]
    store = RunDir(path, study.shard_count)
    done = {shard: {"shard": shard, "games": len(study.shard_games(shard)), "status": "done",
                    "rows": store.row_counts(shard), "sha256": store.checksums(shard)}
            for shard in range(study.shard_count)}
    write_manifest(store.manifest_path, manifest, done)
    return path


def _edit_manifest(run: Path, edit: Any) -> None:
    manifest = json.loads((run / "manifest.json").read_text())
    edit(manifest)
    (run / "manifest.json").write_text(json.dumps(manifest))


def report(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["report", *map(str, args)])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("runs")


@pytest.fixture(scope="module")
def base(runs: Path) -> Path:
    return real_run(runs / "base")


def _refused(code: int, output: str, message: str) -> None:
    assert code == 2, output
    assert output == f"error: {message}\n"


# Each game once.


def test_a_copied_run_is_refused(base: Path, tmp_path: Path) -> None:
    copy = Path(shutil.copytree(base, tmp_path / "copy"))
    ident = json.loads((base / "manifest.json").read_text())["dataset_id"]
    _refused(*report(base, copy, "--md", tmp_path / "r.md"),
             f"{base} and {copy}: the same dataset (id {ident}), a copy of one run or one study run twice on one "
             "seed; its games would count twice; report one of them")
    assert not (tmp_path / "r.md").exists()


def test_the_same_games_in_a_run_of_another_size_are_refused(base: Path, runs: Path, tmp_path: Path) -> None:
    """A study of 40 games per cell on the same base seed holds the 20 games of ``base`` (ids 0-19): another
    dataset id, the same games."""
    bigger = real_run(runs / "bigger", games_per_cell=40)
    _refused(*report(base, bigger, "--md", tmp_path / "r.md", ALLOW_MIXED_FLAG),
             f"{base} and {bigger}: 20 games are in both (the same seed, study cell and arm, e.g. game 0: two runs "
             "of one study on one base seed), so the same deals would count twice; report one of them, give one "
             "study another base_seed, or compare them with `tashkalar regress`")


def test_runs_of_one_study_on_other_seeds_pool(base: Path, runs: Path, tmp_path: Path) -> None:
    other = real_run(runs / "seed2", base_seed=2)
    code, output = report(base, other, "--md", tmp_path / "r.md", "--csv", tmp_path / "csv")
    assert code == 0, output
    assert "40 games in" in output
    md = (tmp_path / "r.md").read_text()
    assert "**Games:** 40" in md and "Pooled runs differ" not in md
    with (tmp_path / "csv" / "runs.csv").open(newline="") as f:
        assert [int(r["games"]) for r in csv.DictReader(f)] == [20, 20]


def test_regress_still_compares_a_run_with_its_copy(base: Path, tmp_path: Path) -> None:
    """``regress`` pairs runs on shared seeds on purpose: the pooling check is the report's alone."""
    copy = shutil.copytree(base, tmp_path / "copy")
    result = compare_runs(base, copy, Thresholds())
    assert result.paired and not result.moved


# Mixed conditions.


def test_runs_of_different_card_sets_are_refused_then_pooled_on_request(base: Path, runs: Path,
                                                                       tmp_path: Path) -> None:
    planted = real_run(runs / "planted", base_seed=3, card_set=str(planted_card_set(tmp_path / "cards")))
    fingerprints = [find_run(r, 0).manifest["card_set"]["fingerprint"] for r in (base, planted)]
    _refused(*report(base, planted, "--md", tmp_path / "r.md"),
             f"{base}, {planted}: runs of different card sets, which one report would mix in its estimates (card "
             f"sets ({base}: {fingerprints[0]}; {planted}: {fingerprints[1]})); report them apart, compare two of "
             f"them with `tashkalar regress`, or pass {ALLOW_MIXED_FLAG} to pool them (the report then says so)")

    code, output = report(base, planted, "--md", tmp_path / "r.md", "--csv", tmp_path / "csv", "--out",
                          tmp_path / "r.html", ALLOW_MIXED_FLAG)
    assert code == 0, output
    assert "<dt>Pooled runs differ</dt><dd>card sets (" in (tmp_path / "r.html").read_text()
    headline = (f"These runs differ in their card sets and are pooled ({ALLOW_MIXED_FLAG}): every figure over "
                "more than one run mixes them (the header says how they differ).")
    assert f"- {headline}" in output
    md = (tmp_path / "r.md").read_text()
    assert f"**Pooled runs differ:** card sets ({base}: {fingerprints[0]}; {planted}: {fingerprints[1]})" in md
    assert md.split("## What stands out\n\n", 1)[1].startswith(f"- {headline}")
    assert (tmp_path / "csv" / "summary.txt").read_text().startswith(headline)


def test_runs_of_different_code_are_refused(base: Path, tmp_path: Path) -> None:
    later = real_run(tmp_path / "later", base_seed=4)

    def other_code(manifest: dict) -> None:  # as if the Python that plays had changed in between
        for session in manifest["sessions"]:
            session["code_version"]["python_source"] = "0123456789abcdef"

    _edit_manifest(later, other_code)
    code, output = report(base, later, "--md", tmp_path / "r.md")
    assert code == 2 and output.count("\n") == 1, output
    assert output.startswith(f"error: {base}, {later}: runs of different code versions, which one report would mix")
    assert f"{later}: python 0123456789ab, core" in output
    assert report(base, later, "--md", tmp_path / "r.md", ALLOW_MIXED_FLAG)[0] == 0


def test_one_label_for_two_players_is_refused(base: Path, tmp_path: Path) -> None:
    tuned = real_run(tmp_path / "tuned", base_seed=5)

    def other_params(manifest: dict) -> None:
        manifest["config"]["players"]["builder"]["params"] = {"depth": 2}

    _edit_manifest(tuned, other_params)
    code, output = report(base, tuned, "--md", tmp_path / "r.md")
    assert code == 2 and output.count("\n") == 1, output
    assert ("runs of different players under one label, which one report would mix in its estimates (players "
            "under one label (builder: ") in output
    assert f'{{"params": {{"depth": 2}}, "strategy": "builder"}} in {tuned}' in output


def test_strength_levels_from_separate_runs_pool(runs: Path, tmp_path: Path) -> None:
    """Two players, one run each, on one base seed: their games differ (other cells), the report keeps the
    players apart, so nothing is mixed and nothing counts twice."""
    levels = [real_run(runs / label, strategy_pairings=[[label, label]],
                       players={label: {"strategy": "builder"}}) for label in ("builder.a", "builder.b")]
    code, output = report(*levels, "--md", tmp_path / "r.md")
    assert code == 0, output
    assert "40 games in" in output
    assert "Across strength levels" in (tmp_path / "r.md").read_text()


# Schema versions.


def _downgrade(run: Path, out: Path, version: int) -> Path:
    """``run`` as schema ``version`` wrote it, from the history in docs/dataset.md (written out here, not taken
    from reports.legacy): each later version's columns and tables removed, the manifest saying the version."""
    dropped_tables = {3: ["pass_control"], 2: ["seat_results", "colour_points"], 1: ["deck_order"]}
    dropped_columns = {3: {"games": ["teams"], "seat_results": ["team"]},
                       2: {"games": ["players"], "flare_events": ["against"], "points": ["colour"]},
                       1: {"games": ["variant", "variant_seat"]}}
    shutil.copytree(run, out)
    for older in range(SCHEMA_VERSION - 1, version - 1, -1):
        for table in dropped_tables.get(older, []):
            shutil.rmtree(out / table)
        for table, columns in dropped_columns.get(older, {}).items():
            if (out / table).is_dir():
                for f in (out / table).glob("*.parquet"):
                    data = pq.read_table(f)
                    pq.write_table(data.drop_columns(columns), f)
    manifest = json.loads((out / "manifest.json").read_text())
    tables = [t for t in manifest["tables"] if (out / t).is_dir()]
    for entry in manifest["shard_status"]:  # the checksums of the rewritten files are not those recorded
        entry.pop("sha256")
        entry["rows"] = {t: entry["rows"][t] for t in tables}
    (out / "manifest.json").write_text(json.dumps(manifest | {"schema_version": version, "tables": tables}))
    return out


def _csv(directory: Path, table: str) -> list[dict[str, str]]:
    with (directory / f"{table}.csv").open(newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_older_runs_give_the_same_report(base: Path, tmp_path: Path, version: int) -> None:
    """A run of every older version read gives today's report of the same games (less the position estimates
    in a schema 1 run, which had no deck_order, as the header says)."""
    old = _downgrade(base, tmp_path / f"v{version}", version)
    assert check_recorded(old) == [f"{old / 'manifest.json'}: written before checksums were recorded; only row "
                                   "counts were checked"]
    code, output = report(old, "--md", tmp_path / "r.md", "--csv", tmp_path / "old")
    assert code == 0, output
    assert report(base, "--csv", tmp_path / "new")[0] == 0
    for table in ("first_player", "matchups", "decks", "tasks"):
        assert _csv(tmp_path / "old", table) == _csv(tmp_path / "new", table), table
    old_beings, new_beings = _csv(tmp_path / "old", "beings"), _csv(tmp_path / "new", "beings")
    assert [(r["card"], r["opening_k"], r["opening_n"]) for r in old_beings] == \
        [(r["card"], r["opening_k"], r["opening_n"]) for r in new_beings]
    md = (tmp_path / "r.md").read_text()
    if version == 1:
        assert all(r["position_effect"] == "" for r in old_beings)
        assert any(r["position_effect"] != "" for r in new_beings)
        assert ("**Older runs:** pool (schema 1): no deck\\_order table (the setup shuffle was not recorded), so its "
                "games give no position (dose-response) estimates") in md
    else:
        assert [r["position_effect"] for r in old_beings] == [r["position_effect"] for r in new_beings]
        assert "Older runs" not in md


def test_the_schema1_fixture_is_reported(tmp_path: Path) -> None:
    code, output = report(SCHEMA1_RUN, "--md", tmp_path / "r.md", "--no-html")  # nothing into the fixture
    assert code == 0, output
    assert "8 games in" in output
    assert ("- old is a schema 1 run: no deck_order table (the setup shuffle was not recorded), so its games give "
            "no position (dose-response) estimates.") in output
    assert "recorded in the manifest but missing" not in output


def test_a_schema5_run_gives_the_same_report_as_its_seat_cards(base: Path, tmp_path: Path) -> None:
    """Without its seat_cards files (a schema 5 run) a run gives the same report: the table is computed
    from its card events and points by the writer's code."""
    old = Path(shutil.copytree(base, tmp_path / "v5"))
    shutil.rmtree(old / "seat_cards")
    _edit_manifest(old, lambda m: m.update(schema_version=5, tables=[t for t in m["tables"] if t != "seat_cards"]))
    assert find_run(old, 0).schema_version == 5
    assert report(old, "--csv", tmp_path / "old")[0] == 0
    assert report(base, "--csv", tmp_path / "new")[0] == 0
    tables = sorted(p.name for p in (tmp_path / "new").glob("*.csv") if p.name != "runs.csv")
    assert "beings.csv" in tables and "legend_effects.csv" in tables
    for name in tables:
        assert (tmp_path / "old" / name).read_text() == (tmp_path / "new" / name).read_text(), name


def test_the_schema5_fixture_is_reported(tmp_path: Path) -> None:
    code, output = report(SCHEMA5_RUN, "--md", tmp_path / "r.md", "--csv", tmp_path / "csv", "--no-html")
    assert code == 0, output
    assert "8 games in" in output
    assert "schema 5" not in output  # it lacks nothing the report uses
    assert any(int(r["plays"]) > 0 for r in _csv(tmp_path / "csv", "being_effects"))


def test_the_schema6_fixture_gives_the_report_of_its_card_events(tmp_path: Path) -> None:
    """A schema 6 run's per-game seat_cards are summed as today's writer sums them: the same report as the
    same run read as schema 5 (seat_cards computed from its card events and points)."""
    assert find_run(SCHEMA6_RUN, 0).schema_version == 6
    old = Path(shutil.copytree(SCHEMA6_RUN, tmp_path / "v5"))
    shutil.rmtree(old / "seat_cards")
    _edit_manifest(old, lambda m: m.update(schema_version=5, tables=[t for t in m["tables"] if t != "seat_cards"]))
    code, output = report(SCHEMA6_RUN, "--md", tmp_path / "r.md", "--csv", tmp_path / "new", "--no-html")
    assert code == 0, output
    assert "8 games in" in output and "schema 6" not in output
    assert report(old, "--csv", tmp_path / "old", "--md", tmp_path / "r5.md", "--no-html")[0] == 0
    tables = sorted(p.name for p in (tmp_path / "new").glob("*.csv") if p.name != "runs.csv")
    assert "beings.csv" in tables and "legend_effects.csv" in tables
    assert any(int(r["plays"]) > 0 for r in _csv(tmp_path / "new", "being_effects"))
    for name in tables:
        assert (tmp_path / "old" / name).read_text() == (tmp_path / "new" / name).read_text(), name


def test_a_missing_file_of_an_old_run_is_not_sent_to_a_rerun(tmp_path: Path) -> None:
    old = Path(shutil.copytree(SCHEMA1_RUN, tmp_path / "old"))
    (old / "points" / "shard-00001.parquet").unlink()
    _refused(*report(old, "--md", tmp_path / "r.md"),
             f"{old / 'points' / 'shard-00001.parquet'}: recorded in the manifest but missing; restore it from a "
             "copy of the run (a schema 1 run cannot be rewritten by this version: `tashkalar run` refuses it and "
             "--force would delete it)")


def test_a_missing_file_of_a_run_of_today_is_sent_to_a_resume(base: Path, tmp_path: Path) -> None:
    run = Path(shutil.copytree(base, tmp_path / "run"))
    (run / "deck_order" / "shard-00001.parquet").unlink()
    with pytest.raises(UserError) as e:
        check_recorded(run)
    assert str(e.value) == (f"{run / 'deck_order' / 'shard-00001.parquet'}: recorded in the manifest but missing; "
                            "rerun the study (`tashkalar run STUDY --out RUN` resumes the run and writes it again)")


@pytest.mark.parametrize(("version", "hint"), [(SCHEMA_VERSION + 1, "a newer tashkalar, or "), (0, "")])
def test_a_schema_version_not_read_is_refused_by_name(base: Path, tmp_path: Path, version: int, hint: str) -> None:
    run = Path(shutil.copytree(base, tmp_path / "run"))
    _edit_manifest(run, lambda m: m.update(schema_version=version))
    _refused(*report(run, "--md", tmp_path / "r.md"),
             f"{run}: schema {version} run; this version reads 1 to {SCHEMA_VERSION}; report it with {hint}the "
             f"version that wrote it (tashkalar {metadata.version('tashkalar-balance')})")
