"""The record of one game: a flat list of events plus the result. Tables for Parquet are built from it.

Each event is a tuple ``(turn, seat, kind, card, a, b)``: ``card`` is a card id (or a cause such as
``"place-action"``), ``a`` and ``b`` are integers whose meaning depends on ``kind``:

============  ==========================  ==============================================
kind          a                           b
============  ==========================  ==============================================
draw          0 opening hand, 1 later     0 personal deck, 1 legend deck, 2 flare deck
discard       -                           -          (the discard action's card)
return        -                           -          (returned to the bottom of its deck)
to_deck       -                           -          (from the discard pile to the top of the deck)
summon        summoning square            orientation (0..7)
effect        enemy pieces destroyed      -          (after a summon's effect resolved)
flare         halves used: 1 upper, 2 lower, 3 both  invoker's score minus the opponent's
place         square                      rank
destroy       owner * 3 + rank            1 if it counts as destroyed by the active player
upgrade       owner * 3 + old rank        square
downgrade     owner * 3 + old rank        square
convert       square                      new rank
take          square                      -          (a piece taken back from the arena for a place or summon)
points        points                      - (card is the source: a task id, "destruction", "flare",
                                            "legend-summon")
task_reveal   -                           -
task_claim    points                      -
held          -                           -          (in hand when the game ended)
============  ==========================  ==============================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Event = tuple[int, int, str, str, int, int]


@dataclass
class GameRecord:
    events: list[Event] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    first_player: int = 0
    scores: tuple[int, int] = (0, 0)
    winner: int = -1  # seat, or -1 for a tie
    end_reason: str = ""  # "deck", "score" or "turn-limit"
    tiebreak: str = ""  # "", "upgraded", "pieces" or "tie"
    turns: int = 0
    _points: list[int] = field(default_factory=lambda: [0, 0])

    def event(self, turn: int, seat: int, kind: str, card: str, a: int = -1, b: int = -1) -> None:
        self.events.append((turn, seat, kind, card, a, b))

    def points(self, turn: int, seat: int, source: str, amount: int) -> None:
        self._points[seat] += amount
        self.events.append((turn, seat, "points", source, amount, -1))

    def points_total(self, seat: int, mode: str) -> int:
        return self._points[seat]

    def of_kind(self, kind: str) -> list[Event]:
        return [e for e in self.events if e[2] == kind]

    def to_dict(self) -> dict[str, Any]:
        return {
            "config": self.config,
            "first_player": self.first_player,
            "scores": list(self.scores),
            "winner": self.winner,
            "end_reason": self.end_reason,
            "tiebreak": self.tiebreak,
            "turns": self.turns,
            "events": [list(e) for e in self.events],
        }
