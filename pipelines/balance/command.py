"""The ``tune`` command (the search: ``pipelines.balance.search``; the proposals: ``pipelines.balance.proposals``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from sim.errors import UserError, fail_cleanly
from sim.options import AddressOpt, at_least, json_flag, print_json


def register(app: typer.Typer) -> None:
    @app.command("tune")
    @fail_cleanly
    def tune(
        balance_file: Annotated[Path, typer.Argument(metavar="BALANCE.toml", help="the search space and the "
                                                                                  "targets (docs/tuning.md)")],
        out: Annotated[Path, typer.Option(metavar="DIR", help="the search's folder: Ray Tune's state (for "
                                                              "--resume), candidates, proposals, tune.html")],
        player: Annotated[str | None, typer.Option(metavar="NAME", help="the player in both seats",
                                                   show_default="the default player")] = None,
        trials: Annotated[int | None, typer.Option(metavar="N", help="candidates tried",
                                                   show_default="the file's search.trials")] = None,
        seed: Annotated[int, typer.Option(metavar="N", help="the search's seed (games and sampler)")] = 1,
        concurrency: Annotated[int, typer.Option(
            metavar="N", help="trials run at once (proposed in batches of N, so results do not depend on "
                              "timing)")] = 1,
        cards_dir: Annotated[Path | None, typer.Option(
            "--cards", metavar="CARDS_DIR", help="the card set tuned", show_default="the file's card_set")] = None,
        address: AddressOpt = None,
        workers: Annotated[int | None, typer.Option(metavar="N", help="CPUs of the local Ray",
                                                    show_default="all cores")] = None,
        resume: Annotated[bool, typer.Option("--resume", help="go on with the interrupted search in --out")] = (
            False),
        json_out: bool = json_flag("the proposals"),
        progress: Annotated[bool, typer.Option(help="a line per finished trial, with the best so far (on "
                                                    "stderr)")] = True,
    ) -> None:
        """Search changes to named cards that bring the decks' win rates (and the first player's, and skill
        depth) within their targets, on Ray Tune (Optuna TPE, successive halving), verify the best on fresh
        seeds and write them as card files with their diffs."""
        import ray

        from pipelines.balance.search import Settings, check_out, run_search
        from pipelines.balance.space import load_balance
        from strategies import make_strategy
        from strategies.registry import DEFAULT_STRATEGY
        from strategies.tune_player import connect

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
        if out.exists() and not out.is_dir():
            raise UserError(f"--out {out}: is a file, expected a folder")
        settings = Settings(balance, player, seed, concurrency, str(out.resolve()))
        check_out(out, settings, resume)
        connect(address, workers)
        try:
            trials = run_search(settings, resume, progress)
        except KeyboardInterrupt:
            typer.echo(f"interrupted: the search's state is in {out}; --resume goes on with it", err=True)
            raise typer.Exit(130) from None
        finally:
            ray.shutdown()
        from pipelines.balance.proposals import finish

        result = finish(settings, trials, address, workers)
        if json_out:
            print_json(result)
        else:
            typer.echo("\n".join(result["summary"]))
        typer.echo(f"wrote {out / 'proposals.md'}, {out / 'proposals.json'} and {out / 'tune.html'}", err=True)
