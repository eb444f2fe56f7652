"""Turn-by-turn text of a game, for ``tashkalar play``."""

from __future__ import annotations

from typing import TextIO

from sim import board
from sim.game import Game
from sim.ranks import RANK_NAMES
from sim.record import (
    Convert,
    Destroy,
    Discard,
    Downgrade,
    Event,
    FlareDiscard,
    FlareInvoked,
    GameRecord,
    Gateway,
    Improvise,
    LegendCredit,
    Place,
    Points,
    Possess,
    Return,
    Summon,
    Take,
    TaskClaim,
    UnderDeck,
    Upgrade,
)
from sim.scenario import render_arena
from sim.state import GameState


def describe_event(e: Event) -> str | None:
    """One line of narration, or None for events the narration leaves out (draws, points are in the score)."""
    who = f"player {e.seat + 1}" if e.seat >= 0 else "the table"
    match e:
        case Summon():
            return f"{who} summons {e.card} at {board.name(e.square)} (orientation {e.orientation})"
        case Place(cause="deathmatch-start" | "melee-start"):
            return f"setup: a starting piece of {who} at {board.name(e.square)}"
        case Place(cause="place-action"):
            return f"{who} places a {RANK_NAMES[e.rank]} piece at {board.name(e.square)}"
        case Place():
            return f"  {e.cause} places a {RANK_NAMES[e.rank]} piece at {board.name(e.square)}"
        case Destroy():
            return f"  {e.cause} destroys a {RANK_NAMES[e.rank]} piece of player {e.owner + 1}"
        case Upgrade() | Downgrade():
            return f"  {e.cause}: {e.kind} at {board.name(e.square)}"
        case Convert():
            return f"  {e.cause} converts the piece at {board.name(e.square)}"
        case Discard():
            return f"{who} discards {e.card}"
        case Return():
            return f"{who} returns {e.card} to the bottom of its deck"
        case FlareInvoked():
            halves = "both halves" if e.upper and e.lower else "upper half" if e.upper else "lower half"
            against = f" against player {e.against + 1}" if e.against >= 0 else ""
            return f"{who} invokes {e.card} ({halves}){against}"
        case TaskClaim():
            return f"{who} claims {e.task} for {e.points} points"
        case Points(colour=colour) if colour >= 0:
            return f"{who} scores {e.points} in player {colour + 1}'s colour ({e.source})"
        case Points():
            return f"{who} scores {e.points} ({e.source})"
        case Improvise():
            return f"{who} improvises with a piece of player {e.colour + 1} (once per game per colour)"
        case Take():
            return f"  {who} takes back the piece at {board.name(e.square)}"
        case Gateway(square=-1):
            return f"  {who} loses the Gateway"
        case Gateway():
            return f"  the Gateway of {who} is now at {board.name(e.square)}"
        case Possess():
            return f"  {who}'s next summoning uses the pieces of player {e.colour + 1}"
        case FlareDiscard():
            return f"  {who} discards the flare {e.card}"
        case LegendCredit():
            return f"  {e.card} counts as a legend summoned at {board.name(e.square)}"
        case UnderDeck():
            return f"{who} puts {e.card} under the deck"
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
        player = (s.active if s.counters.extra_turn else (s.active - 1) % s.seats) + 1
        self.out.write(f"\n== Turn {s.turn}: player {player} ==\n")
        for e in events[self.seen:]:
            text = describe_event(e)
            if text:
                self.out.write(text + "\n")
        self.seen = len(events)
        self.out.write(render_arena(s) + "\n")
        self.out.write(score_line(s) + "\n")


def score_line(s: GameState) -> str:
    """The score: "score 3-5" in a duel; in a melee each player's lowest colour score with the colour scores."""
    if not s.melee:
        return f"score {s.score(0)}-{s.score(1)}"
    parts = []
    for p in range(s.seats):
        colours = ", ".join(f"in {c + 1}: {s.colour_points[p][c]}" for c in s.opponents(p))
        parts.append(f"player {p + 1} {s.score(p)} ({colours})")
    return "score " + "; ".join(parts)


def result_line(record: GameRecord) -> str:
    """The result of a game in one line."""
    w = record.winner
    if record.places:
        order = sorted(range(len(record.places)), key=lambda p: record.places[p])
        ranking = ", ".join(f"{record.places[p]}. player {p + 1} ({record.scores[p]})" for p in order)
        head = f"Result: {ranking}; " + (f"player {w + 1} wins" if w >= 0 else "a shared first place")
    else:
        head = f"Result: {record.scores[0]}-{record.scores[1]}, " + (f"player {w + 1} wins" if w >= 0 else "a tie")
    return (head + (f" on tiebreak ({record.tiebreak})" if record.tiebreak else "")
            + f"; ended by {record.end_reason} after {record.turns} turns")
