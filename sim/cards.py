"""The card set: beings, legends, flares and tasks, loaded from the project's TOML card files.

One file per deck (``imperial.toml``, ...), plus ``legends.toml``, ``flares.toml`` and ``tasks.toml``.
The built-in set lives in ``sim/cards/``; a designer's edited copy can be any directory with the same
files. Everything is validated on load and errors name the file and the field.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from sim.errors import UserError
from sim.files import FileInputError, read_text
from sim.patterns import Pattern, PatternError, Placement, Shape, parse_grid, placements_for, shapes_for
from sim.ranks import RANK_NAMES

BUILTIN_DIR = Path(__file__).parent / "cards"
BASE_DECKS = ("imperial", "highland", "sylvan")
TASK_CATEGORIES = ("destruction", "colored", "summoning", "pattern", "enemy")


class CardFileError(UserError):
    """A card file that cannot be used; the message names the file and the field."""

    def __init__(self, path: Path | str, where: str, message: str):
        super().__init__(f"{path}: {where}: {message}")
        self.path = str(path)
        self.where = where


Steps = tuple[dict[str, Any], ...]


@dataclass(frozen=True, eq=False)
class Being:
    id: str
    name: str
    deck: str  # a faction name, or "legend"
    rank: int
    pattern: Pattern
    effect: Steps
    describe: str
    index: int = -1  # position in CardSet.all_beings, set by the card set
    # Etherweave: the warp text (None: the card has none) and its description; a being summoned onto any
    # empty colourless square instead of its pattern (Time Traveler)
    warp: Steps | None = None
    warp_describe: str = ""
    summon_anywhere: bool = False
    # Everfrost: the frozen text's steps (None: the card has none) and its description
    frozen: Steps | None = None
    frozen_describe: str = ""

    @cached_property
    def placements(self) -> tuple[Placement, ...]:
        return placements_for(self.pattern)

    @cached_property
    def placement_index(self) -> dict[Placement, int]:
        """Each placement's index in ``placements`` (as the core names it)."""
        return {pl: i for i, pl in enumerate(self.placements)}

    @cached_property
    def shapes(self) -> tuple[Shape, ...]:
        return shapes_for(self.pattern, self.placements)

    @property
    def is_legend(self) -> bool:
        return self.deck == "legend"

    def __repr__(self) -> str:
        return f"<{self.id}>"


@dataclass(frozen=True, eq=False)
class FlareHalf:
    threshold: int
    effect: Steps
    describe: str


@dataclass(frozen=True, eq=False)
class Flare:
    id: str
    name: str
    upper: FlareHalf  # threshold: the opponent has at least this many more upgraded pieces
    lower: FlareHalf  # threshold: the opponent has at least this many more pieces
    index: int = -1

    def __repr__(self) -> str:
        return f"<{self.id}>"


@dataclass(frozen=True, eq=False)
class Task:
    id: str
    name: str
    category: str
    advanced: bool
    points: int
    condition: str  # name of a task condition of the core (core/engine/src/tasks.rs)
    describe: str
    index: int = -1

    def __repr__(self) -> str:
        return f"<{self.id}>"


@dataclass(eq=False)
class CardSet:
    decks: dict[str, tuple[Being, ...]]
    legends: tuple[Being, ...]
    flares: tuple[Flare, ...]
    tasks: tuple[Task, ...]
    source: str
    fingerprints: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        beings = [b for d in self.decks.values() for b in d] + list(self.legends)
        for i, b in enumerate(beings):
            object.__setattr__(b, "index", i)
        for i, f in enumerate(self.flares):
            object.__setattr__(f, "index", i)
        for i, t in enumerate(self.tasks):
            object.__setattr__(t, "index", i)
        self.all_beings: tuple[Being, ...] = tuple(beings)
        self.by_id: dict[str, Being | Flare | Task] = {c.id: c for c in (*beings, *self.flares, *self.tasks)}

    def deck(self, name: str) -> tuple[Being, ...]:
        if name not in self.decks:
            raise UserError(f"unknown deck {name!r}; known decks: {', '.join(sorted(self.decks))}")
        return self.decks[name]

    def fingerprint(self) -> str:
        """One hash over every card's definition."""
        h = hashlib.sha256()
        for k in sorted(self.fingerprints):
            h.update(f"{k}={self.fingerprints[k]}\n".encode())
        return h.hexdigest()[:16]


