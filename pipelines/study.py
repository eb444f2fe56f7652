"""Study configs: loading and validating the TOML, and enumerating the study's games.

A study is a grid of cells (form x deck pairing x strategy pairing; a melee form, ``melee-3`` or ``melee-4``, x
deck table x strategy table; a team form, ``team-high-form`` or ``team-deathmatch``, x team deck table x team
strategy table), each played ``games_per_cell`` times. Game ids number the games cell by cell in
that fixed order; a game's seed is a pure function of the base seed and its id, and shards are fixed ranges
of ids. See docs/studies.md.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

from sim.cards import BASE_DECKS, CardFileError, CardSet, load_card_set
from sim.errors import UserError
from sim.files import FileInputError, read_toml
from sim.state import DEATHMATCH, MODES
from strategies.registry import DEFAULT_STRATEGY

BUILTIN = "builtin"
DEFAULT_SHARD_SIZE = 200
_LABEL = re.compile(r"^[A-Za-z0-9_.]+$")
_MASK64 = (1 << 64) - 1
_KEYS = ("name", "forms", "deck_pairings", "strategy_pairings", "deck_tables", "strategy_tables",
         "team_deck_tables", "team_strategy_tables", "games_per_cell", "base_seed", "shard_size", "seat_balance",
         "card_set", "players", "ablation")
MELEE_FORMS = {"melee-3": 3, "melee-4": 4}  # Deathmatch melees, by their number of players
TEAM_FORMS = {"team-high-form": "high-form", "team-deathmatch": "deathmatch"}  # 2 against 2, by engine mode
TEAM_SEATS = 4
FORMS = (*MODES, *MELEE_FORMS, *TEAM_FORMS)
TWICE_IN_A_BOX = "imperial"  # the base box holds two Imperial decks, one of each other deck
# "all" decks or cards are the base game's; this value of a deck key or of ablation.cards adds the expansion decks
ALL_DECKS = "all+expansions"


def form_players(form: str) -> int:
    """The number of players of a study form: 2 for the duel's forms, 4 for a team game."""
    return TEAM_SEATS if form in TEAM_FORMS else MELEE_FORMS.get(form, 2)


def form_sides(form: str) -> int:
    """The number of sides that play for the win: the players, except in a team game (2 teams)."""
    return 2 if form in TEAM_FORMS else form_players(form)


def form_mode(form: str) -> str:
    """The engine's mode of a study form: a melee is a Deathmatch; a team form is played in its mode."""
    return DEATHMATCH if form in MELEE_FORMS else TEAM_FORMS.get(form, form)


def team_cell_part(seats: tuple[str, ...]) -> str:
    """A team cell's decks or players by seat (team A in seats 0 and 2) as ``a1+a2-b1+b2``."""
    return f"{seats[0]}+{seats[2]}-{seats[1]}+{seats[3]}"
_PLAYER_KEYS = ("strategy", "params")
ABLATION_MODES = ("vanilla", "remove", "copy")
_ABLATION_KEYS = ("cards", "mode")


class StudyConfigError(UserError):
    """A study config that cannot be run; the message names the file and the key."""


