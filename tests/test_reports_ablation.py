"""Ablation studies: config, paired arms, planted effects, and the report's paired estimates recomputed
from the Parquet rows."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipelines.shard import play_recording_order
from pipelines.study import StudyConfigError, parse_study
from pipelines.variants import seat_decks, variant_cards
from reports.build import build_report
from reports.calibration import (
    CONTROL,
    STRONG,
    USELESS,
    ablation_rows,
    planted_card_set,
    planted_pass,
    run_local,
    study_config,
)
from sim.cards import load_card_set
from sim.game import Game
from strategies import make_strategy


def _study(tmp_path: Path, **ablation: object):
    data = {"forms": ["deathmatch"], "deck_pairings": [["imperial", "highland"]],
            "strategy_pairings": [["random", "random"]], "games_per_cell": 4, "base_seed": 3,
            "ablation": ablation}
    return parse_study(data, tmp_path / "s.toml")


def test_ablation_config_expands_families_and_pairs_seeds(tmp_path: Path) -> None:
    study = _study(tmp_path, cards=["imperial/*", "legend/fire-dragon"], mode="vanilla")
    assert len(study.ablation) == 19 and study.total_games == 4 * 20
    base, arm = study.game(1), study.game(4 * 7 + 1)
    assert arm.seed == base.seed and arm.decks == base.decks and arm.variant == study.ablation[6]
    assert base.variant is None
    assert len(_study(tmp_path, cards="all", mode="remove").ablation) == 3 * 18 + 12 + 12


@pytest.mark.parametrize(("ablation", "message"), [
    ({"cards": ["imperial/nobody"]}, "ablation.cards[0]: unknown card or family 'imperial/nobody'"),
    ({"cards": ["task/*"], "mode": "vanilla"}, 'use mode = "remove" for tasks'),
    ({"cards": "all", "mode": "zap"}, "ablation.mode: expected one of vanilla, remove, copy"),
    ({"cards": "all", "modes": "x"}, "ablation.modes: unknown key"),
])
def test_bad_ablation_configs_name_the_key(tmp_path: Path, ablation: dict, message: str) -> None:
    with pytest.raises(StudyConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        _study(tmp_path, **ablation)


def _setup_orders(study, game_id: int) -> tuple[tuple[list[str], list[str]], list[str]]:
    spec = study.game(game_id)
    cards = load_card_set() if spec.variant is None else variant_cards(load_card_set(), spec.variant)
    players = [make_strategy("random", seat, spec.seed) for seat in (0, 1)]
    game = Game(cards, "deathmatch", seat_decks(spec, cards), players, spec.seed)
    record, order = play_recording_order(game)
    return order, game.state.deck_names


def test_vanilla_keeps_every_shuffle_and_changes_one_seat_only(tmp_path: Path) -> None:
    study = _study(tmp_path, cards=["imperial/swordmaster"], mode="vanilla")
    base, names = _setup_orders(study, 2)
    arm, arm_names = _setup_orders(study, 4 + 2)
    assert arm == base  # same shuffles, same opening hands
    assert sorted(arm_names) == sorted(["imperial~variant", "highland"])
    removed = _study(tmp_path, cards=["imperial/swordmaster"], mode="remove")
    order, _ = _setup_orders(removed, 4 + 2)
    seat = names.index("imperial")
    assert len(order[seat]) == 17 and "imperial/swordmaster" not in order[seat]


def test_planted_effects_rank_the_strong_card_first(tmp_path: Path) -> None:
    """Small version of `python -m reports.calibration planted` (random players; docs/reports.md has the
    default-strategy run): on each of three base seeds the overwhelming being ranks first with an interval
    above 0, and the useless one last (no variation, or an interval covering 0)."""
    cards_dir = planted_card_set(tmp_path / "cards")
    for seed in (11, 12, 13):
        config = study_config(seed, 100, "random", ["deathmatch"], [STRONG, USELESS, CONTROL], "vanilla",
                              str(cards_dir))
        rows = ablation_rows(run_local(parse_study(config, tmp_path / "p.toml"), tmp_path / f"run-{seed}"),
                             cards_dir)
        effects = {r["card_id"]: r["effect"] for r in rows}
        assert planted_pass(rows, "deathmatch") and effects[STRONG].flagged and not effects[USELESS].flagged


def test_report_pairs_match_the_rows(tmp_path: Path) -> None:
    """The report's paired counts against a recomputation from the games table alone."""
    config = study_config(5, 40, "random", ["deathmatch"], ["imperial/bomb", "legend/fire-dragon"], "vanilla",
                          "builtin")
    study = parse_study(config, tmp_path / "s.toml")
    run = run_local(study, tmp_path / "run")
    games = [r for f in sorted((run / "games").glob("*.parquet")) for r in pq.read_table(f).to_pylist()]
    base = {g["seed"]: g for g in games if g["variant"] == ""}
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for g in games:
        if g["variant"] == "vanilla:imperial/bomb":
            seat = g["variant_seat"]
            assert g[f"deck_{seat}"] == "imperial"
            with_card, without = base[g["seed"]]["winner"] == seat, g["winner"] == seat
            counts["imperial/bomb"][0 if with_card > without else 1 if without > with_card else 2] += 1
    rows = {r["card_id"]: r for r in ablation_rows(run, None)}
    e = rows["imperial/bomb"]["effect"]
    assert [e.up, e.down, e.same] == counts["imperial/bomb"] and e.n == 40
    # diverged: the two games of a pair differ in their outcome or in any card event
    events: dict[int, list[tuple]] = defaultdict(list)
    for f in sorted((run / "card_events").glob("*.parquet")):
        for r in pq.read_table(f).to_pylist():
            events[r["game_id"]].append(tuple(v for k, v in sorted(r.items()) if k != "game_id"))
    outcome = ("winner", "score_0", "score_1", "turns", "end_reason", "tiebreak")
    diverged = sum(
        any(g[k] != base[g["seed"]][k] for k in outcome)
        or sorted(events[g["game_id"]]) != sorted(events[base[g["seed"]]["game_id"]])
        for g in games if g["variant"] == "vanilla:imperial/bomb")
    assert rows["imperial/bomb"]["diverged"] == diverged and 0 < diverged < 40
    assert rows["legend/fire-dragon"]["effect"].n < 40  # only the pairs where a seat was dealt it at setup


