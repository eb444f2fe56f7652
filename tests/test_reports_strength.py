"""Card strength in the report, checked with planted cards through the real pipeline (builder games, Parquet,
DuckDB, the report builder): Swordmaster made overwhelming, Herald without effect. Every estimate that ranks
strength ranks the strong card first and the useless one last; an arm that never changed a game is shown as
such, never as a measured 0, and stays out of Benjamini-Hochberg."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipelines.study import parse_study
from reports.build import build_report
from reports.calibration import CONTROL, STRONG, USELESS, planted_card_set, run_local, study_config
from reports.model import Chart, Report, Table
from reports.render_csv import write_csv
from reports.render_html import render_html

DM = "deathmatch"


@pytest.fixture(scope="module")
def cards_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return planted_card_set(tmp_path_factory.mktemp("planted") / "cards")


def _block(report: Report, block_id: str) -> Table | Chart:
    return next(b for s in report.sections for b in s.blocks if b.id == block_id)


def _ranked_labels(chart: Chart) -> list[str]:
    """The forest plot's row labels, top to bottom."""
    return re.findall(r">([^<>]+ · [^<>]+)</text>", chart.svg)


def test_ablation_ranks_the_strong_card_first_and_the_useless_one_last(tmp_path: Path, cards_dir: Path) -> None:
    config = study_config(31, 200, "builder", [DM], [STRONG, USELESS, CONTROL], "vanilla", str(cards_dir))
    run = run_local(parse_study(config, tmp_path / "s.toml"), tmp_path / "run")
    report = build_report([run], cards_dir)

    table = _block(report, "ablation")
    rows = [r for r in table.rows if (r["mode"], r["ablation"]) == (DM, "vanilla")]
    assert [r["card_id"] for r in rows] == [STRONG, CONTROL, USELESS]
    strong, useless = rows[0], rows[-1]
    assert strong["rank"] == 1 and strong["effect"].value > 0.1 and strong["effect"].interval[0] > 0
    assert strong["effect"].flagged and strong["diverged"] > 0 and not strong["no_variation"]
    # the useless card's vanilla copy is the card itself: the games never diverge, so there is nothing to test
    assert useless["rank"] is None and useless["diverged"] == 0 and useless["pairs"] == 200
    assert useless["no_variation"] == "never changed a game for this player: 0 of 200 pairs differ"
    assert useless["effect"].value is None and useless["effect"].p is None and useless["effect"].q is None
    assert "0 of 2 ablation estimates" not in " ".join(report.summary)
    assert any("of 2 ablation estimates are flagged" in line for line in report.summary)

    # the beings' strength ranking uses the ablation arm, and names the arm it cannot rank
    chart = _block(report, f"strength-being-{DM}-builder")
    assert "by ablation (vanilla arm)" in chart.title
    assert _ranked_labels(chart) == ["Swordmaster · imperial", "Bomb · imperial"]
    assert "Herald · imperial (never changed a game for this player: 0 of 200 pairs differ)" in chart.note

    page = render_html(report)
    assert "never changed a game for this player: 0 of 200 pairs differ" in page
    write_csv(report, tmp_path / "csv")
    [row] = [line for line in (tmp_path / "csv" / "ablation.csv").read_text().splitlines()
             if line.startswith(f"{DM},vanilla,") and "Herald" in line]
    # pairs, diverged, then the effect without value, interval, p or q (never flagged), no MDE, and why
    assert row.endswith(",200,0,,,,,,False,,,,never changed a game for this player: 0 of 200 pairs differ")


def test_position_effect_ranks_the_strong_card_first_and_the_useless_one_last(tmp_path: Path,
                                                                               cards_dir: Path) -> None:
    """Without ablation arms the beings are ranked by the shuffled-position dose-response. An Imperial mirror
    gives two seat-games a game; 2,000 Deathmatch games put the planted cards apart from the other 16: over
    base seeds 1-13 Swordmaster ranked first every time (+26 to +33 points, the next at most +13) and the
    dead Herald last every time (-17 to -25 points, the card above it -9 to -16)."""
    config = {"name": "planted-positions", "forms": [DM], "deck_pairings": [["imperial", "imperial"]],
              "strategy_pairings": [["builder", "builder"]], "games_per_cell": 2000, "base_seed": 1,
              "shard_size": 250, "card_set": str(cards_dir)}
    run = run_local(parse_study(config, tmp_path / "s.toml"), tmp_path / "run")
    report = build_report([run], cards_dir)

    chart = _block(report, f"strength-being-{DM}-builder")
    assert "earlier in deck" in chart.title
    labels = _ranked_labels(chart)
    assert len(labels) == 18 and labels[0] == "Swordmaster · imperial" and labels[-1] == "Herald · imperial"
    beings = {r["card_id"]: r for r in _block(report, "beings").rows}
    strong, useless = beings[STRONG]["position_effect"], beings[USELESS]["position_effect"]
    assert strong.value > 0.2 and strong.flagged and useless.value < 0 and useless.flagged
    # the opening-hand comparison is a column labelled early access, and no chart ranks beings by it
    column = next(c for c in _block(report, "beings").columns if c.key == "opening_effect")
    assert column.label.startswith("Early access")
    ids = [b.id for s in report.sections for b in s.blocks]
    assert not [i for i in ids if i.startswith(("opening_effect", "early-access-being"))]


def test_copy_arms_are_checks_of_their_own(tmp_path: Path) -> None:
    """Each A/A (copy) arm draws the players' streams anew with its own salt: two copy arms on the same seeds
    are different games, and each diverges from the unchanged one."""
    cards = ["imperial/swordmaster", "imperial/herald"]
    config = study_config(41, 40, "builder", [DM], cards, "copy", "builtin")
    run = run_local(parse_study(config, tmp_path / "s.toml"), tmp_path / "run")
    games = [r for f in sorted((run / "games").glob("*.parquet")) for r in pq.read_table(f).to_pylist()]
    outcome = {(g["variant"], g["seed"]): (g["winner"], g["score_0"], g["score_1"], g["turns"]) for g in games}
    seeds = {g["seed"] for g in games}
    differ = sum(outcome[(f"copy:{cards[0]}", s)] != outcome[(f"copy:{cards[1]}", s)] for s in seeds)
    assert differ >= 30  # of 40: two draws of one game rarely end alike in result, scores and length
    rows = _block(build_report([run]), "ablation").rows
    assert {r["card_id"]: r["diverged"] for r in rows} == {c: 40 for c in cards}
    assert [r["effect"].up for r in rows] != [rows[0]["effect"].up] * 2 or \
        [r["effect"].down for r in rows] != [rows[0]["effect"].down] * 2
