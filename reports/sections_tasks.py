"""The per-task section (High Form): reveals, claims, who claims, and how claiming goes with winning."""

from __future__ import annotations

from reports import charts
from reports.analysis import RARE_CLAIMS, Record
from reports.model import DIFF, INT, NUM, POINTS, RATE, SHARE, TEXT, Chart, Column, Section, Table
from reports.sections_cards import DESCRIPTIVE, DESCRIPTIVE_NOTE, FLAGS, flag_text

TASK_COLUMNS = [
    Column("pairing", "Strategies"),
    Column("task", "Task"),
    Column("category", "Category"),
    Column("value", "Points", INT, "points the task gives"),
    Column("reveal_rate", "Reveal rate", RATE, "High Form games in which it was revealed"),
    Column("claim_rate", "Claim rate", RATE, "claimed in the games it was revealed in"),
    Column("claims_first", "Claims: first player", INT),
    Column("claims_second", "Claims: second player", INT),
    Column("first_share", "First player's share", RATE, "claims made by the first player"),
    Column("row_turns", "Turns on the row", NUM, "mean turns from entering the current row to being claimed"),
    Column("claimer_won", "Win rate of the claimer" + DESCRIPTIVE, RATE),
    Column("points_share", "Points share", SHARE, "its points as a share of all points scored in the games"),
    Column("status", "Status", TEXT, "never revealed, never claimed, or rarely claimed (upper 95% bound of "
           f"the claim rate below {RARE_CLAIMS:.0%})"),
]

DECK_COLUMNS = [
    Column("deck", "Deck"), Column("strategy", "Strategy"), Column("task", "Task"),
    Column("dealt", "Win rate: dealt at setup", RATE,
           "the deck's High Form seat-games with the task in the setup row (or the first next task)"),
    Column("not_dealt", "Win rate: not dealt", RATE, "the deck's other High Form seat-games"),
    Column("dealt_effect", "Dealt effect", DIFF, "randomized: dealt minus not dealt, in points; tested"),
    Column("dealt_mde", "MDE", POINTS, "minimal detectable effect at 80% power, this sample"),
    FLAGS,
    Column("claims", "Claims by the deck", INT),
    Column("claimer_won", "Win rate of the claimer" + DESCRIPTIVE, RATE),
    Column("others_won", "Deck's other games" + DESCRIPTIVE, RATE, "the deck's High Form games without this claim"),
    Column("claimer_vs_others", "Claimer vs other games" + DESCRIPTIVE, DIFF,
           "circular (claiming scores points): never tested"),
]


def _claim_bars(records: list[Record]) -> list[Chart]:
    out = []
    for pairing in sorted({r["pairing"] for r in records}):
        rows = sorted((r for r in records if r["pairing"] == pairing and r["claim_rate"].n),
                      key=lambda r: -(r["claim_rate"].value or 0.0))
        items = []
        for r in rows:
            rate = r["claim_rate"]
            lo, hi = rate.interval
            items.append(charts.Interval(r["task"], rate.value or 0.0, lo, hi, bool(r["status"]),
                                         f"{r['task']}: claimed in {rate.k:,} of {rate.n:,} games revealed"))
        title = f"{pairing}: claim rate of each task when revealed"
        note = "Orange: rarely or never claimed." if any(i.flagged for i in items) else ""
        out.append(Chart(f"claims-{pairing}", title, charts.bars(title, items, "claimed / revealed"), note))
    return out


def tasks_section(tasks: list[Record], by_deck: list[Record]) -> Section:
    deck_rows = [r | {"flags": flag_text(r, {"dealt_effect": "dealt"}), "dealt_mde": r["dealt_effect"].mde}
                 for r in by_deck]
    intro = ("High Form only. A task enters the current row at setup or when a claim frees a place for it "
             "as the next task.")
    deck_note = ("Dealt effect: the setup deal is decided by the seed, so comparing each deck's games with the "
                 "task dealt at setup against the others estimates what the task's presence does for that deck. "
                 + DESCRIPTIVE_NOTE)
    return Section("tasks", "Tasks", intro, [
        Table("tasks", "Tasks: reveals and claims", TASK_COLUMNS, tasks),
        *_claim_bars(tasks),
        Table("task_decks", "Tasks by deck", DECK_COLUMNS, deck_rows, deck_note),
    ])
