"""The record of one game: a flat list of events plus the result. Tables for Parquet are built from it.

Each event is a small slotted dataclass, one class per kind, with named fields; docs/record.md describes
every kind and field. Every event has ``turn`` (0 for the setup) and ``seat`` (-1 when no player is
concerned); a class's ``kind`` is the name used in JSON. Events are appended in the order things happen
and are never changed afterwards. They are not frozen on purpose: a frozen dataclass costs about three
times as much to build, and records are built in the engine's hot loop.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar


@dataclass(slots=True)
class Event:
    kind: ClassVar[str] = ""
    turn: int
    seat: int

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON object: ``kind`` first, then the fields in order; a melee-only field is left out
        in a duel (where it holds -1)."""
        out = {"kind": self.kind}
        for name in self.__match_args__:
            value = getattr(self, name)
            if not (value == -1 and name in MELEE_ONLY):
                out[name] = value
        return out


MELEE_ONLY = frozenset({"against", "colour"})


# ----- cards
@dataclass(slots=True)
class Draw(Event):
    kind: ClassVar[str] = "draw"
    card: str
    opening: bool  # drawn into the opening hand
    deck: str  # "personal", "legend" or "flare"


@dataclass(slots=True)
class Discard(Event):
    """The card discarded with the discard action."""
    kind: ClassVar[str] = "discard"
    card: str


@dataclass(slots=True)
class Return(Event):
    """A card returned from the hand to the bottom of its deck."""
    kind: ClassVar[str] = "return"
    card: str


@dataclass(slots=True)
class ToDeck(Event):
    """A card put from the discard pile on top of the personal deck (Kiskin Spirit)."""
    kind: ClassVar[str] = "to_deck"
    card: str


@dataclass(slots=True)
class Summon(Event):
    kind: ClassVar[str] = "summon"
    card: str
    square: int  # the summoning square
    orientation: int  # 0..7, see sim.patterns


@dataclass(slots=True)
class EffectDone(Event):
    """After a summon's effect resolved: enemy pieces the summon and its effect destroyed (counted ones)."""
    kind: ClassVar[str] = "effect"
    card: str
    destroyed: int


@dataclass(slots=True)
class FlareInvoked(Event):
    kind: ClassVar[str] = "flare"
    card: str
    upper: bool  # the upper half resolved
    lower: bool  # the lower half resolved
    lead: int  # the invoker's score minus the opponent's, before the flare
    against: int = -1  # melee: the opponent the flare was compared against (-1 in a duel)


@dataclass(slots=True)
class Held(Event):
    """A card still in hand when the game ended."""
    kind: ClassVar[str] = "held"
    card: str


# ----- pieces; ``cause`` is the card whose summon or effect did it, or "place-action"
@dataclass(slots=True)
class Place(Event):
    """A piece put from the stock on an empty square; ``seat`` is the piece's owner."""
    kind: ClassVar[str] = "place"
    cause: str
    square: int
    rank: int  # 0 common, 1 heroic, 2 legendary


@dataclass(slots=True)
class Destroy(Event):
    """A piece removed to its owner's stock; ``seat`` is the active player."""
    kind: ClassVar[str] = "destroy"
    cause: str
    square: int
    owner: int
    rank: int
    counted: bool  # counts as destroyed by the active player this turn (an enemy piece)


@dataclass(slots=True)
class Upgrade(Event):
    """``seat`` is the active player."""
    kind: ClassVar[str] = "upgrade"
    cause: str
    square: int
    owner: int
    old_rank: int


@dataclass(slots=True)
class Downgrade(Event):
    """``seat`` is the active player."""
    kind: ClassVar[str] = "downgrade"
    cause: str
    square: int
    owner: int
    old_rank: int


@dataclass(slots=True)
class Convert(Event):
    """An enemy piece replaced by ``seat``'s piece (a Destroy event for the old piece comes first)."""
    kind: ClassVar[str] = "convert"
    cause: str
    square: int
    rank: int  # the new piece's rank


