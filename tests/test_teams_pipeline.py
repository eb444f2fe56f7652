"""Team games (2 against 2) through the study pipeline: team cells in the config and their seat rotation, the
rows of team games (schema version 4), the plan, and a team study on local Ray. The rules are tested in the
core (core/engine/src/team_tests.rs); the report's team section in tests/test_teams_report.py."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipelines.schema import SCHEMA_VERSION, TABLES
from pipelines.shard import play_recording_order
from pipelines.study import Study, StudyConfigError, parse_study
from pipelines.tables import TableBuilder
from sim.cards import load_card_set
from sim.game import Game
from sim.record import Destroy
from strategies import make_strategy
from strategies.registry import DEFAULT_STRATEGY

STUDY = {
    "forms": ["team-high-form", "team-deathmatch"],
    "team_deck_tables": [[["imperial", "sylvan"], ["highland", "imperial"]]],
    "team_strategy_tables": [[["random", "builder"], ["random", "random"]]],
    "games_per_cell": 8, "base_seed": 3,
}


# ----- the config
def test_team_tables_by_pairs_and_by_seat_are_the_same_cells() -> None:
    by_pairs = parse_study(STUDY, Path("t.toml"))
    by_seat = parse_study(STUDY | {"team_deck_tables": [["imperial", "highland", "sylvan", "imperial"]],
                                   "team_strategy_tables": [["random", "random", "builder", "random"]]},
                          Path("t.toml"))
    assert [c.name for c in by_pairs.cells] == [c.name for c in by_seat.cells] == [
        "team-high-form|imperial+sylvan-highland+imperial|random+builder-random+random",
        "team-deathmatch|imperial+sylvan-highland+imperial|random+builder-random+random"]
    assert by_pairs.cells[0].decks == ("imperial", "highland", "sylvan", "imperial")  # by seat: A1, B1, A2, B2
    assert by_pairs.to_config() == by_seat.to_config()


def test_team_cells_rotate_both_teams_and_their_members_through_every_seat() -> None:
    study = parse_study(STUDY, Path("t.toml"))
    for cell in study.cells:
        assert cell.teams and cell.seats == 4
        games = [study.game(cell.index * study.games_per_cell + k) for k in range(study.games_per_cell)]
        for slot in range(4):  # the table's place: team A's members are slots 0 and 2, team B's 1 and 3
            assert Counter(g.seat_of(slot) for g in games) == dict.fromkeys(range(4), study.games_per_cell // 4)
            for g in games:
                assert g.decks[g.seat_of(slot)] == cell.decks[slot] and g.players[g.seat_of(slot)] == cell.players[slot]
                assert g.seat_of(slot) % 2 == g.seat_of((slot + 2) % 4) % 2  # teammates stay teammates
                assert g.seat_of(slot) != g.seat_of((slot + 2) % 4)
        # each team plays as team A (seats 0 and 2) in half the games, and its members swap seats
        assert Counter(g.seat_of(0) % 2 for g in games) == {0: 4, 1: 4}
        assert Counter(g.seat_of(0) for g in games if g.seat_of(0) % 2 == 0) == {0: 2, 2: 2}


def test_all_team_deck_tables_are_the_ones_the_box_seats() -> None:
    study = parse_study(STUDY | {"team_deck_tables": "all"}, Path("t.toml"))
    assert study.team_deck_tables == ((("highland", "imperial"), ("imperial", "sylvan")),
                                      (("highland", "sylvan"), ("imperial", "imperial")))
    assert len(study.cells) == 2 * 2


def test_a_team_study_round_trips_and_a_duel_study_keeps_its_config() -> None:
    study = parse_study(STUDY | {"forms": ["team-deathmatch", "deathmatch"], "deck_pairings": "all",
                                 "strategy_pairings": [["random", "random"]]}, Path("t.toml"))
    assert Study.from_config(json.loads(json.dumps(study.to_config()))) == study
    assert [c.form for c in study.cells] == ["team-deathmatch"] + ["deathmatch"] * 6
    duel = parse_study({"forms": ["deathmatch"], "deck_pairings": "all", "strategy_pairings": [["random", "random"]],
                        "games_per_cell": 2, "base_seed": 1}, Path("d.toml"))
    assert not any(k.startswith("team") for k in duel.to_config())


@pytest.mark.parametrize("changes, key, message", [
    ({"team_deck_tables": None}, "team_deck_tables", "missing; the team forms need"),
    ({"team_strategy_tables": None}, "team_strategy_tables", "missing; the team forms need"),
    ({"team_strategy_tables": None}, "team_strategy_tables", f'like [[["{DEFAULT_STRATEGY}", "{DEFAULT_STRATEGY}"], '),
    ({"games_per_cell": 6}, "games_per_cell", "a multiple of 4 with seat_balance on (the team cells rotate"),
    ({"team_deck_tables": [["imperial", "sylvan", "highland"]]}, "team_deck_tables[0]", "expected a team table"),
    ({"team_deck_tables": [[["imperial"], ["sylvan", "highland"]]]}, "team_deck_tables[0]", "expected a team table"),
    ({"team_deck_tables": [[["imperial", "nope"], ["sylvan", "highland"]]]}, "team_deck_tables[0]",
     "unknown name 'nope'"),
    ({"team_deck_tables": [[["imperial", "sylvan"], ["highland", "imperial"]],
                           ["imperial", "highland", "sylvan", "imperial"]]}, "team_deck_tables[1]", "listed twice"),
    ({"team_deck_tables": "some"}, "team_deck_tables", 'expected "all" or a non-empty list of team tables'),
    ({"team_strategy_tables": [[["random", "no-such"], ["random", "random"]]]}, "team_strategy_tables[0]",
     "is not a strategy name or player label"),
    ({"team_strategy_tables": "all"}, "team_strategy_tables", "none is declared"),
    ({"forms": ["deathmatch"], "deck_pairings": "all", "strategy_pairings": [["random", "random"]]},
     "team_deck_tables", "team tables are for the team forms"),
    ({"forms": ["team-melee"]}, "forms", "unknown game form 'team-melee'"),
])
def test_team_study_errors_name_the_file_and_key(changes: dict, key: str, message: str) -> None:
    config = {k: v for k, v in (STUDY | changes).items() if v is not None}
    with pytest.raises(StudyConfigError) as e:
        parse_study(config, Path("teams.toml"))
    assert f"teams.toml: {key}: " in str(e.value) and message in str(e.value), str(e.value)


def test_a_study_of_team_games_only_needs_no_pairings_and_the_duel_keys_stay_required_with_a_duel_form() -> None:
    assert len(parse_study(STUDY, Path("t.toml")).cells) == 2
    with pytest.raises(StudyConfigError, match="deck_pairings: missing"):
        parse_study(STUDY | {"forms": ["team-deathmatch", "high-form"]}, Path("t.toml"))


# ----- the rows of team games
def team_game(decks: tuple[str, ...], seed: int, mode: str = "deathmatch") -> Game:
    players = [make_strategy("random", seat, seed) for seat in range(4)]
    return Game(load_card_set(), mode, decks, players, seed, teams=True)


DECKS = ("imperial", "highland", "sylvan", "imperial")


@pytest.fixture(scope="module")
def team_rows() -> tuple[list, dict]:
    cards = load_card_set()
    builder, records = TableBuilder(), []
    for g in range(6):
        record, order = play_recording_order(team_game(DECKS, 60 + g, ("deathmatch", "high-form")[g % 2]))
        builder.add(g, "team|x|random", record, cards.fingerprint(), deck_order=order)
        records.append(record)
    return records, {name: t.to_pylist() for name, t in builder.tables().items()}


def test_team_games_rows(team_rows: tuple[list, dict]) -> None:
    records, rows = team_rows
    assert set(rows) == set(TABLES) and SCHEMA_VERSION >= 4
    for g, record in enumerate(records):
        [game] = [r for r in rows["games"] if r["game_id"] == g]
        assert game["teams"] and game["players"] == 4 and game["first_player"] == record.first_player
        assert (game["score_0"], game["score_1"]) == tuple(record.scores) and game["winner"] == record.winner
        seats = sorted((r for r in rows["seat_results"] if r["game_id"] == g), key=lambda r: r["seat"])
        assert [r["team"] for r in seats] == [0, 1, 0, 1] and [r["deck"] for r in seats] == list(DECKS)
        assert [r["score"] for r in seats] == [record.scores[s % 2] for s in range(4)]
        assert [r["position"] for r in seats] == [(s - record.first_player) % 4 for s in range(4)]
        assert [r["place"] for r in seats] == [1 if record.winner in (-1, s % 2) else 2 for s in range(4)]
        passes = [(e.turn, e.seat, e.to, e.during) for e in record.events if e.kind == "pass_control"]
        assert [(r["turn"], r["seat"], r["to_seat"], r["during"]) for r in rows["pass_control"]
                if r["game_id"] == g] == passes
        assert all(to == (seat + 2) % 4 for _, seat, to, _ in passes)
        order = [r for r in rows["deck_order"] if r["game_id"] == g]
        assert Counter(r["seat"] for r in order) == dict.fromkeys(range(4), 18)
    assert rows["pass_control"], "random players pass now and then"
    assert not rows["colour_points"]


def test_an_effect_destroying_the_other_teams_pieces_counts_as_enemy(team_rows: tuple[list, dict]) -> None:
    """A destroy's owner is the team (0/1) while its seat is a real seat (0-3): enemy means the other team."""
    records, rows = team_rows
    enemy = own = 0
    for record in records:
        for e in record.of_kind(Destroy):
            if e.cause.count("/") and not e.cause.startswith(("flare/", "task/")):
                enemy += e.owner != e.seat % 2
                own += e.owner == e.seat % 2
    played = [r for r in rows["card_events"] if r["event"] == "played"]
    counted_enemy = sum(r["enemy_common"] + r["enemy_heroic"] + r["enemy_legendary"] for r in played)
    counted_own = sum(r["own_destroyed"] for r in played)
    assert counted_enemy + counted_own <= enemy + own
    assert counted_enemy > 0 or enemy == 0


