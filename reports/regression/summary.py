"""A run's summary metrics, as the history records them and regression lists them after the verdict.

Each metric has a kind, which says how far it can be trusted:

- ``randomized``: a comparison the seed decided before any play (a card's shuffled position or opening hand,
  the tasks dealt at setup, who moves first), so its difference is caused by what it compares;
- ``ablation``: the card's holder's result with the card minus without it, paired on the same seeds;
- ``controlled``: a result the study's design fixes and balances (a deck's win rate against the other decks, a
  matchup, passing on against off where the decks were balanced);
- ``descriptive``: games grouped by what happened in them ("win rate when drawn", "when played"): how games
  went, not what a card does.

The first three come from the report's own records (reports/regression/report_metrics.py), the descriptive
card and task rates from reports/regression/metrics.sql.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reports.dataset import open_runs
from reports.names import Names
from reports.stats import Estimate, Rate
from sim.cards import load_card_set

METRICS_SQL = Path(__file__).with_name("metrics.sql")

RANDOMIZED, ABLATION, CONTROLLED, DESCRIPTIVE = "randomized", "ablation", "controlled", "descriptive"
KINDS = (RANDOMIZED, ABLATION, CONTROLLED, DESCRIPTIVE)  # the order they are shown in: the trusted ones first
KIND_NOTES = {
    RANDOMIZED: "the seed decided the comparison before any play: a causal estimate",
    ABLATION: "the holder's result with the card minus without it, paired on the same seeds",
    CONTROLLED: "fixed and balanced by the study's design: decks, matchups, passing on against off",
    DESCRIPTIVE: "games grouped by what happened in them: how games went, not what a card does; never tested",
}

# Every metric the history records: what it measures. A "difference" is shown signed, a "mean" has no interval.
RATE, DIFFERENCE, MEAN = "rate", "difference", "mean"


@dataclass(frozen=True)
class Definition:
    meaning: str
    shape: str = RATE


DEFINITIONS = {
    "deck_win_rate": Definition("the deck's win rate against the other decks (ties are not wins)"),
    "matchup_win_rate": Definition("the deck's win rate against one other deck"),
    "first_player_win_rate": Definition("the first player's win rate"),
    "card_position_effect": Definition("the holder's win rate with the card on top of the shuffled deck minus at "
                                       "its bottom (linear fit): the card's strength", DIFFERENCE),
    "card_early_access": Definition("dealt in the opening hand minus not: the value of early access, not the "
                                    "card's strength", DIFFERENCE),
    "card_ablation_effect": Definition("the holder's result with the card minus in the ablation arm, per seed",
                                       DIFFERENCE),
    "task_dealt_effect": Definition("the deck's win rate with the task dealt at setup minus without it", DIFFERENCE),
    "turn_order_effect": Definition("this place in turn order (the first team) minus the others", DIFFERENCE),
    "melee_deck_win_rate": Definition("the deck's melee win rate, at the tables the study chose"),
    "colour_score": Definition("the seats' mean colour score at the end (lowest: the final score)", MEAN),
    "best_colour_lost": Definition("games the holder of the best single colour score did not win"),
    "team_decks_win_rate": Definition("the team's win rate with these two decks against those"),
    "pass_control_rate": Definition("games in which a team passed control at least once"),
    "passes_per_game": Definition("times control was passed per game", MEAN),
    "pass_control_effect": Definition("the passing team's result minus the other's (same players but for "
                                      "pass_control)", DIFFERENCE),
    "card_win_rate_when_played": Definition("the holder's win rate in the games it played the card"),
    "card_win_rate_when_drawn": Definition("the holder's win rate in the games it drew the card"),
    "card_play_rate_when_drawn": Definition("the share of the games it drew the card in which it played it"),
    "task_claim_rate_when_revealed": Definition("the share of the games it was revealed in which it was claimed"),
}


@dataclass(frozen=True)
class Metric:
    """One figure of one run: its value with a 95% interval (None for a mean) and the sample behind it.

    ``context`` names the cell it was measured in (deck and player, the opposing deck, the ablation arm); a
    rate also keeps its ``successes`` of ``trials``."""

    metric: str
    kind: str
    mode: str
    subject: str
    context: str
    value: float
    low: float | None
    high: float | None
    n: int
    mde: float | None = None
    successes: int | None = None
    trials: int | None = None

    @property
    def key(self) -> tuple[str, str, str, str]:
        return self.metric, self.mode, self.subject, self.context

    @classmethod
    def of_rate(cls, metric: str, kind: str, mode: str, subject: str, context: str, rate: Rate) -> Metric:
        lo, hi = rate.interval
        return cls(metric, kind, mode, subject, context, rate.k / rate.n, lo, hi, rate.n,
                   successes=rate.k, trials=rate.n)

    @classmethod
    def of_estimate(cls, metric: str, kind: str, mode: str, subject: str, context: str, e: Estimate) -> Metric:
        lo, hi = e.interval
        return cls(metric, kind, mode, subject, context, float(e.value), lo, hi, e.n, e.mde)  # type: ignore[arg-type]


def run_metrics(run_dir: Path | str) -> list[Metric]:
    """Every summary metric of one run: the report's randomized, ablation and controlled estimates (duels,
    melees and team games), then the descriptive rates of metrics.sql."""
    from reports.regression.report_metrics import report_metrics

    runs, con = open_runs([Path(run_dir)])
    try:
        rows = con.execute(METRICS_SQL.read_text()).fetchall()
        trusted = report_metrics(runs, con, Names(load_card_set()))
    finally:
        con.close()
    descriptive = [Metric.of_rate(m, DESCRIPTIVE, mode, subject, "", Rate(int(x), int(n)))
                   for m, mode, subject, x, n in rows]
    return trusted + descriptive
