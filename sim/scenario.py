"""Scenario notation: a short text that sets up a position, for tests and for checking a card by hand.

Example::

    # the Swordmaster next to an enemy common
    mode: high-form
    active: 1
    hand 1: imperial/swordmaster
    tasks: task/destruction, task/red-conquest, task/center-cross
    next task: task/imprisonment
    arena:
      a  b  c  d  e  f  g  h  i
    1 -- -- .. .. .. .. .. -- --
    2 -- .. .. .. .. .. .. .. --
    3 .. .. .. .. .. .. .. .. ..
    4 .. .. .. 1c .. .. .. .. ..
    5 .. .. .. .. 1h 2c .. .. ..
    6 .. .. .. 1c .. .. .. .. ..
    7 .. .. .. .. .. .. .. .. ..
    8 -- .. .. .. .. .. .. .. --
    9 -- -- .. .. .. .. .. -- --

Every field, its default and its errors: ``docs/scenario-notation.md``. Players 1 and 2 are seats 0 and 1; with
3 or 4 decks the scenario is a Deathmatch melee of players 1-4, with per-colour points (``points 1 in 2``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from sim import board
from sim.cards import Being, CardSet, Flare, Task, load_card_set
from sim.decisions import Strategy
from sim.errors import UserError
from sim.game import Game
from sim.ranks import LEGENDARY, RANK_LETTERS, RANK_NAMES
from sim.state import (
    DEATHMATCH,
    HIGH_FORM,
    LEGENDARY_PIECES,
    MAX_SEATS,
    MODES,
    TEAM_SEATS,
    StateBuilder,
    seat_name,
    stock_tokens,
)

COLUMNS = "abcdefghi"
_PLAYER_FIELD = re.compile(
    r"(hand|legends|flare|stock|deck|claimed|task points|deathmatch points|improvised"
    r"|frozen|pending|stasis|hound|gateway|possessed|removed|action loss) ([1-4])|deck [1-4] size"
    r"|points ([1-4]) in ([1-4])")
# a team game's team fields: legends A, stock B, ...
_TEAM_FIELD = re.compile(
    r"(legends|stock|claimed|task points|deathmatch points|gateway|possessed|removed|action loss) ([ab])")
# the per-seat fields of a team game (seats 1-4)
_TEAM_SEAT_FIELDS = ("hand", "flare", "deck", "frozen", "pending", "stasis", "hound")
_FIELDS = {"mode", "decks", "seed", "active", "turn", "actions", "ask", "tasks", "next task", "task deck", "teams",
           "control", "void squares", "extra destruction",
           "task deck size", "legend deck", "legend deck size", "flare deck", "flare deck size", "arena"}
_HIGH_FORM_ONLY = ("tasks", "next task", "task deck", "task deck size", "claimed", "task points")


class ScenarioError(UserError):
    def __init__(self, line: int, message: str, source: str = "scenario"):
        super().__init__(f"{source}: line {line}: {message}" if line else f"{source}: {message}")
        self.line = line



def _card_readers(f: Any, cards: CardSet) -> tuple[Callable[[int, str, type], Any],
                                                   Callable[[str, list, type, str], list]]:
    """``card(line, id, kind)``: the card of the set called ``id``, of ``kind``; ``take(key, pool, kind,
    where)``: the cards named by the field ``key``, taken out of ``pool`` in the order named. Both raise the
    scenario's error for the field's line."""

    def card(line: int, cid: str, kind: type) -> Any:
        c = cards.by_id.get(cid)
        if not isinstance(c, kind):
            raise f.error(line, f"unknown {kind.__name__.lower()} {cid!r}")
        return c

    def take(key: str, pool: list, kind: type, where: str) -> list:
        line, text = f.get(key)
        out = []
        for cid in _ids(text):
            c = card(line, cid, kind)
            if c not in pool:
                raise f.error(line, f"{cid} is not in {where} (named twice, or already placed by another field)")
            pool.remove(c)
            out.append(c)
        return out

    return card, take

def _ids(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


class _Fields:
    """The ``key: value`` lines of a scenario and its arena rows, with typed, validated access."""

    def __init__(self, text: str, source: str):
        self.source = source
        self.values: dict[str, tuple[int, str]] = {}
        self.arena: list[tuple[int, str]] = []
        arena_line = 0
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].rstrip()
            if not line.strip():
                continue
            if arena_line and len(self.arena) < 9:
                if not self.arena and line.split() == list(COLUMNS):
                    continue  # the column labels of a printed diagram
                self.arena.append((n, line))
                continue
            key, sep, value = line.partition(":")
            if not sep:
                raise self.error(n, f"expected 'key: value', got {line.strip()!r}")
            key = " ".join(key.lower().split())
            if key not in _FIELDS and not _PLAYER_FIELD.fullmatch(key) and not _TEAM_FIELD.fullmatch(key):
                raise self.error(n, f"unknown field {key!r} (see docs/scenario-notation.md)")
            first = arena_line if key == "arena" else self.values.get(key, (0,))[0]
            if first:
                raise self.error(n, f"{key!r} is given twice (first on line {first})")
            if key == "arena":
                if value.strip():
                    raise self.error(n, "the arena's rows go on the lines after 'arena:'")
                arena_line = n
                continue
            self.values[key] = (n, value.strip())
        if arena_line and len(self.arena) != 9:
            last = self.arena[-1][0] if self.arena else arena_line
            raise self.error(last, f"the arena needs 9 rows, found {len(self.arena)}")

    def error(self, line: int, message: str) -> ScenarioError:
        return ScenarioError(line, message, self.source)

    def get(self, key: str, default: str = "") -> tuple[int, str]:
        return self.values.get(key, (0, default))

    def number(self, key: str, default: int, least: int = 0, most: int | None = None) -> tuple[int, int]:
        line, text = self.get(key, str(default))
        if not text.isdigit() or int(text) < least or (most is not None and int(text) > most):
            bound = f"from {least} to {most}" if most is not None else f"at least {least}"
            raise self.error(line, f"{key} must be a whole number {bound}, got {text!r}")
        return line, int(text)


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
    f = _Fields(text, source)
    line, teams = f.get("teams", "no")
    if teams not in ("yes", "no"):
        raise f.error(line, f"teams must be yes or no, got {teams!r}")
    if teams == "yes":
        return _team_scenario(f, strategies, cards, strict)
    for key, (line, _) in f.values.items():
        if _TEAM_FIELD.fullmatch(key) or key == "control":
            raise f.error(line, f"{key!r} is a team game field: give teams: yes")

    melee = len(_ids(f.get("decks", "imperial, imperial")[1])) > 2
    line, mode = f.get("mode", DEATHMATCH if melee else HIGH_FORM)
    if mode not in MODES:
        raise f.error(line, f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    for key, (line, _) in f.values.items():
        field = _PLAYER_FIELD.fullmatch(key)
        name = field.group(1) if field and field.group(1) else key
        if mode == DEATHMATCH and name in _HIGH_FORM_ONLY:
            raise f.error(line, f"{key!r} is a High Form field (this scenario is deathmatch)")
        if mode == HIGH_FORM and name == "deathmatch points":
            raise f.error(line, f"{key!r} is a Deathmatch field (this scenario is high-form)")
    line, decks_text = f.get("decks", "imperial, imperial")
    decks = _ids(decks_text)
    if not 2 <= len(decks) <= MAX_SEATS or any(d not in cards.decks for d in decks):
        raise f.error(line, f"decks must name 2 to {MAX_SEATS} of {', '.join(sorted(cards.decks))} (3 or 4: a "
                            "Deathmatch melee)")
    n = len(decks)
    if n > 2 and mode != DEATHMATCH:
        raise f.error(f.get("mode")[0] or line, f"{n} players play a Deathmatch melee: give mode: deathmatch")
    for key, (kline, _) in f.values.items():
        field = _PLAYER_FIELD.fullmatch(key)
        seats = [int(x) for x in (field.groups() if field else ()) if x and x.isdigit()]
        if key.startswith("deck ") and key.endswith(" size"):
            seats = [int(key.split()[1])]
        if any(x > n for x in seats):
            raise f.error(kline, f"{key!r} names a player this {n}-player scenario does not have")
        name = field.group(1) if field else None
        if (name in ("improvised", "deathmatch points") or key.startswith("points ")) and (
                (n == 2) == (name != "deathmatch points")):
            raise f.error(kline, f"{key!r} is a {'melee' if n == 2 else 'duel'} field (this scenario has {n} "
                                 "players)")
    line, seed_text = f.get("seed", "0")
    if not seed_text.isdigit():
        raise f.error(line, "seed must be a non-negative integer")
    line, ask = f.get("ask", "choices")
    if ask not in ("choices", "all"):
        raise f.error(line, f"ask must be 'choices' or 'all', got {ask!r}")
    game = Game(cards, mode, decks, list(strategies)[:n], int(seed_text), strict=strict, ask_all=ask == "all")
    with game.edit() as s:
        line, active = f.get("active", "1")
        if active not in [str(p) for p in range(1, n + 1)]:
            raise f.error(line, f"active must be a player from 1 to {n}")
        _, s.turn = f.number("turn", 2, least=1)
        s.active = int(active) - 1
        s.first_player = s.record.first_player = (s.active - (s.turn - 1)) % n
        _, s.actions_left = f.number("actions", 1 if s.turn == 1 else 2)

        card, take = _card_readers(f, cards)

        for p in range(n):
            pool = list(cards.deck(decks[p]))
            who = f"player {p + 1}"
            s.hand[p] = take(f"hand {p + 1}", pool, Being, f"{who}'s deck ({decks[p]})")
            top = take(f"deck {p + 1}", pool, Being, f"{who}'s deck ({decks[p]}) outside the hand")
            s.frozen[p], s.hound_return[p], s.pending[p] = _personal_cards(f, str(p + 1), who, decks[p], pool,
                                                                          s.hand[p], take)
            s.rng.shuffle(pool)
            line, size = f.number(f"deck {p + 1} size", len(top) + len(pool), least=max(1, len(top)),
                                  most=len(top) + len(pool))
            keep = len(pool) - (size - len(top))  # the pool's first cards go to the discard pile
            s.deck[p], s.discarded[p] = pool[keep:] + top[::-1], pool[:keep]
        legends = list(cards.legends)
        flares = list(cards.flares)
        for p in range(n):
            s.legend_hand[p] = take(f"legends {p + 1}", legends, Being, "the legend deck")
            s.flare_hand[p] = take(f"flare {p + 1}", flares, Flare, "the flare deck")
            if len(s.flare_hand[p]) > 1:
                raise f.error(f.get(f"flare {p + 1}")[0], "a player holds at most one flare")
        names = [str(p + 1) for p in range(n)]
        _shared_cards(f, s, take, legends, flares, names)
        if n > 2:
            _melee_fields(f, s)

        _read_arena(f, s)
        held = _expansion_fields(f, s, names, [(str(p + 1), p, False) for p in range(n)])
        _stocks(f, s, names, [f"player {p + 1}" for p in range(n)], held)
    if strict:
        game.state.check_invariants()
    return game


def _team_scenario(f: _Fields, strategies: Sequence[Strategy], cards: CardSet, strict: bool) -> Game:
    """A team game's position (``teams: yes``): 4 decks by seat (players 1-4 are seats A1, B1, A2, B2), each
    seat's ``hand``/``deck``/``deck size``/``flare``; the team fields ``legends A``, ``stock B``, ``claimed A``,
    ``task points A``, ``deathmatch points B``; arena tokens ``Ac``/``Bh`` (team colours); ``active`` the seat
    whose turn it is (1-4 or A1/B1/A2/B2); ``control: passed`` when he has handed the turn to his teammate."""
    line, mode = f.get("mode", HIGH_FORM)
    if mode not in MODES:
        raise f.error(line, f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    line, decks_text = f.get("decks")
    decks = _ids(decks_text)
    if len(decks) != TEAM_SEATS or any(d not in cards.decks for d in decks):
        raise f.error(line, f"a team game's decks name 4 of {', '.join(sorted(cards.decks))}, one per seat A1, B1, "
                            "A2, B2")
    for key, (kline, _) in f.values.items():
        field, team = _PLAYER_FIELD.fullmatch(key), _TEAM_FIELD.fullmatch(key)
        name = field.group(1) if field else None
        if field and not (name in _TEAM_SEAT_FIELDS or (key.startswith("deck ") and key.endswith(" size"))):
            raise f.error(kline, f"{key!r}: in a team game this field is the team's (A or B), not a seat's")
        if team and mode == DEATHMATCH and team.group(1) in _HIGH_FORM_ONLY:
            raise f.error(kline, f"{key!r} is a High Form field (this scenario is deathmatch)")
        if team and mode == HIGH_FORM and team.group(1) == "deathmatch points":
            raise f.error(kline, f"{key!r} is a Deathmatch field (this scenario is high-form)")
        if mode == DEATHMATCH and key in _HIGH_FORM_ONLY:
            raise f.error(kline, f"{key!r} is a High Form field (this scenario is deathmatch)")
    line, seed_text = f.get("seed", "0")
    if not seed_text.isdigit():
        raise f.error(line, "seed must be a non-negative integer")
    line, ask = f.get("ask", "choices")
    if ask not in ("choices", "all"):
        raise f.error(line, f"ask must be 'choices' or 'all', got {ask!r}")
    if len(strategies) < TEAM_SEATS:
        raise UserError(f"a team scenario needs {TEAM_SEATS} strategies, got {len(strategies)}")
    game = Game(cards, mode, decks, list(strategies)[:TEAM_SEATS], int(seed_text), strict=strict,
                ask_all=ask == "all", teams=True)
    with game.edit() as s:
        t = s.teams
        assert t is not None
        line, active = f.get("active", "1")
        names = [seat_name(seat) for seat in range(TEAM_SEATS)]
        if active.upper() in names:
            seat = names.index(active.upper())
        elif active in ("1", "2", "3", "4"):
            seat = int(active) - 1
        else:
            raise f.error(line, f"active must be a seat from 1 to 4 (or A1, B1, A2, B2), got {active!r}")
        _, s.turn = f.number("turn", 2, least=1)
        s.active = seat % 2
        t.turn_seat = seat
        t.holder = [0, 0]
        t.holder[seat % 2] = seat
        t.holder[(seat + 1) % 2] = (seat + 1) % TEAM_SEATS  # the other team's next player holds its cards
        line, control = f.get("control", "kept")
        if control not in ("kept", "passed"):
            raise f.error(line, f"control must be kept or passed, got {control!r}")
        t.controller = (seat + 2) % TEAM_SEATS if control == "passed" else None
        first = (seat - (s.turn - 1)) % TEAM_SEATS
        s.first_player, s.record.first_player = first % 2, first
        _, s.actions_left = f.number("actions", 1 if s.turn == 1 else 2)

        card, take = _card_readers(f, cards)

        flares = list(cards.flares)
        personal: list[tuple[Being | None, Being | None, Being | None]] = []
        for p in range(TEAM_SEATS):
            who = f"seat {p + 1} ({seat_name(p)})"
            pool = list(cards.deck(decks[p]))
            hand = take(f"hand {p + 1}", pool, Being, f"{who}'s deck ({decks[p]})")
            top = take(f"deck {p + 1}", pool, Being, f"{who}'s deck ({decks[p]}) outside the hand")
            personal.append(_personal_cards(f, str(p + 1), who, decks[p], pool, hand, take))
            s.rng.shuffle(pool)
            line, size = f.number(f"deck {p + 1} size", len(top) + len(pool), least=max(1, len(top)),
                                  most=len(top) + len(pool))
            keep = len(pool) - (size - len(top))
            flare = take(f"flare {p + 1}", flares, Flare, "the flare deck")
            if len(flare) > 1:
                raise f.error(f.get(f"flare {p + 1}")[0], "a player holds at most one flare")
            deck, discarded = pool[keep:] + top[::-1], pool[:keep]
            side = p % 2
            frozen, hound, pending = personal[p]
            if t.holder[side] == p:
                s.deck[side], s.hand[side], s.flare_hand[side], s.discarded[side] = deck, hand, flare, discarded
                s.frozen[side], s.hound_return[side], s.pending[side] = frozen, hound, pending
            else:
                vars(t.bench[side]).update(deck_name=decks[p], deck=deck, hand=hand, flare_hand=flare,
                                           discarded=discarded, pending=pending, stasis=None, frozen=frozen,
                                           hound_return=hound)
        legends = list(cards.legends)
        for side, team in enumerate("ab"):
            s.legend_hand[side] = take(f"legends {team}", legends, Being, "the legend deck")
        _shared_cards(f, s, take, legends, flares, ["a", "b"])

        _read_arena(f, s)
        seats = [(str(p + 1), p % 2, t.holder[p % 2] != p) for p in range(TEAM_SEATS)]
        held = _expansion_fields(f, s, ["a", "b"], seats)
        _stocks(f, s, ["a", "b"], ["team A", "team B"], held)
    if strict:
        game.state.check_invariants()
    return game


def _shared_cards(f: _Fields, s: StateBuilder, take, legends: list, flares: list, names: list[str]) -> None:
    """The legend and flare decks (once the hands took theirs); in High Form the task row, the next task and
    each player's (a team game: team's) claimed tasks and task points; in a Deathmatch duel or team game the
    Deathmatch points. ``names`` are the players' (teams') field suffixes by colour."""
    legend_top = take("legend deck", legends, Being, "the legend deck outside the hands")
    flare_top = take("flare deck", flares, Flare, "the flare deck outside the hands")
    s.rng.shuffle(legends)
    s.rng.shuffle(flares)
    s.legend_deck, s.legend_discard = _cut(f, "legend deck", legends + legend_top[::-1], len(legend_top))
    s.flare_deck, s.flare_discard = _cut(f, "flare deck", flares + flare_top[::-1], len(flare_top))
    if s.mode == HIGH_FORM:
        tasks = list(s.cards.tasks)
        line, _ = f.get("tasks")
        s.task_row = take("tasks", tasks, Task, "the task deck")
        if len(s.task_row) > 3:
            raise f.error(line, f"the task row holds at most 3 tasks, got {len(s.task_row)}")
        line, _ = f.get("next task")
        nxt = take("next task", tasks, Task, "the task deck")
        if len(nxt) > 1:
            raise f.error(line, "next task names one task")
        s.next_task = nxt[0] if nxt else None
        for p, name in enumerate(names):
            s.claimed[p] = take(f"claimed {name}", tasks, Task, "the task deck")
            named = sum(t.points for t in s.claimed[p])
            line, points = f.number(f"task points {name}", named, least=named)
            s.task_points[p] = points
            s.unnamed_task_points[p] = points - named
            if points:
                s.record_points(0, p, "scenario", points)
        task_top = take("task deck", tasks, Task, "the task deck outside the row and the claimed tasks")
        s.rng.shuffle(tasks)
        s.task_deck, _ = _cut(f, "task deck", tasks + task_top[::-1], len(task_top))
    elif not s.melee:
        for p, name in enumerate(names):
            _, s.dm_points[p] = f.number(f"deathmatch points {name}", 0)
            if s.dm_points[p]:
                s.record_points(0, p, "scenario", s.dm_points[p])


def _stocks(f: _Fields, s: StateBuilder, names: list[str], who: list[str], held: list[list[int]]) -> None:
    """Each colour's stock and pieces in the game: what the arena, stasis and removed pieces leave, or the
    ``stock N`` field's (``names`` are the field suffixes by colour, ``who`` the colours as messages name them,
    ``held`` the pieces in stasis)."""
    for p, name in enumerate(names):
        bb = s.pieces[p]
        removed = s.removed[p]
        s.token_total[p] = stock_tokens(s.mode, s.seats) - removed[0]
        s.legend_total[p] = LEGENDARY_PIECES - removed[1]
        s.tokens[p] = s.token_total[p] - (bb[0] | bb[1]).bit_count() - held[p][0]
        s.legend_stock[p] = s.legend_total[p] - bb[LEGENDARY].bit_count() - held[p][1]
        if s.tokens[p] < 0 or s.legend_stock[p] < 0:
            raise f.error(0, f"{who[p]} has more pieces in the arena than the game has")
        line, stock = f.get(f"stock {name}")
        for part in stock.split():
            k, _, v = part.partition("=")
            if k not in ("tokens", "legends") or not v.isdigit():
                raise f.error(line, f"stock takes tokens=N legends=N, got {part!r}")
            if k == "tokens":
                s.token_total[p] += int(v) - s.tokens[p]
                s.tokens[p] = int(v)
            else:
                s.legend_total[p] += int(v) - s.legend_stock[p]
                s.legend_stock[p] = int(v)


def _one(f: _Fields, key: str, named: list) -> Any:
    """The one card ``key`` names (None when it is not given)."""
    if len(named) > 1:
        raise f.error(f.get(key)[0], f"{key} names one card, got {len(named)}")
    return named[0] if named else None


def _personal_cards(f: _Fields, n: str, who: str, deck: str, pool: list, hand: list, take) -> tuple:
    """A player's (or a team game seat's) expansion cards: the frozen effect in play (``frozen N``) and the
    Hell Hound waiting to go under the deck (``hound N``), both taken out of ``pool``, and the pending being
    (``pending N``), a card of ``hand``. Returns (frozen, hound, pending)."""
    frozen = _one(f, f"frozen {n}", take(f"frozen {n}", pool, Being, f"{who}'s deck ({deck}) outside the hand"))
    if frozen is not None and frozen.frozen is None:
        raise f.error(f.get(f"frozen {n}")[0], f"{frozen.id} has no frozen text")
    hound = _one(f, f"hound {n}", take(f"hound {n}", pool, Being, f"{who}'s deck ({deck}) outside the hand"))
    line, text = f.get(f"pending {n}")
    pending = None
    for cid in _ids(text):
        if pending is not None:
            raise f.error(line, f"pending {n} names one card, got {len(_ids(text))}")
        pending = next((c for c in hand if c.id == cid), None)
        if pending is None:
            raise f.error(line, f"{cid} is not in {who}'s hand (a pending being stays in the hand: name it in "
                                f"hand {n} too)")
        if pending.warp is None:
            raise f.error(line, f"{cid} has no warp text")
    return frozen, hound, pending


def _is_merchant(card: Being | None) -> bool:
    return card is not None and any(st.get("fn") == "etherweave.merchant_of_time_warp" for st in card.warp or ())


_STASIS = re.compile(r"(common|heroic|legendary) of (\S+)")


def _expansion_fields(f: _Fields, s: StateBuilder, names: list[str],
                      seats: list[tuple[str, int, bool]]) -> list[list[int]]:
    """The expansion state that needs the arena: pieces in stasis (``stasis N``), Gateways (``gateway N``),
    Possessed colours, removed pieces, action losses, and the active player's turn warps. ``names`` are the
    players' (or a team game's teams') field suffixes by colour; ``seats`` the personal holders as (field
    suffix, colour, benched). Returns the pieces held in stasis per colour: [tokens, legendary]."""
    held = [[0, 0] for _ in range(s.seats)]
    team = s.teams is not None

    def colour(line: int, key: str, text: str) -> int:
        t = text.strip().lower()
        if t not in names:
            choices = " or ".join(n.upper() for n in names) if team else f"a player from 1 to {len(names)}"
            raise f.error(line, f"{key}: expected {choices}, got {text.strip()!r}")
        return names.index(t)

    def holder(c: int) -> str:
        return f"team {'AB'[c]}" if team else f"player {c + 1}"

    stasis_of: list[tuple[int, int]] = []
    for n, c, benched in seats:
        m = s.teams.bench[c] if benched else None
        pending = m.pending if m is not None else s.pending[c]
        line, text = f.get(f"stasis {n}")
        if not text:
            continue
        match = _STASIS.fullmatch(" ".join(text.lower().split()))
        if match is None:
            raise f.error(line, f"stasis {n} takes a rank and its owner, like 'heroic of 2', got {text!r}")
        if not _is_merchant(pending):
            raise f.error(line, f"stasis {n}: a piece is in stasis only on a pending Merchant of Time (give pending "
                                f"{n}: etherweave/merchant-of-time)")
        owner, rank = colour(line, f"stasis {n}", match.group(2)), RANK_NAMES.index(match.group(1))
        held[owner][rank == LEGENDARY] += 1
        stasis_of.append((owner, rank))
        if m is not None:
            m.stasis = (owner, rank)
        else:
            s.stasis[c] = (owner, rank)
    for c, n in enumerate(names):
        line, text = f.get(f"gateway {n}")
        if text.lower() == "suspended":
            if not any(o == c and r != LEGENDARY for o, r in stasis_of):
                raise f.error(line, f"gateway {n}: a suspended Gateway waits for a common or heroic piece of "
                                    f"{holder(c)} in stasis (give stasis N: common of {n.upper() if team else n})")
            s.gateway_suspended[c] = True
        elif text:
            try:
                sq = board.parse_square(text)
            except ValueError as e:
                raise f.error(line, f"gateway {n}: {e}") from None
            if s.piece_at(sq) not in ((c, 0), (c, 1)):
                raise f.error(line, f"gateway {n}: the Gateway is a common or heroic piece of {holder(c)}, and {text} "
                                    "holds none")
            s.gateway[c] = sq
        line, text = f.get(f"possessed {n}")
        if text:
            other = colour(line, f"possessed {n}", text)
            if other == c:
                raise f.error(line, f"possessed {n}: a player is possessed by an opponent's colour")
            s.possessed[c] = other
        line, text = f.get(f"removed {n}")
        for part in text.split():
            k, _, v = part.partition("=")
            if k not in ("tokens", "legends") or not v.isdigit():
                raise f.error(line, f"removed takes tokens=N legends=N, got {part!r}")
            s.removed[c][k == "legends"] = int(v)
        line, text = f.get(f"action loss {n}")
        for x in _ids(text):
            other = colour(line, f"action loss {n}", x)
            if other == c:
                raise f.error(line, f"action loss {n} names the opponents whose Everfrost Sentinel cut the next turn "
                                    "to 1 action, not the player himself")
            s.action_loss[c] |= 1 << other
    _, s.void_squares = f.number("void squares", 0, most=8)
    _, s.extra_destruction = f.number("extra destruction", 0)
    return held


def render_expansion(state) -> list[str]:
    """The expansion state of ``state`` as scenario notation lines (``frozen 1: everfrost/ice-queen``,
    ``gateway 2: e5``, ...), the fields ``load_scenario`` reads back; none for a state without any."""
    s = state
    team = s.teams is not None
    lines = []
    holders = [(str(q + 1), s.member(q)) for q in range(s.players)] if team else \
        [(str(p + 1), None) for p in range(s.seats)]

    def colour(c: int) -> str:
        return "AB"[c] if team else str(c + 1)

    for i, (n, m) in enumerate(holders):
        frozen, hound = (m.frozen, m.hound_return) if m is not None else (s.frozen[i], s.hound_return[i])
        pending, stasis = (m.pending, m.stasis) if m is not None else (s.pending[i], s.stasis[i])
        if frozen is not None:
            lines.append(f"frozen {n}: {frozen.id}")
        if pending is not None:
            lines.append(f"pending {n}: {pending.id}")
        if stasis is not None:
            lines.append(f"stasis {n}: {RANK_NAMES[stasis[1]]} of {colour(stasis[0])}")
        if hound is not None:
            lines.append(f"hound {n}: {hound.id}")
    for c in range(s.seats):
        n = colour(c).lower() if team else colour(c)
        if s.gateway[c] is not None:
            lines.append(f"gateway {n}: {board.name(s.gateway[c])}")
        elif s.gateway_suspended[c]:
            lines.append(f"gateway {n}: suspended")
        if s.possessed[c] is not None:
            lines.append(f"possessed {n}: {colour(s.possessed[c])}")
        if any(s.removed[c]):
            lines.append(f"removed {n}: tokens={s.removed[c][0]} legends={s.removed[c][1]}")
        if s.action_loss[c]:
            lines.append(f"action loss {n}: " + ", ".join(colour(o) for o in range(s.seats)
                                                          if s.action_loss[c] >> o & 1))
    if s.void_squares:
        lines.append(f"void squares: {s.void_squares}")
    if s.extra_destruction:
        lines.append(f"extra destruction: {s.extra_destruction}")
    return lines


def _melee_fields(f: _Fields, s: StateBuilder) -> None:
    """A melee's points per colour (``points 1 in 2: 3``) and spent improvisations (``improvised 1: 2, 3``)."""
    for p in range(s.seats):
        for c in s.opponents(p):
            _, points = f.number(f"points {p + 1} in {c + 1}", 0)
            if points:
                s.colour_points[p][c] = points
                s.record_colour_points(0, p, c, "scenario", points)
        line, spent = f.get(f"improvised {p + 1}")
        for colour in _ids(spent):
            if colour not in [str(c + 1) for c in s.opponents(p)]:
                raise f.error(line, f"improvised {p + 1} names opponents of player {p + 1}, got {colour!r}")
            s.improvised[p][int(colour) - 1] = True
    for key, (line, _) in f.values.items():
        field = _PLAYER_FIELD.fullmatch(key)
        if field and field.group(3) and field.group(3) == field.group(4):
            raise f.error(line, f"{key!r}: a player scores only in his opponents' colours")


