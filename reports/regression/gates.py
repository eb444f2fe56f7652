"""The gating comparisons of a regression: what a designer decides on.

- each deck's win rate per form, over its games against other decks (a mirror is 0.5 by construction);
- each matchup's win rate per form (the first deck's, ties counting half);
- each changed card's own effect: the gap in its holder's result between seats dealt the card in the
  opening hand and seats not dealt it. The shuffle decides that assignment before any play, so the gap
  is a causal effect of holding the card early; the gate is how much the change moved it.

When both runs played the same game seeds, every comparison is paired per game (and seat).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats

from reports.dataset import Run
from reports.regression.effects import (
    Estimate,
    effect_change,
    minimal_detectable_effect,
    paired_difference,
    unpaired_difference,
)

SEATS_SQL = Path(__file__).with_name("seat_outcomes.sql")
OPENING_SQL = Path(__file__).with_name("opening_hands.sql")


@dataclass
class Gate:
    metric: str  # deck_win_rate, matchup_win_rate, card_opening_effect
    mode: str
    subject: str
    estimate: Estimate
    # The standard error if every game diverged: results near 0.5, each game's change the difference of
    # two independent results (variance 2 x 0.25). A change that alters only some games is easier to see.
    worst_case_se: float
    tested: bool = True
    q_value: float = 1.0
    mde: float = math.inf  # minimal detectable effect at 80% power, with the family's correction
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
    for mode in sorted(frame["mode"].unique()):
        in_mode = frame.filter((pl.col("mode") == mode) & (pl.col("deck") != pl.col("opponent")))
        decks = sorted(set(in_mode["deck"].unique()))
        for deck in decks:
            rows = in_mode.filter(pl.col("deck") == deck)
            gates.append(_gate("deck_win_rate", mode, deck, rows, paired))
        if len(decks) < 3:
            continue  # with two decks, each matchup is the decks' own win rate: no separate gate
        for first, second in combinations(decks, 2):
            rows = in_mode.filter((pl.col("deck") == first) & (pl.col("opponent") == second))
            if rows.height:
                gates.append(_gate("matchup_win_rate", mode, f"{first} vs {second}", rows, paired))
    return gates


def _gate(metric: str, mode: str, subject: str, rows: pl.DataFrame, paired: bool) -> Gate:
    est = _compare(rows, paired)
    return Gate(metric, mode, subject, est, math.sqrt(0.5 / max(est.n, 1)))


def card_gates(con, seats: pl.DataFrame, cards: list[str], paired: bool) -> list[Gate]:
    """Each changed card's opening-hand effect, before and after, per form."""
    if not cards:
        return []
    opening = pl.from_arrow(con.sql(OPENING_SQL.read_text(), params=[cards]).to_arrow_table())
    gates = []
    for card in cards:
        deck = card.split("/", 1)[0]
        shared = deck in ("legend", "flare")  # dealt from decks both players draw from
        held = (opening.filter(pl.col("card_id") == card).select("run", "game_id", "seat")
                .with_columns(pl.lit(True).alias("opening")))
        eligible = seats if shared else seats.filter(pl.col("deck") == deck)
        marked = eligible.join(held, on=["run", "game_id", "seat"], how="left").with_columns(
            pl.col("opening").fill_null(False))
        for mode in sorted(marked["mode"].unique()):
            rows = marked.filter(pl.col("mode") == mode)
            gate = _card_gate(card, mode, rows, paired)
            if gate is not None:
                gates.append(gate)
    return gates


def _effect(rows: pl.DataFrame) -> Estimate:
    """The opening-hand gap in one run: mean result with the card minus without it."""
    return unpaired_difference(rows.filter(~pl.col("opening"))["result"].to_numpy(),
                               rows.filter(pl.col("opening"))["result"].to_numpy())


def _card_gate(card: str, mode: str, rows: pl.DataFrame, paired: bool) -> Gate | None:
    base, cand = rows.filter(pl.col("run") == 0), rows.filter(pl.col("run") == 1)
    if base.is_empty() or cand.is_empty():
        return None
    before, after = _effect(base), _effect(cand)
    if paired:
        joined = _paired_frame(rows.drop("opening")).join(
            base.select("game_id", "seat", "opening"), on=["game_id", "seat"], how="inner")
        d = joined.with_columns((pl.col("cand") - pl.col("base")).alias("d"))
        d_in = d.filter(pl.col("opening"))["d"].to_numpy()
        d_out = d.filter(~pl.col("opening"))["d"].to_numpy()
    else:
        d_in, d_out = np.array([]), np.array([])
    n_in = int(base["opening"].sum())
    n_out = base.height - n_in
    worst = math.sqrt(0.5 / max(n_in, 1) + 0.5 / max(n_out, 1))
    est = effect_change(d_in, d_out, paired, before, after)
    return Gate("card_opening_effect", mode, card, Estimate(
        est.baseline, est.candidate, est.difference, est.low, est.high, est.p_value, min(n_in, n_out), paired),
        worst)


def decide(gates: list[Gate], min_difference: float, alpha: float, min_trials: int) -> None:
    """Benjamini-Hochberg over the tested gates; a gate moved when its q-value is below ``alpha`` and the
    change is at least ``min_difference``. Sets each gate's detectable effect at ``alpha / m`` (the level
    BH applies to the smallest p-value of ``m`` tests: one real change among them)."""
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
        g.moved = g.q_value < alpha and abs(g.estimate.difference) >= min_difference
