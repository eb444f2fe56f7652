"""A game between two strategies: the Python API over the compiled core's rules (docs/core.md).

``Game`` holds the state (``sim.state.GameState``, a handle to the core's ``sim._core.CoreGame``, where the
state stays) and the seats' strategies; every rule operation (setup, a turn, an action, a summon, the end of
a turn...) is one typed method of the core game. The strategies are asked through ``_choose``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from sim import _core
from sim.cards import Being, CardSet, Flare, Task
from sim.core import core_cards, seats
from sim.decisions import Action, Decision, IllegalChoice, PlayerView, Strategy
from sim.errors import UserError
from sim.patterns import Placement
from sim.record import GameRecord
from sim.state import DEATHMATCH, MAX_SEATS, MODES, TEAM_SEATS, GameState, StateBuilder

__all__ = ["Game", "IllegalChoice"]


class Game:
    """One game between two strategies (or a 3-4 player melee, or with ``teams=True`` a team game of 4 seats, 2
    against 2). ``play()`` runs it to the end and returns the record.

    A team game takes ``decks`` and ``strategies`` by seat (clockwise): seats 0 and 2 are team A, 1 and 3 team
    B. The rules play it between two sides (``state.seats`` is 2): the ``p`` of the rule operations below is
    a side; each decision goes to the strategy of the seat answering, with ``views[seat]``."""

    def __init__(
        self,
        cards: CardSet,
        mode: str,
        decks: Sequence[str],
        strategies: Sequence[Strategy],
        seed: int,
        *,
        strict: bool = False,
        max_turns: int = 200,
        ask_all: bool = False,
        teams: bool = False,
    ):
        if mode not in MODES:
            raise UserError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
        for d in decks:
            cards.deck(d)
        if teams:
            if len(decks) != TEAM_SEATS or len(strategies) != TEAM_SEATS:
                raise UserError(f"a team game needs {TEAM_SEATS} players (seats 0 and 2 against 1 and 3), one deck "
                                f"and one strategy each; got {len(decks)} decks and {len(strategies)} strategies")
        elif not 2 <= len(decks) <= MAX_SEATS or len(strategies) != len(decks):
            raise UserError(f"a game needs 2 to {MAX_SEATS} players, one deck and one strategy each; got "
                            f"{len(decks)} decks and {len(strategies)} strategies")
        elif len(decks) > 2 and mode != DEATHMATCH:
            raise UserError(f"{len(decks)} players play a Deathmatch melee; {mode} is for 2 players")
        config: dict[str, Any] = {
            "mode": mode,
            "decks": list(decks),
            "strategies": [getattr(s, "label", None) or getattr(s, "name", type(s).__name__)
                           for s in strategies],
            "seed": seed,
        }
        if teams:
            config["teams"] = True
        core = _core.CoreGame(core_cards(cards), mode, list(decks), seed, max_turns, teams, strict, ask_all)
        self._init(GameState(core, GameRecord(config=config)), strategies)

    def _init(self, state: GameState, strategies: Sequence[Strategy]) -> None:
        self.state = state
        self._core = state._core
        self.strategies = list(strategies)
        self.views = _views(state)
        self.turn_listeners: list[Callable[[Game], None]] = []  # called after every turn

    @classmethod
    def around(cls, state: GameState, strategies: Sequence[Strategy]) -> Game:
        """A game over an existing state, e.g. a strategy's sandbox copy for lookahead; nothing is set up."""
        game = cls.__new__(cls)
        game._init(state, strategies)
        return game

    @property
    def ask_all(self) -> bool:
        """Ask decisions with a single option too (strict tests of the action flow)."""
        return self._core.ask_all

    @ask_all.setter
    def ask_all(self, value: bool) -> None:
        self._core.ask_all = value

    def edit(self) -> AbstractContextManager[StateBuilder]:
        """A builder of the game's state (``GameState.edit``): set up a position field by field in a ``with``
        block; the game goes on from it."""
        return self.state.edit()

    # ----- asking players
    def ask(self, player: int, kind: str, options: list[Any], card: str = "", prompt: str = "") -> Any:
        """The option ``player`` picks. A single option is taken without asking (there is no choice), unless
        the game asks every decision (``ask_all``)."""
        if not options:
            raise IllegalChoice(f"no options for decision {kind}")
        if len(options) == 1 and not self.ask_all:
            return options[0]
        return options[self._choose(player, kind, options, card, prompt)]

    def _choose(self, player: int, kind: str, options: list[Any], card: str, prompt: str) -> int:
        """The index of the option ``player``'s strategy picks (the core asks through this). In a team game
        ``player`` is a side and the seat holding its cards answers (the core holds the answering seat's cards
        in the side's slots while he chooses)."""
        seat = self._core.seat_of(player)
        strategy = self.strategies[seat]
        idx = strategy.choose(self.views[seat], Decision(kind, player, options, card, prompt))
        if not isinstance(idx, int) or not 0 <= idx < len(options):
            raise IllegalChoice(f"strategy {strategy!r} chose {idx!r} for {kind} with {len(options)} options")
        return idx

    def _seats(self) -> list[Any]:
        """What plays each seat in the next operation (``sim.core.seats``)."""
        return seats(self.strategies, len(self.views), self._choose)

    # ----- whole game
    def play(self) -> GameRecord:
        if self.state.turn == 0:
            self.setup()
        self.play_turns()
        return self.state.record

    def play_turns(self) -> None:
        """Play turns until the game is over: one call into the core, unless turn listeners want the game
        after every turn."""
        if self.turn_listeners:
            while not self.state.over:
                self.play_turn()
        else:
            self._core.play_turns(self._seats())

    def setup(self) -> None:
        self._core.setup(self._seats())

    def _deal_task_row(self) -> None:
        self._core.deal_task_row(self._seats())

    # ----- a turn
    def play_turn(self) -> None:
        self._core.play_turn(self._seats())
        self._after_turn()

    def begin_turn(self) -> None:
        """The start of a turn: its number, the active player's actions, and what lasts a turn set anew
        (``play_turn`` is ``begin_turn`` then ``finish_turn``)."""
        self._core.begin_turn(self._seats())

    def finish_turn(self) -> None:
        """The rest of the turn in progress: the active player's actions, then the end of the turn (a scenario
        starts in the middle of a turn)."""
        self._core.finish_turn(self._seats())
        self._after_turn()

    def _after_turn(self) -> None:
        for listener in self.turn_listeners:
            listener(self)

    def action_options(self, p: int) -> list[Action]:
        return self._core.action_options(p)

    def apply_action(self, p: int, action: Action) -> None:
        self._core.apply_action(self._seats(), p, action.kind, None if action.card is None else action.card.index)

    def place_action(self, p: int) -> None:
        self._core.place_action(self._seats(), p)

    def discard_action(self, p: int) -> None:
        self._core.discard_action(self._seats(), p)

    def return_card(self, p: int, card: Being | Flare) -> None:
        self._core.return_card(self._seats(), p, card)

    # ----- summoning
    def has_placement(self, p: int, card: Being) -> bool:
        return self._core.has_placement(p, card.index)

    def legal_placements(self, p: int, card: Being) -> list[Placement]:
        return self._core.legal_placements(p, card.index)

    def summon(self, p: int, card: Being, pl: Placement) -> None:
        self._core.summon(self._seats(), p, card.index, card.placement_index[pl])

    def improvised_placements(self, p: int, card: Being) -> list[tuple[Placement, int]]:
        """Melee: the placements of ``card`` that need one opponent's piece, each with a colour whose
        improvisation may pay for it."""
        return self._core.improvised_placements(p, card.index)

    def summon_improvised(self, p: int, card: Being, pl: Placement, colour: int) -> None:
        """Melee: summon ``card`` by improvising, paid with the improvisation against ``colour``."""
        self._core.summon_improvised(self._seats(), p, card.index, card.placement_index[pl], colour)

    # ----- flares
    def flare_halves(self, p: int, flare: Flare) -> int:
        """Which halves ``flare`` may resolve now: bit 1 upper, bit 2 lower."""
        return self._core.flare_halves(p, flare.index)

    def flare_halves_against(self, p: int, opponent: int, flare: Flare) -> int:
        """Melee: the halves ``flare`` may resolve compared against ``opponent``."""
        return self._core.flare_halves_against(p, opponent, flare.index)

    def invoke_flare(self, p: int) -> None:
        self._core.invoke_flare(self._seats(), p)

    # ----- end of turn
    def end_turn(self, p: int) -> None:
        self._core.end_turn(self._seats(), p)

    def claimable_tasks(self, p: int) -> list[Task]:
        return self._core.claimable_tasks(p)

    def claim_task(self, p: int) -> None:
        self._core.claim_task(self._seats(), p)

    # ----- the piece operations the rules are made of (recorded with ``cause``; no decisions)
    def place(self, player: int, rank: int, sq: int, cause: str) -> bool:
        """Put a piece of ``rank`` from the stock on an empty square; False when the stock has none."""
        return self._core.place(player, rank, sq, cause)

    def destroy(self, sq: int, cause: str, counts: bool = True) -> tuple[int, int] | None:
        """Remove the piece on ``sq`` to its owner's stock. Enemy pieces count as destroyed this turn."""
        return self._core.destroy(sq, cause, counts)

    def move(self, src: int, dst: int, cause: str) -> tuple[int, int] | None:
        """Move the piece on ``src`` to ``dst``, destroying what stands there. Returns the destroyed piece."""
        return self._core.move(src, dst, cause)

    def upgrade(self, sq: int, cause: str) -> bool:
        return self._core.upgrade(sq, cause)

    def downgrade(self, sq: int, cause: str) -> bool:
        return self._core.downgrade(sq, cause)

    def convert(self, sq: int, player: int, cause: str, rank: int | None = None) -> bool:
        """Replace the enemy piece on ``sq`` by ``player``'s piece of the same rank (or ``rank``)."""
        return self._core.convert(sq, player, cause, rank)


def _views(state: GameState) -> list[PlayerView]:
    """One view per seat: in a team game seat ``s`` sees side ``s % 2``."""
    if state.team_game:
        return [PlayerView(state, seat % 2, seat) for seat in range(state.players)]
    return [PlayerView(state, p) for p in range(state.seats)]
