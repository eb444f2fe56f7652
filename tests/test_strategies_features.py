"""What the scripted strategies compute about a position agrees with the engine, on random positions."""

from __future__ import annotations

import random
from collections.abc import Iterator

from sim import board
from sim.cards import load_card_set
from sim.game import Game
from sim.ranks import COMMON
from sim.state import MODES, GameState
from sim.tasks import CONDITIONS
from strategies import make_strategy
from strategies.evaluate import TURN_TASKS
from strategies.geometry import around
from strategies.readiness import Position
from strategies.task_progress import progress


def _positions(games: int) -> Iterator[Game]:
    """Games paused at the end of every turn of random play (both forms, all base decks)."""
    cards = load_card_set()
    decks = [d for d in ("imperial", "highland", "sylvan") if d in cards.decks]
    rng = random.Random(3)
    for seed in range(games):
        players = [make_strategy("random", seat, seed) for seat in (0, 1)]
        game = Game(cards, MODES[seed % 2], [rng.choice(decks), rng.choice(decks)], players, seed)
        game.setup()
        while not game.state.over:
            game.play_turn()
            yield game


def test_around_is_every_square_within_one_step():
    rng = random.Random(1)
    for _ in range(200):
        bb = board.mask_of(rng.sample(board.SQUARES, rng.randrange(0, 8)))
        expected = bb
        for sq in board.bits(bb):
            expected |= board.ADJACENT[sq]
        assert around(bb) == expected


def test_pattern_cost_zero_exactly_when_the_engine_finds_a_placement():
    checked = improved = 0
    for game in _positions(30):
        s = game.state
        if s.counters.borrow_enemy_piece:
            continue
        for p in (0, 1):
            if s.tokens[p] == 0 or s.legend_stock[p] == 0 or s.pieces[p][2].bit_count() >= 3:
                continue  # the pattern cost does not look at the stock
            pos = Position(s.pieces[p], s.pieces[1 - p])
            for card in (*s.hand[p], *s.legend_hand[p]):
                cost = pos.best_cost(card)
                assert (cost == 0) == game.has_placement(p, card), (card, cost)
                checked += 1
                if cost == 1:
                    improved += _check_improving_squares(game, p, card, pos)
    assert checked > 500 and improved > 20


def _check_improving_squares(game: Game, p: int, card, pos: Position) -> int:
    """A common piece completes the pattern exactly on the squares said to improve it."""
    s: GameState = game.state
    squares = pos.improving_squares(card, 1)
    for sq in board.bits(s.empty()):
        s.pieces[p][COMMON] |= 1 << sq
        completes = game.has_placement(p, card)
        s.pieces[p][COMMON] &= ~(1 << sq)
        assert completes == bool(squares >> sq & 1), (card, board.name(sq))
    return 1


def _random_arenas(n: int) -> Iterator[GameState]:
    """Arenas with pieces scattered at random densities (to meet the rarer tasks too)."""
    game = Game(load_card_set(), MODES[0], ["imperial", "imperial"],
                [make_strategy("random", seat, 0) for seat in (0, 1)], 0)
    game.setup()
    s = game.state
    rng = random.Random(4)
    for _ in range(n):
        s.pieces = [[0, 0, 0], [0, 0, 0]]
        density = rng.random()
        for sq in board.SQUARES:
            if rng.random() < density:
                s.pieces[rng.randrange(2)][rng.choice((0, 0, 0, 1, 1, 2))] |= 1 << sq
        yield s


def test_task_progress_reaches_one_exactly_when_the_task_is_met_on_dense_arenas():
    arena_conditions = {t.condition for t in load_card_set().tasks if t.category not in TURN_TASKS}
    met = set()
    for s in _random_arenas(400):
        for p in (0, 1):
            for cond in arena_conditions:
                holds = CONDITIONS[cond](s, p)
                assert (progress(cond, s, p) == 1.0) == holds, cond
                if holds:
                    met.add(cond)
    assert met == arena_conditions


def test_task_progress_reaches_one_exactly_when_the_task_is_met():
    cards = load_card_set()
    rng = random.Random(9)
    arena_conditions = {t.condition for t in cards.tasks if t.category not in TURN_TASKS}
    turn_conditions = {t.condition for t in cards.tasks if t.category in TURN_TASKS}
    met = set()
    for game in _positions(20):
        s = game.state
        for p in (0, 1):
            for cond in arena_conditions:
                holds = CONDITIONS[cond](s, p)
                value = progress(cond, s, p)
                assert (value == 1.0) == holds and 0.0 <= value <= 1.0, cond
                if holds:
                    met.add(cond)
        p = s.active
        s.counters.destroyed = [rng.randrange(4) for _ in range(3)]
        s.counters.summoned = [(rng.choice(board.SQUARES), rng.randrange(3)) for _ in range(rng.randrange(4))]
        for cond in turn_conditions:
            assert (progress(cond, s, p) == 1.0) == CONDITIONS[cond](s, p), cond
            assert progress(cond, s, 1 - p) == 0.0
    assert len(met) >= 5
