"""Whether a player's skipped legend summons cost it games, measured by replay.

    python scripts/skipped_summon_value.py --strategy swift_tuned --form high-form --games 1000

Seed ``i`` is played as a mirror of ``--strategy`` with the ``i % 9``-th ordered pairing of the base decks (as
``tashkalar blind-spots`` plays them). At the first action decision of the game where a legend summon is legal
and the player does something else, the seed is replayed with that answer forced to the first legend summon
offered; the player's builder answers the summon's placement and effects afresh, and every other decision,
the deal and the players' streams are as before. The difference of the skipping player's wins, paired by
seed, is what summoning there would have gained: a negative or null difference is the measured reason for
the skips (docs/strategies.md, "The default player").
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from reports.stats import Paired
from scripts.choice_value import estimate_line, paired_results, printed
from sim.bench import pairings
from sim.cards import BASE_DECKS, load_card_set
from sim.decisions import SUMMON, Action, Decision, PlayerView, Strategy
from sim.errors import UserError
from sim.game import Game
from sim.state import MODES
from strategies.registry import make_strategy


def _legend_summons(decision: Decision) -> list[int]:
    return [i for i, o in enumerate(decision.options)
            if isinstance(o, Action) and o.kind == SUMMON and o.card is not None and o.card.is_legend]


@dataclass
class SkipWatch:
    """Plays as ``inner``; at the first action decision of the game that skips a legal legend summon (``met``
    shared by the seats), records the seat and, with ``force``, summons the first legend offered instead.
    ``inner`` is asked every time, so its stream advances as in the game played unforced."""

    inner: Strategy
    force: bool
    met: list[int] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.inner.name

    def choose(self, view: PlayerView, decision: Decision) -> int:
        answer = self.inner.choose(view, decision)
        if self.met or decision.kind != "action":
            return answer
        legends = _legend_summons(decision)
        if not legends or answer in legends:
            return answer
        self.met.append(decision.player)
        return legends[0] if self.force else answer


@dataclass
class SkipValue:
    games: int
    skipped: int
    summon_vs_own: Paired


def _play(form: str, decks: list[str], seed: int, strategy: str, force: bool) -> tuple[int | None, int | None]:
    """The seat that first skipped a legal legend summon (None: no skip) and the game's winner."""
    met: list[int] = []
    players = [SkipWatch(make_strategy(strategy, seat, seed), force, met) for seat in range(2)]
    record = Game(load_card_set(), form, decks, players, seed).play()
    return (met[0] if met else None), record.winner


def measure(strategy: str, form: str, games: int) -> SkipValue:
    decks = pairings("all", list(BASE_DECKS))
    pairs: list[tuple[bool, bool]] = []
    for seed in range(games):
        order = list(decks[seed % len(decks)])
        seat, own = _play(form, order, seed, strategy, False)
        if seat is None:
            continue
        _, forced = _play(form, order, seed, strategy, True)
        pairs.append((forced == seat, own == seat))
    return SkipValue(games, len(pairs), paired_results(pairs))


def render(value: SkipValue) -> str:
    lines = [f"a legal legend summon was skipped in {value.skipped} of {value.games} games"]
    if value.skipped:
        lines.append(estimate_line("summoning instead minus the player's own answers", value.summon_vs_own))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strategy", default="swift_tuned", help="both seats' player (a strategy or preset)")
    parser.add_argument("--form", default="high-form", choices=MODES)
    parser.add_argument("--games", type=int, default=1000, help="seeds played (0 to N-1)")
    args = parser.parse_args(argv)

    def report() -> str:
        if args.games < 1:
            raise UserError(f"--games: expected at least 1, got {args.games}")
        make_strategy(args.strategy, 0, 0)
        return render(measure(args.strategy, args.form, args.games))

    return printed(report)


if __name__ == "__main__":
    sys.exit(main())
