"""Ray Tune as this project's two searches run it (``tashkalar tune-player``: ``strategies.tune_player``;
``tashkalar tune``: ``pipelines.balance.search``): joining Ray, the search's folder, and a Tuner that proposes
reproducibly and resumes.

Reproducible: with ``concurrency`` N > 1, a ConcurrencyLimiter in batch mode proposes N trials at a time and
waits for all of them, so the proposals never depend on which trial finished first. Resumable: ``DIR/search``
is Ray Tune's experiment checkpoint and ``DIR/settings.json`` the search's settings; the same command with
``--resume`` checks the settings and goes on (``Tuner.restore``). Each trial runs in a process of its own
(``reuse_actors`` off: a trial in a reused actor once crashed building its core player).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.errors import UserError

EXPERIMENT = "search"  # the experiment's folder under --out
SETTINGS = "settings.json"  # the search's settings, checked again by --resume

ConcurrencyOpt = Annotated[int, typer.Option(
    metavar="N", help="trials run at once (proposed in batches of N, so results do not depend on timing)")]
WorkersOpt = Annotated[int | None, typer.Option(metavar="N", help="CPUs of the local Ray", show_default="all cores")]
ResumeOpt = Annotated[bool, typer.Option("--resume", help="go on with the interrupted search in --out")]
ProgressOpt = Annotated[bool, typer.Option(help="a line per finished trial, with the best so far (on stderr)")]


def connect(address: str | None, workers: int | None) -> None:
    """Join the Ray cluster at ``address`` (its workers must run this Ray and this core), or start a local Ray
    with ``workers`` CPUs."""
    import ray

    from pipelines.runner import _probe, check_versions

    if address:
        _probe(address)
        try:
            ray.init(address=address, logging_level=logging.WARNING)
        except ConnectionError as e:
            raise UserError(f"--address {address}: cannot join the Ray cluster ({e})") from None
        check_versions(address)
    else:
        logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
        ray.init(address="local", num_cpus=workers or os.cpu_count(), include_dashboard=False,
                 logging_level=logging.WARNING)


def _differences(saved: Any, given: Any, prefix: str = "") -> list[str]:
    """The keys (``balance.trials``) whose values differ between two JSON documents."""
    if not (isinstance(saved, dict) and isinstance(given, dict)):
        return [] if saved == given else [prefix]
    return [key for k in sorted(saved.keys() | given.keys())
            for key in _differences(saved.get(k), given.get(k), f"{prefix}{k}" if not prefix else f"{prefix}.{k}")]


def check_out(out: Path, settings: dict[str, Any], resume: bool) -> None:
    """Refuse an ``--out`` that holds another search, or (with ``--resume``) none, or one started with other
    ``settings`` (naming the keys that differ)."""
    path = out / SETTINGS
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out}: is a file, expected a folder")
    if not resume:
        if path.exists():
            raise UserError(f"--out {out}: holds a search already; --resume goes on with it, or choose another "
                            f"folder")
        return
    if not path.exists():
        raise UserError(f"--out {out}: no search to resume there (no {SETTINGS})")
    keys = _differences(json.loads(path.read_text(encoding="utf-8")), json.loads(json.dumps(settings)))
    if keys:
        raise UserError(f"--resume: the search in {out} was started with other settings ({', '.join(keys)}); "
                        f"give the same file and options")


def fit(trial: Callable[..., None], arguments: dict[str, Any], out: Path, settings: dict[str, Any], resume: bool, *,
        searcher: Any, param_space: dict[str, Any], trials: int, concurrency: int, metric: str,
        scheduler: Any = None, callbacks: Sequence[Any] = ()) -> list[Any]:
    """Run the search in ``out`` (or go on with it: ``resume``) and return the results of its ``trials``
    trials, each of which reported ``metric``. ``trial(config, **arguments)`` runs a trial; ``searcher``
    proposes (unless resumed: then the checkpoint's searcher does). Raises KeyboardInterrupt when a signal
    stopped the search (its state saved for ``--resume``), a UserError with the error of a trial that failed.
    Ray must be started."""
    os.environ.setdefault("RAY_AIR_NEW_OUTPUT", "0")  # with verbose=0: no tables of Ray Tune's on stdout
    import optuna
    from ray import tune
    from ray.tune.search import ConcurrencyLimiter

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    out.mkdir(parents=True, exist_ok=True)
    (out / SETTINGS).write_text(json.dumps(settings, indent=1), encoding="utf-8")
    trainable = tune.with_resources(tune.with_parameters(trial, **arguments), {"cpu": 1})
    path = str((out / EXPERIMENT).resolve())
    if resume and tune.Tuner.can_restore(path):
        tuner = tune.Tuner.restore(path, trainable=trainable, resume_unfinished=True, resume_errored=True)
    else:
        limited = ConcurrencyLimiter(searcher, max_concurrent=concurrency, batch=concurrency > 1)
        tuner = tune.Tuner(
            trainable, param_space=param_space,
            run_config=tune.RunConfig(name=EXPERIMENT, storage_path=str(out.resolve()), verbose=0,
                                      callbacks=list(callbacks)),
            tune_config=tune.TuneConfig(search_alg=limited, scheduler=scheduler, num_samples=trials,
                                        reuse_actors=False, trial_dirname_creator=lambda t: f"trial_{t.trial_id}"))
    grid = tuner.fit()
    results = [grid[i] for i in range(len(grid))]
    done = [r for r in results if r.error is None and r.metrics and metric in r.metrics]
    if len(done) < trials:
        failed = next((r.error for r in results if r.error is not None), None)
        if failed is not None:
            raise UserError(f"a trial failed: {str(failed).strip().splitlines()[-1]}")
        raise KeyboardInterrupt
    return done


def progress(metric: str, line: Callable[[int, list[Any], Any], str]) -> Any:
    """A Ray Tune callback that prints ``line(count, done, trial)`` on stderr as each trial finishes:
    ``done`` is every finished trial that reported ``metric``, ``trial`` among them, ``count`` how many."""
    import sys

    from ray import tune

    class Progress(tune.Callback):
        def on_trial_complete(self, iteration: int, trials: list[Any], trial: Any, **info: Any) -> None:
            done = {t.trial_id: t for t in trials if t.is_finished() and metric in (t.last_result or {})}
            done[trial.trial_id] = trial
            print(line(len(done), list(done.values()), trial), file=sys.stderr, flush=True)

    return Progress()


@contextmanager
def interruptible(out: Path) -> Iterator[None]:
    """Ctrl-C during a search: one line saying where its state is, exit status 130."""
    try:
        yield
    except KeyboardInterrupt:
        typer.echo(f"interrupted: the search's state is in {out}; --resume goes on with it", err=True)
        raise typer.Exit(130) from None
