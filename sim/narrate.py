"""Turn-by-turn text of a game, for ``tashkalar play``."""

from __future__ import annotations

from typing import TextIO

from sim import board
from sim.game import Game
from sim.ranks import RANK_NAMES
from sim.record import (
    ActionLoss,
    Convert,
    CopyWarp,
    Destroy,
    Discard,
    Downgrade,
    Event,
    FlareDiscard,
    FlareInvoked,
    Freeze,
    GameRecord,
    Gateway,
    Improvise,
    LegendCredit,
    PassControl,
    PendingEnd,
    Place,
    Points,
    Possess,
    Release,
    Remove,
    Return,
    Stasis,
    Summon,
    Swap,
    Take,
    TaskClaim,
    Thaw,
    ToDeck,
    ToDiscard,
    UnderDeck,
    Upgrade,
    Warp,
)
from sim.scenario import render_arena
from sim.state import SIDEWAYS, TEAM_NAMES, GameState, seat_name


def describe_event(e: Event, teams: bool = False) -> str | None:
    """One line of narration, or None for events the narration leaves out (draws, task reveals, cards held at
    the end, the summary after an effect; points are also in the score line). In a team game (``teams``)
    seats are named A1, B1, A2, B2 and pieces, colours and Gateways by their team."""
    if teams:
        text = _describe_team_event(e)
        if text is not None:
            return text
        who = seat_name(e.seat) if e.seat >= 0 else "the table"

        def of(owner: int) -> str:  # a piece's owner, a colour: a side in a team game
            return f"team {TEAM_NAMES[owner]}"
    else:
        who = f"player {e.seat + 1}" if e.seat >= 0 else "the table"

        def of(owner: int) -> str:
            return f"player {owner + 1}"
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
            return f"  {e.cause} destroys a {RANK_NAMES[e.rank]} piece of {of(e.owner)}"
        case Upgrade() | Downgrade():
            return f"  {e.cause}: {e.kind} at {board.name(e.square)}"
        case Convert():
            return f"  {e.cause} converts the piece at {board.name(e.square)}"
        case Discard():
            return f"{who} discards {e.card}"
        case Return():
            return f"{who} returns {e.card} to the bottom of its deck"
        case ToDeck():
            return f"  {who} puts {e.card} from the discard pile on top of the deck"
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
        # ----- Etherweave
        case Warp():
            return f"{who} plays the warp of {e.card}, which is now pending"
        case PendingEnd(reason="summon"):
            return f"  {e.card} is no longer pending (it is being summoned)"
        case PendingEnd(reason="to-hand"):
            return f"  {e.card} is no longer pending (an ordinary card of the hand again)"
        case PendingEnd():
            return f"  {e.card} is no longer pending ({e.reason})"
        case CopyWarp():
            return f"  {e.card} performs the warp of {e.source}"
        case Swap():
            return f"  {e.cause} swaps the pieces at {board.name(e.square)} and {board.name(e.other)}"
        case Stasis():
            return (f"  {e.cause} puts the {RANK_NAMES[e.rank]} piece of {of(e.owner)} at {board.name(e.square)} "
                    "in stasis")
        case Release():
            return (f"  the {RANK_NAMES[e.rank]} piece of {of(e.owner)} comes back from stasis at "
                    f"{board.name(e.square)} ({e.cause})")
        # ----- Everfrost
        case Freeze():
            return f"  {who} keeps {e.card} frozen in play"
        case Thaw():
            return f"{who} thaws {e.card}"
        case ToDiscard():
            return f"  {who} discards {e.card} ({e.cause})"
        case Remove():
            twice = ", counted twice" if e.twice else ""
            return f"  {e.cause} removes the piece of {of(e.owner)} from the game{twice}"
        case ActionLoss():
            others = "the other team's" if teams else "the other players'"
            return f"  {e.cause}: {others} next turn has 1 action"
        # ----- Nethervoid
        case Gateway(square=-1):
            return f"  {of(e.seat % 2) if teams else who} loses the Gateway"
        case Gateway():
            return f"  the Gateway of {of(e.seat % 2) if teams else who} is now at {board.name(e.square)}"
        case Possess():
            return f"  {who}'s next summoning uses the pieces of {of(e.colour)}"
        case FlareDiscard():
            return f"  {who} discards the flare {e.card}"
        case LegendCredit():
            return f"  {e.card} counts as a legend summoned at {board.name(e.square)}"
        case UnderDeck():
            return f"{who} puts {e.card} under the deck"
    return None


