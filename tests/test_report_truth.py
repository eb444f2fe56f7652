"""The report's queries and records on a hand-made dataset whose every number was worked out by hand.

The rows below are written with pyarrow directly (tests/handmade.py), so neither the row builder nor the
queries produce the truth they are checked against. Each expected number has its derivation next to it.
No Ray.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reports.analysis import card_records, task_deck_records, task_records
from reports.build import write_report
from reports.dataset import open_runs
from reports.names import Names
from reports.queries import run_queries
from reports.stats import MIN_TEST_SAMPLE, Diff, Rate
from reports.summary import _first_player
from sim.cards import load_card_set
from tests.handmade import game, write_run

DM, HF = "deathmatch", "high-form"
IMP, SYL = "imperial", "sylvan"
SWORD, DRAGON, FLARE = "imperial/swordmaster", "legend/fire-dragon", "flare/01"
TA, TB, TC, TD, TE, TF = ("task/destruction", "task/devastation", "task/heroic-destruction",
                          "task/heroic-devastation", "task/end-of-legends", "task/red-conquest")

GAMES = [
    # Deathmatch, random against random.
    game(0, DM, (IMP, SYL), first=0, winner=0, scores=(10, 5), turns=20),
    game(1, DM, (SYL, IMP), first=1, winner=0, scores=(9, 4), turns=22, end_reason="deck"),
    game(2, DM, (IMP, SYL), first=0, winner=-1, scores=(6, 6), turns=30, end_reason="turn-limit", tiebreak="tie"),
    game(3, DM, (IMP, IMP), first=1, winner=1, scores=(2, 7), turns=20),
    # High Form: one random-random game, two builder-random games (once from each seat).
    game(4, HF, (IMP, SYL), first=0, winner=1, scores=(3, 8), turns=25),
    game(5, HF, (IMP, SYL), first=0, winner=1, scores=(4, 9), turns=18, end_reason="deck",
         strategies=("builder", "random")),
    game(6, HF, (SYL, IMP), first=0, winner=0, scores=(5, 5), turns=18, end_reason="deck", tiebreak="upgraded",
         strategies=("random", "builder")),
]


def _card(game_id: int, seat: int, turn: int, card_id: str, event: str, **counters: Any) -> dict[str, Any]:
    card_type = card_id.split("/")[0] if card_id.split("/")[0] in ("legend", "flare") else "being"
    return {"game_id": game_id, "seat": seat, "turn": turn, "card_id": card_id, "card_type": card_type,
            "event": event, "opening": event == "drawn" and turn == 0, **counters}


CARD_EVENTS = [
    _card(0, 0, 0, SWORD, "drawn"), _card(0, 0, 0, DRAGON, "drawn"), _card(0, 0, 0, FLARE, "drawn"),
    _card(0, 1, 0, FLARE, "drawn"),
    _card(0, 0, 5, SWORD, "drawn"),  # a second copy: still one seat-game with it in hand
    _card(0, 0, 6, SWORD, "played", square=40, enemy_common=1, upgrades=1),
    _card(0, 0, 7, DRAGON, "played", square=41),
    _card(0, 0, 8, FLARE, "invoked"),
    _card(0, 0, 11, DRAGON, "played", square=42),
    _card(1, 1, 3, SWORD, "drawn"),
    _card(2, 0, 0, SWORD, "drawn"),
    _card(2, 0, 3, SWORD, "played", square=40, enemy_heroic=2, own_destroyed=1, downgrades=2, placed=3),
    _card(3, 1, 2, DRAGON, "drawn"),
    _card(3, 1, 4, SWORD, "drawn"),
    _card(3, 1, 4, DRAGON, "played", square=43),
    _card(3, 1, 5, SWORD, "played", square=44, enemy_legendary=3, own_destroyed=3, upgrades=4, placed=4,
          converted=5),
    _card(3, 1, 9, SWORD, "played", square=45, downgrades=4, converted=3),
]

POINTS = [
    {"game_id": 0, "turn": 6, "seat": 0, "source": "destruction", "points": 2},
    {"game_id": 0, "turn": 6, "seat": 0, "source": "flare", "points": 1},
    {"game_id": 0, "turn": 6, "seat": 1, "source": "destruction", "points": 5},  # the other seat's
    {"game_id": 2, "turn": 4, "seat": 0, "source": "destruction", "points": 2},  # another turn
    {"game_id": 3, "turn": 5, "seat": 1, "source": "destruction", "points": 1},
]


def _flare(game_id: int, seat: int, behind_by: int, upper: bool, lower: bool) -> dict[str, Any]:
    return {"game_id": game_id, "seat": seat, "turn": 8, "flare_id": FLARE, "upper": upper, "lower": lower,
            "behind_by": behind_by}


FLARE_EVENTS = [
    _flare(0, 0, -3, True, False),  # imperial, behind, won
    _flare(2, 0, 0, True, True),  # imperial, level: not behind; tied
    _flare(3, 0, 2, False, True),  # imperial, ahead; lost
    _flare(1, 1, -1, True, False),  # imperial, behind, lost
    _flare(1, 0, -4, True, True),  # sylvan, behind, won
]


def _task(game_id: int, turn: int, task_id: str, seat: int = -1, points: int = 0) -> dict[str, Any]:
    event = "revealed" if seat < 0 else "claimed"
    return {"game_id": game_id, "turn": turn, "seat": seat, "task_id": task_id, "event": event, "points": points}


TASK_EVENTS = [  # in game order: the queries read the order of the file
    _task(4, 0, TA), _task(4, 0, TB), _task(4, 0, TC), _task(4, 0, TD),  # D: the next task
    _task(4, 5, TA, seat=1, points=2),  # D moves into the row on turn 5
    _task(4, 5, TE),
    _task(4, 9, TD, seat=0, points=3),  # E moves into the row on turn 9
    _task(4, 9, TF),
    _task(4, 12, TE, seat=1, points=1),
    _task(5, 0, TA), _task(5, 0, TB), _task(5, 0, TC), _task(5, 0, TD),
    _task(5, 3, TB, seat=0, points=2),
    _task(5, 3, TE),
    _task(6, 0, TA), _task(6, 0, TB), _task(6, 0, TC), _task(6, 0, TD),
    _task(6, 4, TB, seat=0, points=2),
    _task(6, 4, TE),
]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_run(tmp_path_factory.mktemp("handmade") / "hand", GAMES, card_events=CARD_EVENTS,
                     points=POINTS, flare_events=FLARE_EVENTS, task_events=TASK_EVENTS)


def queries(run: Path) -> dict[str, list[dict[str, Any]]]:
    """Every report query's rows over one run."""
    _, con = open_runs([run])
    try:
        return run_queries(con, str(run))
    finally:
        con.close()


