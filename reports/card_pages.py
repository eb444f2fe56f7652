"""The card pages of the HTML report: every card (and task) its tables show, with its pattern and its own
effect texts as ``tashkalar cards`` shows them (sim/card_export.py), its estimates in this report, and its
trend over the recorded history (reports/trends.py)."""

from __future__ import annotations

from collections.abc import Sequence

from reports.analysis import HIGH_FORM, Record
from reports.dataset import Run
from reports.model import DIFF, CardPage, Column, Section, Table
from reports.trends import History, card_trends
from sim.card_export import being_texts, flare_texts
from sim.cards import Being, CardSet, Flare, Task
from sim.patterns import render_grid
from sim.ranks import RANK_NAMES

ID_KEYS = ("card_id", "task_id")  # a table row naming one of these is a card's row and opens its page
ESTIMATES = (("opening_effect", "early access: opening hand effect"),
             ("position_effect", "earlier in deck (dose-response)"),
             ("dealt_effect", "dealt at setup"))
COLUMNS = [Column("mode", "Form"), Column("deck", "Deck", note="the holder's deck"),
           Column("strategy", "Player"), Column("measure", "Estimate"),
           Column("effect", "Effect on the holder's win rate", DIFF, "in points, 95% interval; flagged as in "
                                                                    "the report's tables")]


def row_card(row: Record) -> str | None:
    """The card or task id a table row is about, if any."""
    return next((row[k] for k in ID_KEYS if row.get(k)), None)


def report_card_ids(sections: Sequence[Section]) -> list[str]:
    """Every card and task id the report's tables show a row of."""
    return sorted({cid for s in sections for b in s.blocks if isinstance(b, Table) for r in b.rows
                   if (cid := row_card(r)) is not None})


def _kind(card: Being | Flare | Task) -> str:
    if isinstance(card, Flare):
        return "flare, shared flare deck"
    if isinstance(card, Task):
        return f"{card.category} task, {'advanced' if card.advanced else 'simple'}, {card.points} points"
    if card.deck == "legend":
        return "legendary being, shared legend deck"
    return f"{RANK_NAMES[card.rank]} being, {card.deck} deck"


def _texts(card: Being | Flare | Task) -> list[str]:
    if isinstance(card, Being):
        return being_texts(card)
    if isinstance(card, Flare):
        return flare_texts(card)
    return [card.describe]


def _grid(card: Being | Flare | Task) -> list[list[str]]:
    return [line.split() for line in render_grid(card.pattern).splitlines()] if isinstance(card, Being) else []


def _notes(card_id: str, card_set: CardSet, source: str, runs: list[Run], played_sets: set[str],
           arms: set[str]) -> list[str]:
    """Which card set the texts are from, and where the runs' games played another version of the card: by
    the card's own fingerprint where the runs' manifests record it, else by the whole set's."""
    notes = [f"Texts from the {source}."]
    ours = card_set.fingerprints.get(card_id)
    played = sorted({str(fp) for run in runs
                     if (fp := run.manifest.get("card_set", {}).get("cards", {}).get(card_id)) is not None})
    if played and played != [ours]:
        notes.append(f"The runs played another version of this card (fingerprint {', '.join(played)}; the text "
                     f"shown: {ours or 'none'}): pass the runs' card set with --cards.")
    elif not played and played_sets != {card_set.fingerprint()}:
        notes.append(f"The runs played another card set ({', '.join(sorted(played_sets))}), whose text of this "
                     "card may differ: pass the runs' card set with --cards.")
    if arms:
        notes.append(f"Its ablation arms ({', '.join(sorted(arms))}) played it changed (vanilla: no effect; "
                     "remove: out of the deck; copy: unchanged); the text shown is the base set's.")
    return notes


def _estimate_rows(card_id: str, records: Sequence[Record], ablation: Sequence[Record]) -> list[Record]:
    rows = [{"mode": r.get("mode", HIGH_FORM), "deck": r["deck"], "strategy": r["strategy"], "card_id": card_id,
             "measure": label, "effect": r[key]}
            for r in records if row_card(r) == card_id for key, label in ESTIMATES if key in r]
    rows += [{"mode": r["mode"], "deck": r["deck"], "strategy": r["strategy"], "card_id": card_id,
              "measure": f"ablation, {r['ablation']} arm", "effect": r["effect"]}
             for r in ablation if r["card_id"] == card_id]
    return sorted(rows, key=lambda r: (r["mode"], r["deck"], r["strategy"], r["measure"]))


def page_slug(card_id: str) -> str:
    """The card id as a fragment of an element id (``etherweave/paradox-worm``: ``etherweave-paradox-worm``)."""
    return card_id.replace("/", "-")


def card_pages(sections: Sequence[Section], card_set: CardSet, source: str, runs: list[Run],
               played_sets: set[str], records: Sequence[Record], ablation: Sequence[Record],
               history: History) -> list[CardPage]:
    """The page of every card the report's tables show; ``records`` are its card and task-by-deck records,
    ``source`` names its card set (built-in or a directory), ``played_sets`` the fingerprints of the sets the
    runs' games were played with."""
    out = []
    for card_id in report_card_ids(sections):
        card = card_set.by_id.get(card_id)
        slug = page_slug(card_id)
        arms = {r["ablation"] for r in ablation if r["card_id"] == card_id}
        rows = _estimate_rows(card_id, records, ablation)
        estimates = Table(f"card-{slug}-estimates", "In this report", COLUMNS, rows) if rows else None
        trends = card_trends(card_id, f"trend-{slug}", history)
        trend_note = (f"Trend: {history.note}." if trends
                      else f"No trend: no measured effect of this card is recorded ({history.note}).")
        if card is None:
            out.append(CardPage(card_id, card_id, "not in the report's card set", [], [],
                                [f"The {source} has no card {card_id}: pass the run's card set with --cards."],
                                estimates, trends, trend_note))
            continue
        out.append(CardPage(card_id, card.name, _kind(card), _grid(card), _texts(card),
                            _notes(card_id, card_set, source, runs, played_sets, arms), estimates, trends,
                            trend_note))
    return out
