"""Strength levels: the report's conclusions drawn again at each level a study plays, and whether they hold.

A level is a player that played both seats of some games (a mirror strategy pairing); its conclusions come
from those games alone. For each conclusion (a deck pairing's edge, a card's randomized opening-hand and
position effects, a task dealt at setup, an ablation arm) the levels' estimates are compared with Cochran's
Q test, Benjamini-Hochberg over every conclusion tested, and a verdict says whether it holds at every level,
moves between them, is flagged at some levels only, or cannot be told apart at this size: a level-dependent
verdict needs the difference between levels itself flagged. See docs/reports.md, "Across strength levels".
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import duckdb

from reports.analysis import (
    HIGH_FORM,
    Record,
    ablation_records,
    card_records,
    deck_edge_records,
    estimates,
    task_deck_records,
)
from reports.dataset import Run, select_games
from reports.names import Names
from reports.queries import run_queries
from reports.stats import Estimate, Heterogeneity, flag

Query = dict[str, list[Record]]
Key = tuple[str, str, str, str, str]  # kind, form, deck, card or task, estimate

MOVES, HOLDS, NOT_TESTED = "moves", "holds", "not tested"
ONLY_AT = "only at "
CANT_TELL = "can't tell at this size"
CLAIMS = (MOVES, ONLY_AT)  # the verdicts that say a conclusion depends on the level (prefixes)
EDGE = "edge: first deck's win rate minus the second's"
MEASURES = {"opening_effect": "opening hand effect", "position_effect": "earlier in deck"}
DEALT = "dealt at setup"


@dataclass
class Levels:
    """The strength levels in order, one record per conclusion (those that depend on the level first), and how each
    level's games end (per form)."""

    names: list[str]
    conclusions: list[Record]
    endings: list[Record]


def _listed_mirrors(manifest: dict[str, Any]) -> list[str]:
    """The players of the mirror pairings a run's study lists, in its order (a manifest may lack them)."""
    config = manifest.get("config")
    pairings = config.get("strategy_pairings") if isinstance(config, dict) else None
    if not isinstance(pairings, list):
        return []
    return [p[0] for p in pairings if isinstance(p, list) and len(p) == 2 and p[0] == p[1] and isinstance(p[0], str)]


def find_levels(runs: list[Run], q: Query) -> list[str]:
    """The players that played both seats of some games, in the order the runs' studies list their mirror
    pairings (so "change" reads from the first listed level to the last); any no manifest lists follow in
    name order."""
    found = {r["strategy"] for r in q["strategy_pairings"] if r["strategy"] == r["opp_strategy"]}
    listed = list(dict.fromkeys(label for run in runs for label in _listed_mirrors(run.manifest) if label in found))
    return listed + sorted(found - set(listed))


def mirror_query(runs: list[Run], q: Query, where: str, con: duckdb.DuckDBPyConnection) -> Query:
    """The query rows of the mirror games alone: the report's own rows when every game is a mirror (a study
    of levels only), else the queries again over views that keep the mirror games."""
    if all(r["strategy"] == r["opp_strategy"] for r in q["strategy_pairings"]):
        return q
    select_games(con, runs, mirrors_only=True)
    return run_queries(con, where)


def per_level(q: Query, names: Names) -> dict[Key, dict[str, Estimate]]:
    """Each conclusion's estimate at each level, flagged within its family as the rest of the report flags
    them: the randomized card and task estimates together, the ablation arms, and the deck pairings."""
    cards = card_records(q, names)
    by_deck = task_deck_records(q, names)
    ablation, _ = ablation_records(q, names)
    edges = deck_edge_records(q)
    flag(estimates(cards) + estimates(by_deck))
    flag(estimates(ablation))
    flag(estimates(edges))
    out: dict[Key, dict[str, Estimate]] = defaultdict(dict)
    for r in edges:
        out[("deck pairing", r["mode"], f"{r['deck']} vs {r['opp_deck']}", "", EDGE)][r["strategy"]] = r["edge"]
    for r in cards:
        for key, measure in MEASURES.items():
            if key in r:
                out[(r["type"], r["mode"], r["deck"], r["card"], measure)][r["strategy"]] = r[key]
    for r in by_deck:
        out[("task", HIGH_FORM, r["deck"], r["task"], DEALT)][r["strategy"]] = r["dealt_effect"]
    for r in ablation:
        out[("ablation", r["mode"], r["deck"], r["card"], f"{r['ablation']} arm")][r["strategy"]] = r["effect"]
    return out


