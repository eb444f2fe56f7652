"""The fast placement search agrees with a cell-by-cell check of every placement."""

import random

from sim import board
from sim.cards import load_card_set
from sim.game import Game
from strategies import make_strategy


def _brute_force(game: Game, p: int, card) -> set:
    s = game.state
    out = set()
    for pl in card.placements:
        ok = True
        for sq in board.bits(pl.need_any):
            piece = s.piece_at(sq)
            need = 2 if pl.need_legendary >> sq & 1 else 1 if pl.need_heroic >> sq & 1 else 0
            if piece is None or piece[0] != p or piece[1] < need:
                ok = False
        at = s.piece_at(pl.origin)
        if at is not None and at[1] > card.rank:
            ok = False
        if ok and game._piece_obtainable(p, card.rank, pl, at):
            out.add(pl)
    return out


def test_fast_search_matches_brute_force_on_random_positions():
    cards = load_card_set()
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        game = Game(cards, "high-form", ["imperial", "imperial"],
                    [make_strategy("random", 0, seed), make_strategy("random", 1, seed)], seed)
        game.setup()
        s = game.state
        squares = list(board.SQUARES)
        rng.shuffle(squares)
        for sq in squares[: rng.randrange(10, 40)]:
            p, r = rng.randrange(2), rng.choice([0, 0, 0, 1, 1, 2])
            if s.can_have_piece(p, r):
                s._put(p, r, sq)
        if seed % 4 == 0:
            s.tokens[0] = 0
            s.legend_stock[0] = 0
        for card in cards.all_beings:
            fast = game.legal_placements(0, card)
            assert set(fast) == _brute_force(game, 0, card), card.id
            assert len(fast) == len(set(fast))
            assert game.has_placement(0, card) == bool(fast)
            checked += bool(fast)
    assert checked > 50  # the positions do allow many summons
