"""The gating comparisons of a regression: what a designer decides on.

- each deck's win rate per form, over its games against other decks (a mirror is 0.5 by construction);
- each matchup's win rate per form (the first deck's, ties counting half);
- each changed card's own effect. Where both runs ablate the card (its games replayed with a vanilla
  copy), the effect is the ablation's: the holder's result with the card minus without it, per pair of
  games. Otherwise, for a being, it is its shuffled-position dose-response: the linear fit of its holder's
  result on where the setup shuffle put the card in the deck (card_positions.sql). The seed decides the
  position before any play, so the fit is causal: the value of drawing the card earlier, which is its
  strength only when it is worth about as much whenever it is played (docs/regression.md, its limits).
  The gate is how much the change moved the effect. The opening-hand comparison never gates: the players
  draw most of their deck, so holding a card from the start measures early access, not strength (a much
  stronger Knight came out -8.6 pp by it, docs/regression.md). A changed legend, flare or task has no
  own-effect gate without an ablation arm; the deck gates still see what it does.

When both runs played the same game seeds, every comparison is paired per game (and seat).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import polars as pl
from scipy import stats

from reports.dataset import Run
from reports.regression.effects import (
    Estimate,
    gate_power,
    minimal_detectable_effect,
    paired_difference,
    position_effect_change,
    unpaired_difference,
)

SEATS_SQL = Path(__file__).with_name("seat_outcomes.sql")
POSITIONS_SQL = Path(__file__).with_name("card_positions.sql")
ABLATION_SQL = Path(__file__).with_name("ablation_units.sql")


@dataclass
class Gate:
    metric: str  # deck_win_rate, matchup_win_rate, card_position_effect, card_ablation_effect
    mode: str
    subject: str
    estimate: Estimate
    # The standard error if every game diverged: results near 0.5, each game's change the difference of
    # two independent results (variance 2 x 0.25). A change that alters only some games is easier to see.
    worst_case_se: float
    tested: bool = True
    q_value: float = 1.0
    mde: float = math.inf  # minimal detectable effect at 80% power, with the family's correction
    power: float = 0.0  # the worst-case chance of moving for a true change of exactly the threshold
    moved: bool = False


def seat_outcomes(con) -> pl.DataFrame:
    return pl.from_arrow(con.sql(SEATS_SQL.read_text()).to_arrow_table())


def runs_are_paired(runs: list[Run], seats: pl.DataFrame) -> bool:
    """Same base seed and the same games (ids, forms, decks per seat): the runs can be compared game by game."""
    seeds = {run.manifest.get("config", {}).get("base_seed") for run in runs}
    if len(seeds) != 1 or None in seeds:
        return False
    key = ["game_id", "seat", "mode", "deck", "opponent"]
    base = seats.filter(pl.col("run") == 0).select(key)
    cand = seats.filter(pl.col("run") == 1).select(key)
    return base.join(cand, on=key, how="inner").height > 0


def _paired_frame(seats: pl.DataFrame) -> pl.DataFrame:
    base = seats.filter(pl.col("run") == 0).drop("run").rename({"result": "base"})
    cand = seats.filter(pl.col("run") == 1).select("game_id", "seat", pl.col("result").alias("cand"))
    return base.join(cand, on=["game_id", "seat"], how="inner")


def _compare(frame: pl.DataFrame, paired: bool) -> Estimate:
    if paired:
        return paired_difference(frame["base"].to_numpy(), frame["cand"].to_numpy())
    return unpaired_difference(frame.filter(pl.col("run") == 0)["result"].to_numpy(),
                               frame.filter(pl.col("run") == 1)["result"].to_numpy())


def deck_gates(seats: pl.DataFrame, paired: bool) -> list[Gate]:
    frame = _paired_frame(seats) if paired else seats
    gates = []
    between = frame.filter(pl.col("deck") != pl.col("opponent"))  # a mirror is 0.5 by construction
    for (mode,), in_mode in sorted(between.partition_by("mode", as_dict=True).items()):
        by_deck = in_mode.partition_by("deck", as_dict=True)
        for (deck,), rows in sorted(by_deck.items()):
            gates.append(_gate("deck_win_rate", mode, deck, rows, paired))
        if len(by_deck) < 3:
            continue  # with two decks, each matchup is the decks' own win rate: no separate gate
        by_pair = in_mode.partition_by("deck", "opponent", as_dict=True)
        for first, second in combinations(sorted(deck for deck, in by_deck), 2):
            rows = by_pair.get((first, second))
            if rows is not None:
                gates.append(_gate("matchup_win_rate", mode, f"{first} vs {second}", rows, paired))
    return gates


def _gate(metric: str, mode: str, subject: str, rows: pl.DataFrame, paired: bool) -> Gate:
    est = _compare(rows, paired)
    return Gate(metric, mode, subject, est, math.sqrt(0.5 / max(est.n, 1)))


def card_gates(con, cards: list[str], paired: bool) -> list[Gate]:
    """Each changed card's own effect, before and after, per form: its ablation where both runs have one,
    else (a being) its shuffled-position dose-response."""
    gates = []
    for card in cards:
        ablated = ablation_gates(con, card, paired)
        if ablated:
            gates += ablated
            continue
        units = pl.from_arrow(con.sql(POSITIONS_SQL.read_text(), params={"card": card}).to_arrow_table())
        gates += position_gates(card, units, paired)
    return gates


def position_gates(card: str, units: pl.DataFrame, paired: bool) -> list[Gate]:
    """The change of ``card``'s position effect per form. ``units``: one row per run, game and seat whose
    deck holds the card, with its ``position`` and the seat's ``result`` (card_positions.sql). Paired runs
    are compared seat by seat where the card lay at the same position in both."""
    gates = []
    for mode in sorted(units["mode"].unique()) if units.height else []:
        rows = units.filter(pl.col("mode") == mode)
        base, cand = rows.filter(pl.col("run") == 0), rows.filter(pl.col("run") == 1)
        if base.is_empty() or cand.is_empty():
            continue
        span = int(rows["position"].max() - rows["position"].min())
        if paired:
            joined = base.join(cand, on=["game_id", "seat", "position"], how="inner", suffix="_cand")
            x = joined["position"].to_numpy().astype(float)
            est = position_effect_change((x, joined["result"].to_numpy()), (x, joined["result_cand"].to_numpy()),
                                         True, span)
        else:
            est = position_effect_change((base["position"].to_numpy().astype(float), base["result"].to_numpy()),
                                         (cand["position"].to_numpy().astype(float), cand["result"].to_numpy()),
                                         False, span)
        x = base["position"].to_numpy().astype(float)
        sxx = float(((x - x.mean()) ** 2).sum())
        # every game diverging: each seat's change has variance 2 x 0.25, so the fit's slope has 0.5 / sxx
        worst = span * math.sqrt(0.5 / sxx) if sxx > 0 else math.inf
        gates.append(Gate("card_position_effect", mode, card, est, worst))
    return gates


def ablation_gates(con, card: str, paired: bool) -> list[Gate]:
    """The change of ``card``'s ablation effect per form, when both runs ablated it (else nothing)."""
    units = pl.from_arrow(con.sql(ABLATION_SQL.read_text(), params={"card": card}).to_arrow_table())
    gates = []
    for mode in sorted(units["mode"].unique()):
        rows = units.filter(pl.col("mode") == mode)
        base, cand = rows.filter(pl.col("run") == 0), rows.filter(pl.col("run") == 1)
        if base.is_empty() or cand.is_empty():
            continue
        if paired:
            joined = base.join(cand, on=["game_id", "seat"], how="inner", suffix="_cand")
            est = paired_difference(joined["value"].to_numpy(), joined["value_cand"].to_numpy())
        else:
            est = unpaired_difference(base["value"].to_numpy(), cand["value"].to_numpy())
        gates.append(Gate("card_ablation_effect", mode, card, est, math.sqrt(0.5 / max(est.n, 1))))
    return gates


