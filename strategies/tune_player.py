"""``tashkalar tune-player``: a lookahead player's parameters searched by self-play against a reference player.

Each trial plays the same games (``games_per_trial`` deals from the search seed, each played from both
seats: common random numbers, so trials differ by their parameters only) and scores the win rate, ties half.
The trials run on Ray Tune, locally or on a cluster; Optuna's TPE sampler, seeded, proposes them. With
``concurrency`` 1 each proposal sees every earlier result; with more, a ConcurrencyLimiter in batch mode
proposes ``concurrency`` trials at a time and waits for all of them, so the proposals do not depend on the
order in which trials finish: either way the same seed gives the same trials and the same preset. The
experiment's state lives in ``out`` (Ray Tune's own checkpoint), from which an interrupted search resumes.

The best trial is then measured again on fresh deals (a seed derived from the search seed that the search
never plays), so its win rate is not inflated by having been picked as the best of many on the same deals
(the winner's curse), and written as a named preset (``strategies.tuned``).
"""

from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sim.errors import UserError
from strategies.ladder import CHUNK, Entrant, _mix, play_games
from strategies.tune_space import Dimension

EXPERIMENT = "search"  # the experiment's folder under --out
SETTINGS = "settings.json"  # the search's settings, checked again by --resume
MEASURE_DEAL = 1 << 62  # the fresh deals' seed: the search seed mixed with a deal number no search reaches
DIGITS = 4  # decimals kept of a tuned weight


@dataclass(frozen=True)
class Search:
    player: str
    reference: str
    form: str
    decks: list[list[str]]
    trials: int
    games_per_trial: int
    measure_games: int
    seed: int
    concurrency: int
    space: dict[str, dict[str, Any]]
    cards_dir: str | None = None

    @property
    def measure_seed(self) -> int:
        return _mix(self.seed, MEASURE_DEAL)


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


def play(search: Search, params: dict[str, Any], base_seed: int, games: range) -> Outcome:
    """The tuned player with ``params`` against the reference on deals ``games`` of ``base_seed``."""
    job = (search.form, [tuple(d) for d in search.decks], Entrant("tuned", params, search.player),
           Entrant("reference", {}, search.reference), base_seed, games, search.cards_dir)
    return Outcome(*play_games(job))


def _rounded(config: dict[str, Any]) -> dict[str, Any]:
    return {k: round(v, DIGITS) if isinstance(v, float) else v for k, v in sorted(config.items())}


def _trial(config: dict[str, Any], search: Search) -> None:
    from ray import tune

    outcome = play(search, _rounded(config), search.seed, range(search.games_per_trial))
    tune.report({"score": outcome.score, "wins": outcome.wins, "losses": outcome.losses, "ties": outcome.ties})


def _dirname(trial: Any) -> str:
    return f"trial_{trial.trial_id}"


