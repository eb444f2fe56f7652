"""Conclusions across strength levels: the heterogeneity test and its detectable effect, A/A calibration and a
planted difference on simulated estimates, the SQL path on hand-made Parquet runs (mirror games only, level
order), real runs (A/A labels of one player; a planted card set at one level), `tashkalar plan`, and a study
at two levels through `tashkalar run` (Ray) and `tashkalar report`."""

from __future__ import annotations

import csv
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from scipy import stats

from pipelines.study import load_study, parse_study
from reports.build import build_report
from reports.calibration import planted_card_set, run_local
from reports.levels import CANT_TELL, HOLDS, MOVES, NOT_TESTED, ONLY_AT, Key, claims, judge
from reports.model import Report, Table
from reports.stats import Z_MDE, Diff, Estimate, Heterogeneity, Paired, Rate, flag, mde_heterogeneity, wilson
from tests.handmade import game, write_run

DM = "deathmatch"
IMP, HL = "imperial", "highland"
SWORD = "imperial/swordmaster"
EDGE = ("deck pairing", f"{HL} vs {IMP}")  # kind and deck of Highland's edge over Imperial


def _levels_table(report: Report) -> Table:
    return next(t for t in report.tables() if t.id == "levels")


def _row(table: Table, kind: str, deck: str, subject: str = "", measure: str = "") -> dict:
    hits = [
        r
        for r in table.rows
        if (r["kind"], r["deck"], r["subject"]) == (kind, deck, subject) and r["measure"].startswith(measure)
    ]
    assert len(hits) == 1, (kind, deck, subject, measure, len(hits))
    return hits[0]


# The test and its detectable effect.


def test_two_levels_are_the_z_test_of_their_difference() -> None:
    a, b = Diff(Rate(60, 100), Rate(200, 400)), Diff(Rate(45, 100), Rate(210, 400))
    change = Heterogeneity((a, b))
    se = np.hypot(a.se, b.se)
    assert change.value == pytest.approx(b.value - a.value)
    assert change.p == pytest.approx(2 * stats.norm.sf(abs(change.value) / se))
    assert change.mde == pytest.approx(Z_MDE * se, rel=1e-4)  # the other tail adds nothing visible
    assert change.interval == pytest.approx((change.value - 1.959964 * se, change.value + 1.959964 * se))
    assert change.n == 100


def test_three_levels_use_cochrans_q() -> None:
    values, ses = np.array([0.1, 0.0, -0.05]), np.array([0.04, 0.05, 0.03])
    w = 1 / ses**2
    q = (w * (values - (w * values).sum() / w.sum()) ** 2).sum()
    levels = tuple(_normal(v, s) for v, s in zip(values, ses, strict=True))
    assert Heterogeneity(levels).p == pytest.approx(stats.chi2.sf(q, 2))


def test_the_detectable_change_is_found_with_80_percent_power() -> None:
    """Simulated estimates at the MDE (the two least precise levels apart, the third midway) are rejected at
    5% in about 80% of draws, for two and for three levels."""
    rng = np.random.default_rng(1)
    for ses in ([0.05, 0.03], [0.04, 0.06, 0.02]):
        s = np.array(ses)
        mde = mde_heterogeneity(ses)
        order = np.argsort(-s)
        truth = np.zeros(len(s))
        truth[order[0]], truth[order[1]] = mde / 2, -mde / 2
        draws = rng.normal(truth, s, size=(20000, len(s)))
        w = 1 / s**2
        q = (w * (draws - (draws * w).sum(axis=1, keepdims=True) / w.sum()) ** 2).sum(axis=1)
        power = (stats.chi2.sf(q, len(s) - 1) < 0.05).mean()
        assert power == pytest.approx(0.8, abs=0.015), ses


