"""``planner``, the default player, played by the core (core/engine/src/players/planner.rs): ``builder``
choosing each action by short rollouts. At each main "action" decision it shortlists builder's best
options plus discarding, the flare and ending the turn, plays each out a few times on fresh deals of what
it cannot see (builder finishes the turn and plays the opponent's reply), values the positions reached
with builder's evaluation (a finished game as a win or a loss) and takes the best mean. Every other
decision is builder's, except the Deathmatch start square, valued for the hand dealt. Budgets are counted
in rollouts, so a game stays a function of its seed.

Without blind spots (issue 25): its builder values each choice inside an effect (moves, leaps, optional
parts, targets) by playing it in the sandbox and evaluating the position reached in full, "stop" included
(``effect_runs`` extra runs per option); a discard is played out with and without returning the cards worth
less than a fresh draw; every legend summon and the best summon are always played out; a finished game is
told apart by the position reached. ``planner-classic`` is the planner before that work, kept for
comparison (``tashkalar ladder``).
"""

from __future__ import annotations

from typing import Any

from sim import _core
from sim.core import native_choose
from sim.decisions import Decision, PlayerView
from strategies.lookahead import PASS_CONTROL, Lookahead
from strategies.params import Param, resolve
from strategies.registry import register

PARAMS: tuple[Param, ...] = (
    Param("rollouts", 4, "rollouts per shortlisted option of an action decision", 1),
    Param("shortlist", 4, "options of an action decision played out, the builder's best first (discard, "
                          "flare and end always)", 1),
    PASS_CONTROL,
    Param("pass_margin", 10.0, "team games: how much better (in position value) passing control must play out than "
                              "the best other action to be chosen", 0.0),
)
CLASSIC_PARAMS = PARAMS
"""``planner-classic``'s parameters: the planner's before issue 25."""
PARAMS = CLASSIC_PARAMS + (
    Param("effect_runs", 12, "extra sandbox runs per option tried for the choices inside its effects (moves, "
                             "targets, optional parts), each valued by the position it leads to", 0),
)


class Planner:
    """The default player; it lives in the core, so that a ``Game`` plays its seat without asking Python."""

    native = True

    def __init__(self, seed: int, params: dict[str, Any], name: str = "planner"):
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
        """builder's answers planned for the follow-ups of the action chosen."""
        return Lookahead.plan_of(self.player)


@register("planner")
def _make(seat: int, seed: int, params: dict[str, Any]) -> Planner:
    return Planner(seed, resolve("planner", PARAMS, params))


@register("planner-classic")
def _make_classic(seat: int, seed: int, params: dict[str, Any]) -> Planner:
    return Planner(seed, resolve("planner-classic", CLASSIC_PARAMS, params), "planner-classic")
