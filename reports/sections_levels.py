"""The "Across strength levels" section: each conclusion at every level, how much it changes, the verdict."""

from __future__ import annotations

import statistics
from collections import defaultdict

from reports import charts
from reports.analysis import Record
from reports.levels import CANT_TELL, HOLDS, MOVES, NOT_TESTED, ONLY_AT, Levels, claims
from reports.model import DIFF, INT, NUM, POINTS, SHARE, TEXT, Chart, Column, Section, Table

TOP_CHART = 10  # level-dependent conclusions drawn in the chart

INTRO = (
    "A strength level is a player that plays both seats (a mirror strategy pairing); each level's estimates "
    "come from its own games only. Every conclusion the report draws per player (a deck pairing's edge, a "
    "card's opening-hand and position effects, a task dealt at setup, an ablation arm) is shown at each "
    "level, each flagged within its family as elsewhere in the report. Change: the last level's estimate "
    "minus the first's; its test (Cochran's Q over every level) is flagged by Benjamini-Hochberg at a 5% "
    "false discovery rate over all the conclusions tested. A verdict that the answer depends on the level "
    "needs that change flagged: only at LEVEL (the change is flagged and the estimate is flagged at those "
    "levels only) or moves (the change is flagged, and flagged at every level or at none), so the answer is "
    "about the player as much as the game. Without a flagged change: holds (flagged at every level in one "
    "direction, or at none): the answer is about the game, within the MDE (change), a smaller change than "
    "which could have gone unseen; can't tell at this size (flagged at some levels only, or in both "
    "directions): the levels' flags differ but the difference between them is not established, and a "
    "change under the detectable change it names can go unseen, so read it as neither. Not tested: a level "
    "has too few games (fewer than 20 on a side), no spread, or no estimate."
)

SUMMARY_COLUMNS = [
    Column("kind", "Kind"),
    Column("mode", "Form"),
    Column("conclusions", "Conclusions", INT),
    Column("moves", "Moves", INT),
    Column("only", "Only at some levels", INT),
    Column("cant_tell", "Can't tell at this size", INT),
    Column("holds_effect", "Holds, flagged at every level", INT),
    Column("holds_none", "Holds, flagged at none", INT),
    Column("not_tested", "Not tested", INT),
    Column("median_mde", "Median MDE (change)", POINTS, "the typical change between levels these games can detect"),
]


ENDING_COLUMNS = [
    Column("mode", "Form"),
    Column("strategy", "Level"),
    Column("games", "Games", INT),
    Column("by_score", "Ended by the end score", SHARE),
    Column("by_deck", "Ended by a deck running out", SHARE),
    Column("by_turn_limit", "Ended by the turn limit", SHARE),
    Column("reach_threshold", "Players at the end score", SHARE,
           "seat-games finishing at or above the end score (9 in High Form, 18 in Deathmatch)"),
    Column("ties", "Ties", SHARE),
    Column("mean_turns", "Mean turns", NUM),
]


def _columns(levels: list[str]) -> list[Column]:
    out = [
        Column("rank", "#", INT, "the row's place in the order: conclusions that depend on the level first"),
        Column("verdict", "Verdict", TEXT,
               "moves, only at LEVEL, can't tell at this size, holds, or not tested (see above)"),
        Column("flagged_at", "Flagged at", TEXT, "levels whose own estimate is flagged, with its direction"),
        Column("kind", "Kind"),
        Column("mode", "Form"),
        Column("deck", "Deck", TEXT, "the holder's deck; for a deck pairing, the two decks"),
        Column("subject", "Card or task"),
        Column("measure", "Estimate"),
    ]
    for level in levels:
        out += [
            Column(
                f"at_{level}",
                level,
                DIFF,
                f"the estimate over the games {level} played against itself, in points; flagged within its family",
            ),
            Column(f"n_{level}", f"n ({level})", INT, "its sample: the smaller side (seat-games, games or pairs)"),
        ]
    return out + [
        Column(
            "change",
            f"Change, {levels[0]} to {levels[-1]}",
            DIFF,
            "the last level minus the first, in points; q: Cochran's Q test over every level, Benjamini-Hochberg "
            "over all conclusions",
        ),
        Column(
            "mde_change",
            "MDE (change)",
            POINTS,
            "the smallest difference between levels the test detects with 80% power, this sample",
        ),
    ]


def _summary_rows(conclusions: list[Record]) -> list[Record]:
    groups: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for r in conclusions:
        groups[(r["kind"], r["mode"])].append(r)
    rows = []
    for (kind, mode), group in sorted(groups.items()):
        holds = [r for r in group if r["verdict"] == HOLDS]
        mdes = [r["mde_change"] for r in group if r["mde_change"] is not None]
        rows.append(
            {
                "kind": kind,
                "mode": mode,
                "conclusions": len(group),
                "moves": sum(r["verdict"] == MOVES for r in group),
                "only": sum(r["verdict"].startswith(ONLY_AT) for r in group),
                "cant_tell": sum(r["verdict"].startswith(CANT_TELL) for r in group),
                "holds_effect": sum(r["flagged_at"] != "none" for r in holds),
                "holds_none": sum(r["flagged_at"] == "none" for r in holds),
                "not_tested": sum(r["verdict"] == NOT_TESTED for r in group),
                "median_mde": statistics.median(mdes) if mdes else None,
            }
        )
    return rows


def describe(r: Record) -> str:
    """``Swordmaster (being, imperial, deathmatch), opening hand effect``: what a conclusion is about."""
    what = f"{r['subject']} ({r['kind']}, {r['deck']}, {r['mode']})" if r["subject"] else f"{r['deck']} ({r['mode']})"
    return f"{what}, {r['measure'].split(':')[0]}"


def _chart(levels: Levels) -> list[Chart]:
    """A forest plot of the first conclusions that depend on the level (moves, only at), each level's
    estimate, numbered as the table's rows (the full description is in each row's tooltip: the plot's labels
    have room for a name only)."""
    items = []
    for i, r in enumerate((r for r in levels.conclusions if claims(r["verdict"])), 1):
        if i > TOP_CHART:
            break
        for level in levels.names:
            e = r[f"at_{level}"]
            lo, hi = e.interval
            note = f"{describe(r)} at {level}: {100 * e.value:+.1f} points, n={e.n:,}"
            items.append(
                charts.Interval(f"{i}. {r['subject'] or r['deck']} · {level}", e.value, lo, hi, e.flagged, note)
            )
    if not items:
        return []
    title = "Conclusions that depend on the level: the estimate at each level"
    note = "Numbered as the rows (#) of the table below; flagged estimates in colour."
    return [Chart("levels-moving", title, charts.forest(title, items, "percentage points"), note)]


def levels_section(levels: Levels) -> Section:
    title = f"Across strength levels: {', '.join(levels.names)}"
    return Section(
        "levels",
        "Across strength levels",
        INTRO,
        [
            Table("levels_summary", "Verdicts by kind and form", SUMMARY_COLUMNS, _summary_rows(levels.conclusions)),
            Table(
                "levels_endings",
                "How each level's games end",
                ENDING_COLUMNS,
                levels.endings,
                "Descriptive, per level: how often a game ends by score or by a deck running out, and how many "
                "players finish at the end score, describe the players as much as the game (a player that "
                "discards to cycle its hand also empties its deck sooner).",
            ),
            *_chart(levels),
            Table(
                "levels",
                title,
                _columns(levels.names),
                [r | {"rank": i} for i, r in enumerate(levels.conclusions, 1)],
                "Sorted: conclusions that depend on the level first (moves, only at), then those that can't be "
                "told at this size, then those that hold.",
            ),
        ],
    )
