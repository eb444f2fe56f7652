"""``tashkalar tune-player``: a player's parameters searched by self-play against a reference player.

Each trial plays the same games (``games_per_trial`` deals from the search seed, each played from both
seats: common random numbers, so trials differ by their parameters only) and scores the win rate, ties half.
The trials run on Ray Tune, locally or on a cluster; Optuna's TPE sampler, seeded, proposes them. With
``concurrency`` 1 each proposal sees every earlier result; with more, a ConcurrencyLimiter in batch mode
proposes ``concurrency`` trials at a time and waits for all of them, so the proposals do not depend on the
order in which trials finish: either way the same seed gives the same trials and the same preset. The
experiment's state lives in ``out`` (Ray Tune's own checkpoint, ``pipelines.raytune``), from which an
interrupted search resumes.

The best trial is then measured again on fresh deals (a seed derived from the search seed that the search
never plays), so its win rate is not inflated by having been picked as the best of many on the same deals
(the winner's curse), and written as a named preset (``strategies.tuned``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pipelines.raytune import fit, progress
from strategies.ladder import CHUNK, Entrant, _mix, play_games
from strategies.tune_space import Dimension

MEASURE_DEAL = 1 << 62  # the fresh deals' seed: the search seed mixed with a deal number no search reaches
DIGITS = 4  # decimals kept of a tuned weight


@dataclass(frozen=True)
class Search:
    player: str
    reference: str
    form: str
    """One form, or several separated by commas: every trial plays its games in each."""
    decks: list[list[str]]
    trials: int
    games_per_trial: int
    measure_games: int
    seed: int
    concurrency: int
    space: dict[str, dict[str, Any]]
    cards_dir: str | None = None
    fixed: dict[str, Any] = field(default_factory=dict)
    """Parameters held at these values in every trial (``--param``), written into the preset with the
    searched ones."""

    @property
    def measure_seed(self) -> int:
        return _mix(self.seed, MEASURE_DEAL)

    @property
    def forms(self) -> list[str]:
        return self.form.split(",")


@dataclass(frozen=True)
class Outcome:
    wins: int
    losses: int
    ties: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.ties

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.ties) / self.games


    def __add__(self, other: Outcome) -> Outcome:
        return Outcome(self.wins + other.wins, self.losses + other.losses, self.ties + other.ties)


def play_form(search: Search, form: str, params: dict[str, Any], base_seed: int, games: range) -> Outcome:
    """The tuned player with ``params`` against the reference on deals ``games`` of ``base_seed`` in ``form``."""
    job = (form, [tuple(d) for d in search.decks], Entrant("tuned", search.fixed | params, search.player),
           Entrant("reference", {}, search.reference), base_seed, games, search.cards_dir)
    return Outcome(*play_games(job))


def play(search: Search, params: dict[str, Any], base_seed: int, games: range) -> Outcome:
    """``play_form`` in each of the search's forms, the same deals in each."""
    return sum((play_form(search, f, params, base_seed, games) for f in search.forms), Outcome(0, 0, 0))


def _rounded(config: dict[str, Any]) -> dict[str, Any]:
    return {k: round(v, DIGITS) if isinstance(v, float) else v for k, v in sorted(config.items())}


def _trial(config: dict[str, Any], search: Search) -> None:
    from ray import tune

    outcome = play(search, _rounded(config), search.seed, range(search.games_per_trial))
    tune.report({"score": outcome.score, "wins": outcome.wins, "losses": outcome.losses, "ties": outcome.ties})


def _progress_line(total: int) -> Callable[[int, list[Any], Any], str]:
    """A finished trial's line, with the best so far."""

    def line(count: int, done: list[Any], trial: Any) -> str:
        score, best = trial.last_result["score"], max(t.last_result["score"] for t in done)
        return f"trial {count}/{total}: win rate {100 * score:.1f}% (best so far {100 * best:.1f}%)"

    return line


def run_search(search: Search, space: list[Dimension], out: Path, resume: bool,
               show: bool = True) -> tuple[dict[str, Any], float]:
    """The best parameters of the search (ties broken by the parameters, so that the order the trials
    finished in never matters) and their win rate on the search's games. Ray must be started."""
    import optuna
    from ray.tune.search.optuna import OptunaSearch

    searcher = OptunaSearch(metric="score", mode="max", sampler=optuna.samplers.TPESampler(seed=search.seed))
    finished = fit(_trial, {"search": search}, out, asdict(search), resume, searcher=searcher,
                   param_space={d.param.name: d.to_tune() for d in space}, trials=search.trials,
                   concurrency=search.concurrency, metric="score",
                   callbacks=[progress("score", _progress_line(search.trials))] if show else [])
    best = min(finished, key=lambda r: (-r.metrics["score"], sorted(_rounded(r.config).items())))
    return _rounded(best.config), best.metrics["score"]


def measure(search: Search, params: dict[str, Any]) -> dict[str, Outcome]:
    """``params`` against the reference on ``measure_games`` fresh games in each form, in chunks on Ray."""
    import ray

    remote = ray.remote(num_cpus=1)(play_form)
    chunks = [range(s, min(s + CHUNK, search.measure_games)) for s in range(0, search.measure_games, CHUNK)]
    refs = {form: [remote.remote(search, form, params, search.measure_seed, ks) for ks in chunks]
            for form in search.forms}
    return {form: sum(ray.get(r), Outcome(0, 0, 0)) for form, r in refs.items()}


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(value)
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    raise TypeError(type(value))


def _measured_lines(outcome: Outcome) -> list[str]:
    from reports.stats import wilson

    low, high = wilson(outcome.wins + 0.5 * outcome.ties, outcome.games)
    return [f"games = {outcome.games}", f"wins = {outcome.wins}", f"losses = {outcome.losses}",
            f"ties = {outcome.ties}", f"win_rate = {round(outcome.score, DIGITS)}",
            f"interval = {_toml([round(low, DIGITS), round(high, DIGITS)])}  # 95% Wilson, ties half"]


def preset_text(name: str, search: Search, params: dict[str, Any], search_score: float,
                by_form: dict[str, Outcome]) -> str:
    """The preset file: what plays (``player``, ``[params]``), then how it was found and measured (over
    every form, and in each when there are several)."""
    measured = sum(by_form.values(), Outcome(0, 0, 0))
    each = [] if len(by_form) == 1 else [
        line for form, outcome in by_form.items() for line in ("", f"[measured.by_form.{form}]",
                                                                *_measured_lines(outcome))]
    lines = [f"# The preset {name!r}, written by tashkalar tune-player; a study or the ladder names it "
             f"as the strategy {name!r}.",
             f"player = {_toml(search.player)}", "", "[params]",
             *(f"{k} = {_toml(v)}" for k, v in sorted((search.fixed | params).items())), "",
             "# the best parameters against the reference on fresh deals (not the search's)", "[measured]",
             f"reference = {_toml(search.reference)}", f"form = {_toml(search.form)}",
             f"decks = {_toml(['-'.join(d) for d in search.decks])}", f"seed = {search.measure_seed}",
             *_measured_lines(measured), *each, "",
             "[search]", "sampler = \"Optuna TPE on Ray Tune\"", f"trials = {search.trials}",
             f"games_per_trial = {search.games_per_trial}", f"seed = {search.seed}",
             f"concurrency = {search.concurrency}", f"best_score = {round(search_score, DIGITS)}  # on the "
             f"search's own games: optimistic", f"space = {_toml(search.space)}",
             f"fixed = {_toml(search.fixed)}", ""]
    return "\n".join(lines)
