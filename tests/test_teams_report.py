"""The report's team section (2 against 2): its numbers against the Parquet rows, the duel sections counting
duels only, the turn-order estimate validated on planted effects and A/A runs, what passing control gains
(controlled only where the study balanced it), the history of a team-only run, and runs of schema version 3."""

from __future__ import annotations

import csv
import json
import random
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipelines.shard import play_recording_order
from pipelines.tables import TableBuilder
from reports.build import build_report, write_report
from reports.names import Names
from reports.stats import Rate
from sim.cards import load_card_set
from sim.game import Game
from strategies import make_strategy
from tests.handmade import game, write_run

TABLES = (("imperial", "highland", "sylvan", "imperial"), ("highland", "imperial", "imperial", "sylvan"))


def make_team_run(path: Path, games: int, duels: int = 0) -> Path:
    """Real team games of random players (both forms, two deck tables), then ``duels`` duels."""
    cards = load_card_set()
    builder = TableBuilder()
    for g in range(games):
        decks, mode = TABLES[g % 2], ("deathmatch", "high-form")[g % 3 == 0]
        players = [make_strategy("random", s, 500 + g) for s in range(4)]
        record, order = play_recording_order(Game(cards, mode, decks, players, 500 + g, teams=True))
        builder.add(g, f"team-{mode}|x|random", record, cards.fingerprint(), deck_order=order)
    for g in range(games, games + duels):
        players = [make_strategy("random", s, g) for s in range(2)]
        record, order = play_recording_order(Game(cards, "deathmatch", ("imperial", "sylvan"), players, g))
        builder.add(g, "deathmatch|imperial-sylvan|random-random", record, cards.fingerprint(), deck_order=order)
    for name, table in builder.tables().items():
        (path / name).mkdir(parents=True, exist_ok=True)
        pq.write_table(table, path / name / "part-0.parquet")
    (path / "manifest.json").write_text(json.dumps({"name": path.name, "games": games + duels}))
    return path


def read_csv(directory: Path, table: str) -> list[dict[str, str]]:
    with (directory / f"{table}.csv").open(newline="") as f:
        return list(csv.DictReader(f))


def rows(run_dir: Path, table: str) -> list[dict]:
    return pq.read_table(run_dir / table).to_pylist()


@pytest.fixture(scope="module")
def team_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("teams")
    run_dir = make_team_run(base / "run", 72)
    write_report([run_dir], html=base / "report.html", md=base / "report.md", csv_dir=base / "csv")
    return run_dir, base


def test_the_turn_order_rows_count_the_games(team_report: tuple[Path, Path]) -> None:
    run_dir, base = team_report
    games = rows(run_dir, "games")
    for row in read_csv(base / "csv", "team_order"):
        mine = [g for g in games if f"team-{g['mode']}" == row["mode"]]
        first = sum(g["winner"] == g["first_player"] % 2 for g in mine)
        second = sum(g["winner"] not in (-1, g["first_player"] % 2) for g in mine)
        ties = sum(g["winner"] == -1 for g in mine)
        assert (row["games"], row["first_k"], row["second_k"], row["ties_k"]) == (
            str(len(mine)), str(first), str(second), str(ties))
        assert float(row["effect"]) == pytest.approx((first - second) / len(mine))
        # score_0 is team A's (seats 0 and 2): the first team's score is the first seat's team's.
        team_score = [(g["score_0"], g["score_1"])[g["first_player"] % 2] for g in mine]
        other_score = [(g["score_1"], g["score_0"])[g["first_player"] % 2] for g in mine]
        assert float(row["first_score"]) == pytest.approx(sum(team_score) / len(mine))
        assert float(row["second_score"]) == pytest.approx(sum(other_score) / len(mine))
    assert {r["mode"] for r in read_csv(base / "csv", "team_order")} == {"team-deathmatch", "team-high-form"}


