"""The ``tune`` command (the search: ``pipelines.balance.search``; the proposals: ``pipelines.balance.proposals``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from pipelines.raytune import ConcurrencyOpt, ProgressOpt, ResumeOpt, WorkersOpt
from sim.errors import UserError, fail_cleanly
from sim.options import AddressOpt, at_least, json_flag, print_json


def register(app: typer.Typer) -> None:
    @app.command("tune")
    @fail_cleanly
    def tune(
        balance_file: Annotated[Path, typer.Argument(metavar="BALANCE.toml", help="the search space and the "
                                                                                  "targets (docs/tuning.md)")],
        out: Annotated[Path, typer.Option(metavar="DIR", help="the search's folder: Ray Tune's state (for "
                                                              "--resume), proposals, tune.html")],
        player: Annotated[str | None, typer.Option(metavar="NAME", help="the player in both seats",
                                                   show_default="the default player")] = None,
        trials: Annotated[int | None, typer.Option(metavar="N", help="candidates tried",
                                                   show_default="the file's search.trials")] = None,
        seed: Annotated[int, typer.Option(metavar="N", help="the search's seed (games and sampler)")] = 1,
        concurrency: ConcurrencyOpt = 1,
        cards_dir: Annotated[Path | None, typer.Option(
            "--cards", metavar="CARDS_DIR", help="the card set tuned", show_default="the file's card_set")] = None,
        address: AddressOpt = None,
        workers: WorkersOpt = None,
        resume: ResumeOpt = False,
        json_out: bool = json_flag("the proposals"),
        progress: ProgressOpt = True,
    ) -> None:
        """Search changes to named cards that bring the decks' win rates (and the first player's, and skill
        depth) within their targets, on Ray Tune (Optuna TPE, successive halving), verify the best on fresh
        seeds and write them as card files with their diffs."""
        import ray

        from pipelines.balance.search import Settings, run_search, settings_json
        from pipelines.balance.space import load_balance
        from pipelines.raytune import check_out, connect, interruptible
        from strategies import make_strategy
        from strategies.registry import DEFAULT_STRATEGY

        at_least("--concurrency", concurrency)
        at_least("--workers", workers)
        balance = load_balance(balance_file, cards_dir)
        if trials is not None:
            at_least("--trials", trials)
            balance = replace(balance, trials=trials)
        player = player or DEFAULT_STRATEGY
        try:
            make_strategy(player, 0, 0)
        except UserError as e:
            raise UserError(f"--player: {e}") from None
        settings = Settings(balance, player, seed, concurrency, str(out.resolve()))
        check_out(out, settings_json(settings), resume)
        connect(address, workers)
        try:
            with interruptible(out):
                results = run_search(settings, resume, progress)
        finally:
            ray.shutdown()
        from pipelines.balance.proposals import finish

        result = finish(settings, results, address, workers)
        if json_out:
            print_json(result)
        else:
            typer.echo("\n".join(result["summary"]))
        typer.echo(f"wrote {out / 'proposals.md'}, {out / 'proposals.json'} and {out / 'tune.html'}", err=True)