@pytest.fixture(scope="module")
def q(run: Path) -> dict[str, list[dict[str, Any]]]:
    return queries(run)


@pytest.fixture(scope="module")
def names() -> Names:
    return Names(load_card_set())


def _rows(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> list[tuple[Any, ...]]:
    return [tuple(r[c] for c in columns) for r in rows]


def _one(rows: list[dict[str, Any]], **where: Any) -> dict[str, Any]:
    hits = [r for r in rows if all(r[k] == v for k, v in where.items())]
    assert len(hits) == 1, (where, hits)
    return hits[0]


def test_first_player_counts_wins_of_the_first_seat_and_ties_apart(q) -> None:
    # Deathmatch: game 0 (first wins), 1 (second wins), 2 (tie), 3 (first wins); game 5's first player
    # is seat 0, the builder.
    assert _rows(q["first_player"], ("mode", "first_strategy", "second_strategy", "games", "first_wins",
                                     "ties")) == [
        (DM, "random", "random", 4, 2, 1),
        (HF, "builder", "random", 1, 0, 0),
        (HF, "random", "builder", 1, 1, 0),
        (HF, "random", "random", 1, 0, 0),
    ]


def test_game_level_distributions(q) -> None:
    assert _rows(q["game_lengths"], ("mode", "turns", "games")) == [
        (DM, 20, 2), (DM, 22, 1), (DM, 30, 1), (HF, 18, 2), (HF, 25, 1)]
    assert _rows(q["end_reasons"], ("mode", "end_reason", "tiebreak", "games")) == [
        (DM, "deck", "", 1), (DM, "score", "", 2), (DM, "turn-limit", "tie", 1),
        (HF, "deck", "", 1), (HF, "deck", "upgraded", 1), (HF, "score", "", 1)]
    assert _rows(q["score_margins"], ("mode", "margin", "games")) == [(DM, 0, 1), (DM, 5, 3), (HF, 0, 1), (HF, 5, 2)]
    assert _rows(q["overview"], ("run", "mode", "games", "card_sets")) == [
        (0, DM, 4, ["handmade"]), (0, HF, 3, ["handmade"])]
    assert [r["mean_turns"] for r in q["overview"]] == pytest.approx([92 / 4, 61 / 3])


def test_seat_tables_count_each_seat_and_ties_are_not_wins(q) -> None:
    # Deathmatch imperial seats: 0/0 won, 1/1 lost, 2/0 tied, 3/0 lost, 3/1 won.
    assert _rows(q["deck_baseline"], ("mode", "deck", "strategy", "games", "wins", "ties")) == [
        (DM, IMP, "random", 5, 2, 1), (DM, SYL, "random", 3, 1, 1),
        (HF, IMP, "builder", 2, 0, 0), (HF, IMP, "random", 1, 0, 0), (HF, SYL, "random", 3, 3, 0)]
    matchups = q["matchups"]
    key = ("games", "wins", "ties")
    assert _rows([_one(matchups, mode=DM, deck=IMP, opp_deck=IMP)], key) == [(2, 1, 0)]  # a mirror: both seats
    assert _rows([_one(matchups, mode=DM, deck=IMP, opp_deck=SYL)], key) == [(3, 1, 1)]
    assert _rows([_one(matchups, mode=DM, deck=SYL, opp_deck=IMP)], key) == [(3, 1, 1)]
    assert _rows([_one(matchups, mode=HF, strategy="builder", deck=IMP)], ("opp_strategy", "opp_deck", *key)) == [
        ("random", SYL, 2, 0, 0)]
    assert _rows([r for r in q["strategy_pairings"] if r["mode"] == HF],
                 ("strategy", "opp_strategy", "games", "wins", "ties")) == [
        ("builder", "random", 2, 0, 0), ("random", "builder", 2, 2, 0), ("random", "random", 2, 1, 0)]


def test_seat_sums_weigh_each_kind_of_game_by_its_number(tmp_path: Path) -> None:
    """Three alike games (Imperial, random, beats Sylvan, builder, from the first seat) and two alike ties: the
    seats table holds one row per kind of seat-game with its number, and every sum weighs by it."""
    alike = [game(g, DM, (IMP, SYL), first=0, winner=0, strategies=("random", "builder")) for g in range(3)]
    ties = [game(g, DM, (IMP, SYL), first=1, winner=-1, strategies=("random", "builder")) for g in (3, 4)]
    run = write_run(tmp_path / "alike", [*alike, *ties])
    q = queries(run)
    cols = ("strategy", "opp_strategy", "games", "wins", "ties")
    assert _rows(q["strategy_pairings"], cols) == [("builder", "random", 5, 0, 2), ("random", "builder", 5, 3, 2)]
    assert _rows(q["matchups"], ("deck", "opp_deck", "games", "wins", "ties")) == [(SYL, IMP, 5, 0, 2),
                                                                                 (IMP, SYL, 5, 3, 2)]
    assert _rows(q["deck_baseline"], ("deck", "strategy", "games", "wins", "ties")) == [
        (IMP, "random", 5, 3, 2), (SYL, "builder", 5, 0, 2)]


def test_card_hands_count_seat_games_once(q) -> None:
    cols = ("in_hand_games", "in_hand_wins", "opening_games", "opening_wins", "played_games", "played_wins")
    hands = q["card_hands"]
    # Swordmaster with imperial seats: in hand in 0/0 (won; twice), 1/1 (lost), 2/0 (tied), 3/1 (won);
    # opening hand in 0/0 and 2/0; played in 0/0, 2/0 and 3/1 (twice).
    assert _rows([_one(hands, mode=DM, deck=IMP, card_id=SWORD)], cols) == [(4, 2, 2, 1, 3, 2)]
    assert _rows([_one(hands, mode=DM, deck=IMP, card_id=DRAGON)], cols) == [(2, 2, 1, 1, 2, 2)]
    assert _rows([_one(hands, mode=DM, deck=IMP, card_id=FLARE)], ("card_type", *cols)) == [
        ("flare", 1, 1, 1, 1, 1, 1)]
    assert _rows([_one(hands, mode=DM, deck=SYL, card_id=FLARE)], cols) == [(1, 0, 1, 0, 0, 0)]
    assert len(hands) == 4


def test_a_card_only_losers_held_has_no_wins_and_an_invoked_flare_never_held_no_hand_row(tmp_path: Path) -> None:
    """Imperial holds Swordmaster from its opening hand and loses: 0 wins of 1, opening included (no won
    seat-game of the cell carries the card). Sylvan invokes a flare it has no card event of: the flare was
    never in its hand, so the hand table has no row for it."""
    events = [_card(0, 0, 0, SWORD, "drawn")]
    run = write_run(tmp_path / "losers", [game(0, DM, (IMP, SYL), first=0, winner=1)], card_events=events,
                    flare_events=[_flare(0, 1, -2, True, False)])
    hands = queries(run)["card_hands"]
    cols = ("deck", "card_id", "in_hand_games", "in_hand_wins", "opening_games", "opening_wins", "played_games",
            "played_wins")
    assert _rows(hands, cols) == [(IMP, SWORD, 1, 0, 1, 0, 0, 0)]


def test_card_plays_average_each_counter_and_the_turn_points(q) -> None:
    sword = _one(q["card_plays"], mode=DM, deck=IMP, card_id=SWORD)
    # Four plays, on turns 6, 3, 5 and 9; the counters add up to 1, 2, ..., 8 over them.
    assert sword["plays"] == 4
    assert sword["mean_turn"] == pytest.approx(23 / 4)
    expected = {"enemy_common": 1, "enemy_heroic": 2, "enemy_legendary": 3, "own_destroyed": 4, "upgrades": 5,
                "downgrades": 6, "placed": 7, "converted": 8}
    assert {c: sword[c] for c in expected} == pytest.approx({c: v / 4 for c, v in expected.items()})
    # The player's points in the turn of each play: 2 + 1 (game 0, turn 6), 0, 1 (game 3, turn 5), 0.
    assert sword["turn_points"] == pytest.approx(4 / 4)
    assert sword["first_summon_turn"] is None
    dragon = _one(q["card_plays"], mode=DM, deck=IMP, card_id=DRAGON)
    # Summoned on turns 7 and 11 by seat 0 of game 0, on turn 4 by seat 1 of game 3.
    assert (dragon["plays"], dragon["mean_turn"], dragon["first_summon_turn"]) == (3, pytest.approx(22 / 3), 5.5)
    assert len(q["card_plays"]) == 2  # flare invocations are not plays


def test_card_plays_of_a_card_played_once_are_that_plays_counters(tmp_path: Path) -> None:
    # One play: each mean is the play's own counter (divided by 1, not left out).
    counters = {"enemy_common": 1, "enemy_heroic": 2, "enemy_legendary": 3, "own_destroyed": 4, "upgrades": 5,
                "downgrades": 6, "placed": 7, "converted": 8}
    events = [_card(0, 0, 0, DRAGON, "drawn"), _card(0, 0, 4, DRAGON, "played", square=40, **counters)]
    points = [{"game_id": 0, "turn": 4, "seat": 0, "source": "destruction", "points": 2}]
    run = write_run(tmp_path / "once", [game(0, DM, (IMP, SYL), first=0, winner=0)], card_events=events,
                    points=points)
    (dragon,) = queries(run)["card_plays"]
    assert (dragon["plays"], dragon["mean_turn"], dragon["turn_points"], dragon["first_summon_turn"]) == (1, 4, 2, 4)
    assert {c: dragon[c] for c in counters} == counters


def test_a_flare_invoked_twice_in_one_game_counts_two_invocations_in_one_game(tmp_path: Path) -> None:
    flares = [_flare(0, 0, -3, True, False), _flare(0, 0, 2, False, True)]
    run = write_run(tmp_path / "twice", [game(0, DM, (IMP, SYL), first=0, winner=0)], flare_events=flares)
    (row,) = queries(run)["flares"]
    # Behind by 3, then ahead by 2: one seat-game, both halves used, behind once (and won); mean gap -1 / 2.
    assert (row["invocations"], row["games"], row["both_halves"], row["upper_only"], row["lower_only"]) == (
        2, 1, 1, 0, 0)
    assert (row["behind"], row["behind_wins"], row["mean_score_gap"]) == (1, 1, -0.5)


def test_card_positions_count_each_seat_game_by_where_the_shuffle_left_the_card(tmp_path: Path) -> None:
    """Imperial's Swordmaster at position 2 in two games random won, at 5 in one builder lost and at 5 in one
    random tied: one row per player, position and card, each from its own seat-games."""
    games = [game(0, DM, (IMP, SYL), first=0, winner=0),
             game(1, DM, (IMP, SYL), first=0, winner=1, strategies=("builder", "random")),
             game(2, DM, (SYL, IMP), first=0, winner=-1), game(3, DM, (IMP, SYL), first=1, winner=0)]
    order = [{"game_id": 0, "seat": 0, "card_id": SWORD, "position": 2},
             {"game_id": 1, "seat": 0, "card_id": SWORD, "position": 5},
             {"game_id": 2, "seat": 1, "card_id": SWORD, "position": 5},
             {"game_id": 3, "seat": 0, "card_id": SWORD, "position": 2}]
    run = write_run(tmp_path / "positions", games, deck_order=order)
    positions = queries(run)["card_positions"]
    assert _rows(positions, ("deck", "strategy", "card_id", "position", "games", "wins")) == [
        (IMP, "builder", SWORD, 5, 1, 0), (IMP, "random", SWORD, 2, 2, 2), (IMP, "random", SWORD, 5, 1, 0)]


def test_flares_are_counted_per_player_of_a_deck(tmp_path: Path) -> None:
    """Imperial played by random, then by builder, invokes the flare once in each game: one row each."""
    games = [game(0, DM, (IMP, SYL), first=0, winner=0), game(1, DM, (IMP, SYL), first=0, winner=1,
                                                              strategies=("builder", "random"))]
    run = write_run(tmp_path / "players", games, flare_events=[_flare(0, 0, -1, True, False),
                                                               _flare(1, 0, 1, False, True)])
    flares = queries(run)["flares"]
    assert _rows(flares, ("deck", "strategy", "invocations", "games", "behind", "behind_wins")) == [
        (IMP, "builder", 1, 1, 0, 0), (IMP, "random", 1, 1, 1, 1)]


def test_a_flare_drawn_but_never_invoked_has_no_row(tmp_path: Path) -> None:
    run = write_run(tmp_path / "held", [game(0, DM, (IMP, SYL), first=0, winner=0)],
                    card_events=[_card(0, 0, 0, FLARE, "drawn")])
    assert queries(run)["flares"] == []


def test_flares_count_comebacks_only_when_behind(q) -> None:
    cols = ("invocations", "upper_only", "lower_only", "both_halves", "behind", "behind_wins")
    imperial = _one(q["flares"], mode=DM, deck=IMP, card_id=FLARE)
    # behind_by -3 (won), 0 (tied: level is not behind), +2 (lost), -1 (lost).
    assert _rows([imperial], cols) == [(4, 2, 1, 1, 2, 1)]
    assert imperial["mean_score_gap"] == pytest.approx(-0.5)
    sylvan = _one(q["flares"], mode=DM, deck=SYL, card_id=FLARE)
    assert _rows([sylvan], cols) == [(1, 0, 0, 1, 1, 1)]
    assert sylvan["mean_score_gap"] == pytest.approx(-4)


def test_tasks_follow_the_row(q) -> None:
    cols = ("revealed_games", "claims", "claims_first", "claims_second", "claimer_wins", "points",
            "pairing_points")
    tasks = {(r["pairing"], r["task_id"]): r for r in q["tasks"]}
    rr, br = "random vs random", "builder vs random"
    # Game 4 (first player seat 0, won by seat 1, 3 + 8 points): A claimed by seat 1 on turn 5 after 5
    # turns in the row; D entered then and was claimed by seat 0 on turn 9; E entered then, claimed on 12.
    assert _rows([tasks[(rr, t)] for t in (TA, TB, TD, TE, TF)], cols) == [
        (1, 1, 0, 1, 1, 2, 11), (1, 0, 0, 0, 0, 0, 11), (1, 1, 1, 0, 0, 3, 11), (1, 1, 0, 1, 1, 1, 11),
        (1, 0, 0, 0, 0, 0, 11)]
    assert [tasks[(rr, t)]["mean_row_turns"] for t in (TA, TB, TD, TE)] == [5, None, 4, 3]
    # Games 5 and 6 (4 + 9 and 5 + 5 points): B claimed by the first player, on turns 3 and 4, won once.
    assert _rows([tasks[(br, TB)]], cols) == [(2, 2, 2, 0, 1, 4, 23)]
    assert tasks[(br, TB)]["mean_row_turns"] == pytest.approx(3.5)
    assert _rows([tasks[(br, TE)]], cols) == [(2, 0, 0, 0, 0, 0, 23)]
    assert len(tasks) == 6 + 5
    assert _rows(q["task_decks"], ("deck", "strategy", "task_id", "claims", "claimer_wins")) == [
        (IMP, "builder", TB, 1, 0), (IMP, "random", TD, 1, 0), (SYL, "random", TA, 1, 1),
        (SYL, "random", TB, 1, 1), (SYL, "random", TE, 1, 1)]


def test_card_records_compare_with_the_rest_of_the_cell(q, names) -> None:
    records = {(r["mode"], r["deck"], r["strategy"], r["card_id"]): r for r in card_records(q, names)}
    sword = records[(DM, IMP, "random", SWORD)]
    # The cell: 5 imperial seat-games, 2 won. In hand 2 of 4; opening 1 of 2; played 2 of 3.
    assert sword["in_hand"] == Rate(2, 4)
    assert sword["never"] == Rate(0, 1)
    assert sword["opening"] == Rate(1, 2)
    assert sword["later"] == Rate(1, 2)
    assert sword["played"] == Rate(2, 3)
    assert sword["not_played"] == Rate(0, 2)
    assert sword["play_rate"] == Rate(3, 4)
    assert sword["improvement"].value == pytest.approx(2 / 4 - 0)
    assert sword["plays"] == 4 and sword["enemy_legendary"] == pytest.approx(3 / 4)
    flare = records[(DM, IMP, "random", FLARE)]
    assert flare["comeback"] == Rate(1, 2)
    assert (flare["invocations"], flare["upper_only"], flare["both_halves"]) == (4, Rate(2, 4), Rate(1, 4))
    never = records[(DM, IMP, "random", "imperial/cannon")]  # never drawn: the whole cell is "never"
    assert never["in_hand"] == Rate(0, 0) and never["never"] == Rate(2, 5)
    assert (DM, SYL, "random", SWORD) not in records  # another deck's being


def test_task_setup_counts_the_four_tasks_dealt_in_each_high_form_game_per_seat(q) -> None:
    # Sylvan (random) won games 4-6; Imperial lost them: random in game 4, builder in 5 and 6. E and F were
    # revealed later in the game, not dealt at setup.
    dealt = (TA, TB, TC, TD)
    assert _rows(q["task_setup"], ("deck", "strategy", "task_id", "games", "wins")) == [
        *[(IMP, "builder", t, 2, 0) for t in dealt], *[(IMP, "random", t, 1, 0) for t in dealt],
        *[(SYL, "random", t, 3, 3) for t in dealt]]


def test_task_records(q, names) -> None:
    tasks = {(r["pairing"], r["task_id"]): r for r in task_records(q, names)}
    a = tasks[("random vs random", TA)]
    assert (a["reveal_rate"], a["claim_rate"], a["claimer_won"]) == (Rate(1, 1), Rate(1, 1), Rate(1, 1))
    assert a["points_share"] == pytest.approx(2 / 11)
    assert (a["claims_first"], a["claims_second"], a["row_turns"], a["status"]) == (0, 1, 5, "")
    assert tasks[("random vs random", TB)]["status"] == "never claimed"
    assert tasks[("builder vs random", TF)]["status"] == "never revealed"
    assert tasks[("builder vs random", TB)]["first_share"] == Rate(2, 2)
    by_deck = {(r["deck"], r["strategy"], r["task_id"]): r for r in task_deck_records(q, names)}
    sylvan_b = by_deck[(SYL, "random", TB)]
    # High Form sylvan random seats: 3 games, 3 won; the claim of B is one of them.
    assert (sylvan_b["claimer_won"], sylvan_b["others_won"]) == (Rate(1, 1), Rate(2, 2))


def test_the_minimum_test_sample_is_20_games_on_each_side() -> None:
    assert MIN_TEST_SAMPLE == 20  # docs/reports.md
    assert Diff(Rate(10, 20), Rate(5, 20)).testable
    assert not Diff(Rate(10, 19), Rate(5, 20)).testable
    assert not Diff(Rate(10, 20), Rate(5, 19)).testable
    assert Diff(Rate(10, 19), Rate(5, 20)).p is None


@pytest.mark.parametrize(("wins", "verdict"), [(70, "an advantage"), (30, "a disadvantage"),
                                               (55, "no clear advantage")])
def test_first_player_verdict(wins: int, verdict: str) -> None:
    rows = [{"mode": DM, "first_wins": 3 * (wins - 10), "second_wins": 3 * (60 - wins), "ties": 0, "games": 150},
            {"mode": DM, "first_wins": 30, "second_wins": 120, "ties": 0, "games": 150}]
    [line] = _first_player({"first_player": rows})
    assert line.startswith(f"{DM}: the first player wins ") and line.endswith(f": {verdict}.")


def test_first_player_verdict_needs_200_decisive_games() -> None:
    """40 games with a clear-looking 70% first-player share: too few for a headline."""
    rows = [{"mode": DM, "first_wins": 28, "second_wins": 12, "ties": 5, "games": 45}]
    assert _first_player({"first_player": rows}) == [
        f"{DM}, first player: 40 decisive games are too few for a headline (it needs 200)."]
    rows = [{"mode": DM, "first_wins": 140, "second_wins": 60, "ties": 5, "games": 205}]
    assert _first_player({"first_player": rows})[0].endswith(": an advantage.")


def test_first_player_verdict_leaves_ties_out():
    """Random players in High Form: 48.2% first, 47.0% second, 4.8% ties is no disadvantage."""
    rows = [{"mode": HF, "first_wins": 482, "second_wins": 470, "ties": 48, "games": 1000}]
    [line] = _first_player({"first_player": rows})
    assert "ties 4.8% (3.6–6.3%, n=1,000)" in line
    assert "of the decisive games the first player wins 50.6% (47.5–53.8%, n=952): no clear advantage." in line


def test_markdown_tables_align_text_left_and_numbers_right(run: Path, tmp_path: Path) -> None:
    write_report([run], md=tmp_path / "r.md")
    lines = (tmp_path / "r.md").read_text().splitlines()
    separators = [line for line in lines if line.startswith("|---")]
    assert separators
    assert all(set(line.strip("|").split("|")) <= {"---", "---:"} for line in separators)
    header = lines[lines.index(separators[0]) - 1]
    assert header.count("|") == separators[0].count("|")
