"""Study configs: validation with errors that name the key, and the fixed enumeration of games."""

from __future__ import annotations

import shutil
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from pipelines.study import Study, StudyConfigError, game_seed, load_study, parse_study
from sim.cards import BUILTIN_DIR
from strategies.registry import DEFAULT_STRATEGY

BASE = {
    "forms": ["high-form", "deathmatch"],
    "deck_pairings": [["imperial", "sylvan"]],
    "strategy_pairings": [["random", "random"]],
    "games_per_cell": 6,
    "base_seed": 7,
    "shard_size": 4,
}


def study(**changes: object) -> Study:
    data = {k: v for k, v in (BASE | changes).items() if v is not None}
    return parse_study(data, Path("/studies/test.toml"))


def error(**changes: object) -> str:
    with pytest.raises(StudyConfigError) as e:
        study(**changes)
    return str(e.value)


def test_defaults_are_filled_in():
    s = study()
    assert (s.name, s.seat_balance, s.card_set, s.shard_size) == ("test", True, None, 4)
    assert s.total_games == 12 and s.shard_count == 3
    assert [len(s.shard_games(i)) for i in range(3)] == [4, 4, 4]
    assert study(shard_size=None).shard_size == 200


@pytest.mark.parametrize(("changes", "key", "expected"), [
    ({"forms": ["high-form", "blitz"]}, "forms", "expected one of high-form, deathmatch"),
    ({"forms": []}, "forms", "non-empty list"),
    ({"deck_pairings": [["imperial", "goblins"]]}, "deck_pairings[0]", "unknown name 'goblins'"),
    ({"deck_pairings": [["imperial"]]}, "deck_pairings[0]", "expected a pair of decks"),
    ({"deck_pairings": None}, "deck_pairings", 'missing; expected "all"'),
    ({"strategy_pairings": [["random", "nobody"]]}, "strategy_pairings", "unknown strategy 'nobody'"),
    ({"strategy_pairings": "all"}, "strategy_pairings", "none is declared"),
    ({"strategy_pairings": None}, "strategy_pairings", f'like [["{DEFAULT_STRATEGY}", "{DEFAULT_STRATEGY}"]]'),
    ({"games_per_cell": 5}, "games_per_cell", "even number with seat_balance on"),
    ({"games_per_cell": 0}, "games_per_cell", "at least 1"),
    ({"games_per_cell": "ten"}, "games_per_cell", "expected an integer, got 'ten'"),
    ({"base_seed": None}, "base_seed", "missing; expected an integer"),
    ({"shard_size": 0}, "shard_size", "at least 1"),
    ({"seat_balance": "yes"}, "seat_balance", "expected true or false"),
    ({"card_set": "no/such/dir"}, "card_set", "not found"),
    ({"shards": 3}, "shards", "unknown key; expected one of name, forms"),
    ({"players": {"bad-label": {"strategy": "random"}}}, "players.bad-label", "only letters, digits"),
    ({"players": {"p": {"strategy": "random", "depth": 2}}}, "players.p.depth", "unknown key"),
    ({"players": {"p": {"strategy": "random", "params": {"depth": 2}}}}, "players.p", "depth"),
])
def test_errors_name_the_key_and_what_was_expected(changes, key, expected):
    message = error(**changes)
    assert message.startswith(f"/studies/test.toml: {key}: ")
    assert expected in message


def test_all_pairings_are_unordered_with_mirrors():
    s = study(deck_pairings="all")
    assert s.deck_pairings == (("highland", "highland"), ("highland", "imperial"), ("highland", "sylvan"),
                               ("imperial", "imperial"), ("imperial", "sylvan"), ("sylvan", "sylvan"))
    players = {"a": {"strategy": "random"}, "b": {"strategy": "random"}}
    assert study(players=players, strategy_pairings="all").strategy_pairings == (("a", "a"), ("a", "b"),
                                                                                 ("b", "b"))


def test_games_are_numbered_cell_by_cell_with_seats_balanced():
    s = study()
    specs = [s.game(i) for i in range(s.total_games)]
    assert [g.cell.name for g in specs[:7]] == ["high-form|imperial-sylvan|random-random"] * 6 + [
        "deathmatch|imperial-sylvan|random-random"]
    assert [g.decks for g in specs[:2]] == [("imperial", "sylvan"), ("sylvan", "imperial")]
    per_cell = Counter((g.cell.index, g.decks[0]) for g in specs)
    assert set(per_cell.values()) == {3}  # each side takes seat 0 in half of each cell's games
    assert all(not g.swapped for g in (study(seat_balance=False).game(i) for i in range(12)))


def test_seeds_depend_only_on_base_seed_and_game_id():
    s = study()
    assert [s.game(i).seed for i in range(12)] == [game_seed(7, i) for i in range(12)]
    assert len({game_seed(7, i) for i in range(10_000)}) == 10_000
    assert game_seed(7, 3) != game_seed(8, 3)
    assert all(0 <= game_seed(b, i) < 2**63 for b in (-1, 0, 2**62) for i in (0, 2**40))
    assert study(base_seed=7, shard_size=5).game(9).seed == s.game(9).seed


def test_config_round_trips_through_plain_data():
    players = {"careful": {"strategy": "random", "params": {}}}
    s = study(players=players, strategy_pairings=[["careful", "random"]])
    assert Study.from_config(s.to_config()) == s
    assert s.to_config()["players"] == {"careful": {"strategy": "random", "params": {}},
                                        "random": {"strategy": "random", "params": {}}}


def test_card_set_path_is_relative_to_the_study_file(tmp_path):
    shutil.copytree(BUILTIN_DIR, tmp_path / "cards")
    (tmp_path / "s.toml").write_text(
        'forms = ["deathmatch"]\ndeck_pairings = [["imperial", "imperial"]]\n'
        'strategy_pairings = [["random", "random"]]\ngames_per_cell = 2\nbase_seed = 1\ncard_set = "cards"\n')
    assert load_study(tmp_path / "s.toml").card_set == str((tmp_path / "cards").resolve())


def test_unreadable_files_are_reported(tmp_path):
    with pytest.raises(StudyConfigError, match="no such file"):
        load_study(tmp_path / "missing.toml")
    (tmp_path / "bad.toml").write_text("forms = [")
    with pytest.raises(StudyConfigError, match="not valid TOML"):
        load_study(tmp_path / "bad.toml")


def test_the_quick_study_is_valid():
    s = load_study(Path(__file__).parent.parent / "studies" / "quick.toml")
    assert set(s.forms) == {"high-form", "deathmatch"} and 200 <= s.total_games <= 1000


def test_the_example_in_the_docs_is_valid():
    text = (Path(__file__).parent.parent / "docs" / "studies.md").read_text()
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    s = parse_study(tomllib.loads(example), Path("example.toml"))
    assert s.players["greedy.bold"].params == {"threat": 0.1, "tasks": 4.0}
    assert s.total_games == 2 * 2 * 2 * 2000