def _describe_team_event(e: Event) -> str | None:
    """The team game's own lines (None: the common wording with team names, ``describe_event``)."""
    who = seat_name(e.seat) if e.seat >= 0 else "the table"
    team = f"team {TEAM_NAMES[e.seat % 2]}" if e.seat >= 0 else ""
    match e:
        case PassControl():
            during = f" in the middle of {e.during}'s effect" if e.during else " before an action"
            return f"{who} passes control to {seat_name(e.to)}{during} (and hands over the team's legends)"
        case Place(cause="deathmatch-start"):
            return f"setup: a starting piece of {team} at {board.name(e.square)}"
        case Place(cause="place-action"):
            return f"{who} places a {RANK_NAMES[e.rank]} piece of {team} at {board.name(e.square)}"
        case Points():
            return f"{team} scores {e.points} ({e.source}, by {who})"
        case TaskClaim():
            return f"{who} claims {e.task} for {team}, {e.points} points"
        case FlareInvoked():
            halves = "both halves" if e.upper and e.lower else "upper half" if e.upper else "lower half"
            return f"{who} invokes {e.card} ({halves})"
    return None


def expansion_lines(s: GameState, mid_turn: bool = True) -> list[str]:
    """The public expansion state that exists (docs/core.md): frozen effects in play, Gateways, pending beings
    and their stasis, pieces removed from the game, action losses, and in the middle of a turn (``mid_turn``)
    Possessed colours, Hell Hounds waiting and the active player's warps lasting the turn (between turns these
    are spent, cleared when the next turn starts). In a team game the personal state is each seat's, the rest
    each team's."""
    lines = []
    team = s.teams is not None

    def side(p: int) -> str:
        return f"team {TEAM_NAMES[p]}" if team else f"player {p + 1}"

    holders = ([(seat_name(q), s.member(q)) for q in range(s.players)] if team else
               [(f"player {p + 1}", None) for p in range(s.seats)])
    for p, (name, m) in enumerate(holders):
        frozen = m.frozen if m is not None else s.frozen[p]
        pending = m.pending if m is not None else s.pending[p]
        stasis = m.stasis if m is not None else s.stasis[p]
        hound = m.hound_return if m is not None else s.hound_return[p]
        if frozen is not None:
            lines.append(f"frozen in play: {name} {frozen.id}")
        if pending is not None:
            held = "" if stasis is None else f" (stasis: a {RANK_NAMES[stasis[1]]} piece of {side(stasis[0])})"
            lines.append(f"pending: {name} {pending.id}{held}")
        if hound is not None and mid_turn:
            lines.append(f"under the deck at the end of the turn: {name} {hound.id}")
    for p in range(s.seats):
        if s.gateway[p] is not None:
            lines.append(f"Gateway of {side(p)}: {board.name(s.gateway[p])}")
        elif s.gateway_suspended[p]:
            lines.append(f"Gateway of {side(p)}: suspended (its piece is in stasis)")
        tokens, legends = s.removed[p]
        if tokens or legends:
            lines.append(f"removed from the game: {side(p)} {tokens} token{'s' * (tokens != 1)}, "
                         f"{legends} legendary piece{'s' * (legends != 1)}")
        if s.action_loss[p]:
            lines.append(f"{side(p)}'s next turn has 1 action")
        if s.possessed[p] is not None and mid_turn:
            lines.append(f"{side(p)}'s next summoning uses the pieces of {side(s.possessed[p])}")
    if s.void_squares and mid_turn:
        lines.append(f"void summoning: {s.void_squares} empty square{'s' * (s.void_squares != 1)} may count as "
                     "commons")
    if s.extra_destruction and mid_turn:
        lines.append(f"extra destruction: each enemy piece destroyed counts {s.extra_destruction} more")
    return lines


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
        if s.teams is not None:
            t = s.teams
            seat = t.turn_seat if s.counters.extra_turn else (t.turn_seat - 1) % s.players
            self.out.write(f"\n== Turn {s.turn}: {seat_label(game, seat)} ==\n")
        else:
            player = (s.active if s.counters.extra_turn else (s.active - 1) % s.seats) + 1
            self.out.write(f"\n== Turn {s.turn}: player {player} ==\n")
        passer = None  # a team game: the seat whose turn the teammate plays on once control passed
        for e in events[self.seen:]:
            text = describe_event(e, s.team_game)
            if isinstance(e, PassControl):
                passer = e.seat
            elif passer is not None and isinstance(e, Place) and e.cause == "place-action":
                text = f"{seat_name(e.seat)} places a {RANK_NAMES[e.rank]} piece at {board.name(e.square)} " \
                       f"for {seat_name(passer)}"
            if text:
                self.out.write(text + "\n")
        self.seen = len(events)
        self.out.write(render_arena(s) + "\n")
        for line in expansion_lines(s, mid_turn=False):
            self.out.write(line + "\n")
        if s.teams is not None:
            self.out.write(team_lines(s) + "\n")
        self.out.write(score_line(s) + "\n")


