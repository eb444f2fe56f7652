"""``random``: uniform over the legal options of every decision. The baseline and the fuzzer."""

from __future__ import annotations

import random
from typing import Any

from sim.decisions import Decision, PlayerView
from strategies.registry import StrategyConfigError, register


class RandomStrategy:
    name = "random"
    native = True  # the core plays it itself, drawing from this object's stream (sim.core.seats)

    def __init__(self, seed: int):
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView, decision: Decision) -> int:
        return self._rng.randrange(len(decision.options))

    def native_player(self) -> tuple[str, dict[str, Any], random.Random]:
        return "random", {}, self._rng


@register("random")
def _make(seat: int, seed: int, params: dict[str, Any]) -> RandomStrategy:
    if params:
        raise StrategyConfigError(f"strategy 'random' takes no parameters, got {', '.join(sorted(params))}")
    return RandomStrategy(seed)
