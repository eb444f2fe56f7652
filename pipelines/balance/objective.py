"""The balance targets as an objective: how far a candidate's games are from them, and what its change costs.

Each deck's win rate (ties count as not won, as in the report's tables) in each pairing of two different decks
and each form should lie within ``0.5 +- deck_band``; the first player's win rate per form within
``0.5 +- first_player_band``; with a skill target, the stronger player should win at least ``at_least`` of the
deck mirrors with every deck. The distance to the targets is the sum, over these, of how far each lies outside
(in win-rate units: 0.03 is 3 points); the loss adds ``change_cost`` per value and per card changed. The parts
(decks, first player, skill, change) are also kept apart for the Pareto front.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipelines.balance.evaluate import Tally
from pipelines.balance.space import Balance
from reports.stats import wilson


@dataclass(frozen=True)
class Rate:
    """``k`` of ``n`` with its 95% Wilson interval."""

    key: str
    k: int
    n: int

    @property
    def value(self) -> float:
        return self.k / self.n if self.n else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.k, self.n)

    def to_dict(self) -> dict[str, object]:
        lo, hi = self.interval
        return {"key": self.key, "wins": self.k, "games": self.n, "rate": round(self.value, 4),
                "interval": [round(lo, 4), round(hi, 4)]}


def rate(tally: Tally, key: str) -> Rate:
    return Rate(key, tally.get(key, 0), tally.get(key + "#n", 0))


def deck_rates(balance: Balance, tally: Tally) -> list[Rate]:
    """Both decks' win rates in every form and pairing, in the file's order."""
    return [rate(tally, f"deck|{f}|{a}|{b}") for f in balance.forms for x, y in balance.pairings
            for a, b in ((x, y), (y, x))]


def first_rates(balance: Balance, tally: Tally) -> list[Rate]:
    return [rate(tally, f"first|{f}") for f in balance.forms]


def skill_rates(balance: Balance, tally: Tally) -> list[Rate]:
    if balance.targets.skill is None:
        return []
    return [rate(tally, f"skill|{f}|{d}") for f in balance.forms for d in balance.decks]


@dataclass(frozen=True)
class Score:
    decks: float  # how far the decks' win rates lie outside their band, summed
    first: float  # the same for the first player
    skill: float  # how far the stronger player falls short of its share, summed
    values: int  # values changed
    cards: int  # cards changed
    change_cost: float

    @property
    def distance(self) -> float:
        return self.decks + self.first + self.skill

    @property
    def cost(self) -> float:
        return self.change_cost * (self.values + self.cards)

    @property
    def loss(self) -> float:
        return self.distance + self.cost

    def to_dict(self) -> dict[str, float | int]:
        return {"loss": round(self.loss, 6), "distance": round(self.distance, 6), "decks": round(self.decks, 6),
                "first": round(self.first, 6), "skill": round(self.skill, 6), "values": self.values,
                "cards": self.cards, "cost": round(self.cost, 6)}


def outside(r: Rate, band: float) -> float:
    return max(0.0, abs(r.value - 0.5) - band)


def score(balance: Balance, tally: Tally, size: tuple[int, int]) -> Score:
    t = balance.targets
    decks = sum(outside(r, t.deck_band) for r in deck_rates(balance, tally))
    first = sum(outside(r, t.first_player_band) for r in first_rates(balance, tally))
    skill = sum(max(0.0, t.skill.at_least - r.value) for r in skill_rates(balance, tally)) if t.skill else 0.0
    return Score(decks, first, skill, size[0], size[1], t.change_cost)


def pareto(points: list[tuple[float, ...]]) -> list[int]:
    """The indices of the points no other point dominates (lower is better in every coordinate)."""
    def dominates(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        return all(x <= y for x, y in zip(a, b, strict=True)) and a != b

    return [i for i, p in enumerate(points) if not any(dominates(q, p) for q in points)]
