"""The search of ``tashkalar tune`` on Ray Tune: Optuna's TPE proposes candidates (seeded; the unchanged card
set first), each trial plays its candidate's games rung by rung in its own process, and a successive-halving
scheduler stops the candidates that are not among the best at a rung.

Reproducible: trials are proposed in batches of ``concurrency`` (``pipelines.raytune``, as tune-player) and
the scheduler compares a trial at a rung only with the trials of earlier batches, which
have all finished; so no decision depends on which trial reached a rung first, and the same seed gives the
same trials, stops and proposals. (Ray's ASHAScheduler compares with whatever trials got there first, which
depends on timing with more than one trial at a time.) An interrupted search resumes from Ray Tune's
checkpoint (``pipelines.raytune``; an unfinished trial replays its games, which are the same).
"""

from __future__ import annotations

import json
import math
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pipelines.balance.candidates import Choice, describe, digest, size, write_cards
from pipelines.balance.evaluate import Tally, play_rung
from pipelines.balance.objective import score
from pipelines.balance.space import Balance
from pipelines.raytune import fit, progress
from sim.errors import UserError

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
    """Play the candidate's games rung by rung, reporting after each. Its card files are written in a
    scratch folder of the node it runs on, from the tuned set's texts the settings carry."""
    with tempfile.TemporaryDirectory(prefix="tashkalar-tune-") as scratch:
        _play_candidate(config, settings, Path(scratch))


def _play_candidate(config: dict[str, Any], settings: Settings, scratch: Path) -> None:
    import ray
    from ray import tune

    started = time.process_time()
    balance = settings.balance
    choice = choice_of(config, balance)
    name = digest(balance, choice)
    common = {"candidate": name, "change": describe(balance, choice),
              "node": ray.get_runtime_context().get_node_id()}
    try:
        cards = write_cards(balance, choice, scratch / name)
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


def _progress_line(total: int, rungs: int) -> Callable[[int, list[Any], Any], str]:
    """A finished trial's line, with the best candidate so far (most games first)."""

    def line(count: int, done: list[Any], trial: Any) -> str:
        r = trial.last_result
        b = min(done, key=lambda t: (-t.last_result["rung"], t.last_result["loss"])).last_result
        return (f"trial {count}/{total}: loss {r['loss']:.4f} after rung {r['rung']}/{rungs} ({r['change']}); "
                f"best so far: loss {b['loss']:.4f} at rung {b['rung']} ({b['change']})")

    return line


def settings_json(settings: Settings) -> dict[str, Any]:
    """The settings as ``settings.json`` keeps them (checked again by ``--resume``)."""
    return json.loads(json.dumps(asdict(settings)))


@dataclass(frozen=True)
class TrialResult:
    number: int
    choice: Choice
    metrics: dict[str, Any]


def run_search(settings: Settings, resume: bool, show: bool = True) -> list[TrialResult]:
    """Every trial's candidate and last result, in the order they were proposed. Ray must be started."""
    import optuna
    from ray import tune

    balance = settings.balance
    searcher = _numbered(metric="loss", mode="min",
                         points_to_evaluate=[{f"c{i}": c.current for i, c in enumerate(balance.changes)}],
                         sampler=optuna.samplers.TPESampler(seed=settings.seed))
    done = fit(_trial, {"settings": settings}, Path(settings.out), settings_json(settings), resume,
               searcher=searcher, param_space={f"c{i}": tune.choice(list(c.values))
                                               for i, c in enumerate(balance.changes)},
               trials=balance.trials, concurrency=settings.concurrency, metric="loss",
               scheduler=_halving(settings.concurrency, balance.reduction),
               callbacks=[progress("loss", _progress_line(balance.trials, len(balance.games)))] if show else [])
    done.sort(key=lambda r: r.config[NUMBER])
    return [TrialResult(r.config[NUMBER], choice_of(r.config, balance), r.metrics) for r in done]
