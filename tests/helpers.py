"""Test helpers: a scripted player and shortcuts for scenario tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim import board
from sim.decisions import Decision, PlayerView
from sim.game import Game
from sim.scenario import load_scenario

Answer = Any | Callable[[Decision], Any]


class Scripted:
    """Answers decisions from a script, in order; records every decision it was offered.

    Each answer is an option value (a square name like ``"e5"`` stands for that square, a pair of
    names for a move), or a function of the decision returning an option. An answer that is not
    among the options fails the test, as does a decision asked after the script ran out.
    """

    name = "scripted"

    def __init__(self, *answers: Answer):
        self.answers = list(answers)
        self.asked: list[Decision] = []

    def choose(self, view: PlayerView, decision: Decision) -> int:
        self.asked.append(decision)
        if not self.answers:
            raise AssertionError(f"unexpected decision {decision.kind} with options {decision.options}")
        answer = self.answers.pop(0)
        value = answer(decision) if callable(answer) else _resolve(answer)
        if value not in decision.options:
            raise AssertionError(f"{value!r} is not among the options of {decision.kind}: {decision.options}")
        return decision.options.index(value)


def _resolve(answer: Any) -> Any:
    if isinstance(answer, str) and len(answer) == 2 and answer[0] in "abcdefghi" and answer[1].isdigit():
        return board.parse_square(answer)
    if isinstance(answer, tuple) and all(isinstance(a, str) for a in answer) and len(answer) == 2:
        return tuple(_resolve(a) for a in answer)
    return answer


def sq(name: str) -> int:
    return board.parse_square(name)


def setup(text: str, *answers: Answer, opponent: Scripted | None = None) -> tuple[Game, Scripted]:
    """A scenario with player 1 scripted by ``answers`` (player 2 by ``opponent``)."""
    me = Scripted(*answers)
    game = load_scenario(text, [me, opponent or Scripted()])
    return game, me


def summon(game: Game, card_id: str, at: str, orientation: int | None = None) -> None:
    """The active player summons ``card_id`` with its summoning square ``at`` (first orientation that fits,
    or the one given), as the action of the turn; effect decisions go to the player's strategy."""
    s = game.state
    p = s.active
    card = next(c for c in (*s.hand[p], *s.legend_hand[p]) if c.id == card_id)
    options = [pl for pl in game.legal_placements(p, card) if pl.origin == sq(at)
               and (orientation is None or pl.orientation == orientation)]
    if not options:
        raise AssertionError(f"{card_id} cannot be summoned at {at}")
    with game.edit() as b:
        b.actions_left -= 1
    game.summon(p, card, options[0])
    s.check_invariants()


def arena(game: Game) -> dict[str, str]:
    """The pieces in the arena by square name, e.g. {"e5": "1h"}."""
    out = {}
    for s in board.SQUARES:
        piece = game.state.piece_at(s)
        if piece is not None:
            out[board.name(s)] = f"{piece[0] + 1}{'chl'[piece[1]]}"
    return out