def test_the_results_by_team_decks_count_each_team_of_each_game(team_report: tuple[Path, Path]) -> None:
    run_dir, base = team_report
    games = {g["game_id"]: g for g in rows(run_dir, "games")}
    seats = rows(run_dir, "seat_results")
    teams: dict[tuple[int, int], list[str]] = {}
    for s in seats:
        teams.setdefault((s["game_id"], s["team"]), []).append(s["deck"])
    expected: Counter = Counter()
    wins: Counter = Counter()
    ties: Counter = Counter()
    scores: Counter = Counter()
    for (g, team), decks in teams.items():
        key = (f"team-{games[g]['mode']}", "+".join(sorted(decks)), "+".join(sorted(teams[(g, 1 - team)])))
        expected[key] += 1
        wins[key] += games[g]["winner"] == team
        ties[key] += games[g]["winner"] == -1
        scores[key] += (games[g]["score_0"], games[g]["score_1"])[team]
    got = {(r["mode"], r["decks"], r["opp_decks"]): r for r in read_csv(base / "csv", "team_results")}
    assert set(got) == set(expected)
    for key, n in expected.items():
        assert (got[key]["win_n"], got[key]["win_k"]) == (str(n), str(wins[key])), key
        assert (got[key]["tie_n"], got[key]["tie_k"]) == (str(n), str(ties[key])), key  # a tie is no win
        assert float(got[key]["mean_score"]) == pytest.approx(scores[key] / n), key


def test_each_team_card_row_splits_its_decks_seat_games_into_held_and_never_held(
        team_report: tuple[Path, Path]) -> None:
    run_dir, base = team_report
    games = {g["game_id"]: g for g in rows(run_dir, "games")}
    deck_seats = Counter((f"team-{games[s['game_id']]['mode']}", s["deck"]) for s in rows(run_dir, "seat_results"))
    beings = read_csv(base / "csv", "team_being_outcomes")
    assert beings
    for r in beings:
        assert int(r["in_hand_n"]) + int(r["never_n"]) == deck_seats[(r["mode"], r["deck"])], r


def test_the_passing_rows_count_the_pass_control_events(team_report: tuple[Path, Path]) -> None:
    run_dir, base = team_report
    games = {g["game_id"]: g for g in rows(run_dir, "games")}
    passes = rows(run_dir, "pass_control")
    assert passes
    for row in read_csv(base / "csv", "team_pass_games"):
        mine = [p for p in passes if f"team-{games[p['game_id']]['mode']}" == row["mode"]]
        inside = sum(p["during"] != "" for p in mine)
        assert (row["passes"], row["inside_k"], row["inside_n"]) == (str(len(mine)), str(inside), str(len(mine)))
        assert row["passing_k"] == str(len({p["game_id"] for p in mine}))
    players = read_csv(base / "csv", "team_pass_players")
    assert sum(int(r["passes"]) for r in players) == len(passes)
    assert sum(int(r["games"]) for r in players) == 4 * len(games)
    cards = read_csv(base / "csv", "team_pass_cards")
    top = Counter((games[p["game_id"]]["mode"], p["during"]) for p in passes if p["during"])
    names = Names(load_card_set())
    by_name = {(f"team-{mode}", names.card(card)): n for (mode, card), n in top.items()}
    assert all(by_name[(r["mode"], r["card"])] == int(r["passes"]) for r in cards)
    for mode in {r["mode"] for r in cards}:  # the cards most passed inside first
        counts = [int(r["passes"]) for r in cards if r["mode"] == mode]
        assert counts == sorted(counts, reverse=True)
        most = sorted((n for (m, _), n in top.items() if f"team-{m}" == mode), reverse=True)
        assert counts == most[:len(counts)]
    assert len(set(top.values())) > 1


def test_a_run_of_team_games_only_shows_the_overview_and_the_team_section(team_report: tuple[Path, Path]) -> None:
    text = (team_report[1] / "report.md").read_text()
    assert "## Team games (2 against 2)" in text and "team-deathmatch (" in text
    assert "## Beings" not in text and "## Melee" not in text and "## Game level" not in text
    assert "Team beings: randomized estimates" in text


def test_with_duels_beside_team_games_the_duel_sections_count_duels_only(tmp_path: Path) -> None:
    run_dir = make_team_run(tmp_path / "mixed", 24, duels=30)
    report = build_report([run_dir])
    [first] = [t for t in report.tables() if t.id == "first_player"]
    assert sum(r["games"] for r in first.rows) == 30
    [order] = [t for t in report.tables() if t.id == "team_order"]
    assert sum(r["games"] for r in order.rows) == 24
    assert dict(report.facts)["Games"] == "54"


def test_a_run_of_team_games_only_is_recorded_in_the_history(team_report: tuple[Path, Path], tmp_path: Path) -> None:
    import duckdb

    from reports.regression.history import record_run

    db = tmp_path / "history.duckdb"
    assert record_run(team_report[0], db)
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM runs").fetchone()[0] == 1
        assert con.execute("SELECT count(*) FROM metrics WHERE metric = 'turn_order_effect'").fetchone()[0] == 2