def _cut(f: _Fields, key: str, deck: list, named: int) -> tuple[list, list]:
    """``deck`` (top last) cut to ``key size`` cards from the top; returns (deck, the cards cut off)."""
    line, size = f.number(f"{key} size", len(deck), least=named, most=len(deck))
    return deck[len(deck) - size:], deck[:len(deck) - size]


def _read_arena(f: _Fields, s: StateBuilder) -> None:
    for y, (line, row) in enumerate(f.arena, 1):
        toks = row.split()
        if len(toks) == 10 and toks[0].isdigit():
            if int(toks[0]) != y:
                raise f.error(line, f"row label {toks[0]} where row {y} was expected")
            toks = toks[1:]
        if len(toks) != 9:
            raise f.error(line, f"an arena row needs 9 tokens, found {len(toks)}")
        for x, tok in enumerate(toks, 1):
            cut = not board.on_arena(x, y)
            if tok == "--":
                if not cut:
                    raise f.error(line, f"column {x} is a square of the arena, not a cut corner")
                continue
            if cut:
                raise f.error(line, f"column {x} is a cut corner: write '--'")
            if tok == "..":
                continue
            if s.team_game:
                if len(tok) != 2 or tok[0] not in "AB" or tok[1] not in RANK_LETTERS:
                    raise f.error(line, f"unknown token {tok!r} in column {x} (expected .. or a team A or B and a "
                                        "rank c/h/l, like Ac or Bh)")
                p, r = "AB".index(tok[0]), RANK_LETTERS.index(tok[1])
                s.pieces[p][r] |= 1 << board.square(x, y)
                continue
            players = "1234"[:s.seats]
            if len(tok) != 2 or tok[0] not in players or tok[1] not in RANK_LETTERS:
                raise f.error(line, f"unknown token {tok!r} in column {x} (expected .. or a player {players[0]}-"
                                    f"{players[-1]} and a rank c/h/l, like 1c or 2h)")
            p, r = int(tok[0]) - 1, RANK_LETTERS.index(tok[1])
            s.pieces[p][r] |= 1 << board.square(x, y)


def render_arena(state, coordinates: bool = True) -> str:
    """The arena in scenario notation; with ``coordinates``, column letters a-i above and row numbers 1-9
    on the left, naming squares as ``--at e5`` does (the parser accepts the diagram either way)."""
    rows = [f"  {'  '.join(COLUMNS)}"] if coordinates else []
    for y in range(1, 10):
        toks = [f"{y}"] if coordinates else []
        for x in range(1, 10):
            if not board.on_arena(x, y):
                toks.append("--")
                continue
            piece = state.piece_at(board.square(x, y))
            owner = "" if piece is None else "AB"[piece[0]] if state.team_game else str(piece[0] + 1)
            toks.append(".." if piece is None else f"{owner}{RANK_LETTERS[piece[1]]}")
        rows.append(" ".join(toks))
    return "\n".join(rows)
