"""``swift``, a fast planner played by the core (core/engine/src/players/swift.rs): ``builder`` that plays
out only the action decisions it finds close. Builder values every option (choices inside effects by the
position reached); when one option leads the rest by more than ``margin`` it is taken at once, otherwise
the best ``shortlist`` close options are played out ``rollouts`` times each (the rest of the turn and the
opponent's reply, by a builder trying ``rollout_placements`` placements of a card) and the best mean taken.
Budgets are counted in rollouts, so a game stays a function of its seed (docs/strategies.md, "A fast
player").
"""

from __future__ import annotations

from typing import Any

from strategies.lookahead import PASS_CONTROL
from strategies.params import Param, resolve
from strategies.planner import Planner
from strategies.registry import register

PARAMS: tuple[Param, ...] = (
    Param("rollouts", 2, "rollouts per close option of an action decision", 1),
    Param("shortlist", 2, "close options of an action decision played out at most, the builder's best first", 1),
    Param("margin", 1.0, "an option is close when builder values it within this of the best; with no other close "
                         "option the best is taken without rollouts", 0.0),
    Param("effect_runs", 3, "extra sandbox runs per option tried for the choices inside its effects (moves, "
                            "targets, optional parts), each valued by the position it leads to "
                            "(0: builder's quick rules)", 0),
    Param("rollout_placements", 2, "placements of one card tried by the builder that plays the rollouts", 1),
    PASS_CONTROL,
    Param("pass_margin", 10.0, "team games: how much better (in position value) passing control must play out than "
                              "the best other action to be chosen", 0.0),
)


@register("swift")
def _make(seat: int, seed: int, params: dict[str, Any]) -> Planner:
    return Planner(seed, resolve("swift", PARAMS, params), "swift")
