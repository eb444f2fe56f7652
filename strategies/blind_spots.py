"""Blind spots of a player: how often it takes the kinds of option a strong player sometimes must.

A player plays mirror games (the same strategy in both seats) through the Python API, wrapped so that the
core asks Python at every decision that has a choice (``Watched``): each decision's legal options and the
option taken are logged, and the player answers exactly as it does when the core plays it (the records are
the same). The counts are taken from that log and the game's record (``count_game``). Game ``i`` of a form
has seed ``seed + i`` and the ``i % len(pairings)``-th deck pairing, so a run is a function of its options.
docs/strategies.md ("Blind spots") gives the counts of the default players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

from sim.cards import Being, CardSet, Flare
from sim.decisions import DISCARD, FLARE, SUMMON, Action, Decision, PlayerView, Strategy
from sim.game import Game
from sim.record import Draw, GameRecord, Held
from strategies import make_strategy

RETURN = "return"
HERALD = "imperial/herald"


class Asked(NamedTuple):
    """One decision with a choice, as it was asked: the turn, the decision and the index taken."""

    turn: int
    decision: Decision
    chosen: int

    @property
    def option(self) -> Any:
        return self.decision.options[self.chosen]


class Watched:
    """A strategy the core must ask through Python (it has no ``native`` flag of its own), so that every
    decision it answers is logged; the answers are the wrapped strategy's."""

    def __init__(self, inner: Strategy, log: list[Asked]):
        self.inner = inner
        self.name = inner.name
        self.log = log

    def choose(self, view: PlayerView, decision: Decision) -> int:
        chosen = self.inner.choose(view, decision)
        self.log.append(Asked(view.turn, decision, chosen))
        return chosen


@dataclass
class BlindSpots:
    """The counts of one strategy in one form; every "turn" is one player's turn."""

    strategy: str
    form: str
    games: int = 0
    players: int = 0
    # discarding
    discards: int = 0
    discards_summon_legal: int = 0  # the discard action taken at a decision that offered a summon
    discards_return_offered: int = 0  # discards after which returning a card was offered
    discards_with_return: int = 0  # of those, discards after which at least one card was returned
    return_decisions: int = 0  # decisions "return a card, or stop" after a discard
    returns: dict[str, int] = field(default_factory=lambda: {"being": 0, "legend": 0, "flare": 0})
    kept_opening_legends: int = 0  # players ending the game holding both (all) of their opening legends
    kept_an_opening_legend: int = 0  # players ending the game holding at least one of them
    # legends
    legend_turns_legal: int = 0  # turns on which a legend summon was offered
    legend_turns_summoned: int = 0  # of those, turns on which a legend was summoned
    # flares
    flare_turns_offered: int = 0
    flare_turns_invoked: int = 0
    last_turns_flare_offered: int = 0  # each player's last turn of the game, when a flare was offered on it
    last_turns_flare_invoked: int = 0
    # the end of the game
    end_reasons: dict[str, int] = field(default_factory=dict)
    decided_games: int = 0  # games with a winner
    winner_points: int = 0  # the winners' points, summed
    # optional parts of effects: decisions of a card's effect that offer "do nothing / stop" (None)
    optional_offered: dict[str, int] = field(default_factory=dict)  # by "card kind"
    optional_taken: dict[str, int] = field(default_factory=dict)

    @property
    def winner_mean_points(self) -> float | None:
        return self.winner_points / self.decided_games if self.decided_games else None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"winner_mean_points": self.winner_mean_points}


def is_legend_summon(option: Any) -> bool:
    return isinstance(option, Action) and option.kind == SUMMON and option.card is not None and option.card.is_legend


def _card_kind(card: Being | Flare) -> str:
    if isinstance(card, Flare):
        return "flare"
    return "legend" if card.is_legend else "being"


def count_game(counts: BlindSpots, log: Sequence[Asked], record: GameRecord, seats: int = 2) -> None:
    """Add one game's decisions (``log``) and record to ``counts``."""
    counts.games += 1
    counts.players += seats
    legend_legal: set[tuple[int, int]] = set()  # (turn, player)
    legend_made: set[tuple[int, int]] = set()
    flare_offered: set[tuple[int, int]] = set()
    flare_invoked: set[tuple[int, int]] = set()
    last_turn: dict[int, int] = {}
    first_return = returned = False  # the state of the returns after the last discard
    for asked in log:
        d, option = asked.decision, asked.option
        key = (asked.turn, d.player)
        if d.kind == "action":
            last_turn[d.player] = max(last_turn.get(d.player, 0), asked.turn)
            if any(is_legend_summon(o) for o in d.options):
                legend_legal.add(key)
            if is_legend_summon(option):
                legend_made.add(key)
            if any(o.kind == FLARE for o in d.options):
                flare_offered.add(key)
            if option.kind == FLARE:
                flare_invoked.add(key)
            if option.kind == DISCARD:
                counts.discards += 1
                counts.discards_summon_legal += any(o.kind == SUMMON for o in d.options)
                first_return, returned = True, False
        elif d.kind == RETURN:
            counts.return_decisions += 1
            counts.discards_return_offered += first_return
            if option is not None:
                counts.returns[_card_kind(option)] += 1
                counts.discards_with_return += not returned
                returned = True
            first_return = False
        elif d.card and None in d.options:
            name = f"{d.card} {d.kind}"
            counts.optional_offered[name] = counts.optional_offered.get(name, 0) + 1
            counts.optional_taken[name] = counts.optional_taken.get(name, 0) + (option is not None)
    counts.legend_turns_legal += len(legend_legal)
    counts.legend_turns_summoned += len(legend_made & legend_legal)
    counts.flare_turns_offered += len(flare_offered)
    counts.flare_turns_invoked += len(flare_invoked & flare_offered)
    for player, turn in last_turn.items():
        if (turn, player) in flare_offered:
            counts.last_turns_flare_offered += 1
            counts.last_turns_flare_invoked += (turn, player) in flare_invoked
    _count_opening_legends(counts, record, seats)
    counts.end_reasons[record.end_reason] = counts.end_reasons.get(record.end_reason, 0) + 1
    if record.winner >= 0:
        counts.decided_games += 1
        counts.winner_points += record.scores[record.winner]


