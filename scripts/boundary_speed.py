"""CPU time (user+sys) across the Python/core boundary: a Python strategy against the same strategy played by
the core (``RandomStrategy`` and a subclass of it, which the core must ask in Python, choosing the same), and a
read-only rule query (``Game.legal_placements``) on games in progress. docs/core.md gives the figures."""

from __future__ import annotations

import argparse
import time

from sim.cards import load_card_set
from sim.game import Game
from sim.state import DEATHMATCH, HIGH_FORM
from strategies.core_player import CorePlayer
from strategies.random_player import RandomStrategy


class PythonRandom(RandomStrategy):
    """The random player asked in Python (a subclass is not played by the core)."""


class LookingRandom(RandomStrategy):
    """The random player asked in Python that reads its view at every decision (arena, hand, stock, score)."""

    def choose(self, view, decision) -> int:
        p = view.player
        view.pieces(p), view.occupied(), view.hand, view.stock(p), view.score(p), view.task_row, view.turn
        return super().choose(view, decision)


class PythonLookahead(CorePlayer):
    """A lookahead player asked in Python (a subclass is not played by the core), answering through the core
    (``sim.core.native_choose``), as Python wrappers of core players do."""


def builder(cls: type):
    return lambda seed: cls("builder", seed, {})


def _cpu() -> float:
    return time.process_time()  # user + system CPU time of this process


def games(make, n: int, cards, mode: str) -> float:
    """CPU seconds per game of ``n`` games between two players ``make(seed)``."""
    start = _cpu()
    for seed in range(n):
        Game(cards, mode, ("imperial", "highland"), [make(seed), make(seed + 1)], seed).play()
    return (_cpu() - start) / n


def placement_query(n: int, cards, make, turns: int) -> tuple[float, int]:
    """CPU seconds per ``legal_placements`` query on a game after ``turns`` turns between two players
    ``make(seed)`` (the hand card with the most placements), and how many it finds."""
    game = Game(cards, HIGH_FORM, ("imperial", "highland"), [make(1), make(2)], 7)
    game.setup()
    for _ in range(turns):
        game.play_turn()
    p = game.state.active
    card = max(game.state.hand[p], key=lambda c: len(game.legal_placements(p, c)))
    start = _cpu()
    for _ in range(n):
        found = game.legal_placements(p, card)
    return (_cpu() - start) / n, len(found)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--queries", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    cards = load_card_set()
    for mode in (HIGH_FORM, DEATHMATCH):
        core = min(games(RandomStrategy, args.games, cards, mode) for _ in range(args.repeats))
        py = min(games(PythonRandom, args.games, cards, mode) for _ in range(args.repeats))
        looking = min(games(LookingRandom, args.games, cards, mode) for _ in range(args.repeats))
        print(f"{mode}: core random {core * 1e6:.0f} us/game, Python random {py * 1e6:.0f} us/game "
              f"({py / core:.2f}x), reading its view {looking * 1e6:.0f} us/game ({looking / core:.2f}x)")
        n = max(1, args.games // 5)
        core = min(games(builder(CorePlayer), n, cards, mode) for _ in range(args.repeats))
        py = min(games(builder(PythonLookahead), n, cards, mode) for _ in range(args.repeats))
        print(f"{mode}: core builder {core * 1e6:.0f} us/game, builder asked in Python {py * 1e6:.0f} us/game "
              f"({py / core:.2f}x)")
    for label, make, turns in (("random players, 6 turns", RandomStrategy, 6),
                               ("builders, 12 turns", builder(CorePlayer), 12)):
        q, found = min(placement_query(args.queries, cards, make, turns) for _ in range(args.repeats))
        print(f"legal_placements ({label}, {found} found): {q * 1e6:.1f} us/query")



if __name__ == "__main__":
    main()
