"""The Python side of the compiled core (``sim._core``, Rust, see docs/core.md): the card set loaded into
it, the rule operations of ``sim.game.Game`` run by the core on a Python ``GameState``, the answers of the
core's own strategies, and whole games between them for benchmarks and the differential corpus.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sim import _core
from sim.cards import Being, CardSet, Flare, Task
from sim.core_cards import card_set_json
from sim.decisions import Action, Decision, IllegalChoice, PlayerView, Strategy
from sim.patterns import Placement
from sim.state import GameState, InvariantError, detach, for_core, reattach

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


# ----- the rule operations of sim.game.Game, run by the core on a Python state
Asker = Callable[[int, str, list[Any], str, str], int]
_INVARIANT = "invariant broken: "
_NO_OPTIONS = "no options for decision "


def operate(state: GameState, op: str, args: tuple[int, ...] = (), kind: str = "",
            strategies: Sequence[Strategy] | None = None, asker: Asker | None = None, ask_all: bool = False,
            changes: bool = True) -> Any:
    """Run the rule operation ``op`` of the core (``game_op`` in core/py/src/facade.rs) on ``state`` and, if it
    ``changes`` the state, write the state after it back into ``state``. The decisions of a seat go to
    ``asker(player, kind, options, card, prompt)`` with ``state`` showing the game at that moment (taken from
    the core only if it is used: ``sim.state.detach``), unless the
    seat's strategy is one the core plays itself (random, and the lookahead players: builder, greedy,
    hunter, brawler, and mc over them), with the strategy's random stream. Returns what the operation answers
    (options, placements as indices, a flag, a piece)."""

    def ask(player: int, kind: str, options: list[Any], card: str, prompt: str, live: Any) -> tuple:
        detach(state, live)
        try:
            idx = asker(player, kind, options, card, prompt)  # type: ignore[misc]
        except BaseException:
            reattach(state, taken=True)
            raise
        return idx, reattach(state)

    seats = None if strategies is None else [_native(s) or ask for s in _seats(state, strategies)]
    try:
        after, value, streams = _core.game_op(core_cards(state.cards), state.to_core(), op, list(args), kind,
                                              seats, ask_all, changes)
    except AssertionError as e:
        message = str(e)
        if message.startswith(_INVARIANT):
            raise InvariantError(message[len(_INVARIANT):]) from None
        raise
    except RuntimeError as e:
        message = str(e)
        if message.startswith(_NO_OPTIONS):
            raise IllegalChoice(message) from None
        raise
    if changes:
        state.from_core(after)
    if strategies is not None:
        for s, stream in zip(_seats(state, strategies), streams, strict=True):
            if stream is not None and s is not None:
                s.native_stream().setstate((3, tuple(stream), None))  # type: ignore[union-attr]
    return value


def _seats(state: GameState, strategies: Sequence[Strategy]) -> list[Strategy | None]:
    """The strategy of each seat (a game around a sandbox may have none; a team game has 4 seats)."""
    return [strategies[p] if p < len(strategies) else None for p in range(state.players)]


def plays_natively(strategy: Strategy | None) -> bool:
    """Whether the core plays ``strategy`` itself: its class says so with ``native = True`` on itself (a
    subclass may choose otherwise, so it is asked) and offers ``native_player()``."""
    return strategy is not None and type(strategy).__dict__.get("native") is True


def _native(strategy: Strategy | None) -> Any:
    """The core's own version of ``strategy``, where it has one (``plays_natively``): (name, parameters,
    random stream), or a ``sim._core.NativeStrategy`` that is the player itself."""
    if strategy is not None and plays_natively(strategy):
        return strategy.native_player()  # type: ignore[attr-defined]
    return None


SEAT_KINDS = frozenset({"flare-opponent", "legend-colour", "leftover-colour", "enemy-colour"})


def encode_option(cards: CardSet, decision: Decision, value: Any) -> tuple:
    """An option value of a Python decision as the core reads it (``option_from`` in facade.rs)."""
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
    """The answer of a strategy of the core (``sim._core.NativeStrategy``) to a decision of a Python game."""
    state = view._state
    cards = state.cards
    core_state = for_core(state)
    options = None  # the live decision's own, where this is it
    if not isinstance(core_state, _core.LiveState) or not core_state.offers(decision.options):
        options = [encode_option(cards, decision, o) for o in decision.options]
    return player.choose(core_cards(cards), core_state, view.player, decision.kind, options, decision.card,
                         decision.prompt)


def check_invariants(state: GameState) -> None:
    """Raise ``InvariantError`` where the state breaks a rule (the core's checks)."""
    operate(state, "check_invariants", changes=False)


def condition_holds(state: GameState, condition: str, player: int) -> bool:
    """Whether ``player`` meets the task condition named ``condition`` now."""
    return operate(state, "condition", (player,), condition, changes=False)


CONDITION_NAMES: tuple[str, ...] = tuple(_core.condition_names())
CUSTOM_EFFECTS: tuple[str, ...] = tuple(_core.custom_effect_names())
CUSTOM_FINGERPRINTS: dict[str, str] = dict(_core.custom_effect_fingerprints())


def play_many(cards: CardSet, mode: str, decks: tuple[str, ...], strategies: tuple[str, ...], games: int,
              teams: bool = False) -> int:
    """Play games of seeds 0..games between native strategies (one per seat; a team game of 4 seats with
    ``teams``) inside the core (no record comes back); returns the turns played. For benchmarks."""
    return _core.play_many(core_cards(cards), mode, decks, strategies, (0, games), teams=teams)


def record_digests(cards: CardSet, mode: str, decks: tuple[str, ...], strategies: tuple[str, ...],
                   seeds: tuple[int, int], block: int, teams: bool = False) -> list[str]:
    """Digests of the records of the games of ``seeds`` (first, end) between native strategies (a team game
    with ``teams``), one per ``block`` consecutive seeds (scripts/golden_records.py describes the digest)."""
    return _core.record_digests(core_cards(cards), mode, decks, strategies, seeds, block, teams=teams)
