"""The search of ``tashkalar tune`` on Ray Tune: Optuna's TPE proposes candidates (seeded; the unchanged card
set first), each trial plays its candidate's games rung by rung in its own process, and a successive-halving
scheduler stops the candidates that are not among the best at a rung.

Reproducible: trials are proposed in batches of ``concurrency`` (a ConcurrencyLimiter in batch mode, as
tune-player does) and the scheduler compares a trial at a rung only with the trials of earlier batches, which
have all finished; so no decision depends on which trial reached a rung first, and the same seed gives the
same trials, stops and proposals. (Ray's ASHAScheduler compares with whatever trials got there first, which
depends on timing with more than one trial at a time.) The experiment's state is Ray Tune's checkpoint in
``DIR/search``, from which an interrupted search resumes (``Tuner.restore``; an unfinished trial replays its
games, which are the same).
"""

from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pipelines.balance.candidates import Choice, describe, digest, size, write_cards
from pipelines.balance.evaluate import Tally, play_rung
from pipelines.balance.objective import score
from pipelines.balance.space import Balance
from sim.errors import UserError

EXPERIMENT = "search"
SETTINGS = "settings.json"
INVALID = 100.0  # the loss of a candidate whose card set does not load
NUMBER = "n"  # the config key of a trial's number: the order Optuna proposed it in (kept in its checkpoint)


@dataclass(frozen=True)
class Settings:
    balance: Balance
    player: str
    seed: int
    concurrency: int
    out: str


def choice_of(config: dict[str, Any], balance: Balance) -> Choice:
    return tuple(config[f"c{i}"] for i in range(len(balance.changes)))


def _trial(config: dict[str, Any], settings: Settings) -> None:
    import time
    from collections import Counter

    from ray import tune

    started = time.process_time()
    balance = settings.balance
    choice = choice_of(config, balance)
    name = digest(balance, choice)
    common = {"candidate": name, "change": describe(balance, choice)}
    try:
        cards = write_cards(balance, choice, Path(settings.out) / "candidates" / name)
    except UserError as e:
        tune.report(common | {"loss": INVALID, "rung": 0, "games": 0, "valid": False, "error": str(e),
                              "rung_losses": "[]", "tally": "{}", "score": "{}",
                              "cpu_seconds": round(time.process_time() - started, 3)})
        return
    tally: Tally = Counter()
    losses: list[float] = []
    for rung in range(len(balance.games)):
        tally += play_rung(balance, settings.player, cards, settings.seed, rung)
        s = score(balance, tally, size(balance, choice))
        losses.append(round(s.loss, 6))
        tune.report(common | {"loss": losses[-1], "rung": rung + 1, "games": balance.games[rung], "valid": True,
                              "error": "", "rung_losses": json.dumps(losses), "tally": json.dumps(dict(tally)),
                              "score": json.dumps(s.to_dict()),
                              "cpu_seconds": round(time.process_time() - started, 3)})


def _numbered(**kwargs: Any) -> Any:
    """Optuna's searcher, numbering each proposal (``NUMBER``) by its Optuna trial number: sequential in the
    order of the proposals and saved with the searcher, so a resumed search numbers its trials as an
    uninterrupted one does (Ray Tune's own order of its trials is not kept by a restore)."""
    from ray.tune.search.optuna import OptunaSearch

    class Numbered(OptunaSearch):
        def suggest(self, trial_id: str) -> dict[str, Any] | None:
            config = super().suggest(trial_id)
            if isinstance(config, dict):
                config = config | {NUMBER: self._ot_trials[trial_id].number}
            return config

    return Numbered(**kwargs)


def _halving(batch: int, reduction: int) -> Any:
    from ray.tune.schedulers import FIFOScheduler, TrialScheduler

    class Halving(FIFOScheduler):
        """Successive halving that compares a trial at a rung with the trials of earlier batches only: it goes
        on when its loss is among the best 1/reduction of theirs and its own at that rung."""

        def __init__(self) -> None:
            super().__init__()
            self.batch, self.reduction = batch, reduction

        def on_trial_result(self, tune_controller: Any, trial: Any, result: dict[str, Any]) -> str:
            rung = result.get("rung", 0)
            mine = trial.config[NUMBER] // self.batch
            peers = []
            for t in tune_controller.get_trials():
                losses = json.loads((t.last_result or {}).get("rung_losses", "[]"))
                if t.config.get(NUMBER, mine * self.batch) // self.batch < mine and len(losses) >= rung > 0:
                    peers.append(losses[rung - 1])
            if not peers:
                return TrialScheduler.CONTINUE
            ranked = sorted([*peers, result["loss"]])
            keep = ranked[max(0, math.ceil(len(ranked) / self.reduction) - 1)]
            return TrialScheduler.CONTINUE if result["loss"] <= keep else TrialScheduler.STOP

    return Halving()


