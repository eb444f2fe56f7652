"""The expert search player ``expert``, played by the core (core/engine/src/players/expert.rs):
single-observer information-set Monte Carlo tree search over the main decisions of the rest of the turn
and the opponent's reply, on fresh deals of what the player cannot see, with ``builder`` playing below
the tree and its evaluation scoring the leaves. Its budget is counted in iterations, never in seconds, so
a game stays a function of its seed.
"""

from __future__ import annotations

from typing import Any

from sim import _core
from sim.core import native_choose
from sim.decisions import Decision, PlayerView
from strategies.lookahead import PASS_CONTROL
from strategies.params import Param, resolve
from strategies.registry import register

PARAMS: tuple[Param, ...] = (
    Param("iterations", 1000, "search iterations per main decision, each on a fresh deal of what the player "
                             "cannot see", 1),
    Param("exploration", 0.5, "UCB exploration constant (rewards are in 0..1)", 0.0),
    Param("depth", 4, "turns searched: the rest of this one, then the next ones (2: the opponent's reply)",
          1, 4),
    Param("width", 5, "ways of taking each action searched at the root (the best squares of a place, the best "
                      "placements of a summon)", 1),
    Param("shortlist", 12, "moves searched at the root, builder's best first (discard, flare and end always)",
          1),
    PASS_CONTROL,
)


class Expert:
    """The search player; it lives in the core, so that a ``Game`` plays its seat without asking Python."""

    native = True

    def __init__(self, seed: int, params: dict[str, Any]):
        self.name = "expert"
        self.params = dict(params)
        self.player = _core.NativeStrategy("expert", seed, self.params)

    def __repr__(self) -> str:
        return "<strategy expert>"

    def choose(self, view: PlayerView, decision: Decision) -> int:
        return native_choose(self.player, view, decision)

    def native_player(self) -> Any:
        return self.player

    @property
    def plan(self) -> list[tuple[str, str]]:
        """The answers planned for the follow-ups of the move chosen: its placement and effect targets."""
        return [tuple(x) for x in self.player.plan()]


@register("expert")
def _make(seat: int, seed: int, params: dict[str, Any]) -> Expert:
    return Expert(seed, resolve("expert", PARAMS, params))
