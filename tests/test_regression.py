"""Regression reports, history and suites, over real runs made by the Ray study runner."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pipelines.runner import run_study
from pipelines.study import load_study
from reports.regression.compare import Thresholds, compare_runs
from reports.regression.history import metric_history, record_run
from reports.regression.render import render_markdown
from sim.cards import BUILTIN_DIR
from sim.cli import app

pytestmark = pytest.mark.ray

STUDY = """
name = "regress"
forms = ["deathmatch"]
deck_pairings = [["imperial", "highland"]]
strategy_pairings = [["random", "random"]]
games_per_cell = 600
base_seed = 77
shard_size = 150
{card_set}
"""

# The edited card: the Swordmaster destroys every enemy piece within 3 squares. In Deathmatch that is
# worth many points, so the Imperial deck wins far more often against Highland.
EDIT_FROM = '{ do = "destroy", where = "diagonal", owner = "enemy", ranks = ["common"], up_to = 1 },'
EDIT_TO = '{ do = "destroy", where = "within:3", owner = "enemy", all = true },'


def _run(tmp: Path, name: str, card_set: Path | None = None) -> Path:
    line = f'card_set = "{card_set}"' if card_set else ""
    study_file = tmp / f"{name}.toml"
    study_file.write_text(STUDY.format(card_set=line))
    out = tmp / "runs" / name
    run_study(load_study(study_file), out, workers=2, show_progress=False)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("regress")
    edited = tmp / "cards-edited"
    shutil.copytree(BUILTIN_DIR, edited)
    text = (edited / "imperial.toml").read_text()
    assert EDIT_FROM in text
    (edited / "imperial.toml").write_text(text.replace(EDIT_FROM, EDIT_TO, 1))
    return {"a": _run(tmp, "a"), "b": _run(tmp, "b"), "edited": _run(tmp, "edited", edited)}


def test_same_cards_and_seeds_report_no_change(runs):
    result = compare_runs(runs["a"], runs["b"], Thresholds())
    assert result.changed_cards == [] and result.added_cards == [] and result.removed_cards == []
    assert result.paired and not result.moved
    assert result.changes and all(c.base == c.cand for c in result.changes)  # identical data, not merely similar


def test_edited_card_is_the_cause_of_its_decks_move(runs):
    result = compare_runs(runs["a"], runs["edited"], Thresholds())
    assert result.changed_cards == ["imperial/swordmaster"] and result.paired
    assert sorted((g.metric, g.subject) for g in result.gates) == [
        ("card_position_effect", "imperial/swordmaster"), ("deck_win_rate", "highland"), ("deck_win_rate", "imperial")]
    moved = {g.subject: g for g in result.moved}
    assert set(moved) == {"imperial", "highland", "imperial/swordmaster"}
    # A known limit (docs/regression.md, "Limits of the position gate"): with random players this much
    # stronger Swordmaster's dose-response falls (-13 pp): played at once, an early one meets an almost empty
    # board, a late one a full board. The position effect measures the value of drawing a card earlier, which
    # is its strength only when it is worth about as much whenever it is played.
    assert moved["imperial/swordmaster"].estimate.difference < 0
    imperial = moved["imperial"].estimate
    assert imperial.difference > 0.1 and imperial.low > 0.05 and moved["imperial"].q_value < 0.001
    page = render_markdown(result)
    assert "Only the cards above differ between the runs, so they caused what moved: " in page
    # the descriptive metrics are shown, but do not gate
    assert any(c.base.subject == "imperial/swordmaster" and c.beyond_threshold for c in result.changes)


def test_regress_command_exit_codes_and_markdown(runs, tmp_path):
    cli = CliRunner()
    md = tmp_path / "same.md"
    same = cli.invoke(app, ["regress", "--baseline", str(runs["a"]), "--candidate", str(runs["b"]), "--md", str(md)])
    assert same.exit_code == 0, same.output
    assert "Verdict: 0 gate(s) moved" in md.read_text() and "No card changed definition" in md.read_text()
    moved = cli.invoke(app, ["regress", "--baseline", str(runs["a"]), "--candidate", str(runs["edited"])])
    assert moved.exit_code == 1
    assert "changed: `imperial/swordmaster`" in moved.output
    assert "card_win_rate_when_played" in moved.output
    # a threshold no change can reach: nothing moves
    calm = cli.invoke(app, ["regress", "--baseline", str(runs["a"]), "--candidate", str(runs["edited"]),
                            "--min-difference", "1.0"])
    assert calm.exit_code == 0
    missing = cli.invoke(app, ["regress", "--baseline", str(tmp_path / "nope"), "--candidate", str(runs["a"])])
    assert missing.exit_code == 2 and "no such run directory" in missing.output
    assert "Traceback" not in missing.output


def test_history_records_runs_and_shows_a_card(runs, tmp_path):
    db = tmp_path / "history.duckdb"
    record_run(runs["a"], db)
    record_run(runs["edited"], db)
    rows = metric_history(db, "imperial/swordmaster", "card_win_rate_when_played")
    assert [Path(r.run_path).name for r in rows] == ["a", "edited"]
    assert rows[1].successes / rows[1].trials > rows[0].successes / rows[0].trials
    assert {r.study_name for r in rows} == {"regress"} and len({r.study_id for r in rows}) == 1
    assert rows[0].card_set != rows[1].card_set and rows[0].strategies == "random=random"
    assert rows[0].code_version
    out = CliRunner().invoke(app, ["history", "--card", "imperial/swordmaster", "--db", str(db)])
    assert out.exit_code == 0 and "card_win_rate_when_played" in out.output and "95% CI" in out.output
    assert "study: regress" in out.output
    by_study = CliRunner().invoke(app, ["history", "--study", "regress", "--db", str(db)])
    assert by_study.exit_code == 0 and "deck_win_rate" in by_study.output
    other = CliRunner().invoke(app, ["history", "--study", "nightly", "--card", "imperial/swordmaster",
                                     "--db", str(db)])
    assert other.exit_code == 1 and "no recorded metrics" in other.output


def _other_study(run: Path, tmp_path: Path) -> Path:
    """A copy of ``run`` whose manifest says it played other decks: a run of another study."""
    copy = tmp_path / "other-study"
    shutil.copytree(run, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["config"]["deck_pairings"] = [["highland", "sylvan"]]
    (copy / "manifest.json").write_text(json.dumps(manifest))
    return copy


def test_runs_of_different_studies_are_refused_unless_allowed(runs, tmp_path):
    other = _other_study(runs["a"], tmp_path)
    cli = CliRunner()
    refused = cli.invoke(app, ["regress", "--baseline", str(runs["a"]), "--candidate", str(other)])
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert "runs of different studies" in refused.output and "deck_pairings" in refused.output
    forced = cli.invoke(app, ["regress", "--baseline", str(runs["a"]), "--candidate", str(other),
                              "--allow-different-studies"])
    assert forced.exit_code == 0, forced.output
    assert forced.output.count("Not the same study") == 4  # at the top and in each section


def test_a_locked_history_database_does_not_fail_a_run(tmp_path, monkeypatch):
    """The games are played: a history that cannot be written is a warning saying how to record later."""
    import reports.regression.history as history

    monkeypatch.setattr(history, "LOCK_TIMEOUT_S", 1.0)
    db = tmp_path / "h.duckdb"
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from filelock import FileLock;"
                               "lock = FileLock(sys.argv[1]); lock.acquire(); print('held', flush=True);"
                               "time.sleep(120)", str(db) + ".lock"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        study = tmp_path / "small.toml"
        study.write_text(STUDY.format(card_set="").replace("games_per_cell = 600", "games_per_cell = 20")
                         .replace("shard_size = 150", "shard_size = 20"))
        run_dir = tmp_path / "small"
        out = CliRunner().invoke(app, ["run", str(study), "--out", str(run_dir), "--workers", "1",
                                       "--no-progress", "--db", str(db)])
    finally:
        holder.kill()
        holder.wait()
    assert out.exit_code == 0, out.output
    assert "warning: the run is complete, but its metrics were not recorded" in out.output
    assert f"tashkalar history --record {run_dir} --db {db}" in out.output
    later = CliRunner().invoke(app, ["history", "--record", str(run_dir), "--db", str(db)])
    assert later.exit_code == 0 and "recorded" in later.output
    assert metric_history(db, study="regress")


def test_history_survives_concurrent_recording(runs, tmp_path):
    """Two processes record runs into one database at the same time: every row arrives, the file is sound."""
    db = tmp_path / "history.duckdb"
    script = ("import sys; from pathlib import Path; from reports.regression.history import record_run;"
              "[record_run(sys.argv[1], Path(sys.argv[2])) for _ in range(3)]")
    procs = [subprocess.Popen([sys.executable, "-c", script, str(runs[k]), str(db)]) for k in ("a", "b")]
    threads = [threading.Thread(target=p.wait) for p in procs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert [p.returncode for p in procs] == [0, 0]
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 6
        per_run = con.execute("SELECT COUNT(*) FROM metrics GROUP BY run_id").fetchall()
    finally:
        con.close()
    assert len(per_run) == 6 and len({n for (n,) in per_run}) == 1 and per_run[0][0] > 50


def test_suite_runs_reports_regresses_and_promotes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("study.toml").write_text(STUDY.format(card_set="").replace("games_per_cell = 600", "games_per_cell = 100")
                                  .replace("shard_size = 150", "shard_size = 50"))
    Path("suite.toml").write_text(
        'name = "t"\nruns_dir = "out"\nbaselines_dir = "base"\n[thresholds]\nmin_trials = 20\n'
        '[[study]]\nname = "mirror"\nconfig = "study.toml"\n')
    cli = CliRunner()
    args = ["suite", "suite.toml", "--promote-if-unchanged", "--db", "h.duckdb", "--no-progress", "--workers", "2"]
    refused = cli.invoke(app, args)  # a lost baseline must not silently become tonight's run
    assert refused.exit_code == 2 and "no baseline for mirror" in refused.output and "--new-baseline" in refused.output
    assert not (tmp_path / "out").exists()
    first = cli.invoke(app, [*args, "--new-baseline"])
    assert first.exit_code == 0, first.output
    assert "no baseline yet; this run is now the baseline" in first.output
    assert (tmp_path / "base" / "mirror" / "manifest.json").exists()
    second = cli.invoke(app, [*args, "--json"])
    assert second.exit_code == 0, second.output
    [mirror] = json.loads(second.stdout)["studies"]  # the whole of stdout: one JSON document
    assert mirror["study"] == "mirror" and mirror["regression"]["moved"] == 0 and mirror["promoted"]
    latest = tmp_path / "out" / "latest"
    assert "0 gate(s) moved" in (latest / "summary.md").read_text()
    assert {"summary.md", "mirror-report.html", "mirror-regression.md"} <= {p.name for p in latest.iterdir()}
    bad = cli.invoke(app, ["suite", "missing.toml"])
    assert bad.exit_code == 2 and "no such file" in bad.output


def test_run_command_records_the_finished_run_once(tmp_path):
    study = tmp_path / "small.toml"
    study.write_text(STUDY.format(card_set="").replace("games_per_cell = 600", "games_per_cell = 40")
                     .replace("shard_size = 150", "shard_size = 20"))
    db = tmp_path / "h.duckdb"
    args = ["run", str(study), "--out", str(tmp_path / "small"), "--workers", "2", "--no-progress", "--db", str(db)]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "recorded the run's summary metrics" in first.output
    again = CliRunner().invoke(app, [*args, "--json"])  # nothing left to run: not recorded twice
    assert again.exit_code == 0 and "recorded" not in again.output
    figures = json.loads(again.stdout)  # the whole of stdout: one JSON document
    assert figures["study"] == "regress" and figures["shards_kept"] == figures["shards"] and figures["shards_run"] == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 1
    finally:
        con.close()
