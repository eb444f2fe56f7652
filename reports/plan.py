"""``tashkalar plan STUDY.toml``: before anything runs, how many games each estimate of a study gets, the
smallest effect it can detect (80% power, 5% two-sided), and the games it would need for a given effect.

Sample sizes follow from the study's layout alone: a deck's seat-games per form and strategy; a being in
the opening hand (3 of its deck's 18 cards); a legend (2 of 12 per seat) or flare (1 of 12) dealt at
setup; a task dealt at setup (4 of 24: the row and the next task); ablation pairs per card and form. The
spread of a paired difference is not known before running: ``--discordance`` is the share of paired games
whose result differs (measure it on a small run: the report's ablation table shows it as 1 - same/pairs;
0.5 is a cautious default, the A/A runs of docs/reports.md measured about 0.4-0.5 with the builder).

A study of two or more strength levels (mirror pairings) also gets, per estimate and per deck pairing, the
smallest change between levels its report can tell from none (the levels' section, docs/reports.md).

A study with games between different decks also gets its regression gates (``tashkalar regress``,
docs/regression.md): per form each deck and matchup gate and a changed being's own-effect gate, with its
seat-games, the change it detects at ``alpha / m`` and its power for a change of ``--min-difference``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from pipelines.study import TEAM_FORMS, Study, form_sides, load_study
from reports.regression.design import gate_designs
from reports.regression.thresholds import DEFAULTS, ThresholdError, Thresholds
from reports.stats import (
    Z_MDE,
    games_needed_paired,
    games_needed_two_rates,
    mde_heterogeneity,
    mde_paired,
    mde_two_rates,
)
from sim.errors import UserError

HAND_BEINGS, DECK_BEINGS = 3, 18
SHARES = {"legend": 2 * 2 / 12, "flare": 2 * 1 / 12}  # chance that one of the two seats is dealt it at setup
TASKS_DEALT = 4 / 24


@dataclass
class Line:
    estimate: str
    unit: str
    n: int
    mde: float | None
    needed: int  # games of the study's unit needed for the effect
    group: str = ""  # the estimate without its player: what is compared between strength levels
    player: str = ""


def _seat_games(study: Study) -> dict[tuple[str, str, str], int]:
    """Seat-games per (form, deck, player) of the unchanged block."""
    out: dict[tuple[str, str, str], int] = defaultdict(int)
    for cell in study.cells:
        for deck, player in zip(cell.decks, cell.players, strict=True):
            out[(cell.form, deck, player)] += study.games_per_cell
    return out


def plan(study: Study, effect: float, discordance: float) -> list[Line]:
    sd = math.sqrt(discordance)
    lines: list[Line] = []
    share = HAND_BEINGS / DECK_BEINGS
    for (form, deck, player), n in sorted(_seat_games(study).items()):
        # a team game deals legends to one member of each team only (the one who plays first in it): half the seats
        legend = SHARES["legend"] / 2 / (2 if form in TEAM_FORMS else 1)
        shares = [(f"opening hand, one {deck} being", share), (f"opening hand, one legend, {deck} seat", legend),
                  (f"opening hand, one flare, {deck} seat", SHARES["flare"] / 2)]
        if form == "high-form":
            shares.append((f"task dealt at setup, for {deck}", TASKS_DEALT))
        # a seat's share of the wins: 1/2 in a duel, 1/3 or 1/4 in a melee, its team's 1/2 in a team game
        win = 1 / form_sides(form)
        for what, p in shares:
            exposed = round(n * p)
            lines.append(Line(f"{what} ({form}, {player})", "seat-games", n, mde_two_rates(exposed, n - exposed, win),
                              games_needed_two_rates(effect, p, win), f"{what} ({form})", player))
    for form in (f for f in study.forms if f in TEAM_FORMS):  # the first team's edge: one paired result per game
        n = study.games_per_cell * sum(cell.form == form for cell in study.cells)
        lines.append(Line(f"turn order, the first team minus the second ({form})", "games", n, mde_paired(1.0, n),
                          games_needed_paired(effect, 1.0)))
    pairs: dict[tuple[str, str], int] = defaultdict(int)
    for v in study.ablation:
        family = v.card.split("/", 1)[0]
        for cell in study.cells:
            if family in ("legend", "flare"):
                n = round(study.games_per_cell * SHARES[family])
            elif family == "task":
                n = 2 * study.games_per_cell if cell.decks[0] != cell.decks[1] and cell.form == "high-form" else 0
            else:
                n = study.games_per_cell if family in cell.decks else 0
            pairs[(v.card, cell.form)] += n
    needed = games_needed_paired(effect, sd)
    for (card, form), n in sorted(pairs.items()):
        lines.append(Line(f"ablation ({study.ablation[0].mode}), {card} ({form})", "pairs", n, mde_paired(sd, n),
                          needed))
    return lines + _level_changes(study, lines, effect)


def _level_changes(study: Study, lines: list[Line], effect: float) -> list[Line]:
    """With two or more strength levels (mirror pairings): per estimate of the levels and per deck pairing
    (its edge, one result per game, a spread of 1 at most), the MDE of its change between levels (Cochran's
    Q, ``stats.mde_heterogeneity``) from each level's own sample, and the games each level needs for the
    change to detect ``effect``. The ablation lines above pool the study's players, so they have no change."""
    levels = [a for a, b in study.strategy_pairings if a == b]
    if len(levels) < 2:
        return []
    samples: dict[tuple[str, str], dict[str, tuple[int, float]]] = defaultdict(dict)  # (group, unit) -> by level
    for line in lines:
        if line.player in levels and line.mde is not None:
            samples[(line.group, line.unit)][line.player] = (line.n, line.mde)
    n = study.games_per_cell
    for form in study.forms:
        for a, b in (p for p in study.deck_pairings if p[0] != p[1]):
            samples[(f"deck pairing edge, {a} vs {b} ({form})", "games")] = {
                level: (n, mde_paired(1.0, n)) for level in levels}  # type: ignore[misc]
    out = []
    for (group, unit), by_level in samples.items():
        if len(by_level) == len(levels):
            mde = mde_heterogeneity([by_level[level][1] / Z_MDE for level in levels])
            least = min(by_level[level][0] for level in levels)
            out.append(Line(f"change between levels: {group}", f"{unit} per level", least, mde,
                            math.ceil(least * (mde / effect) ** 2)))
    return out


