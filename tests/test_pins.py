"""Known values, computed once and written down as literals: the seed formula and the enumeration of a small
study. A change to either changes every game of every study, so it must show up here, not only agree with
itself (the other tests compare the study with ``game_seed``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.study import _mix64, game_seed, parse_study

# splitmix64's first output for the state 0: the published reference value of the generator.
SPLITMIX64_FIRST = 0xE220A8397B1DCDAF


def test_the_mixer_is_splitmix64() -> None:
    assert _mix64(0) == SPLITMIX64_FIRST


@pytest.mark.parametrize(("base_seed", "game_id", "seed"), [
    (0, 0, 6017775124710473527),
    (0, 1, 313702574736366215),
    (1, 0, 3395948882924712079),
    (7, 5, 4926845964858163915),
    (77, 599, 7498227454545041746),
    (-1, 3, 104983671465725121),
    (2**63 - 1, 123456, 3626857974683992260),
    (-(2**63), 0, 4858761073489633488),
    (12345, 1_000_000, 2813827738614214675),
])
def test_game_seeds_are_pinned(base_seed: int, game_id: int, seed: int) -> None:
    assert game_seed(base_seed, game_id) == seed


def test_a_small_study_is_pinned() -> None:
    s = parse_study({
        "forms": ["high-form", "deathmatch"],
        "deck_pairings": [["imperial", "sylvan"], ["highland", "highland"]],
        "strategy_pairings": [["random", "builder"]],
        "games_per_cell": 2,
        "base_seed": 42,
        "shard_size": 3,
    }, Path("/studies/pin.toml"))
    hf, dm = "high-form", "deathmatch"
    rb, br = ("random", "builder"), ("builder", "random")
    expected = [
        # game id, cell index, cell name, seed, swapped, decks by seat, players by seat
        (0, 0, f"{hf}|imperial-sylvan|random-builder", 3166309114763032834, False, ("imperial", "sylvan"), rb),
        (1, 0, f"{hf}|imperial-sylvan|random-builder", 8766244108781592946, True, ("sylvan", "imperial"), br),
        (2, 1, f"{hf}|highland-highland|random-builder", 4119046106699552547, False, ("highland", "highland"), rb),
        (3, 1, f"{hf}|highland-highland|random-builder", 9018399064009245349, True, ("highland", "highland"), br),
        (4, 2, f"{dm}|imperial-sylvan|random-builder", 2627569233785608560, False, ("imperial", "sylvan"), rb),
        (5, 2, f"{dm}|imperial-sylvan|random-builder", 8427421992247709436, True, ("sylvan", "imperial"), br),
        (6, 3, f"{dm}|highland-highland|random-builder", 6887226492890203215, False, ("highland", "highland"), rb),
        (7, 3, f"{dm}|highland-highland|random-builder", 793502930448478848, True, ("highland", "highland"), br),
    ]
    assert s.total_games == 8
    games = [s.game(i) for i in range(s.total_games)]
    assert [(g.game_id, g.cell.index, g.cell.name, g.seed, g.swapped, g.decks, g.players) for g in games] == expected
    assert s.shard_count == 3
    assert [list(s.shard_games(k)) for k in range(s.shard_count)] == [[0, 1, 2], [3, 4, 5], [6, 7]]
