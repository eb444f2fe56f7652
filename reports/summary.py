"""The "what stands out" list at the top of the report: a few plain sentences, each with its numbers."""

from __future__ import annotations

import statistics

from reports.analysis import Record, deck_edge_records
from reports.levels import CANT_TELL, HOLDS, MOVES, ONLY_AT, Levels, claims
from reports.model import diff_text, rate_text
from reports.sections_games import deck_rows
from reports.sections_levels import describe
from reports.stats import Estimate, Rate, flag

TOP_CARDS = 2  # per card type
TOP_ABLATION = 3
TOP_LEVELS = 3  # level-dependent conclusions named
MIN_HEADLINE = 200  # a statement needs this many games, seat-games (each side of a comparison) or pairs
FDR = "Benjamini-Hochberg, 5% false discovery rate"
RANDOMIZED = {"opening_effect": "dealt in the opening hand",
              "position_effect": "on top of the shuffled deck rather than at the bottom (linear fit)"}


def too_few(subject: str, n: int, unit: str) -> str:
    """The statement in place of one whose sample is under the minimum."""
    return f"{subject}: {n:,} {unit} are too few for a headline (it needs {MIN_HEADLINE})."


def family_count(tested: list[Estimate], what: str, note: str = "") -> list[str]:
    """How many of a family's tested estimates are flagged; when none is, the smallest effects they could have
    seen, since "none flagged" is not "balanced". Nothing for a family with no tested estimate."""
    tested = [e for e in tested if e.p is not None]
    if not tested:
        return []
    hits = sum(e.flagged for e in tested)
    line = f"{hits} of {len(tested)} {what} are flagged ({FDR}){note}"
    mdes = [e.mde for e in tested if e.mde is not None]
    if hits or not mdes:
        return [line + "."]
    return [f"{line}; that is no sign of balance: the most sensitive of them detects an effect of "
            f"{100 * min(mdes):.1f} points (80% power) and the median one {100 * statistics.median(mdes):.1f}, "
            "so smaller effects can go unseen."]


def _first_player(q: dict[str, list[Record]]) -> list[str]:
    """Per form: first and second player's win rates and ties; the verdict compares the first player's share
    of the decisive games (ties left out) with one half, given enough decisive games."""
    by_mode: dict[str, list[int]] = {}
    for r in q["first_player"]:
        t = by_mode.setdefault(r["mode"], [0, 0, 0, 0])
        t[0] += r["first_wins"]
        t[1] += r["second_wins"]
        t[2] += r["ties"]
        t[3] += r["games"]
    out = []
    for mode, (first, second, ties, n) in sorted(by_mode.items()):
        decisive = Rate(first, first + second)
        if decisive.n < MIN_HEADLINE:
            out.append(too_few(f"{mode}, first player", decisive.n, "decisive games"))
            continue
        lo, hi = decisive.interval
        verdict = ("an advantage" if lo > 0.5 else "a disadvantage" if hi < 0.5 else "no clear advantage")
        out.append(f"{mode}: the first player wins {rate_text(Rate(first, n))}, the second "
                   f"{rate_text(Rate(second, n))}, ties {rate_text(Rate(ties, n))}; of the decisive games the "
                   f"first player wins {rate_text(decisive)}: {verdict}.")
    return out


def _two_decks(q: dict[str, list[Record]]) -> list[str]:
    """A study of two decks: per form and player (both seats), which deck wins their games against each other,
    from the edge (the first deck's win rate minus the second's, one paired result per game), flagged over
    the forms and players; without a flag, the edge it could have seen."""
    edges = deck_edge_records(q)
    flag([r["edge"] for r in edges])
    out = []
    for r in edges:
        e, a, b = r["edge"], r["deck"], r["opp_deck"]
        where = f"{r['mode']} ({r['strategy']})"
        if e.n < MIN_HEADLINE:
            out.append(too_few(f"{where}, {a} against {b}", e.n, "games"))
            continue
        rates = (f"{a} wins {rate_text(Rate(e.up, e.n))} of their games, {b} {rate_text(Rate(e.down, e.n))}, "
                 f"ties {rate_text(Rate(e.same, e.n))}")
        if e.flagged:
            stronger, weaker = (a, b) if e.value > 0 else (b, a)
            out.append(f"{where}: {stronger} is stronger than {weaker}: {rates}; {a}'s edge {diff_text(e)} "
                       f"(flagged, {FDR}).")
        else:
            out.append(f"{where}: no difference between {a} and {b} is established: {rates}; {a}'s edge "
                       f"{diff_text(e)}, and an edge under {100 * (e.mde or 0.0):.1f} points can go unseen.")
    return out


