"""The team section: team games, 2 against 2, read from the team views apart from the duels and melees.

- **Turn order** (randomized: the seed draws the first seat, whose team takes the first turn with 1 action):
  per form, the first team's win rate minus the second team's, one paired result per game (+1, -1, 0 for a
  tie), tested and flagged by Benjamini-Hochberg over the forms, as the melee's turn-order rows.
- **Results by team deck combination** (descriptive: the study fixes which decks meet).
- **Passing control**: how often, per game and per player, before an action or inside an effect (and inside
  which cards' effects). What it gains: where the study pits a player with passing on against the same player
  with passing off (labels whose parameters differ only in ``pass_control``, from the run's manifest) and each
  deck matchup saw each assignment equally often, the passing team's result minus the other's is a controlled
  comparison (tested, flagged as a family of its own); without that balance it is shown, labelled descriptive,
  and not tested. The split of teams by whether they passed is always descriptive.
- **Team beings, legends and flares**: the duel's card tables over the team seat-games (a seat wins when its
  team wins), per form, deck and player; their randomized estimates are a family of their own.

See docs/reports.md, "Team games".
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import duckdb

from reports import charts
from reports.analysis import Record, card_records, estimates
from reports.dataset import Run, select_games
from reports.model import DIFF, INT, NUM, POINTS, RATE, TEXT, Chart, Column, Section, Table, diff_text, rate_text
from reports.names import Names
from reports.queries import Rows, run_named
from reports.sections_cards import card_tables_for, strength_forests
from reports.stats import Diff, Estimate, Paired, Rate, flag
from reports.summary import MIN_HEADLINE, family_count, too_few

SETUP = ("team_seats", "cards")
QUERIES = ("team_overview", "deck_baseline", "card_hands", "card_positions", "card_plays", "flares", "team_order",
           "team_results", "team_passes", "team_pass_games", "team_pass_cards", "team_pass_outcomes")
PASS_PARAM = "pass_control"
TOP_PASS_CARDS = 10


@dataclass
class Descriptive(Paired):
    """A paired comparison shown with its interval but never tested or flagged (its assignment was not
    controlled)."""

    @property
    def p(self) -> float | None:
        return None

    @property
    def mde(self) -> float | None:
        return None


@dataclass
class Teams:
    """The team queries' rows, the card records built from them, and the flagged turn-order and passing rows."""

    q: dict[str, Rows]
    cards: list[Record]
    order: list[Record]
    pass_effects: list[Record]

    @property
    def games(self) -> int:
        return sum(r["games"] for r in self.q["team_order"])

    @cached_property
    def pass_games(self) -> list[Record]:
        return _pass_game_rows(self.q)


def team_data(runs: list[Run], names: Names, where: str, con: duckdb.DuckDBPyConnection) -> Teams | None:
    """The team games of the runs, or None when they hold none. Their card estimates, turn-order rows and
    controlled passing comparisons are flagged here, each as one family."""
    select_games(con, runs, teams=True)
    if not con.execute("SELECT count(*) FROM games").fetchone()[0]:
        return None
    q = run_named(con, where, SETUP, QUERIES)
    cards = card_records(q, names)
    flag(estimates(cards))
    return Teams(q, cards, order_rows(q), pass_effect_rows(q, runs))


def order_rows(q: dict[str, Rows]) -> list[Record]:
    """Per form: the first team's and the second team's win rates and their paired difference, flagged over
    the forms."""
    rows = []
    for r in q["team_order"]:
        n = r["games"]
        effect = Paired(r["first_wins"], r["second_wins"], r["ties"])
        rows.append({"mode": r["mode"], "games": n, "first": Rate(r["first_wins"], n),
                     "second": Rate(r["second_wins"], n), "ties": Rate(r["ties"], n), "effect": effect,
                     "mde": effect.mde, "first_score": r["first_score"], "second_score": r["second_score"]})
    flag([r["effect"] for r in rows])
    for r in rows:
        e = r["effect"]
        r["flags"] = ("▲" if e.value > 0 else "▼") if e.flagged else ""
    return rows


