"""Games played by the compiled core (``sim._core``, Rust, see docs/core.md) behind the Python API.

``play`` takes the same things as ``Game(...).play()`` and gives back a ``GameRecord`` equal to the one the
Python engine would make, plus each seat's deck order after setup. A player is either a ``NativePlayer``
(a strategy written in Rust, named as in ``strategies.make_strategy``) or any Python strategy object, which
the core asks at every decision with the usual option values and a read-only view.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sim import _core
from sim.cards import CardSet
from sim.core_cards import card_set_json
from sim.decisions import Strategy
from sim.record import EVENT_KINDS, GameRecord

VERSION: str = _core.__version__
NATIVE_STRATEGIES: tuple[str, ...] = tuple(_core.NATIVE_STRATEGIES)


@dataclass(frozen=True)
class NativePlayer:
    """A strategy of the core: its name, the seed of the game it plays (its own stream is derived from it
    and the seat, as ``strategies.registry.strategy_seed`` does) and its parameters."""

    name: str
    game_seed: int
    params: dict[str, float | int] = field(default_factory=dict)

    def argument(self) -> tuple[str, int, dict[str, float | int]]:
        return self.name, self.game_seed, dict(self.params)


Player = NativePlayer | Strategy
_LOADED: dict[int, tuple[CardSet, Any]] = {}


def core_cards(cards: CardSet) -> Any:
    """The card set loaded into the core, once per CardSet object."""
    key = id(cards)
    hit = _LOADED.get(key)
    if hit is None or hit[0] is not cards:
        hit = (cards, _core.Cards(card_set_json(cards), cards))
        _LOADED[key] = hit
    return hit[1]


def record_from_json(text: str) -> GameRecord:
    """The ``GameRecord`` of a record document (``GameRecord.to_dict()`` as JSON)."""
    d = json.loads(text)
    record = GameRecord(config=d["config"], first_player=d["first_player"], scores=tuple(d["scores"]),
                        winner=d["winner"], end_reason=d["end_reason"], tiebreak=d["tiebreak"], turns=d["turns"])
    events = record.events
    for e in d["events"]:
        cls = EVENT_KINDS[e.pop("kind")]
        events.append(cls(**e))
        if cls.kind == "points":
            record._points[e["seat"]] += e["points"]
    return record


def play(cards: CardSet, mode: str, decks: tuple[str, str] | list[str], players: list[Player], seed: int, *,
         strict: bool = False, max_turns: int = 200, ask_all: bool = False
         ) -> tuple[GameRecord, tuple[list[str], list[str]]]:
    """Play one game in the core: (record, each seat's deck order after setup, first drawn first)."""
    args = tuple(p.argument() if isinstance(p, NativePlayer) else p for p in players)
    text, order = _core.play_game(core_cards(cards), mode, (decks[0], decks[1]), args, seed, strict=strict,
                                  max_turns=max_turns, ask_all=ask_all)
    return record_from_json(text), (list(order[0]), list(order[1]))


def play_many(cards: CardSet, mode: str, decks: tuple[str, str], strategies: tuple[str, str], games: int) -> int:
    """Play games of seeds 0..games between two native strategies inside the core (no record comes back);
    returns the turns played. For benchmarks."""
    return _core.play_many(core_cards(cards), mode, decks, strategies, (0, games))


def record_digests(cards: CardSet, mode: str, decks: tuple[str, str], strategies: tuple[str, str],
                   seeds: tuple[int, int], block: int) -> list[str]:
    """Digests of the records of the games of ``seeds`` (first, end) between two native strategies, one per
    ``block`` consecutive seeds (scripts/golden_records.py describes the digest)."""
    return _core.record_digests(core_cards(cards), mode, decks, strategies, seeds, block)