def _decks(q: dict[str, list[Record]]) -> list[str]:
    """Per form and strategy pairing: each deck whose win rate against the other decks is clearly away from
    one half."""
    rows, _ = deck_rows(q)
    out = []
    for r in rows:
        rate: Rate = r["no_mirror"]
        if rate.n < MIN_HEADLINE or r["strategy"] != r["opp_strategy"]:
            continue
        lo, hi = rate.interval
        if lo > 0.5 or hi < 0.5:
            word = "stronger" if lo > 0.5 else "weaker"
            out.append(f"{r['mode']} ({r['strategy']}): {r['deck']} is {word} than the other decks: it wins "
                       f"{rate_text(rate)} of its games against them (ties {rate_text(r['tie_rate'])} overall).")
    return out


def _matchups(q: dict[str, list[Record]]) -> list[str]:
    best: dict[str, tuple[float, Record]] = {}
    for r in q["matchups"]:
        if (r["deck"] == r["opp_deck"] or r["strategy"] != r["opp_strategy"] or 2 * r["wins"] <= r["games"]
                or r["games"] < MIN_HEADLINE):
            continue  # mirrors, mixed strategies, the losing side of a matchup, and small samples
        gap = r["wins"] / r["games"] - 0.5
        if r["mode"] not in best or gap > best[r["mode"]][0]:
            best[r["mode"]] = (gap, r)
    out = []
    for mode, (_, r) in sorted(best.items()):
        rate = Rate(r["wins"], r["games"])
        out.append(f"{mode}: the most lopsided matchup is {r['deck']} against {r['opp_deck']} "
                   f"({r['strategy']}), won {rate_text(rate)}.")
    return out


def _headline_sample(e: Estimate) -> bool:
    return e.flagged and e.n >= MIN_HEADLINE


def _cards(cards: list[Record], by_deck: list[Record]) -> list[str]:
    """The largest flagged randomized estimates with enough games, a few per card type, and the count."""
    hits = [(r, key) for r in cards for key in RANDOMIZED if key in r and _headline_sample(r[key])]
    hits.sort(key=lambda h: -abs(h[0][h[1]].value))
    out = []
    for kind in ("being", "legend", "flare"):
        for r, key in [h for h in hits if h[0]["type"] == kind][:TOP_CARDS]:
            e: Estimate = r[key]
            out.append(f"{r['card']} ({kind}, {r['deck']}, {r['mode']}, {r['strategy']}): {RANDOMIZED[key]}, "
                       f"its holder's win rate changes by {diff_text(e)} (randomized).")
    for r in sorted((r for r in by_deck if _headline_sample(r["dealt_effect"])),
                    key=lambda r: -abs(r["dealt_effect"].value))[:TOP_CARDS]:
        out.append(f"Task {r['task']} dealt at setup: {r['deck']} ({r['strategy']}) win rate changes by "
                   f"{diff_text(r['dealt_effect'])} (randomized).")
    tested = [r[k] for r in cards for k in RANDOMIZED if k in r] + [r["dealt_effect"] for r in by_deck]
    return out + family_count(tested, "randomized card and task estimates", "; descriptive columns are not tested")


def _ablation(rows: list[Record]) -> list[str]:
    if not rows:
        return []
    hits = sorted((r for r in rows if _headline_sample(r["effect"])), key=lambda r: -abs(r["effect"].value))
    out = [f"Ablation ({r['ablation']}, {r['mode']}, {r['strategy']}): {r['card']} ({r['deck']}) changes its "
           f"owner's win rate by {diff_text(r['effect'])} over {r['effect'].n:,} paired games."
           for r in hits[:TOP_ABLATION]]
    tested = [r["effect"] for r in rows if r["effect"].q is not None]
    out.append(f"{sum(1 for e in tested if e.flagged)} of {len(tested)} ablation estimates are flagged.")
    return out


