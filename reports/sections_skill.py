"""Skill depth: how much more a stronger player wins with each deck, as the Tabletop Games Balancing
Competition judges a game (a win-rate matrix between players of different strength).

Per form, deck and pair of strength levels (the study lists them weakest first: the later one is "the
stronger"), over the games between the two levels in which both seats hold that deck (``skill_depth.sql``):
the deck is held equal, so the difference is the players' skill with it. The stronger player's win rate
minus the weaker's (one paired result per game: +1, -1, 0 for a tie) says whether skill pays; its win rate
with this deck minus with the other decks says whether skill pays less or more here. Both are tested and
flagged by Benjamini-Hochberg as one family. See docs/reports.md, "Skill depth".
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise

from reports import charts
from reports.analysis import Record
from reports.model import DIFF, INT, POINTS, RATE, SHARE, TEXT, Chart, Column, Section, Table, diff_text, rate_text
from reports.stats import Diff, Paired, Rate, flag
from reports.summary import MIN_HEADLINE, too_few

Query = dict[str, list[Record]]
NOT_TESTED = "not tested"
PAYS, WEAKER_WINS = "skill pays", "the weaker player wins more"
LESS, MORE = "skill pays less than with the other decks", "skill pays more than with the other decks"
UNSEEN = "no skill edge seen"
LITTLE = (LESS, UNSEEN)  # the verdicts naming a deck where skill matters little (prefixes)


@dataclass
class Skill:
    """The strength levels in order, one row per form, deck and pair of levels with games between them
    (both seats holding the deck), and what the study would need to add when it has none."""

    levels: list[str]
    rows: list[Record]
    missing: str = ""


def _counts(q: Query, levels: list[str]) -> dict[tuple[str, str, str, str], list[int]]:
    """Per (form, deck, weaker, stronger): games, the stronger player's wins, ties, and its games in seat 0."""
    order = {name: i for i, name in enumerate(levels)}
    out: dict[tuple[str, str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for r in q["skill_depth"]:
        strong, weak = r["strategy"], r["opp_strategy"]
        if strong not in order or weak not in order or order[strong] < order[weak]:
            continue  # a player that is no level, or the weaker player's view of the same games
        c = out[(r["mode"], r["deck"], weak, strong)]
        c[0] += r["games"]
        c[1] += r["wins"]
        c[2] += r["ties"]
        c[3] += r["games"] if r["seat"] == 0 else 0
    return out


def _verdict(edge: Paired, vs_others: Diff | None) -> str:
    if edge.p is None:
        return NOT_TESTED
    if vs_others is not None and vs_others.flagged:
        return LESS if vs_others.value < 0 else MORE  # type: ignore[operator]
    if edge.flagged:
        return PAYS if edge.value > 0 else WEAKER_WINS  # type: ignore[operator]
    return f"{UNSEEN} (detectable edge {100 * (edge.mde or 0.0):.1f} pp)"


def skill_rows(q: Query, levels: list[str]) -> list[Record]:
    """One row per form, deck and pair of levels, flagged as one family; in form, level-pair and deck order."""
    counts = _counts(q, levels)
    totals: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for (mode, _, weak, strong), (games, wins, _, _) in counts.items():
        totals[(mode, weak, strong)][0] += games
        totals[(mode, weak, strong)][1] += wins
    rank = {name: i for i, name in enumerate(levels)}
    rows = []
    for (mode, deck, weak, strong), (games, wins, ties, seat0) in sorted(
            counts.items(), key=lambda kv: (kv[0][0], rank[kv[0][2]], rank[kv[0][3]], kv[0][1])):
        weak_wins = games - wins - ties
        edge = Paired(wins, weak_wins, ties)
        all_games, all_wins = totals[(mode, weak, strong)]
        others = Rate(all_wins - wins, all_games - games)
        vs_others = Diff(Rate(wins, games), others) if others.n else None
        rows.append({"mode": mode, "deck": deck, "weaker": weak, "stronger": strong, "games": games,
                     "stronger_seat0": seat0 / games, "stronger_win": Rate(wins, games),
                     "weaker_win": Rate(weak_wins, games), "ties": Rate(ties, games), "edge": edge,
                     "mde": edge.mde, "vs_others": vs_others})
    flag([r["edge"] for r in rows] + [r["vs_others"] for r in rows if r["vs_others"] is not None])
    for r in rows:
        r["verdict"] = _verdict(r["edge"], r["vs_others"])
    return rows


def _missing(q: Query, levels: list[str], rows: list[Record]) -> str:
    """What to add to the study when it has no games between levels with both seats holding one deck."""
    if rows:
        return ""
    cross = any(r["strategy"] in levels and r["opp_strategy"] in levels and r["strategy"] != r["opp_strategy"]
                for r in q["strategy_pairings"])
    decks = sorted({r["deck"] for r in q["deck_baseline"]})
    mirrors = ", ".join(f'["{d}", "{d}"]' for d in decks)
    pairs = ", ".join(f'["{a}", "{b}"]' for a, b in pairwise(levels))
    if cross:
        return (f"The study plays its levels against each other, but never with both seats holding one deck: add "
                f"the deck mirrors to deck_pairings ({mirrors}; \"all\" includes them).")
    return (f"The study has strength levels ({', '.join(levels)}) but no games between them: add pairings of "
            f"levels to strategy_pairings, e.g. {pairs} (weaker first), with the deck mirrors in deck_pairings "
            f"({mirrors}; \"all\" includes them).")


def skill_depth(q: Query, levels: list[str]) -> Skill:
    rows = skill_rows(q, levels)
    return Skill(levels, rows, _missing(q, levels, rows))


def little(r: Record) -> bool:
    """Whether a row names a deck where skill matters little (pays less than elsewhere, or no edge seen)."""
    return r["verdict"].startswith(LITTLE) and r["games"] >= MIN_HEADLINE


def _little_text(r: Record) -> str:
    """``sylvan (no edge seen: +2.0 pp (-9.4 to +13.4), detectable 16.2)``: a deck where skill matters little."""
    if r["verdict"] == LESS:
        return f"{r['deck']} (less than with the other decks: {diff_text(r['vs_others'])})"
    return f"{r['deck']} (no edge seen: {diff_text(r['edge'])}, detectable {100 * (r['mde'] or 0.0):.1f})"


def skill_summary(s: Skill) -> list[str]:
    """Per form and pair of levels: the stronger player's win rate with each deck, and the decks where skill
    matters little; or what the study lacks."""
    if s.missing:
        return [f"Skill depth is not measured. {s.missing}"]
    groups: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for r in s.rows:
        groups[(r["mode"], r["weaker"], r["stronger"])].append(r)
    out = []
    for (mode, weak, strong), rows in groups.items():
        where = f"Skill depth, {mode}, {strong} against {weak} (both holding one deck)"
        big = [r for r in rows if r["games"] >= MIN_HEADLINE]
        if not big:
            out.append(too_few(where, max(r["games"] for r in rows), "games a deck at most"))
            continue
        rates = "; ".join(f"{r['deck']} {rate_text(r['stronger_win'])}" for r in big)
        few = "".join(f"; {r['deck']}: {r['games']:,} games, too few" for r in rows if r["games"] < MIN_HEADLINE)
        named = [_little_text(r) for r in big if little(r)]
        tail = "; skill matters little with " + ", ".join(named) if named else ""
        out.append(f"{where}: the stronger player wins {rates}{few}{tail}.")
    return out


COLUMNS = [
    Column("mode", "Form"), Column("deck", "Deck", TEXT, "both seats hold it"),
    Column("weaker", "Weaker player", TEXT, "the level the study lists first"),
    Column("stronger", "Stronger player", TEXT, "the level the study lists later"),
    Column("games", "Games", INT), Column("stronger_seat0", "Stronger in seat 0", SHARE,
                                          "the share of the games the stronger player played from seat 0"),
    Column("stronger_win", "Stronger player's win rate", RATE), Column("weaker_win", "Weaker player's win rate", RATE),
    Column("ties", "Ties", RATE),
    Column("edge", "Stronger minus weaker", DIFF,
           "how much more the stronger player wins: one paired result per game, t interval; tested and flagged"),
    Column("mde", "MDE", POINTS, "the smallest edge the test detects with 80% power, this sample"),
    Column("vs_others", "Minus the other decks", DIFF,
           "the stronger player's win rate with this deck minus with the form's other decks (against the same "
           "weaker player); tested and flagged"),
    Column("verdict", "Verdict", TEXT, "skill pays, pays less or more than with the other decks, no skill edge "
                                       "seen (with the edge it could have seen), or not tested"),
]


def _charts(s: Skill) -> list[Chart]:
    """Per form and pair of levels: the stronger player's edge with each deck."""
    groups: dict[tuple[str, str, str], list[charts.Interval]] = defaultdict(list)
    for r in s.rows:
        e = r["edge"]
        lo, hi = e.interval
        note = f"{r['deck']}: {r['stronger']} wins {rate_text(r['stronger_win'])} against {r['weaker']}"
        groups[(r["mode"], r["weaker"], r["stronger"])].append(charts.Interval(r["deck"], e.value, lo, hi,
                                                                               e.flagged, note))
    out = []
    for (mode, weak, strong), items in groups.items():
        title = f"{mode}: how much more {strong} wins than {weak}, both holding the deck"
        out.append(Chart(f"skill-{mode}-{weak}-{strong}", title, charts.forest(title, items, "percentage points"),
                         "The stronger player's win rate minus the weaker's; flagged estimates in colour."))
    return out


def skill_section(s: Skill) -> Section:
    intro = ("Skill depth, as the Tabletop Games Balancing Competition judges a game: how much more a stronger "
             "player wins. Per form, deck and pair of strength levels (the study lists them weakest first), over "
             "the games between the two levels in which both seats hold that deck, so that the deck is held "
             "equal and the difference is the players' skill with it. The study's seat rotation gives each player "
             "each seat in half the games. Stronger minus weaker: the stronger player's win rate minus the "
             "weaker's (one paired result per game); minus the other decks: whether skill pays less or more with "
             "this deck than with the others; both tested and flagged by Benjamini-Hochberg at a 5% false "
             "discovery rate as one family. A deck where skill matters little is one where skill pays less than "
             "with the other decks, or where no skill edge is seen (read it with its MDE).")
    if s.missing:
        return Section("skill", "Skill depth", f"{intro} {s.missing}")
    named = [r for r in s.rows if little(r)]
    note = ("Skill matters little with: " + "; ".join(f"{r['deck']} ({r['mode']}, {r['stronger']} against "
                                                      f"{r['weaker']})" for r in named) + "."
            if named else "No deck with enough games (200) where skill matters little.")
    return Section("skill", "Skill depth", intro, [
        *_charts(s),
        Table("skill", "The stronger player's edge, per deck", COLUMNS, s.rows, note),
    ])