def test_a_level_too_small_to_test_leaves_the_conclusion_untested() -> None:
    small = Diff(Rate(5, 10), Rate(200, 400))  # 10 seat-games on one side: shown, not tested
    big = Diff(Rate(60, 100), Rate(200, 400))
    change = Heterogeneity((big, small))
    assert change.value is not None and change.p is None and change.mde is None
    [row] = judge({("being", DM, IMP, "X", "opening hand effect"): {"a": big, "b": small}}, ["a", "b"])
    assert row["verdict"] == NOT_TESTED
    [row] = judge({("being", DM, IMP, "X", "opening hand effect"): {"a": big}}, ["a", "b"])  # missing at b
    assert row["verdict"] == NOT_TESTED and row["change"] is None and row["at_b"] is None


class _Normal(Estimate):
    """An estimate known only by its value and standard error (for the tests of the test)."""

    def __init__(self, value: float, se: float):
        super().__init__()
        self._value, self._se = value, se

    @property
    def value(self) -> float:
        return self._value

    @property
    def interval(self) -> tuple[float, float]:
        return self._value - 1.959964 * self._se, self._value + 1.959964 * self._se

    @property
    def p(self) -> float:
        return float(2 * stats.norm.sf(abs(self._value) / self._se))

    @property
    def n(self) -> int:
        return 100


def _normal(value: float, se: float) -> Estimate:
    return _Normal(value, se)


# Verdicts.


@pytest.mark.parametrize(
    ("a", "b", "verdict", "where"),
    [
        ((0.0, 0.05, False), (0.30, 0.03, True), "only at b", "b ▲"),  # the change is flagged
        ((0.10, 0.02, True), (0.40, 0.03, True), MOVES, "every level ▲"),  # flagged alike, the change too
        ((-0.04, 0.03, False), (0.05, 0.03, False), MOVES, "none"),  # neither level flagged, the change is
        ((0.10, 0.03, True), (0.11, 0.03, True), HOLDS, "every level ▲"),
        ((0.01, 0.08, False), (-0.01, 0.08, False), HOLDS, "none"),
        ((0.08, 0.03, True), (0.05, 0.08, False), CANT_TELL, "a ▲"),  # the change is not established
        ((0.20, 0.15, True), (-0.20, 0.15, True), CANT_TELL, "a ▲, b ▼"),  # flagged both ways, change not flagged
    ],
)
def test_verdicts(a: tuple[float, float, bool], b: tuple[float, float, bool], verdict: str, where: str) -> None:
    """A level-dependent verdict (only at, moves) needs the change between levels flagged."""
    found = {}
    for level, (value, se, flagged) in (("a", a), ("b", b)):
        found[level] = _normal(value, se)
        found[level].flagged = flagged
    [row] = judge({("being", DM, IMP, "X", "opening hand effect"): found}, ["a", "b"])
    assert (row["verdict"].split(" (")[0], row["flagged_at"]) == (verdict, where)
    assert row["change"].flagged is claims(row["verdict"])


def test_cant_tell_names_the_detectable_change() -> None:
    found = {"a": _normal(0.08, 0.03), "b": _normal(0.05, 0.08)}
    found["a"].flagged = True
    [row] = judge({("being", DM, IMP, "X", "opening hand effect"): found}, ["a", "b"])
    mde = Z_MDE * np.hypot(0.03, 0.08)
    assert row["verdict"] == f"{CANT_TELL} (detectable change {100 * mde:.1f} pp)"
    assert row["mde_change"] == pytest.approx(mde, rel=1e-3)


# A/A and a planted difference on simulated estimates: the whole chain of flags, the test, BH and verdicts.


def _simulated(
    rng: np.random.Generator, levels: dict[str, list[float]], seat_games: int = 1200
) -> dict[Key, dict[str, Estimate]]:
    """Opening-hand estimates of one card per entry of ``levels[level]`` (the card's true effect at that
    level) at each level: a real comparison of binomial counts, the card dealt in about one seat-game in six,
    flagged within its family as the report does."""
    out: dict[Key, dict[str, Estimate]] = {}
    for level, effects in levels.items():
        for card, effect in enumerate(effects):
            exposed = int(rng.binomial(seat_games, 1 / 6))
            wins = int(rng.binomial(exposed, 0.5 + effect))
            rest = int(rng.binomial(seat_games - exposed, 0.5))
            out.setdefault(("being", DM, IMP, f"card {card}", "opening hand effect"), {})[level] = Diff(
                Rate(wins, exposed), Rate(rest, seat_games - exposed)
            )
    flag([e for by_level in out.values() for e in by_level.values()])
    return out


