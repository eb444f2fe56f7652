"""A run's trusted metrics, read off the report's own records: the history holds the numbers the report prints.

Nothing is recomputed here: the duel's rows come from the report's queries (reports/queries.py) and record
builders (reports/analysis.py, reports/sections_games.py), the melees' and team games' from their sections'
data (reports/sections_melee.py, reports/sections_teams.py). Each estimate keeps its n, its 95% interval and,
where the report tests it, its minimal detectable effect. Undefined estimates (a card never drawn in a cell)
are left out.
"""

from __future__ import annotations

from collections import defaultdict

import duckdb

from reports.analysis import HIGH_FORM, Record, ablation_records, card_records, task_deck_records
from reports.dataset import Run
from reports.names import Names
from reports.queries import SETUP, Rows, run_named
from reports.regression.summary import ABLATION, CONTROLLED, DESCRIPTIVE, RANDOMIZED, Metric
from reports.sections_games import deck_rows, first_player_rows
from reports.sections_melee import Melee, melee_data
from reports.sections_teams import Teams, team_data
from reports.stats import Estimate, Rate

# The report's duel queries these metrics read (the rest of the report's queries describe games only).
DUEL_QUERIES = ("deck_baseline", "card_hands", "card_positions", "card_plays", "flares", "matchups", "first_player",
                "task_decks", "task_setup", "ablation")
CARD_ESTIMATES = (("position_effect", "card_position_effect"), ("opening_effect", "card_early_access"))
MIN_MATCHUP_DECKS = 3  # with two decks a matchup is the deck win rate itself (as the regression gates count it)
COLOURS = (("lowest", "mean_lowest"), ("middle", "mean_middle"), ("highest", "mean_highest"))


def report_metrics(runs: list[Run], con: duckdb.DuckDBPyConnection, names: Names) -> list[Metric]:
    """The duels' metrics from ``con`` (the runs' duel views), then the melees' and the team games'."""
    where = ", ".join(str(run.path) for run in runs)
    out = duel_metrics(run_named(con, where, SETUP, DUEL_QUERIES), names)
    melee = melee_data(runs, names, where, con)
    if melee is not None:
        out += melee_metrics(melee)
    teams = team_data(runs, names, where, con)
    if teams is not None:
        out += team_metrics(teams)
    return out


def _estimate(metric: str, kind: str, mode: str, subject: str, context: str, e: Estimate) -> list[Metric]:
    return [Metric.of_estimate(metric, kind, mode, subject, context, e)] if e.defined else []


def _rate(metric: str, kind: str, mode: str, subject: str, context: str, rate: Rate) -> list[Metric]:
    return [Metric.of_rate(metric, kind, mode, subject, context, rate)] if rate.n else []


def _players(strategy: str, opp_strategy: str) -> str:
    return f"{strategy} vs {opp_strategy}"


def duel_metrics(q: dict[str, Rows], names: Names) -> list[Metric]:
    """Decks, matchups and the first player; the cards' randomized estimates; the tasks dealt at setup; the
    ablation arms (pooled over the opposing decks, as the report's ablation table)."""
    out: list[Metric] = []
    rows, _ = deck_rows(q)
    for r in rows:
        out += _rate("deck_win_rate", CONTROLLED, r["mode"], r["deck"], _players(r["strategy"], r["opp_strategy"]),
                     r["no_mirror"])
    decks: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for r in q["matchups"]:
        decks[(r["mode"], r["strategy"], r["opp_strategy"])].add(r["deck"])
    for r in q["matchups"]:
        enough = len(decks[(r["mode"], r["strategy"], r["opp_strategy"])]) >= MIN_MATCHUP_DECKS
        if r["deck"] != r["opp_deck"] and enough:
            out += _rate("matchup_win_rate", CONTROLLED, r["mode"], r["deck"],
                         f"against {r['opp_deck']}; {_players(r['strategy'], r['opp_strategy'])}",
                         Rate(r["wins"], r["games"]))
    for r in first_player_rows(q):
        out += _rate("first_player_win_rate", RANDOMIZED, r["mode"], "first player",
                     _players(r["first_strategy"], r["second_strategy"]), r["first_won"])
    out += card_metrics(card_records(q, names))
    for r in task_deck_records(q, names):
        out += _estimate("task_dealt_effect", RANDOMIZED, HIGH_FORM, r["task_id"], f"{r['deck']}, {r['strategy']}",
                         r["dealt_effect"])
    arms, _ = ablation_records(q, names)
    for r in arms:
        out += _estimate("card_ablation_effect", ABLATION, r["mode"], r["card_id"],
                         f"{r['ablation']} arm; {r['deck']}, {r['strategy']}", r["effect"])
    return out


def card_metrics(cards: list[Record]) -> list[Metric]:
    """Per card and cell: its position dose-response (its strength) and its opening-hand effect (early access)."""
    out: list[Metric] = []
    for r in cards:
        for key, metric in CARD_ESTIMATES:
            if key in r:
                out += _estimate(metric, RANDOMIZED, r["mode"], r["card_id"], f"{r['deck']}, {r['strategy']}", r[key])
    return out


def melee_metrics(m: Melee) -> list[Metric]:
    """Places in turn order (randomized), the cards' randomized estimates, and the descriptive deck results,
    colour scores and how often the best single colour lost."""
    out: list[Metric] = []
    for r in m.positions:
        out += _estimate("turn_order_effect", RANDOMIZED, r["mode"], f"place {r['position']}", "", r["effect"])
    out += card_metrics(m.cards)
    for r in m.q["melee_decks"]:
        out += _rate("melee_deck_win_rate", DESCRIPTIVE, r["mode"], r["deck"], r["strategy"],
                     Rate(r["wins"], r["games"]))
    for r in m.q["melee_colours"]:
        for label, key in COLOURS:
            if r[key] is not None:
                out.append(Metric("colour_score", DESCRIPTIVE, r["mode"], label, "", float(r[key]), None, None,
                                  r["seat_games"]))
    for r in m.q["melee_decided"]:
        out += _rate("best_colour_lost", DESCRIPTIVE, r["mode"], "best single colour", "",
                     Rate(r["best_colour_lost"], r["games"]))
    return out


def team_metrics(t: Teams) -> list[Metric]:
    """Turn order (randomized), what passing gains (controlled where the study balanced it, else descriptive),
    the cards' randomized estimates, and the descriptive team deck combinations and passing rates."""
    out: list[Metric] = []
    for r in t.order:
        out += _estimate("turn_order_effect", RANDOMIZED, r["mode"], "first team", "", r["effect"])
    for r in t.pass_effects:
        kind = CONTROLLED if r["design"] == "controlled" else DESCRIPTIVE
        out += _estimate("pass_control_effect", kind, r["mode"], r["passing"], f"against {r['not_passing']}",
                         r["effect"])
    out += card_metrics(t.cards)
    for r in t.q["team_results"]:
        out += _rate("team_decks_win_rate", DESCRIPTIVE, r["mode"], r["decks"],
                     f"{r['players']} against {r['opp_decks']} ({r['opp_players']})", Rate(r["wins"], r["games"]))
    for r in t.pass_games:
        out += _rate("pass_control_rate", DESCRIPTIVE, r["mode"], "games", "", r["passing"])
        if r["per_game"] is not None:
            out.append(Metric("passes_per_game", DESCRIPTIVE, r["mode"], "games", "", float(r["per_game"]), None,
                              None, r["games"]))
    return out