def test_runs_of_schema_version_3_are_still_reported(tmp_path: Path) -> None:
    """A run written before team games: without games.teams, seat_results.team and the pass_control table. Its
    report is the one of the same rows written today."""
    from tests.test_reports import make_run

    today = make_run(tmp_path / "today", 60, seed=9)
    old = tmp_path / "old"
    dropped = {"games": ["teams"], "seat_results": ["team"]}
    for table in ("games", "card_events", "task_events", "flare_events", "points", "deck_order", "seat_results",
                  "colour_points"):
        (old / table).mkdir(parents=True)
        for f in (today / table).glob("*.parquet"):
            pq.write_table(pq.read_table(f).drop_columns(dropped.get(table, [])), old / table / f.name)
    (old / "manifest.json").write_text((today / "manifest.json").read_text())
    for run_dir in (today, old):
        write_report([run_dir], csv_dir=tmp_path / f"{run_dir.name}-csv")
    for table in ("beings", "first_player", "matchups", "flares"):
        assert read_csv(tmp_path / "old-csv", table) == read_csv(tmp_path / "today-csv", table), table
    other = make_run(tmp_path / "other", 60, seed=900)  # other games: the same ones twice are refused
    build_report([other, old])  # a version 3 run beside one of today's version


# ----- the turn-order estimate validated on planted effects and A/A runs
def _team_rows(g: int, first: int, winner: int, strategies: tuple[str, str, str, str] = ("random",) * 4,
               decks: tuple[str, str, str, str] = TABLES[0], mode: str = "deathmatch") -> tuple[dict, list[dict]]:
    row = game(g, mode, (decks[0], decks[1]), first, winner, strategies=(strategies[0], strategies[1])) | {
        "players": 4, "teams": True}
    seats = [{"game_id": g, "seat": s, "team": s % 2, "deck": decks[s], "strategy": strategies[s],
              "position": (s - first) % 4, "place": 1 if winner in (-1, s % 2) else 2} for s in range(4)]
    return row, seats


def _planted_run(path: Path, games: int, first_wins: float, seed: int) -> Path:
    """Hand-made team games: the team of the first seat wins with probability ``first_wins``; nothing else
    varies."""
    rng = random.Random(seed)
    all_games, all_seats = [], []
    for g in range(games):
        first = rng.randrange(4)
        winner = first % 2 if rng.random() < first_wins else 1 - first % 2
        row, seats = _team_rows(g, first, winner)
        all_games.append(row)
        all_seats += seats
    return write_run(path, all_games, seat_results=all_seats)


def test_a_planted_first_team_edge_is_flagged_and_an_even_one_is_not(tmp_path: Path) -> None:
    for name, first_wins, flagged in (("planted", 0.56, True), ("even", 0.5, False)):
        report = build_report([_planted_run(tmp_path / name, 900, first_wins, seed=1)])
        [table] = [t for t in report.tables() if t.id == "team_order"]
        [row] = table.rows
        assert row["effect"].flagged is flagged, (name, row["effect"].value)
        assert (row["flags"] == "▲") is flagged
        assert any("team of the first seat" in line for line in report.summary) is flagged


def test_even_first_team_runs_are_rarely_flagged(tmp_path: Path) -> None:
    """A/A: ten runs where the turn order does not matter; each test is at a 5% false discovery rate."""
    flagged = 0
    for seed in range(10):
        report = build_report([_planted_run(tmp_path / f"aa{seed}", 300, 0.5, seed=100 + seed)])
        [table] = [t for t in report.tables() if t.id == "team_order"]
        flagged += any(r["effect"].flagged for r in table.rows)
    assert flagged <= 2


# ----- what passing gains
PLAYERS = {"on": {"strategy": "builder", "params": {"threat": 0.5}},
           "off": {"strategy": "builder", "params": {"threat": 0.5, "pass_control": False}},
           "other": {"strategy": "builder", "params": {"threat": 0.7, "pass_control": False}}}


