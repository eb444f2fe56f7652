"""Synthetic baseline and candidate runs at a study's size, decided by the gate code itself: the measured
power and false alarms of the regression gates (tests/test_regression_power.py, and
``scripts/validate_regression.py power`` for the tables of docs/regression.md).

The study's config gives the games: its duel cells (forms, deck pairings, strategy pairings), its games per
cell and its seat rotation. Each baseline game is a draw (a win for seat 0 with chance (1 - ties) / 2, a tie
with chance ``ties``). The candidate replays it: a game that *diverges* is drawn afresh, the others keep
their result. The planted change moves ``deck``'s expected result by ``shift`` in every one of its games, all
of it carried by the games that diverge (each a fresh draw with the deck's chance of winning raised by
``shift / divergence``). ``divergence = 1`` with ``others_diverge`` is the worst case the detectable
effects assume: every game plays differently. A realistic change alters only some of the changed deck's
games and none of the games it takes no part in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from pipelines.study import Study
from reports.regression.gates import Gate, decide, deck_gates, position_gates
from reports.regression.thresholds import Thresholds

CHANGED_CARD = "{deck}/changed"  # the planted change's card: a being of the moved deck


@dataclass(frozen=True)
class Scenario:
    deck: str = ""  # the deck whose win rate moves; "" for an A/A (no change, no changed card)
    shift: float = 0.0  # the true change of its expected result (win 1, tie 0.5), in each of its games
    divergence: float = 1.0  # share of the deck's games that play differently in the candidate
    others_diverge: bool = True  # games without the deck play differently too (the worst case)
    paired: bool = True  # the candidate replays the baseline's seeds; else it plays other seeds
    ties: float = 0.0  # share of tied games


def _draw(rng: np.random.Generator, win: np.ndarray, ties: float) -> np.ndarray:
    """Seat 0's results: 1 with chance ``win``, 0.5 with chance ``ties``, else 0."""
    u = rng.random(len(win))
    return np.where(u < win, 1.0, np.where(u < win + ties, 0.5, 0.0))


class Layout:
    """The study's duels as arrays, built once: per game its form and the decks in seats 0 and 1 (after the
    seat rotation), and both runs' seat rows without their results."""

    def __init__(self, study: Study):
        modes, first, second = [], [], []
        for cell in (c for c in study.cells if c.seats == 2 and not c.teams):
            k = np.arange(study.games_per_cell)
            swapped = (k % 2 == 1) if study.seat_balance else np.zeros(len(k), dtype=bool)
            modes.append(np.full(len(k), cell.form))
            first.append(np.where(swapped, cell.decks[1], cell.decks[0]))
            second.append(np.where(swapped, cell.decks[0], cell.decks[1]))
        self.deck_0, self.deck_1 = np.concatenate(first), np.concatenate(second)
        self.games = len(self.deck_0)
        modes_all, game_id = np.concatenate(modes), np.arange(self.games)
        self.seats = pl.concat([
            pl.DataFrame({"run": run, "game_id": game_id, "mode": modes_all, "seat": seat,
                          "deck": self.deck_0 if seat == 0 else self.deck_1,
                          "opponent": self.deck_1 if seat == 0 else self.deck_0})
            for run in (0, 1) for seat in (0, 1)]).with_columns(pl.col("mode", "deck", "opponent").cast(pl.Categorical))
        self.deck_sizes = {deck: len(beings) for deck, beings in study.load_cards().decks.items()}


def simulate(layout: Layout, scenario: Scenario, rng: np.random.Generator) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The two runs' seat outcomes (as seat_outcomes.sql) and, when a deck moved, the shuffled positions of
    its changed being (as card_positions.sql; the position has no effect here, so that gate's true change
    is 0 and it only widens the Benjamini-Hochberg family as a real changed card does)."""
    s, n = scenario, layout.games
    even = np.full(n, (1 - s.ties) / 2)
    base = _draw(rng, even, s.ties)
    holds_0, holds_1 = layout.deck_0 == s.deck, layout.deck_1 == s.deck
    share = np.where(holds_0 | holds_1, s.divergence, 1.0 if s.others_diverge else 0.0)
    lift = s.shift / s.divergence if s.deck else 0.0
    moved_win = even + lift * (holds_0.astype(float) - holds_1.astype(float))
    if s.paired:
        cand = np.where(rng.random(n) < share, _draw(rng, moved_win, s.ties), base)
    else:
        cand = _draw(rng, moved_win, s.ties)
    seats = layout.seats.with_columns(pl.Series("result", np.concatenate([base, 1 - base, cand, 1 - cand])))
    if not s.deck:
        return seats, pl.DataFrame()
    holders = seats.filter(pl.col("deck") == s.deck)
    per_run = holders.height // 2
    positions = rng.integers(0, layout.deck_sizes[s.deck], per_run)
    other = positions if s.paired else rng.integers(0, layout.deck_sizes[s.deck], per_run)
    units = holders.select("run", "mode", "game_id", "seat", "result").with_columns(
        pl.Series("position", np.concatenate([positions, other])))
    return seats, units


def simulated_gates(layout: Layout, scenario: Scenario, thresholds: Thresholds,
                    rng: np.random.Generator) -> list[Gate]:
    """One simulated regression through the gate code: deck, matchup and changed-card gates, decided."""
    seats, units = simulate(layout, scenario, rng)
    gates = deck_gates(seats, scenario.paired)
    if scenario.deck:
        gates += position_gates(CHANGED_CARD.format(deck=scenario.deck), units, scenario.paired)
    decide(gates, thresholds.min_difference, thresholds.alpha, thresholds.min_trials)
    return gates
