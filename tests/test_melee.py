"""The Deathmatch melee (3-4 players) through the Python layers: the API and its record, ``tashkalar play``
and ``bench``, study cells and their seat rotation, the dataset and the report's melee section, and reading
runs of the schema before the melee. The rules themselves are tested in the core (core/engine/src/
melee_tests.rs: every rule and decision, and thousands of strict random melees)."""

from __future__ import annotations

import csv
import hashlib
import json
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipelines.shard import play_recording_order
from pipelines.study import StudyConfigError, parse_study
from pipelines.tables import TableBuilder
from reports import sections_melee
from reports.build import write_report
from reports.dataset import open_runs
from reports.names import Names
from sim import core
from sim.cards import load_card_set
from sim.cli import app
from sim.game import Game
from sim.record import FlareInvoked, Improvise, Points
from strategies import make_strategy
from strategies.registry import DEFAULT_STRATEGY

TABLES_3 = [("imperial", "sylvan", "highland"), ("highland", "highland", "imperial")]
TABLE_4 = ("imperial", "sylvan", "highland", "imperial")


def melee(decks: tuple[str, ...], seed: int, strict: bool = True) -> Game:
    players = [make_strategy("random", seat, seed) for seat in range(len(decks))]
    return Game(load_card_set(), "deathmatch", decks, players, seed, strict=strict)


# ----- the API and its record
@pytest.mark.parametrize("decks", [TABLES_3[0], TABLE_4])
def test_python_records_of_melees_are_the_cores_records(decks: tuple[str, ...]) -> None:
    """The record a melee played through the Python API hands back is, as JSON, the one the core writes
    for the same game (the digests of scripts/golden_records.py, one per game)."""
    cards = load_card_set()
    names = ("random",) * len(decks)
    digests = core.record_digests(cards, "deathmatch", decks, names, (0, 12), 1)
    for seed in range(12):
        line = json.dumps(melee(decks, seed).play().to_dict(), separators=(",", ":"))
        assert hashlib.sha256(line.encode()).hexdigest()[:32] == digests[seed], seed


def test_a_melee_record_has_places_colour_scores_and_melee_events() -> None:
    record = melee(TABLE_4, 5).play()
    assert len(record.scores) == len(record.places) == len(record.colour_scores) == 4
    for seat, row in enumerate(record.colour_scores):
        assert row[seat] is None and record.scores[seat] == min(v for v in row if v is not None)
    assert sorted(record.places)[0] == 1
    assert any(e.colour >= 0 for e in record.of_kind(Points))
    assert all(e.against >= 0 for e in record.of_kind(FlareInvoked))
    seen = Counter(e.seat for e in record.of_kind(Improvise))
    assert all(n <= 3 for n in seen.values())  # once per opponent colour at most


def test_a_melee_views_several_opponents_and_sandboxes_hide_all_of_them() -> None:
    import random

    game = melee(TABLES_3[0], 2)
    game.setup()
    view = game.views[1]
    assert view.seats == 3 and view.opponents == [0, 2]
    with pytest.raises(ValueError, match="several opponents"):
        _ = view.opponent
    sandbox = view.sandbox(random.Random(0))
    s = game.state
    for p in range(3):
        assert len(sandbox.hand[p]) == len(s.hand[p]) and len(sandbox.legend_hand[p]) == len(s.legend_hand[p])
    assert sandbox.hand[1] == s.hand[1]
    assert sorted(c.id for c in sandbox.hand[0] + sandbox.deck[0]) == sorted(c.id for c in s.hand[0] + s.deck[0])


def test_a_melee_is_a_deathmatch_of_two_to_four_players() -> None:
    from sim.errors import UserError

    with pytest.raises(UserError, match="Deathmatch melee"):
        Game(load_card_set(), "high-form", TABLES_3[0], [make_strategy("random", s, 0) for s in range(3)], 0)
    with pytest.raises(UserError, match="2 to 4 players"):
        Game(load_card_set(), "deathmatch", TABLE_4 + ("sylvan",), [make_strategy("random", s, 0) for s in range(5)],
             0)


# ----- the commands
def run(*args: str):
    return CliRunner().invoke(app, [str(a) for a in args], prog_name="tashkalar")


