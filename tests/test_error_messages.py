"""Error messages of card files and study configs, checked in-process (the CLI tests run a subprocess, which
mutation testing cannot trace): each names the file, the field and what is wrong."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipelines.study import StudyConfigError, parse_study
from sim.cards import BUILTIN_DIR, CardFileError, load_card_set


def _copy(tmp_path: Path) -> Path:
    return Path(shutil.copytree(BUILTIN_DIR, tmp_path / "cards"))


def test_a_missing_card_file_is_named(tmp_path: Path) -> None:
    cards = _copy(tmp_path)
    (cards / "legends.toml").unlink()  # decks are the files there; legends, flares and tasks are required
    with pytest.raises(CardFileError) as e:
        load_card_set(cards)
    assert str(e.value) == f"{cards / 'legends.toml'}: file: no such file"


def test_a_card_id_used_twice_is_named(tmp_path: Path) -> None:
    cards = _copy(tmp_path)
    text = (cards / "imperial.toml").read_text()
    first = text[text.index("[[being]]"):text.index("[[being]]", text.index("[[being]]") + 1)]
    (cards / "imperial.toml").write_text(text + "\n" + first)
    with pytest.raises(CardFileError) as e:
        load_card_set(cards)
    assert str(e.value).startswith(f"{cards / 'imperial.toml'}: ")
    assert str(e.value).endswith(".id: this id is used twice in the card set")


def test_a_player_that_is_not_a_table_is_named() -> None:
    data = {"forms": ["deathmatch"], "deck_pairings": [["imperial", "imperial"]], "strategy_pairings": "all",
            "games_per_cell": 2, "base_seed": 1, "players": {"careful": 3}}
    with pytest.raises(StudyConfigError) as e:
        parse_study(data, Path("/studies/s.toml"))
    assert str(e.value) == '/studies/s.toml: players.careful: expected a table like { strategy = "random" }, got 3'


def _bad_inputs(tmp_path: Path) -> dict[str, Path]:
    """A binary file, a text file that is not UTF-8 and a directory, each where a file is expected."""
    binary = tmp_path / "binary.toml"
    binary.write_bytes(bytes(range(256)))
    latin = tmp_path / "latin.toml"
    latin.write_bytes('name = "caf\xe9"\n'.encode("latin-1"))
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    return {"binary": binary, "latin": latin, "folder": folder}


REASONS = {"binary": "line 2: not UTF-8 text (byte 0x80 at offset 128); expected a UTF-8 text file",
           "latin": "line 1: not UTF-8 text (byte 0xe9 at offset 11); expected a UTF-8 text file",
           "folder": "is a directory, expected a file"}


@pytest.mark.parametrize("kind", sorted(REASONS))
def test_a_file_that_is_not_text_is_named_with_what_is_wrong(tmp_path: Path, kind: str) -> None:
    from pipelines.study import load_study
    from reports.regression.suite import SuiteConfigError, load_suite
    from sim.files import FileInputError, read_text

    path = _bad_inputs(tmp_path)[kind]
    expected = f"{path}: {REASONS[kind]}"
    for load, error in ((read_text, FileInputError), (load_study, StudyConfigError), (load_suite, SuiteConfigError)):
        with pytest.raises(error) as e:
            load(path)
        assert str(e.value) == expected


@pytest.mark.parametrize("kind", sorted(REASONS))
def test_a_card_file_that_is_not_text_is_named(tmp_path: Path, kind: str) -> None:
    cards = _copy(tmp_path)
    target = cards / "sylvan.toml"
    target.unlink()
    source = _bad_inputs(tmp_path)[kind]
    source.rename(target)
    with pytest.raises(CardFileError) as e:
        load_card_set(cards)
    assert str(e.value) == f"{target}: file: {REASONS[kind]}"
