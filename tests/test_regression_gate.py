"""Regression's guards without Ray: thresholds, study identity, and the history database's errors."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import duckdb
from typer.testing import CliRunner

from reports.regression.history import metric_history
from reports.regression.identity import identity_differences, study_id
from sim.cli import app

MANIFEST = {
    "name": "nightly",
    "config": {"name": "nightly", "forms": ["high-form"], "deck_pairings": [["imperial", "imperial"]],
               "strategy_pairings": [["builder", "builder"]], "games_per_cell": 600, "base_seed": 1,
               "shard_size": 50, "card_set": "builtin",
               "players": {"builder": {"strategy": "builder", "params": {}}}},
    "card_set": {"fingerprint": "aaaa"},
}


def _with(**config) -> dict:
    return MANIFEST | {"config": MANIFEST["config"] | config}


def test_the_same_study_with_other_cards_name_shards_or_seed_is_the_same_study():
    other = (_with(name="renamed", card_set="/designer/cards", shard_size=10, base_seed=99)
             | {"card_set": {"fingerprint": "b"}})
    assert identity_differences(MANIFEST, other) == []
    assert study_id(MANIFEST) == study_id(other)


def test_other_decks_sizes_or_players_make_another_study():
    other = _with(deck_pairings=[["highland", "sylvan"]], games_per_cell=100)
    differences = identity_differences(MANIFEST, other)
    assert [d.split(":")[0] for d in differences] == ["deck_pairings", "games_per_cell"]
    assert '[["imperial", "imperial"]] in the baseline' in differences[0]
    assert study_id(MANIFEST) != study_id(other)
    tuned = _with(players={"builder": {"strategy": "builder", "params": {"patterns": 2.0}}})
    assert [d.split(":")[0] for d in identity_differences(MANIFEST, tuned)] == ["players"]


def test_bad_thresholds_are_clear_errors(tmp_path):
    cli = CliRunner()
    for option, value, field in (("--min-difference", "5", "--min-difference"), ("--alpha", "-1", "--alpha"),
                                 ("--alpha", "1", "--alpha"), ("--min-trials", "0", "--min-trials")):
        out = cli.invoke(app, ["regress", "--baseline", str(tmp_path), "--candidate", str(tmp_path), option, value])
        assert out.exit_code == 2, out.output
        assert f"error: {field}: expected" in out.output and "Traceback" not in out.output


def test_bad_thresholds_in_a_suite_name_the_file_and_key(tmp_path):
    (tmp_path / "study.toml").write_text("")
    suite = tmp_path / "suite.toml"
    suite.write_text('name = "t"\nruns_dir = "o"\nbaselines_dir = "b"\n[thresholds]\nmin_difference = 5\n'
                     f'[[study]]\nname = "s"\nconfig = "{tmp_path / "study.toml"}"\n')
    out = CliRunner().invoke(app, ["suite", str(suite)])
    assert out.exit_code == 2
    assert f"{suite}: thresholds.min_difference: expected a difference of rates between 0 and 1" in out.output


def test_history_on_a_damaged_database_is_a_clear_error(tmp_path):
    db = tmp_path / "history.duckdb"
    db.write_bytes(b"this is not a DuckDB file" * 100)
    out = CliRunner().invoke(app, ["history", "--card", "imperial/swordmaster", "--db", str(db)])
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert f"error: {db}: cannot open the history database" in out.output


def test_history_needs_a_subject_or_a_study(tmp_path):
    out = CliRunner().invoke(app, ["history", "--db", str(tmp_path / "h.duckdb")])
    assert out.exit_code == 2 and "give --study, or one of --card" in out.output


def test_a_database_recorded_before_runs_carried_their_study_still_reads(tmp_path):
    db = tmp_path / "old.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE runs (run_id VARCHAR PRIMARY KEY, run_path VARCHAR, recorded_at TIMESTAMP)")
    con.execute("CREATE TABLE metrics (run_id VARCHAR, metric VARCHAR, mode VARCHAR, subject VARCHAR, "
                "successes BIGINT, trials BIGINT)")
    con.execute("INSERT INTO runs VALUES ('r1', '/runs/old', TIMESTAMP '2026-01-02 03:04:05')")
    con.execute("INSERT INTO metrics VALUES ('r1', 'card_win_rate_when_played', 'high-form', 'imperial/knight', "
                "30, 60)")
    con.close()
    rows = metric_history(db, "imperial/knight")
    assert len(rows) == 1 and rows[0].study_id is None and rows[0].successes == 30
    out = CliRunner().invoke(app, ["history", "--card", "imperial/knight", "--db", str(db)])
    assert out.exit_code == 0, out.output
    assert "study: unknown" in out.output and "/runs/old" in out.output


def test_the_tests_never_see_the_users_home_or_history():
    real_home = pwd.getpwuid(os.getuid()).pw_dir
    assert str(Path.home()) != real_home
    assert not os.environ["TASHKALAR_HISTORY"].startswith(real_home)


def test_the_nightly_study_can_see_a_three_point_move_of_any_deck_or_matchup():
    from pipelines.study import load_study
    from reports.regression.design import gate_designs
    from reports.regression.suite import load_suite
    from reports.regression.thresholds import DEFAULTS

    suite = load_suite("suites/nightly.toml")
    assert suite.thresholds == DEFAULTS and DEFAULTS.min_difference == 0.03  # regress's defaults, one declaration
    (study,) = suite.studies
    designs = gate_designs(load_study(study.config), suite.thresholds)
    decks = [d for d in designs if d.metric != "card_position_effect"]
    assert len(decks) == 12 and {d.metric for d in decks} == {"deck_win_rate", "matchup_win_rate"}
    assert all(d.mde <= 0.03 and d.power >= 0.8 for d in decks), [(d.subject, d.mode, d.mde, d.power) for d in decks]
    assert min(d.power for d in decks if d.metric == "deck_win_rate") > 0.95  # the margin for a deck's move
    positions = [d for d in designs if d.metric == "card_position_effect"]
    assert len(positions) == 6 and all(d.power < 0.8 for d in positions)  # said, not hidden, by plan


def test_plan_prints_every_gates_power_for_a_regression_study():
    out = CliRunner().invoke(app, ["plan", "studies/nightly.toml"])
    assert out.exit_code == 0, out.output
    assert "Benjamini-Hochberg over 14 gates" in out.output and "| power at 3.0 pp |" in out.output
    assert "| deck win rate | deathmatch | imperial | 16,000 | 2.1 pp | 98% | yes |" in out.output
    assert "| matchup win rate | high-form | highland vs imperial | 8,000 | 3.0 pp | 81% | yes |" in out.output
    assert "| own effect (shuffled position) | high-form | a changed imperial being | 16,000 |" in out.output
    bad = CliRunner().invoke(app, ["plan", "studies/nightly.toml", "--min-difference", "2"])
    assert bad.exit_code == 2 and "error: --min-difference: expected" in bad.output