def test_play_prints_a_readable_four_player_melee() -> None:
    result = run("play", "--players", "4", "--decks", "imperial-sylvan-highland", "--strategies", "random",
                 "--seed", "4")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "== Turn 1: player" in out and "player 4" in out
    assert "score player 1 " in out and "in 2:" in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("Result: 1. player") and "ended by" in last
    result = run("play", "--players", "3", "--strategies", "random", "--seed", "4", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["config"]["mode"] == "deathmatch" and len(data["config"]["decks"]) == 3
    assert len(data["places"]) == 3


def test_bench_reports_melee_games_per_second_for_three_and_four_players() -> None:
    for players, tables in ((3, 3), (4, 1)):
        result = run("bench", "--players", str(players), "--games", "3", "--json")
        assert result.exit_code == 0, result.output
        rows = json.loads(result.stdout)["results"]
        assert len(rows) == tables and all(r["mode"] == f"melee-{players}" and r["games_per_second"] > 0
                                           for r in rows)
    bad = run("bench", "--players", "3", "--decks", "imperial-sylvan", "--games", "1")
    assert bad.exit_code == 2 and "table of 3" in bad.stderr


# ----- studies
STUDY = {
    "name": "melee", "forms": ["deathmatch", "melee-3", "melee-4"], "deck_pairings": [["imperial", "sylvan"]],
    "strategy_pairings": [["random", "random"]], "deck_tables": "all",
    "strategy_tables": [["random", "random", "builder"], ["random", "random", "random", "builder"]],
    "games_per_cell": 12, "base_seed": 3,
}


def test_melee_cells_rotate_every_deck_and_player_through_every_seat() -> None:
    study = parse_study(STUDY, Path("melee.toml"))
    forms = Counter(c.form for c in study.cells)
    assert forms == {"deathmatch": 1, "melee-3": 3, "melee-4": 1}  # the box seats 3 tables of 3, 1 of 4
    assert {c.decks for c in study.cells if c.form == "melee-4"} == {("highland", "imperial", "imperial", "sylvan")}
    for cell in study.cells:
        games = [study.game(cell.index * study.games_per_cell + k) for k in range(study.games_per_cell)]
        for side in range(cell.seats):
            seats = Counter(g.seat_of(side) for g in games)
            assert seats == dict.fromkeys(range(cell.seats), study.games_per_cell // cell.seats)
            for g in games:
                assert g.decks[g.seat_of(side)] == cell.decks[side]
                assert g.players[g.seat_of(side)] == cell.players[side]


@pytest.mark.parametrize("changes, key, message", [
    ({"deck_tables": None}, "deck_tables", "missing"),
    ({"strategy_tables": None}, "strategy_tables", f'like [["{DEFAULT_STRATEGY}", "{DEFAULT_STRATEGY}", '),
    ({"games_per_cell": 8}, "games_per_cell", "multiple of 3"),
    ({"deck_tables": [["imperial", "sylvan"]]}, "deck_tables[0]", "table of 3 or 4"),
    ({"deck_tables": [["imperial", "sylvan", "nope"], ["imperial"] * 4]}, "deck_tables[0]", "unknown name 'nope'"),
    ({"deck_tables": [["imperial", "sylvan", "highland"]]}, "deck_tables", "no table of 4"),
    ({"forms": ["deathmatch"], "games_per_cell": 2}, "deck_tables", "none is in forms"),
    ({"forms": ["melee-5"]}, "forms", "unknown game form 'melee-5'"),
])
def test_melee_study_errors_name_the_key(changes: dict, key: str, message: str) -> None:
    config = {k: v for k, v in (STUDY | changes).items() if v is not None}
    with pytest.raises(StudyConfigError) as e:
        parse_study(config, Path("melee.toml"))
    assert f"melee.toml: {key}: " in str(e.value) and message in str(e.value)


def test_a_study_of_melees_only_needs_no_pairings() -> None:
    config = {k: v for k, v in STUDY.items() if k not in ("deck_pairings", "strategy_pairings")}
    config |= {"forms": ["melee-4"], "games_per_cell": 4,
               "strategy_tables": [["random", "random", "random", "builder"]]}
    study = parse_study(config, Path("m.toml"))
    assert [c.name for c in study.cells] == ["melee-4|highland-imperial-imperial-sylvan|random-random-random-builder"]


# ----- the dataset and the report
def make_melee_run(path: Path, games: int) -> Path:
    cards = load_card_set()
    builder = TableBuilder()
    for game_id in range(games):
        decks = TABLES_3[game_id % 2] if game_id % 3 else TABLE_4
        record, order = play_recording_order(melee(decks, 40 + game_id, strict=False))
        builder.add(game_id, f"melee-{len(decks)}|{'-'.join(decks)}|random", record, cards.fingerprint(),
                    deck_order=order)
    for name, table in builder.tables().items():
        (path / name).mkdir(parents=True, exist_ok=True)
        pq.write_table(table, path / name / "part-0.parquet")
    (path / "manifest.json").write_text(json.dumps({"name": path.name, "games": games}))
    return path


def read_csv(directory: Path, table: str) -> list[dict[str, str]]:
    with (directory / f"{table}.csv").open(newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def melee_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("melee")
    run_dir = make_melee_run(base / "run", 90)
    write_report([run_dir], html=base / "report.html", md=base / "report.md", csv_dir=base / "csv")
    return run_dir, base


def test_the_melee_section_counts_the_rows(melee_report: tuple[Path, Path]) -> None:
    run_dir, base = melee_report
    seats = pq.read_table(run_dir / "seat_results").to_pylist()
    games = {g["game_id"]: g for g in pq.read_table(run_dir / "games").to_pylist()}
    positions = read_csv(base / "csv", "melee_positions")
    for players in (3, 4):
        mine = [s for s in seats if games[s["game_id"]]["players"] == players]
        for position in range(players):
            at = [s for s in mine if s["position"] == position]
            wins = sum(games[s["game_id"]]["winner"] == s["seat"] for s in at)
            row = next(r for r in positions if r["mode"] == f"melee-{players}" and r["position"] == str(position + 1))
            assert row["win_n"] == str(len(at)) and row["win_k"] == str(wins), row
    decided = read_csv(base / "csv", "melee_decided")
    for players in (3, 4):
        row = next(r for r in decided if r["mode"] == f"melee-{players}")
        mine = [g for g in games.values() if g["players"] == players]
        assert row["games"] == str(len(mine))
        assert row["by_lowest_k"] == str(sum(g["tiebreak"] == "" for g in mine))
        assert row["shared_k"] == str(sum(g["tiebreak"] == "tie" for g in mine))
        breaks = Counter(g["tiebreak"] for g in mine)
        assert row["tiebreaks"] == ", ".join(f"{b} {breaks[b]}" for b in ("second-lowest", "highest", "upgraded",
                                                                          "pieces") if breaks[b])
        best: dict[int, list[tuple[int, int]]] = {}  # game -> (points, seat) of every colour score
        for c in pq.read_table(run_dir / "colour_points").to_pylist():
            if games[c["game_id"]]["players"] == players:
                best.setdefault(c["game_id"], []).append((c["points"], c["seat"]))
        lost = sum(g["winner"] >= 0 and g["winner"] not in {s for p, s in best[g["game_id"]]
                                                             if p == max(best[g["game_id"]])[0]}
                   for g in mine)
        assert row["best_colour_lost_k"] == str(lost), row
    colours = read_csv(base / "csv", "melee_colours")
    points = pq.read_table(run_dir / "colour_points").to_pylist()
    for players in (3, 4):
        per_seat: dict[tuple[int, int], list[int]] = {}
        for p in points:
            if games[p["game_id"]]["players"] == players:
                per_seat.setdefault((p["game_id"], p["seat"]), []).append(p["points"])
        row = next(r for r in colours if r["mode"] == f"melee-{players}")
        assert row["seat_games"] == str(len(per_seat))
        # A seat's final score is its lowest colour score, not its highest.
        assert float(row["mean_lowest"]) == pytest.approx(sum(map(min, per_seat.values())) / len(per_seat))
        assert float(row["mean_highest"]) == pytest.approx(sum(map(max, per_seat.values())) / len(per_seat))
        assert row["level_seats"] == str(sum(min(v) == max(v) for v in per_seat.values()))
        assert float(row["mean_colour"]) == pytest.approx(
            sum(sum(v) / len(v) for v in per_seat.values()) / len(per_seat))
        middles = [sum(v) - min(v) - max(v) for v in per_seat.values() if len(v) == 3]
        assert (row["mean_middle"] == "") if players == 3 else (
            float(row["mean_middle"]) == pytest.approx(sum(middles) / len(middles)))
    decks = read_csv(base / "csv", "melee_decks")
    for r in decks:
        mine = [s for s in seats if f"melee-{games[s['game_id']]['players']}" == r["mode"] and s["deck"] == r["deck"]]
        assert float(r["mean_place"]) == pytest.approx(sum(s["place"] for s in mine) / len(mine))
        assert float(r["mean_score"]) == pytest.approx(sum(s["score"] for s in mine) / len(mine))
        wins = sum(games[s["game_id"]]["winner"] == s["seat"] for s in mine)
        assert (r["win_n"], r["win_k"]) == (str(len(mine)), str(wins)), r
    for r in positions:
        mine = [s for s in seats if f"melee-{games[s['game_id']]['players']}" == r["mode"]
                and s["position"] + 1 == int(r["position"])]
        assert float(r["mean_score"]) == pytest.approx(sum(s["score"] for s in mine) / len(mine))
    beings = read_csv(base / "csv", "melee_being_outcomes")
    held = {(e["game_id"], e["seat"], e["card_id"]) for e in pq.read_table(run_dir / "card_events").to_pylist()
            if e["event"] == "drawn" and e["card_type"] == "being"}
    for players in (3, 4):
        in_hand = sum(int(r["in_hand_games"]) for r in beings if r["mode"] == f"melee-{players}")
        assert in_hand == sum(games[g]["players"] == players for g, _, _ in held) > 0
    deck_seats = Counter((f"melee-{games[s['game_id']]['players']}", s["deck"]) for s in seats)
    for r in beings:  # a card's seat-games with it in hand and without it make the deck's seat-games
        assert int(r["in_hand_n"]) + int(r["never_n"]) == deck_seats[(r["mode"], r["deck"])], r
    runs, con = open_runs([run_dir])
    try:
        melees = sections_melee.melee_data(runs, Names(load_card_set()), str(run_dir), con)
    finally:
        con.close()
    assert melees is not None
    keys = [(r["mode"], r["deck"], r["strategy"], r["card_id"]) for r in melees.q["card_hands"]]
    assert len(keys) == len(set(keys)) > 0, "one row per card and cell"
    shuffled = Counter(games[o["game_id"]]["players"] for o in pq.read_table(run_dir / "deck_order").to_pylist())
    for players in (3, 4):  # every seat's shuffled deck, counted in its form
        assert sum(r["games"] for r in melees.q["card_positions"] if r["mode"] == f"melee-{players}") == (
            shuffled[players]) > 0
    text = (base / "report.md").read_text()
    assert "## Melee (3-4 players)" in text and "Melee beings: randomized estimates" in text


def test_a_run_of_melees_only_reports_no_duel_sections(melee_report: tuple[Path, Path]) -> None:
    text = (melee_report[1] / "report.md").read_text()
    assert "## Beings" not in text and "melee-3 (" in text


def test_runs_of_schema_version_2_are_still_reported(tmp_path: Path) -> None:
    """A duel run written before the melee: without games.players and teams, points.colour, flare_events.against
    and the seat_results and colour_points tables. Its report is the one of the same rows written today."""
    from tests.test_reports import make_run

    today = make_run(tmp_path / "today", 60, seed=9)
    old = tmp_path / "old"
    added = {"games": ["players", "teams"], "points": ["colour"], "flare_events": ["against"]}
    for table in ("games", "card_events", "task_events", "flare_events", "points", "deck_order"):
        (old / table).mkdir(parents=True)
        for f in (today / table).glob("*.parquet"):
            t = pq.read_table(f)
            pq.write_table(t.drop_columns(added.get(table, [])), old / table / f.name)
    (old / "manifest.json").write_text((today / "manifest.json").read_text())
    for run_dir in (today, old):
        write_report([run_dir], csv_dir=tmp_path / f"{run_dir.name}-csv", html=tmp_path / f"{run_dir.name}.html")
    for table in ("beings", "first_player", "matchups", "flares"):
        assert read_csv(tmp_path / "old-csv", table) == read_csv(tmp_path / "today-csv", table), table


# ----- scenarios of 3-4 players
MELEE_SCENARIO = """
decks: imperial, sylvan, highland
active: 1
turn: 4
hand 1: imperial/swordmaster
flare 1: flare/03
points 1 in 2: 3
points 2 in 1: 1
improvised 1: 3
arena:
  a  b  c  d  e  f  g  h  i
1 -- -- .. .. .. .. .. -- --
2 -- .. .. .. .. .. .. .. --
3 .. .. .. .. .. .. .. .. ..
4 .. .. .. .. 1c .. .. .. ..
5 2c 2c 2c 2c .. .. .. .. ..
6 .. .. .. .. 2c 2c .. 3h ..
7 .. .. .. .. .. .. 3c 3h 3h
8 -- .. .. .. .. .. .. .. --
9 -- -- .. .. .. .. .. -- --
"""


def test_the_scenario_notation_sets_up_a_melee() -> None:
    from sim.scenario import load_scenario
    from tests.helpers import Scripted

    game = load_scenario(MELEE_SCENARIO, [Scripted(), Scripted(), Scripted()])
    s = game.state
    assert s.seats == 3 and s.mode == "deathmatch" and s.first_player == 0  # turn 4, player 1: 0 = (0 - 3) % 3
    assert s.colour_points == [[0, 3, 0], [1, 0, 0], [0, 0, 0]] and s.score(0) == 0
    assert s.improvised[0] == [False, False, True]
    assert s.tokens == [14, 9, 11] and s.token_total == [15, 15, 15]
    swordmaster = next(c for c in s.hand[0] if c.id == "imperial/swordmaster")
    assert not game.legal_placements(0, swordmaster)
    assert {(pl.origin, colour) for pl, colour in game.improvised_placements(0, swordmaster)} == {
        (board_square("e5"), 1)}  # with player 2's common on e6; player 3's colour is spent


def board_square(name: str) -> int:
    from sim import board

    return board.parse_square(name)


def test_a_melee_flare_asks_which_opponent_and_scores_him_in_the_invokers_colour() -> None:
    from sim.scenario import load_scenario
    from tests.helpers import Scripted

    me = Scripted(2, None)  # against player 3, then no move with the upper half's standard moves
    game = load_scenario(MELEE_SCENARIO, [me, Scripted(), Scripted()])
    flare = game.state.flare_hand[0][0]
    assert game.flare_halves_against(0, 1, flare) == 2 and game.flare_halves_against(0, 2, flare) == 1
    game.invoke_flare(0)
    assert me.asked[0].kind == "flare-opponent" and me.asked[0].options == [1, 2]
    assert game.state.colour_points[2][0] == 1 and game.state.colour_points[1][0] == 1  # unchanged


def test_an_improvised_summon_through_the_api_spends_the_colour() -> None:
    from sim.scenario import load_scenario
    from tests.helpers import Scripted

    game = load_scenario(MELEE_SCENARIO, [Scripted(None), Scripted(), Scripted()])  # no diagonal kill
    s = game.state
    swordmaster = next(c for c in s.hand[0] if c.id == "imperial/swordmaster")
    [(placement, colour)] = game.improvised_placements(0, swordmaster)
    with game.edit() as b:
        b.actions_left -= 1
    game.summon_improvised(0, swordmaster, placement, colour)
    assert s.improvised[0] == [False, True, True] and s.record.of_kind(Improvise)[-1].colour == 1
    assert s.piece_at(board_square("e6")) == (1, 0)  # the borrowed piece stays player 2's
    s.check_invariants()


# ----- the ladder in melee
def test_melee_ladder_tables_seat_each_strategy_in_every_seat_equally() -> None:
    from strategies.ladder import melee_table

    for seats in (3, 4):
        tables = [melee_table(seats, k) for k in range(2 * seats)]
        for seat in range(seats):
            assert sum(t[seat] for t in tables) == seats  # the second strategy holds each seat half the time
        assert sum(sum(t) for t in tables) == seats * seats  # and half of all seats


def test_a_melee_ladder_ranks_builder_above_random_by_seat_comparisons() -> None:
    from strategies.ladder import Entrant, run_ladder

    result = run_ladder("melee-3", [Entrant("random"), Entrant("builder")], 12, [TABLES_3[0]], workers=1,
                        base_seed=5)
    [pairing] = result.pairings
    assert result.unit == "comparisons" and pairing.games == 12 * 2  # 2 seat comparisons a game of 3
    assert pairing.second_wins > 0.8 * pairing.games and result.ratings["builder"] > 200
    bad = CliRunner().invoke(app, ["ladder", "--forms", "melee-4", "--games", "6"], prog_name="tashkalar")
    assert bad.exit_code == 2 and "multiple of 8" in bad.stderr


def test_a_run_of_melees_only_is_recorded_in_the_history(melee_report: tuple[Path, Path], tmp_path: Path) -> None:
    """With its own metrics: turn order, decks, colour scores, cards (tests/test_history_metrics.py checks them)."""
    from reports.regression.history import record_run

    db = tmp_path / "history.duckdb"
    assert record_run(melee_report[0], db)
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM runs").fetchone()[0] == 1
        assert con.execute("SELECT count(*) FROM metrics WHERE metric = 'turn_order_effect'").fetchone()[0] == 7


def test_the_plan_of_a_melee_counts_each_seat_with_its_share_of_the_wins() -> None:
    from reports.plan import plan
    from reports.stats import mde_two_rates

    study = parse_study(STUDY, Path("melee.toml"))
    lines = {line.estimate: line for line in plan(study, 0.05, 0.5)}
    line = lines["opening hand, one highland being (melee-4, random)"]
    exposed = round(line.n * 3 / 18)
    assert line.mde == pytest.approx(mde_two_rates(exposed, line.n - exposed, 1 / 4))
    duel = lines["opening hand, one sylvan being (deathmatch, random)"]
    assert duel.mde == pytest.approx(mde_two_rates(round(duel.n * 3 / 18), duel.n - round(duel.n * 3 / 18), 0.5))


def test_the_starting_pieces_stand_one_on_each_pair_of_melee_squares() -> None:
    from sim import board
    from sim.record import Place

    for seed in range(6):
        for decks in (TABLES_3[0], TABLE_4):
            record = melee(decks, seed).play()
            starts = [e for e in record.of_kind(Place) if e.cause == "melee-start"]
            pairs = [next(i for i, pair in enumerate(board.MELEE_START) if e.square in pair) for e in starts]
            assert pairs == [0, 1, 2]
            assert len({e.seat for e in starts}) == 3
            if len(decks) == 4:  # the second player's colour is left out
                assert (record.first_player + 1) % 4 not in {e.seat for e in starts}


@pytest.mark.parametrize("strategy", ["greedy", "builder", "hunter", "brawler", "planner"])
def test_every_scripted_player_plays_strict_melees_through_the_api(strategy: str) -> None:
    for decks in (TABLES_3[1], TABLE_4):
        players = [make_strategy(strategy if seat % 2 == 0 else "random", seat, 8) for seat in range(len(decks))]
        record = Game(load_card_set(), "deathmatch", decks, players, 8, strict=True).play()
        assert sorted(record.places)[0] == 1 and record.end_reason in ("deck", "score")


# ----- the turn-order estimate validated on planted effects and an A/A run
def _planted_run(path: Path, games: int, first_wins: float, seed: int) -> Path:
    """Hand-made 3-player melees: the first player wins with probability ``first_wins``, the others share
    the rest; nothing else varies."""
    import random

    from tests.handmade import game, write_run

    rng = random.Random(seed)
    rows, seats = [], []
    for g in range(games):
        first = rng.randrange(3)
        winner = first if rng.random() < first_wins else (first + rng.choice((1, 2))) % 3
        rows.append(game(g, "deathmatch", ("imperial", "sylvan"), first, winner) | {"players": 3})
        seats += [{"game_id": g, "seat": s, "deck": "imperial", "strategy": "random", "position": (s - first) % 3,
                   "place": 1 if s == winner else 2} for s in range(3)]
    return write_run(path, rows, seat_results=seats)


def test_a_planted_first_player_edge_is_flagged_and_an_even_one_is_not(tmp_path: Path) -> None:
    from reports.build import build_report

    for name, first_wins, flagged in (("planted", 0.5, True), ("even", 1 / 3, False)):
        run_dir = _planted_run(tmp_path / name, 900, first_wins, seed=1)
        report = build_report([run_dir])
        [table] = [t for t in report.tables() if t.id == "melee_positions"]
        first = next(r for r in table.rows if r["position"] == 1)
        assert first["effect"].flagged is flagged, (name, first["effect"].value)
        assert all(not r["effect"].flagged for r in table.rows if not flagged)


def test_even_first_player_runs_are_rarely_flagged(tmp_path: Path) -> None:
    """A/A: ten runs where the turn order does not matter; the false discovery rate is 5% within each."""
    from reports.build import build_report

    flagged = 0
    for seed in range(10):
        report = build_report([_planted_run(tmp_path / f"aa{seed}", 300, 1 / 3, seed=100 + seed)])
        [table] = [t for t in report.tables() if t.id == "melee_positions"]
        flagged += any(r["effect"].flagged for r in table.rows)
    assert flagged <= 2


def test_shared_first_places_are_ties_of_the_seats_that_share_them(tmp_path: Path) -> None:
    """Hand-made 3-player melees, every third one a shared first place of seats 0 and 1 (places 1, 1, 3, as the
    core ranks them): each of those two seats counts a tie for its deck, the third seat none, and the second
    place of a decided melee is not a tie."""
    from reports.build import build_report
    from tests.handmade import game, write_run

    decks = ("imperial", "sylvan", "highland")
    rows, seats = [], []
    for g in range(30):
        first, shared = g % 3, g % 3 == 0
        winner = -1 if shared else (first + 1) % 3
        places = (1, 1, 3) if shared else tuple(1 if s == winner else 2 + (s == (winner + 1) % 3) for s in range(3))
        rows.append(game(g, "deathmatch", ("imperial", "sylvan"), first, winner) | {"players": 3})
        seats += [{"game_id": g, "seat": s, "deck": decks[s], "strategy": "random", "position": (s - first) % 3,
                   "place": places[s]} for s in range(3)]
    report = build_report([write_run(tmp_path / "ties", rows, seat_results=seats)])
    tables = {t.id: t.rows for t in report.tables()}
    ties = {r["deck"]: r["ties"] for r in tables["melee_decks"]}
    assert ties == {"imperial": 10, "sylvan": 10, "highland": 0}


def test_improvised_summoning_splits_the_seats_that_improvised_once_or_more_from_the_others(tmp_path: Path) -> None:
    """Hand-made 3-player melees whose seats improvised 0, 1 or 2 times: one improvisation is enough to count,
    and the wins of the seats that never improvised are kept apart."""
    from reports.build import build_report
    from reports.stats import Rate
    from tests.handmade import game, write_run

    improvised = [(0, 1, 2), (1, 0, 0), (2, 2, 0), (0, 0, 1)]
    winners = [0, 1, 2, 2]
    rows, seats = [], []
    for g, (counts, winner) in enumerate(zip(improvised, winners, strict=True)):
        rows.append(game(g, "deathmatch", ("imperial", "sylvan"), 0, winner) | {"players": 3})
        seats += [{"game_id": g, "seat": s, "deck": "imperial", "strategy": "random", "position": s,
                   "place": 1 if s == winner else 2, "improvised": counts[s]} for s in range(3)]
    report = build_report([write_run(tmp_path / "improvised", rows, seat_results=seats)])
    [row] = [t.rows for t in report.tables() if t.id == "melee_improvised"][0]
    # Six seat-games improvised (one of them, once, won); six did not (three of them won).
    improvising = [(s["game_id"], s["seat"]) for s in seats if s["improvised"] > 0]
    wins = {(g, w) for g, w in enumerate(winners)}
    assert row["share"] == Rate(len(improvising), 12) == Rate(6, 12)
    assert row["improvising"] == Rate(len(wins & set(improvising)), 6) == Rate(1, 6)
    assert row["other"] == Rate(len(wins - set(improvising)), 6) == Rate(3, 6)
    assert row["improvisations"] == 9
