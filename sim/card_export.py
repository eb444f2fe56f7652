"""The card set as JSON (reference conventions) and as readable text."""

from __future__ import annotations

from typing import Any

from sim.cards import Being, CardSet, Flare
from sim.errors import UserError
from sim.patterns import render_grid
from sim.ranks import RANK_NAMES


def being_json(b: Being) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": b.id,
        "name": b.name,
        "deck": b.deck,
        "rank": RANK_NAMES[b.rank],
        "pattern": [[dx, dy, RANK_NAMES[r]] for dx, dy, r in b.pattern.cells],
        "describe": b.describe,
    }
    if b.pattern.marked:
        out["marked"] = [list(m) for m in b.pattern.marked]
    if b.pattern.marked_other:
        out["marked_other"] = [list(m) for m in b.pattern.marked_other]
    if b.warp is not None:
        out["warp_describe"] = b.warp_describe
    if b.summon_anywhere:
        out["summon_anywhere"] = True
    if b.frozen is not None:
        out["frozen_describe"] = b.frozen_describe
    return out


def _selected(cards: CardSet, deck: str | None) -> tuple[list[Being], bool, bool]:
    """(beings, include flares, include tasks) for a --deck filter."""
    if deck is None:
        return list(cards.all_beings), True, True
    if deck in cards.decks:
        return list(cards.decks[deck]), False, False
    if deck == "legends":
        return list(cards.legends), False, False
    if deck in ("flares", "tasks"):
        return [], deck == "flares", deck == "tasks"
    raise UserError(f"--deck: unknown deck {deck!r}; expected one of "
                    f"{', '.join([*sorted(cards.decks), 'legends', 'flares', 'tasks'])}")


def export_cards(cards: CardSet, deck: str | None = None) -> dict[str, Any]:
    beings, flares, tasks = _selected(cards, deck)
    out: dict[str, Any] = {"cards": [being_json(b) for b in beings]}
    if flares:
        out["flares"] = [
            {"id": f.id, "name": f.name,
             "upper": {"needs_more_upgraded": f.upper.threshold, "describe": f.upper.describe},
             "lower": {"needs_more_pieces": f.lower.threshold, "describe": f.lower.describe}}
            for f in cards.flares
        ]
    if tasks:
        out["tasks"] = [
            {"id": t.id, "name": t.name, "category": t.category,
             "difficulty": "advanced" if t.advanced else "simple", "points": t.points, "describe": t.describe}
            for t in cards.tasks
        ]
    return out


PATTERN_KEY = ("Pattern key: @ summoning square, c/h/l your piece of at least common/heroic/legendary, "
               "* marked square.")


def being_texts(b: Being) -> list[str]:
    """A being's own effect texts, one line each, as ``tashkalar cards`` shows them under its pattern."""
    out = [b.describe]
    if b.summon_anywhere:
        out.append("summoned onto any empty colourless square")
    if b.warp is not None:
        out.append(f"warp: {b.warp_describe}")
    if b.frozen is not None:
        out.append(f"frozen: {b.frozen_describe}")
    return out


def flare_texts(f: Flare) -> list[str]:
    """A flare's two halves: when each may be invoked, and what it does."""
    return [f"upper, opponent has {f.upper.threshold}+ more upgraded pieces: {f.upper.describe}",
            f"lower, opponent has {f.lower.threshold}+ more pieces: {f.lower.describe}"]


def render_cards(cards: CardSet, deck: str | None = None) -> str:
    beings, flares, tasks = _selected(cards, deck)
    parts = []
    for b in beings:
        grid = "\n".join("    " + line for line in render_grid(b.pattern).splitlines())
        texts = "\n".join(f"  {line}" for line in being_texts(b))
        parts.append(f"{b.name} ({b.id}, {RANK_NAMES[b.rank]})\n{grid}\n{texts}")
    if flares:
        for f in cards.flares:
            parts.append(f"{f.name} ({f.id})\n" + "\n".join(f"  {line}" for line in flare_texts(f)))
    if tasks:
        for t in cards.tasks:
            parts.append(f"{t.name} ({t.id}, {t.category}, {'advanced' if t.advanced else 'simple'}, "
                         f"{t.points} pts)\n  {t.describe}")
    parts.append(PATTERN_KEY)
    return "\n\n".join(parts)
