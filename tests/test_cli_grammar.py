"""One grammar for every command (docs/cli.md): help without type labels, ``--json`` a flag printing one
JSON document and nothing else on stdout, the same exit codes with it, the page of flags generated from the
app, the default player, ``report``'s HTML, ``history``'s one block per study."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from reports.regression.history import HistoryRow
from reports.regression.history_view import render_history
from sim.cli import app
from strategies.registry import DEFAULT_STRATEGY
from tests.handmade import game
from tests.handmade import write_run as write_rows
from tests.regression_runs import write_run as write_hand_run
from tests.test_reports import make_run

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = list(typer.main.get_command(app).commands)
TYPE_LABEL = re.compile(r"<[\w\[\]., |]+>")  # Typer's labels: <bool>, <int>, <list[Path]>, <file>


def run(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args], prog_name="tashkalar")


def as_json(result) -> dict:
    """The whole of stdout is one JSON document."""
    return json.loads(result.stdout)


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)], ids=["tashkalar", *COMMANDS])
def test_help_names_values_without_type_labels(command):
    result = run(*command, "--help")
    assert result.exit_code == 0, result.output
    assert not TYPE_LABEL.findall(result.stdout), TYPE_LABEL.findall(result.stdout)


def test_the_page_of_flags_is_what_the_app_says():
    spec = importlib.util.spec_from_file_location("cli_doc", ROOT / "scripts" / "cli_doc.py")
    cli_doc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cli_doc)
    doc = cli_doc.DOC.read_text()
    assert cli_doc.generated(doc) == doc, "docs/cli.md differs from the CLI: run python scripts/cli_doc.py"
    assert all(f"### `tashkalar {c}`" in doc for c in COMMANDS)


def test_play_and_scenario_seat_the_default_player(tmp_path):
    record = as_json(run("play", "--seed", "1", "--json"))
    assert record["config"]["strategies"] == [DEFAULT_STRATEGY] * 2
    scenario = typer.main.get_command(app).commands["scenario"]
    assert {p.name: p.default for p in scenario.params}["strategy"] == DEFAULT_STRATEGY


def test_a_team_game_takes_its_decks_joined_with_dashes():
    record = as_json(run("play", "--teams", "--decks", "imperial-sylvan", "--strategies", "random", "--json"))
    assert record["config"]["decks"] == ["imperial", "sylvan"] * 2


def test_ladder_json_is_the_only_output_on_stdout_and_the_bar_goes_to_stderr():
    result = run("ladder", "--games", "2", "--strategies", "random,greedy", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    [ladder] = as_json(result)["ladders"]
    assert ladder["mode"] == "high-form" and ladder["pairings"][0]["games"] == 2
    assert "high-form" in result.stderr and "eta" in result.stderr  # the run's bar, with its ETA
    quiet = run("ladder", "--games", "2", "--strategies", "random,greedy", "--workers", "1", "--no-progress")
    assert quiet.exit_code == 0 and quiet.stderr == "" and "| random |" in quiet.stdout


def test_plan_json():
    data = as_json(run("plan", "studies/nightly.toml", "--json"))
    assert data["total_games"] == data["cells"] * data["games_per_cell"]
    assert data["estimates"] and {"estimate", "unit", "games", "mde", "needed", "enough"} <= set(data["estimates"][0])
    assert {g["gate"] for g in data["gates"]} >= {"deck_win_rate", "matchup_win_rate"}


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    return make_run(tmp_path_factory.mktemp("runs") / "small", games=12, seed=2, shards=1)


def test_report_writes_its_html_also_with_md_and_csv_unless_told_not_to(small_run, tmp_path):
    html = small_run / "report.html"
    html.unlink(missing_ok=True)
    result = run("report", small_run, "--md", tmp_path / "r.md", "--csv", tmp_path / "csv")
    assert result.exit_code == 0, result.output
    assert html.exists() and (tmp_path / "r.md").exists() and (tmp_path / "csv").is_dir()
    html.unlink()
    only_md = run("report", small_run, "--md", tmp_path / "only.md", "--no-html")
    assert only_md.exit_code == 0 and (tmp_path / "only.md").exists() and not html.exists()
    assert run("report", small_run, "--no-html").exit_code == 2  # nothing to write
    assert run("report", small_run, "--no-html", "--out", tmp_path / "x.html").exit_code == 2


def test_report_json_is_the_headline_numbers(small_run, tmp_path):
    result = run("report", small_run, "--out", tmp_path / "r.html", "--json")
    assert result.exit_code == 0, result.output
    data = as_json(result)
    assert data["written"] == {"html": str(tmp_path / "r.html")} and data["facts"]["Games"] == "12"
    assert isinstance(data["summary"], list) and data["title"]


def test_regress_json_keeps_the_exit_status(tmp_path):
    def hand(name: str, imperial_wins: int) -> Path:
        games = [game(i, "deathmatch", ("imperial", "sylvan"), first=i % 2, winner=0 if i < imperial_wins else 1)
                 for i in range(200)]
        return write_rows(tmp_path / name, games, manifest={"name": name, "card_set": {"cards": {}}})

    base, cand = hand("base", 100), hand("cand", 150)
    moved = run("regress", "--baseline", base, "--candidate", cand, "--json")
    assert moved.exit_code == 1, moved.output
    data = as_json(moved)
    assert data["moved"] >= 1 and data["baseline"] == str(base)
    deck = next(g for g in data["gates"] if g["gate"] == "deck_win_rate" and g["subject"] == "imperial")
    assert deck["moved"] and deck["low"] < deck["difference"] < deck["high"]
    unwritable = run("regress", "--baseline", base, "--candidate", cand, "--md", tmp_path / "no" / "r.md")
    assert unwritable.exit_code == 2 and "--md: cannot write" in unwritable.stderr  # before the comparison
    twice = run("regress", "--baseline", base, "--candidate", base, "--json")
    assert twice.exit_code == 2 and twice.stdout == ""  # the same run twice: a user error, as without --json


def _row(name: str, metric: str, when: int) -> HistoryRow:
    from datetime import datetime

    return HistoryRow(datetime(2026, 1, when), f"/runs/{name}", metric, "descriptive", "deathmatch", "imperial", "",
                      0.5, 0.4, 0.6, 100, None, 50, 100, name, "s1", "builtin", "a=random", "test")


def test_history_prints_a_study_once_whatever_names_its_runs_had():
    """A study's name is not part of its identity: runs of one study under two names used to alternate and
    print the study's block once per change of name."""
    rows = [_row("hand", "deck_win_rate", 1), _row("renamed", "deck_win_rate", 2),
            _row("hand", "first_player_win_rate", 1), _row("renamed", "first_player_win_rate", 2)]
    text = render_history(rows)
    assert text.count("study: ") == 1 and "study: hand, renamed (id s1" in text


