"""The Parquet tables against the game records, and the schema against docs/dataset.md.

Every column of every table is recomputed here straight from the named events of real games (random and
scripted players, both forms), with code of its own: a loop over the events instead of the builder's
columnar frame, card types from the card ids instead of the deck drawn from, an effect's enemies by the
summoner's seat. The schema is read from the document, so a column dropped from both the schema and the
builder still fails.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from pipelines.schema import SCHEMA_VERSION, SEAT_CARD_ROWS, TABLES
from pipelines.shard import play_recording_order
from pipelines.summaries import summarize
from pipelines.tables import TableBuilder
from sim.cards import load_card_set
from sim.game import Game
from sim.record import (
    Convert,
    Destroy,
    Discard,
    Downgrade,
    Draw,
    FlareInvoked,
    GameRecord,
    Held,
    Improvise,
    PassControl,
    Place,
    Points,
    Return,
    Summon,
    TaskClaim,
    TaskReveal,
    ToDeck,
    Upgrade,
)
from sim.state import MODES
from strategies import make_strategy

DATASET_DOC = Path(__file__).resolve().parents[1] / "docs" / "dataset.md"
PLAYERS = [("random", "random"), ("builder", "greedy"), ("hunter", "brawler"), ("greedy", "random"),
           ("brawler", "builder"), ("random", "hunter")]
DECKS = [("imperial", "highland"), ("highland", "sylvan"), ("sylvan", "imperial"), ("sylvan", "sylvan")]
RANK_COLUMNS = ("enemy_common", "enemy_heroic", "enemy_legendary")
EFFECT_COLUMNS = (*RANK_COLUMNS, "own_destroyed", "upgrades", "downgrades", "placed", "converted")

MELEE_DECKS = [("imperial", "sylvan", "highland"), ("highland", "imperial", "sylvan", "imperial")]

Played = tuple[int, str, GameRecord, tuple[str, ...] | None]


Orders = dict[int, tuple[list[str], ...]]  # game id -> each seat's being deck after the setup shuffle


@pytest.fixture(scope="module")
def played() -> tuple[list[Played], Orders]:
    """48 duels: every form, player pairing and deck pairing above; every third game with player labels;
    then 8 melees of random players, 3 and 4 of them; then 4 team games (2 against 2) of random players."""
    cards = load_card_set()
    out, orders = [], {}
    for i in range(48):
        mode, names, decks = MODES[i % 2], PLAYERS[i // 2 % len(PLAYERS)], DECKS[i // 12]
        players = [make_strategy(name, seat, 100 + i) for seat, name in enumerate(names)]
        record, orders[1000 + 7 * i] = play_recording_order(Game(cards, mode, decks, players, 100 + i))
        labels = (f"{names[0]}-a", f"{names[1]}-b") if i % 3 == 0 else None
        out.append((1000 + 7 * i, f"cell-{i % 5}", record, labels))
    for i in range(8):
        decks = MELEE_DECKS[i % 2]
        players = [make_strategy("random", seat, 200 + i) for seat in range(len(decks))]
        record, orders[2000 + i] = play_recording_order(Game(cards, "deathmatch", decks, players, 200 + i))
        labels = tuple(f"random-{seat}" for seat in range(len(decks))) if i % 3 == 0 else None
        out.append((2000 + i, "melee", record, labels))
    for i in range(4):
        decks = ("imperial", "highland", "sylvan", "imperial")
        players = [make_strategy("random", seat, 300 + i) for seat in range(4)]
        record, orders[3000 + i] = play_recording_order(Game(cards, MODES[i % 2], decks, players, 300 + i,
                                                             teams=True))
        labels = tuple(f"random-{seat}" for seat in range(4)) if i % 2 == 0 else None
        out.append((3000 + i, "team", record, labels))
    return out, orders


@pytest.fixture(scope="module")
def games(played: tuple[list[Played], Orders]) -> list[Played]:
    return played[0]


def variant(game_id: int) -> tuple[str, int]:
    """The ablation arm the tables are told a game belongs to (every fourth game)."""
    return ("vanilla:imperial/bomb", game_id % 2) if game_id % 4 == 0 else ("", -1)


@pytest.fixture(scope="module")
def tables(played: tuple[list[Played], Orders]) -> dict[str, list[dict[str, Any]]]:
    builder = TableBuilder()
    games, orders = played
    for game_id, cell, record, labels in games:
        builder.add(game_id, cell, record, "fingerprint", labels, *variant(game_id), orders[game_id])
    built = builder.tables()
    assert {name: t.schema for name, t in built.items()} == TABLES
    return {name: t.to_pylist() for name, t in built.items()}


# ----- the rows, recomputed from the records
def card_type(card: str) -> str:
    return "legend" if card.startswith("legend/") else "flare" if card.startswith("flare/") else "being"


def expected_games(games: list[Played]) -> list[dict[str, Any]]:
    out = []
    for game_id, cell, r, labels in games:
        names = labels or r.config["strategies"]
        out.append({
            "game_id": game_id, "cell": cell, "seed": r.config["seed"], "mode": r.config["mode"],
            "players": len(r.config["decks"]), "teams": bool(r.config.get("teams")),
            "deck_0": r.config["decks"][0], "deck_1": r.config["decks"][1],
            "strategy_0": names[0],
            "strategy_1": names[1], "first_player": r.first_player, "winner": r.winner, "score_0": r.scores[0],
            "score_1": r.scores[1], "turns": r.turns, "end_reason": r.end_reason, "tiebreak": r.tiebreak,
            "card_set": "fingerprint", "schema_version": SCHEMA_VERSION, "variant": variant(game_id)[0],
            "variant_seat": variant(game_id)[1]})
    return out


def expected_card_events(games: list[Played]) -> list[dict[str, Any]]:
    out = []
    lifecycle = {Discard: "discarded", Return: "returned", Held: "held", FlareInvoked: "invoked"}
    for game_id, _, record, _ in games:
        teams = bool(record.config.get("teams"))  # a destroy's owner is then the team: seat % 2
        summon: Summon | None = None
        outcome: dict[str, int] = {}
        for e in record.events:
            row = {"game_id": game_id, "turn": e.turn, "seat": e.seat, "opening": False, "square": -1,
                   **dict.fromkeys(EFFECT_COLUMNS, 0)}
            if isinstance(e, Draw):
                out.append(row | {"card_id": e.card, "card_type": card_type(e.card), "event": "drawn",
                                  "opening": e.opening})
            elif isinstance(e, Summon):
                summon, outcome = e, row | {"card_id": e.card, "card_type": card_type(e.card), "event": "played",
                                            "square": e.square}
                out.append(outcome)  # filled in by the events that follow
            elif isinstance(e, Discard | Return | Held | FlareInvoked):
                out.append(row | {"card_id": e.card, "card_type": card_type(e.card), "event": lifecycle[type(e)]})
            elif summon is not None and getattr(e, "cause", None) == summon.card:
                if isinstance(e, Destroy):
                    mine = summon.seat % 2 if teams else summon.seat
                    column = "own_destroyed" if e.owner == mine else RANK_COLUMNS[e.rank]
                else:
                    column = {Upgrade: "upgrades", Downgrade: "downgrades", Place: "placed",
                              Convert: "converted"}.get(type(e), "")
                if column:
                    outcome[column] += 1
    return out


def expected_task_events(games: list[Played]) -> list[dict[str, Any]]:
    return [{"game_id": game_id, "turn": e.turn, "task_id": e.task}
            | ({"seat": e.seat, "event": "claimed", "points": e.points} if isinstance(e, TaskClaim)
               else {"seat": -1, "event": "revealed", "points": 0})
            for game_id, _, record, _ in games for e in record.events if isinstance(e, TaskReveal | TaskClaim)]


def expected_flare_events(games: list[Played]) -> list[dict[str, Any]]:
    return [{"game_id": game_id, "turn": e.turn, "seat": e.seat, "flare_id": e.card, "upper": e.upper,
             "lower": e.lower, "behind_by": e.lead, "against": e.against}
            for game_id, _, record, _ in games for e in record.of_kind(FlareInvoked)]


def expected_points(games: list[Played]) -> list[dict[str, Any]]:
    return [{"game_id": game_id, "turn": e.turn, "seat": e.seat, "source": e.source, "points": e.points,
             "colour": e.colour}
            for game_id, _, record, _ in games for e in record.of_kind(Points)]


def expected_seat_results(games: list[Played]) -> list[dict[str, Any]]:
    out = []
    for game_id, _, r, labels in games:
        names = labels or r.config["strategies"]
        n = len(r.config["decks"])
        for seat in range(n):
            team = seat % 2 if r.config.get("teams") else seat  # a team game: scores and winner per team
            place = r.places[seat] if r.places else 1 if r.winner in (-1, team) else 2
            out.append({"game_id": game_id, "seat": seat, "team": team, "deck": r.config["decks"][seat],
                        "strategy": names[seat], "position": (seat - r.first_player + n) % n, "score": r.scores[team],
                        "place": place,
                        "improvised": sum(1 for e in r.of_kind(Improvise) if e.seat == seat)})
    return out


def expected_colour_points(games: list[Played]) -> list[dict[str, Any]]:
    out = []
    for game_id, _, r, _ in games:
        for seat, row in enumerate(r.colour_scores):
            lowest = min(v for v in row if v is not None)
            out += [{"game_id": game_id, "seat": seat, "colour": colour, "points": v, "lowest": v == lowest}
                    for colour, v in enumerate(row) if v is not None]
    return out


def setup_orders(games: list[Played]) -> Orders:
    """Each seat's deck order as far as the record shows it: the personal-deck draws in order, up to the
    first card returned or put back (after that the deck is no longer the setup shuffle's)."""
    out: Orders = {}
    for game_id, _, record, _ in games:
        seats = len(record.config["decks"])
        drawn: tuple[list[str], ...] = tuple([] for _ in range(seats))
        stopped = [False] * seats
        for e in record.events:
            if isinstance(e, Return | ToDeck) and not e.card.startswith(("legend/", "flare/")):
                stopped[e.seat] = True
            elif isinstance(e, Draw) and e.deck == "personal" and not stopped[e.seat]:
                drawn[e.seat].append(e.card)
        out[game_id] = drawn
    return out


def expected_deck_order(games: list[Played]) -> list[dict[str, Any]]:
    """One row per being of each seat's deck; checked against the draws by the test below."""
    cards = load_card_set()
    out = []
    for game_id, _, record, _ in games:
        for seat, deck in enumerate(record.config["decks"]):
            out += [{"game_id": game_id, "seat": seat, "card_id": None, "position": pos}
                    for pos in range(len(cards.deck(deck)))]
    return out


def test_deck_order_is_the_setup_shuffle(tables: dict[str, list[dict[str, Any]]], games: list[Played]) -> None:
    cards = load_card_set()
    rows: dict[tuple[int, int], list[str]] = {}
    for r in tables["deck_order"]:
        rows.setdefault((r["game_id"], r["seat"]), []).append(r["card_id"])
    for game_id, drawn in setup_orders(games).items():
        record = next(g[2] for g in games if g[0] == game_id)
        for seat, deck in enumerate(record.config["decks"]):
            order = rows[(game_id, seat)]
            assert sorted(order) == sorted(b.id for b in cards.deck(deck))
            assert order[:len(drawn[seat])] == drawn[seat] and len(drawn[seat]) >= 3


def expected_pass_control(games: list[Played]) -> list[dict[str, Any]]:
    return [{"game_id": game_id, "turn": e.turn, "seat": e.seat, "to_seat": e.to, "during": e.during}
            for game_id, _, record, _ in games for e in record.of_kind(PassControl)]


def expected_seat_card_rows(games: list[Played]) -> list[dict[str, Any]]:
    """Per seat and card, by game, seat and card id: summed from the expected card events and points."""
    turn_points: Counter[tuple[int, int, int]] = Counter()
    for r in expected_points(games):
        turn_points[(r["game_id"], r["turn"], r["seat"])] += r["points"]
    counters = ("enemy_common", "enemy_heroic", "enemy_legendary", "own_destroyed", "upgrades", "downgrades",
                "placed", "converted")
    cards: dict[tuple[int, int], dict[str, dict[str, Any]]] = {}
    for e in expected_card_events(games):
        card = cards.setdefault((e["game_id"], e["seat"]), {}).setdefault(e["card_id"], {
            "game_id": e["game_id"], "seat": e["seat"], "card_id": e["card_id"], "drawn": False, "opening": False,
            "played": False, "plays": 0, "play_turns": 0, "first_play": -1, **dict.fromkeys(counters, 0),
            "turn_points": 0, "frozen": 0, "thawed": 0, "warped": 0})
        card["drawn"] |= e["event"] == "drawn"
        card["opening"] |= e["opening"]
        card["played"] |= e["event"] in ("played", "invoked")
        if e["event"] in ("frozen", "thawed", "warped"):
            card[e["event"]] += 1
        if e["event"] == "played":
            card["plays"] += 1
            card["play_turns"] += e["turn"]
            card["first_play"] = e["turn"] if card["first_play"] < 0 else min(card["first_play"], e["turn"])
            card["turn_points"] += turn_points[(e["game_id"], e["turn"], e["seat"])]
            for c in counters:
                card[c] += e[c]
    return [by_id[k] for _, by_id in sorted(cards.items()) for k in sorted(by_id)]




Seat = tuple[dict[str, Any], bool, bool, str]  # the summed tables' seat kind, won, first, opponent's label


def seat_facts(games: list[Played]) -> dict[tuple[int, int], Seat]:
    """Per (game, seat): the kind of game and the seat's deck and player label, whether it won (the winner is
    its team: its seat outside a team game), took the first turn, and (a duel) the other seat's label."""
    by_game = {g["game_id"]: g for g in expected_games(games)}
    out = {}
    for seat in expected_seat_results(games):
        g = by_game[seat["game_id"]]
        kind = {"mode": g["mode"], "players": g["players"], "teams": g["teams"], "variant": g["variant"],
                "mirror": g["strategy_0"] == g["strategy_1"], "deck": seat["deck"], "strategy": seat["strategy"]}
        duel = g["players"] == 2 and not g["teams"]
        opponent = g["strategy_1" if seat["seat"] == 0 else "strategy_0"] if duel else ""
        out[(seat["game_id"], seat["seat"])] = (kind, g["winner"] == seat["team"], seat["position"] == 0, opponent)
    return out


def _add(sums: dict[tuple[Any, ...], dict[str, Any]], key: dict[str, Any], values: dict[str, int]) -> None:
    row = sums.setdefault(tuple(key.values()), key | dict.fromkeys(values, 0))
    for name, value in values.items():
        row[name] += value


def expected_seat_cards(games: list[Played]) -> list[dict[str, Any]]:
    """The per-game rows summed per kind of game, the seat's deck and player, card, and whether the seat won."""
    facts = seat_facts(games)
    flares: dict[tuple[int, int, str], list[dict[str, Any]]] = {}
    for f in expected_flare_events(games):
        flares.setdefault((f["game_id"], f["seat"], f["flare_id"]), []).append(f)
    sums: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in expected_seat_card_rows(games):
        kind, won, _, _ = facts[(row["game_id"], row["seat"])]
        invoked = flares.get((row["game_id"], row["seat"], row["card_id"]), [])
        upper, lower = any(f["upper"] for f in invoked), any(f["lower"] for f in invoked)
        _add(sums, kind | {"card_id": row["card_id"], "won": won}, {
            "drawn": row["drawn"], "opening": row["drawn"] and row["opening"],
            "played": row["drawn"] and row["played"], "plays": row["plays"], "play_turns": row["play_turns"],
            "first_plays": row["plays"] > 0, "first_play_turns": row["first_play"] if row["plays"] > 0 else 0,
            **{c: row[c] for c in ("enemy_common", "enemy_heroic", "enemy_legendary", "own_destroyed", "upgrades",
                                   "downgrades", "placed", "converted", "turn_points", "frozen", "thawed", "warped")},
            "invocations": len(invoked), "invoked": bool(invoked), "upper_only": upper and not lower,
            "lower_only": lower and not upper, "both_halves": upper and lower,
            "behind": any(f["behind_by"] < 0 for f in invoked), "behind_gap": sum(f["behind_by"] for f in invoked)})
    return [sums[k] for k in sorted(sums)]


def expected_deck_positions(games: list[Played], orders: Orders) -> list[dict[str, Any]]:
    """Each seat's setup deck order (as the game's state held it after the setup), counted per kind of game,
    deck, player, card, position and result."""
    facts = seat_facts(games)
    sums: dict[tuple[Any, ...], dict[str, Any]] = {}
    for game_id, _, _, _ in games:
        for seat, ids in enumerate(orders[game_id]):
            kind, won, _, _ = facts[(game_id, seat)]
            for position, card in enumerate(ids):
                _add(sums, kind | {"card_id": card, "position": position, "won": won}, {"games": 1})
    return [sums[k] for k in sorted(sums)]


def expected_seat_tasks(games: list[Played]) -> list[dict[str, Any]]:
    """Every task revealed in a game, from each of its seats: dealt at setup (turn 0), revealed, and the seat's
    claim (points, and turns since the task entered the row: 0 for the setup's first three, else the turn of the
    first claim after its reveal), per kind of game, deck, player, opponent, first turn, task and result."""
    facts = seat_facts(games)
    sums: dict[tuple[Any, ...], dict[str, Any]] = {}
    for game_id, _, record, _ in games:
        revealed: list[dict[str, Any]] = []
        waiting: list[dict[str, Any]] = []
        for e in record.events:
            if isinstance(e, TaskReveal):
                task = {"id": e.task, "dealt": e.turn == 0, "entered": 0 if len(revealed) < 3 else None, "claim": None}
                waiting += [task] if len(revealed) >= 3 else []
                revealed.append(task)
            elif isinstance(e, TaskClaim):
                for task in waiting:
                    task["entered"] = e.turn
                waiting = []
                next(t for t in revealed if t["id"] == e.task)["claim"] = (e.seat, e.turn, e.points)
        for seat in range(len(record.config["decks"])):
            kind, won, first, opponent = facts[(game_id, seat)]
            for task in revealed:
                mine = task["claim"] is not None and task["claim"][0] == seat
                _add(sums, kind | {"opp_strategy": opponent, "first": first, "task_id": task["id"], "won": won}, {
                    "dealt": task["dealt"], "revealed": 1, "claims": mine, "points": task["claim"][2] if mine else 0,
                    "row_turns": task["claim"][1] - task["entered"] if mine else 0})
    return [sums[k] for k in sorted(sums)]


def test_the_per_game_rows_match_the_game_records(played: tuple[list[Played], Orders]) -> None:
    builder = TableBuilder()
    games, orders = played
    for game_id, cell, record, labels in games:
        builder.add(game_id, cell, record, "fingerprint", labels, *variant(game_id), orders[game_id])
    built = builder.tables()
    rows = summarize(pl.from_arrow(built["card_events"]).lazy(), pl.from_arrow(built["points"]).lazy())
    assert rows.schema == SEAT_CARD_ROWS
    assert rows.to_pylist() == expected_seat_card_rows(games)


EXPECTED = {"games": expected_games, "card_events": expected_card_events, "task_events": expected_task_events,
            "flare_events": expected_flare_events, "points": expected_points, "deck_order": expected_deck_order,
            "seat_results": expected_seat_results, "colour_points": expected_colour_points,
            "pass_control": expected_pass_control, "seat_cards": expected_seat_cards,
            "seat_tasks": expected_seat_tasks}


def test_the_games_cover_what_the_tables_distinguish(games: list[Played]) -> None:
    """Without these the comparison below could not tell ranks, halves, seats or sources apart."""
    cards = expected_card_events(games)
    for column in EFFECT_COLUMNS:
        assert any(r[column] for r in cards), column
    assert {r["event"] for r in cards} == {"drawn", "played", "discarded", "returned", "held", "invoked"}
    assert {r["card_type"] for r in cards if r["event"] == "played"} == {"being", "legend"}
    assert any(r["opening"] for r in cards) and any(not r["opening"] for r in cards if r["event"] == "drawn")
    flares = expected_flare_events(games)
    assert {(r["upper"], r["lower"]) for r in flares} >= {(True, False), (False, True), (True, True)}
    assert len({r["behind_by"] for r in flares}) > 3
    sources = Counter(r["source"].split("/")[0] for r in expected_points(games))
    assert set(sources) == {"task", "destruction", "flare", "legend-summon", "leftover-commons"}
    assert {r["colour"] for r in expected_points(games)} >= {-1, 0, 1, 2, 3}
    assert {r["against"] for r in flares} >= {-1, 0, 1, 2}
    seats = expected_seat_results(games)
    assert {r["place"] for r in seats} >= {1, 2, 3, 4} and any(r["improvised"] for r in seats)
    assert {r["event"] for r in expected_task_events(games)} == {"revealed", "claimed"}
    passes = expected_pass_control(games)
    assert {r["during"] == "" for r in passes} == {True, False}
    assert {(r["winner"], r["tiebreak"] == "") for r in expected_games(games)} >= {(0, True), (1, True)}


@pytest.mark.parametrize("table", list(TABLES))
def test_every_column_matches_the_game_records(tables: dict[str, list[dict[str, Any]]],
                                               played: tuple[list[Played], Orders], table: str) -> None:
    games, orders = played
    expected = expected_deck_positions(games, orders) if table == "deck_positions" else EXPECTED[table](games)
    got = tables[table]
    if table == "deck_order":  # the card ids: test_deck_order_is_the_setup_shuffle
        got = [r | {"card_id": None} for r in got]
    assert len(got) == len(expected)
    for i, (row, want) in enumerate(zip(got, expected, strict=True)):
        assert row.keys() == want.keys(), f"{table} columns"
        assert row == want, f"{table} row {i}: " + ", ".join(
            f"{k}={row[k]!r} expected {want[k]!r}" for k in want if row[k] != want[k])


def test_an_empty_shard_gives_every_table_empty() -> None:
    built = TableBuilder().tables()
    assert {name: (t.schema, t.num_rows) for name, t in built.items()} == {n: (s, 0) for n, s in TABLES.items()}


# ----- the schema against the document
def documented_tables() -> tuple[int, dict[str, list[tuple[str, str]]]]:
    """docs/dataset.md's schema version and, per table, its (column, type) rows in order."""
    text = DATASET_DOC.read_text()
    version = re.search(r"^## Tables \(schema version (\d+)\)$", text, re.M)
    assert version, "docs/dataset.md: no '## Tables (schema version N)' heading"
    tables: dict[str, list[tuple[str, str]]] = {}
    section = text[version.end():].split("\n## ")[0]
    for part in re.split(r"^### ", section, flags=re.M)[1:]:
        name = re.match(r"`(\w+)`", part)
        assert name, f"docs/dataset.md: table heading without a `name`: {part.splitlines()[0]!r}"
        columns = tables[name.group(1)] = []
        header = False
        for line in part.splitlines():
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            if cells[:2] == ["column", "type"]:
                header = True
            elif header and cells and not set(cells[0]) <= set("-"):
                columns += [(c, cells[1]) for c in re.findall(r"`(\w+)`", cells[0])]
            elif not cells:
                header = False
    return int(version.group(1)), tables


def test_the_schema_is_the_one_documented() -> None:
    version, documented = documented_tables()
    assert version == SCHEMA_VERSION
    assert documented == {name: [(f.name, str(f.type)) for f in schema] for name, schema in TABLES.items()}
