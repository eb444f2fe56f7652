"""Scripted players. ``make_strategy(name, seat, seed, params)`` builds one by name."""

from strategies.registry import STRATEGIES, StrategyConfigError, make_strategy

__all__ = ["STRATEGIES", "StrategyConfigError", "make_strategy"]