def test_the_plan_of_a_team_study_counts_each_seat_at_its_teams_share_of_the_wins() -> None:
    from reports.plan import plan
    from reports.stats import mde_paired, mde_two_rates

    study = parse_study(STUDY, Path("t.toml"))
    lines = {line.estimate: line for line in plan(study, 0.05, 0.5)}
    line = lines["opening hand, one sylvan being (team-deathmatch, builder)"]
    assert line.n == 8
    exposed = round(line.n * 3 / 18)
    assert line.mde == mde_two_rates(exposed, line.n - exposed, 1 / 2)
    order = lines["turn order, the first team minus the second (team-deathmatch)"]
    assert order.n == 8 and order.mde == mde_paired(1.0, 8)
    assert not any("task dealt" in e for e in lines)  # the team section has no task estimates


# ----- a team study on local Ray
TEAM_STUDY = """
name = "ray-teams"
forms = ["team-high-form", "team-deathmatch"]
team_deck_tables = [[["imperial", "sylvan"], ["highland", "imperial"]]]
team_strategy_tables = [[["random", "random"], ["random", "random"]]]
games_per_cell = 24
base_seed = 7
shard_size = 8
"""


@pytest.mark.ray
def test_a_team_study_gives_the_same_rows_on_one_or_two_workers_and_is_reported(tmp_path: Path) -> None:
    from tests.test_pipelines_ray import BIN, assert_same_rows, tashkalar_run

    study = tmp_path / "teams.toml"
    study.write_text(TEAM_STUDY)
    one, two = tmp_path / "one", tmp_path / "two"
    printed = tashkalar_run(study, two, "--workers", "2").stdout
    assert "ray-teams: 48 games in 6 shards" in printed
    assert "team-deathmatch|imperial+sylvan-highland+imperial" in printed
    tashkalar_run(study, one, "--workers", "1")
    assert_same_rows(two, one)
    games = pq.read_table(two / "games").to_pylist()
    assert len(games) == 48 and all(g["teams"] and g["players"] == 4 for g in games)
    assert Counter(g["cell"] for g in games) == {
        f"{form}|imperial+sylvan-highland+imperial|random+random-random+random": 24
        for form in ("team-high-form", "team-deathmatch")}
    assert len(pq.read_table(two / "seat_results")) == 48 * 4
    out = tmp_path / "report"
    result = subprocess.run([str(BIN / "tashkalar"), "report", str(two), "--out", str(out / "report.html"),
                             "--md", str(out / "report.md"), "--csv", str(out / "csv")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    text = (out / "report.md").read_text()
    assert "## Team games (2 against 2)" in text and "## Beings" not in text
    assert "Team games (2 against 2)" in (out / "report.html").read_text()
    order = (out / "csv" / "team_order.csv").read_text().splitlines()
    assert len(order) == 1 + 2
