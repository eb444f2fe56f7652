"""Engine throughput: games per second on one core, per form and deck pairing."""

from __future__ import annotations

import platform
import time
from typing import Any

from sim.cards import load_card_set
from sim.errors import UserError
from sim.game import Game
from sim.state import MODES


def machine() -> str:
    import os

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def pairings(text: str, decks: list[str]) -> list[tuple[str, str]]:
    if text == "all":
        return [(a, b) for a in decks for b in decks]
    out = []
    for part in text.split(","):
        a, sep, b = part.strip().partition("-")
        if not sep or a not in decks or b not in decks:
            raise UserError(f"--decks: {part!r} is not a pairing like imperial-sylvan of {', '.join(decks)}")
        out.append((a, b))
    return out


def _api_games(cards, mode: str, decks: tuple[str, str], names: list[str], games: int) -> int:
    """Turns played in ``games`` games played through the Python API (``sim.game.Game``: the core plays the
    game, and its record and state come back to Python as objects)."""
    from strategies import make_strategy

    turns = 0
    for seed in range(games):
        players = [make_strategy(n, seat, seed) for seat, n in enumerate(names)]
        turns += Game(cards, mode, decks, players, seed).play().turns
    return turns


def _core_games(cards, mode: str, decks: tuple[str, str], names: list[str], games: int) -> int:
    """Turns played in ``games`` games of the compiled core, records built but not handed to Python."""
    from sim import core
    from strategies import make_strategy

    for seat, n in enumerate(names):
        make_strategy(n, seat, 0)  # an unknown name is the user's error, named as everywhere

    return core.play_many(cards, mode, decks, (names[0], names[1]), games)


ENGINES = {"core": _core_games, "api": _api_games}


def run_bench(games: int, deck_text: str, strategy_names: list[str], engine: str = "core") -> dict[str, Any]:
    if engine not in ENGINES:
        raise UserError(f"--engine: expected one of {', '.join(ENGINES)}, got {engine!r}")
    play = ENGINES[engine]
    cards = load_card_set()
    from sim.cards import BASE_DECKS

    decks = [d for d in BASE_DECKS if d in cards.decks]
    if len(strategy_names) != 2:
        raise UserError("--strategies: expected two names separated by a comma")
    results = []
    for mode in MODES:
        for a, b in pairings(deck_text, decks):
            start = time.perf_counter()
            turns = play(cards, mode, (a, b), strategy_names, games)
            elapsed = time.perf_counter() - start
            results.append({
                "engine": engine, "mode": mode, "decks": f"{a}-{b}", "strategies": ",".join(strategy_names),
                "games": games,
                "seconds": round(elapsed, 3), "games_per_second": round(games / elapsed, 1),
                "mean_turns": turns / games,
            })
    return {"machine": machine(), "results": results}