def _need(path: Path, where: str, table: dict, key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in table:
        raise CardFileError(path, where, f"missing field '{key}'")
    value = table[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise CardFileError(path, f"{where}.{key}", f"expected {names}, got {value!r}")
    return value


def _steps(path: Path, where: str, table: dict, key: str = "effect") -> Steps:
    from sim.steps import validate_steps

    raw = table.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(s, dict) for s in raw):
        raise CardFileError(path, f"{where}.{key}", "expected an array of step tables like { do = \"destroy\" }")
    try:
        validate_steps(raw)
    except ValueError as e:
        raise CardFileError(path, f"{where}.{key}", str(e)) from None
    return tuple(raw)


def _custom_functions(value: Any) -> list[str]:
    """Names of the custom effect functions a card's table refers to, at any depth."""
    if isinstance(value, dict):
        own = [value["fn"]] if value.get("do") == "custom" and isinstance(value.get("fn"), str) else []
        return own + [n for v in value.values() for n in _custom_functions(v)]
    if isinstance(value, list):
        return [n for v in value for n in _custom_functions(v)]
    return []


def _fingerprint(table: dict) -> str:
    """A hash of a card's definition: its table and the hash of the core's source of each custom function it
    uses (``sim.core.CUSTOM_FINGERPRINTS``: the function's own text in core/engine/src/effects/)."""
    from sim.core import CUSTOM_FINGERPRINTS

    h = hashlib.sha256(json.dumps(table, sort_keys=True).encode())
    for name in sorted(set(_custom_functions(table))):
        h.update(CUSTOM_FINGERPRINTS[name].encode())
    return h.hexdigest()[:16]


def _read(path: Path) -> dict:
    try:
        text = read_text(path)
    except FileInputError as e:
        raise CardFileError(path, "file", e.reason) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CardFileError(path, "syntax", str(e)) from None


def _load_beings(path: Path, deck: str, fingerprints: dict[str, str]) -> tuple[Being, ...]:
    data = _read(path)
    entries = data.get("being")
    if not isinstance(entries, list) or not entries:
        raise CardFileError(path, "being", "expected one or more [[being]] tables")
    out = []
    for i, t in enumerate(entries):
        where = f"being[{i}]"
        cid = _need(path, where, t, "id", str)
        where = f"being {cid!r}"
        name = _need(path, where, t, "name", str)
        rank_name = _need(path, where, t, "rank", str)
        if rank_name not in RANK_NAMES:
            raise CardFileError(path, f"{where}.rank", f"expected one of {', '.join(RANK_NAMES)}, got {rank_name!r}")
        try:
            pattern = parse_grid(_need(path, where, t, "pattern", str))
        except PatternError as e:
            raise CardFileError(path, f"{where}.pattern", str(e)) from None
        describe = _need(path, where, t, "describe", str)
        effect = _steps(path, where, t)
        warp = _steps(path, where, t, "warp") if "warp" in t else None
        warp_describe = _need(path, where, t, "warp_describe", str) if warp is not None else ""
        anywhere = t.get("summon_anywhere", False)
        if not isinstance(anywhere, bool):
            raise CardFileError(path, f"{where}.summon_anywhere", f"expected true or false, got {anywhere!r}")
        frozen, frozen_describe = _frozen(path, where, t)
        if cid in fingerprints:
            raise CardFileError(path, f"{where}.id", "this id is used twice in the card set")
        fingerprints[cid] = _fingerprint(t)
        out.append(Being(cid, name, deck, RANK_NAMES.index(rank_name), pattern, effect, describe, warp=warp,
                         warp_describe=warp_describe, summon_anywhere=anywhere, frozen=frozen,
                         frozen_describe=frozen_describe))
    return tuple(out)


def _frozen(path: Path, where: str, table: dict) -> tuple[Steps | None, str]:
    """An Everfrost card's frozen text: ``frozen`` (steps) with its ``frozen_describe``, both or neither."""
    if "frozen" not in table and "frozen_describe" not in table:
        return None, ""
    describe = _need(path, where, table, "frozen_describe", str)
    if "frozen" not in table:
        raise CardFileError(path, f"{where}.frozen", "missing field 'frozen' (the frozen text's steps)")
    return _steps(path, where, {"effect": table["frozen"]}), describe


def _load_flares(path: Path, fingerprints: dict[str, str]) -> tuple[Flare, ...]:
    data = _read(path)
    out = []
    for i, t in enumerate(data.get("flare", [])):
        cid = _need(path, f"flare[{i}]", t, "id", str)
        where = f"flare {cid!r}"
        halves = []
        for half in ("upper", "lower"):
            h = _need(path, where, t, half, dict)
            hw = f"{where}.{half}"
            halves.append(FlareHalf(_need(path, hw, h, "needs_more", int), _steps(path, hw, h),
                                    _need(path, hw, h, "describe", str)))
        fingerprints[cid] = _fingerprint(t)
        out.append(Flare(cid, _need(path, where, t, "name", str), halves[0], halves[1]))
    if not out:
        raise CardFileError(path, "flare", "expected one or more [[flare]] tables")
    return tuple(out)


def _load_tasks(path: Path, fingerprints: dict[str, str]) -> tuple[Task, ...]:
    from sim.core import CONDITION_NAMES as CONDITIONS

    data = _read(path)
    out = []
    for i, t in enumerate(data.get("task", [])):
        cid = _need(path, f"task[{i}]", t, "id", str)
        where = f"task {cid!r}"
        cat = _need(path, where, t, "category", str)
        if cat not in TASK_CATEGORIES:
            raise CardFileError(path, f"{where}.category", f"expected one of {', '.join(TASK_CATEGORIES)}")
        diff = _need(path, where, t, "difficulty", str)
        if diff not in ("simple", "advanced"):
            raise CardFileError(path, f"{where}.difficulty", "expected 'simple' or 'advanced'")
        cond = _need(path, where, t, "condition", str)
        if cond not in CONDITIONS:
            raise CardFileError(path, f"{where}.condition",
                                f"unknown condition {cond!r}; known: {', '.join(sorted(CONDITIONS))}")
        fingerprints[cid] = _fingerprint(t)
        out.append(Task(cid, _need(path, where, t, "name", str), cat, diff == "advanced",
                        _need(path, where, t, "points", int), cond, _need(path, where, t, "describe", str)))
    if not out:
        raise CardFileError(path, "task", "expected one or more [[task]] tables")
    return tuple(out)


_CACHE: dict[str, CardSet] = {}


def load_card_set(directory: Path | str | None = None) -> CardSet:
    """Load and validate a card set directory (the built-in one by default). Cached per directory."""
    d = Path(directory) if directory is not None else BUILTIN_DIR
    key = str(d.resolve())
    if key in _CACHE:
        return _CACHE[key]
    if not d.is_dir():
        found = "is a file" if d.exists() else "not found"
        raise CardFileError(d, "directory", f"{found} (expected a card-set directory with deck TOML files)")
    fingerprints: dict[str, str] = {}
    decks = {}
    # The base decks first (their card indices stay those of a set without expansions), then the others.
    for p in sorted(d.glob("*.toml"), key=lambda p: (p.stem not in BASE_DECKS, p.stem)):
        if p.stem in ("legends", "flares", "tasks"):
            continue
        decks[p.stem] = _load_beings(p, p.stem, fingerprints)
    if not decks:
        raise CardFileError(d, "directory", "holds no deck file (e.g. imperial.toml)")
    legends = _load_beings(d / "legends.toml", "legend", fingerprints)
    for b in legends:
        if b.rank != 2:
            raise CardFileError(d / "legends.toml", f"being {b.id!r}.rank", "a legend must be legendary")
    cs = CardSet(decks, legends, _load_flares(d / "flares.toml", fingerprints),
                 _load_tasks(d / "tasks.toml", fingerprints), key, fingerprints)
    _CACHE[key] = cs
    return cs