def test_plan_says_how_many_games_before_running(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from sim.cli import app

    study = tmp_path / "s.toml"
    study.write_text('forms = ["deathmatch"]\ndeck_pairings = [["imperial", "highland"]]\n'
                     'strategy_pairings = [["builder", "builder"]]\ngames_per_cell = 2000\nbase_seed = 1\n'
                     '[ablation]\ncards = ["imperial/bomb"]\n')
    result = CliRunner().invoke(app, ["plan", str(study), "--effect", "0.05", "--discordance", "0.5"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if "imperial/bomb" in x)
    assert "| pairs | 2,000 | 4.4 pp | 1,570 | yes |" in line  # 2.80 * sqrt(0.5) / sqrt(2000)
    bad = CliRunner().invoke(app, ["plan", str(study), "--effect", "2"])
    assert bad.exit_code == 2 and "error: --effect" in bad.output


def test_a_removed_task_is_a_unit_for_each_seat(tmp_path: Path) -> None:
    """A task is both seats' (the setup row is shared): each pair counts once for each deck of the pairing, so
    both decks see the same pairs diverge, and what one seat gains the other loses. In a mirror the two seats
    cancel, so its games are left out."""
    config = study_config(5, 10, "random", ["high-form"], ["task/destruction"], "remove", "builtin")
    config["deck_pairings"] = [["imperial", "highland"], ["imperial", "imperial"]]
    run = run_local(parse_study(config, tmp_path / "s.toml"), tmp_path / "run")
    rows = {r["deck"]: r for r in ablation_rows(run, None) if r["card_id"] == "task/destruction"}
    assert sorted(rows) == ["highland", "imperial"]
    [per_opp] = [t.rows for t in build_report([run]).tables() if t.id == "ablation_opponents"]
    assert sorted((r["deck"], r["opp_deck"]) for r in per_opp if r["card_id"] == "task/destruction") == [
        ("highland", "imperial"), ("imperial", "highland")]
    assert [(r["pairs"], r["effect"].n) for r in rows.values()] == [(10, 10), (10, 10)]
    assert rows["highland"]["diverged"] == rows["imperial"]["diverged"] > 0
    assert rows["highland"]["effect"].value == -rows["imperial"]["effect"].value != 0


def test_ablation_units_keep_their_seats_player_and_their_own_runs_events(tmp_path: Path) -> None:
    """Random against builder: each arm's row names the player of the seat with the changed deck. Two runs of
    other seeds number their games alike: reported together, each pair meets its own run's card events only, so
    the pairs and the diverged pairs are the sums of the two runs'."""
    from reports.dataset import open_runs
    from reports.queries import run_queries

    def ablation(runs: list[Path]) -> list[dict]:
        _, con = open_runs(runs)
        try:
            return run_queries(con, ",".join(map(str, runs)))["ablation"]
        finally:
            con.close()

    runs = []
    for seed in (3, 4):
        config = study_config(seed, 6, "random", ["deathmatch"], ["imperial/swordmaster"], "vanilla", "builtin")
        config["strategy_pairings"] = [["random", "builder"]]
        runs.append(run_local(parse_study(config, tmp_path / f"s{seed}.toml"), tmp_path / f"run{seed}"))
    games = pq.read_table(runs[0] / "games").to_pylist()
    changed = {(g[f"deck_{g['variant_seat']}"], g[f"strategy_{g['variant_seat']}"]) for g in games if g["variant"]}
    alone = [ablation([run]) for run in runs]
    assert {(r["deck"], r["strategy"]) for r in alone[0]} == changed == {("imperial", "random")}
    totals = defaultdict(lambda: [0, 0])
    for r in alone[0] + alone[1]:
        totals[(r["deck"], r["strategy"], r["opp_deck"])][0] += r["up"] + r["down"] + r["same"]
        totals[(r["deck"], r["strategy"], r["opp_deck"])][1] += r["diverged"]
    together = {(r["deck"], r["strategy"], r["opp_deck"]): [r["up"] + r["down"] + r["same"], r["diverged"]]
                for r in ablation(runs)}
    assert together == dict(totals) and sum(d for _, d in together.values()) > 0
