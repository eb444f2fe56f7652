"""The ablation section: each card's paired effect on its owner's win rate, ranked, with its interval."""

from __future__ import annotations

from collections import defaultdict

from reports.analysis import Record
from reports.model import DIFF, INT, POINTS, TEXT, Chart, Column, Section, Table
from reports.sections_cards import flag_text, strength_forest, strength_order

COLUMNS = [
    Column("mode", "Form"), Column("ablation", "Arm", TEXT, "vanilla: no effect; remove: out of the deck; "
                                                            "copy: an identical copy (A/A check)"),
    Column("rank", "Rank", INT, "by effect, within form, arm and strategy; an effect without variation has none"),
    Column("card", "Card"), Column("type", "Type"),
    Column("deck", "Deck", TEXT, "the owner's deck (legends, flares: the deck of the seat dealt it)"),
    Column("strategy", "Strategy"),
    Column("pairs", "Paired games", INT, "game seeds played both with the card and in the arm"),
    Column("diverged", "Pairs diverged", INT,
           "pairs whose game in the arm differs from the unchanged one (result, scores, length, ending or any "
           "card event); 0: the arm never changed a game"),
    Column("effect", "Effect on the owner's win rate", DIFF,
           "win rate with the card minus in the arm, per game seed (paired t interval), in points; tested"),
    Column("mde", "MDE", POINTS, "minimal detectable effect at 80% power, this sample"),
    Column("flags", "Flags", TEXT, "Benjamini-Hochberg at a 5% false discovery rate over this table"),
    Column("no_variation", "No variation", TEXT,
           "why an effect has no value, interval or test: not a measured 0, and outside Benjamini-Hochberg"),
]
OPP = [Column("opp_deck", "Against deck"), *COLUMNS[7:]]

INTRO = ("Each card listed in the study's [ablation] was played again on the same game seeds with the card "
         "replaced by a vanilla copy (same rank and pattern, no effect) or removed. The effect is the owner's "
         "result with the card minus without it, per game seed, so luck of the deal cancels out: a positive "
         "effect means the card wins games for its owner. Beings: the seat that played the changed deck; "
         "legends and flares: the seat dealt the card at setup; tasks: each deck, mirrors left out. An arm "
         "whose pairs never changed the owner's result (a vanilla copy of a card whose effect no player "
         "uses is the card itself, so its games do not even diverge) has no variation: it is listed last, "
         "without a value, interval or test, and says so. Copy arms are the A/A check: each draws the "
         "players' random streams anew, its own per card, so two copy arms are two checks (they share the "
         "unchanged games, so their estimates correlate).")


def _extras(r: Record) -> Record:
    return {"mde": r["effect"].mde, "flags": flag_text(r, {"effect": "effect"})}


def _rows(records: list[Record]) -> list[Record]:
    groups: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for r in records:
        groups[(r["mode"], r["ablation"], r["strategy"])].append(r)
    out = []
    for key in sorted(groups):
        for i, r in enumerate(strength_order(groups[key], "effect"), 1):
            out.append(r | _extras(r) | {"rank": i if r["effect"].defined else None})
    return out


def _forests(rows: list[Record]) -> list[Chart]:
    out = []
    for key in sorted({(r["mode"], r["ablation"], r["strategy"]) for r in rows}):
        group = [r for r in rows if (r["mode"], r["ablation"], r["strategy"]) == key]
        title = f"{key[0]}, {key[2]}: effect of each card ({key[1]} arm), ranked"
        out.append(strength_forest(f"ablation-{'-'.join(key)}", title, group, "effect"))
    return out


def ablation_section(pooled: list[Record], per_opp: list[Record]) -> Section:
    rows = _rows(pooled)
    opp_rows = [r | _extras(r) for r in per_opp]
    return Section("ablation", "Ablation: paired card effects", INTRO, [
        Table("ablation", "Ablation: effect on the owner's win rate, ranked", COLUMNS, rows),
        *_forests(rows),
        Table("ablation_opponents", "Ablation: per opposing deck", COLUMNS[:1] + COLUMNS[3:7] + OPP, opp_rows,
              "Flagged within this table (its own family)."),
    ])
