"""The history records what the report can trust: a duel run's deck, matchup and first-player rates, its cards'
randomized estimates (position in the shuffled deck, early access), the tasks dealt at setup and its ablation
arms; a melee run's and a team run's own metrics. Every recorded figure is the report's own for the same run
(value, interval, sample), and every figure of the report's trusted tables is recorded. Without Ray: the duel
study is played in this process (reports.calibration.run_local), the melee and team runs are real games
written directly (tests/test_melee.py, tests/test_teams_report.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from pipelines.study import parse_study
from reports.build import build_report
from reports.calibration import run_local
from reports.model import Report
from reports.regression.compare import Thresholds, compare_runs
from reports.regression.history import metric_history, record_run
from reports.regression.render import render_markdown
from reports.regression.summary import ABLATION, CONTROLLED, DESCRIPTIVE, KINDS, RANDOMIZED, Metric, run_metrics
from reports.stats import Estimate, Rate
from sim.cli import app
from tests.test_melee import make_melee_run
from tests.test_teams_report import _pass_run, make_team_run

STUDY = {"name": "hist", "forms": ["high-form", "deathmatch"],
         "deck_pairings": [["imperial", "highland"], ["imperial", "sylvan"], ["highland", "sylvan"]],
         "strategy_pairings": [["random", "random"]], "games_per_cell": 20, "shard_size": 40,
         "ablation": {"cards": ["imperial/swordmaster", "legend/fire-dragon"], "mode": "vanilla"}}
CARD_TABLES = ("beings", "legends", "flares")
CARD_ESTIMATES = (("position_effect", "card_position_effect"), ("opening_effect", "card_early_access"))
Expected = dict[tuple[str, str, str, str], tuple[str, Any]]  # metric key -> (kind, the report's figure)


def _duel_run(path: Path, seed: int) -> Path:
    config = STUDY | {"base_seed": seed}
    path.parent.mkdir(parents=True, exist_ok=True)
    run = run_local(parse_study(config, path.parent / "study.toml"), path)
    manifest = {"name": "hist", "config": config, "code_version": {"package": "test"},
                "card_set": {"fingerprint": "builtin", "cards": {}}}
    (run / "manifest.json").write_text(json.dumps(manifest))
    return run


@pytest.fixture(scope="module")
def duels(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("history-duels")
    return _duel_run(tmp / "a", 11), _duel_run(tmp / "b", 12)


def _tables(report: Report) -> dict[str, list[dict[str, Any]]]:
    return {t.id: t.rows for t in report.tables()}


def _cards(tables: dict[str, list[dict[str, Any]]], prefix: str = "") -> Expected:
    out: Expected = {}
    for table in CARD_TABLES:
        for r in tables.get(prefix + table, []):
            for column, metric in CARD_ESTIMATES:
                if column in r and r[column].defined:
                    out[(metric, r["mode"], r["card_id"], f"{r['deck']}, {r['strategy']}")] = (RANDOMIZED, r[column])
    return out


def _duel_expected(report: Report) -> Expected:
    """The duel report's trusted figures, read off its tables, under the key the history records them by."""
    t = _tables(report)
    out: Expected = {}
    for r in t["decks"]:
        if r["no_mirror"].n:
            out[("deck_win_rate", r["mode"], r["deck"], f"{r['strategy']} vs {r['opp_strategy']}")] = (
                CONTROLLED, r["no_mirror"])
    for r in t["matchups"]:  # three decks: every matchup has a metric of its own
        if r["deck"] != r["opp_deck"]:
            context = f"against {r['opp_deck']}; {r['strategy']} vs {r['opp_strategy']}"
            out[("matchup_win_rate", r["mode"], r["deck"], context)] = (CONTROLLED, r["won"])
    for r in t["first_player"]:
        players = f"{r['first_strategy']} vs {r['second_strategy']}"
        out[("first_player_win_rate", r["mode"], "first player", players)] = (RANDOMIZED, r["first_won"])
    out |= _cards(t)
    for r in t["task_decks"]:
        if r["dealt_effect"].defined:
            out[("task_dealt_effect", "high-form", r["task_id"], f"{r['deck']}, {r['strategy']}")] = (
                RANDOMIZED, r["dealt_effect"])
    for r in (r for r in t["ablation"] if r["effect"].defined):  # an arm without variation has no value
        out[("card_ablation_effect", r["mode"], r["card_id"], f"{r['ablation']} arm; {r['deck']}, {r['strategy']}")] = (
            ABLATION, r["effect"])
    return out