def seat_label(game: Game, seat: int) -> str:
    """A team game's seat with its deck and strategy: "A1 (imperial, planner)"."""
    strategy = game.state.record.config.get("strategies", [])
    name = strategy[seat] if seat < len(strategy) else "?"
    return f"{seat_name(seat)} ({game.state.deck_names[seat]}, {name})"


def team_lines(s: GameState) -> str:
    """A team game between turns: who holds each team's legends, and each seat's deck (upright and
    sideways cards) and hand."""
    t = s.teams
    assert t is not None
    lines = []
    for side in (0, 1):
        holder = t.holder[side]
        legends = len(s.legend_hand[side])
        lines.append(f"team {TEAM_NAMES[side]}: legends ({legends}) held by {seat_name(holder)}")
    decks = []
    for seat in range(s.players):
        m = s.member(seat)
        upright = max(0, len(m.deck) - SIDEWAYS)
        decks.append(f"{seat_name(seat)} {upright} upright + {len(m.deck) - upright} sideways")
    lines.append("decks: " + ", ".join(decks))
    return "\n".join(lines)


def score_line(s: GameState) -> str:
    """The score: "score 3-5" in a duel; in a melee each player's lowest colour score with the colour scores;
    "score team A 3 - team B 5" in a team game."""
    if s.team_game:
        return f"score team A {s.score(0)} - team B {s.score(1)}"
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
    if record.teams:
        head = (f"Result: team A {record.scores[0]} - team B {record.scores[1]}, "
                + (f"team {TEAM_NAMES[w]} ({seat_name(w)}, {seat_name(w + 2)}) wins" if w >= 0 else "a tie"))
    elif record.places:
        order = sorted(range(len(record.places)), key=lambda p: record.places[p])
        ranking = ", ".join(f"{record.places[p]}. player {p + 1} ({record.scores[p]})" for p in order)
        head = f"Result: {ranking}; " + (f"player {w + 1} wins" if w >= 0 else "a shared first place")
    else:
        head = f"Result: {record.scores[0]}-{record.scores[1]}, " + (f"player {w + 1} wins" if w >= 0 else "a tie")
    return (head + (f" on tiebreak ({record.tiebreak})" if record.tiebreak else "")
            + f"; ended by {record.end_reason} after {record.turns} turns")