def _count_opening_legends(counts: BlindSpots, record: GameRecord, seats: int) -> None:
    """The players ending the game with their opening legends (both, or one) still in hand (from the record's
    opening draws and the cards held at the end)."""
    opening: list[set[str]] = [set() for _ in range(seats)]
    held: list[set[str]] = [set() for _ in range(seats)]
    for e in record.events:
        if isinstance(e, Draw) and e.opening and e.deck == "legend":
            opening[e.seat].add(e.card)
        elif isinstance(e, Held):
            held[e.seat].add(e.card)
    for seat in range(seats):
        counts.kept_opening_legends += bool(opening[seat]) and opening[seat] <= held[seat]
        counts.kept_an_opening_legend += bool(opening[seat] & held[seat])


def play_watched(cards: CardSet, form: str, decks: tuple[str, str], strategy: str, seed: int,
                 params: dict[str, Any] | None = None) -> tuple[list[Asked], GameRecord]:
    """One mirror game of ``strategy``: the log of its decisions and its record."""
    log: list[Asked] = []
    players = [Watched(make_strategy(strategy, seat, seed, params), log) for seat in range(2)]
    record = Game(cards, form, decks, players, seed).play()
    return log, record


def measure(cards: CardSet, strategy: str, form: str, pairings: Sequence[tuple[str, str]], games: int,
            seed: int, params: dict[str, Any] | None = None) -> BlindSpots:
    """The counts of ``games`` mirror games of ``strategy`` in ``form``, cycling over ``pairings``."""
    counts = BlindSpots(strategy, form)
    for i in range(games):
        log, record = play_watched(cards, form, pairings[i % len(pairings)], strategy, seed + i, params)
        count_game(counts, log, record)
    return counts


# ----- text
def _share(part: int, whole: int) -> str:
    return f"{part} of {whole} ({part / whole:.0%})" if whole else f"{part} of 0"


def rows(c: BlindSpots) -> list[tuple[str, str]]:
    """The counts as (measure, value) pairs, in the order of docs/strategies.md."""
    r = c.returns
    herald_offered = sum(n for k, n in c.optional_offered.items() if k.startswith(HERALD + " "))
    herald_taken = sum(n for k, n in c.optional_taken.items() if k.startswith(HERALD + " "))
    ends = ", ".join(f"{reason or 'none'} {_share(n, c.games)}" for reason, n in sorted(c.end_reasons.items()))
    mean = c.winner_mean_points
    return [
        ("discards offering a return: a card returned", _share(c.discards_with_return, c.discards_return_offered)),
        ("return decisions: returns made", _share(sum(r.values()), c.return_decisions)),
        ("cards returned: beings, legends, flares", f"{r['being']}, {r['legend']}, {r['flare']}"),
        ("players ending with both opening legends", _share(c.kept_opening_legends, c.players)),
        ("players ending with an opening legend", _share(c.kept_an_opening_legend, c.players)),
        ("turns a legend summon is legal: one made", _share(c.legend_turns_summoned, c.legend_turns_legal)),
        ("discards made while a summon is legal", _share(c.discards_summon_legal, c.discards)),
        ("turns a flare is offered: one invoked", _share(c.flare_turns_invoked, c.flare_turns_offered)),
        ("last turns a flare is offered: one invoked", _share(c.last_turns_flare_invoked,
                                                              c.last_turns_flare_offered)),
        ("games by end", ends),
        ("winner's mean points", "-" if mean is None else f"{mean:.1f} ({c.decided_games} games won)"),
        ("optional effect choices: taken", _share(sum(c.optional_taken.values()), sum(c.optional_offered.values()))),
        ("Herald's optional moves: taken", _share(herald_taken, herald_offered)),
    ]


def render(results: Sequence[BlindSpots]) -> str:
    """A Markdown table: one row per measure, one column per strategy and form; then the optional effect
    choices by card."""
    heads = [f"{c.strategy} {c.form}" for c in results]
    table = [rows(c) for c in results]
    lines = ["| measure | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(heads)]
    for i, (name, _) in enumerate(table[0]):
        lines.append(f"| {name} | " + " | ".join(t[i][1] for t in table) + " |")
    names = sorted({k for c in results for k in c.optional_offered})
    lines += ["", "| optional effect choice: taken of offered | " + " | ".join(heads) + " |",
              "|---|" + "---:|" * len(heads)]
    for k in names:
        cells = [f"{c.optional_taken.get(k, 0)} of {c.optional_offered.get(k, 0)}" for c in results]
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    return "\n".join(lines)

