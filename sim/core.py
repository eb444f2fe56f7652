"""The Python side of the compiled core (``sim._core``, Rust, see docs/core.md): the card set loaded into
it, the seats of a game's operations, the answers of the core's own strategies, and whole games between them
for benchmarks and the differential corpus.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sim import _core
from sim.cards import Being, CardSet, Flare, Task
from sim.core_cards import card_set_json
from sim.decisions import Action, Decision, PlayerView, Strategy
from sim.patterns import Placement

VERSION: str = _core.__version__


_LOADED: dict[int, tuple[CardSet, Any]] = {}


def core_cards(cards: CardSet) -> Any:
    """The card set loaded into the core, once per CardSet object."""
    key = id(cards)
    hit = _LOADED.get(key)
    if hit is None or hit[0] is not cards:
        hit = (cards, _core.Cards(card_set_json(cards), cards))
        _LOADED[key] = hit
    return hit[1]


# ----- the seats of a game: who answers its decisions
Asker = Callable[[int, str, list[Any], str, str], int]


def seats(strategies: Sequence[Strategy], players: int, asker: Asker) -> list[Any]:
    """What plays each of ``players`` seats in an operation of a ``sim._core.CoreGame``: the core's own
    version of the seat's strategy where it has one (``plays_natively``), else ``asker(player, kind, options,
    card, prompt)``, which asks the strategy in Python (a game around a sandbox may have no strategies)."""
    out: list[Any] = []
    for p in range(players):
        s = strategies[p] if p < len(strategies) else None
        out.append(s.native_player() if plays_natively(s) else asker)  # type: ignore[union-attr]
    return out


def plays_natively(strategy: Strategy | None) -> bool:
    """Whether the core plays ``strategy`` itself: its class says so with ``native = True`` on itself (a
    subclass may choose otherwise, so it is asked) and offers ``native_player()``."""
    return strategy is not None and type(strategy).__dict__.get("native") is True


SEAT_KINDS = frozenset({"flare-opponent", "legend-colour", "leftover-colour", "enemy-colour"})


def encode_option(cards: CardSet, decision: Decision, value: Any) -> tuple:
    """An option value of a Python decision as the core reads it (``option_from`` in core/py/src/players.rs)."""
    if value is None:
        return ("none",)
    if isinstance(value, Action):  # before the tuples: a team game's pass option among effect options
        return ("action", value.kind, -1 if value.card is None else value.card.index)
    if decision.kind in SEAT_KINDS:
        return ("seat", value)
    if isinstance(value, tuple) and isinstance(value[0], Placement):
        being = cards.by_id[decision.card]
        return ("improvised", being.index, being.placement_index[value[0]], value[1])
    if isinstance(value, tuple) and decision.kind in ("melee-start", "place"):
        return ("seat_square", value[0], value[1])
    if isinstance(value, Placement):
        being = cards.by_id[decision.card]
        return ("placement", being.index, being.placement_index[value])
    if isinstance(value, Being):
        return ("being", value.index)
    if isinstance(value, Flare):
        return ("flare", value.index)
    if isinstance(value, Task):
        return ("task", value.index)
    if isinstance(value, tuple):
        return ("move", value[0], value[1])
    if isinstance(value, str):
        return ("label", value)
    return ("direction" if decision.kind == "direction" else "square", value)


def native_choose(player: Any, view: PlayerView, decision: Decision) -> int:
    """The answer of a strategy of the core (``sim._core.NativeStrategy``) to a decision of a Python game: on
    the game's own state, with the decision's own options where it is the one being asked (no encoding)."""
    options = None
    if not view.game.offers(decision.options):
        cards = view.game.cards
        options = [encode_option(cards, decision, o) for o in decision.options]
    return player.choose(view, decision.kind, options, decision.card, decision.prompt)


CONDITION_NAMES: tuple[str, ...] = tuple(_core.condition_names())
CUSTOM_EFFECTS: tuple[str, ...] = tuple(_core.custom_effect_names())
CUSTOM_FINGERPRINTS: dict[str, str] = dict(_core.custom_effect_fingerprints())


def play_many(cards: CardSet, mode: str, decks: tuple[str, ...], strategies: tuple[str, ...], games: int,
              teams: bool = False, params: tuple[dict[str, Any], ...] | None = None) -> int:
    """Play games of seeds 0..games between native strategies (one per seat, with ``params`` per seat when
    given; a team game of 4 seats with ``teams``) inside the core (no record comes back); returns the turns
    played. For benchmarks."""
    return _core.play_many(core_cards(cards), mode, decks, strategies, (0, games), teams=teams,
                           params=None if params is None else list(params))


def record_digests(cards: CardSet, mode: str, decks: tuple[str, ...], strategies: tuple[str, ...],
                   seeds: tuple[int, int], block: int, teams: bool = False) -> list[str]:
    """Digests of the records of the games of ``seeds`` (first, end) between native strategies (a team game
    with ``teams``), one per ``block`` consecutive seeds (scripts/golden_records.py describes the digest)."""
    return _core.record_digests(core_cards(cards), mode, decks, strategies, seeds, block, teams=teams)
