"""The per-card sections: beings, legends and flares, with their tables and charts.

A ranking of card strength comes from the ablation arms when the study has them, else (beings) from the
shuffled-position dose-response; the opening-hand comparison measures early access (with players that
draw most of their deck, a strong card can rank low by it) and never ranks strength."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from reports import charts
from reports.analysis import Record
from reports.model import DIFF, INT, NUM, POINTS, RATE, TEXT, Chart, Column, Section, Table
from reports.stats import Estimate, Rate

CELL = [Column("mode", "Form"), Column("deck", "Deck", note="the holder's deck"),
        Column("strategy", "Strategy", note="the holder's strategy"), Column("card", "Card")]
FLAGS = Column("flags", "Flags", TEXT,
               "randomized estimates flagged by Benjamini-Hochberg at a 5% false discovery rate")
DESCRIPTIVE = " (descriptive)"
DESCRIPTIVE_NOTE = ("Columns marked (descriptive) group games by what happened in them (drawn, played, "
                    "claimed). A seat that draws and plays more cards is a seat whose game is going well, so "
                    "these differences measure how the game went as much as the card: they are shown, never "
                    "tested, flagged or used in the summary.")


def flag_text(record: Record, labels: dict[str, str]) -> str:
    """``opening ▲`` for each flagged estimate of the record: ▲ above, ▼ below zero."""
    out = []
    for key, label in labels.items():
        d = record.get(key)
        if isinstance(d, Estimate) and d.flagged and d.value is not None:
            out.append(f"{label} {'▲' if d.value > 0 else '▼'}")
    return ", ".join(out)


def randomized_columns(being: bool) -> list[Column]:
    """The columns of the randomized estimates: what the setup shuffle decided, nothing that happened."""
    out = [
        Column("opening", "Win rate: opening hand", RATE, "seat's win rate with the card dealt in its opening hand"),
        Column("not_opening", "Win rate: not in opening hand", RATE, "the cell's other seat-games"),
        Column("opening_effect", "Early access: opening hand effect", DIFF,
               "randomized: opening hand minus not, in points; tested and flagged. It measures early access "
               "(holding the card from the start), not the card's strength: a player that draws most of its "
               "deck holds a strong card late anyway"),
        Column("opening_mde", "MDE (opening)", POINTS, "minimal detectable effect at 80% power, this sample"),
    ]
    if being:
        out += [Column("position_effect", "Earlier in deck", DIFF,
                       "randomized dose-response: fitted win rate with the card on top of the shuffled deck minus "
                       "at the bottom (linear in position), in points; tested and flagged"),
                Column("position_mde", "MDE (position)", POINTS, "minimal detectable effect at 80% power")]
    return out


def _win_columns(played: str) -> list[Column]:
    """The descriptive win-rate columns of a card table; ``played`` names what a play is (played, ...)."""
    d = DESCRIPTIVE
    return [
        Column("in_hand_games", "Games in hand", INT, "seat-games with the card in hand at some point"),
        Column("later", "Win rate: drawn later" + d, RATE, "in hand, but not in the opening hand"),
        Column("in_hand", "Win rate: in hand" + d, RATE, "in hand at some point (opening or later)"),
        Column("never", "Win rate: never drawn" + d, RATE, "the deck's games in which it was never in hand"),
        Column("improvement", "In hand vs never drawn" + d, DIFF, "in hand minus never drawn; not tested"),
        Column("play_rate", f"{played.capitalize()} rate when held", RATE,
               f"{played} in the games it was in hand"),
        Column("played", f"Win rate: {played}" + d, RATE, f"holder's win rate in games it was {played}"),
        Column("played_vs_not", f"{played.capitalize()} vs not" + d, DIFF,
               f"win rate when {played} minus the deck's other games; not tested"),
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


EXPANSION_COLUMNS = [
    Column("in_hand_games", "Games in hand", INT, "seat-games with the card in hand at some point"),
    Column("plays", "Plays", INT, "summons"),
    Column("frozen", "Frozen", INT, "Everfrost: times the card became its player's frozen effect in play"),
    Column("thawed", "Thaws", INT, "Everfrost: times its frozen text was thawed (a free play)"),
    Column("thawed_per_game", "Thaws per game in hand", NUM, "thaws / games in hand", 2),
    Column("warped", "Warps", INT, "Etherweave: times its warp text was played from hand (a free play)"),
    Column("warped_per_game", "Warps per game in hand", NUM, "warps / games in hand", 2),
]
EXPANSION_NOTE = ("The expansion decks' free plays: how often each Everfrost being was frozen and thawed, and how "
                  "often each Etherweave being's warp text was played from hand. Descriptive counts of what the "
                  "players did, not estimates of a card's strength. The effect columns above are the summons'; "
                  "a thaw's or warp's own outcome is in the dataset (card_events rows thawed and warped).")


def strength_order(rows: list[Record], key: str) -> list[Record]:
    """``rows`` by estimate ``key``, largest first; those without a value (no variation, too few games)
    last, in name order: they are not ranked."""
    return sorted(rows, key=lambda r: (not r[key].defined, -(r[key].value or 0.0), r["card"], r["deck"]))


def strength_forest(chart_id: str, title: str, rows: list[Record], key: str) -> Chart:
    """A forest plot of estimate ``key`` of ``rows``, ranked; the note names the rows it cannot rank."""
    items, unranked = [], []
    for r in strength_order(rows, key):
        d: Estimate = r[key]
        if not d.defined:
            unranked.append(f"{r['card']} · {r['deck']}" + (f" ({r['no_variation']})" if r.get("no_variation")
                                                             else ""))
            continue
        lo, hi = d.interval
        note = f"{r['card']} ({r['deck']}): {d.value * 100:+.1f} points, n={d.n:,}"
        items.append(charts.Interval(f"{r['card']} · {r['deck']}", d.value, lo, hi, d.flagged, note))
    note = "Not ranked, no value: " + "; ".join(unranked) + "." if unranked else ""
    return Chart(chart_id, title, charts.forest(title, items, "percentage points"), note)


STRENGTH_ARMS = ("vanilla", "remove")  # the ablation arms that measure strength, preferred first; copy is A/A


def strength_forests(records: list[Record], ablation: Sequence[Record], kind: str) -> list[Chart]:
    """Per form and strategy, the ranking of card strength of the ``kind`` cards: by their ablation arm
    when the study has one for them, else (beings) by the position dose-response. Legends without an arm
    get an early-access chart, labelled as such (nothing else estimates their strength); flares, none."""
    out = []
    for mode, strategy in sorted({(r["mode"], r["strategy"]) for r in records if r["type"] == kind}):
        group = [r for r in records if (r["mode"], r["strategy"], r["type"]) == (mode, strategy, kind)]
        arms = [r for r in ablation if (r["mode"], r["strategy"], r["type"]) == (mode, strategy, kind)]
        arm = next((a for a in STRENGTH_ARMS if any(r["ablation"] == a for r in arms)), None)
        cell = f"{kind}-{mode}-{strategy}"
        if arm is not None:
            out.append(strength_forest(f"strength-{cell}", f"{mode}, {strategy}: card strength, by ablation ({arm} "
                                       "arm), ranked", [r for r in arms if r["ablation"] == arm], "effect"))
        elif kind == "being":
            out.append(strength_forest(f"strength-{cell}", f"{mode}, {strategy}: card strength, by earlier in "
                                       "deck (randomized dose-response), ranked", group, "position_effect"))
        elif kind == "legend":
            out.append(strength_forest(f"early-access-{cell}", f"{mode}, {strategy}: early access, the opening "
                                       "hand effect (randomized; not the card's strength)", group, "opening_effect"))
    return out


def _mde(e: Estimate | None) -> float | None:
    return e.mde if e is not None else None


def _with_flags(records: list[Record], kind: str) -> list[Record]:
    labels = {"opening_effect": "early access", "position_effect": "earlier"}
    return [r | {"flags": flag_text(r, labels), "opening_mde": _mde(r["opening_effect"]),
                 "position_mde": _mde(r.get("position_effect"))} for r in records if r["type"] == kind]


RANDOMIZED_NOTE = ("The randomized estimates compare seat-games by what the shuffle decided before any play: "
                   "whether the card was dealt in the opening hand, and (beings) its position in the shuffled "
                   "deck. They estimate the card's effect on its holder's win rate without the bias of "
                   "grouping games by what happened in them. The opening hand effect measures early access "
                   "only; card strength is ranked by the ablation arms when the study has them, else by the "
                   "position in the deck (beings).")


def beings_section(records: list[Record], ablation: Sequence[Record] = ()) -> Section:
    rows = _with_flags(records, "being")
    free = [r for r in rows if r.get("frozen") or r.get("thawed") or r.get("warped")]
    intro = "Win rates of each being's holder, within its form, deck and strategy. " + RANDOMIZED_NOTE
    return Section("beings", "Beings", intro, [
        Table("beings", "Beings: randomized estimates", CELL + randomized_columns(True) + [FLAGS], rows),
        *strength_forests(rows, ablation, "being"),
        Table("being_outcomes", "Beings: descriptive win rates", CELL + _win_columns("played"), rows,
              DESCRIPTIVE_NOTE),
        Table("being_effects", "Beings: what a play did, on average", CELL + EFFECT_COLUMNS, rows),
        *([Table("being_free_plays", "Beings: frozen, thawed and warped (expansion decks)",
                 CELL + EXPANSION_COLUMNS, free, EXPANSION_NOTE)] if free else []),
    ])


def legends_section(records: list[Record], ablation: Sequence[Record] = ()) -> Section:
    rows = _with_flags(records, "legend")
    first = Column("first_summon_turn", "Turn of first summon", NUM, "mean turn of a seat's first summon")
    intro = ("Legends come from the shared deck; each row is one legend held by seats of one deck. "
             + RANDOMIZED_NOTE)
    return Section("legends", "Legends", intro, [
        Table("legends", "Legends: randomized estimates", CELL + randomized_columns(False) + [FLAGS], rows),
        *strength_forests(rows, ablation, "legend"),
        Table("legend_outcomes", "Legends: summons and descriptive win rates",
              CELL + _win_columns("summoned") + [first], rows, DESCRIPTIVE_NOTE),
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
    Column("invoked_games", "Games invoked", INT, "seat-games with at least one invocation: the unit below"),
    Column("upper_only", "Upper half only", RATE, "share of the games invoked in which only the upper half was used"),
    Column("lower_only", "Lower half only", RATE, "share of the games invoked: only the lower half used"),
    Column("both_halves", "Both halves", RATE, "share of the games invoked: both halves used"),
    Column("comeback", "Comeback rate" + DESCRIPTIVE, RATE,
           "seat-games in which it was invoked while behind on score that the invoker went on to win"),
    Column("mean_score_gap", "Mean score gap", NUM, "invoker's score minus the opponent's, at invocation"),
]


def flares_section(records: list[Record], ablation: Sequence[Record] = ()) -> Section:
    rows = _with_flags(records, "flare")
    intro = ("Flares come from the shared deck; invoking one does not cost an action. Halves and comebacks "
             "count seat-games, not invocations (a seat may invoke many times in one game). " + RANDOMIZED_NOTE)
    return Section("flares", "Flares", intro, [
        Table("flares", "Flares: randomized estimates", CELL + randomized_columns(False) + [FLAGS], rows),
        *strength_forests(rows, ablation, "flare"),
        Table("flare_outcomes", "Flares: invocations and descriptive win rates", CELL + _win_columns("invoked"),
              rows, DESCRIPTIVE_NOTE),
        *_invocation_bars(rows),
        Table("flare_use", "Flares: halves used and comebacks, per game", CELL + USE_COLUMNS,
              [r for r in rows if r.get("invocations")]),
    ])


def card_tables_for(records: list[Record], prefix: str, label: str) -> list[Table]:
    """The duel's being, legend and flare tables over other seat-games (a melee's, a team game's): their ids
    prefixed with ``prefix``, their titles with ``label``."""
    out = []
    for section in (beings_section(records), legends_section(records), flares_section(records)):
        for block in section.blocks:
            if isinstance(block, Table):
                out.append(Table(f"{prefix}_{block.id}", f"{label} {block.title[0].lower()}{block.title[1:]}",
                                 block.columns, block.rows, block.note))
    return out