def _tasks(tasks: list[Record]) -> list[str]:
    tasks = [r for r in tasks if r["reveal_rate"].n >= MIN_HEADLINE]  # the pairing's High Form games
    out = []
    for status in ("never revealed", "never claimed", "rarely claimed"):
        for pairing in sorted({r["pairing"] for r in tasks}):
            hit = sorted(r["task"] for r in tasks if r["status"] == status and r["pairing"] == pairing)
            if hit:
                out.append(f"Tasks {status} ({pairing}): {', '.join(hit)}.")
    claimed = [r for r in tasks if r["claim_rate"].n >= MIN_HEADLINE]
    if claimed:
        top = max(claimed, key=lambda r: r["claim_rate"].value or 0.0)
        out.append(f"Most often claimed task: {top['task']} ({top['pairing']}), "
                   f"{rate_text(top['claim_rate'])} of the games it was revealed in.")
    return out


def _endings(q: dict[str, list[Record]]) -> list[str]:
    totals: dict[str, int] = {}
    limits: dict[str, int] = {}
    ties: dict[str, int] = {}
    for r in q["end_reasons"]:
        totals[r["mode"]] = totals.get(r["mode"], 0) + r["games"]
        if r["end_reason"] == "turn-limit":
            limits[r["mode"]] = limits.get(r["mode"], 0) + r["games"]
        if r["tiebreak"] == "tie":
            ties[r["mode"]] = ties.get(r["mode"], 0) + r["games"]
    out = [f"{mode}: {n:,} games hit the turn limit ({rate_text(Rate(n, totals[mode]))})."
           for mode, n in sorted(limits.items()) if totals[mode] >= MIN_HEADLINE]
    out += [f"{mode}: {rate_text(Rate(n, totals[mode]))} of games end in a tie after both tiebreaks."
            for mode, n in sorted(ties.items()) if n / totals[mode] >= 0.02 and totals[mode] >= MIN_HEADLINE]
    return out


def _levels(levels: Levels | None) -> list[str]:
    """The count of each verdict across strength levels, and the surest conclusions that depend on the level
    (moves, only at LEVEL: the change between levels flagged)."""
    if levels is None:
        return []
    rows = levels.conclusions
    tested = [r for r in rows if r["change"] is not None and r["change"].q is not None]
    where = f"Across strength levels ({', '.join(levels.names)})"
    if not tested:
        return [f"{where}: no conclusion has the games at every level to be tested (20 on each side)."]
    holds = [r for r in tested if r["verdict"] == HOLDS]
    mdes = [r["mde_change"] for r in tested if r["mde_change"] is not None]
    median = f"; the median detectable change is {100 * statistics.median(mdes):.1f} points" if mdes else ""
    out = [f"{where}, of {len(tested)} conclusions tested: {sum(r['verdict'] == MOVES for r in tested)} move "
           f"between levels and {sum(r['verdict'].startswith(ONLY_AT) for r in tested)} are flagged at some levels "
           f"only, the change between levels flagged ({FDR}); "
           f"{sum(r['verdict'].startswith(CANT_TELL) for r in tested)} are flagged at some levels but can't be "
           f"told apart at this size; {sum(r['flagged_at'] != 'none' for r in holds)} hold flagged at every level "
           f"and {sum(r['flagged_at'] == 'none' for r in holds)} hold flagged at none{median}."]
    for r in [r for r in tested if claims(r["verdict"]) and r["change"].n >= MIN_HEADLINE][:TOP_LEVELS]:
        at = ", ".join(f"{level} {diff_text(r[f'at_{level}'])}" for level in levels.names)
        out.append(f"Depends on the level ({r['verdict']}): {describe(r)}: {at}; change {diff_text(r['change'])}.")
    return out


def what_stands_out(q: dict[str, list[Record]], cards: list[Record], tasks: list[Record],
                    by_deck: list[Record], ablation: list[Record], levels: Levels | None = None) -> list[str]:
    """The duels' statements; a study of two decks opens with its deck result."""
    two_decks = len({r["deck"] for r in q["deck_baseline"]}) == 2
    games = _two_decks(q) + _first_player(q) if two_decks else _first_player(q) + _decks(q) + _matchups(q)
    return (games + _ablation(ablation) + _cards(cards, by_deck) + _levels(levels) + _tasks(tasks)
            + _endings(q))
