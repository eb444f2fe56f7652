"""A round robin between strategies: every pairing plays the same seeded games, half from each seat.

Win rates count a tie as half a win and come with a Wilson 95% interval. Ratings are Elo-style: a
Bradley-Terry model fitted by maximum likelihood to every pairing at once (Hunter's MM algorithm), on
the Elo scale (a 400-point gap means 10:1 odds), with one virtual tied game per pairing so that a
perfect score still gives a finite rating, and ``random`` (or the first entrant) at 0. A rating's 95%
interval comes from the model's Fisher information at the fit (the anchor's rating is 0 by definition,
so the others' intervals are relative to it).

An entrant is a strategy under a label: the same strategy may take part twice with different parameters
(``expert`` and ``expert.1000`` at two budgets).

A melee ladder (``melee-3``, ``melee-4``) seats each pairing's two strategies alternately at a table of 3 or
4 (A B A, then B A B; A B A B), rotated through the seats, and breaks each game's ranking into comparisons
between the seats of different strategies: the better place wins, an equal place ties. The pairings count
those comparisons, and the ratings fit them. Comparisons from one game are not independent, so the
intervals of a melee ladder are narrower than its games warrant (docs/strategies.md, "Melee").

A team ladder (``team-high-form``, ``team-deathmatch``) seats each pairing's two strategies as the two teams
of a 2 against 2 game (one strategy in both seats of a team), and plays each deal twice with the teams
swapped, as the duel swaps seats.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from reports.stats import Z95, wilson
from sim.errors import UserError

CHUNK = 25  # games per job handed to a worker process


@dataclass(frozen=True)
class Entrant:
    """A strategy with its parameters, as it takes part under the label ``name`` (by default the
    strategy's own name)."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)
    strategy: str = ""

    @property
    def strategy_name(self) -> str:
        return self.strategy or self.name


@dataclass
class PairingResult:
    first: str
    second: str
    games: int = 0
    first_wins: int = 0
    second_wins: int = 0
    ties: int = 0

    @property
    def score(self) -> float:
        """The first strategy's share of the points: wins plus half the ties, over the games."""
        return (self.first_wins + 0.5 * self.ties) / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score * self.games, self.games)

    def swapped(self) -> PairingResult:
        return PairingResult(self.second, self.first, self.games, self.second_wins, self.first_wins,
                             self.ties)


MELEE_SEATS = {"melee-3": 3, "melee-4": 4}
TEAM_FORMS = {"team-high-form": "high-form", "team-deathmatch": "deathmatch"}


@dataclass
class LadderResult:
    mode: str
    decks: list[tuple[str, ...]]
    entrants: list[Entrant]
    games_per_pairing: int
    pairings: list[PairingResult]
    seconds: float
    ratings: dict[str, float] = field(default_factory=dict)
    rating_intervals: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return sum(p.games for p in self.pairings)

    @property
    def unit(self) -> str:
        """What a pairing counts: games in a duel, seat comparisons in a melee."""
        return "comparisons" if self.mode in MELEE_SEATS else "games"

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode, "unit": self.unit, "decks": ["-".join(t) for t in self.decks],
            "entrants": [{"label": e.name, "strategy": e.strategy_name, "params": e.params}
                         for e in self.entrants],
            "games_per_pairing": self.games_per_pairing, "seconds": round(self.seconds, 1),
            "pairings": [{"first": p.first, "second": p.second, "games": p.games, "first_wins": p.first_wins,
                          "second_wins": p.second_wins, "ties": p.ties, "first_score": round(p.score, 4),
                          "interval": [round(x, 4) for x in p.interval]} for p in self.pairings],
            "ratings": {k: round(v, 1) for k, v in self.ratings.items()},
            "rating_intervals": {k: [round(x, 1) for x in v] for k, v in self.rating_intervals.items()},
        }


def _bradley_terry(pairings: Sequence[PairingResult], iterations: int = 2000
                   ) -> tuple[dict[str, float], dict[tuple[str, str], float]]:
    """Strengths (geometric mean 1) fitted to every pairing with one virtual tied game each, and the games
    (virtual ones included) between each ordered pair of names."""
    names = sorted({p.first for p in pairings} | {p.second for p in pairings})
    games: dict[tuple[str, str], float] = {}
    points = dict.fromkeys(names, 0.0)
    for p in pairings:
        n = p.games + 1  # one virtual tied game
        games[p.first, p.second] = games.get((p.first, p.second), 0.0) + n
        games[p.second, p.first] = games.get((p.second, p.first), 0.0) + n
        points[p.first] += p.first_wins + 0.5 * p.ties + 0.5
        points[p.second] += p.second_wins + 0.5 * p.ties + 0.5
    gamma = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        new = {}
        for i in names:
            denom = sum(n / (gamma[i] + gamma[j]) for (a, j), n in games.items() if a == i)
            new[i] = points[i] / denom if denom else gamma[i]
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {k: v / scale for k, v in new.items()}
        done = max(abs(math.log(new[k] / gamma[k])) for k in names) < 1e-10
        gamma = new
        if done:
            break
    return gamma, games