AA_CARDS = [0.08] * 6 + [0.0] * 14  # one player: six cards with a real effect, the same at both labels


def test_aa_of_one_player_under_two_labels_claims_a_level_dependence_in_at_most_5_percent() -> None:
    """A/A: one player under two labels, 20 cards of which 6 truly change the win rate by 8 points (as a real
    player's cards do), 1,200 seat-games a label. Each label flags the real effects only now and then, so
    "flagged at one label and not the other" is common (the rule that gave 21 "only at" verdicts in a real
    A/A); a level-dependent verdict (moves, only at) needs the change flagged, and BH over the changes keeps
    replications with any such claim to about 5% (every change is null)."""
    rng = np.random.default_rng(7)
    replications, any_claim, claimed, split = 250, 0, 0, 0
    for _ in range(replications):
        rows = judge(_simulated(rng, {"a": AA_CARDS, "b": AA_CARDS}), ["a", "b"])
        n_claims = sum(claims(r["verdict"]) for r in rows)
        any_claim += n_claims > 0
        claimed += n_claims
        split += sum(r["verdict"].startswith(CANT_TELL) for r in rows)
    assert wilson(any_claim, replications)[0] < 0.05  # consistent with at most 5% of A/A studies
    assert any_claim / replications <= 0.07
    assert claimed / (len(AA_CARDS) * replications) < 0.005
    assert split > 10 * claimed  # flagged at one label only, no claim made: "can't tell at this size"


def test_a_planted_difference_between_levels_is_found() -> None:
    """Card 0 adds 25 points at one level and nothing at the other: it is claimed (only at that level), ranked
    first, in most replications (the change's z is about 4.8 against Benjamini-Hochberg's 3.2 for one true
    change in 40: about 94% power), and the other cards rarely: with one true change BH passes a null one
    below 2 x 5% / 40, about 0.1 of the 39 a replication (6 in 60)."""
    rng = np.random.default_rng(8)
    replications, found, others = 60, 0, 0
    for _ in range(replications):
        rows = judge(_simulated(rng, {"a": [0.0] * 40, "b": [0.25] + [0.0] * 39}), ["a", "b"])
        found += rows[0]["subject"] == "card 0" and rows[0]["verdict"] == ONLY_AT + "b"
        others += sum(claims(r["verdict"]) for r in rows[1:])
    assert found >= 0.85 * replications
    assert others <= 0.2 * replications


# The SQL path: hand-made Parquet runs.


def _run(
    path: Path, effects: dict[str, float], games_per_level: int = 600, cross: int = 0, listed: list[str] | None = None
) -> Path:
    """Deathmatch, Imperial against Highland, each level playing itself: Imperial's seat holds Swordmaster in
    its opening hand in about one game in six, and then wins with 50% plus the level's effect, else 50%.
    ``cross`` more games pair the first two levels with each other (no level's games), Swordmaster always
    dealt and never winning. ``listed``: the mirror pairings' order in the manifest's config."""
    rng = random.Random(1)
    labels = list(effects)
    plan = [(level, level, effects[level], games_per_level) for level in labels]
    if cross:
        plan.append((labels[0], labels[1], -0.5, cross))
    games, events = [], []
    for a, b, effect, count in plan:
        for i in range(count):
            gid, seat = len(games), i % 2
            dealt = a != b or rng.random() < 1 / 6
            won = rng.random() < 0.5 + (effect if dealt else 0.0)
            decks = (IMP, HL) if seat == 0 else (HL, IMP)
            games.append(game(gid, DM, decks, first=0, winner=seat if won else 1 - seat, strategies=(a, b)))
            if dealt:
                events.append(
                    {
                        "game_id": gid,
                        "seat": seat,
                        "turn": 0,
                        "card_id": SWORD,
                        "card_type": "being",
                        "event": "drawn",
                        "opening": True,
                    }
                )
    manifest: dict = {"name": path.name}
    if listed:
        manifest["config"] = {"strategy_pairings": [[level, level] for level in listed]}
    return write_run(path, games, manifest, card_events=events)


