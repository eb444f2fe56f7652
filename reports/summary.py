"""The "what stands out" list at the top of the report: a few plain sentences, each with its numbers."""

from __future__ import annotations

from reports.analysis import Record
from reports.model import diff_text, rate_text
from reports.stats import Diff, Rate

TOP_CARDS = 2  # per card type
COMPARISONS = ("played_vs_not", "improvement")
TYPE_WORDS = {"being": "when played", "legend": "when summoned", "flare": "when invoked"}


def _first_player(q: dict[str, list[Record]]) -> list[str]:
    by_mode: dict[str, list[int]] = {}
    for r in q["first_player"]:
        t = by_mode.setdefault(r["mode"], [0, 0])
        t[0] += r["first_wins"]
        t[1] += r["games"]
    out = []
    for mode, (k, n) in sorted(by_mode.items()):
        rate = Rate(k, n)
        lo, hi = rate.interval
        verdict = ("an advantage" if lo > 0.5 else "a disadvantage" if hi < 0.5 else "no clear advantage")
        out.append(f"{mode}: the first player wins {rate_text(rate)}: {verdict}.")
    return out


def _matchups(q: dict[str, list[Record]]) -> list[str]:
    best: dict[str, tuple[float, Record]] = {}
    for r in q["matchups"]:
        if r["deck"] == r["opp_deck"] or r["strategy"] != r["opp_strategy"] or 2 * r["wins"] <= r["games"]:
            continue  # mirrors, mixed strategies, and the losing side of a matchup
        gap = r["wins"] / r["games"] - 0.5
        if r["mode"] not in best or gap > best[r["mode"]][0]:
            best[r["mode"]] = (gap, r)
    out = []
    for mode, (_, r) in sorted(best.items()):
        rate = Rate(r["wins"], r["games"])
        out.append(f"{mode}: the most lopsided matchup is {r['deck']} against {r['opp_deck']} "
                   f"({r['strategy']}), won {rate_text(rate)}.")
    return out


def _cards(cards: list[Record]) -> list[str]:
    """The largest flagged played-versus-not differences, a few per card type, and the flag count."""
    flagged = [r for r in cards if r["played_vs_not"].flagged]
    flagged.sort(key=lambda r: -abs(r["played_vs_not"].value))
    out = []
    for kind, words in TYPE_WORDS.items():
        for r in [r for r in flagged if r["type"] == kind][:TOP_CARDS]:
            d: Diff = r["played_vs_not"]
            out.append(f"{r['card']} ({kind}, {r['deck']}, {r['mode']}, {r['strategy']}): holder's win rate "
                       f"{words} {rate_text(d.a)} against {rate_text(d.b)} otherwise, {diff_text(d)}.")
    comparisons = [r[k] for r in cards for k in COMPARISONS]
    count = sum(1 for d in comparisons if d.flagged)
    tested = sum(1 for d in comparisons if d.q is not None)
    out.append(f"{count} of {tested} card comparisons are flagged (Benjamini-Hochberg, 5% false discovery "
               "rate).")
    return out


def _tasks(tasks: list[Record]) -> list[str]:
    out = []
    for status in ("never revealed", "never claimed", "rarely claimed"):
        for pairing in sorted({r["pairing"] for r in tasks}):
            hit = sorted(r["task"] for r in tasks if r["status"] == status and r["pairing"] == pairing)
            if hit:
                out.append(f"Tasks {status} ({pairing}): {', '.join(hit)}.")
    claimed = [r for r in tasks if r["claim_rate"].n]
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
           for mode, n in sorted(limits.items())]
    out += [f"{mode}: {rate_text(Rate(n, totals[mode]))} of games end in a tie after both tiebreaks."
            for mode, n in sorted(ties.items()) if n / totals[mode] >= 0.02]
    return out


def what_stands_out(q: dict[str, list[Record]], cards: list[Record], tasks: list[Record]) -> list[str]:
    return _first_player(q) + _matchups(q) + _cards(cards) + _tasks(tasks) + _endings(q)
