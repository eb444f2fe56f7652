"""Trying an option on a sandbox copy of the game: the acting player's later choices inside it are made
by a policy, recorded, and can be forced to explore the alternatives of choices the policy cannot judge.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple

from sim.decisions import Decision, PlayerView
from sim.game import Game
from sim.state import GameState

# A policy answers a decision in a sandbox: (option index, whether it judged the options itself).
Policy = Callable[[GameState, Decision], tuple[int, bool]]


class Recorder:
    """Plays both seats of a sandbox game: the first answers are forced, the rest come from the policy."""

    name = "sandbox"

    def __init__(self, state: GameState, policy: Policy, forced: tuple[int, ...]):
        self.state = state
        self.policy = policy
        self.forced = forced
        self.answers: list[tuple[str, Any]] = []  # (decision kind, chosen option)
        self.indexes: list[int] = []
        self.unjudged: list[tuple[int, int]] = []  # (position among the answers, number of options)

    def choose(self, view: PlayerView, decision: Decision) -> int:
        i = len(self.answers)
        if i < len(self.forced):
            idx = self.forced[i]
        else:
            idx, judged = self.policy(self.state, decision)
            if not judged:
                self.unjudged.append((i, len(decision.options)))
        self.answers.append((decision.kind, decision.options[idx]))
        self.indexes.append(idx)
        return idx


class Outcome(NamedTuple):
    value: float
    answers: list[tuple[str, Any]]
    state: GameState | None = None  # the sandbox after the option


def simulate(base: GameState, rng: random.Random, act: Callable[[Game], None], policy: Policy,
             forced: tuple[int, ...], value: Callable[[GameState], float]) -> tuple[Outcome, Recorder]:
    """Play ``act`` on a copy of ``base``; the recorder holds the answers and the unjudged choices."""
    state = base.clone(rng)
    rec = Recorder(state, policy, forced)
    act(Game.around(state, (rec, rec)))
    return Outcome(value(state), rec.answers, state), rec


def best_outcome(base: GameState, rng: random.Random, act: Callable[[Game], None], policy: Policy,
                 value: Callable[[GameState], float], budget: int) -> Outcome:
    """The best outcome of ``act`` over the alternatives of the choices the policy did not judge, trying
    them depth first (earliest choice first) within ``budget`` extra simulations."""
    best, rec = simulate(base, rng, act, policy, (), value)
    stack = [(rec, 0)]
    while stack and budget > 0:
        rec, start = stack.pop()
        for at, n in rec.unjudged:
            if at < start:
                continue
            for alt in range(n):
                if alt == rec.indexes[at] or budget <= 0:
                    continue
                budget -= 1
                outcome, alt_rec = simulate(base, rng, act, policy, (*rec.indexes[:at], alt), value)
                if outcome.value > best.value:
                    best = outcome
                stack.append((alt_rec, at + 1))
            stack.append((rec, at + 1))
            break
    return best
