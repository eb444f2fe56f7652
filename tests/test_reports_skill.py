"""Skill depth: the section's numbers against an independent DuckDB recomputation from the Parquet games
(hand-made and real runs), the decks where skill matters little, the headline, and what a study without
games between its levels is told to add."""

from __future__ import annotations

import csv
import json
import math
import random
from pathlib import Path

import duckdb
import pytest
from scipy import stats

from pipelines.study import parse_study
from reports.build import build_report, write_report
from reports.calibration import run_local
from reports.model import Report, Table, diff_text
from reports.sections_skill import LESS, MORE, PAYS
from tests.handmade import game, write_run

DM = "deathmatch"
IMP, HL = "imperial", "highland"


def _skill_table(report: Report) -> Table:
    return next(t for t in report.tables() if t.id == "skill")


def _run(path: Path, cross: dict[tuple[str, str], tuple[int, float]], mirrors: int = 100) -> Path:
    """Deathmatch: "lo" and "hi" each against itself (``mirrors`` games of Imperial against Highland), and per
    (deck, deck) of ``cross`` its (games, probability that "hi" wins) between the two, "hi" in seat 0 in every
    other game; one game in ten between them is a tie."""
    rng = random.Random(4)
    games = []
    for level in ("lo", "hi"):
        for i in range(mirrors):
            games.append(game(len(games), DM, (IMP, HL) if i % 2 else (HL, IMP), first=i % 2,
                              winner=rng.randrange(2), strategies=(level, level)))
    for decks, (count, p) in cross.items():
        for i in range(count):
            hi_seat = i % 2
            r = rng.random()
            winner = -1 if r < 0.1 else hi_seat if r < 0.1 + 0.9 * p else 1 - hi_seat
            strategies = ("hi", "lo") if hi_seat == 0 else ("lo", "hi")
            games.append(game(len(games), DM, decks, first=rng.randrange(2), winner=winner, strategies=strategies))
    manifest = {"name": path.name, "config": {"strategy_pairings": [["lo", "lo"], ["hi", "hi"], ["lo", "hi"]]}}
    return write_run(path, games, manifest)


TRUTH = """
SELECT mode, deck_0 AS deck,
       count(*) AS games,
       count(*) FILTER (winner >= 0 AND (CASE winner WHEN 0 THEN strategy_0 ELSE strategy_1 END) = $strong) AS wins,
       count(*) FILTER (winner >= 0 AND (CASE winner WHEN 0 THEN strategy_0 ELSE strategy_1 END) = $weak) AS losses,
       count(*) FILTER (winner = -1) AS ties,
       count(*) FILTER (strategy_0 = $strong) AS seat0
FROM read_parquet($files)
WHERE deck_0 = deck_1 AND variant = '' AND players = 2
  AND ((strategy_0 = $strong AND strategy_1 = $weak) OR (strategy_0 = $weak AND strategy_1 = $strong))
GROUP BY ALL ORDER BY ALL
"""


def _truth(run: Path, weak: str, strong: str) -> dict[tuple[str, str], tuple[int, ...]]:
    """Per form and deck, recomputed from the games' Parquet files alone: games between the two players with
    both seats holding the deck, the stronger player's wins, its losses, ties and games in seat 0."""
    files = [str(f) for f in sorted((run / "games").glob("*.parquet"))]
    rows = duckdb.execute(TRUTH, {"files": files, "weak": weak, "strong": strong}).fetchall()
    return {(mode, deck): tuple(rest) for mode, deck, *rest in rows}


def _check_against_truth(table: Table, truth: dict[tuple[str, str], tuple[int, ...]], weak: str, strong: str) -> None:
    rows = {(r["mode"], r["deck"]): r for r in table.rows if (r["weaker"], r["stronger"]) == (weak, strong)}
    assert set(rows) == set(truth)
    total_games, total_wins = (sum(t[i] for t in truth.values()) for i in (0, 1))
    for key, (games, wins, losses, ties, seat0) in truth.items():
        r = rows[key]
        assert r["games"] == games and r["stronger_seat0"] == pytest.approx(seat0 / games)
        assert (r["stronger_win"].k, r["weaker_win"].k, r["ties"].k) == (wins, losses, ties)
        mean = (wins - losses) / games
        sd = math.sqrt((wins * (1 - mean) ** 2 + losses * (1 + mean) ** 2 + ties * mean**2) / (games - 1))
        half = stats.t.ppf(0.975, games - 1) * sd / math.sqrt(games)
        assert r["edge"].value == pytest.approx(mean)
        assert r["edge"].interval == pytest.approx((mean - half, mean + half))
        if sd:
            assert r["mde"] == pytest.approx((stats.norm.isf(0.025) + stats.norm.ppf(0.8)) * sd / math.sqrt(games))
        else:  # every game alike (the builder won them all): the spread, and so the MDE, is unknown
            assert r["mde"] is None
        others = (total_wins - wins) / (total_games - games)
        if wins in (0, games) and others in (0.0, 1.0):  # both rates at an end: no variation, no value
            assert r["vs_others"].value is None
        else:
            assert r["vs_others"].value == pytest.approx(wins / games - others)


