"""Thousands of random games in strict mode: no exception and no broken invariant, in both forms and for
every ordered pair of base decks; and games are determined by their seed.

Strict mode checks the state's invariants after every action and turn (pieces and stocks add up, cards are
all accounted for, scores match the points recorded); the checks here add the turn flow and the result.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sim.cards import BASE_DECKS, load_card_set
from sim.game import Game
from sim.record import GameRecord, Points
from sim.state import DEATHMATCH, HIGH_FORM, MODES
from strategies import make_strategy

IMPERIAL_GAMES = 2000  # per form, imperial against imperial
PAIR_GAMES = 1000  # per form, for every other ordered pair of base decks
CHUNK = 250  # games per test, so that xdist can spread them
ROOT = Path(__file__).resolve().parents[1]


def play(mode: str, decks: tuple[str, str], seed: int, *, strict: bool = True) -> Game:
    players = [make_strategy("random", seat, seed) for seat in (0, 1)]
    game = Game(load_card_set(), mode, decks, players, seed, strict=strict)
    game.play()
    return game


def play_record(mode: str, first: str, second: str, seed: int) -> dict[str, Any]:
    """A game's record as plain data (also run in a fresh interpreter by the determinism test)."""
    return play(mode, (first, second), seed).state.record.to_dict()


class TurnChecks:
    """Checks after every turn what strict mode does not: the turn flow, refills and scores."""

    def __init__(self) -> None:
        self.turn = 0
        self.points = [0, 0]
        self.triggered = False

    def __call__(self, game: Game) -> None:
        s = game.state
        p = s.active if s.counters.extra_turn else 1 - s.active  # who just played
        assert s.turn == self.turn + 1
        self.turn = s.turn
        assert s.actions_left == 0, "a turn ended with actions left"
        assert len(s.hand[p]) >= 3 or not s.deck[p], "hand not refilled"
        assert len(s.legend_hand[p]) >= 2 or not (s.legend_deck or s.legend_discard), "legends not refilled"
        assert len(s.flare_hand[p]) == 1 or not (s.flare_deck or s.flare_discard), "flare not refilled"
        kept = s.task_points if s.mode == HIGH_FORM else s.dm_points  # points once scored are never lost
        assert all(kept[i] >= self.points[i] for i in (0, 1)), "points lost"
        self.points = list(kept)
        if s.mode == HIGH_FORM:
            cats = [t.category for t in s.task_row]
            assert len(s.task_row) <= 3 and all(cats.count(c) <= 2 for c in cats), "task row broken"
        assert s.end_trigger is not None or not self.triggered, "end trigger undone"
        self.triggered = s.end_trigger is not None


def check_result(game: Game, record: GameRecord) -> None:
    s = game.state
    assert s.over and record.turns == s.turn
    assert record.end_reason in ("deck", "score"), f"ended by {record.end_reason!r}"
    assert s.turns_after_trigger == 2, "the final round is one turn per player"
    assert record.scores == (s.score(0), s.score(1)) and min(record.scores) >= 0
    if s.mode == DEATHMATCH:
        assert s.dm_points == [sum(e.points for e in record.of_kind(Points) if e.seat == p) for p in (0, 1)]
    a, b = record.scores
    if a != b:
        assert (record.winner, record.tiebreak) == (0 if a > b else 1, "")
    else:
        up = s.upgraded(0).bit_count(), s.upgraded(1).bit_count()
        allp = s.mine(0).bit_count(), s.mine(1).bit_count()
        expected = ((0 if up[0] > up[1] else 1, "upgraded") if up[0] != up[1]
                    else (0 if allp[0] > allp[1] else 1, "pieces") if allp[0] != allp[1] else (-1, "tie"))
        assert (record.winner, record.tiebreak) == expected


def _chunks() -> list:
    out = []
    for mode in MODES:
        for first in BASE_DECKS:
            for second in BASE_DECKS:
                n = IMPERIAL_GAMES if first == second == "imperial" else PAIR_GAMES
                out += [pytest.param(mode, first, second, start, id=f"{mode}-{first}-{second}-{start}")
                        for start in range(0, n, CHUNK)]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("mode, first, second, start", _chunks())
def test_random_games_keep_every_invariant(mode, first, second, start):
    cards = load_card_set()
    for seed in range(start, start + CHUNK):
        players = [make_strategy("random", seat, seed) for seat in (0, 1)]
        game = Game(cards, mode, (first, second), players, seed, strict=True)
        game.turn_listeners.append(TurnChecks())
        try:
            record = game.play()
            check_result(game, record)
        except Exception as e:  # name the game, so that it can be replayed
            raise AssertionError(f"{mode} {first}-{second} seed {seed}: {e!r}") from e


def test_the_property_games_cover_every_pairing_with_enough_games():
    counts: dict[tuple[str, str, str], int] = {}
    for p in _chunks():
        mode, first, second, _ = p.values
        counts[mode, first, second] = counts.get((mode, first, second), 0) + CHUNK
    assert len(counts) == len(MODES) * len(BASE_DECKS) ** 2
    assert all(n >= (IMPERIAL_GAMES if k[1:] == ("imperial", "imperial") else PAIR_GAMES)
               for k, n in counts.items())
    assert IMPERIAL_GAMES >= 2000 and PAIR_GAMES >= 1000


# ----- determinism
@pytest.mark.parametrize("mode", MODES)
def test_the_same_seed_gives_the_same_game(mode):
    first = play_record(mode, "imperial", "sylvan", 11)
    assert first == play_record(mode, "imperial", "sylvan", 11)
    strict_off = play(mode, ("imperial", "sylvan"), 11, strict=False).state.record.to_dict()
    assert strict_off == first  # checking invariants changes nothing
    assert len(first["events"]) > 100


def test_the_same_seed_gives_the_same_game_in_a_fresh_process():
    args = [(mode, "highland", "imperial", seed) for mode in MODES for seed in (3, 4)]
    code = ("import json, sys\nfrom tests.test_properties import play_record\n"
            "print(json.dumps([play_record(*a) for a in json.loads(sys.argv[1])]))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code, json.dumps(args)], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    here = json.loads(json.dumps([play_record(*a) for a in args]))
    assert json.loads(out) == here


def test_different_seeds_give_different_games():
    for mode in MODES:
        records = [play_record(mode, "imperial", "imperial", seed) for seed in range(5)]
        assert len({json.dumps(r["events"]) for r in records}) == 5
