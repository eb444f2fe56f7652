"""The engine of the scripted strategies, played by the core (core/engine/src/players/lookahead.rs): every
option of a main decision is tried on a sandbox copy of the game and scored by the position it leads to; the
choices the option then needs (placement, effect targets) are made by the same rules inside the sandbox, and the
real game gets the same answers back from the plan kept for the chosen option. The parameters are declared here
(``PARAMS``, checked by ``strategies.params``) and the core checks them again.
"""

from __future__ import annotations

from typing import Any

from sim import _core
from sim.core import native_choose
from sim.decisions import Decision, PlayerView
from strategies.params import Param

# Team games: whether the player may hand the rest of a turn to its teammate (when valued best).
PASS_CONTROL = Param("pass_control", True, "team games: the player may hand the rest of its turn to its teammate "
                                           "when that is valued best")

PARAMS: tuple[Param, ...] = (
    Param("score", 10.0, "value of one point of score margin"),
    Param("common", 1.0, "value of a common piece in the arena (yours minus the opponent's)"),
    Param("heroic", 2.5, "value of a heroic piece in the arena"),
    Param("legendary", 4.0, "value of a legendary piece in the arena"),
    Param("threat", 0.4, "share of a piece's value lost when it stands next to an enemy piece that can take "
                         "it"),
    Param("tasks", 3.0, "High Form: value of progress towards a current task, per task point"),
    Param("patterns", 0.0, "value of the hand's readiness (how close each card's pattern is)"),
    Param("readiness_decay", 0.5, "readiness of a card is this to the power of the actions its pattern needs",
          0.0, 1.0),
    Param("legend_cards", 1.0, "factor on the value of legend cards in the hand's readiness"),
    Param("destruction", 0.0, "Deathmatch: extra value per enemy piece destroyed this turn"),
    Param("flare_margin", 0.0, "gain a flare must bring (in position value) to be invoked"),
    Param("max_placements", 5, "placements of one card tried in the sandbox (the most promising first)", 1),
    Param("place_candidates", 4, "squares fully evaluated for a place", 1),
    Param("explore", 3, "extra sandbox runs to try the branches and directions of an effect", 0),
    Param("full_values", 1, "placements of one card valued with the hand's readiness (the best few)", 1),
    # the expansion mechanics (docs/strategies.md, "The expansion mechanics"); 0 for all six: the players
    # before they knew them
    Param("frozen", 2.0, "Everfrost: value of a frozen effect in play while its holder has a turn left to thaw "
                         "it, less as the end nears"),
    Param("pending", 0.25, "Etherweave: share of the causality penalty (2 points) counted while a pending being "
                           "can still be summoned, times how near the end is (all of it on its holder's last "
                           "turn)", 0.0, 1.0),
    Param("gateway", 1.0, "Nethervoid: value of having the Gateway (more where the Nethervoid cards in hand "
                          "would use it)"),
    Param("stasis", 0.5, "Etherweave: share of its value a piece in stasis keeps for its owner", 0.0, 1.0),
    Param("removed", 0.5, "Everfrost: value lost per piece of one's supply removed from the game (a legendary "
                          "one twice)"),
    Param("free_action", 1.5, "value of an action gained by a free play (a thaw or a warp)"),
    PASS_CONTROL,
)



class Lookahead:
    """A strategy scoring options by the position they lead to; presets of its weights make the named
    scripted strategies (see ``strategies.scripted``). The player itself lives in the core, so that in a
    ``Game`` the core plays the seat without asking Python, and its plan and stream carry over from one
    call to the next."""

    native = True

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
        """The answers planned for the decisions of the action chosen last: (kind, option) pairs."""
        return self.plan_of(self.player)

    @staticmethod
    def plan_of(player: Any) -> list[tuple[str, str]]:
        return [tuple(x) for x in player.plan()]