def _pass_run(path: Path, games: int, on_wins: float, *, balanced: bool, opponent: str = "off",
              seed: int = 3) -> Path:
    """Hand-made team games of ``on`` (passing) against ``opponent``: each team holds each side's decks in
    half the games when ``balanced``, else the passing team always holds imperial+sylvan."""
    rng = random.Random(seed)
    all_games, all_seats, passes = [], [], []
    for g in range(games):
        first = rng.randrange(4)
        on_team = g % 2 if balanced else 0
        decks = TABLES[0]  # team 0: imperial+sylvan, team 1: highland+imperial
        strategies = tuple("on" if s % 2 == on_team else opponent for s in range(4))
        winner = on_team if rng.random() < on_wins else 1 - on_team
        row, seats = _team_rows(g, first, winner, strategies, decks)
        all_games.append(row)
        all_seats += seats
        passes.append({"game_id": g, "turn": 3, "seat": on_team, "to_seat": on_team + 2, "during": ""})
    return write_run(path, all_games, manifest={"name": path.name, "config": {"players": PLAYERS}},
                     seat_results=all_seats, pass_control=passes)


def _pass_table(run_dir: Path) -> list[dict]:
    report = build_report([run_dir])
    [table] = [t for t in report.tables() if t.id == "team_pass_effect"]
    return table.rows


def test_a_planted_gain_of_passing_is_flagged_where_the_study_balanced_it(tmp_path: Path) -> None:
    [row] = _pass_table(_pass_run(tmp_path / "planted", 600, 0.6, balanced=True))
    assert (row["passing"], row["not_passing"], row["design"]) == ("on+on", "off+off", "controlled")
    assert row["effect"].flagged and row["effect"].value > 0 and row["games"] == 600
    [row] = _pass_table(_pass_run(tmp_path / "even", 600, 0.5, balanced=True, seed=5))
    assert not row["effect"].flagged


def test_without_balanced_decks_the_gain_of_passing_is_descriptive(tmp_path: Path) -> None:
    [row] = _pass_table(_pass_run(tmp_path / "unbalanced", 600, 0.6, balanced=False))
    assert row["design"].startswith("descriptive")
    assert row["effect"].p is None and not row["effect"].flagged and row["effect"].value > 0


def test_players_that_differ_in_more_than_passing_are_not_compared(tmp_path: Path) -> None:
    assert _pass_table(_pass_run(tmp_path / "other", 200, 0.6, balanced=True, opponent="other")) == []


def test_passing_tables_count_passes_before_actions_inside_effects_and_the_games_without_any(tmp_path: Path) -> None:
    """Hand-made team games: in Deathmatch team A passes twice before an action (game 0), team B twice, once
    inside an effect (game 1), and nobody passes in games 2-3; nobody passes in the two High Form games."""
    all_games, all_seats = [], []
    for g, mode in enumerate(["deathmatch"] * 4 + ["high-form"] * 2):
        row, seats = _team_rows(g, 0, g % 2, mode=mode)
        all_games.append(row)
        all_seats += seats
    passes = [{"game_id": 0, "turn": 3, "seat": 0, "to_seat": 2, "during": ""},
              {"game_id": 0, "turn": 7, "seat": 2, "to_seat": 0, "during": ""},
              {"game_id": 1, "turn": 2, "seat": 1, "to_seat": 3, "during": ""},
              {"game_id": 1, "turn": 5, "seat": 3, "to_seat": 1, "during": "imperial/bomb"}]
    run = write_run(tmp_path / "passes", all_games, seat_results=all_seats, pass_control=passes)
    tables = {t.id: t.rows for t in build_report([run]).tables()}
    per_game = {r["mode"]: r for r in tables["team_pass_games"]}
    dm, hf = per_game["team-deathmatch"], per_game["team-high-form"]
    assert (dm["games"], dm["passes"], dm["before_action"], dm["inside_effect"], dm["passing_games"]) == (
        4, 4, 3, 1, 2)
    assert (hf["games"], hf["passes"], hf["before_action"], hf["inside_effect"], hf["passing_games"]) == (
        2, 0, 0, 0, 0)
    players = {r["mode"]: r for r in tables["team_pass_players"]}
    assert (players["team-deathmatch"]["before_action"], players["team-deathmatch"]["inside_effect"]) == (3, 1)
    hf_players = players["team-high-form"]
    assert (hf_players["games"], hf_players["passes"], hf_players["before_action"], hf_players["inside_effect"],
            hf_players["passing_games"]) == (8, 0, 0, 0, 0)
    split = {r["mode"]: r for r in tables["team_pass_split"]}
    # Deathmatch: 8 team-games, 2 with a pass (team A of game 0 won; team B of game 1 won), 6 without (2 won).
    assert (split["team-deathmatch"]["passed"], split["team-deathmatch"]["not_passed"]) == (Rate(2, 2), Rate(2, 6))
    assert split["team-high-form"]["not_passed"] == Rate(2, 4)
