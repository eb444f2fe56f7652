"""Turn flow: setup, actions, summoning, flares, end of turn, scoring and the end of the game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sim import board
from sim.cards import Being, CardSet, Flare, Task
from sim.decisions import DISCARD, END, FLARE, PLACE, SUMMON, Action, Decision, PlayerView, Strategy
from sim.errors import UserError
from sim.patterns import Placement
from sim.ranks import COMMON, HEROIC, LEGENDARY
from sim.record import (
    Discard,
    Draw,
    EffectDone,
    FlareInvoked,
    GameRecord,
    Held,
    Return,
    Summon,
    Take,
    TaskClaim,
    TaskReveal,
)
from sim.state import DEATHMATCH, END_SCORE, HIGH_FORM, MODES, GameState, TurnCounters
from sim.tasks import CONDITIONS

HAND_BEINGS, HAND_LEGENDS, HAND_FLARES = 3, 2, 1
_PLACE_ACTION = Action(PLACE)
_DISCARD_ACTION = Action(DISCARD)
_FLARE_ACTION = Action(FLARE)
_END_ACTION = Action(END)


class IllegalChoice(ValueError):
    pass


class Game:
    """One game between two strategies. ``play()`` runs it to the end and returns the record."""

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
    ):
        if mode not in MODES:
            raise UserError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
        for d in decks:
            cards.deck(d)
        self.state = GameState(cards, mode, (decks[0], decks[1]), seed, max_turns)
        self.state.strict = strict
        self.strategies = list(strategies)
        self.ask_all = ask_all  # ask decisions with a single option too (strict tests of the action flow)
        self.views = [PlayerView(self.state, 0), PlayerView(self.state, 1)]
        self.turn_listeners: list[Callable[[Game], None]] = []  # called after every turn
        self.state.record.config = {
            "mode": mode,
            "decks": list(decks),
            "strategies": [getattr(s, "name", type(s).__name__) for s in strategies],
            "seed": seed,
        }

    @classmethod
    def around(cls, state: GameState, strategies: Sequence[Strategy]) -> Game:
        """A game over an existing state, e.g. a strategy's sandbox copy for lookahead; nothing is set up."""
        game = cls.__new__(cls)
        game.state = state
        game.strategies = list(strategies)
        game.ask_all = False
        game.views = [PlayerView(state, 0), PlayerView(state, 1)]
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
        idx = self.strategies[player].choose(self.views[player], Decision(kind, player, options, card, prompt))
        if not isinstance(idx, int) or not 0 <= idx < len(options):
            raise IllegalChoice(f"strategy {self.strategies[player]!r} chose {idx!r} for {kind} with "
                                f"{len(options)} options")
        return options[idx]

    # ----- whole game
    def play(self) -> GameRecord:
        s = self.state
        if s.turn == 0:
            self.setup()
        while not s.over:
            self.play_turn()
        return s.record

    def setup(self) -> None:
        s = self.state
        rng = s.rng
        cards = s.cards
        s.first_player = rng.randrange(2)
        s.record.first_player = s.first_player
        for p in (0, 1):
            s.deck[p] = list(cards.deck(s.deck_names[p]))
            rng.shuffle(s.deck[p])
        s.legend_deck = list(cards.legends)
        rng.shuffle(s.legend_deck)
        s.flare_deck = list(cards.flares)
        rng.shuffle(s.flare_deck)
        for p in (s.first_player, 1 - s.first_player):
            self._draw_beings(p, HAND_BEINGS, opening=True)
            for _ in range(HAND_LEGENDS):
                self._draw_legend(p, opening=True)
            self._draw_flare(p, opening=True)
        if s.mode == HIGH_FORM:
            s.task_deck = list(cards.tasks)
            rng.shuffle(s.task_deck)
            self._deal_task_row()
        else:
            second = 1 - s.first_player
            own = self.ask(second, "start-square", list(board.DEATHMATCH_START), prompt="square for your piece")
            other = board.DEATHMATCH_START[1] if own == board.DEATHMATCH_START[0] else board.DEATHMATCH_START[0]
            s.place(second, COMMON, own, "deathmatch-start")
            s.place(s.first_player, COMMON, other, "deathmatch-start")
        s.active = s.first_player
        if s.strict:
            s.check_invariants()

    def _deal_task_row(self) -> None:
        s = self.state
        set_aside: list[Task] = []
        while len(s.task_row) < 3 and s.task_deck:
            t = s.task_deck.pop()
            cats = [x.category for x in s.task_row]
            if t.advanced or (len(cats) == 2 and cats[0] == cats[1] == t.category):
                set_aside.append(t)
            else:
                s.task_row.append(t)
                s.record.add(TaskReveal(0, -1, t.id))
        s.task_deck.extend(set_aside)
        s.rng.shuffle(s.task_deck)
        self._reveal_next_task()

    def _reveal_next_task(self) -> None:
        """Reveal the next task, putting to the bottom any that would be a third of one category."""
        s = self.state
        s.next_task = None
        for _ in range(len(s.task_deck)):
            t = s.task_deck.pop()
            if sum(1 for x in s.task_row if x.category == t.category) >= 2:
                s.task_deck.insert(0, t)
                continue
            s.next_task = t
            s.record.add(TaskReveal(s.turn, -1, t.id))
            return

    # ----- drawing
    def _draw_beings(self, p: int, n: int, opening: bool = False) -> None:
        s = self.state
        for _ in range(n):
            if not s.deck[p]:
                return
            card = s.deck[p].pop()
            s.hand[p].append(card)
            s.record.add(Draw(s.turn, p, card.id, opening, "personal"))
            if not s.deck[p] and s.end_trigger is None:
                self._trigger_end("deck", p)

    def _draw_legend(self, p: int, opening: bool = False) -> None:
        s = self.state
        if not s.legend_deck:
            s.legend_deck, s.legend_discard = s.legend_discard, []
            s.rng.shuffle(s.legend_deck)
        if s.legend_deck:
            card = s.legend_deck.pop()
            s.legend_hand[p].append(card)
            s.record.add(Draw(s.turn, p, card.id, opening, "legend"))

    def _draw_flare(self, p: int, opening: bool = False) -> None:
        s = self.state
        if not s.flare_deck:
            s.flare_deck, s.flare_discard = s.flare_discard, []
            s.rng.shuffle(s.flare_deck)
        if s.flare_deck:
            card = s.flare_deck.pop()
            s.flare_hand[p].append(card)
            s.record.add(Draw(s.turn, p, card.id, opening, "flare"))

    def _trigger_end(self, reason: str, player: int) -> None:
        s = self.state
        s.end_trigger = reason
        s.end_trigger_player = player
        s.trigger_turn = s.turn
        s.turns_after_trigger = 0

    # ----- a turn
    def play_turn(self) -> None:
        s = self.state
        s.turn += 1
        s.actions_left = 1 if s.turn == 1 else 2
        s.discarded_this_turn = False
        s.flare_used_this_turn = False
        s.in_extra_turn = s.counters.extra_turn
        s.counters = TurnCounters()
        self.finish_turn()

    def finish_turn(self) -> None:
        """The rest of the turn in progress: the active player's actions, then the end of the turn (a scenario
        starts in the middle of a turn)."""
        s = self.state
        p = s.active
        while True:
            options = self.action_options(p)
            if not options:
                break
            action = self.ask(p, "action", options)
            if action.kind == END:
                break
            self.apply_action(p, action)
            if s.strict:
                s.check_invariants()
        self.end_turn(p)
        if s.strict:
            s.check_invariants()
        for listener in self.turn_listeners:
            listener(self)

    def action_options(self, p: int) -> list[Action]:
        s = self.state
        out: list[Action] = []
        if s.actions_left > 0:
            if s.tokens[p] or s.pieces[p][COMMON] | s.pieces[p][HEROIC]:
                out.append(_PLACE_ACTION)
            for card in s.hand[p]:
                if self.has_placement(p, card):
                    out.append(Action(SUMMON, card))
            for card in s.legend_hand[p]:
                if self.has_placement(p, card):
                    out.append(Action(SUMMON, card))
            if not s.discarded_this_turn and s.hand[p]:
                out.append(_DISCARD_ACTION)
        if s.flare_hand[p] and not s.flare_used_this_turn and self.flare_halves(p, s.flare_hand[p][0]):
            out.append(_FLARE_ACTION)
            if s.actions_left == 0:
                out.append(_END_ACTION)
        return out

    def apply_action(self, p: int, action: Action) -> None:
        s = self.state
        if action.kind == FLARE:
            self.invoke_flare(p)
            return
        s.actions_left -= 1
        if action.kind == PLACE:
            self.place_action(p)
        elif action.kind == SUMMON:
            assert action.card is not None
            placement = self.ask(p, "summon", self.legal_placements(p, action.card), action.card.id)
            self.summon(p, action.card, placement)
        elif action.kind == DISCARD:
            self.discard_action(p)
        else:
            raise IllegalChoice(f"unknown action {action!r}")

    def place_action(self, p: int) -> None:
        s = self.state
        if s.tokens[p] == 0:
            own = s.pieces[p][COMMON] | s.pieces[p][HEROIC]
            sq = self.ask(p, "take", list(board.bits(own)), prompt="piece to take back for placing")
            s._lift(p, COMMON if s.pieces[p][COMMON] >> sq & 1 else HEROIC, sq)
            s.record.add(Take(s.turn, p, "place-action", sq))
        sq = self.ask(p, "place", list(board.bits(s.empty())))
        s.place(p, COMMON, sq, "place-action")

    def discard_action(self, p: int) -> None:
        s = self.state
        card = self.ask(p, "discard", list(s.hand[p]))
        s.hand[p].remove(card)
        s.discarded[p].append(card)
        s.discarded_this_turn = True
        s.record.add(Discard(s.turn, p, card.id))
        while True:
            rest: list[Any] = [None, *s.hand[p], *s.legend_hand[p], *s.flare_hand[p]]
            if len(rest) == 1:
                return
            card = self.ask(p, "return", rest, prompt="card to return to the bottom of its deck, or None")
            if card is None:
                return
            self.return_card(p, card)

    def return_card(self, p: int, card: Being | Flare) -> None:
        s = self.state
        if isinstance(card, Flare):
            s.flare_hand[p].remove(card)
            s.flare_deck.insert(0, card)
        elif card.is_legend:
            s.legend_hand[p].remove(card)
            s.legend_deck.insert(0, card)
        else:
            s.hand[p].remove(card)
            s.deck[p].insert(0, card)
        s.record.add(Return(s.turn, p, card.id))

    # ----- summoning
    def _placement_ok(self, p: int, card: Being, pl: Placement, mine: int, up: int, leg: int) -> bool:
        s = self.state
        fails = (pl.need_any & ~mine) | (pl.need_heroic & ~up) | (pl.need_legendary & ~leg)
        if fails:
            if not s.counters.borrow_enemy_piece or fails & (fails - 1):
                return False
            e = s.pieces[1 - p]
            e_any, e_up = e[0] | e[1] | e[2], e[1] | e[2]
            if (pl.need_any & ~e_any | pl.need_heroic & ~e_up | pl.need_legendary & ~e[2]) & fails:
                return False
        at = s.piece_at(pl.origin)
        if at is not None and at[1] > card.rank:
            return False
        return self._piece_obtainable(p, card.rank, pl, at)

    def _piece_obtainable(self, p: int, rank: int, pl: Placement, at: tuple[int, int] | None) -> bool:
        s = self.state
        if rank == LEGENDARY:
            freed = at is not None and at == (p, LEGENDARY)
            in_arena = s.pieces[p][LEGENDARY].bit_count() - freed
            if s.legend_stock[p] + freed > 0 and in_arena < 3:
                return True
            spare = s.pieces[p][LEGENDARY] & ~pl.need_any & ~(1 << pl.origin)
        else:
            if s.tokens[p] > 0 or (at is not None and at[0] == p and at[1] != LEGENDARY):
                return True
            spare = (s.pieces[p][COMMON] | s.pieces[p][HEROIC]) & ~pl.need_any & ~(1 << pl.origin)
        return spare != 0

    def _matching_placements(self, p: int, card: Being, first_only: bool) -> list[Placement]:
        """Placements whose pattern cells all hold ``p``'s pieces of the needed ranks, found with shifts."""
        s = self.state
        bb = s.pieces[p]
        by_rank = (bb[0] | bb[1] | bb[2], bb[1] | bb[2], bb[2])
        other = s.pieces[1 - p]
        blocked = 0  # pieces of a higher rank than the being stop a summon on their square
        for r in range(card.rank + 1, 3):
            blocked |= bb[r] | other[r]
        stock_ok = (s.legend_stock[p] > 0 and bb[LEGENDARY].bit_count() < 3) if card.rank == LEGENDARY \
            else s.tokens[p] > 0
        out: list[Placement] = []
        for shape in card.shapes:
            m = shape.origins & ~blocked
            for shift, rank in shape.cells:
                if not m:
                    break
                m &= by_rank[rank] >> shift if shift >= 0 else by_rank[rank] << -shift
            for origin in board.bits(m):
                pl = shape.by_origin[origin]
                if stock_ok or self._piece_obtainable(p, card.rank, pl, s.piece_at(origin)):
                    out.append(pl)
                    if first_only:
                        return out
        return out

    def _borrowing_placements(self, p: int, card: Being) -> list[Placement]:
        """Placements when one enemy piece may stand in for one of ``p``'s pieces (War Summoner)."""
        bb = self.state.pieces[p]
        mine, up, leg = bb[0] | bb[1] | bb[2], bb[1] | bb[2], bb[2]
        return [pl for pl in card.placements if self._placement_ok(p, card, pl, mine, up, leg)]

    def has_placement(self, p: int, card: Being) -> bool:
        s = self.state
        if s.counters.borrow_enemy_piece:
            return bool(self._borrowing_placements(p, card))
        if s.mine(p).bit_count() < len(card.pattern.cells):
            return False
        return bool(self._matching_placements(p, card, first_only=True))

    def legal_placements(self, p: int, card: Being) -> list[Placement]:
        if self.state.counters.borrow_enemy_piece:
            return self._borrowing_placements(p, card)
        return self._matching_placements(p, card, first_only=False)

    def summon(self, p: int, card: Being, pl: Placement) -> None:
        from sim.effects.context import EffectContext
        from sim.effects.interpreter import run_steps

        s = self.state
        if card.is_legend:
            s.legend_hand[p].remove(card)
        else:
            s.hand[p].remove(card)
        destroyed_before = sum(s.counters.destroyed)
        s.counters.borrow_enemy_piece = False
        s.record.add(Summon(s.turn, p, card.id, pl.origin, pl.orientation))
        if s.occupied() >> pl.origin & 1:
            s.destroy(pl.origin, card.id)
        if not s.can_have_piece(p, card.rank):
            kinds = (LEGENDARY,) if card.rank == LEGENDARY else (COMMON, HEROIC)
            spare = s.of_ranks(p, kinds) & ~pl.need_any
            sq = self.ask(p, "take", list(board.bits(spare)), card.id, "piece to take back for the summon")
            s._lift(p, s.piece_at(sq)[1], sq)  # type: ignore[index]
            s.record.add(Take(s.turn, p, card.id, sq))
        s._put(p, card.rank, pl.origin)
        s.counters.summoned.append((pl.origin, card.rank))
        if card.rank == LEGENDARY and s.mode == DEATHMATCH:
            s.dm_points[p] += 1
            s.record.points(s.turn, p, "legend-summon", 1)
        ctx = EffectContext(self, p, card.id, pl.origin, pl)
        run_steps(ctx, card.effect)
        if card.is_legend:
            s.legend_discard.append(card)
        else:
            s.discarded[p].append(card)
        s.record.add(EffectDone(s.turn, p, card.id, sum(s.counters.destroyed) - destroyed_before))

    # ----- flares
    def flare_halves(self, p: int, flare: Flare) -> int:
        """Which halves ``flare`` may resolve now: bit 1 upper, bit 2 lower."""
        s = self.state
        me, them = s.pieces[p], s.pieces[1 - p]
        halves = 0
        if (them[1] | them[2]).bit_count() - (me[1] | me[2]).bit_count() >= flare.upper.threshold:
            halves |= 1
        if (them[0] | them[1] | them[2]).bit_count() - (me[0] | me[1] | me[2]).bit_count() >= flare.lower.threshold:
            halves |= 2
        return halves

    def invoke_flare(self, p: int) -> None:
        from sim.effects.context import EffectContext
        from sim.effects.interpreter import run_steps

        s = self.state
        flare = s.flare_hand[p][0]
        halves = self.flare_halves(p, flare)
        s.flare_hand[p].remove(flare)
        s.flare_used_this_turn = True
        s.record.add(FlareInvoked(s.turn, p, flare.id, halves & 1 > 0, halves & 2 > 0, s.score(p) - s.score(1 - p)))
        for bit, half in ((1, flare.upper), (2, flare.lower)):
            if halves & bit:
                run_steps(EffectContext(self, p, flare.id, None, None), half.effect)
        s.flare_discard.append(flare)
        if s.mode == DEATHMATCH:
            s.dm_points[1 - p] += 1
            s.record.points(s.turn, 1 - p, "flare", 1)

    # ----- end of turn
    def end_turn(self, p: int) -> None:
        s = self.state
        c = s.counters
        if s.mode == DEATHMATCH:
            pts = 2 * c.destroyed[LEGENDARY] + c.destroyed[HEROIC] + c.destroyed[COMMON] // 2
            if pts:
                s.dm_points[p] += pts
                s.record.points(s.turn, p, "destruction", pts)
        else:
            self.claim_task(p)
        self._draw_beings(p, max(0, HAND_BEINGS - len(s.hand[p])) + c.extra_draws)
        for _ in range(max(0, HAND_LEGENDS - len(s.legend_hand[p])) + c.extra_legend_draws):
            self._draw_legend(p)
        if not s.flare_hand[p]:
            self._draw_flare(p)
        self._check_end(p)
        if not c.extra_turn:
            s.active = 1 - p

    def claimable_tasks(self, p: int) -> list[Task]:
        s = self.state
        return [t for t in s.task_row if CONDITIONS[t.condition](s, p)]

    def claim_task(self, p: int) -> None:
        s = self.state
        options: list[Task | None] = self.claimable_tasks(p)
        if not options:
            return
        task = self.ask(p, "claim", [*options, None], prompt="task to claim, or None")
        if task is None:
            return
        s.task_row.remove(task)
        s.claimed[p].append(task)
        s.task_points[p] += task.points
        s.record.add(TaskClaim(s.turn, p, task.id, task.points))
        s.record.points(s.turn, p, task.id, task.points)
        self._refill_task_row()

    def _refill_task_row(self) -> None:
        """Move next tasks into the row until it holds three, then reveal a new next task. With no next task
        showing (none fitted the row), one is revealed first: a task may fit the row now that it changed."""
        s = self.state
        while len(s.task_row) < 3:
            if s.next_task is None:
                self._reveal_next_task()
            if s.next_task is None:
                return
            s.task_row.append(s.next_task)
            s.next_task = None
        self._reveal_next_task()

    def _check_end(self, p: int) -> None:
        """Trigger the end on score; after the trigger, two more turns (extra turns not counted)."""
        s = self.state
        if s.end_trigger is None and max(s.score(0), s.score(1)) >= END_SCORE[s.mode]:
            self._trigger_end("score", p)
        if s.end_trigger is not None and s.turn > s.trigger_turn and not s.in_extra_turn:
            s.turns_after_trigger += 1
        if s.end_trigger is not None and s.turns_after_trigger >= 2 and not s.counters.extra_turn:
            self._finish()
        elif s.turn >= s.max_turns:
            s.end_trigger = "turn-limit"
            self._finish()

    def _finish(self) -> None:
        s = self.state
        r = s.record
        s.over = True
        scores = (s.score(0), s.score(1))
        r.scores = scores
        r.turns = s.turn
        r.end_reason = s.end_trigger or ""
        if scores[0] != scores[1]:
            r.winner = 0 if scores[0] > scores[1] else 1
        else:
            up = (s.upgraded(0).bit_count(), s.upgraded(1).bit_count())
            allp = (s.mine(0).bit_count(), s.mine(1).bit_count())
            if up[0] != up[1]:
                r.winner, r.tiebreak = (0 if up[0] > up[1] else 1), "upgraded"
            elif allp[0] != allp[1]:
                r.winner, r.tiebreak = (0 if allp[0] > allp[1] else 1), "pieces"
            else:
                r.winner, r.tiebreak = -1, "tie"
        for p in (0, 1):
            for card in (*s.hand[p], *s.legend_hand[p], *s.flare_hand[p]):
                r.add(Held(s.turn, p, card.id))