@dataclass(slots=True)
class Take(Event):
    """A piece taken back from the arena to the stock, to have one for a place action or a summon."""
    kind: ClassVar[str] = "take"
    cause: str
    square: int


# ----- score and tasks
@dataclass(slots=True)
class Points(Event):
    """Points scored; only ``GameRecord.points`` adds these, so the totals stay right."""
    kind: ClassVar[str] = "points"
    source: str  # a task id, "destruction", "flare", "legend-summon" or (melee) "leftover-commons"
    points: int
    colour: int = -1  # melee: the opponent colour the points are scored in (-1 in a duel)


@dataclass(slots=True)
class TaskReveal(Event):
    """A task dealt to the row (turn 0) or revealed as the next task; ``seat`` is -1."""
    kind: ClassVar[str] = "task_reveal"
    task: str


@dataclass(slots=True)
class TaskClaim(Event):
    kind: ClassVar[str] = "task_claim"
    task: str
    points: int


@dataclass(slots=True)
class Improvise(Event):
    """Melee: a summoning improvised with a piece of ``colour``, spending that colour's improvisation (the
    Summon event follows)."""
    kind: ClassVar[str] = "improvise"
    card: str
    colour: int


@dataclass(slots=True)
class PassControl(Event):
    """A team game: the active player (``seat``) hands the rest of his turn to his teammate ``to``; ``during``
    is the card whose effect was being resolved ("" before an action)."""
    kind: ClassVar[str] = "pass_control"
    to: int
    during: str


# ----- Etherweave
@dataclass(slots=True)
class Warp(Event):
    """A warp text played from hand (a free play); the card becomes the pending being."""
    kind: ClassVar[str] = "warp"
    card: str


@dataclass(slots=True)
class PendingEnd(Event):
    """A pending being stops being pending: ``reason`` "summon", "to-hand" (Warpmaster) or "discard"."""
    kind: ClassVar[str] = "pending_end"
    card: str
    reason: str


@dataclass(slots=True)
class CopyWarp(Event):
    """``card``'s effect performs the warp text of ``source`` (Doppelganger, Ziggurat Sentinel)."""
    kind: ClassVar[str] = "copy_warp"
    card: str
    source: str


@dataclass(slots=True)
class Swap(Event):
    """The pieces on ``square`` and ``other`` exchange squares; ``seat`` is the active player."""
    kind: ClassVar[str] = "swap"
    cause: str
    square: int
    other: int


@dataclass(slots=True)
class Stasis(Event):
    """The piece on ``square`` lifted onto the Merchant of Time (out of the arena and of the stock)."""
    kind: ClassVar[str] = "stasis"
    cause: str
    square: int
    owner: int
    rank: int


@dataclass(slots=True)
class Release(Event):
    """The piece in stasis back in the arena on ``square``."""
    kind: ClassVar[str] = "release"
    cause: str
    square: int
    owner: int
    rank: int


# ----- Everfrost
@dataclass(slots=True)
class Freeze(Event):
    """``card`` becomes ``seat``'s frozen effect in play; ``cause``: the card whose summon put it there (itself,
    or Frozen Chest)."""
    kind: ClassVar[str] = "freeze"
    card: str
    cause: str


@dataclass(slots=True)
class Thaw(Event):
    """``seat`` thaws its frozen effect ``card`` (a free play); the frozen text's events follow, then the card
    goes to the discard pile."""
    kind: ClassVar[str] = "thaw"
    card: str


@dataclass(slots=True)
class ToDiscard(Event):
    """A card put on a discard pile by a rule or an effect, not the discard action: the frozen card not kept,
    a frozen effect replaced by Frozen Chest, a flare thrown away by Winter Whisperer."""
    kind: ClassVar[str] = "to_discard"
    card: str
    cause: str


@dataclass(slots=True)
class Remove(Event):
    """The piece just destroyed on ``square`` leaves the game (Deathbringer): its owner's supply of that kind
    is one smaller for good; ``twice``: an enemy piece, counted a second time as destroyed."""
    kind: ClassVar[str] = "remove"
    cause: str
    square: int
    owner: int
    rank: int
    twice: bool