ELO = 400 / math.log(10)  # Elo points per unit of natural log-strength


def elo_ratings(pairings: Sequence[PairingResult], anchor: str, iterations: int = 2000) -> dict[str, float]:
    """Bradley-Terry strengths on the Elo scale (see the module docstring), ``anchor`` at 0."""
    gamma, _ = _bradley_terry(pairings, iterations)
    base = gamma.get(anchor, gamma[min(gamma)])
    return {k: ELO * math.log(v / base) for k, v in gamma.items()}


def rating_intervals(pairings: Sequence[PairingResult], anchor: str, z: float = Z95
                     ) -> dict[str, tuple[float, float]]:
    """95% intervals of ``elo_ratings``: each rating plus or minus ``z`` standard errors, from the inverse
    of the Fisher information of the log-strengths with the anchor's held at 0."""
    import numpy as np

    gamma, games = _bradley_terry(pairings)
    ratings = elo_ratings(pairings, anchor)
    anchor = anchor if anchor in gamma else min(gamma)
    free = [k for k in sorted(gamma) if k != anchor]
    index = {k: i for i, k in enumerate(free)}
    info = np.zeros((len(free), len(free)))
    for (a, b), n in games.items():
        if a > b:
            continue  # each unordered pair once
        p = gamma[a] / (gamma[a] + gamma[b])
        w = n * p * (1 - p)
        for x, y in ((a, b), (b, a)):
            if x in index:
                info[index[x], index[x]] += w
                if y in index:
                    info[index[x], index[y]] -= w
    covariance = np.linalg.inv(info)
    out = {anchor: (0.0, 0.0)}
    for k, i in index.items():
        half = z * ELO * math.sqrt(covariance[i, i])
        out[k] = (ratings[k] - half, ratings[k] + half)
    return out


def _mix(seed: int, k: int) -> int:
    """The seed of a ladder's deal ``k``: splitmix64 of the base seed and the deal's number."""
    z = (seed * 0x9E3779B97F4A7C15 + k + 1) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ z >> 30) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ z >> 27) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (z ^ z >> 31) >> 1


Job = tuple[str, list[tuple[str, ...]], Entrant, Entrant, int, range, str | None]


