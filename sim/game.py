"""A game between two strategies: the Python API over the compiled core's rules (docs/core.md).

``Game`` holds the state (``sim.state.GameState``) and the seats' strategies; every rule operation (setup, a
turn, an action, a summon, the end of a turn...) is one call into the core (``sim.core.operate``), which
plays it on the state and writes the state after it back. The strategies are asked through ``ask``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sim.cards import Being, CardSet, Flare, Task
from sim.core import operate
from sim.decisions import Action, Decision, IllegalChoice, PlayerView, Strategy
from sim.errors import UserError
from sim.patterns import Placement
from sim.record import GameRecord
from sim.state import DEATHMATCH, MAX_SEATS, MODES, TEAM_SEATS, GameState

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
        self.state = GameState(cards, mode, tuple(decks), seed, max_turns, teams=teams)
        self.state.strict = strict
        self.strategies = list(strategies)
        self.ask_all = ask_all  # ask decisions with a single option too (strict tests of the action flow)
        self.views = _views(self.state)
        self.turn_listeners: list[Callable[[Game], None]] = []  # called after every turn
        self.state.record.config = {
            "mode": mode,
            "decks": list(decks),
            "strategies": [getattr(s, "name", type(s).__name__) for s in strategies],
            "seed": seed,
        }
        if teams:
            self.state.record.config["teams"] = True

    @classmethod
    def around(cls, state: GameState, strategies: Sequence[Strategy]) -> Game:
        """A game over an existing state, e.g. a strategy's sandbox copy for lookahead; nothing is set up."""
        game = cls.__new__(cls)
        game.state = state
        game.strategies = list(strategies)
        game.ask_all = False
        game.views = _views(state)
        game.turn_listeners = []
        return game

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
        seat = self.state.seat_of(player)
        strategy = self.strategies[seat]
        idx = strategy.choose(self.views[seat], Decision(kind, player, options, card, prompt))
        if not isinstance(idx, int) or not 0 <= idx < len(options):
            raise IllegalChoice(f"strategy {strategy!r} chose {idx!r} for {kind} with {len(options)} options")
        return idx

    def _run(self, op: str, *args: int, kind: str = "") -> Any:
        """A rule operation that may ask the players; the state after it is written back."""
        return operate(self.state, op, args, kind, self.strategies, self._choose, self.ask_all)

    def _query(self, op: str, *args: int) -> Any:
        """A rule query: the state is not changed."""
        return operate(self.state, op, args, changes=False)

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
            self._run("play_turns")

    def setup(self) -> None:
        self._run("setup")

    def _deal_task_row(self) -> None:
        self._run("deal_task_row")

    # ----- a turn
    def play_turn(self) -> None:
        self._run("play_turn")
        self._after_turn()

    def finish_turn(self) -> None:
        """The rest of the turn in progress: the active player's actions, then the end of the turn (a scenario
        starts in the middle of a turn)."""
        self._run("finish_turn")
        self._after_turn()

    def _after_turn(self) -> None:
        for listener in self.turn_listeners:
            listener(self)

    def action_options(self, p: int) -> list[Action]:
        beings = self.state.cards.all_beings
        return [Action(kind, beings[card] if card >= 0 else None) for kind, card in self._query("action_options", p)]

    def apply_action(self, p: int, action: Action) -> None:
        card = -1 if action.card is None else action.card.index
        self._run("apply_action", p, card, kind=action.kind)

    def place_action(self, p: int) -> None:
        self._run("place_action", p)

    def discard_action(self, p: int) -> None:
        self._run("discard_action", p)

    def return_card(self, p: int, card: Being | Flare) -> None:
        self._run("return_card", p, card.index, kind="flare" if isinstance(card, Flare) else "being")

    # ----- summoning
    def has_placement(self, p: int, card: Being) -> bool:
        return self._query("has_placement", p, card.index)

    def legal_placements(self, p: int, card: Being) -> list[Placement]:
        placements = card.placements
        return [placements[i] for i in self._query("legal_placements", p, card.index)]

    def summon(self, p: int, card: Being, pl: Placement) -> None:
        self._run("summon", p, card.index, card.placement_index[pl])

    def improvised_placements(self, p: int, card: Being) -> list[tuple[Placement, int]]:
        """Melee: the placements of ``card`` that need one opponent's piece, each with a colour whose
        improvisation may pay for it."""
        flat = self._query("improvised_placements", p, card.index)
        return [(card.placements[flat[i]], flat[i + 1]) for i in range(0, len(flat), 2)]

    def summon_improvised(self, p: int, card: Being, pl: Placement, colour: int) -> None:
        """Melee: summon ``card`` by improvising, paid with the improvisation against ``colour``."""
        self._run("summon_improvised", p, card.index, card.placement_index[pl], colour)

    # ----- flares
    def flare_halves(self, p: int, flare: Flare) -> int:
        """Which halves ``flare`` may resolve now: bit 1 upper, bit 2 lower."""
        return self._query("flare_halves", p, flare.index)

    def flare_halves_against(self, p: int, opponent: int, flare: Flare) -> int:
        """Melee: the halves ``flare`` may resolve compared against ``opponent``."""
        return self._query("flare_halves_against", p, opponent, flare.index)

    def invoke_flare(self, p: int) -> None:
        self._run("invoke_flare", p)

    # ----- end of turn
    def end_turn(self, p: int) -> None:
        self._run("end_turn", p)

    def claimable_tasks(self, p: int) -> list[Task]:
        tasks = self.state.cards.tasks
        return [tasks[i] for i in self._query("claimable_tasks", p)]

    def claim_task(self, p: int) -> None:
        self._run("claim_task", p)


def _views(state: GameState) -> list[PlayerView]:
    """One view per seat: in a team game seat ``s`` sees side ``s % 2``."""
    if state.team_game:
        return [PlayerView(state, seat % 2, seat) for seat in range(state.players)]
    return [PlayerView(state, p) for p in range(state.seats)]