def test_the_section_recomputes_from_the_games(tmp_path: Path) -> None:
    """"hi" wins 70% of the decisive Imperial mirrors against "lo" and 52% of the Highland ones; 300 games
    of Imperial against Highland between them are no deck's mirror and take no part."""
    run = _run(tmp_path / "r", {(IMP, IMP): (400, 0.7), (HL, HL): (400, 0.52), (IMP, HL): (300, 0.9)})
    report = build_report([run])
    table = _skill_table(report)
    truth = _truth(run, "lo", "hi")
    assert set(truth) == {(DM, IMP), (DM, HL)} and all(t[0] == 400 for t in truth.values())
    _check_against_truth(table, truth, "lo", "hi")
    verdicts = {r["deck"]: r["verdict"] for r in table.rows}
    assert verdicts == {IMP: MORE, HL: LESS}
    assert table.note == f"Skill matters little with: {HL} ({DM}, hi against lo)."
    [line] = [line for line in report.summary if line.startswith("Skill depth")]
    assert line.startswith(f"Skill depth, {DM}, hi against lo (both holding one deck): the stronger player wins "
                           f"{HL} ")
    hl = next(r for r in table.rows if r["deck"] == HL)
    assert line.endswith(f"; skill matters little with {HL} (less than with the other decks: "
                         f"{diff_text(hl['vs_others'])}).")


def test_one_deck_alone_is_judged_by_its_edge(tmp_path: Path) -> None:
    table = _skill_table(build_report([_run(tmp_path / "r", {(IMP, IMP): (300, 0.7)})]))
    [row] = table.rows
    assert row["vs_others"] is None and row["verdict"] == PAYS
    table = _skill_table(build_report([_run(tmp_path / "even", {(IMP, IMP): (300, 0.5)})]))
    [row] = table.rows
    assert row["verdict"] == f"no skill edge seen (detectable edge {100 * row['mde']:.1f} pp)"
    assert table.note.startswith("Skill matters little with: imperial")


def test_levels_without_games_between_them_are_told_what_to_add(tmp_path: Path) -> None:
    report = build_report([_run(tmp_path / "r", {})])
    [section] = [s for s in report.sections if s.id == "skill"]
    advice = ('add pairings of levels to strategy_pairings, e.g. ["lo", "hi"] (weaker first), with the deck mirrors '
              'in deck_pairings (["highland", "highland"], ["imperial", "imperial"]; "all" includes them).')
    assert not section.blocks and section.intro.endswith(advice)
    assert any(line.startswith("Skill depth is not measured.") and line.endswith(advice) for line in report.summary)
    report = build_report([_run(tmp_path / "cross", {(IMP, HL): (100, 0.7)})])
    [section] = [s for s in report.sections if s.id == "skill"]
    assert section.intro.endswith('never with both seats holding one deck: add the deck mirrors to deck_pairings '
                                  '(["highland", "highland"], ["imperial", "imperial"]; "all" includes them).')


def test_a_real_study_of_random_and_builder_shows_the_builders_edge(tmp_path: Path) -> None:
    """random and builder, each against itself and against each other, on deck mirrors: the section agrees
    with DuckDB over the run's Parquet, and is written to HTML, Markdown and CSV."""
    config = {"forms": [DM], "deck_pairings": [[IMP, IMP], ["sylvan", "sylvan"]],
              "strategy_pairings": [["random", "random"], ["builder", "builder"], ["random", "builder"]],
              "games_per_cell": 40, "base_seed": 31, "shard_size": 40}
    study = parse_study(config, tmp_path / "s.toml")
    run = run_local(study, tmp_path / "run")
    (run / "manifest.json").write_text(json.dumps({"name": "skill", "config": study.to_config()}))  # level order
    out = tmp_path / "out"
    report = write_report([run], html=out / "r.html", md=out / "r.md", csv_dir=out / "csv")
    table = _skill_table(report)
    _check_against_truth(table, _truth(run, "random", "builder"), "random", "builder")
    assert [r["deck"] for r in table.rows] == [IMP, "sylvan"] and all(r["games"] == 40 for r in table.rows)
    assert all(r["edge"].value > 0.5 and r["edge"].flagged for r in table.rows)
    assert all(r["stronger_seat0"] == 0.5 for r in table.rows)  # the seat rotation
    md = (out / "r.md").read_text()
    assert "## Skill depth" in md and "| Stronger minus weaker |" in md
    assert 'id="t-skill"' in (out / "r.html").read_text()
    with (out / "csv" / "skill.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["stronger_win_k"]) for r in rows] == [r["stronger_win"].k for r in table.rows]
    assert {"edge", "edge_lo", "edge_q", "vs_others", "mde", "verdict"} <= set(rows[0])
