"""Turn-by-turn text of a game, for ``tashkalar play``."""

from __future__ import annotations

from typing import TextIO

from sim import board
from sim.game import Game
from sim.ranks import RANK_NAMES
from sim.scenario import render_arena


def describe_event(event: tuple) -> str | None:
    turn, seat, kind, card, a, b = event
    who = f"player {seat + 1}" if seat >= 0 else "the table"
    if kind == "summon":
        return f"{who} summons {card} at {board.name(a)} (orientation {b})"
    if kind == "place" and card == "place-action":
        return f"{who} places a {RANK_NAMES[b]} piece at {board.name(a)}"
    if kind == "place":
        return f"  {card} places a {RANK_NAMES[b]} piece at {board.name(a)}"
    if kind == "destroy":
        owner, rank = divmod(a, 3)
        return f"  {card} destroys a {RANK_NAMES[rank]} piece of player {owner + 1}"
    if kind in ("upgrade", "downgrade"):
        return f"  {card}: {kind} at {board.name(b)}"
    if kind == "convert":
        return f"  {card} converts the piece at {board.name(a)}"
    if kind == "discard":
        return f"{who} discards {card}"
    if kind == "return":
        return f"{who} returns {card} to the bottom of its deck"
    if kind == "flare":
        halves = {1: "upper half", 2: "lower half", 3: "both halves"}[a]
        return f"{who} invokes {card} ({halves})"
    if kind == "task_claim":
        return f"{who} claims {card} for {a} points"
    if kind == "points":
        return f"{who} scores {a} ({card})"
    if kind == "take":
        return f"  {who} takes back the piece at {board.name(a)}"
    return None


class Narrator:
    def __init__(self, game: Game, out: TextIO):
        self.game = game
        self.out = out
        self.seen = 0

    def attach(self) -> None:
        self.game.turn_listeners.append(self.on_turn)

    def on_turn(self, game: Game) -> None:
        s = game.state
        events = s.record.events
        player = (s.active if s.counters.extra_turn else 1 - s.active) + 1
        self.out.write(f"\n== Turn {s.turn}: player {player} ==\n")
        for e in events[self.seen:]:
            text = describe_event(e)
            if text:
                self.out.write(text + "\n")
        self.seen = len(events)
        self.out.write(render_arena(s) + "\n")
        self.out.write(f"score {s.score(0)}-{s.score(1)}\n")
