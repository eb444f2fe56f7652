"""The fast placement search agrees with an independent oracle on random positions.

The oracle uses nothing of the engine's pattern code: it reads the printed patterns from the reference
(``/work/shared/reference/cards.json``, the arena from ``board.json``), turns and mirrors them itself, and
applies RULES.md's summoning conditions square by square, with the rulings of docs/rules-decisions.md on
where the being's piece may come from. The engine only supplies the random position (its arena and stocks).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from sim.cards import load_card_set
from sim.game import Game
from sim.patterns import Placement
from sim.state import MAX_LEGENDS_IN_ARENA
from strategies import make_strategy

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"  # ../shared, as tests/ruleset.py
RANKS = {"common": 0, "heroic": 1, "legendary": 2}
LEGENDARY = 2
WIDTH = 9  # squares are numbered (y - 1) * 9 + (x - 1) (sim/board.py, after board.json's [x, y])

Key = tuple[int, frozenset, frozenset, frozenset]  # origin, {(square, rank)}, marked, marked_other


def _reference() -> tuple[dict[str, dict], set[tuple[int, int]]]:
    cards = json.loads((REFERENCE / "cards.json").read_text())
    printed = {c["id"]: c for deck in cards["decks"].values() for c in deck["cards"]}
    printed |= {c["id"]: c for c in cards["legends"]}
    arena = {(x, y) for x, y in json.loads((REFERENCE / "board.json").read_text())["squares"]}
    return printed, arena


def _turn(dx: int, dy: int, quarter_turns: int, mirror: bool) -> tuple[int, int]:
    """A quarter turn clockwise with y growing downward maps (1, 0) (east) to (0, 1) (south)."""
    if mirror:
        dx = -dx
    for _ in range(quarter_turns):
        dx, dy = -dy, dx
    return dx, dy


class Oracle:
    """Every placement of a printed pattern, and the summoning rules checked one square at a time."""

    def __init__(self) -> None:
        self.printed, self.arena = _reference()
        self._shapes: dict[str, list[Key]] = {}

    def _square(self, x: int, y: int) -> int | None:
        return (y - 1) * WIDTH + (x - 1) if (x, y) in self.arena else None

    def shapes(self, card_id: str) -> list[Key]:
        """Every (origin, cells, marked, marked_other) of the card's 8 orientations that lies on the arena."""
        if card_id in self._shapes:
            return self._shapes[card_id]
        card = self.printed[card_id]
        out: list[Key] = []
        for quarter_turns in range(4):
            for mirror in (False, True):
                def at(x: int, y: int, d: list[int], q: int = quarter_turns, m: bool = mirror) -> int | None:
                    dx, dy = _turn(d[0], d[1], q, m)
                    return self._square(x + dx, y + dy)

                for x, y in sorted(self.arena):
                    cells = [(at(x, y, c), RANKS[c[2]]) for c in card["pattern"]]
                    if any(sq is None for sq, _ in cells):
                        continue
                    marked = {at(x, y, d) for d in card.get("marked", [])} - {None}
                    other = {at(x, y, d) for d in card.get("marked_other", [])} - {None}
                    out.append((self._square(x, y), frozenset(cells), frozenset(marked), frozenset(other)))
        self._shapes[card_id] = out
        return out

    def legal(self, game: Game, p: int, card_id: str) -> set[Key]:
        s = game.state
        rank = RANKS[self.printed[card_id]["rank"]]
        pieces = {sq: s.piece_at(sq) for x, y in self.arena if s.piece_at(sq := self._square(x, y)) is not None}
        out = set()
        for key in self.shapes(card_id):
            origin, cells, _, _ = key
            if not all(pieces.get(sq, (None, -1))[0] == p and pieces[sq][1] >= r for sq, r in cells):
                continue  # a pattern cell without your piece of at least its rank
            at = pieces.get(origin)
            if at is not None and at[1] > rank:
                continue  # a higher-ranked piece on the summoning square forbids the summon
            if self._piece_available(s, p, rank, pieces, {sq for sq, _ in cells} | {origin}, at):
                out.add(key)
        return out

    @staticmethod
    def _piece_available(s, p: int, rank: int, pieces: dict, used: set[int], at: tuple[int, int] | None) -> bool:
        """From the stock (including the piece the summon destroys on its own square), or else one of your
        pieces of that kind elsewhere (outside the pattern) taken back; never a fourth legendary piece."""
        legendary = rank == LEGENDARY
        freed = at is not None and at[0] == p and (at[1] == LEGENDARY) == legendary
        if legendary:
            in_arena = sum(1 for o, r in pieces.values() if o == p and r == LEGENDARY) - freed
            if s.legend_stock[p] + freed > 0 and in_arena < 3:
                return True
        elif s.tokens[p] + freed > 0:
            return True
        return any(o == p and (r == LEGENDARY) == legendary for sq, (o, r) in pieces.items() if sq not in used)


