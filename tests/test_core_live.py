"""A Python strategy chooses on the core's own state (docs/core.md, "The Python API over the core"): its view
and the game's ``GameState`` read the running operation's state in place, and the game can be read, not
changed, while the operation runs."""

from __future__ import annotations

import pytest

from sim import board
from sim.cards import load_card_set
from sim.game import Game
from sim.state import DEATHMATCH, HIGH_FORM
from strategies.random_player import RandomStrategy


def _view_reads(view) -> tuple:
    seats = range(view.seats)
    return (view.mode, view.seats, view.turn, view.actions_left, view.seat, view.opponents, view.hand,
            view.legend_hand, view.flare_hand, view.task_row, view.next_task, view.occupied(),
            [view.pieces(p) for p in seats], [view.stock(p) for p in seats], [view.score(p) for p in seats],
            [view.hand_sizes(p) for p in seats], [view.piece_at(sq) for sq in board.SQUARES])


def _state_reads(s, p: int) -> tuple:
    seats = range(s.seats)
    return (s.mode, s.seats, s.turn, s.actions_left, s.seat_of(p), s.opponents(p), tuple(s.hand[p]),
            tuple(s.legend_hand[p]), tuple(s.flare_hand[p]), tuple(s.task_row), s.next_task, s.occupied(),
            [tuple(s.pieces[q]) for q in seats],
            [(s.tokens[q], s.legend_stock[q]) for q in seats], [s.score(q) for q in seats],
            [(len(s.hand[q]), len(s.legend_hand[q]), len(s.flare_hand[q])) for q in seats],
            [s.piece_at(sq) for sq in board.SQUARES])


class Looking(RandomStrategy):
    """The random player asked in Python, reading its view and the game's state while it chooses, and trying
    to change the game."""

    asked = 0

    def choose(self, view, decision) -> int:
        assert _view_reads(view) == _state_reads(view._state, view.player)
        with pytest.raises(RuntimeError, match="not changed"), view._state.edit() as s:
            s.turn += 1
        Looking.asked += 1
        return super().choose(view, decision)


@pytest.mark.parametrize(("mode", "decks", "teams"), [
    (HIGH_FORM, ("imperial", "highland"), False),
    (DEATHMATCH, ("sylvan", "etherweave"), False),
    (DEATHMATCH, ("imperial", "highland", "sylvan"), False),
    (DEATHMATCH, ("imperial", "highland", "sylvan", "nethervoid"), True),
])
def test_a_strategy_reads_the_running_game_in_place_and_cannot_change_it(mode, decks, teams):
    Looking.asked = 0
    game = Game(load_card_set(), mode, decks, [Looking(s) for s in range(len(decks))], 3, strict=True,
                teams=teams)
    game.play()
    assert Looking.asked > 20
    view = game.views[0]
    assert _view_reads(view) == _state_reads(game.state, view.player)  # a view reads its game at any time