def _result_rows(q: dict[str, Rows]) -> list[Record]:
    return [r | {"win": Rate(r["wins"], r["games"]), "tie": Rate(r["ties"], r["games"])} for r in q["team_results"]]


def _pass_player_rows(q: dict[str, Rows]) -> list[Record]:
    rows = []
    for r in q["team_passes"]:
        n, passes = r["games"], r["passes"]
        rows.append(r | {"per_game": passes / n if n else None, "passing": Rate(r["passing_games"], n),
                         "before": Rate(r["before_action"], passes), "inside": Rate(r["inside_effect"], passes)})
    return rows


def _pass_game_rows(q: dict[str, Rows]) -> list[Record]:
    rows = []
    for r in q["team_pass_games"]:
        n, passes = r["games"], r["passes"]
        rows.append(r | {"per_game": passes / n if n else None, "passing": Rate(r["passing_games"], n),
                         "before": Rate(r["before_action"], passes), "inside": Rate(r["inside_effect"], passes)})
    return rows


def _pass_card_rows(q: dict[str, Rows]) -> list[Record]:
    per_mode: dict[str, list[Record]] = defaultdict(list)
    for r in q["team_pass_cards"]:
        if len(per_mode[r["mode"]]) < TOP_PASS_CARDS:
            per_mode[r["mode"]].append(r)
    return [r for rows in per_mode.values() for r in rows]


def _passed_split_rows(q: dict[str, Rows]) -> list[Record]:
    """Per form and team players: the win rate of the team-games in which the team passed and of those it did
    not (descriptive: who passes depends on how the game goes)."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for r in q["team_pass_outcomes"]:
        c = counts[(r["mode"], r["players"])]
        at = 0 if r["passed"] else 2
        c[at] += r["games"]
        c[at + 1] += r["wins"]
    rows = []
    for (mode, players), (n_pass, w_pass, n_not, w_not) in sorted(counts.items()):
        passed, not_passed = Rate(w_pass, n_pass), Rate(w_not, n_not)
        rows.append({"mode": mode, "players": players, "passed": passed, "not_passed": not_passed,
                     "difference": Diff(passed, not_passed, descriptive=True)})
    return rows


# ----- what passing gains: players that differ only in pass_control
def _player_specs(runs: list[Run]) -> dict[int, dict[str, tuple[bool, str]]]:
    """Per run: each declared label's (passing on, the player without that parameter) from its manifest."""
    out: dict[int, dict[str, tuple[bool, str]]] = {}
    for run in runs:
        players = run.manifest.get("config", {}).get("players", {})
        specs = {}
        if isinstance(players, dict):
            for label, spec in players.items():
                if not isinstance(spec, dict):
                    continue
                params = dict(spec.get("params") or {})
                on = params.pop(PASS_PARAM, True) is not False
                specs[label] = (on, json.dumps([spec.get("strategy", label), params], sort_keys=True))
        out[run.index] = specs
    return out


def _team_spec(specs: dict[str, tuple[bool, str]], players: str) -> tuple[bool | None, tuple[str, ...]]:
    """A team's passing (True: both members pass, False: neither, None: mixed) and its players less that
    parameter. An undeclared label is a strategy with its default parameters (passing on)."""
    members = [specs.get(label, (True, json.dumps([label, {}], sort_keys=True))) for label in players.split("+")]
    ons = {on for on, _ in members}
    return (ons.pop() if len(ons) == 1 else None), tuple(sorted(base for _, base in members))