def _mix64(z: int) -> int:
    """splitmix64's output function: a bijection on 64-bit integers that scatters nearby inputs."""
    z = (z + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def game_seed(base_seed: int, game_id: int) -> int:
    """The seed of game ``game_id``: depends on nothing else, and fits a signed 64-bit column."""
    return _mix64(_mix64(base_seed & _MASK64) ^ game_id) >> 1


TeamTable = tuple[tuple[str, str], tuple[str, str]]  # (team A's members, team B's members), first member first


def by_seat(table: TeamTable) -> tuple[str, str, str, str]:
    """A team table by seat: team A's first member in seat 0, team B's in seat 1, their teammates in 2 and 3."""
    (a1, a2), (b1, b2) = table
    return a1, b1, a2, b2


@dataclass(frozen=True)
class Player:
    """A strategy with its parameters, under the label the study's pairings use."""

    label: str
    strategy: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Cell:
    index: int
    form: str
    decks: tuple[str, ...]  # one per seat: a pairing in a duel, a table in a melee, (a1, b1, a2, b2) in a team game
    players: tuple[str, ...]  # player labels, in the order the config names them (a team game: by seat as decks)

    @property
    def name(self) -> str:
        if self.teams:
            return f"{self.form}|{team_cell_part(self.decks)}|{team_cell_part(self.players)}"
        return f"{self.form}|{'-'.join(self.decks)}|{'-'.join(self.players)}"

    @property
    def seats(self) -> int:
        return len(self.decks)

    @property
    def teams(self) -> bool:
        """A team game, 2 against 2: ``decks`` and ``players`` are by seat, team A in seats 0 and 2."""
        return self.form in TEAM_FORMS


@dataclass(frozen=True)
class Variant:
    """One ablation arm: ``card`` (a being, legend, flare or task id) made vanilla, removed, or copied (A/A).

    See docs/studies.md, "Ablation"."""

    card: str
    mode: str

    @property
    def name(self) -> str:
        """The ``variant`` column of the games table; "" is the unchanged card set."""
        return f"{self.mode}:{self.card}"


@dataclass(frozen=True)
class GameSpec:
    """One game of the study, seats resolved: ``decks[i]`` and ``players[i]`` sit in seat ``i``."""

    game_id: int
    cell: Cell
    seed: int
    swapped: bool  # seat 0 does not hold the cell's first-named side (rotation != 0)
    decks: tuple[str, ...]
    players: tuple[str, ...]
    variant: Variant | None = None  # the ablation arm; None for the unchanged card set
    rotation: int = 0  # seat i holds the cell's side (i + rotation) % seats

    def seat_of(self, side: int) -> int:
        """The seat holding the cell's side ``side`` (its position in the cell's pairing or table)."""
        return (side - self.rotation) % self.cell.seats


@dataclass(frozen=True)
class Study:
    name: str
    forms: tuple[str, ...]
    deck_pairings: tuple[tuple[str, str], ...]
    strategy_pairings: tuple[tuple[str, str], ...]
    players: dict[str, Player]
    games_per_cell: int
    base_seed: int
    shard_size: int
    seat_balance: bool
    card_set: str | None  # an absolute card-set directory; None for the built-in set
    ablation: tuple[Variant, ...] = ()  # one block of games per variant, after the unchanged block
    deck_tables: tuple[tuple[str, ...], ...] = ()  # melee forms: the decks at the table, 3 or 4 each
    strategy_tables: tuple[tuple[str, ...], ...] = ()  # melee forms: the player labels at the table
    team_deck_tables: tuple[TeamTable, ...] = ()  # team forms: (team A's two decks, team B's two decks)
    team_strategy_tables: tuple[TeamTable, ...] = ()  # team forms: the player labels, as the decks

    def form_sides(self, form: str) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
        """The deck and strategy sides of a form's cells: pairings for a duel, tables of its size for a melee,
        team tables by seat (a1, b1, a2, b2) for a team game."""
        if form in TEAM_FORMS:
            return (tuple(by_seat(t) for t in self.team_deck_tables),
                    tuple(by_seat(t) for t in self.team_strategy_tables))
        n = MELEE_FORMS.get(form)
        if n is None:
            return self.deck_pairings, self.strategy_pairings
        return (tuple(t for t in self.deck_tables if len(t) == n),
                tuple(t for t in self.strategy_tables if len(t) == n))

    @cached_property
    def cells(self) -> list[Cell]:
        combos = [(f, d, s) for f in self.forms for d in self.form_sides(f)[0] for s in self.form_sides(f)[1]]
        return [Cell(i, f, d, s) for i, (f, d, s) in enumerate(combos)]

    @property
    def base_games(self) -> int:
        """The games of one arm: every cell once."""
        return len(self.cells) * self.games_per_cell

    @property
    def total_games(self) -> int:
        return self.base_games * (1 + len(self.ablation))

    @property
    def shard_count(self) -> int:
        return -(-self.total_games // self.shard_size)

    def shard_games(self, shard: int) -> range:
        start = shard * self.shard_size
        return range(start, min(start + self.shard_size, self.total_games))

    def game(self, game_id: int) -> GameSpec:
        """Game ``game_id``; an ablation arm replays the unchanged block's game ``game_id % base_games``
        with the same seed (paired games)."""
        arm, base_id = divmod(game_id, self.base_games)
        cell_index, k = divmod(base_id, self.games_per_cell)
        cell = self.cells[cell_index]
        n = cell.seats
        rotation = k % n if self.seat_balance else 0
        decks = tuple(cell.decks[(i + rotation) % n] for i in range(n))
        players = tuple(cell.players[(i + rotation) % n] for i in range(n))
        variant = self.ablation[arm - 1] if arm else None
        return GameSpec(game_id, cell, game_seed(self.base_seed, base_id), rotation != 0, decks, players, variant,
                        rotation)

    def load_cards(self) -> CardSet:
        return load_card_set(self.card_set)

    def to_config(self) -> dict[str, Any]:
        """The study as plain JSON data, every default filled in; ``from_config`` reads it back."""
        return {
            "name": self.name,
            "forms": list(self.forms),
            "deck_pairings": [list(p) for p in self.deck_pairings],
            "strategy_pairings": [list(p) for p in self.strategy_pairings],
            "players": {p.label: {"strategy": p.strategy, "params": dict(p.params)}
                        for p in sorted(self.players.values(), key=lambda p: p.label)},
            "games_per_cell": self.games_per_cell,
            "base_seed": self.base_seed,
            "shard_size": self.shard_size,
            "seat_balance": self.seat_balance,
            "card_set": self.card_set or BUILTIN,
        } | ({"ablation": [[v.card, v.mode] for v in self.ablation]} if self.ablation else {}) | (
            {"deck_tables": [list(t) for t in self.deck_tables],
             "strategy_tables": [list(t) for t in self.strategy_tables]} if self.deck_tables else {}) | (
            {"team_deck_tables": [[list(a), list(b)] for a, b in self.team_deck_tables],
             "team_strategy_tables": [[list(a), list(b)] for a, b in self.team_strategy_tables]}
            if self.team_deck_tables else {})

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Study:
        """A study from ``to_config`` output (already validated: this is how workers receive it)."""
        return cls(
            name=config["name"],
            forms=tuple(config["forms"]),
            deck_pairings=tuple((a, b) for a, b in config["deck_pairings"]),
            strategy_pairings=tuple((a, b) for a, b in config["strategy_pairings"]),
            players={label: Player(label, p["strategy"], dict(p["params"]))
                     for label, p in config["players"].items()},
            games_per_cell=config["games_per_cell"],
            base_seed=config["base_seed"],
            shard_size=config["shard_size"],
            seat_balance=config["seat_balance"],
            card_set=None if config["card_set"] == BUILTIN else config["card_set"],
            ablation=tuple(Variant(c, m) for c, m in config.get("ablation", [])),
            deck_tables=tuple(tuple(t) for t in config.get("deck_tables", [])),
            strategy_tables=tuple(tuple(t) for t in config.get("strategy_tables", [])),
            team_deck_tables=tuple((tuple(a), tuple(b)) for a, b in config.get("team_deck_tables", [])),
            team_strategy_tables=tuple((tuple(a), tuple(b)) for a, b in config.get("team_strategy_tables", [])),
        )


class _Checker:
    """Typed access to the config's keys; every failure names the file and the key."""

    def __init__(self, path: Path, data: dict[str, Any]):
        self.path = path
        self.data = data

    def fail(self, key: str, message: str) -> StudyConfigError:
        return StudyConfigError(f"{self.path}: {key}: {message}")

    def integer(self, key: str, default: int | None = None, minimum: int | None = None) -> int:
        value = self.data.get(key, default)
        if value is None:
            raise self.fail(key, "missing; expected an integer")
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(key, f"expected an integer, got {value!r}")
        if minimum is not None and value < minimum:
            raise self.fail(key, f"expected an integer of at least {minimum}, got {value}")
        if not -(1 << 63) <= value < 1 << 63:
            raise self.fail(key, f"expected a 64-bit integer, got {value}")
        return value

    def boolean(self, key: str, default: bool) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, got {value!r}")
        return value

    def string(self, key: str, default: str) -> str:
        value = self.data.get(key, default)
        if not isinstance(value, str) or not value:
            raise self.fail(key, f"expected a non-empty string, got {value!r}")
        return value

    def pairings(self, key: str, names: list[str], what: str, *, closed: bool,
                 every: list[str] | None = None) -> tuple[tuple[str, str], ...]:
        """A list of pairs of names, or "all": every unordered pair of ``every`` (default ``names``), mirrors
        included.

        With ``closed``, every name must be one of ``names``; otherwise the caller checks them.
        """
        value = self.data.get(key)
        example = f'[["{names[0]}", "{names[-1]}"]]' if names else '[["a", "b"]]'
        if value is None:
            raise self.fail(key, f'missing; expected "all" or a list of pairs of {what} like {example}')
        if value == "all":
            pool = every if every is not None else names
            return tuple((a, b) for i, a in enumerate(pool) for b in pool[i:])
        if not isinstance(value, list) or not value:
            raise self.fail(key, f'expected "all" or a non-empty list of pairs of {what} like {example}, '
                                 f"got {value!r}")
        out: list[tuple[str, str]] = []
        for i, pair in enumerate(value):
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                raise self.fail(f"{key}[{i}]", f"expected a pair of {what} like {example[1:-1]}, "
                                               f"got {pair!r}")
            for name in pair:
                if closed and name not in names:
                    raise self.fail(f"{key}[{i}]", f"unknown name {name!r}; expected one of "
                                                   f"{', '.join(names)}")
            if (pair[0], pair[1]) in out:
                raise self.fail(f"{key}[{i}]", f"the pairing {pair!r} is listed twice")
            out.append((pair[0], pair[1]))
        return tuple(out)


def _forms(c: _Checker) -> tuple[str, ...]:
    value = c.data.get("forms")
    if not isinstance(value, list) or not value or not all(isinstance(f, str) for f in value):
        raise c.fail("forms", f"expected a non-empty list of game forms from {', '.join(FORMS)}, "
                              f"got {value!r}")
    for f in value:
        if f not in FORMS:
            raise c.fail("forms", f"unknown game form {f!r}; expected one of {', '.join(FORMS)}")
    if len(set(value)) != len(value):
        raise c.fail("forms", "a form is listed twice")
    return tuple(value)


def _tables(c: _Checker, key: str, names: list[str], sizes: list[int], what: str, *,
            closed: bool, allowed=lambda table: True, every: list[str] | None = None) -> tuple[tuple[str, ...], ...]:
    """A list of tables (lists of 3 or 4 names, one per seat), or "all": every multiset of ``every`` (default
    ``names``) of each size in ``sizes`` that ``allowed`` accepts."""
    value = c.data.get(key)
    example = f'[["{names[0]}", "{names[-1]}", "{names[0]}"]]' if names else '[["a", "b", "c"]]'
    if value is None:
        raise c.fail(key, f'missing; the melee forms need "all" or a list of tables of {what} like {example}')
    if value == "all":
        pool = every if every is not None else names
        return tuple(t for n in sizes for t in combinations_with_replacement(pool, n) if allowed(t))
    if not isinstance(value, list) or not value:
        raise c.fail(key, f'expected "all" or a non-empty list of tables of {what} like {example}, got {value!r}')
    out: list[tuple[str, ...]] = []
    for i, table in enumerate(value):
        if not (isinstance(table, list) and len(table) in (3, 4) and all(isinstance(x, str) for x in table)):
            raise c.fail(f"{key}[{i}]", f"expected a table of 3 or 4 {what} like {example[1:-1]}, got {table!r}")
        if len(table) not in sizes:
            raise c.fail(f"{key}[{i}]", f"a table of {len(table)} needs the form melee-{len(table)} in forms")
        for name in table:
            if closed and name not in names:
                raise c.fail(f"{key}[{i}]", f"unknown name {name!r}; expected one of {', '.join(names)}")
        if tuple(table) in out:
            raise c.fail(f"{key}[{i}]", f"the table {table!r} is listed twice")
        out.append(tuple(table))
    for n in sizes:
        if not any(len(t) == n for t in out):
            raise c.fail(key, f"no table of {n} for the form melee-{n}")
    return tuple(out)


def _team_tables(c: _Checker, key: str, names: list[str], what: str, *, closed: bool,
                 allowed=lambda seats: True, every: list[str] | None = None) -> tuple[TeamTable, ...]:
    """A list of team tables, or "all". A table is either two pairs, team A's members then team B's
    (``[["a", "b"], ["c", "d"]]``: a and b are teammates, a and c play first in their teams), or four names by
    seat (``["a", "c", "b", "d"]``: team A in seats 0 and 2). "all": every pair of member pairs (multisets of
    ``every``, default ``names``) whose four names ``allowed`` accepts."""
    value = c.data.get(key)
    a, b = (names[0], names[-1]) if names else ("a", "b")
    one = f'[["{a}", "{b}"], ["{b}", "{a}"]]'
    example = f"[{one}] (team A's pair, team B's pair)"
    if value is None:
        raise c.fail(key, f'missing; the team forms need "all" or a list of team tables of {what} like {example}, '
                          f'or of 4 {what} by seat like [["{a}", "{b}", "{b}", "{a}"]] (team A in seats 0 and 2)')
    if value == "all":
        pairs = list(combinations_with_replacement(every if every is not None else names, 2))
        return tuple(t for t in combinations_with_replacement(pairs, 2) if allowed(by_seat(t)))
    if not isinstance(value, list) or not value:
        raise c.fail(key, f'expected "all" or a non-empty list of team tables of {what} like {example}, '
                          f"got {value!r}")
    out: list[TeamTable] = []
    for i, table in enumerate(value):
        where = f"{key}[{i}]"
        if (isinstance(table, list) and len(table) == 4 and all(isinstance(x, str) for x in table)):
            team: TeamTable = ((table[0], table[2]), (table[1], table[3]))
        elif (isinstance(table, list) and len(table) == 2 and all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in table)):
            team = ((table[0][0], table[0][1]), (table[1][0], table[1][1]))
        else:
            raise c.fail(where, f"expected a team table: two pairs of {what} (team A's, team B's) like "
                                f"{one}, "
                                f"or 4 {what} by seat; got {table!r}")
        for name in by_seat(team):
            if closed and name not in names:
                raise c.fail(where, f"unknown name {name!r}; expected one of {', '.join(names)}")
        if team in out:
            raise c.fail(where, f"the team table {table!r} is listed twice")
        out.append(team)
    return tuple(out)
def _base_decks(cards) -> list[str]:
    """The decks "all" means in a study: the base game's (an expansion deck plays where it is named)."""
    return sorted(d for d in cards.decks if d in BASE_DECKS)


def _expansions(cards) -> set[str]:
    return set(cards.decks) - set(_base_decks(cards))


def _all_decks(c: _Checker, key: str, cards, base: list[str]) -> list[str]:
    """The decks "all" means for the deck key ``key``: the base game's, or with ``"all+expansions"`` every deck
    of the card set (the value then reads as "all")."""
    if c.data.get(key) != ALL_DECKS:
        return base
    c.data = c.data | {key: "all"}
    return sorted(cards.decks)


def _fits_in_a_box(table: tuple[str, ...]) -> bool:
    """A deck table the boxed game can seat: each deck once, the Imperial deck up to twice."""
    return all(n <= (2 if deck == TWICE_IN_A_BOX else 1) for deck, n in Counter(table).items())


def _card_set(c: _Checker) -> tuple[str | None, CardSet]:
    value = c.string("card_set", BUILTIN)
    directory = None if value == BUILTIN else str((c.path.parent / value).resolve())
    try:
        return directory, load_card_set(directory)
    except CardFileError as e:
        raise c.fail("card_set", str(e)) from None


def _declared_players(c: _Checker) -> dict[str, Player]:
    table = c.data.get("players", {})
    if not isinstance(table, dict):
        raise c.fail("players", f"expected tables like [players.LABEL], got {table!r}")
    out = {}
    for label, spec in table.items():
        key = f"players.{label}"
        if not _LABEL.match(label):
            raise c.fail(key, "a player label may hold only letters, digits, '_' and '.'")
        if not isinstance(spec, dict):
            raise c.fail(key, f'expected a table like {{ strategy = "random" }}, got {spec!r}')
        unknown = sorted(set(spec) - set(_PLAYER_KEYS))
        if unknown:
            raise c.fail(f"{key}.{unknown[0]}", f"unknown key; expected {' or '.join(_PLAYER_KEYS)}")
        strategy, params = spec.get("strategy"), spec.get("params", {})
        if not isinstance(strategy, str):
            raise c.fail(f"{key}.strategy", f"expected a strategy name, got {strategy!r}")
        if not isinstance(params, dict):
            raise c.fail(f"{key}.params", f"expected a table of parameters, got {params!r}")
        out[label] = Player(label, strategy, params)
    return out


def _strategy_pairings(c: _Checker, declared: dict[str, Player]) -> tuple[tuple[tuple[str, str], ...],
                                                                          dict[str, Player]]:
    """The pairings, and the players they use: declared labels, or strategy names without parameters."""
    if c.data.get("strategy_pairings") == "all" and not declared:
        raise c.fail("strategy_pairings", '"all" pairs the labels of [players.LABEL] tables; '
                                          "none is declared")
    pairings = c.pairings("strategy_pairings", list(declared) or [DEFAULT_STRATEGY], "strategies or player labels",
                          closed=False)
    return pairings, _seated_players(c, "strategy_pairings", pairings, declared)


def _strategy_tables(c: _Checker, declared: dict[str, Player],
                     sizes: list[int]) -> tuple[tuple[tuple[str, ...], ...], dict[str, Player]]:
    """The strategy tables, and the players they use (as ``_strategy_pairings``)."""
    if c.data.get("strategy_tables") == "all" and not declared:
        raise c.fail("strategy_tables", '"all" seats the labels of [players.LABEL] tables; none is declared')
    tables = _tables(c, "strategy_tables", sorted(declared) or [DEFAULT_STRATEGY], sizes, "strategies or player labels",
                     closed=False)
    return tables, _seated_players(c, "strategy_tables", tables, declared)


def _team_strategy_tables(c: _Checker, declared: dict[str, Player]) -> tuple[tuple[TeamTable, ...],
                                                                            dict[str, Player]]:
    """The team strategy tables, and the players they use (as ``_strategy_pairings``)."""
    if c.data.get("team_strategy_tables") == "all" and not declared:
        raise c.fail("team_strategy_tables", '"all" seats the labels of [players.LABEL] tables; none is declared')
    tables = _team_tables(c, "team_strategy_tables", sorted(declared) or [DEFAULT_STRATEGY],
                          "strategies or player labels", closed=False)
    return tables, _seated_players(c, "team_strategy_tables", tuple(by_seat(t) for t in tables), declared)


def _seated_players(c: _Checker, key: str, sides: tuple[tuple[str, ...], ...],
                    declared: dict[str, Player]) -> dict[str, Player]:
    """The players the pairings or tables of ``key`` seat, each one checked (and every declared one)."""
    from strategies import make_strategy

    for i, side in enumerate(sides):
        for label in side:
            if label not in declared and not _LABEL.match(label):
                raise c.fail(f"{key}[{i}]", f"{label!r} is not a strategy name or player label")
    used = sorted({label for side in sides for label in side})
    players = {label: declared.get(label, Player(label, label)) for label in used}
    for label, player in (declared | players).items():
        try:
            make_strategy(player.strategy, 0, 0, player.params)
        except UserError as e:
            raise c.fail(f"players.{label}" if label in declared else key, str(e)) from None
    return players


def _ablation(c: _Checker, cards: CardSet) -> tuple[Variant, ...]:
    """``[ablation] cards = [...], mode = "vanilla"``: one variant per card; ``DECK/*``, ``legend/*``,
    ``flare/*``, ``task/*`` name a whole family, "all" every being, legend and flare."""
    table = c.data.get("ablation")
    if table is None:
        return ()
    if not isinstance(table, dict):
        raise c.fail("ablation", f'expected a table like {{ cards = ["imperial/*"], mode = "vanilla" }}, '
                                 f"got {table!r}")
    unknown = sorted(set(table) - set(_ABLATION_KEYS))
    if unknown:
        raise c.fail(f"ablation.{unknown[0]}", f"unknown key; expected {' or '.join(_ABLATION_KEYS)}")
    mode = table.get("mode", "vanilla")
    if mode not in ABLATION_MODES:
        raise c.fail("ablation.mode", f"expected one of {', '.join(ABLATION_MODES)}, got {mode!r}")
    families: dict[str, list[str]] = {f"{d}/*": [b.id for b in cards.decks[d]] for d in sorted(cards.decks)}
    families |= {"legend/*": [b.id for b in cards.legends], "flare/*": [f.id for f in cards.flares],
                 "task/*": [t.id for t in cards.tasks]}
    value = table.get("cards")
    if value == "all":  # the base game's cards; an expansion deck's family is named
        value = [f for f in families if f != "task/*" and f[:-2] not in _expansions(cards)]
    elif value == ALL_DECKS:  # every being, legend and flare, the expansion decks' beings included
        value = [f for f in families if f != "task/*"]
    if not isinstance(value, list) or not value or not all(isinstance(x, str) for x in value):
        raise c.fail("ablation.cards", f'expected "all", "{ALL_DECKS}" or a non-empty list of card ids or families '
                                       f"({', '.join(families)}), got {value!r}")
    ids: list[str] = []
    for i, name in enumerate(value):
        if name in families:
            ids += [x for x in families[name] if x not in ids]
        elif name in cards.by_id:
            ids += [] if name in ids else [name]
        else:
            raise c.fail(f"ablation.cards[{i}]", f"unknown card or family {name!r}; families: "
                                                 f"{', '.join(families)}")
    if mode == "vanilla" and any(x.startswith("task/") for x in ids):
        raise c.fail("ablation.mode", 'a task has no effect to take away; use mode = "remove" for tasks')
    return tuple(Variant(x, mode) for x in ids)


def parse_study(data: dict[str, Any], path: Path) -> Study:
    """Validate a parsed study config; ``path`` names it in errors and anchors a relative card_set."""
    c = _Checker(path, data)
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise c.fail(unknown[0], f"unknown key; expected one of {', '.join(_KEYS)}")
    forms = _forms(c)
    card_dir, cards = _card_set(c)
    duel = any(f not in MELEE_FORMS and f not in TEAM_FORMS for f in forms)
    sizes = sorted(MELEE_FORMS[f] for f in forms if f in MELEE_FORMS)
    declared = _declared_players(c)
    decks: tuple[tuple[str, str], ...] = ()
    # "all" means the base decks: an expansion deck (nethervoid, ...) plays only where a study names it
    pairings: tuple[tuple[str, str], ...] = ()
    players: dict[str, Player] = {}
    # "all" decks means the base game's; expansion decks (sim/cards/etherweave.toml, ...) are named.
    base = _base_decks(cards) or sorted(cards.decks)
    if duel:
        decks = c.pairings("deck_pairings", sorted(cards.decks), "decks", closed=True,
                           every=_all_decks(c, "deck_pairings", cards, base))
        pairings, players = _strategy_pairings(c, declared)
    deck_tables: tuple[tuple[str, ...], ...] = ()
    strategy_tables: tuple[tuple[str, ...], ...] = ()
    if sizes:
        deck_tables = _tables(c, "deck_tables", sorted(cards.decks), sizes, "decks", closed=True,
                              allowed=_fits_in_a_box, every=_all_decks(c, "deck_tables", cards, base))
        strategy_tables, table_players = _strategy_tables(c, declared, sizes)
        players |= table_players
    else:
        for key in ("deck_tables", "strategy_tables"):
            if key in data:
                raise c.fail(key, "tables are for the melee forms (melee-3, melee-4); none is in forms")
    team_decks: tuple[TeamTable, ...] = ()
    team_strategies: tuple[TeamTable, ...] = ()
    if any(f in TEAM_FORMS for f in forms):
        team_decks = _team_tables(c, "team_deck_tables", sorted(cards.decks), "decks", closed=True,
                                  allowed=_fits_in_a_box, every=_all_decks(c, "team_deck_tables", cards, base))
        if not team_decks:
            raise c.fail("team_deck_tables", '"all" found no team table the card set\'s decks can seat (4 decks: '
                                             "each once, the Imperial deck up to twice); list the tables")
        team_strategies, team_players = _team_strategy_tables(c, declared)
        players |= team_players
    else:
        for key in ("team_deck_tables", "team_strategy_tables"):
            if key in data:
                raise c.fail(key, "team tables are for the team forms (team-high-form, team-deathmatch); none is "
                                  "in forms")
    seat_balance = c.boolean("seat_balance", True)
    per_cell = c.integer("games_per_cell", minimum=1)
    for seats in sorted({form_players(f) for f in forms}):
        if seat_balance and per_cell % seats:
            team = seats == TEAM_SEATS and any(f in TEAM_FORMS for f in forms)
            expected = ("an even number with seat_balance on (half the games are played from each seat)"
                        if seats == 2 else
                        "a multiple of 4 with seat_balance on (the team cells rotate their teams and members "
                        "through every seat)" if team else
                        f"a multiple of {seats} with seat_balance on (the {seats}-player cells rotate their sides "
                        "through every seat)")
            raise c.fail("games_per_cell", f"expected {expected}, got {per_cell}")
    return Study(
        name=c.string("name", path.stem),
        forms=forms,
        deck_pairings=decks,
        strategy_pairings=pairings,
        players=players,
        games_per_cell=per_cell,
        base_seed=c.integer("base_seed"),
        shard_size=c.integer("shard_size", DEFAULT_SHARD_SIZE, minimum=1),
        seat_balance=seat_balance,
        card_set=card_dir,
        ablation=_ablation(c, cards),
        deck_tables=deck_tables,
        strategy_tables=strategy_tables,
        team_deck_tables=team_decks,
        team_strategy_tables=team_strategies,
    )


def load_study(path: Path | str) -> Study:
    """Read and validate a study TOML file."""
    path = Path(path)
    try:
        data = read_toml(path)
    except FileInputError as e:
        raise StudyConfigError(str(e)) from None
    return parse_study(data, path)
