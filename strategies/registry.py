"""Strategies by name, with their parameters checked."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from sim.decisions import Strategy
from sim.errors import UserError

DEFAULT_STRATEGY = "swift_tuned"
"""The default player: the strategy a study should use unless it studies the players themselves. A preset
shipped with the code (strategies/presets/swift_tuned.toml: ``swift`` with tuned parameters; issue 25)."""

StrategyFactory = Callable[[int, int, dict[str, Any]], Strategy]
STRATEGIES: dict[str, StrategyFactory] = {}


class StrategyConfigError(UserError):
    pass


def register(name: str) -> Callable[[StrategyFactory], StrategyFactory]:
    def add(factory: StrategyFactory) -> StrategyFactory:
        STRATEGIES[name] = factory
        return factory

    return add


def strategy_seed(game_seed: int, seat: int) -> int:
    """A player's own random stream, derived from the game seed and the seat (never from hidden state)."""
    return (game_seed * 0x9E3779B97F4A7C15 + seat * 0xBF58476D1CE4E5B9 + 1) & 0xFFFFFFFFFFFFFFFF


@cache
def _register_builtins() -> None:
    """``random`` (played by Python's stream) and every strategy the core declares parameters for, each a
    ``CorePlayer``."""
    from strategies import random_player  # noqa: F401  registers itself
    from strategies.core_player import CorePlayer
    from strategies.params import declared, resolve

    def core_player(name: str) -> StrategyFactory:
        return lambda seat, seed, params: CorePlayer(name, seed, resolve(name, params))

    for name in declared():
        STRATEGIES.setdefault(name, core_player(name))


def make_strategy(name: str, seat: int, game_seed: int, params: dict[str, Any] | None = None) -> Strategy:
    _register_builtins()
    label = None
    if name not in STRATEGIES:
        from strategies.tuned import load_preset, preset_names

        preset = load_preset(name)
        if preset is None:
            presets = f"; tuned presets: {', '.join(preset_names())}" if preset_names() else ""
            raise StrategyConfigError(f"unknown strategy {name!r}; known strategies: "
                                      f"{', '.join(sorted(STRATEGIES))}{presets}")
        if preset.player not in STRATEGIES:
            raise StrategyConfigError(f"preset {name!r}: unknown player {preset.player!r}")
        label, name, params = name, preset.player, {**preset.params, **(params or {})}
    player = STRATEGIES[name](seat, strategy_seed(game_seed, seat), dict(params or {}))
    if label is not None:
        player.label = label  # what a game record names: the preset, which says how it played
    return player