def pass_effect_rows(q: dict[str, Rows], runs: list[Run]) -> list[Record]:
    """Per form and (passing team's players, other team's players) where the two differ only in
    ``pass_control``: the passing team's result minus the other's over their games. Controlled (tested,
    flagged as a family) when every deck matchup gave each team each side's decks equally often; otherwise
    descriptive."""
    specs = _player_specs(runs)
    results: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    sides: dict[tuple[str, str, str], dict[tuple[str, str], int]] = defaultdict(lambda: defaultdict(int))
    for r in q["team_pass_outcomes"]:
        run_specs = specs.get(r["run"], {})
        on, base = _team_spec(run_specs, r["players"])
        off, opp_base = _team_spec(run_specs, r["opp_players"])
        if not (on is True and off is False and base == opp_base):
            continue
        key = (r["mode"], r["players"], r["opp_players"])
        c = results[key]
        c[0] += r["wins"]
        c[1] += r["losses"]
        c[2] += r["ties"]
        sides[key][(r["decks"], r["opp_decks"])] += r["games"]
    rows = []
    for key, (up, down, same) in sorted(results.items()):
        held = sides[key]
        balanced = all(n == held.get((b, a), 0) for (a, b), n in held.items())
        effect = (Paired if balanced else Descriptive)(up, down, same)
        n = up + down + same
        rows.append({"mode": key[0], "passing": key[1], "not_passing": key[2], "games": n,
                     "passing_win": Rate(up, n), "other_win": Rate(down, n), "effect": effect, "mde": effect.mde,
                     "design": "controlled" if balanced else "descriptive (decks not balanced)"})
    flag([r["effect"] for r in rows if r["design"] == "controlled"])
    for r in rows:
        e = r["effect"]
        r["flags"] = ("▲" if e.value > 0 else "▼") if e.flagged else ""
    return rows


MODE = Column("mode", "Form")
ORDER_COLUMNS = [
    MODE, Column("games", "Games", INT),
    Column("first", "First team's win rate", RATE, "the team of the first seat (1 action on its first turn)"),
    Column("second", "Second team's win rate", RATE), Column("ties", "Ties", RATE),
    Column("effect", "First minus second team", DIFF,
           "randomized (the seed draws the first seat); one paired result per game, t interval; tested and flagged"),
    Column("mde", "MDE", POINTS, "minimal detectable effect at 80% power, this sample"),
    Column("first_score", "First team's mean score", NUM), Column("second_score", "Second team's mean score", NUM),
    Column("flags", "Flags", TEXT, "Benjamini-Hochberg at 5% over the forms"),
]
RESULT_COLUMNS = [
    MODE, Column("decks", "Team's decks"), Column("players", "Team's players"),
    Column("opp_decks", "Against decks"), Column("opp_players", "Against players"),
    Column("win", "Win rate (descriptive)", RATE, "the study fixes which decks meet: not a randomized comparison"),
    Column("tie", "Ties", RATE), Column("mean_score", "Mean team score", NUM),
]
PASS_GAME_COLUMNS = [
    MODE, Column("games", "Games", INT), Column("passes", "Passes", INT),
    Column("per_game", "Passes per game", NUM, digits=2),
    Column("passing", "Games with a pass", RATE),
    Column("before", "Before an action", RATE, "share of the passes made before an action"),
    Column("inside", "Inside an effect", RATE, "share of the passes made while an effect was being resolved"),
]
PASS_PLAYER_COLUMNS = [
    MODE, Column("strategy", "Player"), Column("games", "Seat-games", INT), Column("passes", "Passes", INT),
    Column("per_game", "Passes per seat-game", NUM, digits=2),
    Column("passing", "Seat-games with a pass", RATE),
    Column("before", "Before an action", RATE), Column("inside", "Inside an effect", RATE),
]
PASS_CARD_COLUMNS = [
    MODE, Column("card", "Card whose effect was being resolved"), Column("passes", "Passes", INT),
    Column("games", "Games", INT),
]
PASS_EFFECT_COLUMNS = [
    MODE, Column("passing", "Team passing"), Column("not_passing", "Team not passing"),
    Column("games", "Games", INT),
    Column("passing_win", "Passing team's win rate", RATE), Column("other_win", "Other team's win rate", RATE),
    Column("effect", "Passing minus not", DIFF,
           "the same players but for pass_control; controlled (tested, flagged) when every deck matchup gave each "
           "team each side's decks equally often, otherwise descriptive"),
    Column("mde", "MDE", POINTS), Column("design", "Design"),
    Column("flags", "Flags", TEXT, "Benjamini-Hochberg at 5% over the controlled comparisons"),
]
PASS_SPLIT_COLUMNS = [
    MODE, Column("players", "Team's players"),
    Column("passed", "Win rate: passed (descriptive)", RATE, "team-games in which the team passed control at least "
                                                             "once; who passes depends on how the game goes"),
    Column("not_passed", "Win rate: did not (descriptive)", RATE),
    Column("difference", "Passed vs not (descriptive)", DIFF, "never tested"),
]