@dataclass(slots=True)
class ActionLoss(Event):
    """Everfrost Sentinel: every other player's next turn has 1 action."""
    kind: ClassVar[str] = "action_loss"
    cause: str


# ----- Nethervoid
@dataclass(slots=True)
class Gateway(Event):
    """``seat``'s Gateway is now on ``square`` (-1: it has none any more)."""
    kind: ClassVar[str] = "gateway"
    square: int


@dataclass(slots=True)
class UnderDeck(Event):
    """Hell Hound: ``card`` went under ``seat``'s personal deck at the end of the turn."""
    kind: ClassVar[str] = "under_deck"
    card: str


@dataclass(slots=True)
class Possess(Event):
    """Possessed Summoner: ``seat``'s next summoning this turn takes its pattern from ``colour``'s pieces."""
    kind: ClassVar[str] = "possess"
    colour: int


@dataclass(slots=True)
class FlareDiscard(Event):
    """``seat`` discarded the flare ``card`` without invoking it (an effect's cost)."""
    kind: ClassVar[str] = "flare_discard"
    card: str


@dataclass(slots=True)
class LegendCredit(Event):
    """Gate Master: the summon of ``card`` counts as summoning a legend on ``square``."""
    kind: ClassVar[str] = "legend_credit"
    card: str
    square: int


EVENT_KINDS: dict[str, type[Event]] = {cls.kind: cls for cls in (
    Draw, Discard, Return, ToDeck, Summon, EffectDone, FlareInvoked, Held, Place, Destroy, Upgrade, Downgrade,
    Convert, Take, Points, TaskReveal, TaskClaim, Improvise, PassControl, Warp, PendingEnd, CopyWarp, Swap, Stasis,
    Release, Freeze, Thaw, ToDiscard, Remove, ActionLoss, Gateway, UnderDeck, Possess, FlareDiscard, LegendCredit)}

E = TypeVar("E", bound=Event)


def events_from_json(text: str) -> list[Event]:
    """The events of a JSON list of event objects (``Event.to_dict()`` each)."""
    out = []
    for e in json.loads(text):
        cls = EVENT_KINDS[e.pop("kind")]
        out.append(cls(**e))
    return out


@dataclass
class GameRecord:
    events: list[Event] = field(default_factory=list)
    config: dict[str, Any] = field(default_factory=dict)
    first_player: int = 0  # the first seat (0-3 in a team game)
    scores: tuple[int, ...] = (0, 0)  # one per seat; in a melee the lowest colour score; in a team game per team
    winner: int = -1  # seat, or -1 for a tie (in a melee: a shared first place; in a team game the team, 0 or 1)
    end_reason: str = ""  # "deck", "score" or "turn-limit"
    tiebreak: str = ""  # "", "upgraded", "pieces" or "tie"; in a melee also "second-lowest", "highest"
    turns: int = 0
    # melee only (empty in a duel): each seat's points per colour (None for its own) and its place (1 first)
    colour_scores: tuple[tuple[int | None, ...], ...] = ()
    places: tuple[int, ...] = ()

    @property
    def teams(self) -> bool:
        """A team game (``config["teams"]``): seats 0 and 2 (team A) against 1 and 3 (team B); every event's
        ``seat`` is a real seat 0-3, ``owner`` of destroy/upgrade/downgrade events is the team (0 A, 1 B),
        ``scores`` and ``winner`` are per team."""
        return bool(self.config.get("teams"))

    def add(self, event: Event) -> None:
        self.events.append(event)

    def of_kind(self, cls: type[E]) -> list[E]:
        return [e for e in self.events if isinstance(e, cls)]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "config": self.config,
            "first_player": self.first_player,
            "scores": list(self.scores),
            "winner": self.winner,
            "end_reason": self.end_reason,
            "tiebreak": self.tiebreak,
        }
        if self.places:
            out["colour_scores"] = self.colour_scores
            out["places"] = self.places
        out["turns"] = self.turns
        out["events"] = [e.to_dict() for e in self.events]
        return out