def test_a_planted_card_effect_at_one_level_moves(tmp_path: Path) -> None:
    table = _levels_table(build_report([_run(tmp_path / "r", {"lo": 0.0, "hi": 0.3})]))
    row = _row(table, "being", IMP, "Swordmaster", "opening hand")
    assert (row["verdict"], row["flagged_at"]) == (ONLY_AT + "hi", "hi ▲")
    assert row["rank"] == 1  # level-dependent conclusions first
    assert row["change"].value == pytest.approx(row["at_lo"].value - row["at_hi"].value)  # name order: hi, lo


def test_the_same_effect_at_both_levels_holds(tmp_path: Path) -> None:
    table = _levels_table(build_report([_run(tmp_path / "r", {"lo": 0.3, "hi": 0.3})]))
    row = _row(table, "being", IMP, "Swordmaster", "opening hand")
    assert (row["verdict"], row["flagged_at"]) == (HOLDS, "every level ▲")
    assert row["mde_change"] == pytest.approx(Z_MDE * np.hypot(row["at_lo"].se, row["at_hi"].se), rel=1e-3)


def test_levels_count_mirror_games_only_in_the_order_the_study_lists_them(tmp_path: Path) -> None:
    run = _run(tmp_path / "r", {"lo": 0.0, "hi": 0.3}, cross=300, listed=["lo", "hi"])
    report = build_report([run])
    table = _levels_table(report)
    assert [c.key for c in table.columns if c.key.startswith("at_")] == ["at_lo", "at_hi"]
    row = _row(table, "being", IMP, "Swordmaster", "opening hand")
    assert row["change"].value == pytest.approx(row["at_hi"].value - row["at_lo"].value)
    assert row["verdict"] == ONLY_AT + "hi"
    edge = _row(table, *EDGE)
    assert edge["n_lo"] == edge["n_hi"] == 600  # the 300 games between the levels are no level's
    beings = next(t for t in report.tables() if t.id == "beings")  # the rest of the report keeps them
    sword = next(r for r in beings.rows if r["card"] == "Swordmaster" and r["strategy"] == "lo")
    assert sword["opening"].n > row["at_lo"].a.n


def test_each_levels_games_end_as_counted(tmp_path: Path) -> None:
    hf = "high-form"
    games = [
        # "lo": 3 High Form games, one by score (one player at 9), two by a deck (nobody at 9; one at 8)
        game(0, hf, (IMP, HL), 0, 0, strategies=("lo", "lo"), scores=(9, 4), turns=20),
        game(1, hf, (IMP, HL), 0, 1, strategies=("lo", "lo"), scores=(3, 8), turns=30, end_reason="deck"),
        game(2, hf, (IMP, HL), 0, -1, strategies=("lo", "lo"), scores=(2, 2), turns=40, end_reason="deck",
             tiebreak="tie"),
        # "hi": both at the end score; a game between the levels is no level's
        game(3, hf, (IMP, HL), 0, 0, strategies=("hi", "hi"), scores=(10, 9), turns=24),
        game(4, hf, (IMP, HL), 0, 0, strategies=("lo", "hi"), scores=(0, 0), turns=90, end_reason="turn-limit"),
        game(5, DM, (IMP, HL), 0, 1, strategies=("hi", "hi"), scores=(17, 18), turns=26),  # 17: one short
    ]
    run = write_run(tmp_path / "r", games, {"config": {"strategy_pairings": [["lo", "lo"], ["hi", "hi"]]}})
    table = next(t for t in build_report([run]).tables() if t.id == "levels_endings")
    rows = {(r["mode"], r["strategy"]): r for r in table.rows}
    assert [(r["mode"], r["strategy"]) for r in table.rows] == [(DM, "hi"), (hf, "lo"), (hf, "hi")]
    lo = rows[hf, "lo"]
    assert (lo["games"], lo["by_score"], lo["by_deck"], lo["by_turn_limit"]) == (3, pytest.approx(1 / 3),
                                                                                 pytest.approx(2 / 3), 0)
    assert (lo["reach_threshold"], lo["ties"], lo["mean_turns"]) == (pytest.approx(1 / 6), pytest.approx(1 / 3), 30)
    assert rows[hf, "hi"]["reach_threshold"] == 1 and rows[DM, "hi"]["reach_threshold"] == 0.5