def _forest(chart_id: str, title: str, rows: list[tuple[str, Estimate, str]], note: str = "") -> list[Chart]:
    """A forest plot of (label, estimate, tooltip) rows that have a value; none when no row has one."""
    items = [charts.Interval(label, e.value, *e.interval, e.flagged, tip) for label, e, tip in rows if e.defined]
    if not items:
        return []
    return [Chart(chart_id, title, charts.forest(title, items, "percentage points"), note)]


def _order_chart(rows: list[Record]) -> list[Chart]:
    return _forest("team-order-chart", "Turn order: the first team's win rate minus the second's, per form", [
        (r["mode"], r["effect"], f"{r['mode']}: first team {rate_text(r['first'])}, second team "
                                 f"{rate_text(r['second'])}; first minus second {diff_text(r['effect'])}")
        for r in rows])


def _result_charts(rows: list[Record]) -> list[Chart]:
    """Per form: each team deck combination's win rate against its opponents (descriptive)."""
    per_mode: dict[str, list[Record]] = defaultdict(list)
    for r in rows:
        per_mode[r["mode"]].append(r)
    out = []
    for mode, results in per_mode.items():
        items = []
        for r in results:
            if r["win"].n:
                label = f"{r['decks']} ({r['players']}) vs {r['opp_decks']} ({r['opp_players']})"
                items.append(charts.Interval(label, r["win"].value, *r["win"].interval,
                                             note=f"{label}, {mode}: {rate_text(r['win'])}"))
        title = f"{mode}: win rate by team deck combination (descriptive)"
        out.append(Chart(f"team-results-{mode}", title, charts.bars(title, items, "win rate")))
    return out


def _gain_chart(effects: list[Record]) -> list[Chart]:
    """What passing gains: controlled rows tested and flagged, descriptive ones labelled so."""
    descriptive = any(r["design"] != "controlled" for r in effects)
    return _forest("team-pass-effect-chart", "What passing gains: the passing team's result minus the other's", [
        (f"{r['mode']}: {r['passing']} vs {r['not_passing']}" + ("" if r["design"] == "controlled"
                                                                 else " (descriptive)"), r["effect"],
         f"{r['mode']}, {r['passing']} passing against {r['not_passing']}: {diff_text(r['effect'])}, {r['design']}")
        for r in effects], "Rows marked (descriptive) are not tested: the decks were not balanced." if descriptive
        else "")


def _split_chart(split: list[Record]) -> list[Chart]:
    return _forest("team-pass-split-chart", "Teams that passed minus teams that did not (descriptive)", [
        (f"{r['mode']}: {r['players']}", r["difference"],
         f"{r['mode']}, {r['players']}: passed {rate_text(r['passed'])}, did not {rate_text(r['not_passed'])}")
        for r in split], "Descriptive: who passes depends on how the game goes; never tested.")


