"""The balance file of ``tashkalar tune``: which games, which targets, how big a search, and the values of named
cards that may change (docs/tuning.md). Every mistake is one line naming the file, the key and what was
expected."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.cards import BUILTIN_DIR, load_card_set
from sim.errors import UserError
from sim.files import read_text, read_toml
from sim.ranks import RANK_NAMES

FORMS = ("high-form", "deathmatch")
STEP_LISTS = ("effect", "frozen", "warp", "upper.effect", "lower.effect")  # where an effect step's number lives
NUMBER_FIELDS = ("points", "upper.needs_more", "lower.needs_more")
CELL_VALUES = (".", "c", "h", "l")  # a pattern cell: absent, or the least rank of the piece there
TOP_KEYS = {"name", "card_set", "forms", "decks", "targets", "search", "change"}
DISTANCE = re.compile(r"(within|exactly):(\d+)")  # a distance in a step's words: its number may change
PATH_TOKEN = re.compile(r"\.?([a-z_]+)|\[(\d+)\]")


class BalanceFileError(UserError):
    """A mistake in the balance file."""


@dataclass(frozen=True)
class Change:
    """One value of a card that the search may set: ``field`` is a path into the card's table
    (``effect[0].up_to``, ``rank``, ``points``, ``upper.needs_more``) or ``pattern`` with a cell's ``row`` and
    ``column`` (from 1, as the card files' errors count)."""

    card: str
    file: str  # the card file (of the tuned set) that holds the card
    field: str
    values: tuple[Any, ...]
    current: Any
    row: int = 0
    column: int = 0
    template: str = ""  # a distance in a step's words: "within:{}" (the value is the number)

    @property
    def label(self) -> str:
        where = f"pattern row {self.row} column {self.column}" if self.field == "pattern" else self.field
        return f"{self.card} {where}"


@dataclass(frozen=True)
class Skill:
    weaker: str
    stronger: str
    at_least: float


@dataclass(frozen=True)
class Targets:
    deck_band: float  # each deck's win rate per pairing and form within 0.5 +- this
    first_player_band: float  # the first player's win rate per form within 0.5 +- this
    change_cost: float  # added to the objective per value changed and per card changed
    skill: Skill | None


@dataclass(frozen=True)
class Balance:
    path: str
    name: str
    card_set: str  # the directory of the card set tuned
    files: dict[str, str]  # its card files, name -> text: what every candidate edits (a trial may run on a
    #                        node that has no such directory, and --resume refuses a set whose files changed)
    forms: tuple[str, ...]
    decks: tuple[str, ...]
    targets: Targets
    changes: tuple[Change, ...]
    trials: int
    games: tuple[int, ...]  # games per cell after each rung of successive halving (cumulative)
    reduction: int  # a rung keeps the best 1/reduction of the candidates that reach it
    verify: int  # proposals verified on fresh seeds
    verify_games: int  # games per cell of a verification study

    @property
    def pairings(self) -> tuple[tuple[str, str], ...]:
        """Every pairing of two different decks, in the order the file lists them."""
        return tuple((a, b) for i, a in enumerate(self.decks) for b in self.decks[i + 1:])


def _fail(path: Path, key: str, message: str) -> BalanceFileError:
    return BalanceFileError(f"{path}: {key}: {message}")


def _number(path: Path, key: str, value: Any, kind: type, low: float, high: float | None = None) -> Any:
    ok = isinstance(value, int | float) if kind is float else isinstance(value, int)
    if not ok or isinstance(value, bool) or value < low or (high is not None and value >= high):
        what = "a number" if kind is float else "an integer"
        span = f"from {low}" + (f" up to (not including) {high}" if high is not None else "")
        raise _fail(path, key, f"expected {what} {span}, got {value!r}")
    return kind(value)


def _table(path: Path, data: dict[str, Any], key: str, allowed: set[str]) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise _fail(path, key, f"expected a table [{key}], got {value!r}")
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise _fail(path, f"{key}.{unknown[0]}", f"unknown key; expected one of {', '.join(sorted(allowed))}")
    return value


def locate(table: dict[str, Any], field: str) -> Any:
    """The value at ``field`` (``effect[0].up_to``) in a card's table; KeyError when there is none."""
    tokens = PATH_TOKEN.findall(field)
    if "".join(f".{k}" if k else f"[{i}]" for k, i in tokens).lstrip(".") != field:
        raise KeyError(field)
    value: Any = table
    for key, index in tokens:
        if key:
            if not isinstance(value, dict) or key not in value:
                raise KeyError(field)
            value = value[key]
        else:
            if not isinstance(value, list) or int(index) >= len(value):
                raise KeyError(field)
            value = value[int(index)]
    return value


def card_tables(directory: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every card's TOML table and the file holding it, by card id."""
    out = {}
    for file in sorted(directory.glob("*.toml")):
        for kind in ("being", "flare", "task"):
            for table in read_toml(file).get(kind, []):
                out[table["id"]] = (file.name, table)
    return out


def _current(path: Path, key: str, spec: dict[str, Any], tables: dict[str, tuple[str, dict[str, Any]]]
             ) -> tuple[str, str, Any, int, int, str]:
    card, field = spec.get("card"), spec.get("field")
    if not isinstance(card, str) or card not in tables:
        raise _fail(path, f"{key}.card", f"expected the id of a card of the set (like \"imperial/herald\", "
                                         f"\"flare/01\", \"task/destruction\"), got {card!r}")
    table = tables[card][1]
    if field == "pattern":
        grid = table.get("pattern")
        if not isinstance(grid, str):
            raise _fail(path, f"{key}.field", f"{card} has no pattern")
        rows = [line.split() for line in grid.strip("\n").splitlines() if line.strip()]
        row, column = spec.get("row"), spec.get("column")
        if not isinstance(row, int) or isinstance(row, bool) or not 1 <= row <= len(rows):
            raise _fail(path, f"{key}.row", f"expected a row of {card}'s pattern, 1 to {len(rows)}, got {row!r}")
        if not isinstance(column, int) or isinstance(column, bool) or not 1 <= column <= len(rows[0]):
            raise _fail(path, f"{key}.column", f"expected a column of {card}'s pattern, 1 to {len(rows[0])}, "
                                               f"got {column!r}")
        token = rows[row - 1][column - 1]
        if token.startswith("@") or token.endswith("+"):
            raise _fail(path, f"{key}.row", f"row {row}, column {column} of {card} is {token!r}: the summoning "
                                            f"square and '+' squares cannot change")
        return card, field, token.rstrip("*") or ".", row, column, ""
    if not isinstance(field, str):
        raise _fail(path, f"{key}.field", f"expected a string like \"effect[0].up_to\", \"rank\", \"points\", "
                                          f"\"upper.needs_more\" or \"pattern\", got {field!r}")
    try:
        value = locate(table, field)
    except KeyError:
        raise _fail(path, f"{key}.field", f"{card} has no value at {field!r}") from None
    in_steps = any(re.fullmatch(re.escape(s) + r"\[\d+\]\..+", field) for s in STEP_LISTS)
    if field == "rank" and isinstance(value, str):
        return card, field, value, 0, 0, ""
    if (in_steps or field in NUMBER_FIELDS) and isinstance(value, int) and not isinstance(value, bool):
        return card, field, value, 0, 0, ""
    distance = DISTANCE.fullmatch(value) if in_steps and isinstance(value, str) else None
    if distance:
        return card, field, int(distance.group(2)), 0, 0, distance.group(1) + ":{}"
    raise _fail(path, f"{key}.field", f"{field!r} of {card} is {value!r}: expected a number in an effect step, a "
                                      f"distance (\"within:3\"), points, a flare's needs_more, the rank or a pattern "
                                      f"cell")


def _change(path: Path, key: str, spec: Any, tables: dict[str, tuple[str, dict[str, Any]]]) -> Change:
    if not isinstance(spec, dict):
        raise _fail(path, key, f"expected a [[change]] table with card, field and values, got {spec!r}")
    unknown = sorted(set(spec) - {"card", "field", "values", "row", "column"})
    if unknown:
        raise _fail(path, f"{key}.{unknown[0]}", "unknown key; expected card, field, values (row and column for "
                                                 "a pattern cell)")
    card, field, current, row, column, template = _current(path, key, spec, tables)
    values = spec.get("values")
    if field == "pattern":
        allowed: tuple[Any, ...] = CELL_VALUES
    elif field == "rank":
        allowed = tuple(RANK_NAMES)
    else:
        allowed = ()
    if not isinstance(values, list) or len(values) < 2 or len(set(map(repr, values))) != len(values):
        raise _fail(path, f"{key}.values", f"expected a list of at least two different values, got {values!r}")
    for v in values:
        bad = v not in allowed if allowed else not isinstance(v, int) or isinstance(v, bool) or v < 0
        if bad:
            expected = f"one of {', '.join(map(repr, allowed))}" if allowed else "whole numbers of at least 0"
            raise _fail(path, f"{key}.values", f"expected {expected}, got {v!r}")
    if current not in values:
        raise _fail(path, f"{key}.values", f"expected the card's current value {current!r} among them (no change "
                                           f"must be possible), got {values!r}")
    return Change(card, tables[card][0], field, tuple(values), current, row, column, template)


def _skill(path: Path, value: Any) -> Skill | None:
    if value is None:
        return None
    key = "targets.skill"
    if not isinstance(value, dict) or set(value) != {"weaker", "stronger", "at_least"}:
        raise _fail(path, key, f"expected {{ weaker = \"greedy\", stronger = \"builder\", at_least = 0.6 }}, "
                               f"got {value!r}")
    from strategies import make_strategy

    for side in ("weaker", "stronger"):
        if not isinstance(value[side], str):
            raise _fail(path, f"{key}.{side}", f"expected a strategy name, got {value[side]!r}")
        try:
            make_strategy(value[side], 0, 0)
        except UserError as e:
            raise _fail(path, f"{key}.{side}", str(e)) from None
    if value["weaker"] == value["stronger"]:
        raise _fail(path, key, "expected two different players")
    return Skill(value["weaker"], value["stronger"], _number(path, f"{key}.at_least", value["at_least"], float, 0.5, 1))


def _games(path: Path, value: Any) -> tuple[int, ...]:
    key = "search.games"
    if not isinstance(value, list) or not value or not all(isinstance(g, int) and not isinstance(g, bool)
                                                           for g in value):
        raise _fail(path, key, f"expected a list of games per cell after each rung, like [100, 300, 900], "
                               f"got {value!r}")
    if any(g < 2 or g % 2 for g in value) or any(b <= a for a, b in zip(value, value[1:], strict=False)):
        raise _fail(path, key, f"expected even numbers of at least 2, each larger than the one before (each rung "
                               f"adds games; each deal from both seats), got {value!r}")
    return tuple(value)


def load_balance(path: Path | str, cards_dir: Path | None = None) -> Balance:
    """The balance file at ``path``, checked (a BalanceFileError names the file, the key and what was
    expected); every allowed value of every change is loaded once in a card set to be sure it is legal.
    ``cards_dir`` (``--cards``) replaces the file's ``card_set``."""
    path = Path(path)
    data = read_toml(path)
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise _fail(path, unknown[0], f"unknown key; expected one of {', '.join(sorted(TOP_KEYS))}")
    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name:
        raise _fail(path, "name", f"expected a non-empty string, got {name!r}")
    card_set = data.get("card_set", "builtin")
    if not isinstance(card_set, str):
        raise _fail(path, "card_set", f"expected \"builtin\" or a card-set directory, got {card_set!r}")
    directory = BUILTIN_DIR if card_set == "builtin" else (path.parent / card_set).resolve()
    if cards_dir is not None:
        directory = cards_dir.resolve()
        if not directory.is_dir():
            raise UserError(f"--cards: no card-set directory {cards_dir}")
    if not directory.is_dir():
        raise _fail(path, "card_set", f"no card-set directory {directory}")
    cards = load_card_set(directory)
    forms = data.get("forms")
    if not isinstance(forms, list) or not forms or any(f not in FORMS for f in forms) or len(set(forms)) < len(forms):
        raise _fail(path, "forms", f"expected a list of different forms among {', '.join(FORMS)}, got {forms!r}")
    decks = data.get("decks")
    if not isinstance(decks, list) or len(decks) < 2 or len(set(map(str, decks))) < len(decks) or any(
            d not in cards.decks for d in decks):
        raise _fail(path, "decks", f"expected a list of at least two different decks of the card set "
                                   f"({', '.join(sorted(cards.decks))}), got {decks!r}")
    t = _table(path, data, "targets", {"deck_band", "first_player_band", "change_cost", "skill"})
    targets = Targets(_number(path, "targets.deck_band", t.get("deck_band", 0.05), float, 0, 0.5),
                      _number(path, "targets.first_player_band", t.get("first_player_band", 0.1), float, 0, 0.5),
                      _number(path, "targets.change_cost", t.get("change_cost", 0.01), float, 0),
                      _skill(path, t.get("skill")))
    s = _table(path, data, "search", {"trials", "games", "reduction", "verify", "verify_games"})
    verify_games = _number(path, "search.verify_games", s.get("verify_games", 1000), int, 2)
    if verify_games % 2:
        raise _fail(path, "search.verify_games", f"expected an even number (each deal from both seats), got "
                                                 f"{verify_games}")
    specs = data.get("change")
    if not isinstance(specs, list) or not specs:
        raise _fail(path, "change", "expected at least one [[change]] table (card, field, values)")
    tables = card_tables(directory)
    changes = tuple(_change(path, f"change[{i}]", spec, tables) for i, spec in enumerate(specs))
    seen: dict[tuple[str, str, int, int], int] = {}
    for i, c in enumerate(changes):
        where = (c.card, c.field, c.row, c.column)
        if where in seen:
            raise _fail(path, f"change[{i}]", f"{c.label} is already change[{seen[where]}]")
        seen[where] = i
    files = {p.name: read_text(p) for p in sorted(directory.glob("*.toml"))}
    balance = Balance(str(path), name, str(directory), files, tuple(forms), tuple(decks), targets, changes,
                      _number(path, "search.trials", s.get("trials", 30), int, 1),
                      _games(path, s.get("games", [100, 300])),
                      _number(path, "search.reduction", s.get("reduction", 3), int, 2),
                      _number(path, "search.verify", s.get("verify", 3), int, 0), verify_games)
    _check_values(path, balance)
    return balance


def _check_values(path: Path, balance: Balance) -> None:
    """Load every allowed value once (the others unchanged), so that an illegal value is named now."""
    import tempfile

    from pipelines.balance.candidates import write_cards

    with tempfile.TemporaryDirectory(prefix="tashkalar-tune-check-") as tmp:
        for i, c in enumerate(balance.changes):
            for j, v in enumerate(c.values):
                if v == c.current:
                    continue
                choice = tuple(v if k == i else d.current for k, d in enumerate(balance.changes))
                target = Path(tmp) / f"{i}-{j}"
                try:
                    write_cards(balance, choice, target)
                except UserError as e:
                    why = re.sub(rf"{re.escape(tmp)}\S*?([\w-]+\.toml)", r"\1", str(e))  # the file, not the scratch
                    raise _fail(path, f"change[{i}].values", f"{v!r} gives a card set that does not load: "
                                                             f"{why}") from None
