"""Engine throughput: games per second on one core, per form and deck pairing (or, for a 3-4 player melee,
per deck table), of wall time and of CPU time.

On a machine shared with other work the wall figure falls with the load while the CPU figure (the user and
system time of this process, which plays the games) does not, so the spread check between pairings
(``spread``) is taken on CPU time."""

from __future__ import annotations

import platform
import time
from itertools import combinations_with_replacement
from typing import Any

from sim.cards import load_card_set
from sim.errors import UserError
from sim.game import Game
from sim.options import table_decks
from sim.state import DEATHMATCH, MODES


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


def pairings(text: str, decks: list[str], players: int = 2, expansions: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Deck pairings (``imperial-sylvan``) or, for more players, tables (``imperial-sylvan-highland``) of
    ``decks`` (the base game's) and ``expansions`` (decks of the card set that are not). "all": every ordered
    pairing of the base decks, or every table of them the boxed game can seat (one of each deck, Imperial
    twice); "expansions": every ordered pairing or seatable table with at least one expansion deck;
    "all+expansions": both."""
    if text in ("all", "expansions", "all+expansions"):
        every = [*decks, *expansions]
        if players == 2:
            out = [(a, b) for a in every for b in every]
        else:
            from pipelines.study import _fits_in_a_box

            out = [t for t in combinations_with_replacement(every, players) if _fits_in_a_box(t)]
        if text == "all":
            return [t for t in out if not set(t) & set(expansions)]
        if text == "expansions":
            return [t for t in out if set(t) & set(expansions)]
        return out
    out = []
    known = [*decks, *expansions]
    example = "-".join((["imperial", "sylvan", "highland", "imperial"])[:players])
    for part in text.split(","):
        names = table_decks(part)
        if len(names) != players or any(n not in known for n in names):
            what = "pairing" if players == 2 else f"table of {players}"
            raise UserError(f"--decks: {part!r} is not a {what} like {example} of {', '.join(known)}, or all, "
                            "expansions, all+expansions")
        out.append(names)
    return out


def _api_games(cards, mode: str, decks: tuple[str, ...], names: list[str], games: int, teams: bool = False) -> int:
    """Turns played in ``games`` games played through the Python API (``sim.game.Game``: the core plays the
    game, and its record and state come back to Python as objects)."""
    from strategies import make_strategy

    turns = 0
    for seed in range(games):
        players = [make_strategy(n, seat, seed) for seat, n in enumerate(names)]
        turns += Game(cards, mode, decks, players, seed, teams=teams).play().turns
    return turns


def _core_games(cards, mode: str, decks: tuple[str, ...], names: list[str], games: int, teams: bool = False) -> int:
    """Turns played in ``games`` games of the compiled core, records built but not handed to Python (a tuned
    preset plays as its player with its parameters)."""
    from sim import core
    from strategies.tuned import played_as

    seats = [played_as(n) for n in names]
    return core.play_many(cards, mode, decks, tuple(s for s, _ in seats), games, teams=teams,
                          params=tuple(p for _, p in seats))


ENGINES = {"core": _core_games, "api": _api_games}


def _prepare(cards, names: list[str]) -> None:
    """What the first timed pairing would otherwise pay for: the strategies' modules imported (an unknown
    name is the user's error, named as everywhere) and the card set loaded into the core."""
    from sim import core
    from strategies import make_strategy

    for seat, n in enumerate(names):
        make_strategy(n, seat, 0)
    core.core_cards(cards)

SPREAD_LIMIT = 2.0
"""Every pairing of a form should play within this factor of the fastest pairing of the same form and run."""


def spread(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per form, the fastest and slowest pairings by games per CPU second, their ratio, and whether every
    pairing is within ``SPREAD_LIMIT`` of the fastest."""
    out = []
    for form in dict.fromkeys(r["mode"] for r in results):
        rows = [r for r in results if r["mode"] == form]
        fastest = max(rows, key=lambda r: r["games_per_cpu_second"])
        slowest = min(rows, key=lambda r: r["games_per_cpu_second"])
        ratio = fastest["games_per_cpu_second"] / slowest["games_per_cpu_second"]
        out.append({"mode": form, "fastest": fastest["decks"], "slowest": slowest["decks"],
                    "ratio": round(ratio, 2), "within_2x": ratio <= SPREAD_LIMIT})
    return out


def run_bench(games: int, deck_text: str, strategy_names: list[str], engine: str = "core",
              players: int = 2, teams: bool = False) -> dict[str, Any]:
    """Games per second (of wall time and of this process's CPU time) of each form and pairing; with 3-4
    ``players``, of the melee (a Deathmatch) of each table; with ``teams``, of team games (4 seats, both
    forms) of each table. One strategy name is seated everywhere; otherwise one name per player."""
    if engine not in ENGINES:
        raise UserError(f"--engine: expected one of {', '.join(ENGINES)}, got {engine!r}")
    if players not in (2, 3, 4):
        raise UserError(f"--players: expected 2, 3 or 4, got {players}")
    play = ENGINES[engine]
    cards = load_card_set()
    from sim.cards import BASE_DECKS

    decks = [d for d in BASE_DECKS if d in cards.decks]
    expansions = tuple(d for d in cards.decks if d not in BASE_DECKS)
    if teams:
        players = 4
    if len(strategy_names) == 1:
        strategy_names = strategy_names * players
    if len(strategy_names) != players:
        raise UserError(f"--strategies: expected one name or {players} names separated by commas")
    _prepare(cards, strategy_names)
    results = []
    for mode in MODES if players == 2 or teams else (DEATHMATCH,):
        for table in pairings(deck_text, decks, players, expansions):
            start, start_cpu = time.perf_counter(), time.process_time()
            turns = play(cards, mode, table, strategy_names, games, teams=teams)
            elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
            form = f"team-{mode}" if teams else mode if players == 2 else f"melee-{players}"
            results.append({
                "engine": engine, "mode": form, "decks": "-".join(table),
                "strategies": ",".join(strategy_names), "games": games,
                "seconds": round(elapsed, 3), "games_per_second": round(games / elapsed, 1),
                "cpu_seconds": round(cpu, 3), "games_per_cpu_second": round(games / max(cpu, 1e-9), 1),
                "mean_turns": turns / games,
            })
    return {"machine": machine(), "results": results, "spread": spread(results)}