def _melee_expected(report: Report) -> Expected:
    t = _tables(report)
    out: Expected = {("turn_order_effect", r["mode"], f"place {r['position']}", ""): (RANDOMIZED, r["effect"])
                     for r in t["melee_positions"]}
    out |= _cards(t, "melee_")
    for r in t["melee_decks"]:
        out[("melee_deck_win_rate", r["mode"], r["deck"], r["strategy"])] = (DESCRIPTIVE, r["win"])
    for r in t["melee_colours"]:
        for label in ("lowest", "middle", "highest"):
            if r[f"mean_{label}"] is not None:
                out[("colour_score", r["mode"], label, "")] = (DESCRIPTIVE, (r[f"mean_{label}"], r["seat_games"]))
    for r in t["melee_decided"]:
        out[("best_colour_lost", r["mode"], "best single colour", "")] = (DESCRIPTIVE, r["best_colour_lost"])
    return out


def _team_expected(report: Report) -> Expected:
    t = _tables(report)
    out: Expected = {("turn_order_effect", r["mode"], "first team", ""): (RANDOMIZED, r["effect"])
                     for r in t["team_order"]}
    for r in t["team_pass_effect"]:
        out[("pass_control_effect", r["mode"], r["passing"], f"against {r['not_passing']}")] = (
            CONTROLLED if r["design"] == "controlled" else DESCRIPTIVE, r["effect"])
    out |= _cards(t, "team_")
    for r in t["team_results"]:
        out[("team_decks_win_rate", r["mode"], r["decks"],
             f"{r['players']} against {r['opp_decks']} ({r['opp_players']})")] = (DESCRIPTIVE, r["win"])
    for r in t["team_pass_games"]:
        out[("pass_control_rate", r["mode"], "games", "")] = (DESCRIPTIVE, r["passing"])
        out[("passes_per_game", r["mode"], "games", "")] = (DESCRIPTIVE, (r["per_game"], r["games"]))
    return out


def _matches(recorded: dict[tuple[str, str, str, str], Metric], expected: Expected) -> None:
    assert set(recorded) == set(expected)
    for key, (kind, figure) in expected.items():
        m = recorded[key]
        assert m.kind == kind, key
        if isinstance(figure, tuple):  # a mean: no interval
            assert (m.value, m.low, m.high, m.n) == (pytest.approx(figure[0]), None, None, figure[1]), key
            continue
        assert isinstance(figure, Rate | Estimate)
        assert m.value == pytest.approx(figure.value, abs=1e-12), key
        assert (m.low, m.high) == pytest.approx(figure.interval, abs=1e-12), key
        assert m.n == figure.n, key
        if isinstance(figure, Rate):
            assert (m.successes, m.trials) == (figure.k, figure.n), key
        else:
            assert m.mde == (None if figure.mde is None else pytest.approx(figure.mde)), key


def test_a_duel_run_records_the_reports_trusted_figures(duels: tuple[Path, Path]) -> None:
    run = duels[0]
    metrics = run_metrics(run)
    expected = _duel_expected(build_report([run]))
    _matches({m.key: m for m in metrics if m.metric in {k[0] for k in expected}}, expected)
    assert {m.kind for m in metrics} == set(KINDS)
    metrics_of = {(m.metric, m.kind) for m in metrics}
    assert {("card_position_effect", RANDOMIZED), ("card_early_access", RANDOMIZED), ("task_dealt_effect", RANDOMIZED),
            ("card_ablation_effect", ABLATION), ("matchup_win_rate", CONTROLLED),
            ("card_win_rate_when_drawn", DESCRIPTIVE)} <= metrics_of
    # every arm recorded has its pairs; an arm that changed no result has no value and so no metric (not a 0)
    arms = [m for m in metrics if m.kind == ABLATION]
    assert arms and all(m.n > 0 and m.value is not None for m in arms)


