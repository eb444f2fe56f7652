"""Validation across two strength levels: the key conclusions of a default-player run checked at a stronger level.

    python scripts/validation.py runs/validation-default runs/validation-expert [--md FILE.md]

Each run holds one level's mirror games (studies/validation-default.toml, studies/validation-expert.toml: the
same forms, deck pairings and ablation cards). For each conclusion it prints the estimate at both levels with
its 95% interval and whether it holds:

- **deck edge**, per form and pair of different decks: the first deck's win rate minus the second's (paired t
  interval over the games; ``reports.analysis.deck_edge_records``);
- **ablation**, per form and card (pooled over opposing decks): the owner's win rate with the card minus with
  its vanilla copy, per game seed (``reports.analysis.ablation_records``);
- **rank order**, per form: the decks by their mean win rate over their pairings, and the ablated cards by
  effect.

A conclusion **holds** when both estimates have the same sign and their intervals overlap; **confirmed** when the
stronger level's interval also excludes 0 on the same side; **moves** when the intervals do not overlap;
**sign differs, within noise** when they overlap with opposite signs; an ablation arm without variation (no pair
changed its owner's result) has no value and says so. docs/studies.md, "Validation".
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from reports.analysis import ablation_records, deck_edge_records
from reports.dataset import DatasetError, open_runs
from reports.names import Names
from reports.queries import SETUP, run_named
from reports.stats import Paired
from sim.cards import load_card_set
from sim.errors import UserError

Key = tuple[str, str, str]  # kind, form, what
Level = dict[Key, Paired]


def level(path: Path) -> tuple[str, Level]:
    """A run's player (its mirror level) and its estimates by conclusion."""
    _, con = open_runs([path])
    q = run_named(con, str(path), SETUP, ("matchups", "ablation"))
    out: Level = {}
    players = set()
    for r in deck_edge_records(q):
        players.add(r["strategy"])
        out[("deck edge", r["mode"], f"{r['deck']} - {r['opp_deck']}")] = r["edge"]
    pooled, _ = ablation_records(q, Names(load_card_set()))
    for r in pooled:
        if r["strategy"] == _mirror(q, r["strategy"]):
            players.add(r["strategy"])
            out[("ablation", r["mode"], f"{r['card']} ({r['deck']})")] = r["effect"]
    if len(players) != 1:
        raise UserError(f"{path}: expected the mirror games of one player, found {sorted(players) or 'none'}")
    return players.pop(), out


def _mirror(q: dict[str, list[dict[str, Any]]], strategy: str) -> str | None:
    """``strategy`` when it played against itself in the run."""
    return strategy if any(r["strategy"] == r["opp_strategy"] == strategy for r in q["matchups"]) else None


def _fmt(e: Paired | None) -> str:
    if e is None:
        return "not played"
    if not e.defined:
        return f"no value ({e.n} pairs, none changed the result)"
    low, high = e.interval
    return f"{100 * e.value:+.1f} ({100 * low:+.1f} to {100 * high:+.1f}), n={e.n}"


def verdict(a: Paired | None, b: Paired | None) -> str:
    if a is None or b is None:
        return "not at both levels"
    if not a.defined or not b.defined:
        return "no value at " + ("both levels" if not a.defined and not b.defined else
                                 "the default" if not a.defined else "the stronger level")
    (alo, ahi), (blo, bhi) = a.interval, b.interval
    if ahi < blo or bhi < alo:
        return "moves"
    if (a.value > 0) != (b.value > 0) or a.value == 0 or b.value == 0:
        return "sign differs, within noise"
    return "confirmed" if (blo > 0 if b.value > 0 else bhi < 0) else "holds (same sign, overlapping)"


def _deck_ranks(est: Level, form: str) -> list[str]:
    """The decks of ``form`` by their mean win rate over their deck pairings, best first."""
    rates: dict[str, list[float]] = defaultdict(list)
    for (kind, f, what), e in est.items():
        if kind == "deck edge" and f == form and e.defined:
            first, second = what.split(" - ")
            rates[first].append((1 + e.value) / 2)
            rates[second].append((1 - e.value) / 2)
    return sorted(rates, key=lambda d: -sum(rates[d]) / len(rates[d]))


def _card_ranks(est: Level, form: str) -> list[str]:
    """The ablated cards of ``form`` by effect, largest first (one without variation last)."""
    cards = [(what, e) for (kind, f, what), e in est.items() if kind == "ablation" and f == form]
    return [w for w, _ in sorted(cards, key=lambda c: -(c[1].value if c[1].defined else -2.0))]


def render(names: tuple[str, str], levels: tuple[Level, Level]) -> str:
    default, strong = levels
    keys = sorted(set(default) | set(strong), key=lambda k: (k[0] != "deck edge", k[1], k[2]))
    lines = [f"| conclusion | form | {names[0]} | {names[1]} | verdict |", "|---|---|---|---|---|"]
    counts: dict[str, int] = defaultdict(int)
    for key in keys:
        v = verdict(default.get(key), strong.get(key))
        counts[v] += 1
        lines.append(f"| {key[0]}: {key[2]} | {key[1]} | {_fmt(default.get(key))} | {_fmt(strong.get(key))} | {v} |")
    lines += ["", "| rank order | form | " + " | ".join(names) + " | same order |", "|---|---|---|---|---|"]
    for form in sorted({k[1] for k in keys}):
        for what, ranks in (("decks, best first", _deck_ranks), ("ablated cards, largest effect first", _card_ranks)):
            a, b = ranks(default, form), ranks(strong, form)
            if a or b:
                lines.append(f"| {what} | {form} | {', '.join(a)} | {', '.join(b)} | {'yes' if a == b else 'no'} |")
    lines += ["", "verdicts: " + ", ".join(f"{v}: {n}" for v, n in sorted(counts.items()))]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("default", type=Path, help="the run at the default player")
    parser.add_argument("stronger", type=Path, help="the run at the stronger level (the expert)")
    parser.add_argument("--md", type=Path, help="also write the tables to this Markdown file")
    args = parser.parse_args(argv)
    try:
        (a, da), (b, db) = level(args.default), level(args.stronger)
    except (DatasetError, UserError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    text = render((a, b), (da, db))
    print(text, end="")
    if args.md:
        args.md.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
