"""Whether the options a player skips cost it games, measured by replay.

    python scripts/skipped_option_value.py --option legend-summon --strategy swift_tuned --form high-form
    python scripts/skipped_option_value.py --option last-flare --strategy swift_tuned --form deathmatch

Seed ``i`` is played as a mirror of ``--strategy`` with the ``i % 9``-th ordered pairing of the base decks (as
``tashkalar blind-spots`` plays them). The game's first skip is found: ``legend-summon``, the first action
decision where a legend summon is legal and the player does something else; ``last-flare``, the first
player whose last turn offered the flare without its being invoked (that turn's first offer). The seed is
then replayed with that answer forced (the first legend offered; the flare), the player answering what
follows afresh, every other decision, the deal and the players' streams as before. The difference of the
skipping player's wins, paired by seed, is what taking the option there would have gained: a negative or
null difference is the measured reason for the skips (docs/strategies.md, "The default player").
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from reports.stats import Paired
from scripts.choice_value import estimate_line, paired_results, printed
from sim.bench import pairings
from sim.cards import BASE_DECKS, load_card_set
from sim.decisions import FLARE, Action, Decision, PlayerView, Strategy
from sim.errors import UserError
from sim.game import Game
from sim.state import MODES
from strategies.blind_spots import is_legend_summon
from strategies.registry import make_strategy


class Asked(NamedTuple):
    """An action decision as it was asked: its place among the game's action decisions, the turn, the player,
    the options and the answer."""

    index: int
    turn: int
    player: int
    options: list
    answer: int


def _legends(options: list) -> list[int]:
    return [i for i, o in enumerate(options) if is_legend_summon(o)]


def _flare(options: list) -> int | None:
    return next((i for i, o in enumerate(options) if isinstance(o, Action) and o.kind == FLARE), None)


def first_skipped_legend(log: list[Asked]) -> tuple[Asked, int] | None:
    """The first action decision that skips a legal legend summon, and the first legend offered."""
    for asked in log:
        legends = _legends(asked.options)
        if legends and asked.answer not in legends:
            return asked, legends[0]
    return None


def first_skipped_last_flare(log: list[Asked]) -> tuple[Asked, int] | None:
    """The first offer of the flare on a player's last turn when that turn never invoked it, and the flare."""
    last = {a.player: a.turn for a in log}
    skipped = []
    for player, turn in last.items():
        on_turn = [a for a in log if (a.turn, a.player) == (turn, player)]
        offers = [a for a in on_turn if _flare(a.options) is not None]
        if offers and not any(a.answer == _flare(a.options) for a in offers):
            skipped.append(offers[0])
    if not skipped:
        return None
    first = min(skipped, key=lambda a: a.index)
    return first, _flare(first.options)


SKIPS: dict[str, Callable[[list[Asked]], tuple[Asked, int] | None]] = {
    "legend-summon": first_skipped_legend, "last-flare": first_skipped_last_flare}


@dataclass
class Watch:
    """Plays as ``inner``, logging every action decision (``log``, shared by the seats); at the action decision
    numbered ``force_at`` answers ``force`` instead. ``inner`` is asked every time, so its stream advances as
    in the game played unforced."""

    inner: Strategy
    log: list[Asked] = field(default_factory=list)
    force_at: int | None = None
    force: int = 0

    @property
    def name(self) -> str:
        return self.inner.name

    def choose(self, view: PlayerView, decision: Decision) -> int:
        answer = self.inner.choose(view, decision)
        if decision.kind != "action":
            return answer
        index = len(self.log)
        self.log.append(Asked(index, view.turn, decision.player, list(decision.options), answer))
        return self.force if index == self.force_at else answer


@dataclass
class SkipValue:
    option: str
    games: int
    skipped: int
    taken_vs_own: Paired


def _play(form: str, decks: list[str], seed: int, strategy: str, force_at: int | None = None,
          force: int = 0) -> tuple[list[Asked], int | None]:
    log: list[Asked] = []
    players = [Watch(make_strategy(strategy, seat, seed), log, force_at, force) for seat in range(2)]
    record = Game(load_card_set(), form, decks, players, seed).play()
    return log, record.winner


def measure(option: str, strategy: str, form: str, games: int) -> SkipValue:
    decks = pairings("all", list(BASE_DECKS))
    pairs: list[tuple[bool, bool]] = []
    for seed in range(games):
        order = list(decks[seed % len(decks)])
        log, own = _play(form, order, seed, strategy)
        skip = SKIPS[option](log)
        if skip is None:
            continue
        asked, force = skip
        _, forced = _play(form, order, seed, strategy, asked.index, force)
        pairs.append((forced == asked.player, own == asked.player))
    return SkipValue(option, games, len(pairs), paired_results(pairs))


def render(value: SkipValue) -> str:
    lines = [f"{value.option} skipped in {value.skipped} of {value.games} games"]
    if value.skipped:
        lines.append(estimate_line("taking it instead minus the player's own answers", value.taken_vs_own))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--option", required=True, choices=sorted(SKIPS), help="the kind of option skipped")
    parser.add_argument("--strategy", default="swift_tuned", help="both seats' player (a strategy or preset)")
    parser.add_argument("--form", default="high-form", choices=MODES)
    parser.add_argument("--games", type=int, default=1000, help="seeds played (0 to N-1)")
    args = parser.parse_args(argv)

    def report() -> str:
        if args.games < 1:
            raise UserError(f"--games: expected at least 1, got {args.games}")
        make_strategy(args.strategy, 0, 0)
        return render(measure(args.option, args.strategy, args.form, args.games))

    return printed(report)


if __name__ == "__main__":
    sys.exit(main())
