"""Query rows to records: per card and per task, every rate with its sample and every comparison to test.

A card record is one card in one (form, deck, strategy) cell, seen from the seats that play that deck
with that strategy. Its randomized estimates compare games by what the setup shuffle decided (the card in
the opening hand or not; its position in the deck); its descriptive comparisons (in hand, played) group
games by what happened in them and are never tested. Task-by-deck records compare the deck's games with
the task dealt at setup against the others; ablation records pair games by seed (docs/reports.md).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from reports.names import Names
from reports.stats import Diff, Estimate, Paired, Rate, Slope

Record = dict[str, Any]
Cell = tuple[str, str, str]  # mode, deck, strategy
HIGH_FORM = "high-form"
EXPANSION_PLAYS = ("frozen", "thawed", "warped")
EFFECTS = ("enemy_common", "enemy_heroic", "enemy_legendary", "own_destroyed", "upgrades", "downgrades",
           "placed", "converted", "turn_points")


def baselines(q: dict[str, list[Record]]) -> dict[Cell, Record]:
    return {(r["mode"], r["deck"], r["strategy"]): r for r in q["deck_baseline"]}


def _card_type(card_id: str) -> str:
    family = card_id.split("/", 1)[0]
    return family if family in ("legend", "flare", "task") else "being"


def card_records(q: dict[str, list[Record]], names: Names) -> list[Record]:
    """One record per card and cell, including the cards of the card set never drawn in that cell."""
    base = baselines(q)
    hands = {(r["mode"], r["deck"], r["strategy"], r["card_id"]): r for r in q["card_hands"]}
    keys = set(hands)
    for cell in base:
        keys.update((*cell, cid) for cid in names.deck_cards(cell[1]))
    positions: dict[tuple[str, str, str, str], list[tuple[int, int, int]]] = defaultdict(list)
    for r in q["card_positions"]:
        positions[(r["mode"], r["deck"], r["strategy"], r["card_id"])].append(
            (r["position"], r["games"], r["wins"]))
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
        record["not_opening"] = Rate(w - record["opening"].k, n - record["opening"].n)
        record["opening_effect"] = Diff(record["opening"], record["not_opening"])
        if record["type"] == "being":
            record["position_effect"] = Slope(tuple(positions.get(key, ())))
        record["improvement"] = Diff(record["in_hand"], record["never"], descriptive=True)
        record["played_vs_not"] = Diff(played, record["not_played"], descriptive=True)
        p = plays.get(key, {})
        record["plays"] = p.get("plays", 0)
        record["mean_turn"] = p.get("mean_turn")
        record.update({e: p.get(e) for e in EFFECTS})
        record["first_summon_turn"] = p.get("first_summon_turn")
        for e in EXPANSION_PLAYS:  # frozen, thawed, warped: the expansions' own uses of a card, per seat-game
            record[e] = p.get(e, 0) or 0
            record[f"{e}_per_game"] = record[e] / in_hand.n if in_hand.n else None
        f = flares.get(key)
        if f is not None:
            games = f["games"]
            record |= {
                "invocations": f["invocations"], "invoked_games": games,
                "upper_only": Rate(f["upper_only"], games), "lower_only": Rate(f["lower_only"], games),
                "both_halves": Rate(f["both_halves"], games), "comeback": Rate(f["behind_wins"], f["behind"]),
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
    """Per task and deck and strategy: the seat's win rate with the task dealt at setup against the deck's
    other High Form games (randomized), and the claimer's win rate against the deck's other games
    (descriptive: claiming scores points)."""
    base = baselines(q)
    claims = {(r["deck"], r["strategy"], r["task_id"]): r for r in q["task_decks"]}
    dealt = {(r["deck"], r["strategy"], r["task_id"]): r for r in q["task_setup"]}
    out = []
    for key in sorted(set(claims) | set(dealt)):
        deck, strategy, task_id = key
        cell = base.get((HIGH_FORM, deck, strategy))
        if cell is None:
            continue
        c, d = claims.get(key, {}), dealt.get(key, {})
        won = Rate(c.get("claimer_wins", 0), c.get("claims", 0))
        others = Rate(cell["wins"] - won.k, cell["games"] - won.n)
        with_task = Rate(d.get("wins", 0), d.get("games", 0))
        without = Rate(cell["wins"] - with_task.k, cell["games"] - with_task.n)
        out.append({"deck": deck, "strategy": strategy, "task_id": task_id, "task": names.task(task_id).name,
                    "claims": won.n, "claimer_won": won, "others_won": others,
                    "claimer_vs_others": Diff(won, others, descriptive=True),
                    "dealt": with_task, "not_dealt": without, "dealt_effect": Diff(with_task, without)})
    return out


def ablation_records(q: dict[str, list[Record]], names: Names) -> tuple[list[Record], list[Record]]:
    """Ablation estimates: per arm, form, deck and strategy (pooled over opposing decks), and per opposing
    deck. The effect is the result with the card minus the result in the arm, per game seed. Each record
    also says how many of its pairs diverged (the arm's game differs from the unchanged one) and, for an
    effect without variation, why (``no_variation``); such an effect has no value and no test."""
    pooled: dict[tuple[str, ...], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    per_opp: list[Record] = []
    for r in q["ablation"]:
        key = (r["ablation"], r["card_id"], r["mode"], r["deck"], r["strategy"])
        t = pooled[key]
        for i, field in enumerate(("up", "down", "same", "diverged")):
            t[i] += r[field]
        per_opp.append(_ablation_record(key, names, r["up"], r["down"], r["same"], r["diverged"])
                       | {"opp_deck": r["opp_deck"]})
    rows = [_ablation_record(key, names, *t) for key, t in sorted(pooled.items())]
    return rows, per_opp


def _ablation_record(key: tuple[str, ...], names: Names, up: int, down: int, same: int, diverged: int) -> Record:
    ablation, card_id, mode, deck, strategy = key
    name = names.task(card_id).name if card_id.startswith("task/") else names.card(card_id)
    effect = Paired(up, down, same)
    return {"ablation": ablation, "card_id": card_id, "card": name, "type": _card_type(card_id),
            "mode": mode, "deck": deck, "strategy": strategy, "effect": effect, "pairs": effect.n,
            "diverged": diverged, "no_variation": no_variation_text(effect.n, diverged, up + down)}


def no_variation_text(pairs: int, diverged: int, result_changed: int) -> str:
    """Why an ablation effect has no value: the arm never changed a game, or never its owner's result; ""
    when it varies."""
    if result_changed:
        return ""
    if not diverged:
        return f"never changed a game for this player: 0 of {pairs:,} pairs differ"
    return f"changed {diverged:,} of {pairs:,} games, never this player's result: no variation to test"


def deck_edge_records(q: dict[str, list[Record]]) -> list[Record]:
    """Per form, player and pair of different decks, over the games both seats played with that player:
    the first deck's win rate minus the second's (decks in name order), a mean of per-game results (+1, -1,
    0 for a tie). Seat balancing plays each deck equally from both seats, so seats do not bias it."""
    rows = {(r["mode"], r["strategy"], r["deck"], r["opp_deck"]): r for r in q["matchups"]
            if r["strategy"] == r["opp_strategy"] and r["deck"] < r["opp_deck"]}
    wins = {(r["mode"], r["strategy"], r["deck"], r["opp_deck"]): r["wins"] for r in q["matchups"]}
    return [{"mode": mode, "strategy": strategy, "deck": a, "opp_deck": b,
             "edge": Paired(r["wins"], wins[(mode, strategy, b, a)], r["ties"])}
            for (mode, strategy, a, b), r in sorted(rows.items())]


def estimates(records: list[Record]) -> list[Estimate]:
    """Every estimate of the records (descriptive ones are never tested, so ``flag`` passes them by)."""
    return [v for r in records for v in r.values() if isinstance(v, Estimate)]