def test_the_history_stores_them_and_shows_the_trusted_kinds_first(duels: tuple[Path, Path], tmp_path: Path) -> None:
    db = tmp_path / "history.duckdb"
    record_run(duels[0], db)
    recorded = {m.key: m for m in run_metrics(duels[0])}
    rows = metric_history(db, study="hist")
    assert len(rows) == len(recorded)
    for r in rows:
        m = recorded[(r.metric, r.mode, r.subject, r.context)]
        assert (r.kind, r.value, r.low, r.high, r.n, r.mde, r.successes, r.trials) == (
            m.kind, m.value, m.low, m.high, m.n, m.mde, m.successes, m.trials)
    # each filter keeps exactly its own rows: subject, metric, form, and the study by id as by name
    for subject in sorted({r.subject for r in rows})[:5]:
        assert sorted(map(repr, metric_history(db, subject=subject))) == sorted(
            repr(r) for r in rows if r.subject == subject)
    for metric, mode in {(r.metric, r.mode) for r in rows}:
        assert sorted(map(repr, metric_history(db, metric=metric, mode=mode))) == sorted(
            repr(r) for r in rows if (r.metric, r.mode) == (metric, mode))
    assert metric_history(db, study=rows[0].study_id) == rows
    out = CliRunner().invoke(app, ["history", "--card", "imperial/swordmaster", "--db", str(db)])
    assert out.exit_code == 0, out.output
    headings = [out.output.index(f"\n{kind}: ") for kind in KINDS if f"\n{kind}: " in out.output]
    assert len(headings) == 3 and headings == sorted(headings)  # randomized, ablation, then descriptive
    assert "card_early_access: dealt in the opening hand minus not: the value of early access, not the card's " \
           "strength" in out.output
    assert "vanilla arm; imperial, random" in out.output


def test_regress_lists_the_summary_metrics_by_kind_after_the_verdict(duels: tuple[Path, Path]) -> None:
    result = compare_runs(*duels, Thresholds(min_trials=10))  # a small run: every kind tested
    assert {c.base.kind for c in result.changes} == set(KINDS)
    page = render_markdown(result)
    after = page[page.index("## Other metrics"):]
    places = [after.index(f"**{kind}**") for kind in KINDS]
    assert places == sorted(places)
    assert "| card_position_effect |" in after and "| card_ablation_effect |" in after
    assert "| deck_win_rate | deathmatch |" in after or "| matchup_win_rate | deathmatch |" in after


def test_a_melee_run_records_its_own_metrics(tmp_path: Path) -> None:
    run = make_melee_run(tmp_path / "melee", 30)
    metrics = run_metrics(run)
    _matches({m.key: m for m in metrics}, _melee_expected(build_report([run])))
    assert {"turn_order_effect", "melee_deck_win_rate", "colour_score", "best_colour_lost",
            "card_position_effect"} <= {m.metric for m in metrics}
    assert {m.mode for m in metrics} == {"melee-3", "melee-4"}


def test_a_team_run_records_its_own_metrics(tmp_path: Path) -> None:
    for run in (make_team_run(tmp_path / "teams", 24), _pass_run(tmp_path / "passing", 200, 0.6, balanced=True)):
        metrics = run_metrics(run)
        _matches({m.key: m for m in metrics}, _team_expected(build_report([run])))
        assert {"turn_order_effect", "team_decks_win_rate", "pass_control_rate"} <= {m.metric for m in metrics}
    [gain] = [m for m in metrics if m.metric == "pass_control_effect"]
    assert (gain.kind, gain.subject, gain.context, gain.n) == (CONTROLLED, "on+on", "against off+off", 200)


# The history's layout before metrics carried their kind (history_schema.sql as it was): a rate per row.
OLD_SCHEMA = """
CREATE TABLE runs (run_id VARCHAR PRIMARY KEY, run_path VARCHAR NOT NULL, recorded_at TIMESTAMP NOT NULL,
                   study_name VARCHAR, study_id VARCHAR, card_set VARCHAR, strategies VARCHAR, code_version VARCHAR);
CREATE TABLE metrics (run_id VARCHAR NOT NULL, metric VARCHAR NOT NULL, mode VARCHAR NOT NULL,
                      subject VARCHAR NOT NULL, successes BIGINT NOT NULL, trials BIGINT NOT NULL);
INSERT INTO runs VALUES ('old1', '/runs/old', TIMESTAMP '2026-01-02 03:04:05', 'hist', 'sid', 'fp', 'random=random',
                         'v0');
INSERT INTO metrics VALUES ('old1', 'card_win_rate_when_played', 'deathmatch', 'imperial/swordmaster', 30, 60),
                           ('old1', 'deck_win_rate', 'deathmatch', 'imperial', 55, 100);
"""


