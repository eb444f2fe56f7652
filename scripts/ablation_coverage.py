"""Ablation coverage: per card of a vanilla ablation run, how many paired games differ from the unchanged ones.

    python scripts/ablation_coverage.py runs/ablation-all [--md FILE.md] [--all]

An arm whose paired games all equal the unchanged ones never changed a game: either the card's text cannot
change a game against that deck, or the player never uses it (a blind spot). The pairs are the report's
(``reports/sql/ablation.sql``): a being's arm pairs each game where its deck played with the unchanged game of
the same seed; a pair **diverges** when its two games differ in result, scores, length, ending or any card
event. Prints one row per card, form and opposing deck (with ``--all``; by default the arms with fewer than
``--few`` diverged pairs), then a summary per form and the cards whose pairs never diverged in any form, with
their text. docs/studies.md, "Ablation coverage".
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from reports.dataset import DatasetError, open_runs
from reports.queries import SETUP, run_named
from sim.cards import Being, load_card_set
from sim.errors import UserError

Row = dict[str, Any]


def coverage(paths: list[Path]) -> list[Row]:
    """One row per arm, form, owner's deck, strategy and opposing deck: pairs, diverged pairs and pairs whose
    result for the owner differs."""
    runs, con = open_runs(paths)
    rows = run_named(con, ", ".join(str(p) for p in paths), SETUP, ("ablation",))["ablation"]
    out: dict[tuple, Row] = {}
    for r in rows:
        key = (r["card_id"], r["mode"], r["deck"], r["strategy"], r["opp_deck"], r["ablation"])
        acc = out.setdefault(key, {"card": r["card_id"], "form": r["mode"], "deck": r["deck"],
                                   "strategy": r["strategy"], "opp_deck": r["opp_deck"], "arm": r["ablation"],
                                   "pairs": 0, "diverged": 0, "result_differs": 0})
        acc["pairs"] += r["up"] + r["down"] + r["same"]
        acc["diverged"] += r["diverged"]
        acc["result_differs"] += r["up"] + r["down"]
    return sorted(out.values(), key=lambda r: (r["arm"], r["strategy"], r["card"], r["form"], r["opp_deck"]))


def _card_text(card_id: str) -> str:
    card = load_card_set().by_id.get(card_id)
    if not isinstance(card, Being):
        return ""
    texts = [card.describe, card.frozen_describe and f"frozen: {card.frozen_describe}",
             card.warp_describe and f"warp: {card.warp_describe}"]
    return " ".join(t for t in texts if t)


def _table(rows: list[Row], columns: list[str]) -> list[str]:
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(str(r[c]) for c in columns) + " |" for r in rows]
    return lines


def render(rows: list[Row], show_all: bool, few: int) -> str:
    columns = ["card", "form", "strategy", "opp_deck", "pairs", "diverged", "result_differs"]
    shown = rows if show_all else [r for r in rows if r["diverged"] < few]
    lines = [f"## {'Every arm' if show_all else f'Arms with fewer than {few} diverged pairs'}", ""]
    lines += _table(shown, columns) if shown else ["(none)"]
    by_form: dict[tuple[str, str, str], list[Row]] = defaultdict(list)
    by_card: dict[tuple[str, str, str], list[Row]] = defaultdict(list)
    for r in rows:
        by_form[(r["arm"], r["strategy"], r["form"])].append(r)
        by_card[(r["arm"], r["strategy"], r["card"])].append(r)
    lines += ["", "## Summary per form", "",
              "| arm | strategy | form | arms | pairs | arms with no pair diverged | median diverged share |",
              "|---|---|---|---:|---:|---:|---:|"]
    for (arm, strategy, form), group in sorted(by_form.items()):
        shares = sorted(r["diverged"] / r["pairs"] for r in group if r["pairs"])
        median = shares[len(shares) // 2] if shares else 0.0
        zero = sum(1 for r in group if r["diverged"] == 0)
        lines.append(f"| {arm} | {strategy} | {form} | {len(group)} | {sum(r['pairs'] for r in group)} | {zero} "
                     f"| {median:.0%} |")
    never = [(key, group) for key, group in sorted(by_card.items()) if not any(r["diverged"] for r in group)]
    lines += ["", "## Cards whose pairs never diverged in any form", ""]
    if not never:
        lines.append("(none)")
    for (arm, strategy, card), group in never:
        opps = ", ".join(sorted({r["opp_deck"] for r in group}))
        pairs = sum(r["pairs"] for r in group)
        lines.append(f"- {card} ({arm}, {strategy}, against {opps}, {pairs} pairs): {_card_text(card)}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run directories of ablation studies")
    parser.add_argument("--md", type=Path, help="also write the tables to this Markdown file")
    parser.add_argument("--all", action="store_true", help="list every arm, not only the rarely diverging")
    parser.add_argument("--few", type=int, default=5, help="list the arms with fewer diverged pairs than this")
    args = parser.parse_args(argv)
    try:
        rows = coverage(args.runs)
    except (DatasetError, UserError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not rows:
        print("error: the runs hold no ablation arm", file=sys.stderr)
        return 2
    text = render(rows, args.all, args.few)
    print(text, end="")
    if args.md:
        args.md.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
