"""The ladder: its statistics, a small round robin, and the ``ladder`` command."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.errors import UserError
from strategies.commands import parse_entrants, parse_params
from strategies.ladder import (
    Entrant,
    PairingResult,
    elo_ratings,
    rating_intervals,
    render,
    run_ladder,
)


def test_a_pairings_interval_is_the_wilson_interval_of_its_score():
    """The ladder uses the report's interval (reports.stats.wilson), ties counting half a win."""
    lo, hi = PairingResult("a", "b", 100, 40, 40, 20).interval
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = PairingResult("a", "b", 20, 20, 0, 0).interval
    assert hi == 1.0 and lo == pytest.approx(0.8389, abs=1e-4)


def test_elo_gives_equal_strengths_equal_ratings_and_stays_finite_on_a_perfect_score():
    even = [PairingResult("a", "b", 100, 40, 40, 20)]
    r = elo_ratings(even, "a")
    assert r["a"] == 0 and r["b"] == pytest.approx(0, abs=1e-6)
    perfect = [PairingResult("random", "best", 1000, 0, 1000, 0)]
    r = elo_ratings(perfect, "random")
    assert 800 < r["best"] < 2000


def test_elo_matches_the_logistic_odds_of_a_single_pairing():
    # 75% over many games: 400 * log10(3) = 191 points (the virtual tie barely moves it)
    r = elo_ratings([PairingResult("x", "y", 10000, 7500, 2500, 0)], "y")
    assert r["x"] == pytest.approx(190.8, abs=0.5)


def test_elo_orders_a_transitive_round_robin():
    results = [PairingResult("a", "b", 100, 70, 30, 0), PairingResult("b", "c", 100, 70, 30, 0),
               PairingResult("a", "c", 100, 85, 15, 0)]
    r = elo_ratings(results, "c")
    assert r["a"] > r["b"] > r["c"] == 0


def test_rating_intervals_follow_the_binomial_standard_error():
    # 75% over 10,000 games: the log-odds' standard error is 1 / sqrt(n p (1 - p)), 4.0 Elo points
    results = [PairingResult("x", "y", 10000, 7500, 2500, 0)]
    lo, hi = rating_intervals(results, "y")["x"]
    assert (hi - lo) / 2 == pytest.approx(1.96 * 400 / math.log(10) / math.sqrt(10001 * 0.75 * 0.25), rel=0.01)
    assert lo < elo_ratings(results, "y")["x"] < hi and rating_intervals(results, "y")["y"] == (0.0, 0.0)


def test_rating_intervals_narrow_with_games_and_widen_away_from_the_anchor():
    def round_robin(n):
        return [PairingResult("a", "b", n, int(0.7 * n), n - int(0.7 * n), 0),
                PairingResult("b", "c", n, int(0.7 * n), n - int(0.7 * n), 0)]
    small, large = rating_intervals(round_robin(100), "c"), rating_intervals(round_robin(10000), "c")
    width = {k: v[1] - v[0] for k, v in small.items()}
    assert width["a"] > width["b"] > 0  # a is compared with c only through b
    assert large["a"][1] - large["a"][0] < width["a"] / 5


def test_a_strategy_can_take_part_twice_under_two_labels():
    assert parse_entrants("random, deep=greedy,greedy") == [("random", "random"), ("deep", "greedy"),
                                                          ("greedy", "greedy")]
    with pytest.raises(UserError, match="LABEL=STRATEGY"):
        parse_entrants("a b=greedy")
    assert parse_params(["expert.1000.iterations=1000"], ["expert", "expert.1000"]) == {
        "expert.1000": {"iterations": 1000}}
    ladder = run_ladder("deathmatch", [Entrant("greedy"), Entrant("greedy.bold", {"threat": 0.0}, "greedy")], 2,
                        [("imperial", "imperial")], workers=1)
    assert set(ladder.ratings) == {"greedy", "greedy.bold"}
    assert ladder.to_dict()["entrants"][1] == {"label": "greedy.bold", "strategy": "greedy",
                                               "params": {"threat": 0.0}}
    with pytest.raises(UserError, match="listed twice"):
        run_ladder("deathmatch", [Entrant("greedy"), Entrant("greedy")], 2, [("imperial", "imperial")])


def test_a_small_ladder_counts_every_game_and_swaps_seats():
    ladder = run_ladder("high-form", [Entrant("random"), Entrant("greedy")], 4, [("imperial", "imperial")],
                        workers=1)
    (p,) = ladder.pairings
    assert p.games == 4 and p.first_wins + p.second_wins + p.ties == 4
    assert set(ladder.ratings) == {"random", "greedy"} and ladder.ratings["random"] == 0
    text = render(ladder)
    assert "| greedy vs random |" in text or "| random vs greedy |" in text


def test_a_team_ladder_plays_each_strategy_as_one_team_both_ways_round():
    table = ("imperial", "sylvan", "highland", "imperial")
    ladder = run_ladder("team-deathmatch", [Entrant("random"), Entrant("builder")], 6, [table], workers=1)
    (p,) = ladder.pairings
    assert (p.first, p.second, p.games) == ("random", "builder", 6)
    assert p.second_wins == 6, "a team of builders beats a team of random players"
    assert ladder.unit == "games" and ladder.ratings["builder"] > 0


def test_ladder_refuses_bad_input_before_playing():
    with pytest.raises(UserError, match="even number"):
        run_ladder("high-form", [Entrant("random"), Entrant("greedy")], 3, [("imperial", "imperial")])
    with pytest.raises(UserError, match="no parameter 'nope'"):
        run_ladder("high-form", [Entrant("random"), Entrant("builder", {"nope": 1})], 2,
                   [("imperial", "imperial")])


def test_param_options_are_parsed_per_strategy():
    assert parse_params(["builder.patterns=2", "builder.explore=0", "greedy.threat=0.5"],
                        ["builder", "greedy"]) == {"builder": {"patterns": 2, "explore": 0},
                                                   "greedy": {"threat": 0.5}}
    with pytest.raises(UserError, match="not one of the ladder's strategies"):
        parse_params(["hunter.tasks=1"], ["builder"])
    with pytest.raises(UserError, match="STRATEGY.NAME=VALUE"):
        parse_params(["patterns=1"], ["builder"])


def test_ladder_command_prints_tables_or_json():
    args = ["ladder", "--forms", "deathmatch", "--games", "2", "--strategies", "random,greedy", "--workers", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "**deathmatch**" in result.stdout and "| strategy | rating | 95% interval" in result.stdout
    data = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    assert data["ladders"][0]["pairings"][0]["games"] == 2


def test_ladder_command_reports_a_bad_parameter_cleanly():
    result = CliRunner().invoke(app, ["ladder", "--games", "2", "--strategies", "random,builder",
                                      "--param", "builder.patterns=lots"])
    assert result.exit_code == 2
    assert "parameter 'patterns' must be a number" in result.output
