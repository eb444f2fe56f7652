"""The players of the core (core/engine/src/players/): every strategy the core declares parameters for
(``sim._core.strategy_params()``; docs/strategies.md describes each) is one ``CorePlayer``. The player
itself lives in the core, so that a ``Game`` plays its seat without asking Python, and its plan and stream
carry over from one call to the next; the parameters are checked here first (``strategies.params``) and
the core checks them again.
"""

from __future__ import annotations

from typing import Any

from sim import _core
from sim.core import native_choose
from sim.decisions import Decision, PlayerView


class CorePlayer:
    """The core's strategy ``name`` with its parameters resolved."""

    native = True
    label: str | None = None
    """The preset it plays as (``strategies.tuned``), which a game record names instead of ``name``."""

    def __init__(self, name: str, seed: int, params: dict[str, Any]):
        self.name = name
        self.params = dict(params)
        self.player = _core.NativeStrategy(name, seed, self.params)

    def __repr__(self) -> str:
        return f"<strategy {self.name}>"

    def choose(self, view: PlayerView, decision: Decision) -> int:
        return native_choose(self.player, view, decision)

    def native_player(self) -> Any:
        return self.player

    @property
    def plan(self) -> list[tuple[str, str]]:
        """The answers planned for the follow-ups of the option chosen last: (kind, option) pairs (a planner's
        and an ``mc``'s are their base player's)."""
        return [tuple(x) for x in self.player.plan()]
