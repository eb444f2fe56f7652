"""Scenario notation (sim/scenario.py) and ``tashkalar scenario``: positions load as written, mistakes name
their line, and a card can be checked from the command line."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.scenario import ScenarioError, load_scenario, render_arena
from tests.helpers import Scripted, arena
from tests.ruleset import grid, rules_cards, write_rules_cards

ARENA = grid({"e4": "1c", "e5": "1h", "f5": "2c", "d6": "2l", "c5": "1c"})
TEXT = f"""# a position
mode: deathmatch
decks: test, test
active: 2
actions: 1
hand 1: test/single
hand 2: test/ell, test/knight
legends 2: legend/test-3
flare 2: flare/07
stock 1: tokens=4 legends=1
seed: 9
arena:
{ARENA}
"""


def load(text: str):
    return load_scenario(text, [Scripted(), Scripted()], rules_cards())


def test_a_scenario_sets_up_the_position_as_written():
    s = load(TEXT).state
    assert (s.mode, s.active, s.actions_left, s.deck_names) == ("deathmatch", 1, 1, ("test", "test"))
    assert render_arena(s) == ARENA
    assert [c.id for c in s.hand[1]] == ["test/ell", "test/knight"]
    assert [c.id for c in s.hand[0]] == ["test/single"]
    assert all(c.id not in ("test/ell", "test/knight") for c in s.deck[1]) and len(s.deck[1]) == 10
    assert [c.id for c in s.legend_hand[1]] == ["legend/test-3"] and len(s.legend_deck) == 5
    assert [f.id for f in s.flare_hand[1]] == ["flare/07"] and len(s.flare_deck) == 11
    assert (s.tokens, s.legend_stock) == ([4, 15], [1, 2])
    s.check_invariants()


def test_high_form_tasks_and_the_next_task():
    s = load("decks: test, test\ntasks: task/destruction, task/red-conquest, task/center-cross\n"
             "next task: task/isolation\n").state
    assert [t.id for t in s.task_row] == ["task/destruction", "task/red-conquest", "task/center-cross"]
    assert s.next_task.id == "task/isolation" and len(s.task_deck) == 20


def test_the_seed_orders_the_decks():
    def deck(seed: int) -> list[str]:
        return [c.id for c in load(f"decks: test, test\nseed: {seed}\n").state.deck[0]]

    assert len({tuple(deck(n)) for n in range(4)}) > 1 and deck(3) == deck(3)


def _line(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


@pytest.mark.parametrize("old, new, message", [
    ("mode: deathmatch", "mode: chess", "mode must be one of"),
    ("decks: test, test", "decks: test", "decks must name two"),
    ("decks: test, test", "decks: test, nope", "decks must name two"),
    ("active: 2", "active: 3", "active must be 1 or 2"),
    ("actions: 1", "actions: one", "actions must be"),
    ("seed: 9", "seed: -9", "seed must be"),
    ("hand 1: test/single", "hand 1: test/nope", "unknown being 'test/nope'"),
    ("hand 1: test/single", "hand 1: legend/test-1", "is not in player 1's deck"),
    ("legends 2: legend/test-3", "legends 2: flare/01", "unknown being 'flare/01'"),
    ("flare 2: flare/07", "flare 2: flare/99", "unknown flare 'flare/99'"),
    ("stock 1: tokens=4 legends=1", "stock 1: tokens=many", "stock takes tokens=N legends=N"),
    ("# a position", "a position", "expected 'key: value'"),
    ("-- -- .. .. .. .. .. -- --", "-- -- .. .. .. .. -- --", "an arena row needs 9 tokens, found 8"),
    ("-- -- .. .. .. .. .. -- --", ".. -- .. .. .. .. .. -- --", "column 1 is a cut corner"),
    ("-- -- .. .. .. .. .. -- --", "-- -- -- .. .. .. .. -- --", "column 3 is a square of the arena"),
    (".. .. .. .. 1c .. .. .. ..", ".. .. .. .. 3c .. .. .. ..", "unknown token '3c' in column 5"),
])
def test_a_mistake_names_its_line(old, new, message):
    assert old in TEXT
    text = TEXT.replace(old, new, 1)
    with pytest.raises(ScenarioError) as err:
        load(text)
    assert err.value.line == _line(text, new) and f"line {err.value.line}: " in str(err.value)
    assert message in str(err.value)


def test_unknown_tasks_name_their_line():
    with pytest.raises(ScenarioError, match="line 2: unknown task 'task/nope'"):
        load("decks: test, test\ntasks: task/destruction, task/nope\n")


def test_an_arena_cut_short_names_its_last_line():
    text = "\n".join(TEXT.splitlines()[:-3])
    last = len(text.splitlines())
    with pytest.raises(ScenarioError, match=f"line {last}: the arena needs 9 rows, found 6"):
        load(text)


# ----- the command
def run(*args):
    return CliRunner().invoke(app, ["scenario", *map(str, args)])


@pytest.fixture
def scenario_file(tmp_path):
    (tmp_path / "cards").mkdir()
    cards = write_rules_cards(tmp_path / "cards")
    text = TEXT.replace("mode: deathmatch\n", "").replace("active: 2", "active: 1")
    text = text.replace("hand 1: test/single", "hand 1: test/bomber, test/single")
    path = tmp_path / "position.txt"
    path.write_text(text.replace(ARENA, grid({"c5": "1c", "e4": "2c", "f5": "2h", "d6": "2l", "a5": "1c"})))
    return path, cards


def test_the_scenario_command_lists_where_each_card_can_be_summoned(scenario_file):
    path, cards = scenario_file
    result = run(path, "--cards", cards)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:9] == grid({"c5": "1c", "e4": "2c", "f5": "2h", "d6": "2l", "a5": "1c"}).splitlines()
    assert lines[9] == "test/bomber: a3, a5, a7, c3, c5, c7, e5"  # also onto your own commons
    assert lines[10] == "test/single: a4, a6, b5, c4, c6, d5"


def test_the_scenario_command_summons_a_card_and_shows_its_effect(scenario_file):
    path, cards = scenario_file
    result = run(path, "--cards", cards, "--summon", "test/bomber", "--at", "e5")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "player 1 summons test/bomber at e5" in out
    assert out.count("test/bomber destroys") == 3  # the enemy pieces on e4, f5 and d6
    after = out.strip().splitlines()[-9:]
    position = load_scenario("decks: test, test\narena:\n" + "\n".join(after), [Scripted(), Scripted()],
                             rules_cards(), strict=False)
    assert arena(position) == {"c5": "1c", "e5": "1c", "a5": "1c"}


@pytest.mark.parametrize("args, named", [
    (["--summon", "test/knight", "--at", "e5"], ["'test/knight' is not in player 1's hand"]),
    (["--summon", "test/bomber"], ["--summon needs --at"]),
    (["--summon", "test/bomber", "--at", "a1"], ["--at", "'a1' is not a square of the arena"]),
    (["--summon", "test/bomber", "--at", "e6"], ["test/bomber cannot be summoned at e6"]),
    (["--strategy", "nope"], ["unknown strategy 'nope'"]),
])
def test_the_scenario_command_rejects_bad_options(scenario_file, args, named):
    path, cards = scenario_file
    result = run(path, "--cards", cards, *args)
    assert result.exit_code == 2 and "Traceback" not in result.output and result.stdout == ""
    assert all(n in result.stderr for n in named), result.stderr


def test_the_scenario_command_names_the_file_and_line_of_a_mistake(scenario_file, tmp_path):
    path, cards = scenario_file
    bad = tmp_path / "bad.txt"
    bad.write_text(path.read_text().replace("seed: 9", "seed: soon"))
    result = run(bad, "--cards", cards)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.startswith(f"error: {bad}: line {_line(bad.read_text(), 'seed:')}: seed must be")
    result = run(tmp_path / "missing.txt")
    assert result.exit_code == 2 and "no such scenario file" in result.stderr