def _pass_summary(t: Teams) -> list[str]:
    """What passing control gains, as the report knows it: per form, the passing team's result minus the same
    players' with passing off, controlled (tested) or descriptive; or that the study cannot say."""
    if not t.pass_effects:
        return ["What passing control gains is not measured: no two players of these team games differ only in "
                f"{PASS_PARAM} (studies/teams.toml pits the builder with passing on against builder.solo)."]
    out = []
    for r in t.pass_effects:
        e, what = r["effect"], f"In {r['mode']} games, passing control ({r['passing']} against {r['not_passing']})"
        if r["games"] < MIN_HEADLINE:
            out.append(too_few(what, r["games"], "games"))
        elif r["design"] != "controlled":
            out.append(f"{what} goes with a change of {diff_text(e)} in the team's result (descriptive: the decks "
                       "were not balanced between the two teams, so it is not tested).")
        elif e.flagged:
            out.append(f"{what} changes the team's result by {diff_text(e)} (controlled, flagged at a 5% false "
                       "discovery rate).")
        else:
            out.append(f"{what} changes the team's result by {diff_text(e)} (controlled, not flagged: a gain under "
                       f"{100 * (e.mde or 0.0):.1f} points can go unseen).")
    return out


def team_summary(t: Teams) -> list[str]:
    """What stands out in the team games, each statement on at least ``MIN_HEADLINE`` games: the turn order,
    what passing gains, the count of card estimates flagged and how often control passes."""
    out = []
    for r in t.order:
        e = r["effect"]
        if e.flagged and e.n >= MIN_HEADLINE:
            out.append(f"In {r['mode']} games, the team of the first seat wins {100 * r['first'].value:.1f}% and the "
                       f"other {100 * r['second'].value:.1f}% ({100 * e.value:+.1f} points, flagged at a 5% false "
                       "discovery rate).")
    out += _pass_summary(t)
    out += family_count(estimates(t.cards), "randomized team card estimates")
    for r in t.pass_games:
        if r["games"] >= MIN_HEADLINE:
            out.append(f"In {r['games']:,} {r['mode']} games, control was passed {r['per_game']:.2f} times a game "
                       f"({100 * (r['inside'].value or 0):.1f}% of the passes inside an effect).")
    return out


def team_section(t: Teams, names: Names) -> Section:
    intro = (f"{t.games:,} team games, 2 against 2 (team A: seats 0 and 2, team B: seats 1 and 3); a seat wins when "
             "its team wins. Decks and players hold the seats in rotation; the first seat is drawn by the seed. The "
             "card tables read as the duel's, over the team seat-games (a family of their own for the false "
             "discovery rate).")
    cards: list[dict[str, Any]] = [r | {"card": names.card(r["card_id"])} for r in _pass_card_rows(t.q)]
    results, split = _result_rows(t.q), _passed_split_rows(t.q)
    return Section("teams", "Team games (2 against 2)", intro, [
        Table("team_order", "Win rate by turn order", ORDER_COLUMNS, t.order),
        *_order_chart(t.order),
        Table("team_results", "Results by team deck combination", RESULT_COLUMNS, results),
        *_result_charts(results),
        Table("team_pass_games", "Passing control, per game", PASS_GAME_COLUMNS, t.pass_games),
        Table("team_pass_players", "Passing control, per player", PASS_PLAYER_COLUMNS, _pass_player_rows(t.q)),
        Table("team_pass_cards", f"Passing inside an effect: the cards (the {TOP_PASS_CARDS} most frequent per form)",
              PASS_CARD_COLUMNS, cards),
        Table("team_pass_effect", "What passing gains: passing on against off", PASS_EFFECT_COLUMNS, t.pass_effects,
              "Only players whose labels differ in nothing but the pass_control parameter are compared."),
        *_gain_chart(t.pass_effects),
        Table("team_pass_split", "Teams that passed and teams that did not (descriptive)", PASS_SPLIT_COLUMNS, split),
        *_split_chart(split),
        *card_tables_for(t.cards, "team", "Team"),
        *strength_forests(t.cards, (), "being"),
        *strength_forests(t.cards, (), "legend"),
    ])