def test_a_history_of_the_older_layout_reads_and_takes_new_runs(duels: tuple[Path, Path], tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(OLD_SCHEMA)
    [old] = metric_history(db, "imperial/swordmaster")  # read as it is, without being changed
    assert (old.kind, old.value, old.n, old.context, old.mde) == (DESCRIPTIVE, 0.5, 60, "", None)
    assert (old.low, old.high) == pytest.approx(Rate(30, 60).interval)
    record_run(duels[0], db)  # writing migrates the layout; the old rows stay as they were
    rows = metric_history(db, "imperial")
    old_deck = [r for r in rows if r.run_path == "/runs/old"]
    assert [(r.metric, r.kind, r.successes, r.trials) for r in old_deck] == [("deck_win_rate", DESCRIPTIVE, 55, 100)]
    assert {r.kind for r in rows if r.run_path != "/runs/old"} == {CONTROLLED}
    out = CliRunner().invoke(app, ["history", "--deck", "imperial", "--db", str(db)])
    assert out.exit_code == 0, out.output
    assert out.output.index("\ncontrolled: ") < out.output.index("\ndescriptive: ") < out.output.index("/runs/old")


def test_a_card_drawn_or_played_twice_in_a_game_counts_one_seat_game(tmp_path: Path) -> None:
    """Seat 0 draws Swordmaster, returns it and draws it again, and plays it twice, in each of 4 games; seat 1
    draws and plays it once, and draws Bomb without playing it; a task is revealed in every game and claimed in
    two. The descriptive rates count seat-games (games for the task), not events: 8 of them, 4 won."""
    from tests.handmade import game, write_run

    games = [game(g, "deathmatch", ("imperial", "imperial"), 0, g // 2) for g in range(4)]
    card = {"card_id": "imperial/swordmaster", "card_type": "being"}
    events = []
    for g in range(4):
        events += [{"game_id": g, "seat": 0, "turn": 0, "event": "drawn", "opening": True} | card,
                   {"game_id": g, "seat": 0, "turn": 3, "event": "returned"} | card,
                   {"game_id": g, "seat": 0, "turn": 5, "event": "drawn"} | card,
                   {"game_id": g, "seat": 0, "turn": 6, "event": "played", "square": 10} | card,
                   {"game_id": g, "seat": 0, "turn": 9, "event": "played", "square": 12} | card,
                   {"game_id": g, "seat": 1, "turn": 2, "event": "drawn"} | card,
                   {"game_id": g, "seat": 1, "turn": 4, "event": "played", "square": 30} | card,
                   {"game_id": g, "seat": 1, "turn": 1, "event": "drawn", "card_id": "imperial/bomb",
                    "card_type": "being"}]
    tasks = [{"game_id": g, "turn": 0, "seat": -1, "task_id": "task/destruction", "event": "revealed"}
             for g in range(4)]
    tasks += [{"game_id": g, "turn": 7, "seat": 0, "task_id": "task/destruction", "event": "claimed", "points": 2}
              for g in (1, 3)]
    run = write_run(tmp_path / "twice", games, card_events=events, task_events=tasks)
    rates = {(m.metric, m.subject): (m.successes, m.trials) for m in run_metrics(run)
             if m.kind == DESCRIPTIVE and m.mode == "deathmatch"}
    sword = "imperial/swordmaster"
    assert rates["card_win_rate_when_drawn", sword] == rates["card_win_rate_when_played", sword] == (4, 8)
    assert rates["card_play_rate_when_drawn", sword] == (8, 8)
    assert rates["card_play_rate_when_drawn", "imperial/bomb"] == (0, 4)
    assert rates["card_win_rate_when_drawn", "imperial/bomb"] == (2, 4)
    assert rates["task_claim_rate_when_revealed", "task/destruction"] == (2, 4)