def test_one_level_gets_no_section(tmp_path: Path) -> None:
    report = build_report([_run(tmp_path / "r", {"lo": 0.0})])
    assert "levels" not in {s.id for s in report.sections}
    assert not any("strength levels" in line for line in report.summary)


def test_levels_from_separate_runs_are_compared(tmp_path: Path) -> None:
    lo = _run(tmp_path / "lo", {"lo": 0.0})
    hi = _run(tmp_path / "hi", {"hi": 0.3})
    row = _row(_levels_table(build_report([lo, hi])), "being", IMP, "Swordmaster", "opening hand")
    assert row["verdict"] == ONLY_AT + "hi"


# Real runs.


def _mirror_study(labels: dict[str, str], card_set: str = "builtin", **extra: object) -> dict:
    config = {
        "forms": [DM],
        "deck_pairings": [[IMP, HL]],
        "strategy_pairings": [[x, x] for x in labels],
        "players": {label: {"strategy": strategy} for label, strategy in labels.items()},
        "games_per_cell": 200,
        "base_seed": 9,
        "shard_size": 100,
        "card_set": card_set,
    }
    return config | extra


def test_aa_two_labels_of_one_player_hold_everywhere(tmp_path: Path) -> None:
    """A real A/A run: the random player under two labels (two [players.LABEL] of one strategy), both forms,
    every deck pairing, through the real levels code: no conclusion is said to depend on the level (with this
    seed; the rate over replications is the simulated A/A above)."""
    config = _mirror_study(
        {"random.a": "random", "random.b": "random"},
        forms=["high-form", DM],
        deck_pairings="all",
        games_per_cell=60,
        base_seed=21,
    )
    run = run_local(parse_study(config, tmp_path / "aa.toml"), tmp_path / "aa")
    report = build_report([run])
    table = _levels_table(report)
    assert len(table.rows) > 400
    assert not [r for r in table.rows if claims(r["verdict"])]  # neither "moves" nor "only at"
    assert any(line.startswith("Across strength levels (random.a, random.b), of ") and
               " 0 move between levels and 0 are flagged at some levels only" in line for line in report.summary)
    assert {r["kind"] for r in table.rows} == {"deck pairing", "being", "legend", "flare", "task"}


def test_a_planted_card_set_at_one_level_moves_the_deck_edge(tmp_path: Path) -> None:
    """The same player, one level with the built-in cards, the other with Swordmaster destroying every enemy
    piece (reports.calibration's planted set): Imperial's edge over Highland moves toward Imperial."""
    cards = planted_card_set(tmp_path / "cards")
    plain = run_local(parse_study(_mirror_study({"random.plain": "random"}), tmp_path / "a.toml"), tmp_path / "a")
    planted = run_local(
        parse_study(_mirror_study({"random.planted": "random"}, str(cards)), tmp_path / "b.toml"), tmp_path / "b"
    )
    table = _levels_table(build_report([plain, planted], allow_mixed=True))  # card sets differ on purpose
    edge = _row(table, *EDGE)
    assert edge["verdict"] == MOVES and edge["rank"] == 1
    assert edge["change"].value < -0.2  # highland's edge falls: Imperial wins far more at the planted level


