"""Scenario notation: a short text that sets up a position, for tests and for checking a card by hand.

Example::

    # Swordmaster takes a common piece diagonally
    mode: high-form            # or deathmatch
    active: 1                  # whose turn: player 1 or 2
    actions: 2                 # actions left (default 2)
    decks: imperial, imperial  # personal decks (default imperial for both)
    hand 1: imperial/swordmaster
    legends 1: legend/titan
    flare 1: flare/03
    stock 1: tokens=3 legends=1   # optional: stock counts (default: all not in the arena)
    tasks: task/destruction, task/red-conquest, task/center-cross
    next task: task/imprisonment
    seed: 7
    arena:
    -- -- .. .. .. .. .. -- --
    -- .. .. .. .. .. .. .. --
    .. .. .. .. .. .. .. .. ..
    .. .. .. 1c .. .. .. .. ..
    .. .. .. .. 1h 2c .. .. ..
    .. .. .. 1c .. .. .. .. ..
    .. .. .. .. .. .. .. .. ..
    -- .. .. .. .. .. .. .. --
    -- -- .. .. .. .. .. -- --

The arena is 9 rows of 9 tokens: ``..`` an empty square, ``--`` a cut corner, ``1c``/``1h``/``1l`` a
common, heroic or legendary piece of player 1 (``2c``... for player 2). Players 1 and 2 are seats 0
and 1. Cards named in hands are taken out of their decks; the rest of each deck is shuffled by the seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from sim import board
from sim.cards import Being, CardSet, Flare, Task, load_card_set
from sim.decisions import Strategy
from sim.errors import UserError
from sim.game import Game
from sim.ranks import LEGENDARY, RANK_LETTERS
from sim.state import LEGENDARY_PIECES, MODES, TOKENS


class ScenarioError(UserError):
    def __init__(self, line: int, message: str, source: str = "scenario"):
        super().__init__(f"{source}: line {line}: {message}" if line else f"{source}: {message}")
        self.line = line


def _ids(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def load_scenario(
    text: str,
    strategies: Sequence[Strategy],
    cards: CardSet | None = None,
    *,
    strict: bool = True,
    source: str = "scenario",
) -> Game:
    """A game positioned as the scenario says, at the active player's turn, ready for actions."""
    cards = cards or load_card_set()
    fields: dict[str, tuple[int, str]] = {}
    arena_rows: list[tuple[int, str]] = []
    in_arena = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if in_arena and len(arena_rows) < 9:
            arena_rows.append((n, line))
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ScenarioError(n, f"expected 'key: value', got {line.strip()!r}", source)
        key = key.strip().lower()
        if key == "arena":
            in_arena = True
            continue
        fields[key] = (n, value.strip())

    def get(key: str, default: str) -> tuple[int, str]:
        return fields.get(key, (0, default))

    line, mode = get("mode", "high-form")
    if mode not in MODES:
        raise ScenarioError(line, f"mode must be one of {', '.join(MODES)}, got {mode!r}", source)
    line, decks_text = get("decks", "imperial, imperial")
    decks = _ids(decks_text)
    if len(decks) != 2 or any(d not in cards.decks for d in decks):
        raise ScenarioError(line, f"decks must name two of {', '.join(sorted(cards.decks))}", source)
    line, seed_text = get("seed", "0")
    if not seed_text.isdigit():
        raise ScenarioError(line, "seed must be a non-negative integer", source)
    game = Game(cards, mode, decks, strategies, int(seed_text), strict=strict)
    s = game.state
    line, active = get("active", "1")
    if active not in ("1", "2"):
        raise ScenarioError(line, "active must be 1 or 2", source)
    s.active = s.first_player = int(active) - 1
    line, actions = get("actions", "2")
    if not actions.isdigit():
        raise ScenarioError(line, "actions must be a non-negative integer", source)
    s.actions_left = int(actions)
    s.turn = 2

    def card(line: int, cid: str, kind: type) -> Being | Flare | Task:
        c = cards.by_id.get(cid)
        if not isinstance(c, kind):
            raise ScenarioError(line, f"unknown {kind.__name__.lower()} {cid!r}", source)
        return c

    for p in (0, 1):
        s.deck[p] = list(cards.deck(decks[p]))
        line, text_hand = get(f"hand {p + 1}", "")
        for cid in _ids(text_hand):
            b = card(line, cid, Being)
            if b not in s.deck[p]:
                raise ScenarioError(line, f"{cid} is not in player {p + 1}'s deck ({decks[p]})", source)
            s.deck[p].remove(b)
            s.hand[p].append(b)  # type: ignore[arg-type]
        s.rng.shuffle(s.deck[p])
        line, text_leg = get(f"legends {p + 1}", "")
        for cid in _ids(text_leg):
            s.legend_hand[p].append(card(line, cid, Being))  # type: ignore[arg-type]
        line, text_flare = get(f"flare {p + 1}", "")
        for cid in _ids(text_flare):
            s.flare_hand[p].append(card(line, cid, Flare))  # type: ignore[arg-type]
    held = {c.id for p in (0, 1) for c in (*s.legend_hand[p], *s.flare_hand[p])}
    s.legend_deck = [c for c in cards.legends if c.id not in held]
    s.flare_deck = [c for c in cards.flares if c.id not in held]
    s.rng.shuffle(s.legend_deck)
    s.rng.shuffle(s.flare_deck)

    if mode == "high-form":
        line, row = get("tasks", "")
        s.task_row = [card(line, t, Task) for t in _ids(row)]  # type: ignore[misc]
        line, nxt = get("next task", "")
        s.next_task = card(line, nxt, Task) if nxt else None  # type: ignore[assignment]
        shown = {t.id for t in s.task_row} | ({s.next_task.id} if s.next_task else set())
        s.task_deck = [t for t in cards.tasks if t.id not in shown]
        s.rng.shuffle(s.task_deck)

    if len(arena_rows) not in (0, 9):
        raise ScenarioError(arena_rows[-1][0], f"the arena needs 9 rows, found {len(arena_rows)}", source)
    for y, (line, row) in enumerate(arena_rows, 1):
        toks = row.split()
        if len(toks) != 9:
            raise ScenarioError(line, f"an arena row needs 9 tokens, found {len(toks)}", source)
        for x, tok in enumerate(toks, 1):
            cut = not board.on_arena(x, y)
            if tok == "--":
                if not cut:
                    raise ScenarioError(line, f"column {x} is a square of the arena, not a cut corner", source)
                continue
            if cut:
                raise ScenarioError(line, f"column {x} is a cut corner: write '--'", source)
            if tok == "..":
                continue
            if len(tok) != 2 or tok[0] not in "12" or tok[1] not in RANK_LETTERS:
                raise ScenarioError(line, f"unknown token {tok!r} in column {x} (expected .. or 1c/1h/1l/2c/2h/2l)",
                                    source)
            p, r = int(tok[0]) - 1, RANK_LETTERS.index(tok[1])
            s.pieces[p][r] |= 1 << board.square(x, y)
    for p in (0, 1):
        bb = s.pieces[p]
        s.tokens[p] = TOKENS[mode] - (bb[0] | bb[1]).bit_count()
        s.legend_stock[p] = LEGENDARY_PIECES - bb[LEGENDARY].bit_count()
        if s.tokens[p] < 0 or s.legend_stock[p] < 0:
            raise ScenarioError(0, f"player {p + 1} has more pieces in the arena than the game has", source)
        line, stock = get(f"stock {p + 1}", "")
        for part in stock.split():
            k, _, v = part.partition("=")
            if k not in ("tokens", "legends") or not v.isdigit():
                raise ScenarioError(line, f"stock takes tokens=N legends=N, got {part!r}", source)
            if k == "tokens":
                s.token_total[p] += int(v) - s.tokens[p]
                s.tokens[p] = int(v)
            else:
                s.legend_total[p] += int(v) - s.legend_stock[p]
                s.legend_stock[p] = int(v)
    if strict:
        s.check_invariants()
    return game


def render_arena(state) -> str:
    """The arena in scenario notation."""
    rows = []
    for y in range(1, 10):
        toks = []
        for x in range(1, 10):
            if not board.on_arena(x, y):
                toks.append("--")
                continue
            piece = state.piece_at(board.square(x, y))
            toks.append(".." if piece is None else f"{piece[0] + 1}{RANK_LETTERS[piece[1]]}")
        rows.append(" ".join(toks))
    return "\n".join(rows)
