"""Task conditions (High Form), by the names the task file uses. Each takes the state and the player and
says whether the task is met; the core decides (core/engine/src/tasks.rs).

Destruction and summoning tasks read what the active player did this turn; the others read the arena.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from sim.core import CONDITION_NAMES

if TYPE_CHECKING:
    from sim.state import GameState

Condition = Callable[["GameState", int], bool]


def _condition(name: str, state: GameState, player: int) -> bool:
    return state.meets(name, player)


CONDITIONS: dict[str, Condition] = {name: partial(_condition, name) for name in CONDITION_NAMES}