def _progress(total: int, rungs: int) -> Any:
    from ray import tune

    class Progress(tune.Callback):
        """A line on stderr per finished trial, with the best candidate so far (most games first)."""

        def on_trial_complete(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
            done = [t for t in trials if t.last_result and "loss" in t.last_result and t.is_finished()] + [trial]
            best = min(done, key=lambda t: (-t.last_result["rung"], t.last_result["loss"]))
            r = trial.last_result
            b = best.last_result
            print(f"trial {len({t.trial_id for t in done})}/{total}: loss {r['loss']:.4f} after rung {r['rung']}/"
                  f"{rungs} ({r['change']}); best so far: loss {b['loss']:.4f} at rung {b['rung']} ({b['change']})",
                  file=sys.stderr, flush=True)

    return Progress()


def _json(settings: Settings) -> dict[str, Any]:
    return json.loads(json.dumps(asdict(settings)))


def check_out(out: Path, settings: Settings, resume: bool) -> None:
    """Refuse a --out that holds another search, or (with --resume) none or one with other settings."""
    path = out / SETTINGS
    if not resume:
        if path.exists():
            raise UserError(f"--out {out}: holds a search already; --resume goes on with it, or choose another "
                            f"folder")
        return
    if not path.exists():
        raise UserError(f"--out {out}: no search to resume there (no {SETTINGS})")
    saved, given = json.loads(path.read_text(encoding="utf-8")), _json(settings)
    if saved != given:
        keys = sorted(k for k in saved.keys() | given.keys() if saved.get(k) != given.get(k))
        if "balance" in keys:
            keys.remove("balance")
            keys += sorted(f"balance.{k}" for k in saved["balance"].keys() | given["balance"].keys()
                           if saved["balance"].get(k) != given["balance"].get(k))
        raise UserError(f"--resume: the search in {out} was started with other settings ({', '.join(keys)}); "
                        f"give the same file and options")


@dataclass(frozen=True)
class TrialResult:
    number: int
    choice: Choice
    metrics: dict[str, Any]


def run_search(settings: Settings, resume: bool, progress: bool = True) -> list[TrialResult]:
    """Every trial's candidate and last result, in the order they were proposed. Ray must be started."""
    os.environ.setdefault("RAY_AIR_NEW_OUTPUT", "0")
    import optuna
    from ray import tune
    from ray.tune.search import ConcurrencyLimiter

    balance, out = settings.balance, Path(settings.out)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    out.mkdir(parents=True, exist_ok=True)
    (out / SETTINGS).write_text(json.dumps(_json(settings), indent=1), encoding="utf-8")
    trainable = tune.with_resources(tune.with_parameters(_trial, settings=settings), {"cpu": 1})
    path = str((out / EXPERIMENT).resolve())
    callbacks = [_progress(balance.trials, len(balance.games))] if progress else []
    run_config = tune.RunConfig(name=EXPERIMENT, storage_path=str(out.resolve()), verbose=0, callbacks=callbacks)
    if resume and tune.Tuner.can_restore(path):
        tuner = tune.Tuner.restore(path, trainable=trainable, resume_unfinished=True, resume_errored=True)
    else:
        space = {f"c{i}": tune.choice(list(c.values)) for i, c in enumerate(balance.changes)}
        base = {f"c{i}": c.current for i, c in enumerate(balance.changes)}
        searcher = _numbered(metric="loss", mode="min", points_to_evaluate=[base],
                                sampler=optuna.samplers.TPESampler(seed=settings.seed))
        limited = ConcurrencyLimiter(searcher, max_concurrent=settings.concurrency, batch=settings.concurrency > 1)
        # reuse_actors off (as tune-player): a trial run in a reused actor crashed building its core player
        tuner = tune.Tuner(trainable, param_space=space, run_config=run_config, tune_config=tune.TuneConfig(
            search_alg=limited, scheduler=_halving(settings.concurrency, balance.reduction),
            num_samples=balance.trials, reuse_actors=False, trial_dirname_creator=lambda t: f"trial_{t.trial_id}"))
    grid = tuner.fit()
    results = [grid[i] for i in range(len(grid))]
    done = [r for r in results if r.error is None and r.metrics and "loss" in r.metrics]
    if len(done) < balance.trials:
        failed = next((r.error for r in results if r.error is not None), None)
        if failed is not None:
            raise UserError(f"a trial failed: {str(failed).strip().splitlines()[-1]}")
        raise KeyboardInterrupt
    done.sort(key=lambda r: r.config[NUMBER])
    return [TrialResult(r.config[NUMBER], choice_of(r.config, balance), r.metrics) for r in done]
