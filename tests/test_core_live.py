"""A Python strategy chooses on the core's live state (docs/core.md, "The Python API over the core"): what its
view reads there is what the Python state says once taken, and the handle dies with the decision."""

from __future__ import annotations

import pytest

from sim import board
from sim.cards import load_card_set
from sim.game import Game
from sim.state import DEATHMATCH, HIGH_FORM, GameState
from strategies.random_player import RandomStrategy


def _read(view) -> tuple:
    seats = range(view.seats)
    return (view.mode, view.seats, view.turn, view.actions_left, view.seat, view.opponents, view.hand,
            view.legend_hand, view.flare_hand, view.task_row, view.next_task, view.occupied(),
            [view.pieces(p) for p in seats], [view.stock(p) for p in seats], [view.score(p) for p in seats],
            [view.hand_sizes(p) for p in seats], [view.piece_at(sq) for sq in board.SQUARES])


class Looking(RandomStrategy):
    """The random player asked in Python, reading its view live, then with the state taken into Python."""

    handles: list = []

    def choose(self, view, decision) -> int:
        state = view._state
        live = _read(view)
        Looking.handles.append(object.__getattribute__(state, "_live"))
        assert type(state) is not GameState  # nothing taken yet
        assert state.counters is not None  # any other use takes the game's state into Python
        assert type(state) is GameState
        assert _read(view) == live
        return super().choose(view, decision)


@pytest.mark.parametrize(("mode", "decks", "teams"), [
    (HIGH_FORM, ("imperial", "highland"), False),
    (DEATHMATCH, ("sylvan", "etherweave"), False),
    (DEATHMATCH, ("imperial", "highland", "sylvan"), False),
    (DEATHMATCH, ("imperial", "highland", "sylvan", "nethervoid"), True),
])
def test_the_live_view_reads_what_the_state_says_and_dies_with_the_decision(mode, decks, teams):
    Looking.handles = []
    game = Game(load_card_set(), mode, decks, [Looking(s) for s in range(len(decks))], 3, strict=True,
                teams=teams)
    game.play()
    assert type(game.state) is GameState and Looking.handles
    with pytest.raises(RuntimeError, match="only live while the strategy chooses"):
        _ = Looking.handles[-1].turn