def test_deck_edges_count_each_game_once(tmp_path: Path) -> None:
    run = _run(tmp_path / "r", {"lo": 0.0, "hi": 0.3})
    edge: Paired = _row(_levels_table(build_report([run])), *EDGE)["at_hi"]
    games = [g for f in sorted((run / "games").glob("*.parquet")) for g in pq.read_table(f).to_pylist()]
    hi = [g for g in games if g["strategy_0"] == "hi"]
    highland_wins = sum(g[f"deck_{g['winner']}"] == HL for g in hi)
    assert (edge.up, edge.down, edge.same) == (highland_wins, len(hi) - highland_wins, 0)


# Planning.


def test_plan_gives_the_detectable_change_between_levels(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from sim.cli import app

    example = "studies/strength-levels.toml"
    result = CliRunner().invoke(app, ["plan", example])
    assert result.exit_code == 0, result.output
    line = next(
        x
        for x in result.output.splitlines()
        if "change between levels: deck pairing edge, highland vs imperial (deathmatch)" in x
    )
    study = load_study(example)
    games, levels = study.games_per_cell, sum(a == b for a, b in study.strategy_pairings)
    mde = mde_heterogeneity([np.sqrt(1 / games)] * levels)  # each level's edge: one result per game
    assert levels < 3 or mde > Z_MDE * np.sqrt(2 / games)  # more levels, a larger change to detect
    assert f"| games per level | {games:,} | {100 * mde:.1f} pp |" in line
    single = tmp_path / "one.toml"
    single.write_text(
        'forms = ["deathmatch"]\ndeck_pairings = [["imperial", "highland"]]\n'
        'strategy_pairings = [["builder", "builder"], ["random", "builder"]]\ngames_per_cell = 200\n'
        "base_seed = 1\n"
    )
    assert "change between levels" not in CliRunner().invoke(app, ["plan", str(single)]).output


@pytest.mark.ray
def test_a_study_at_two_levels_is_reported_with_the_levels_section(tmp_path: Path) -> None:
    study, out = tmp_path / "levels.toml", tmp_path / "run"
    study.write_text(
        'name = "levels"\nforms = ["high-form", "deathmatch"]\ndeck_pairings = [["imperial", "sylvan"]]\n'
        'strategy_pairings = [["random", "random"], ["greedy", "greedy"]]\ngames_per_cell = 60\n'
        "base_seed = 5\nshard_size = 30\n"
    )
    tashkalar = str(Path(sys.executable).parent / "tashkalar")
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    for args in (
        ["run", str(study), "--out", str(out), "--no-progress", "--no-history", "--workers", "2"],
        ["report", str(out), "--out", str(out / "r.html"), "--md", str(out / "r.md"), "--csv", str(out / "csv")],
    ):
        result = subprocess.run([tashkalar, *args], env=env, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
    assert "- Across strength levels (random, greedy), of " in result.stdout  # the study's order, not names'
    md = (out / "r.md").read_text()
    assert "## Across strength levels" in md and "| Change, random to greedy | MDE (change) |" in md
    assert "## Skill depth" in md and "no games between them: add pairings of levels" in md
    html = (out / "r.html").read_text()
    levels_table = html.split('id="t-levels"', 1)[1].split("</table>", 1)[0]
    assert 'class="card-link" href="#card=' in levels_table  # a card's conclusion opens its page
    with (out / "csv" / "levels.csv").open(newline="") as f:
        header = next(csv.reader(f))
        f.seek(0)
        rows = list(csv.DictReader(f))
    assert len(header) == len(set(header))
    assert {"at_random", "n_random", "at_greedy_q", "change", "change_q", "mde_change", "verdict"} <= set(header)
    assert {r["verdict"].split(" (")[0] for r in rows} <= {MOVES, HOLDS, NOT_TESTED, CANT_TELL} | {
        f"only at {x}" for x in ("random", "greedy")}
    assert {r["kind"] for r in rows} == {"deck pairing", "being", "legend", "flare", "task"}
    assert (out / "csv" / "levels_summary.csv").exists()