def _arrow(e: Estimate) -> str:
    return "▲" if (e.value or 0.0) > 0 else "▼"


def _verdict(found: list[tuple[str, Estimate | None]], change: Heterogeneity | None) -> tuple[str, str]:
    """The verdict and where the levels' own estimates are flagged ("every level ▲", "none", "greedy ▲").

    A verdict that the answer depends on the level needs the change between levels flagged: then only at
    LEVELS when the levels' own flags differ, else moves. Without it: holds when the levels' flags agree
    (every level in one direction, or none), else can't tell at this size (flagged at some levels, or in
    both directions, with no difference between levels established), with the change's detectable size."""
    flagged = [(level, e) for level, e in found if e is not None and e.flagged]
    arrows = {_arrow(e) for _, e in flagged}
    everywhere = len(flagged) == len(found)
    if not flagged:
        where = "none"
    elif everywhere and len(arrows) == 1:
        where = f"every level {next(iter(arrows))}"
    else:
        where = ", ".join(f"{level} {_arrow(e)}" for level, e in flagged)
    if change is None or change.p is None:
        return NOT_TESTED, where
    if change.flagged:
        if flagged and not everywhere:
            return ONLY_AT + ", ".join(level for level, _ in flagged), where
        return MOVES, where
    if not flagged or (everywhere and len(arrows) == 1):
        return HOLDS, where
    return f"{CANT_TELL} (detectable change {100 * change.mde:.1f} pp)", where  # type: ignore[operator]


def claims(verdict: str) -> bool:
    """Whether a verdict says the conclusion depends on the level (moves, only at LEVEL)."""
    return verdict.startswith(CLAIMS)


def _rank(r: Record) -> int:
    """The conclusions that depend on the level first (moves, only at), then those that can't be told at this
    size, those that hold with an effect at every level, those that hold with none, and the untested."""
    verdict = r["verdict"]
    if claims(verdict):
        return 0
    if verdict.startswith(CANT_TELL):
        return 1
    if verdict == HOLDS:
        return 2 if r["flagged_at"] != "none" else 3
    return 4


def _order(r: Record) -> tuple[int, float, float]:
    """By verdict (``_rank``); within one, the surest change first, then the largest."""
    change = r["change"]
    if change is None:
        return _rank(r), 1.0, 0.0
    return _rank(r), 1.0 if change.q is None else change.q, -abs(change.value or 0.0)


def judge(per_level: dict[Key, dict[str, Estimate]], levels: list[str]) -> list[Record]:
    """One record per conclusion, from its levels' estimates (each already flagged within its family): the
    estimate and sample at each level (``at_LEVEL``, ``n_LEVEL``), the change from the first level to the last
    with its test over all levels (``change``, flagged by Benjamini-Hochberg over every conclusion tested),
    its detectable size, and the verdict; those that depend on the level first."""
    out = []
    for (kind, mode, deck, subject, measure), by_level in per_level.items():
        found = [(level, by_level.get(level)) for level in levels]
        complete = all(e is not None for _, e in found)
        change = Heterogeneity(tuple(e for _, e in found if e is not None)) if complete else None
        record: Record = {
            "kind": kind,
            "mode": mode,
            "deck": deck,
            "subject": subject,
            "measure": measure,
            "change": change,
            "mde_change": change.mde if change is not None else None,
        }
        for level, e in found:
            record[f"at_{level}"] = e
            record[f"n_{level}"] = e.n if e is not None else None
        out.append((record, found))
    flag([r["change"] for r, _ in out if r["change"] is not None])
    for record, found in out:
        record["verdict"], record["flagged_at"] = _verdict(found, record["change"])
    return sorted((r for r, _ in out), key=_order)


def strength_levels(runs: list[Run], q: Query, names: Names, where: str,
                    con: duckdb.DuckDBPyConnection) -> Levels | None:
    """The conclusions across strength levels, or None when the runs hold fewer than two levels."""
    levels = find_levels(runs, q)
    if len(levels) < 2:
        return None
    order = {name: i for i, name in enumerate(levels)}
    endings = sorted((r for r in q["level_endings"] if r["strategy"] in order),
                     key=lambda r: (r["mode"], order[r["strategy"]]))
    conclusions = judge(per_level(mirror_query(runs, q, where, con), names), levels)
    for r in conclusions:  # a card's or task's conclusion links its page in the report
        if (cid := names.card_id(r["subject"])) is not None:
            r["task_id" if r["kind"] == "task" else "card_id"] = cid
    return Levels(levels, conclusions, endings)
