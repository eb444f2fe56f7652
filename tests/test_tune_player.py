"""tune-player: the search space, the presets and how strategies name them; on Ray, that a search is
reproducible from its seed and resumes after an interruption to the same preset."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.study import StudyConfigError, parse_study
from sim.cli import app
from sim.errors import UserError
from strategies import StrategyConfigError, make_strategy
from strategies.ladder import Entrant, run_ladder
from strategies.tune_space import NOT_SEARCHED_BY_DEFAULT, default_space, fixed_params, load_space

TASHKALAR = Path(sys.executable).parent / "tashkalar"
PRESET = """player = "builder"

[params]
patterns = 2.5
threat = 0.1
"""


@pytest.fixture
def presets(tmp_path, monkeypatch):
    folder = tmp_path / "presets"
    folder.mkdir()
    monkeypatch.setenv("TASHKALAR_PRESETS", str(folder))
    return folder


def test_default_space_is_the_players_weights_around_their_defaults():
    space = {d.param.name: d for d in default_space("builder")}
    assert not set(space) & set(NOT_SEARCHED_BY_DEFAULT)
    assert "max_placements" not in space  # a budget, not a weight
    assert (space["patterns"].low, space["patterns"].high) == (0.0, 3.0)
    assert (space["destruction"].low, space["destruction"].high) == (0.0, 2.0)  # default 0
    assert space["readiness_decay"].high == 1.0  # its declared bound


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "space.toml"
    path.write_text(text)
    return path


def test_a_space_file_gives_ranges(tmp_path):
    space = load_space(write(tmp_path, "[patterns]\nlow = 0.5\nhigh = 3\nlog = true\n[explore]\nlow = 1\n"
                                       "high = 4\n"), "builder")
    assert [(d.param.name, d.low, d.high, d.log) for d in space] == [("patterns", 0.5, 3.0, True),
                                                                     ("explore", 1, 4, False)]


@pytest.mark.parametrize(("text", "expected"), [
    ("[patterns\n", "not a readable TOML file"),
    ("", "expected at least one [PARAMETER] table"),
    ("[depth]\nlow = 1\nhigh = 2\n", "depth: not a numeric parameter of builder (its numeric parameters: score"),
    ("[pass_control]\nlow = 0\nhigh = 1\n", "pass_control: not a numeric parameter"),
    ("[patterns]\nlow = 1\n", "patterns: expected a table like [patterns] low = 0.5, high = 2.0"),
    ("patterns = 2\n", "patterns: expected a table like"),
    ("[patterns]\nlow = 1\nhigh = 2\nstep = 1\n", "patterns: expected a table like"),
    ("[patterns]\nlow = 2\nhigh = 1\n", "patterns: expected low < high, got 2 and 1"),
    ("[patterns]\nlow = 'a'\nhigh = 1\n", "patterns: low and high must be numbers"),
    ("[explore]\nlow = 0.5\nhigh = 2\n", "explore: low and high must be whole numbers"),
    ("[readiness_decay]\nlow = 0\nhigh = 2\n", "readiness_decay: the range must lie within the parameter's bounds"),
    ("[patterns]\nlow = 0\nhigh = 2\nlog = true\n", "patterns: a log range needs low > 0"),
    ("[patterns]\nlow = 1\nhigh = 2\nlog = 'yes'\n", "patterns.log: expected true or false"),
])
def test_space_file_errors_name_the_file_key_and_expectation(tmp_path, text, expected):
    path = write(tmp_path, text)
    with pytest.raises(UserError) as e:
        load_space(path, "builder")
    assert str(e.value).startswith(f"{path}: ")
    assert expected in str(e.value)


def test_a_missing_space_file_and_a_non_lookahead_player_are_named(tmp_path):
    with pytest.raises(UserError, match="no such space file"):
        load_space(tmp_path / "nope.toml", "builder")
    with pytest.raises(UserError, match="--player: expected one of greedy, builder, hunter, brawler, swift"):
        default_space("planner")


def test_swift_is_searched_over_its_weights_and_margin():
    names = {d.param.name for d in default_space("swift")}
    assert {"heroic", "patterns", "readiness_decay", "margin"} <= names
    assert not names & {"score", "pass_margin", "free_action"}


def test_fixed_params_are_checked_and_kept_apart_from_the_space():
    space = default_space("swift")
    assert fixed_params("swift", ["effect_runs=1", "margin=0"], []) == {"effect_runs": 1, "margin": 0.0}
    with pytest.raises(UserError, match="--param: margin is searched by the space"):
        fixed_params("swift", ["margin=0"], space)
    with pytest.raises(UserError, match="--param: expected NAME=VALUE"):
        fixed_params("swift", ["effect_runs"], space)
    with pytest.raises(UserError, match="--param: strategy 'swift' has no parameter 'depth'"):
        fixed_params("swift", ["depth=2"], space)
    with pytest.raises(UserError, match="--param: strategy 'swift': parameter 'effect_runs' must be at least 0"):
        fixed_params("swift", ["effect_runs=-1"], space)


def test_a_preset_plays_as_its_player_with_its_params(presets):
    (presets / "sharp.toml").write_text(PRESET)
    player = make_strategy("sharp", 0, 5)
    assert player.name == "builder"
    assert player.params["patterns"] == 2.5 and player.params["threat"] == 0.1
    assert player.params["heroic"] == make_strategy("builder", 0, 5).params["heroic"]  # the rest: builder's
    assert make_strategy("sharp", 0, 5, {"patterns": 1.0}).params["patterns"] == 1.0  # given params win


def test_a_folder_of_ones_own_neither_hides_nor_replaces_the_shipped_presets(presets):
    (presets / "swift_tuned.toml").write_text(PRESET)  # the default player's name
    (presets / "sharp.toml").write_text(PRESET)
    assert make_strategy("swift_tuned", 0, 1).name == "swift"
    assert make_strategy("sharp", 0, 1).name == "builder"


def test_every_shipped_preset_plays_as_its_player():
    from strategies.tuned import load_preset, preset_names

    assert {"builder_tuned", "planner_halving", "swift_tuned"} <= set(preset_names())
    for name in preset_names():
        preset = load_preset(name)
        player = make_strategy(name, 0, 1)
        assert player.name == preset.player
        assert all(player.player.setting(k) == float(v) for k, v in preset.params.items()), name


def test_unknown_and_broken_presets_are_clear_errors(presets):
    (presets / "sharp.toml").write_text(PRESET)
    with pytest.raises(StrategyConfigError, match="unknown strategy 'blunt'.*; tuned presets: .*sharp"):
        make_strategy("blunt", 0, 1)
    (presets / "broken.toml").write_text("player = \n")
    with pytest.raises(StrategyConfigError, match=r"broken\.toml: not a readable preset"):
        make_strategy("broken", 0, 1)
    (presets / "odd.toml").write_text('player = "builder"\n[params]\ndepth = 3\n')
    with pytest.raises(StrategyConfigError, match="has no parameter 'depth'"):
        make_strategy("odd", 0, 1)


def test_a_study_names_a_preset_and_rejects_an_unknown_one(presets):
    (presets / "sharp.toml").write_text(PRESET)
    base = {"forms": ["high-form"], "deck_pairings": [["imperial", "sylvan"]], "games_per_cell": 2,
            "base_seed": 1, "strategy_pairings": [["sharp", "builder"]]}
    assert parse_study(base, Path("/studies/t.toml")).strategy_pairings == (("sharp", "builder"),)
    with pytest.raises(StudyConfigError, match=r"t\.toml: strategy_pairings: unknown strategy 'blunt'"):
        parse_study(base | {"strategy_pairings": [["blunt", "builder"]]}, Path("/studies/t.toml"))


def test_the_bench_plays_a_preset_in_the_core_with_its_params(presets):
    from sim import core
    from sim.bench import _core_games
    from sim.cards import load_card_set

    (presets / "sharp.toml").write_text(PRESET)
    cards, decks = load_card_set(), ("imperial", "sylvan")
    given = {"patterns": 2.5, "threat": 0.1}
    turns = _core_games(cards, "high-form", decks, ["sharp", "builder"], 6)
    assert turns == core.play_many(cards, "high-form", decks, ("builder", "builder"), 6, params=(given, {}))
    with pytest.raises(ValueError, match="'threat' must be a number"):
        core.play_many(cards, "high-form", decks, ("builder", "builder"), 1, params=({"threat": True}, {}))
    with pytest.raises(ValueError, match="one dict per strategy"):
        core.play_many(cards, "high-form", decks, ("builder", "builder"), 1, params=({},))


def test_a_preset_of_two_forms_gives_the_measure_over_both_and_in_each():
    from strategies.tune_player import Outcome, Search, preset_text

    search = Search("swift", "planner-classic", "high-form,deathmatch", [["imperial", "sylvan"]], 4, 8, 8, 3, 1,
                    {"heroic": {"low": 2.0, "high": 6.0, "log": False}}, None, {"effect_runs": 1})
    assert search.forms == ["high-form", "deathmatch"]
    text = preset_text("fast", search, {"heroic": 4.5}, 0.6,
                       {"high-form": Outcome(5, 3, 0), "deathmatch": Outcome(3, 4, 1)})
    preset = tomllib.loads(text)
    assert preset["params"] == {"effect_runs": 1, "heroic": 4.5}
    measured = preset["measured"]
    assert (measured["games"], measured["wins"], measured["losses"], measured["ties"]) == (16, 8, 7, 1)
    assert measured["win_rate"] == 0.5312  # rounded to 4 decimals
    assert measured["by_form"]["high-form"]["win_rate"] == 0.625
    assert measured["by_form"]["deathmatch"]["games"] == 8
    one = tomllib.loads(preset_text("fast", search, {"heroic": 4.5}, 0.6, {"high-form": Outcome(5, 3, 0)}))
    assert "by_form" not in one["measured"]


def test_the_ladder_plays_a_preset(presets):
    (presets / "sharp.toml").write_text(PRESET)
    result = run_ladder("high-form", [Entrant("sharp"), Entrant("builder")], 4, [("imperial", "sylvan")],
                        workers=1)
    assert result.pairings[0].games == 4


def tune(tmp_path: Path, *args: str, **kwargs) -> subprocess.CompletedProcess | subprocess.Popen:
    command = [str(TASHKALAR), "tune-player", *args]
    env = os.environ | {"TASHKALAR_PRESETS": str(tmp_path / "presets")}
    if kwargs.get("popen"):
        return subprocess.Popen(command, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize(("args", "expected"), [
    (["--games-per-trial", "7"], "--games-per-trial: expected an even number"),
    (["--player", "planner"], "--player: expected one of greedy, builder, hunter, brawler, swift"),
    (["--param", "depth=2"], "--param: strategy 'builder' has no parameter 'depth'"),
    (["--reference", "nope"], "unknown strategy 'nope'"),
    (["--name", "builder"], "--name: expected a new name"),
    (["--name", "Bad-Name"], "--name: expected a new name"),
    (["--name", "swift_tuned"], "--name: 'swift_tuned' is a preset shipped with the code"),
    (["--form", "melee-3"], "--form: expected high-form, deathmatch or both separated by a comma"),
    (["--form", "high-form,high-form"], "--form: expected high-form, deathmatch or both"),
    (["--resume"], "no search to resume there"),
    (["--space", "no/such.toml"], "no/such.toml: no such space file"),
    (["--address", "nohost"], "--address 'nohost': expected HOST:PORT"),
])
def test_bad_options_are_one_line_before_ray_starts(tmp_path, presets, args, expected):
    run = CliRunner().invoke(app, ["tune-player", "--out", str(tmp_path / "out"), "--name", "mine", *args],
                             prog_name="tashkalar")
    assert run.exit_code == 2 and run.stderr.startswith("error: ") and expected in run.stderr, run.output
    assert len(run.stderr.strip().splitlines()) == 1


SMALL = ["--trials", "4", "--games-per-trial", "8", "--measure-games", "8", "--concurrency", "2", "--workers", "2",
         "--param", "max_placements=3", "--seed", "3"]


def preset_body(path: Path) -> dict:
    data = tomllib.loads(path.read_text())
    return {k: data[k] for k in ("player", "params", "measured", "search")}


@pytest.mark.ray
def test_a_search_is_reproducible_and_resumes_to_the_same_preset(tmp_path):
    first = tune(tmp_path, "--out", str(tmp_path / "a"), "--name", "first", *SMALL)
    assert first.returncode == 0, first.stderr
    assert [line.split(":")[0] for line in first.stderr.splitlines() if line.startswith("trial ")] == [
        "trial 1/4", "trial 2/4", "trial 3/4", "trial 4/4"]
    preset = preset_body(tmp_path / "presets" / "first.toml")
    assert preset["player"] == "builder" and preset["measured"]["reference"] == "builder"
    assert preset["measured"]["games"] == 8 and preset["measured"]["seed"] != preset["search"]["seed"]
    low, high = preset["measured"]["interval"]
    assert low <= preset["measured"]["win_rate"] <= high
    assert set(preset["params"]) == set(preset["search"]["space"]) | {"max_placements"}
    assert preset["params"]["max_placements"] == 3 and preset["search"]["fixed"] == {"max_placements": 3}

    second = tune(tmp_path, "--out", str(tmp_path / "b"), "--name", "second", *SMALL, "--json", "--no-progress")
    assert second.returncode == 0, second.stderr
    assert preset_body(tmp_path / "presets" / "second.toml") == preset
    assert json.loads(second.stdout) == preset  # the whole of stdout is the preset
    assert "trial 1/4" not in second.stderr

    interrupted = tune(tmp_path, "--out", str(tmp_path / "c"), "--name", "third", *SMALL, popen=True)
    for line in interrupted.stderr:
        if line.startswith("trial 2/4"):
            interrupted.send_signal(signal.SIGINT)
            break
    interrupted.stderr.read()
    assert interrupted.wait(timeout=300) == 130
    assert not (tmp_path / "presets" / "third.toml").exists()
    resumed = tune(tmp_path, "--out", str(tmp_path / "c"), "--name", "third", *SMALL, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert preset_body(tmp_path / "presets" / "third.toml") == preset

    again = tune(tmp_path, "--out", str(tmp_path / "c"), "--name", "fourth", *SMALL)
    assert again.returncode == 2 and "holds a search already; --resume goes on with it" in again.stderr
    with_other = tune(tmp_path, "--out", str(tmp_path / "c"), "--name", "fourth", *SMALL[:-2], "--seed", "4",
                      "--resume")
    assert with_other.returncode == 2 and "started with other settings (seed)" in with_other.stderr

