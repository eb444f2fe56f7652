"""The blind-spot counter (``tashkalar blind-spots``): its counts against the game records, a planted player
whose counts are known, the watched player playing the games it plays unwatched, and the command."""

from __future__ import annotations

import json
import random

from sim.cards import BASE_DECKS, load_card_set
from sim.decisions import Decision, PlayerView
from sim.game import Game
from sim.record import Discard, FlareInvoked, Return, Summon
from strategies import make_strategy
from strategies.blind_spots import BlindSpots, Watched, count_game, measure, play_watched
from tests.test_cli import run

CARDS = load_card_set()
PAIRINGS = [(a, b) for a in BASE_DECKS for b in BASE_DECKS]


def test_random_counts_agree_with_the_records_and_show_every_kind_of_option() -> None:
    for form, games in (("high-form", 20), ("deathmatch", 40)):
        counts = BlindSpots("random", form)
        returned = {"being": 0, "legend": 0, "flare": 0}
        discards = flares = legend_turns = won = 0
        for i in range(games):
            log, record = play_watched(CARDS, form, PAIRINGS[i % 9], "random", 1 + i)
            count_game(counts, log, record)
            for e in record.of_kind(Return):
                prefix = e.card.split("/")[0]
                returned[prefix if prefix in ("legend", "flare") else "being"] += 1
            discards += len(record.of_kind(Discard))
            flares += len(record.of_kind(FlareInvoked))
            legend_turns += len({(e.turn, e.seat) for e in record.of_kind(Summon) if e.card.startswith("legend/")})
            won += record.scores[record.winner] if record.winner >= 0 else 0
        assert counts.returns == returned and counts.discards == discards
        assert counts.flare_turns_invoked == flares and counts.legend_turns_summoned == legend_turns
        assert counts.winner_points == won and sum(counts.end_reasons.values()) == games
        assert counts.players == 2 * games
        assert min(returned.values()) > 0 and 0 < counts.discards_with_return < counts.discards_return_offered
        assert 0 < counts.discards_summon_legal < counts.discards
        assert 0 < counts.flare_turns_invoked < counts.flare_turns_offered
        assert counts.last_turns_flare_offered > 0
        assert 0 < sum(counts.optional_taken.values()) < sum(counts.optional_offered.values())
        assert counts.optional_offered["imperial/herald move"] > 0
    assert 0 < counts.legend_turns_summoned < counts.legend_turns_legal  # Deathmatch


class Eager:
    """A planted player: returns every card it may, summons a legend whenever it may, takes every optional
    part of an effect; random otherwise."""

    name = "eager"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, decision: Decision) -> int:
        options = decision.options
        if decision.kind == "action":
            legends = [i for i, o in enumerate(options) if o.kind == "summon" and o.card.is_legend]
            if legends:
                return legends[0]
        elif decision.kind == "return" or (decision.card and None in options):
            return next(i for i, o in enumerate(options) if o is not None)
        return self.rng.randrange(len(options))


def test_a_planted_player_that_takes_every_option_counts_as_taking_all() -> None:
    counts = BlindSpots("eager", "deathmatch")
    for i in range(12):
        log: list = []
        players = [Watched(Eager(100 * i + seat), log) for seat in range(2)]
        record = Game(CARDS, "deathmatch", PAIRINGS[i % 9], players, i).play()
        count_game(counts, log, record)
    assert counts.legend_turns_legal > 0 and counts.legend_turns_summoned == counts.legend_turns_legal
    assert counts.discards_return_offered > 0 and counts.discards_with_return == counts.discards_return_offered
    assert sum(counts.returns.values()) == counts.return_decisions  # "stop" is only left when nothing is
    assert sum(counts.optional_offered.values()) > 0 and counts.optional_taken == counts.optional_offered


def test_the_watched_player_plays_the_games_it_plays_unwatched() -> None:
    for strategy in ("planner", "builder"):
        for form in ("high-form", "deathmatch"):
            _, watched = play_watched(CARDS, form, ("imperial", "highland"), strategy, 7)
            plain = Game(CARDS, form, ("imperial", "highland"),
                         [make_strategy(strategy, seat, 7) for seat in range(2)], 7).play()
            assert watched.to_dict() == plain.to_dict()


def test_measure_is_a_function_of_its_seed() -> None:
    first = measure(CARDS, "builder", "high-form", PAIRINGS, 4, seed=3)
    again = measure(CARDS, "builder", "high-form", PAIRINGS, 4, seed=3)
    assert first == again and first.games == 4


def test_blind_spots_command() -> None:
    result = run("blind-spots", "--strategies", "builder", "--games", "2", "--decks", "imperial-highland", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["decks"] == ["imperial-highland"] and data["seed"] == 1
    assert [(r["strategy"], r["form"], r["games"], r["players"]) for r in data["results"]] == [
        ("builder", "high-form", 2, 4), ("builder", "deathmatch", 2, 4)]
    table = run("blind-spots", "--strategies", "random", "--games", "1", "--forms", "deathmatch")
    assert table.exit_code == 0 and "| turns a legend summon is legal: one made |" in table.stdout
    for args, words in ((["--forms", "melee"], "--forms"), (["--strategies", "nope"], "unknown strategy 'nope'"),
                        (["--decks", "imperial-nope"], "--decks"), (["--games", "0"], "--games")):
        bad = run("blind-spots", "--games", "1", *args)
        assert bad.exit_code != 0 and words in bad.output and "Traceback" not in bad.output
