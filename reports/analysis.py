"""Query rows to records: per card and per task, every rate with its sample and every comparison to test.

A card record is one card in one (form, deck, strategy) cell, seen from the seats that play that deck
with that strategy. Its comparisons are with the complement within the same cell: games with the card in
hand against games without it, games it was played in against the others. Task-by-deck records compare
the claimer's games with the deck's other High Form games.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from reports.names import Names
from reports.stats import Diff, Rate

Record = dict[str, Any]
Cell = tuple[str, str, str]  # mode, deck, strategy
HIGH_FORM = "high-form"
EFFECTS = ("enemy_common", "enemy_heroic", "enemy_legendary", "own_destroyed", "upgrades", "downgrades",
           "placed", "converted", "turn_points")


def baselines(q: dict[str, list[Record]]) -> dict[Cell, Record]:
    return {(r["mode"], r["deck"], r["strategy"]): r for r in q["deck_baseline"]}


def _card_type(card_id: str) -> str:
    family = card_id.split("/", 1)[0]
    return family if family in ("legend", "flare") else "being"


def card_records(q: dict[str, list[Record]], names: Names) -> list[Record]:
    """One record per card and cell, including the cards of the card set never drawn in that cell."""
    base = baselines(q)
    hands = {(r["mode"], r["deck"], r["strategy"], r["card_id"]): r for r in q["card_hands"]}
    keys = set(hands)
    for cell in base:
        keys.update((*cell, cid) for cid in names.deck_cards(cell[1]))
    plays = {(r["mode"], r["deck"], r["strategy"], r["card_id"]): r for r in q["card_plays"]}
    flares = {(r["mode"], r["deck"], r["strategy"], r["card_id"]): r for r in q["flares"]}
    out = []
    for key in sorted(keys):
        mode, deck, strategy, card_id = key
        cell = base.get((mode, deck, strategy))
        if cell is None:
            continue
        h = hands.get(key, {})
        n, w = cell["games"], cell["wins"]
        in_hand = Rate(h.get("in_hand_wins", 0), h.get("in_hand_games", 0))
        played = Rate(h.get("played_wins", 0), h.get("played_games", 0))
        record: Record = {
            "mode": mode, "deck": deck, "strategy": strategy, "card_id": card_id, "card": names.card(card_id),
            "type": _card_type(card_id), "in_hand_games": in_hand.n,
            "opening": Rate(h.get("opening_wins", 0), h.get("opening_games", 0)),
            "later": Rate(in_hand.k - h.get("opening_wins", 0), in_hand.n - h.get("opening_games", 0)),
            "in_hand": in_hand,
            "never": Rate(w - in_hand.k, n - in_hand.n),
            "play_rate": Rate(played.n, in_hand.n),
            "played": played,
            "not_played": Rate(w - played.k, n - played.n),
        }
        record["improvement"] = Diff(record["in_hand"], record["never"])
        record["played_vs_not"] = Diff(played, record["not_played"])
        p = plays.get(key, {})
        record["plays"] = p.get("plays", 0)
        record["mean_turn"] = p.get("mean_turn")
        record.update({e: p.get(e) for e in EFFECTS})
        record["first_summon_turn"] = p.get("first_summon_turn")
        f = flares.get(key)
        if f is not None:
            inv = f["invocations"]
            record |= {
                "invocations": inv, "upper_only": Rate(f["upper_only"], inv),
                "lower_only": Rate(f["lower_only"], inv),
                "both_halves": Rate(f["both_halves"], inv), "comeback": Rate(f["behind_wins"], f["behind"]),
                "mean_score_gap": f["mean_score_gap"],
            }
        out.append(record)
    return out


def high_form_games(q: dict[str, list[Record]]) -> dict[str, int]:
    """High Form games per strategy pairing ("a vs b", names in order)."""
    out: dict[str, int] = defaultdict(int)
    for r in q["first_player"]:
        if r["mode"] == HIGH_FORM:
            a, b = sorted((r["first_strategy"], r["second_strategy"]))
            out[f"{a} vs {b}"] += r["games"]
    return out


RARE_CLAIMS = 0.05  # "rarely claimed": the claim rate's 95% upper bound is below this


def task_records(q: dict[str, list[Record]], names: Names) -> list[Record]:
    """One record per task and strategy pairing of the High Form games, tasks never revealed included."""
    games = high_form_games(q)
    rows = {(r["pairing"], r["task_id"]): r for r in q["tasks"]}
    keys = set(rows) | {(pairing, t.id) for pairing in games for t in names.tasks()}
    out = []
    for pairing, task_id in sorted(keys):
        r = rows.get((pairing, task_id), {})
        info = names.task(task_id)
        revealed, claims = r.get("revealed_games", 0), r.get("claims", 0)
        claim_rate = Rate(claims, revealed)
        if not revealed:
            status = "never revealed"
        elif not claims:
            status = "never claimed"
        else:
            status = "rarely claimed" if claim_rate.interval[1] < RARE_CLAIMS else ""
        out.append({
            "pairing": pairing, "task_id": task_id, "task": info.name, "category": info.category,
            "value": info.points, "reveal_rate": Rate(revealed, games[pairing]), "claim_rate": claim_rate,
            "claims_first": r.get("claims_first", 0), "claims_second": r.get("claims_second", 0),
            "first_share": Rate(r.get("claims_first", 0), claims),
            "row_turns": r.get("mean_row_turns"), "claimer_won": Rate(r.get("claimer_wins", 0), claims),
            "points_share": r["points"] / r["pairing_points"] if r.get("pairing_points") else None,
            "status": status,
        })
    return out


def task_deck_records(q: dict[str, list[Record]], names: Names) -> list[Record]:
    """Per task and claimer's deck and strategy: the claimer's win rate against the deck's other games."""
    base = baselines(q)
    out = []
    for r in q["task_decks"]:
        cell = base.get((HIGH_FORM, r["deck"], r["strategy"]))
        if cell is None:
            continue
        won = Rate(r["claimer_wins"], r["claims"])
        others = Rate(cell["wins"] - won.k, cell["games"] - won.n)
        out.append({"deck": r["deck"], "strategy": r["strategy"], "task_id": r["task_id"],
                    "task": names.task(r["task_id"]).name, "claims": r["claims"], "claimer_won": won,
                    "others_won": others, "claimer_vs_others": Diff(won, others)})
    return out


def diffs(records: list[Record]) -> list[Diff]:
    return [v for r in records for v in r.values() if isinstance(v, Diff)]
