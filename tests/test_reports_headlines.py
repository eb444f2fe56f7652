"""The "what stands out" headlines on hand-made runs: every statement on at least 200 games, seat-games or pairs
(else a line saying so, or nothing); no count of an empty family; a family with nothing flagged states the
effects it could have seen; a study of two decks opens with its deck result; a team study says what passing
control gains, as the report knows it. Expected numbers are recomputed from the rows written."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from reports.build import build_report
from reports.stats import Z_MDE
from reports.summary import MIN_HEADLINE
from tests.handmade import game, write_run
from tests.test_melee import _planted_run as melee_run
from tests.test_melee import make_melee_run
from tests.test_reports_levels import _run as swordmaster_run
from tests.test_teams_report import _pass_run
from tests.test_teams_report import _planted_run as team_run

DM = "deathmatch"
IMP, HL, SYL = "imperial", "highland", "sylvan"


def _games(run: Path) -> list[dict]:
    return [g for f in sorted((run / "games").glob("*.parquet")) for g in pq.read_table(f).to_pylist()]


def _duels(path: Path, plan: list[tuple[tuple[str, str], int, float]], seed: int = 1) -> Path:
    """Deathmatch duels of the random player: per (decks, games, p) entry, ``games`` games in which the first
    deck wins with probability ``p``, each deck in each seat half the time."""
    rng = random.Random(seed)
    games = []
    for (a, b), count, p in plan:
        for i in range(count):
            a_wins = rng.random() < p
            decks, a_seat = ((a, b), 0) if i % 2 == 0 else ((b, a), 1)
            games.append(game(len(games), DM, decks, first=rng.randrange(2), winner=a_seat if a_wins else 1 - a_seat))
    return write_run(path, games)


def test_the_minimum_sample_is_200() -> None:
    assert MIN_HEADLINE == 200  # docs/reports.md


def test_the_most_lopsided_matchup_needs_200_games(tmp_path: Path) -> None:
    small = build_report([_duels(tmp_path / "small", [((IMP, SYL), 80, 0.75), ((HL, SYL), 80, 0.5)])])
    assert not any("most lopsided" in line for line in small.summary)
    big = build_report([_duels(tmp_path / "big", [((IMP, SYL), 240, 0.75), ((HL, SYL), 240, 0.5)])])
    [line] = [line for line in big.summary if "most lopsided" in line]
    games = [g for g in _games(tmp_path / "big") if {g["deck_0"], g["deck_1"]} == {IMP, SYL}]
    wins = sum(g[f"deck_{g['winner']}"] == IMP for g in games)
    assert line.startswith(f"{DM}: the most lopsided matchup is {IMP} against {SYL} (random), won "
                           f"{100 * wins / len(games):.1f}% (") and f"n={len(games)})" in line


def test_a_flagged_melee_turn_order_needs_200_seat_games(tmp_path: Path) -> None:
    """The first of three players wins half the melees: flagged at 120 melees (120 seat-games in first
    place) as at 900, a headline only at 900."""
    for games, headline in ((120, False), (900, True)):
        report = build_report([melee_run(tmp_path / str(games), games, 0.5, seed=1)])
        [table] = [t for t in report.tables() if t.id == "melee_positions"]
        first = next(r for r in table.rows if r["position"] == 1)
        assert first["effect"].flagged and first["effect"].n == games
        assert any("turn-order place 1 wins" in line for line in report.summary) is headline


def test_a_melee_only_report_counts_no_empty_family(tmp_path: Path) -> None:
    report = build_report([make_melee_run(tmp_path / "m", 60)])
    assert not any(re.search(r"\b0 of 0\b", line) for line in report.summary)
    assert not any("card and task estimates" in line for line in report.summary)  # the duels' family: empty
    [table] = [t for t in report.tables() if t.id == "melee_beings"]
    tested = [r["opening_effect"] for r in table.rows if r["opening_effect"].p is not None]
    tested += [r["position_effect"] for r in table.rows if r["position_effect"].p is not None]
    assert tested
    [count] = [line for line in report.summary if "randomized melee card estimates" in line]
    assert count.startswith(f"{sum(e.flagged for e in tested)} of {len(tested)} randomized melee card estimates")


def test_a_team_only_report_counts_no_empty_family_and_says_passing_is_not_measured(tmp_path: Path) -> None:
    report = build_report([team_run(tmp_path / "t", 300, 0.5, seed=2)])
    assert not any(re.search(r"\b0 of 0\b", line) for line in report.summary)
    assert not any("estimates are flagged" in line for line in report.summary)  # no card events: no family
    assert any(line.startswith("What passing control gains is not measured: no two players") for line in
               report.summary)


def test_nothing_flagged_states_the_smallest_effect_it_could_have_seen(tmp_path: Path) -> None:
    report = build_report([swordmaster_run(tmp_path / "r", {"lo": 0.0})])
    [beings] = [t for t in report.tables() if t.id == "beings"]
    effect = next(r for r in beings.rows if r["card"] == "Swordmaster")["opening_effect"]
    assert effect.p is not None and not effect.flagged
    a, b = effect.a, effect.b  # the recomputed MDE: two rates near their pooled rate
    p = (a.k + b.k) / (a.n + b.n)
    mde = Z_MDE * math.sqrt(p * (1 - p) * (1 / a.n + 1 / b.n))
    [line] = [line for line in report.summary if "randomized card and task estimates" in line]
    assert line.startswith("0 of 1 randomized card and task estimates are flagged")
    assert (f"that is no sign of balance: the most sensitive of them detects an effect of {100 * mde:.1f} points "
            f"(80% power) and the median one {100 * mde:.1f}") in line


def test_a_two_deck_study_opens_with_its_deck_result(tmp_path: Path) -> None:
    """Highland against Imperial, one player: even (the edge it could have seen), planted (Highland stronger),
    and too small; the deck result is the first line, before the first player's."""
    for name, games, p in (("even", 600, 0.5), ("planted", 400, 0.62), ("small", 100, 0.62)):
        run = _duels(tmp_path / name, [((HL, IMP), games, p)], seed=3)
        summary = build_report([run]).summary
        rows = _games(run)
        hl = sum(g[f"deck_{g['winner']}"] == HL for g in rows if g["winner"] >= 0)
        im = len(rows) - hl
        first = summary[0]
        assert summary[1].startswith(f"{DM}: the first player") or summary[1].startswith(f"{DM}, first player")
        if name == "small":
            assert first == f"{DM} (random), {HL} against {IMP}: 100 games are too few for a headline (it needs 200)."
            continue
        share = f"{HL} wins {100 * hl / games:.1f}% ("
        assert first.startswith(f"{DM} (random): ") and share in first and f"{IMP} {100 * im / games:.1f}% (" in first
        mean = (hl - im) / games
        sd = math.sqrt((games - games * mean**2) / (games - 1))  # results of +1 and -1 only
        if name == "even":
            assert f"no difference between {HL} and {IMP} is established" in first
            assert first.endswith(f"an edge under {100 * Z_MDE * sd / math.sqrt(games):.1f} points can go unseen.")
        else:
            assert first.startswith(f"{DM} (random): {HL} is stronger than {IMP}: ")
            assert f"{HL}'s edge {100 * mean:+.1f} pp" in first and "(flagged, Benjamini-Hochberg" in first


@pytest.mark.parametrize(("name", "games", "on_wins", "balanced", "expected"), [
    ("planted", 600, 0.6, True, "(controlled, flagged at a 5% false discovery rate)."),
    ("even", 600, 0.5, True, "(controlled, not flagged: a gain under "),
    ("unbalanced", 600, 0.6, False, "(descriptive: the decks were not balanced between the two teams"),
    ("small", 150, 0.6, True, "150 games are too few for a headline (it needs 200)."),
])
def test_a_team_study_states_what_passing_control_gains(tmp_path: Path, name: str, games: int, on_wins: float,
                                                        balanced: bool, expected: str) -> None:
    run = _pass_run(tmp_path / name, games, on_wins, balanced=balanced, seed=5 if name == "even" else 3)
    [line] = [line for line in build_report([run]).summary if "passing control (on+on against off+off)" in line]
    assert line.startswith(f"In team-{DM} games, passing control (on+on against off+off)") and expected in line
    if name != "small":
        won = sum(g["winner"] == i % 2 for i, g in enumerate(_games(run))) if balanced else sum(
            g["winner"] == 0 for g in _games(run))
        assert f"{100 * (2 * won - games) / games:+.1f} pp" in line  # passing team's wins minus its losses
