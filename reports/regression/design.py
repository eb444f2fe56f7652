"""How small a change a study's regression gates can detect, from its config alone (before it runs).

Every figure is the worst case: each game of the candidate plays differently from the baseline's game of
the same seed (each seat's change then has variance 2 x 0.25). A change that alters only some games is
easier to see. The gates are tested together with Benjamini-Hochberg; one real change among ``m`` gates
is tested at ``alpha / m``, the level these figures use, and a gate moves when its test rejects and its
interval reaches the threshold (reports/regression/gates.py, ``decide``): so the power printed here is
the power of the rule. tests/test_regression_power.py checks it by simulation through the gate code.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from pipelines.study import Study
from reports.regression.effects import gate_power, minimal_detectable_effect
from reports.regression.thresholds import DEFAULTS, Thresholds


@dataclass(frozen=True)
class GateDesign:
    metric: str  # deck_win_rate, matchup_win_rate, or card_position_effect (a changed being of the deck)
    mode: str
    subject: str
    games: int  # seat-games per run behind the gate
    mde: float  # minimal detectable change at 80% power and alpha / m, worst case
    power: float  # the chance that a true change of the threshold moves the gate, worst case


def gate_designs(study: Study, thresholds: Thresholds = DEFAULTS, changed_cards: int = 1) -> list[GateDesign]:
    """The deck and matchup gates the study will have, and the position gate of a changed being of each
    deck, each with its worst-case detectable effect and power at ``thresholds.min_difference``.

    ``changed_cards``: how many changed-card gates per form to count in the Benjamini-Hochberg family (a
    changed being adds one gate per form; its deck's line shows that gate's figures)."""
    cards = study.load_cards()
    gates: list[tuple[str, str, str, int, float]] = []  # metric, form, subject, seat-games, worst-case se
    positions: list[tuple[str, str, str, int, float]] = []
    for mode in study.forms:
        duels = [c for c in study.cells if c.form == mode and c.seats == 2 and not c.teams]
        seats: Counter[str] = Counter()
        holders: Counter[str] = Counter()  # seat-games with the deck, mirrors included (both seats hold it)
        matchups: Counter[tuple[str, str]] = Counter()
        for cell in duels:
            first, second = cell.decks
            holders[first] += study.games_per_cell
            holders[second] += study.games_per_cell
            if first != second:
                seats[first] += study.games_per_cell
                seats[second] += study.games_per_cell
                matchups[tuple(sorted((first, second)))] += study.games_per_cell  # type: ignore[index]
        gates += [("deck_win_rate", mode, deck, n, math.sqrt(0.5 / n)) for deck, n in sorted(seats.items())]
        if len(seats) >= 3:
            gates += [("matchup_win_rate", mode, f"{a} vs {b}", matchups[(a, b)], math.sqrt(0.5 / matchups[(a, b)]))
                      for a, b in combinations(sorted(seats), 2) if matchups[(a, b)]]
        for deck, n in sorted(holders.items()):
            size = len(cards.deck(deck))
            sxx = n * (size**2 - 1) / 12  # positions 0 to size - 1, each equally likely
            positions.append(("card_position_effect", mode, f"a changed {deck} being", n,
                              (size - 1) * math.sqrt(0.5 / sxx)))
    family = len(gates) + (changed_cards * len(study.forms) if positions else 0)
    level = thresholds.alpha / max(family, 1)
    return [GateDesign(metric, mode, subject, n, minimal_detectable_effect(se, level),
                       gate_power(thresholds.min_difference, se, level))
            for metric, mode, subject, n, se in gates + (positions if changed_cards else [])]