def _key(pl: Placement) -> Key:
    def squares(mask: int) -> set[int]:
        return {sq for sq in range(WIDTH * WIDTH) if mask >> sq & 1}

    cells = {(sq, 2 if sq in squares(pl.need_legendary) else 1 if sq in squares(pl.need_heroic) else 0)
             for sq in squares(pl.need_any)}
    return pl.origin, frozenset(cells), frozenset(squares(pl.marked)), frozenset(squares(pl.marked_other))


@pytest.fixture(scope="module")
def oracle() -> Oracle:
    return Oracle()


def test_the_oracle_turns_patterns_as_the_rules_say(oracle: Oracle) -> None:
    assert _turn(1, 0, 1, False) == (0, 1)  # east turns to south
    assert _turn(1, -2, 0, True) == (-1, -2)
    assert len({_turn(1, 2, q, m) for q in range(4) for m in (False, True)}) == 8
    # The Swordmaster (a piece above and one below the summoning square) has 2 distinct orientations,
    # each made by 4 of the 8 turns and mirrors.
    shapes = oracle.shapes("imperial/swordmaster")
    assert len({k[1:] for k in shapes if k[0] == 4 * WIDTH + 4}) == 2  # e5, the centre
    assert len(shapes) == len(set(shapes)) * 4


def test_every_being_has_the_printed_placements(oracle: Oracle) -> None:
    cards = load_card_set()
    for card in cards.all_beings:
        assert {_key(pl) for pl in card.placements} == set(oracle.shapes(card.id)), card.id
        assert len(card.placements) == len({_key(pl) for pl in card.placements}), card.id


def test_fast_search_matches_the_oracle_on_random_positions(oracle: Oracle) -> None:
    cards = load_card_set()
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        game = Game(cards, "high-form", ["imperial", "imperial"],
                    [make_strategy("random", 0, seed), make_strategy("random", 1, seed)], seed)
        game.setup()
        squares = sorted((y - 1) * WIDTH + (x - 1) for x, y in oracle.arena)
        rng.shuffle(squares)
        with game.edit() as s:
            for sq in squares[: rng.randrange(10, 40)]:
                p, r = rng.randrange(2), rng.choice([0, 0, 0, 1, 1, 2])
                stock = s.legend_stock if r == LEGENDARY else s.tokens
                if stock[p] > 0 and (r != LEGENDARY or s.pieces[p][r].bit_count() < MAX_LEGENDS_IN_ARENA):
                    s.pieces[p][r] |= 1 << sq  # a piece from the stock onto the square
                    stock[p] -= 1
            if seed % 4 in (0, 2):  # an empty stock: the piece must come from the arena
                s.tokens[0] = 0
            if seed % 4 == 0:
                s.legend_stock[0] = 0
        for card in cards.all_beings:
            if card.summon_anywhere:
                continue  # Time Traveler: placed apart from its pattern (tests/test_etherweave.py)
            fast = game.legal_placements(0, card)
            assert {_key(pl) for pl in fast} == oracle.legal(game, 0, card.id), card.id
            assert len(fast) == len(set(fast))
            assert game.has_placement(0, card) == bool(fast)
            checked += bool(fast)
    assert checked > 50  # the positions do allow many summons
