"""The per-card sections: beings, legends and flares, with their tables and charts."""

from __future__ import annotations

from collections import defaultdict

from reports import charts
from reports.analysis import Record
from reports.model import DIFF, INT, NUM, RATE, TEXT, Chart, Column, Section, Table
from reports.stats import Diff, Rate

CELL = [Column("mode", "Form"), Column("deck", "Deck", note="the holder's deck"),
        Column("strategy", "Strategy", note="the holder's strategy"), Column("card", "Card")]
FLAGS = Column("flags", "Flags", TEXT,
               "comparisons flagged by Benjamini-Hochberg at a 5% false discovery rate")


def flag_text(record: Record, labels: dict[str, str]) -> str:
    """``played ▲`` for each flagged comparison of the record: ▲ above, ▼ below its complement."""
    out = []
    for key, label in labels.items():
        d = record[key]
        if isinstance(d, Diff) and d.flagged and d.value is not None:
            out.append(f"{label} {'▲' if d.value > 0 else '▼'}")
    return ", ".join(out)


def _win_columns(played: str) -> list[Column]:
    """The win-rate columns of a card table; ``played`` names what a play is (played, summoned, ...)."""
    return [
        Column("in_hand_games", "Games in hand", INT, "seat-games with the card in hand at some point"),
        Column("opening", "Win rate: opening hand", RATE, "holder's win rate, card in the opening hand"),
        Column("later", "Win rate: drawn later", RATE, "in hand, but not in the opening hand"),
        Column("in_hand", "Win rate: in hand", RATE, "in hand at some point (opening or later)"),
        Column("never", "Win rate: never drawn", RATE, "the deck's games in which it was never in hand"),
        Column("improvement", "Improvement when drawn", DIFF, "in hand minus never drawn, in points"),
        Column("play_rate", f"{played.capitalize()} rate when held", RATE,
               f"{played} in the games it was in hand"),
        Column("played", f"Win rate: {played}", RATE, f"holder's win rate in games it was {played}"),
        Column("played_vs_not", f"{played.capitalize()} vs not", DIFF,
               f"win rate when {played} minus the deck's other games, in points"),
    ]


EFFECT_COLUMNS = [
    Column("plays", "Plays", INT),
    Column("mean_turn", "Mean turn played", NUM),
    Column("enemy_common", "Enemy common destroyed", NUM, "per play, by the summon and its effect", 2),
    Column("enemy_heroic", "Enemy heroic destroyed", NUM, "per play", 2),
    Column("enemy_legendary", "Enemy legendary destroyed", NUM, "per play", 2),
    Column("own_destroyed", "Own destroyed", NUM, "own pieces destroyed, per play", 2),
    Column("upgrades", "Upgrades", NUM, "per play", 2),
    Column("downgrades", "Downgrades", NUM, "per play", 2),
    Column("placed", "Placed", NUM, "pieces placed, per play", 2),
    Column("converted", "Converted", NUM, "enemy pieces converted, per play", 2),
    Column("turn_points", "Points that turn", NUM, "points its player scored in the turn it was played", 2),
]


def _forests(records: list[Record], key: str, what: str) -> list[Chart]:
    """One forest plot per form and strategy of comparison ``key``, largest effects first."""
    groups: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for r in records:
        if r[key].value is not None:
            groups[(r["mode"], r["strategy"])].append(r)
    out = []
    for (mode, strategy), rows in sorted(groups.items()):
        rows.sort(key=lambda r: -r[key].value)
        items = []
        for r in rows:
            d: Diff = r[key]
            lo, hi = d.interval
            note = f"{r['card']} ({r['deck']}): {d.value * 100:+.1f} points, n={d.a.n:,}"
            items.append(charts.Interval(f"{r['card']} · {r['deck']}", d.value, lo, hi, d.flagged, note))
        title = f"{mode}, {strategy}: {what}"
        out.append(Chart(f"{key}-{mode}-{strategy}", title, charts.forest(title, items, "percentage points")))
    return out


def _with_flags(records: list[Record], kind: str, played: str) -> list[Record]:
    labels = {"improvement": "drawn", "played_vs_not": played}
    return [r | {"flags": flag_text(r, labels)} for r in records if r["type"] == kind]


def beings_section(records: list[Record]) -> Section:
    rows = _with_flags(records, "being", "played")
    intro = ("Win rates of each being's holder, within its form, deck and strategy. Improvement when "
             "drawn compares games with the card in hand against games without it.")
    return Section("beings", "Beings", intro, [
        Table("beings", "Beings: win rates", CELL + _win_columns("played") + [FLAGS], rows),
        *_forests(rows, "played_vs_not", "win rate when played minus when not played"),
        Table("being_effects", "Beings: what a play did, on average", CELL + EFFECT_COLUMNS, rows),
    ])


def legends_section(records: list[Record]) -> Section:
    rows = _with_flags(records, "legend", "summoned")
    first = Column("first_summon_turn", "Turn of first summon", NUM, "mean turn of a seat's first summon")
    intro = "Legends come from the shared deck; each row is one legend held by seats of one deck."
    return Section("legends", "Legends", intro, [
        Table("legends", "Legends: summons and win rates", CELL + _win_columns("summoned") + [first, FLAGS],
              rows),
        *_forests(rows, "played_vs_not", "win rate when summoned minus when not"),
        Table("legend_effects", "Legends: what a summon did, on average", CELL + EFFECT_COLUMNS, rows),
    ])


def _invocation_bars(rows: list[Record]) -> list[Chart]:
    """Per form and strategy: each flare's invocation rate when held, over all decks."""
    totals: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for r in rows:
        t = totals[(r["mode"], r["strategy"])][r["card"]]
        t[0] += r["played"].n
        t[1] += r["in_hand"].n
    out = []
    for (mode, strategy), cards in sorted(totals.items()):
        items = []
        for card, (k, n) in sorted(cards.items()):
            if n:
                lo, hi = Rate(k, n).interval
                items.append(charts.Interval(card, k / n, lo, hi, note=f"{card}: invoked in {k:,} of {n:,}"))
        title = f"{mode}, {strategy}: invocation rate when held, all decks"
        out.append(Chart(f"invocations-{mode}-{strategy}", title,
                         charts.bars(title, items, "games invoked / held")))
    return out


USE_COLUMNS = [
    Column("invocations", "Invocations", INT),
    Column("upper_only", "Upper half only", RATE, "share of invocations"),
    Column("lower_only", "Lower half only", RATE, "share of invocations"),
    Column("both_halves", "Both halves", RATE, "share of invocations"),
    Column("comeback", "Comeback rate", RATE,
           "invocations made while behind on score that the invoker went on to win"),
    Column("mean_score_gap", "Mean score gap", NUM, "invoker's score minus the opponent's, at invocation"),
]


def flares_section(records: list[Record]) -> Section:
    rows = _with_flags(records, "flare", "invoked")
    intro = "Flares come from the shared deck; invoking one does not cost an action."
    return Section("flares", "Flares", intro, [
        Table("flares", "Flares: invocations and win rates", CELL + _win_columns("invoked") + [FLAGS], rows),
        *_invocation_bars(rows),
        Table("flare_use", "Flares: halves used and comebacks", CELL + USE_COLUMNS,
              [r for r in rows if r.get("invocations")]),
    ])