_GATE_NAMES = {"deck_win_rate": "deck win rate", "matchup_win_rate": "matchup win rate",
               "card_position_effect": "own effect (shuffled position)"}


def render_gates(study: Study, thresholds: Thresholds) -> list[str]:
    """The regression gates' table, or nothing for a study without games between different decks."""
    designs = gate_designs(study, thresholds)
    if not any(d.metric == "deck_win_rate" for d in designs):
        return []
    m = sum(d.metric != "card_position_effect" for d in designs) + len(study.forms)
    threshold = f"{100 * thresholds.min_difference:.1f} pp"
    out = ["", f"Regression gates (`tashkalar regress`, docs/regression.md): Benjamini-Hochberg over {m} gates "
           f"(one changed card per form), so each is tested at alpha / m = {thresholds.alpha}/{m}; a gate moves "
           f"when it is significant and its interval reaches {threshold}. Worst case: every game plays "
           "differently from the baseline's (paired per game, as two runs of one seed are).", "",
           f"| gate | form | subject | seat-games per run | detectable at alpha/m | power at {threshold} | enough |",
           "|---|---|---|---:|---:|---:|---|"]
    for d in designs:
        out.append(f"| {_GATE_NAMES[d.metric]} | {d.mode} | {d.subject} | {d.games:,} | {100 * d.mde:.1f} pp | "
                   f"{d.power:.0%} | {'yes' if d.mde <= thresholds.min_difference else 'no'} |")
    return out


def render(study: Study, path: Path, effect: float, discordance: float, thresholds: Thresholds = DEFAULTS) -> str:
    out = [f"{path}: {study.total_games:,} games ({study.base_games:,} unchanged, {len(study.ablation)} "
           f"ablation arms of {study.base_games:,}), {len(study.cells)} cells of {study.games_per_cell:,} games",
           f"minimal detectable effect (MDE): 80% power, 5% two-sided; 'needed': games for an effect of "
           f"{100 * effect:.1f} points (ablation: paired games, discordance {discordance:.2f})", ""]
    out.append(f"| estimate | unit | games | MDE | needed for {100 * effect:.1f} pp | enough |")
    out.append("|---|---|---:|---:|---:|---|")
    for line in plan(study, effect, discordance):
        mde = "–" if line.mde is None else f"{100 * line.mde:.1f} pp"
        out.append(f"| {line.estimate} | {line.unit} | {line.n:,} | {mde} | {line.needed:,} | "
                   f"{'yes' if line.n >= line.needed else 'no'} |")
    return "\n".join(out + render_gates(study, thresholds))


def plan_data(study: Study, path: Path, effect: float, discordance: float, thresholds: Thresholds) -> dict:
    """What ``render`` shows, for ``plan --json`` (docs/cli.md)."""
    lines = plan(study, effect, discordance)
    designs = gate_designs(study, thresholds) if render_gates(study, thresholds) else []
    return {"study": str(path), "total_games": study.total_games, "base_games": study.base_games,
            "ablation_arms": len(study.ablation), "cells": len(study.cells), "games_per_cell": study.games_per_cell,
            "effect": effect, "discordance": discordance,
            "estimates": [{"estimate": x.estimate, "unit": x.unit, "games": x.n, "mde": x.mde, "needed": x.needed,
                           "enough": x.n >= x.needed} for x in lines],
            "gates": [{"gate": d.metric, "form": d.mode, "subject": d.subject, "seat_games": d.games, "mde": d.mde,
                       "power": d.power, "enough": d.mde <= thresholds.min_difference} for d in designs]}


def plan_command(path: Path, effect: float, discordance: float, min_difference: float = DEFAULTS.min_difference,
                 alpha: float = DEFAULTS.alpha, as_json: bool = False) -> str | dict:
    if not 0 < effect < 1:
        raise UserError(f"--effect: expected a win-rate difference between 0 and 1 (0.05 is 5 points), got {effect}")
    if not 0 < discordance <= 1:
        raise UserError(f"--discordance: expected a share between 0 and 1, got {discordance}")
    try:
        thresholds = Thresholds(min_difference, alpha)
    except ThresholdError as e:
        raise UserError(f"--{e.field.replace('_', '-')}: {e.problem}") from None
    study = load_study(path)
    if as_json:
        return plan_data(study, path, effect, discordance, thresholds)
    return render(study, path, effect, discordance, thresholds)
