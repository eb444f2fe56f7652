"""The engine's commands: ``play``, ``cards``, ``bench``, and clear errors (no traceback) for bad input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from sim.cards import BUILTIN_DIR, load_card_set
from sim.cli import app
from sim.game import Game
from strategies import make_strategy

TASHKALAR = Path(sys.executable).parent / "tashkalar"


def run(*args: str):
    return CliRunner().invoke(app, [str(a) for a in args], prog_name="tashkalar")


def fails_cleanly(result, *fragments: str) -> None:
    """A user error: exit status 2, ``error: ...`` on stderr naming every fragment, no traceback."""
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.stderr, (fragment, result.stderr)


# ----- play
def test_play_prints_the_game_turn_by_turn():
    result = run("play", "--form", "deathmatch", "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "== Turn 1: player" in out and "== Turn 2: player" in out
    assert "-- -- " in out and "score " in out  # arena diagrams and the score after each turn
    last = out.strip().splitlines()[-1]
    assert last.startswith("Result: ") and "ended by" in last


@pytest.mark.parametrize("mode", ["high-form", "deathmatch"])
def test_play_prints_the_record_as_json(mode):
    result = run("play", "--form", mode, "--decks", "highland-sylvan", "--strategies", "random", "--seed", "5",
                 "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)  # the whole of stdout: one JSON document
    assert record["config"] == {"mode": mode, "decks": ["highland", "sylvan"],
                                "strategies": ["random", "random"], "seed": 5}
    players = [make_strategy("random", seat, 5) for seat in (0, 1)]
    expected = Game(load_card_set(), mode, ("highland", "sylvan"), players, 5).play().to_dict()
    assert record == json.loads(json.dumps(expected))  # the same game as played directly with that seed


# ----- cards
def test_cards_of_one_deck_as_text():
    result = run("cards", "--deck", "imperial")
    assert result.exit_code == 0
    assert "Swordmaster (imperial/swordmaster, common)" in result.stdout
    assert "highland/" not in result.stdout and "Flare" not in result.stdout
    assert "Pattern key:" in result.stdout


@pytest.mark.parametrize("deck, cards, flares, tasks", [
    ("legends", 12, False, False), ("sylvan", 18, False, False), ("flares", 0, True, False),
    ("tasks", 0, False, True),
])
def test_cards_of_one_deck_as_json(deck, cards, flares, tasks):
    data = json.loads(run("cards", "--deck", deck, "--json").stdout)
    assert len(data["cards"]) == cards and ("flares" in data) == flares and ("tasks" in data) == tasks
    expected_deck = "legend" if deck == "legends" else deck
    assert all(c["deck"] == expected_deck for c in data["cards"])
    assert len(data.get("flares", [None] * 12)) == 12 and len(data.get("tasks", [None] * 24)) == 24


# ----- bench
def test_bench_reports_games_per_second_as_json():
    result = run("bench", "--games", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["machine"]
    assert [(r["mode"], r["decks"]) for r in data["results"]] == [("high-form", "imperial-imperial"),
                                                                   ("deathmatch", "imperial-imperial")]
    for r in data["results"]:
        assert r["games"] == 3 and r["games_per_second"] > 0 and r["mean_turns"] > 10
        assert r["games_per_cpu_second"] > 0 and r["cpu_seconds"] >= 0
    assert [s["mode"] for s in data["spread"]] == ["high-form", "deathmatch"]
    assert all(s["ratio"] == 1.0 and s["within_2x"] for s in data["spread"])  # one pairing per form


def test_bench_table_shows_cpu_and_wall_rates_and_the_spread_check():
    result = run("bench", "--games", "2", "--decks", "imperial-imperial,sylvan-highland")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "games/CPU-s" in lines[0] and "games/wall-s" in lines[0]
    assert sum("in games per CPU second" in line for line in lines) == 2


def test_bench_spread_flags_a_pairing_more_than_twice_as_slow_in_cpu_time():
    from sim.bench import spread

    def row(mode: str, decks: str, cpu_rate: float, wall_rate: float) -> dict:
        return {"mode": mode, "decks": decks, "games_per_cpu_second": cpu_rate, "games_per_second": wall_rate}

    rows = [row("high-form", "a-a", 300.0, 60.0), row("high-form", "b-b", 160.0, 150.0),  # wall says 2.5x
            row("deathmatch", "a-a", 300.0, 300.0), row("deathmatch", "b-b", 140.0, 140.0)]
    assert spread(rows) == [
        {"mode": "high-form", "fastest": "a-a", "slowest": "b-b", "ratio": 1.88, "within_2x": True},
        {"mode": "deathmatch", "fastest": "a-a", "slowest": "b-b", "ratio": 2.14, "within_2x": False},
    ]


def test_bench_all_pairings():
    data = json.loads(run("bench", "--games", "1", "--decks", "all", "--json").stdout)
    assert len(data["results"]) == 2 * 9
    assert {r["decks"] for r in data["results"]} == {f"{a}-{b}" for a in ("imperial", "highland", "sylvan")
                                                      for b in ("imperial", "highland", "sylvan")}


# ----- bad input
BREAKS = [
    # file, text replaced, replacement, what the message must name
    ("imperial.toml", 'rank = "common"', 'rank = "epic"', ["imperial.toml", "imperial/swordmaster", ".rank"]),
    ("imperial.toml", 'name = "Swordmaster"\n', "", ["imperial.toml", "missing field 'name'"]),
    ("imperial.toml", '"""\nc\n@\nc\n"""', '"""\nc\nc\n"""', ["imperial.toml", ".pattern", "'@'"]),
    ("imperial.toml", '{ do = "destroy", where = "diagonal"', '{ do = "explode", where = "diagonal"',
     ["imperial.toml", "imperial/swordmaster", ".effect", "explode"]),
    ("imperial.toml", 'id = "imperial/swordmaster"', 'id = "imperial/sword', ["imperial.toml", "syntax"]),
    ("flares.toml", "needs_more = 3,", 'needs_more = "3",', ["flares.toml", "flare/01", "needs_more"]),
    ("tasks.toml", 'condition = "destroyed_3"', 'condition = "destroyed_9"',
     ["tasks.toml", "task/destruction", ".condition"]),
    ("tasks.toml", 'category = "destruction"', 'category = "chaos"', ["tasks.toml", ".category"]),
    ("legends.toml", 'rank = "legendary"', 'rank = "heroic"', ["legends.toml", ".rank"]),
]


def broken_cards(tmp_path: Path, file: str, old: str, new: str) -> Path:
    d = tmp_path / "cards"
    shutil.copytree(BUILTIN_DIR, d)
    text = (d / file).read_text()
    assert old in text, old
    (d / file).write_text(text.replace(old, new, 1))
    return d


@pytest.mark.parametrize("file, old, new, named", BREAKS, ids=[f"{b[0]}-{i}" for i, b in enumerate(BREAKS)])
def test_a_malformed_card_file_is_named_with_its_field(tmp_path, file, old, new, named):
    d = broken_cards(tmp_path, file, old, new)
    fails_cleanly(run("cards", "--cards", d), *named)
    fails_cleanly(run("play", "--cards", d), *named)


def test_a_missing_card_directory():
    fails_cleanly(run("cards", "--cards", "/nonexistent/cards"), "/nonexistent/cards", "not found")


@pytest.mark.parametrize("args, named", [
    (["play", "--decks", "imperial-nope"], ["unknown deck 'nope'", "imperial"]),
    (["play", "--players", "3", "--decks", "imperial-sylvan-highland-imperial"], ["--decks", "3 players"]),
    (["play", "--decks", "imperial,sylvan"], ["--decks", "joined with '-'", "imperial-sylvan"]),
    (["play", "--decks", "imperial--sylvan"], ["--decks", "joined with '-'"]),
    (["play", "--strategies", "random,nope"], ["unknown strategy 'nope'", "random"]),
    (["play", "--strategies", "random,random,random"], ["--strategies", "2 players"]),
    (["play", "--players", "5"], ["--players", "2, 3 or 4"]),
    (["play", "--players", "3", "--form", "high-form"], ["Deathmatch melee", "high-form"]),
    (["play", "--form", "chess"], ["unknown mode 'chess'", "deathmatch"]),
    (["play", "--mode", "deathmatch"], ["--mode is now --form"]),
    (["ladder", "--mode=deathmatch"], ["--mode is now --forms"]),
    (["history", "--mode", "deathmatch"], ["--mode is now --form"]),
    (["cards", "--deck", "nope"], ["--deck", "unknown deck 'nope'"]),
    (["bench", "--games", "1", "--decks", "imperial-nope"], ["--decks", "imperial-nope"]),
    (["bench", "--games", "1", "--strategies", "random,nope"], ["unknown strategy 'nope'"]),
])
def test_unknown_names_are_user_errors(args, named):
    fails_cleanly(run(*args), *named)


def test_the_installed_command_reports_errors_without_a_traceback(tmp_path):
    d = broken_cards(tmp_path, *BREAKS[0][:3])
    done = subprocess.run([TASHKALAR, "play", "--cards", d], capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: ") and str(d / "imperial.toml") in done.stderr
    done = subprocess.run([TASHKALAR, "play", "--seed", "2", "--json"], capture_output=True, text=True)
    assert done.returncode == 0 and json.loads(done.stdout)["turns"] > 0


# ----- conventions
COMMANDS = sorted(typer.main.get_command(app).commands)  # every command the CLI registers


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.strip().startswith("tashkalar 0.")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_takes_h_as_well_as_help(command):
    short, long = run(command, "-h"), run(command, "--help")
    assert short.exit_code == 0 and short.stdout == long.stdout and f"tashkalar {command}" in short.stdout


def test_shell_completion_is_offered(monkeypatch: pytest.MonkeyPatch):
    # With shellingham installed, Typer reads the shell from the parent processes and takes no SHELL
    # argument; under nohup or a test runner there may be none to find. Typer's switch to the explicit form:
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    assert "--install-completion" in run("-h").stdout
    result = run("--show-completion", "bash")
    assert result.exit_code == 0, (result.exception, result.output)
    assert "_TASHKALAR_COMPLETE" in result.stdout


def test_help_names_values_naturally():
    helps = {c: run(c, "-h").stdout for c in ("run", "report", "ladder", "bench")}
    assert "STUDY.toml" in helps["run"] and "RUN_DIR" in helps["run"] and "HOST:PORT" in helps["run"]
    assert "RUN_DIR" in helps["report"] and "FILE.html" in helps["report"]
    assert all(" N " in helps[c] for c in ("run", "ladder", "bench"))


# ----- counts: one rule for --games and --workers (at least 1; --workers left out means all cores)
@pytest.mark.parametrize("args", [
    ["bench", "--games", "0"], ["bench", "--games", "-3"], ["ladder", "--games", "0"],
    ["ladder", "--workers", "-1"], ["ladder", "--workers", "0"], ["run", "studies/quick.toml", "--workers", "0"],
])
def test_counts_below_one_are_user_errors(args):
    option, value = args[-2], args[-1]
    fails_cleanly(run(*args), option, f"at least 1, got {value}")


# ----- run and report: where they cannot write, or what is not there
def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("how", ["option", "environment"])
def test_a_cluster_address_where_nothing_answers_fails_fast_and_writes_nothing(tmp_path, how):
    address, out = f"127.0.0.1:{_free_port()}", tmp_path / "run"
    args = [TASHKALAR, "run", "studies/quick.toml", "--out", out, "--no-progress"]
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    if how == "option":
        args += ["--address", address]
    else:
        env["RAY_ADDRESS"] = address
    start = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=60,
                          cwd=Path(__file__).parent.parent)
    assert time.monotonic() - start < 30
    assert done.returncode == 2 and done.stderr.startswith("error: ") and "Traceback" not in done.stderr
    assert address in done.stderr and "no Ray cluster answers" in done.stderr
    assert not out.exists()


def test_run_out_where_no_directory_can_be(tmp_path):
    file = tmp_path / "file"
    file.write_text("mine")
    fails_cleanly(run("run", "studies/quick.toml", "--out", file), str(file), "cannot write a run directory")
    fails_cleanly(run("run", "studies/quick.toml", "--out", file / "run"), str(file / "run"))
    assert file.read_text() == "mine"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_run_out_in_a_read_only_directory(tmp_path):
    tmp_path.chmod(0o555)
    try:
        fails_cleanly(run("run", "studies/quick.toml", "--out", tmp_path / "run"), "Permission denied")
    finally:
        tmp_path.chmod(0o755)