def melee_table(seats: int, k: int) -> list[int]:
    """Game ``k`` of a melee pairing: for each seat, 0 for the first strategy or 1 for the second. The two
    alternate round the table (with 3 seats the first holds two of them in even deals, the second in odd
    ones), rotated by ``k`` through the seats."""
    sides = [(i + k // seats) % 2 for i in range(seats)]
    shift = k % seats
    return sides[-shift:] + sides[:-shift] if shift else sides


def play_melee_games(job: Job) -> tuple[int, int, int]:
    """(first's wins, second's wins, ties) over the seat comparisons of a range of a melee pairing's games."""
    from sim.cards import load_card_set
    from sim.game import Game
    from strategies import make_strategy

    mode, decks, first, second, base_seed, ks, cards_dir = job
    seats = MELEE_SEATS[mode]
    cards = load_card_set(cards_dir)
    first_wins = second_wins = ties = 0
    for k in ks:
        seed = _mix(base_seed, k)
        sides = melee_table(seats, k)
        players = [make_strategy((first, second)[s].strategy_name, seat, seed, (first, second)[s].params)
                   for seat, s in enumerate(sides)]
        places = Game(cards, "deathmatch", decks[k % len(decks)], players, seed).play().places
        for a in range(seats):
            for b in range(seats):
                if sides[a] == 0 and sides[b] == 1:
                    if places[a] < places[b]:
                        first_wins += 1
                    elif places[a] > places[b]:
                        second_wins += 1
                    else:
                        ties += 1
    return first_wins, second_wins, ties


def play_team_games(job: Job) -> tuple[int, int, int]:
    """(first's wins, second's wins, ties) over a range of a team pairing's games: the first strategy is
    team A (seats 0 and 2) for even ``k``, team B for odd ``k``, on the same deal."""
    return _play_swapped(job, 4, lambda mode: {"mode": TEAM_FORMS[mode], "teams": True})


def play_games(job: Job) -> tuple[int, int, int]:
    """(first's wins, second's wins, ties) over a range of game numbers of one pairing.

    Games ``2m`` and ``2m + 1`` play the same deal (seed and deck pairing) with the seats swapped: the
    first strategy sits in seat 0 for even ``k``."""
    return _play_swapped(job, 2, lambda mode: {"mode": mode})


def _play_swapped(job: Job, seats: int, game_args: Callable[[str], dict[str, Any]]) -> tuple[int, int, int]:
    """(first's wins, second's wins, ties) of a duel-like pairing (two sides; ``seats`` seats, seat ``s`` on
    side ``s % 2``), each deal played twice with the sides swapped: the first strategy is side 0 for even
    ``k``."""
    from sim.cards import load_card_set
    from sim.game import Game
    from strategies import make_strategy

    mode, decks, first, second, base_seed, ks, cards_dir = job
    cards = load_card_set(cards_dir)
    first_wins = second_wins = ties = 0
    for k in ks:
        seed = _mix(base_seed, k // 2)
        sides = (first, second) if k % 2 == 0 else (second, first)
        players = [make_strategy(sides[seat % 2].strategy_name, seat, seed, sides[seat % 2].params)
                   for seat in range(seats)]
        args = game_args(mode)
        winner = Game(cards, args.pop("mode"), decks[(k // 2) % len(decks)], players, seed, **args).play().winner
        if winner < 0:
            ties += 1
        elif (winner == 0) == (k % 2 == 0):
            first_wins += 1
        else:
            second_wins += 1
    return first_wins, second_wins, ties


def run_ladder(mode: str, entrants: Sequence[Entrant], games: int, decks: Sequence[tuple[str, ...]], *,
               workers: int = 0, base_seed: int = 1, cards_dir: str | None = None,
               progress: Callable[[int, int], None] | None = None) -> LadderResult:
    """Play every pairing of ``entrants`` ``games`` times on all cores (``workers`` = 0) or ``workers``."""
    from strategies import make_strategy

    if len(entrants) < 2:
        raise UserError("a ladder needs at least two strategies")
    if len({e.name for e in entrants}) != len(entrants):
        raise UserError("a label is listed twice (give a strategy a second label: LABEL=STRATEGY)")
    seats = MELEE_SEATS.get(mode, 2)
    step = 2 * seats if seats > 2 else 2
    if games < step or games % step:
        expected = ("an even number of at least 2 (half from each seat)" if seats == 2 else
                    f"a multiple of {step} (each strategy in every seat, both ways round the table)")
        raise UserError(f"--games: expected {expected}, got {games}")
    for e in entrants:
        make_strategy(e.strategy_name, 0, 0, e.params)  # a clear error before any process starts
    results = [PairingResult(a.name, b.name) for i, a in enumerate(entrants) for b in entrants[i + 1:]]
    by_name = {e.name: e for e in entrants}
    jobs: list[tuple[int, Job]] = []
    for index, r in enumerate(results):
        for start in range(0, games, CHUNK):
            ks = range(start, min(start + CHUNK, games))
            job = (mode, list(decks), by_name[r.first], by_name[r.second], base_seed, ks, cards_dir)
            jobs.append((index, job))
    started = time.perf_counter()
    done = 0
    play = play_melee_games if seats > 2 else play_team_games if mode in TEAM_FORMS else play_games
    with ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        for (index, job), (w1, w2, t) in zip(jobs, pool.map(play, [j for _, j in jobs]), strict=True):
            r = results[index]
            r.first_wins += w1
            r.second_wins += w2
            r.ties += t
            r.games += w1 + w2 + t
            done += len(job[5])
            if progress is not None:
                progress(done, games * len(results))
    names = [e.name for e in entrants]
    ladder = LadderResult(mode, list(decks), list(entrants), games, results, time.perf_counter() - started)
    anchor = "random" if "random" in names else names[0]
    ladder.ratings = elo_ratings(results, anchor)
    ladder.rating_intervals = rating_intervals(results, anchor)
    return ladder


def render(ladder: LadderResult) -> str:
    """The ladder as Markdown: pairings (the higher-rated side first) with win rates and intervals, then
    the ratings."""
    unit = ladder.unit
    lines = [f"**{ladder.mode}**, decks {', '.join('-'.join(t) for t in ladder.decks)}, "
             f"{ladder.games_per_pairing} games per pairing ({ladder.games} {unit}, {ladder.seconds:.0f} s)",
             "",
             f"| pairing | {unit} | wins | losses | ties | win rate (ties half) | 95% interval |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    rating = ladder.ratings
    for p in sorted((q if rating[q.first] >= rating[q.second] else q.swapped() for q in ladder.pairings),
                    key=lambda q: (-rating[q.first], -rating[q.second])):
        lo, hi = p.interval
        lines.append(f"| {p.first} vs {p.second} | {p.games} | {p.first_wins} | {p.second_wins} | {p.ties} "
                     f"| {100 * p.score:.1f}% | {100 * lo:.1f}% to {100 * hi:.1f}% |")
    anchor = next(k for k, v in ladder.rating_intervals.items() if v == (0.0, 0.0))
    lines += ["", f"| strategy | rating | 95% interval (relative to {anchor}) |", "|---|---:|---:|"]
    for name, rating in sorted(ladder.ratings.items(), key=lambda kv: -kv[1]):
        lo, hi = ladder.rating_intervals[name]
        interval = "anchor" if name == anchor else f"{lo:.0f} to {hi:.0f}"
        lines.append(f"| {name} | {rating:.0f} | {interval} |")
    return "\n".join(lines)
