"""``mc``: the one-step Monte Carlo improvement of a scripted strategy, played by the core
(core/engine/src/players/mc.rs). At each main "action" decision every option is played out ``rollouts``
times on sandboxes dealt from the player's own stream (it never sees hidden cards): the base strategy takes
the option, finishes the turn and plays the opponent's next turn, and the position reached is valued by the
base strategy's own evaluation from the player's side; the best mean wins (the first on ties). Every other
decision is the base strategy's. Budgets are counted in rollouts, so a game stays a function of its seed.
"""

from __future__ import annotations

from typing import Any

from strategies.lookahead import PASS_CONTROL, Lookahead
from strategies.params import Param, resolve
from strategies.registry import register

BASES: tuple[str, ...] = ("greedy", "builder", "hunter", "brawler", "planner")

PARAMS: tuple[Param, ...] = (
    Param("base", "builder", "the scripted strategy that plays the rollouts and answers the other decisions",
          choices=BASES),
    Param("rollouts", 55, "rollouts per option of an action decision", 1),
    PASS_CONTROL,
)


class MonteCarlo(Lookahead):
    """The ``mc`` player; the core holds it (``plan`` is its base player's plan)."""

    native = True


@register("mc")
def make_mc(seat: int, seed: int, params: dict[str, Any]) -> MonteCarlo:
    return MonteCarlo("mc", seed, resolve("mc", PARAMS, params))
