"""The nightly job as the workflow runs it: scripts/nightly.sh on a tiny suite, night after night, and the
workflow file's promises (state kept whatever the outcome, inputs to promote, a valid workflow)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
import yaml

from sim.cards import BUILTIN_DIR
from tests.test_regression import EDIT_FROM, EDIT_TO, STUDY  # the Swordmaster that lifts Imperial

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "nightly.yml"
BIN = Path(sys.executable).parent


def test_the_workflow_is_valid_and_keeps_its_state_whatever_the_outcome() -> None:
    check = subprocess.run([BIN / "check-jsonschema", "--builtin-schema", "vendor.github-workflows", WORKFLOW],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    flow = yaml.safe_load(WORKFLOW.read_text())
    inputs = flow[True]["workflow_dispatch"]["inputs"]  # YAML reads the key "on" as True
    assert set(inputs["promote"]["options"]) == {"if-unchanged", "always", "never"} and "new_baseline" in inputs
    steps = flow["jobs"]["suite"]["steps"]
    suite = next(i for i, s in enumerate(steps) if "scripts/nightly.sh" in s.get("run", ""))
    after = steps[suite + 1:]
    assert after and all(s.get("if") == "always()" for s in after)
    saved = next(s for s in after if s.get("uses", "").startswith("actions/cache/save"))
    kept = saved["with"]["path"].split()
    history = Path(flow["jobs"]["suite"]["env"]["TASHKALAR_HISTORY"])
    assert str(history.parent) in kept and "runs/baselines" in kept


def _night(tmp: Path, **env: str) -> subprocess.CompletedProcess:
    environment = os.environ | {"TASHKALAR_HISTORY": str(tmp / "state" / "history.duckdb"),
                                "NOTIFY": f'echo "$STATUS $SUMMARY" >> {tmp / "notified"}'} | env
    return subprocess.run(["bash", ROOT / "scripts" / "nightly.sh", tmp / "suite.toml"], env=environment,
                          capture_output=True, text=True, timeout=600)


def _runs_recorded(tmp: Path) -> int:
    con = duckdb.connect(str(tmp / "state" / "history.duckdb"), read_only=True)
    try:
        return con.execute("SELECT count(*) FROM runs").fetchone()[0]
    finally:
        con.close()


@pytest.mark.ray
def test_nights_keep_a_moved_nights_history_and_report_and_never_invent_a_baseline(tmp_path: Path) -> None:
    (tmp_path / "state").mkdir()
    edited = Path(shutil.copytree(BUILTIN_DIR, tmp_path / "edited"))
    text = (edited / "imperial.toml").read_text()
    assert EDIT_FROM in text
    (edited / "imperial.toml").write_text(text.replace(EDIT_FROM, EDIT_TO, 1))
    study = tmp_path / "study.toml"
    study.write_text(STUDY.format(card_set=""))
    (tmp_path / "suite.toml").write_text(
        f'name = "t"\nruns_dir = "{tmp_path / "out"}"\nbaselines_dir = "{tmp_path / "base"}"\n'
        f'[thresholds]\nmin_trials = 20\n[[study]]\nname = "night"\nconfig = "{study}"\n')
    latest, baseline = tmp_path / "out" / "latest", tmp_path / "base" / "night"

    lost = _night(tmp_path)  # no baseline (an evicted cache): an error, not a new baseline
    assert lost.returncode == 2 and "--new-baseline" in lost.stderr and not baseline.exists()
    first = _night(tmp_path, NEW_BASELINE="true")
    assert first.returncode == 0, first.stdout + first.stderr
    assert (baseline / "manifest.json").exists() and _runs_recorded(tmp_path) == 1

    study.write_text(STUDY.format(card_set=f'card_set = "{edited}"'))
    moved = _night(tmp_path)
    assert moved.returncode == 1, moved.stdout + moved.stderr
    assert _runs_recorded(tmp_path) == 2  # the moved night is in the history ...
    assert "moved" in (latest / "summary.md").read_text() and (latest / "night-report.html").exists()  # ... and kept
    base_cards = (baseline / "manifest.json").read_text()
    assert str(edited) not in base_cards  # if-unchanged: a moved night is not promoted

    promoted = _night(tmp_path, PROMOTE="always")  # the deliberate change becomes the baseline
    assert promoted.returncode == 1 and (baseline / "manifest.json").read_text() != base_cards
    notified = (tmp_path / "notified").read_text().splitlines()
    assert [line.split()[0] for line in notified] == ["2", "1", "1"]
    assert notified[1].split()[1] == str(latest / "summary.md")