def _progress_callback(total: int) -> Any:
    from ray import tune

    class Progress(tune.Callback):
        """A line on stderr per finished trial, with the best so far."""

        def on_trial_complete(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
            done = [t for t in trials if t.last_result and "score" in t.last_result]
            best = max(done, key=lambda t: t.last_result["score"])
            print(f"trial {len(done)}/{total}: win rate {100 * trial.last_result['score']:.1f}% "
                  f"(best so far {100 * best.last_result['score']:.1f}%)", file=sys.stderr, flush=True)

    return Progress()


def connect(address: str | None, workers: int | None) -> None:
    """Join the Ray cluster at ``address``, or start a local Ray with ``workers`` CPUs."""
    import logging

    import ray

    if address:
        from pipelines.runner import _probe

        _probe(address)
        try:
            ray.init(address=address, logging_level=logging.WARNING)
        except ConnectionError as e:
            raise UserError(f"--address {address}: cannot join the Ray cluster ({e})") from None
    else:
        logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
        ray.init(address="local", num_cpus=workers or os.cpu_count(), include_dashboard=False,
                 logging_level=logging.WARNING)


def check_out(out: Path, search: Search, resume: bool) -> None:
    """Refuse a --out that holds another search, or (with --resume) none or one with other settings."""
    settings = out / SETTINGS
    if not resume:
        if settings.exists():
            raise UserError(f"--out {out}: holds a search already; --resume goes on with it, or choose "
                            f"another folder")
        return
    if not settings.exists():
        raise UserError(f"--out {out}: no search to resume there (no {SETTINGS})")
    saved, given = json.loads(settings.read_text(encoding="utf-8")), json.loads(json.dumps(asdict(search)))
    if saved != given:
        changed = sorted(k for k in saved.keys() | given.keys() if saved.get(k) != given.get(k))
        raise UserError(f"--resume: the search in {out} was started with other settings ({', '.join(changed)}); "
                        f"give the same options")


def run_search(search: Search, space: list[Dimension], out: Path, resume: bool,
               progress: bool = True) -> tuple[dict[str, Any], float]:
    """The best parameters of the search (ties broken by the parameters, so that the order the trials
    finished in never matters) and their win rate on the search's games. Ray must be started."""
    os.environ.setdefault("RAY_AIR_NEW_OUTPUT", "0")  # with verbose=0: no tables of Ray Tune's on stdout
    import optuna
    from ray import tune
    from ray.tune.search import ConcurrencyLimiter
    from ray.tune.search.optuna import OptunaSearch

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    out.mkdir(parents=True, exist_ok=True)
    (out / SETTINGS).write_text(json.dumps(asdict(search), indent=1), encoding="utf-8")
    trainable = tune.with_resources(tune.with_parameters(_trial, search=search), {"cpu": 1})
    path = str((out / EXPERIMENT).resolve())
    run_config = tune.RunConfig(name=EXPERIMENT, storage_path=str(out.resolve()), verbose=0,
                                callbacks=[_progress_callback(search.trials)] if progress else [])
    if resume and tune.Tuner.can_restore(path):
        tuner = tune.Tuner.restore(path, trainable=trainable, resume_unfinished=True, resume_errored=True)
    else:
        searcher = OptunaSearch(metric="score", mode="max", sampler=optuna.samplers.TPESampler(seed=search.seed))
        limited = ConcurrencyLimiter(searcher, max_concurrent=search.concurrency, batch=search.concurrency > 1)
        # reuse_actors off: a trial run in a reused actor crashed (SIGSEGV) building its core player
        tuner = tune.Tuner(trainable, param_space={d.param.name: d.to_tune() for d in space},
                           tune_config=tune.TuneConfig(search_alg=limited, num_samples=search.trials,
                                                       reuse_actors=False, trial_dirname_creator=_dirname),
                           run_config=run_config)
    results = tuner.fit()
    finished = [r for r in results if r.error is None and r.metrics and "score" in r.metrics]
    if len(finished) < search.trials:
        failed = next((r.error for r in results if r.error is not None), None)
        if failed is not None:
            raise UserError(f"a trial failed: {str(failed).strip().splitlines()[-1]}")
        raise KeyboardInterrupt  # Ray Tune stopped on a signal, its state saved: --resume goes on
    best = min(finished, key=lambda r: (-r.metrics["score"], sorted(_rounded(r.config).items())))
    return _rounded(best.config), best.metrics["score"]


def measure(search: Search, params: dict[str, Any]) -> Outcome:
    """``params`` against the reference on ``measure_games`` fresh games, in chunks on Ray."""
    import ray

    remote = ray.remote(num_cpus=1)(play)
    chunks = [range(s, min(s + CHUNK, search.measure_games)) for s in range(0, search.measure_games, CHUNK)]
    outcomes = ray.get([remote.remote(search, params, search.measure_seed, ks) for ks in chunks])
    return Outcome(*(sum(getattr(o, f) for o in outcomes) for f in ("wins", "losses", "ties")))


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


def preset_text(name: str, search: Search, params: dict[str, Any], search_score: float, measured: Outcome) -> str:
    """The preset file: what plays (``player``, ``[params]``), then how it was found and measured."""
    from reports.stats import wilson

    low, high = wilson(measured.wins + 0.5 * measured.ties, measured.games)
    lines = [f"# The preset {name!r}, written by tashkalar tune-player; a study or the ladder names it "
             f"as the strategy {name!r}.",
             f"player = {_toml(search.player)}", "", "[params]",
             *(f"{k} = {_toml(v)}" for k, v in params.items()), "",
             "# the best parameters against the reference on fresh deals (not the search's)", "[measured]",
             f"reference = {_toml(search.reference)}", f"form = {_toml(search.form)}",
             f"decks = {_toml(['-'.join(d) for d in search.decks])}", f"games = {measured.games}",
             f"seed = {search.measure_seed}", f"wins = {measured.wins}", f"losses = {measured.losses}",
             f"ties = {measured.ties}", f"win_rate = {round(measured.score, DIGITS)}",
             f"interval = {_toml([round(low, DIGITS), round(high, DIGITS)])}  # 95% Wilson, ties half", "",
             "[search]", "sampler = \"Optuna TPE on Ray Tune\"", f"trials = {search.trials}",
             f"games_per_trial = {search.games_per_trial}", f"seed = {search.seed}",
             f"concurrency = {search.concurrency}", f"best_score = {round(search_score, DIGITS)}  # on the "
             f"search's own games: optimistic", f"space = {_toml(search.space)}", ""]
    return "\n".join(lines)
