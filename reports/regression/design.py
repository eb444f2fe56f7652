"""How small a change a study's regression gates can detect, from its config alone (before it runs)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from pipelines.study import Study
from reports.regression.effects import minimal_detectable_effect


@dataclass(frozen=True)
class GateDesign:
    metric: str  # deck_win_rate or matchup_win_rate
    mode: str
    subject: str
    games: int  # seats (games) per run behind the gate
    mde: float  # minimal detectable change at 80% power, worst case (every game diverges)


def gate_designs(study: Study, alpha: float = 0.05, changed_cards: int = 1) -> list[GateDesign]:
    """The deck and matchup gates the study will have, each with its worst-case detectable effect.

    ``changed_cards``: how many changed-card gates per form to count in the Benjamini-Hochberg family.
    """
    per_form: list[tuple[str, str, str, int]] = []
    for mode in study.forms:
        seats: Counter[str] = Counter()
        matchups: Counter[tuple[str, str]] = Counter()
        for first, second in study.deck_pairings:
            if first == second:
                continue
            games = study.games_per_cell * len(study.strategy_pairings)
            seats[first] += games
            seats[second] += games
            matchups[tuple(sorted((first, second)))] += games  # type: ignore[index]
        per_form += [("deck_win_rate", mode, deck, n) for deck, n in sorted(seats.items())]
        if len(seats) >= 3:
            per_form += [("matchup_win_rate", mode, f"{a} vs {b}", matchups[(a, b)])
                         for a, b in combinations(sorted(seats), 2) if matchups[(a, b)]]
    family = len(per_form) + changed_cards * len(study.forms)
    level = alpha / max(family, 1)
    return [GateDesign(metric, mode, subject, n, minimal_detectable_effect(math.sqrt(0.5 / n), level))
            for metric, mode, subject, n in per_form]
