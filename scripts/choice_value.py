"""The worth of an optional answer inside an effect, measured by replay.

    python scripts/choice_value.py --card everfrost/everfrost-sentinel --kind downgrade \\
        --decks everfrost,sylvan --form high-form --strategy planner --games 3000

Each seed is played once as the players choose; where a player meets the choice (a decision of ``--kind``
during ``--card``'s effect that offers "none" and at least one target), the seed is replayed twice with that
first such answer forced: the first target offered ("take"), and "none". Every other decision, the deal and
the players' streams are the same, so the two results pair: their difference is the worth of taking at the
positions where the choice arose, which an ablation cannot show when the choice comes in one game in ten. The
decks alternate seats with the seed. Estimates are differences of the chooser's win rate, paired by seed (the
t interval of the reports, ``reports.stats.Paired``): always taking against always declining, and the
player's own answers against each. docs/strategies.md, "The expansion mechanics" (the Sentinel's downgrade).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reports.stats import Paired
from sim.cards import load_card_set
from sim.decisions import Decision, PlayerView, Strategy
from sim.errors import UserError
from sim.game import Game
from sim.state import MODES
from strategies.registry import make_strategy

TAKE, NONE = "take", "none"


@dataclass
class Meeting:
    """The first time a player met the choice in a game: the seat and whether it took."""

    seat: int
    took: bool


@dataclass
class Forcing:
    """Plays as ``inner``; at the first decision that is the choice, answers ``force`` (or, without one, what
    ``inner`` answers) and records the meeting. ``inner`` is asked every time, so its stream and plan advance
    exactly as in the unforced game."""

    inner: Strategy
    card: str
    kind: str
    force: str | None
    met: list[Meeting] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.inner.name

    def choose(self, view: PlayerView, decision: Decision) -> int:
        answer = self.inner.choose(view, decision)
        options = decision.options
        if self.met or decision.kind != self.kind or decision.card != self.card or None not in options:
            return answer
        targets = [i for i, o in enumerate(options) if o is not None]
        if not targets:
            return answer
        self.met.append(Meeting(decision.player, options[answer] is not None))
        if self.force == TAKE:
            return targets[0]
        if self.force == NONE:
            return options.index(None)
        return answer


@dataclass
class ChoiceValue:
    games: int
    meetings: list[Meeting]
    take_vs_none: Paired
    own_vs_none: Paired
    take_vs_own: Paired


def paired_results(pairs: list[tuple[bool, bool]]) -> Paired:
    return Paired(up=sum(a and not b for a, b in pairs), down=sum(b and not a for a, b in pairs),
                  same=sum(a == b for a, b in pairs))


def _play(form: str, decks: list[str], seed: int, strategy: str, card: str, kind: str,
          force: str | None) -> tuple[Meeting | None, Any]:
    cards = load_card_set()
    shared: list[Meeting] = []
    players = [Forcing(make_strategy(strategy, seat, seed), card, kind, force, shared) for seat in range(2)]
    record = Game(cards, form, decks, players, seed).play()
    return (shared[0] if shared else None), record


def measure(card: str, kind: str, decks: tuple[str, str], form: str, strategy: str, games: int) -> ChoiceValue:
    meetings: list[Meeting] = []
    take_none: list[tuple[bool, bool]] = []
    own_none: list[tuple[bool, bool]] = []
    take_own: list[tuple[bool, bool]] = []
    for seed in range(games):
        order = list(decks) if seed % 2 == 0 else [decks[1], decks[0]]
        met, own = _play(form, order, seed, strategy, card, kind, None)
        if met is None:
            continue
        meetings.append(met)
        results = {force: _play(form, order, seed, strategy, card, kind, force)[1].winner == met.seat
                   for force in (TAKE, NONE)}
        won = own.winner == met.seat
        take_none.append((results[TAKE], results[NONE]))
        own_none.append((won, results[NONE]))
        take_own.append((results[TAKE], won))
    return ChoiceValue(games, meetings, paired_results(take_none), paired_results(own_none), paired_results(take_own))


def estimate_line(label: str, estimate: Paired) -> str:
    if estimate.value is None:
        return f"{label}: no pair differs (n={estimate.n})"
    lo, hi = estimate.interval
    return (f"{label}: {100 * estimate.value:+.1f} points ({100 * lo:+.1f} to {100 * hi:+.1f}), n={estimate.n}, "
            f"{estimate.up + estimate.down} pairs differ")


def render(value: ChoiceValue) -> str:
    n = len(value.meetings)
    took = sum(m.took for m in value.meetings)
    lines = [f"the choice arose in {n} of {value.games} games; the player took it in {took} of them"]
    if n:
        lines += [estimate_line("always take minus always none", value.take_vs_none),
                  estimate_line("own answers minus always none", value.own_vs_none),
                  estimate_line("always take minus own answers", value.take_vs_own)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--card", required=True, help="the card whose effect offers the choice, e.g. imperial/herald")
    parser.add_argument("--kind", required=True, help="the decision kind, e.g. downgrade, move")
    parser.add_argument("--decks", required=True, help="two decks, e.g. everfrost,sylvan (they alternate seats)")
    parser.add_argument("--form", default="high-form", choices=MODES)
    parser.add_argument("--strategy", default="planner", help="both seats' player (a strategy or preset)")
    parser.add_argument("--games", type=int, default=1000, help="seeds played (0 to N-1)")
    args = parser.parse_args(argv)
    decks = args.decks.split(",")

    def report() -> str:
        if len(decks) != 2:
            raise UserError(f"--decks: expected two decks separated by a comma, got {args.decks!r}")
        if args.card not in load_card_set().by_id:
            raise UserError(f"--card: no card {args.card!r} in the card set")
        return render(measure(args.card, args.kind, (decks[0], decks[1]), args.form, args.strategy, args.games))

    return printed(report)


def printed(report: Callable[[], str]) -> int:
    """Print what ``report`` returns (exit 0), or its UserError as one line on stderr (exit 2)."""
    try:
        text = report()
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