def test_history_json_groups_by_study_and_keeps_the_exit_status(tmp_path):
    db = tmp_path / "h.duckdb"
    games = [("deathmatch", "imperial", "highland", i % 2) for i in range(60)]
    for name in ("hand", "renamed"):
        path = write_hand_run(tmp_path / name, games)
        manifest = json.loads((path / "manifest.json").read_text())
        manifest["name"] = manifest["config"]["name"] = name
        (path / "manifest.json").write_text(json.dumps(manifest))
        recorded = run("history", "--record", path, "--db", db, "--json")
        assert recorded.exit_code == 0 and as_json(recorded) == {"recorded": str(path), "db": str(db)}
    result = run("history", "--deck", "imperial", "--db", db, "--json")
    assert result.exit_code == 0, result.output
    [study] = as_json(result)["studies"]
    assert study["names"] == ["hand", "renamed"] and {r["run_path"] for r in study["rows"]} == {
        str(tmp_path / "hand"), str(tmp_path / "renamed")}
    text = run("history", "--deck", "imperial", "--db", db)
    assert text.stdout.count("study: ") == 1
    none = run("history", "--deck", "nope", "--db", db, "--json")
    assert none.exit_code == 1 and as_json(none) == {"studies": []} and "no recorded metrics" in none.stderr


def test_history_form_keeps_the_metrics_of_that_form_only(tmp_path):
    db = tmp_path / "h.duckdb"
    games = [(("deathmatch", "high-form")[i % 2], "imperial", "highland", i % 3 % 2) for i in range(80)]
    path = write_hand_run(tmp_path / "both", games)
    assert run("history", "--record", path, "--db", db).exit_code == 0
    for form in ("deathmatch", "high-form"):
        result = run("history", "--deck", "imperial", "--form", form, "--db", db, "--json")
        assert result.exit_code == 0, result.output
        [study] = as_json(result)["studies"]
        assert study["rows"] and {r["mode"] for r in study["rows"]} == {form}


def test_history_metric_and_study_id_filters_keep_their_own_rows(tmp_path):
    db = tmp_path / "h.duckdb"
    games = [("deathmatch", "imperial", "highland", i % 3 % 2) for i in range(60)]
    assert run("history", "--record", write_hand_run(tmp_path / "one", games), "--db", db).exit_code == 0
    [study] = as_json(run("history", "--deck", "imperial", "--db", db, "--json"))["studies"]
    [by_id] = as_json(run("history", "--study", study["study_id"], "--db", db, "--json"))["studies"]
    assert by_id["study_id"] == study["study_id"]
    metrics = {r["metric"] for r in by_id["rows"]}
    assert len(metrics) > 1
    for metric in sorted(metrics):
        result = run("history", "--study", study["study_id"], "--metric", metric, "--db", db, "--json")
        [only] = as_json(result)["studies"]
        assert {r["metric"] for r in only["rows"]} == {metric}
    none = run("history", "--study", "no-such-study", "--db", db, "--json")
    assert none.exit_code == 1 and as_json(none) == {"studies": []}


def test_the_command_line_starts_without_the_heavy_libraries():
    """Every command is registered at start; the libraries only some commands need (SciPy's statistics,
    Polars, DuckDB, Ray, PyArrow) are imported by those commands, so that help and the quick commands start
    in a fraction of a second."""
    heavy = ("scipy", "polars", "duckdb", "ray", "pyarrow")
    code = f"import sys, sim.cli; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
