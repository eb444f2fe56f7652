"""A small card set for testing the rules apart from any real card's effect, and position shortcuts.

The ``test`` deck and the test legends have simple patterns and effects chosen for the rule being tested;
flares and tasks are the project's own (``sim/cards/flares.toml`` and ``tasks.toml``), so their tests
check the real ones.
"""

from __future__ import annotations

import functools
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sim import board
from sim.cards import BUILTIN_DIR, CardSet, load_card_set
from sim.decisions import Decision, PlayerView, Strategy
from sim.game import Game
from sim.scenario import load_scenario
from sim.state import DEATHMATCH
from tests.helpers import Answer, Scripted

_BEINGS = [
    # id, rank, pattern rows, effect
    ("single", "common", "c @", "[]"),
    ("ell", "common", "@ c c\n. . c", "[]"),
    ("knight", "heroic", "c @", "[]"),
    ("needs-heroic", "common", "h @", "[]"),
    ("on-self", "common", "@c c", "[]"),
    ("bomber", "common", "c . @", '[{ do = "destroy", where = "adjacent", owner = "enemy", all = true }]'),
    ("blast", "common", "c . . @", '[{ do = "destroy", where = "adjacent", all = true }]'),
    ("promoter", "common", "c . . . @",
     '[{ do = "upgrade", where = "adjacent", owner = "mine", ranks = ["heroic"], all = true }]'),
    *((f"filler-{i}", "common", "l l l @", "[]") for i in range(1, 5)),
]
LEGENDS = [f"legend/test-{i}" for i in range(1, 7)]
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "cards.json"  # ../shared


def _toml(table: str, entries) -> str:
    out = []
    for cid, rank, pattern, effect in entries:
        out.append(f'[[{table}]]\nid = "{cid}"\nname = "{cid}"\nrank = "{rank}"\n'
                   f'pattern = """\n{pattern}\n"""\ndescribe = "test card"\neffect = {effect}\n')
    return "\n".join(out)


def write_rules_cards(d: Path) -> Path:
    """Write the test card set into directory ``d``: deck ``test``, legends ``legend/test-N``, and copies of
    the real flares and tasks."""
    (d / "test.toml").write_text(_toml("being", [(f"test/{c}", r, p, e) for c, r, p, e in _BEINGS]))
    (d / "legends.toml").write_text(_toml("being", [(c, "legendary", "c @", "[]") for c in LEGENDS]))
    for name in ("flares.toml", "tasks.toml"):
        shutil.copy(BUILTIN_DIR / name, d / name)
    return d


@functools.cache
def rules_cards() -> CardSet:
    """The test card set, loaded (the files are only needed while loading)."""
    with tempfile.TemporaryDirectory(prefix="tashkalar-rules-") as tmp:
        return load_card_set(write_rules_cards(Path(tmp)))


def turn(dx: int, dy: int, orientation: int) -> tuple[int, int]:
    """The tests' own reading of the orientation convention: 4..7 mirror left-right first; then
    ``orientation % 4`` quarter turns clockwise as seen on the card (dy grows downward)."""
    if orientation >= 4:
        dx = -dx
    for _ in range(orientation % 4):
        dx, dy = -dy, dx
    return dx, dy


def grid(pieces: dict[str, str]) -> str:
    """The arena rows of a scenario with ``pieces`` by square name, e.g. {"e5": "1c"}."""
    rows = []
    for y in range(1, 10):
        toks = []
        for x in range(1, 10):
            toks.append(pieces.get(board.name(board.square(x, y)), "..") if board.on_arena(x, y) else "--")
        rows.append(" ".join(toks))
    return "\n".join(rows)


def position(pieces: dict[str, str], *answers: Answer, opponent: Strategy | None = None,
             me: Strategy | None = None, **keys: str) -> tuple[Game, Scripted]:
    """A scenario on the test card set. ``keys`` are scenario fields with ``_`` for spaces
    (``hand_1="test/ell"``, ``next_task=...``). Player 1 answers ``answers`` (or plays ``me``), player 2
    plays ``opponent`` (by default a script with no answers). Returns the game and player 1's script."""
    lines = ["decks: test, test", *(f"{k.replace('_', ' ')}: {v}" for k, v in keys.items()), "arena:",
             grid(pieces)]
    script = Scripted(*answers)
    game = load_scenario("\n".join(lines), [me or script, opponent or Scripted()], rules_cards())
    return game, script


def card(game: Game, cid: str) -> Any:
    """The card ``cid`` (a being, flare or task) of the game's card set."""
    return game.state.cards.by_id[cid]


def award(game: Game, player: int, points: int) -> None:
    """Give ``player`` Deathmatch points the way the engine records them (keeps strict invariants)."""
    with game.edit() as s:
        assert s.mode == DEATHMATCH
        s.dm_points[player] += points
        s.record_points(s.turn, player, "destruction", points)


class FirstOption:
    """Always takes the first option: places on the lowest empty square, never summons or discards,
    claims the first task met, uses its flare once its actions are done. Deterministic, always ends a turn."""

    name = "first-option"

    def choose(self, view: PlayerView, decision: Decision) -> int:
        return 0


def at(name: str) -> Callable[[Decision], Any]:
    """An answer to a "summon" decision: the (first) placement whose summoning square is ``name``."""
    target = board.parse_square(name)
    return lambda d: next(pl for pl in d.options if pl.origin == target)
