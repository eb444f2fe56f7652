"""Typed stubs of the compiled core ``sim._core`` (core/py/src/lib.rs); tests/test_declarations.py checks
that every public name of the module stands here."""

from typing import Any, Literal, TypedDict

__version__: str
SOURCE_FINGERPRINT: str

class Cards:
    """A card set loaded into the core (``sim.core_cards``)."""

    def __new__(cls, json: str, python_cards: Any) -> Cards: ...

class NativeStrategy:
    """A strategy of the core as a Python object (``strategies.core_player.CorePlayer`` holds one)."""

    def __new__(cls, name: str, seed: int, params: dict[str, bool | int | float | str]) -> NativeStrategy: ...
    def choose(self, cards: Cards, snapshot: dict[str, Any], player: int, kind: str,
               options: list[tuple[Any, ...]], card: str, prompt: str) -> int: ...
    def setting(self, name: str) -> float | None: ...
    def plan(self) -> list[tuple[str, str]]: ...

class ArrowBatch:
    """One record batch, for ``pyarrow.record_batch(obj)``."""

    def __arrow_c_array__(self, requested_schema: Any = None) -> tuple[Any, Any]: ...

def play_many(cards: Cards, mode: str, decks: list[str], strategies: list[str], seeds: tuple[int, int],
              strict: bool = False, teams: bool = False) -> int: ...
def record_digests(cards: Cards, mode: str, decks: list[str], strategies: list[str], seeds: tuple[int, int],
                   block: int, teams: bool = False) -> list[str]: ...
def play_shard(card_sets: list[tuple[Cards, str]], players: list[tuple[str, str, dict[str, Any]]],
               games: list[tuple[Any, ...]], schema_version: int) -> list[tuple[str, ArrowBatch]]: ...
def table_columns() -> list[tuple[str, list[tuple[str, str]]]]: ...
def game_op(cards: Cards, snapshot_in: dict[str, Any], op: str, args: list[int], kind: str = "",
            seats: list[Any] | None = None,
            ask_all: bool = False) -> tuple[dict[str, Any], Any, list[list[int] | None]]: ...
def condition_names() -> list[str]: ...
def custom_effect_names() -> list[str]: ...
def custom_effect_fingerprints() -> list[tuple[str, str]]: ...

# declarations: what Python reads from the core instead of declaring again (core/py/src/declarations.rs)

class ParamDeclaration(TypedDict):
    name: str
    type: Literal["bool", "int", "float", "str"]
    default: bool | int | float | str
    doc: str
    minimum: int | float | None
    maximum: int | float | None
    choices: list[str] | None

class StepVocabulary(TypedDict):
    common_keys: list[str]
    steps: dict[str, list[str]]
    conditions: list[str]
    where: list[str]

def strategy_params() -> dict[str, list[ParamDeclaration]]: ...
def presets() -> dict[str, dict[str, bool | int | float | str]]: ...
def step_vocabulary() -> StepVocabulary: ...
