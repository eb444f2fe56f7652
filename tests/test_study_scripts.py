"""scripts/ablation_coverage.py and scripts/validation.py on real runs written without Ray (small studies), and
scripts/choice_value.py and scripts/skipped_option_value.py on real games."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.study import parse_study
from reports.calibration import run_local
from reports.stats import Paired
from scripts import ablation_coverage, choice_value, skipped_option_value, validation


def _run(tmp_path: Path, name: str, strategy: str, seed: int, games: int, cards: list[str]) -> Path:
    data = {"forms": ["deathmatch"], "deck_pairings": [["imperial", "highland"]],
            "strategy_pairings": [[strategy, strategy]], "games_per_cell": games, "base_seed": seed,
            "shard_size": games, "ablation": {"cards": cards, "mode": "vanilla"}}
    return run_local(parse_study(data, tmp_path / f"{name}.toml"), tmp_path / name)


def test_coverage_counts_the_pairs_that_differ_and_names_the_arms_that_never_do(tmp_path: Path) -> None:
    # builder never takes Herald's optional moves in Deathmatch (docs/strategies.md, "Blind spots"), while a
    # vanilla Swordmaster changes games: the first arm never diverges, the second does.
    run = _run(tmp_path, "cov", "builder", 31, 20, ["imperial/herald", "imperial/swordmaster"])
    rows = {r["card"]: r for r in ablation_coverage.coverage([run])}
    assert rows["imperial/herald"]["pairs"] == rows["imperial/swordmaster"]["pairs"] == 20
    assert rows["imperial/herald"]["diverged"] == 0 and rows["imperial/herald"]["result_differs"] == 0
    assert 0 < rows["imperial/swordmaster"]["result_differs"] <= rows["imperial/swordmaster"]["diverged"] <= 20
    text = ablation_coverage.render(list(rows.values()), show_all=True, few=5)
    never = text.split("never diverged in any form")[1]
    assert "imperial/herald" in never and "imperial/swordmaster" not in never
    assert "Up to two moves onto empty squares" in never  # the card's text, to say why


def test_coverage_of_a_run_without_arms_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = {"forms": ["deathmatch"], "deck_pairings": [["imperial", "highland"]],
            "strategy_pairings": [["random", "random"]], "games_per_cell": 4, "base_seed": 1}
    run = run_local(parse_study(data, tmp_path / "plain.toml"), tmp_path / "plain")
    assert ablation_coverage.main([str(run)]) == 2
    assert capsys.readouterr().err == "error: the runs hold no ablation arm\n"


def test_validation_compares_each_conclusion_at_two_levels(tmp_path: Path) -> None:
    weak = _run(tmp_path, "weak", "greedy", 5, 40, ["imperial/swordmaster"])
    strong = _run(tmp_path, "strong", "builder", 6, 40, ["imperial/swordmaster"])
    (a, da), (b, db) = validation.level(weak), validation.level(strong)
    assert (a, b) == ("greedy", "builder")
    keys = {("deck edge", "deathmatch", "highland - imperial"), ("ablation", "deathmatch", "Swordmaster (imperial)")}
    assert set(da) == set(db) == keys
    assert all(e.n == 40 for e in (*da.values(), *db.values()))
    text = validation.render((a, b), (da, db))
    assert "| deck edge: highland - imperial | deathmatch |" in text and "| rank order |" in text


@pytest.mark.parametrize(("a", "b", "verdict"), [
    (Paired(30, 5, 5), Paired(20, 4, 16), "confirmed"),
    (Paired(20, 5, 15), Paired(8, 4, 28), "holds (same sign, overlapping)"),
    (Paired(30, 5, 5), Paired(2, 30, 8), "moves"),
    (Paired(8, 6, 26), Paired(6, 8, 26), "sign differs, within noise"),
    (Paired(0, 0, 40), Paired(6, 4, 30), "no value at the default"),
    (Paired(8, 6, 26), None, "not at both levels"),
])
def test_verdicts(a: Paired, b: Paired | None, verdict: str) -> None:
    assert validation.verdict(a, b) == verdict


def test_choice_value_replays_each_meeting_with_the_answer_forced_both_ways(
        capsys: pytest.CaptureFixture[str]) -> None:
    # builder never takes Herald's optional moves in Deathmatch (docs/strategies.md, "Blind spots"): its own
    # games are the declined ones, and forcing the moves changes some of them
    value = choice_value.measure("imperial/herald", "move", ("imperial", "highland"), "deathmatch", "builder", 60)
    n = len(value.meetings)
    assert n > 5 and not any(m.took for m in value.meetings)
    assert {m.seat for m in value.meetings} == {0, 1}
    assert value.take_vs_none.n == value.own_vs_none.n == value.take_vs_own.n == n
    assert value.own_vs_none.up == value.own_vs_none.down == 0
    assert (value.take_vs_own.up, value.take_vs_own.down) == (value.take_vs_none.up, value.take_vs_none.down)
    assert value.take_vs_none.up + value.take_vs_none.down > 0
    assert choice_value.main(["--card", "imperial/herald", "--kind", "move", "--decks", "imperial,highland",
                              "--form", "deathmatch", "--strategy", "builder", "--games", "20"]) == 0
    assert capsys.readouterr().out.startswith("the choice arose in ")


def test_choice_value_names_a_bad_argument(capsys: pytest.CaptureFixture[str]) -> None:
    assert choice_value.main(["--card", "imperial/nobody", "--kind", "move", "--decks", "imperial,highland"]) == 2
    assert capsys.readouterr().err == "error: --card: no card 'imperial/nobody' in the card set\n"
    assert choice_value.main(["--card", "imperial/herald", "--kind", "move", "--decks", "imperial"]) == 2
    assert "--decks: expected two decks" in capsys.readouterr().err


def test_skipped_option_value_replays_each_skip_with_the_option_taken(capsys: pytest.CaptureFixture[str]) -> None:
    value = skipped_option_value.measure("legend-summon", "swift_tuned", "high-form", 24)
    assert 0 < value.skipped <= 24 and value.taken_vs_own.n == value.skipped
    assert value.taken_vs_own.up + value.taken_vs_own.down > 0  # the forced summons change games
    flares = skipped_option_value.measure("last-flare", "swift_tuned", "deathmatch", 24)
    assert 0 < flares.skipped <= 24 and flares.taken_vs_own.n == flares.skipped
    assert skipped_option_value.main(["--option", "last-flare", "--games", "4", "--form", "deathmatch"]) == 0
    assert capsys.readouterr().out.startswith("last-flare skipped in ")
    assert skipped_option_value.main(["--option", "legend-summon", "--strategy", "nobody"]) == 2
    assert "unknown strategy 'nobody'" in capsys.readouterr().err
