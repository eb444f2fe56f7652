"""The engine of the scripted strategies: every option of a main decision is tried on a sandbox copy of
the game and scored by the position it leads to (``strategies.evaluate``); the choices the option then
needs (placement, effect targets) are made by the same rules inside the sandbox, and the real game gets
the same answers back from the plan kept for the chosen option.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sim import board
from sim.board import ADJACENT
from sim.cards import Being
from sim.decisions import DISCARD, END, FLARE, PLACE, SUMMON, Action, Decision, PlayerView
from sim.game import Game
from sim.patterns import Placement
from sim.ranks import COMMON
from sim.state import DEATHMATCH, GameState
from strategies.evaluate import Evaluator, Readiness, Weights
from strategies.params import Param
from strategies.readiness import Position
from strategies.reflex import Reflex
from strategies.sandbox import Outcome, best_outcome
from strategies.task_progress import helpful_squares

PARAMS: tuple[Param, ...] = (
    Param("score", 10.0, "value of one point of score margin"),
    Param("common", 1.0, "value of a common piece in the arena (yours minus the opponent's)"),
    Param("heroic", 2.5, "value of a heroic piece in the arena"),
    Param("legendary", 4.0, "value of a legendary piece in the arena"),
    Param("threat", 0.4, "share of a piece's value lost when it stands next to an enemy piece that can take "
                         "it"),
    Param("tasks", 3.0, "High Form: value of progress towards a current task, per task point"),
    Param("patterns", 0.0, "value of the hand's readiness (how close each card's pattern is)"),
    Param("readiness_decay", 0.5, "readiness of a card is this to the power of the actions its pattern needs",
          0.0, 1.0),
    Param("legend_cards", 1.0, "factor on the value of legend cards in the hand's readiness"),
    Param("destruction", 0.0, "Deathmatch: extra value per enemy piece destroyed this turn"),
    Param("flare_margin", 0.0, "gain a flare must bring (in position value) to be invoked"),
    Param("max_placements", 5, "placements of one card tried in the sandbox (the most promising first)", 1),
    Param("place_candidates", 4, "squares fully evaluated for a place", 1),
    Param("explore", 3, "extra sandbox runs to try the branches and directions of an effect", 0),
    Param("full_values", 1, "placements of one card valued with the hand's readiness (the best few)", 1),
)


class Lookahead:
    """A strategy scoring options by the position they lead to; presets of its weights make the named
    scripted strategies (see ``strategies.scripted``)."""

    def __init__(self, name: str, seed: int, params: dict[str, Any]):
        self.name = name
        self.rng = random.Random(seed)
        self.ev = Evaluator(Weights.from_params(params))
        self.reflex = Reflex(self.ev)
        self.flare_margin = float(params["flare_margin"])
        self.max_placements = int(params["max_placements"])
        self.place_candidates = int(params["place_candidates"])
        self.explore = int(params["explore"])
        self.full_values = int(params["full_values"])
        self.plan: list[tuple[str, Any]] = []
        self.params = dict(params)

    # In a game the core plays this strategy itself (core/engine/src/players/lookahead.rs, the same choices
    # from the same stream), unless a plan made here is still to be followed.
    native = True

    def native_player(self) -> tuple[str, dict[str, Any], tuple[int, ...]] | None:
        return None if self.plan else (self.name, self.params, self.rng.getstate()[1])

    def native_stream(self) -> random.Random:
        return self.rng

    def __repr__(self) -> str:
        return f"<strategy {self.name}>"

    # ----- the real game
    def choose(self, view: PlayerView, decision: Decision) -> int:
        if self.plan and decision.kind != "action":
            kind, answer = self.plan.pop(0)
            if kind == decision.kind and answer in decision.options:
                return decision.options.index(answer)
        self.plan = []
        sb = view.sandbox(self.rng)
        if decision.kind == "action":
            return self._action(sb, decision)
        if decision.kind == "summon":
            return self._summon(sb, decision)
        return self._policy(sb, decision)[0]

    def _action(self, sb: GameState, d: Decision) -> int:
        p = d.player
        ready = self.ev.readiness_parts(sb, p) if self.ev.w.patterns else NO_READINESS
        static = self.ev.static(sb, p)
        base = static + self.ev.w.patterns * ready.total
        best_i, best = -1, Outcome(float("-inf"), [])
        for i, action in enumerate(d.options):
            if action.kind == FLARE:
                flare = self._full(self._try(sb, p, action), p)
                if flare.value - base > self.flare_margin:
                    self.plan = flare.answers
                    return i
                continue
            if action.kind == END:
                outcome = Outcome(base, [])
            elif action.kind == PLACE and sb.tokens[p] > 0:
                outcome = self._place_outcome(sb, p, ready)
            elif action.kind == DISCARD:
                outcome = self._discard_outcome(sb, p, ready, static)
            elif action.kind == SUMMON:
                assert action.card is not None
                outcome = self._summon_outcome(sb, p, action.card)
            else:
                outcome = self._full(self._try(sb, p, action), p)
            if outcome.value > best.value:
                best_i, best = i, outcome
        if best_i < 0:  # only a flare not worth it, and no END offered: nothing else is possible
            return 0
        self.plan = best.answers
        return best_i

    def _summon_outcome(self, sb: GameState, p: int, card: Being) -> Outcome:
        """The best placement's outcome, fully valued. Placements are compared without the hand's
        readiness first, and only the best few are valued in full."""
        placements = Game.around(sb, ()).legal_placements(p, card)
        outcomes = []
        for j in self._promising(sb, p, placements, card):
            pl = placements[j]
            outcome = self._explore(sb, p, lambda g, pl=pl: summon_action(g, p, card, pl))
            if len(placements) > 1:  # the engine asks for the placement only when there is a choice
                outcome = outcome._replace(answers=[("summon", pl), *outcome.answers])
            outcomes.append(outcome)
        outcomes.sort(key=lambda o: o.value, reverse=True)
        return max((self._full(o, p) for o in outcomes[:self.full_values]), key=lambda o: o.value)

    def _summon(self, sb: GameState, d: Decision) -> int:
        """A placement asked without a plan (the plan was lost): try each like the action would have."""
        p = d.player
        card = next(c for c in (*sb.hand[p], *sb.legend_hand[p]) if c.id == d.card)
        best_j, best = 0, Outcome(float("-inf"), [])
        for j in self._promising(sb, p, d.options, card):
            outcome = self._full(self._explore(sb, p, lambda g, pl=d.options[j]: g.summon(p, card, pl)), p)
            if outcome.value > best.value:
                best_j, best = j, outcome
        self.plan = best.answers
        return best_j

    def _try(self, sb: GameState, p: int, action: Action) -> Outcome:
        return self._explore(sb, p, lambda g: g.apply_action(p, action))

    def _explore(self, sb: GameState, p: int, act: Callable[[Game], None]) -> Outcome:
        """The best outcome of ``act`` in the sandbox, valued without the hand's readiness."""
        return best_outcome(sb, self.rng, act, self._policy, lambda s: self.ev.static(s, p), self.explore)

    def _full(self, outcome: Outcome, p: int) -> Outcome:
        if not self.ev.w.patterns or outcome.state is None:
            return outcome
        ready = self.ev.readiness(outcome.state, p)
        return outcome._replace(value=outcome.value + self.ev.w.patterns * ready)

    def _place_outcome(self, sb: GameState, p: int, ready: Readiness) -> Outcome:
        squares = list(board.bits(sb.empty()))
        i, value = self._place_choice(sb, p, squares, ready)
        return Outcome(value, [("place", squares[i])])

    def _discard_outcome(self, sb: GameState, p: int, ready: Readiness, static: float) -> Outcome:
        """Discarding the being of least worth (and returning nothing): its readiness is traded for that
        of the being drawn in its place."""
        card = min(sb.hand[p], key=lambda c: ready.worth.get(c, 0.0))
        refill = self.ev.refill if sb.deck[p] else 0.0
        value = static + self.ev.w.patterns * (ready.total - ready.worth.get(card, 0.0) + refill)
        return Outcome(value, [("discard", card), ("return", None)])

    def _promising(self, s: GameState, p: int, placements: list[Placement], card: Being) -> list[int]:
        """Indexes of the placements worth trying: one per summoning square when the card's effect does not
        depend on the rest of the placement, and those nearest enemy pieces (where effects bite) first."""
        if len(placements) > 1 and not depends_on_placement(card):
            origins: dict[int, int] = {}
            for j, pl in enumerate(placements):
                origins.setdefault(pl.origin, j)
            indexes = list(origins.values())
        else:
            indexes = list(range(len(placements)))
        if len(indexes) <= self.max_placements:
            return indexes
        enemy = s.mine(1 - p)
        upgraded = s.upgraded(1 - p)

        def promise(j: int) -> tuple[int, float]:
            pl = placements[j]
            near = board.WITHIN[2][pl.origin]
            return ((3 * (enemy >> pl.origin & 1) + 2 * (pl.marked & enemy).bit_count()
                     + (near & enemy).bit_count() + (near & upgraded).bit_count()), self.rng.random())

        return sorted(indexes, key=promise, reverse=True)[:self.max_placements]

    # ----- choices inside the sandbox (and in the real game when no plan covers them)
    def _policy(self, s: GameState, d: Decision) -> tuple[int, bool]:
        kind = d.kind
        if kind == "place" and not d.card:
            return self._place_choice(s, d.player, d.options)[0], True
        if kind == "take":
            return self._best_take(s, d), True
        if kind == "discard":
            return self._worst_card(s, d.player, d.options), True
        if kind == "return":
            return d.options.index(None), True
        if kind == "claim":
            return max(range(len(d.options)), key=lambda i: d.options[i].points if d.options[i] else -1), True
        if kind == "start-square":
            return 0, True
        judged = self.reflex.judge(s, d)
        return (0, False) if judged is None else (judged, True)

    def _place_choice(self, s: GameState, p: int, squares: list[int],
                      ready: Readiness | None = None) -> tuple[int, float]:
        """The best square to place a common piece of yours on, and the value it leads to."""
        w = self.ev.w
        if ready is None:
            ready = self.ev.readiness_parts(s, p) if w.patterns else NO_READINESS
        field = ready.field
        helpful = 0
        if s.mode != DEATHMATCH:
            for t in s.task_row:
                helpful |= helpful_squares(t.condition, s, p)
        rnd = self.rng.random

        def prelim(i: int) -> float:
            sq = squares[i]
            task = 0.3 * w.tasks if helpful >> sq & 1 else 0.0
            return w.patterns * field.get(sq, 0.0) + task + 0.01 * rnd()

        shortlist = sorted(range(len(squares)), key=prelim, reverse=True)[:self.place_candidates]
        commons = s.pieces[p]
        best_i, best_v = shortlist[0], float("-inf")
        for i in shortlist:
            sq = squares[i]
            commons[COMMON] |= 1 << sq
            v = self.ev.static(s, p) + w.patterns * (ready.total + field.get(sq, 0.0))
            commons[COMMON] &= ~(1 << sq)
            if v > best_v:
                best_i, best_v = i, v
        return best_i, best_v

    def _best_take(self, s: GameState, d: Decision) -> int:
        """The piece of yours that the position misses least (commons with few friends nearby first)."""
        p = d.player
        mine = s.mine(p)
        bb = s.pieces[p]

        def prelim(i: int) -> tuple[int, int]:
            sq = d.options[i]
            return s.piece_at(sq)[1], (ADJACENT[sq] & mine).bit_count()  # type: ignore[index]

        shortlist = sorted(range(len(d.options)), key=prelim)[:self.place_candidates]
        best_i, best_v = shortlist[0], float("-inf")
        for i in shortlist:
            sq = d.options[i]
            rank = s.piece_at(sq)[1]  # type: ignore[index]
            bb[rank] &= ~(1 << sq)
            v = self.ev.value(s, p)
            bb[rank] |= 1 << sq
            if v > best_v:
                best_i, best_v = i, v
        return best_i

    def _worst_card(self, s: GameState, p: int, cards: list[Being]) -> int:
        pos = Position(s.pieces[p], s.pieces[1 - p])
        ev = self.ev

        def worth(i: int) -> float:
            card = cards[i]
            return ev.card_value(card.rank, card.is_legend) * ev.decay[pos.best_cost(card)]

        return min(range(len(cards)), key=worth)


NO_READINESS = Readiness(0.0, {}, {})


def summon_action(game: Game, p: int, card: Being, pl: Placement) -> None:
    """The summon action as ``Game.apply_action`` plays it, once the placement is chosen."""
    game.state.actions_left -= 1
    game.summon(p, card, pl)


_DEPENDS: dict[Being, bool] = {}


def depends_on_placement(card: Being) -> bool:
    """Whether the card's effect may differ between placements with the same summoning square: it reads
    the marked squares or the pattern's pieces, or runs Python code that might."""
    got = _DEPENDS.get(card)
    if got is None:
        got = _DEPENDS[card] = _steps_depend(card.effect)
    return got


def _steps_depend(steps) -> bool:
    for st in steps:
        if st.get("do") == "custom" or st.get("where") in ("marked", "pattern"):
            return True
        if any(_steps_depend(branch) for branch in st.get("branches", ())):
            return True
    return False