def reaches(estimate: Estimate, min_difference: float) -> bool:
    """The change is not shown to be smaller than ``min_difference``: its 95% interval reaches it on the
    side of the estimate."""
    far = estimate.high if estimate.difference >= 0 else -estimate.low
    return far >= min_difference


def decide(gates: list[Gate], min_difference: float, alpha: float, min_trials: int) -> None:
    """Benjamini-Hochberg over the tested gates; a gate moved when its q-value is below ``alpha`` and its
    change is not shown to be smaller than ``min_difference`` (``reaches``).

    Gating on the interval rather than on the point estimate makes a true change of exactly
    ``min_difference`` move as often as the test rejects: with the point estimate it would move about half
    the time whatever the study's size. So each gate's detectable effect at ``alpha / m`` (the level
    Benjamini-Hochberg applies to the smallest p-value of ``m`` tests: one real change among them) and its
    power at ``min_difference`` are the rule's, in the worst case where every game diverges."""
    tested = [g for g in gates if g.estimate.n >= min_trials]
    for g in gates:
        g.tested = g.estimate.n >= min_trials
    if not tested:
        return
    q_values = stats.false_discovery_control([g.estimate.p_value for g in tested], method="bh")
    level = alpha / len(tested)
    for g, q in zip(tested, q_values, strict=True):
        g.q_value = float(q)
        g.mde = minimal_detectable_effect(g.worst_case_se, level)
        g.power = gate_power(min_difference, g.worst_case_se, level)
        g.moved = g.q_value < alpha and reaches(g.estimate, min_difference)
