"""The ``tune-player`` command (the search itself: ``strategies.tune_player``)."""

from __future__ import annotations

import tomllib
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from pipelines.raytune import ConcurrencyOpt, ProgressOpt, ResumeOpt, WorkersOpt
from sim.errors import UserError, fail_cleanly
from sim.options import AddressOpt, CardsOpt, at_least, json_flag, print_json


def register(app: typer.Typer) -> None:
    @app.command("tune-player")
    @fail_cleanly
    def tune_player(
        out: Annotated[Path, typer.Option(metavar="DIR", help="the search's folder (Ray Tune's experiment "
                                                              "state, for --resume)")],
        player: Annotated[str, typer.Option(metavar="NAME", help="the player whose parameters are searched: "
                                                                 "greedy, builder, hunter, brawler, swift")] = (
            "builder"),
        reference: Annotated[str, typer.Option(metavar="NAME", help="the strategy (or preset) it plays "
                                                                    "against")] = "builder",
        space: Annotated[Path | None, typer.Option(
            metavar="FILE.toml", help="the parameters searched and their ranges",
            show_default="the player's weights, 0 to twice the default")] = None,
        param: Annotated[list[str] | None, typer.Option(
            metavar="NAME=VALUE", help="a parameter of the player held at VALUE in every trial and written into "
                                       "the preset (repeatable)")] = None,
        trials: Annotated[int, typer.Option(metavar="N", help="parameter sets tried")] = 40,
        games_per_trial: Annotated[int, typer.Option(
            metavar="N", help="games per trial and form, the same deals for every trial (even: each deal "
                              "from both seats)")] = 200,
        measure_games: Annotated[int, typer.Option(
            metavar="N", help="games per form on fresh deals that measure the best parameters (even)")] = 1000,
        form: Annotated[str, typer.Option(metavar="FORM,...", help="high-form, deathmatch, or both separated by "
                                                                    "a comma (every trial plays its games in "
                                                                    "each)")] = "high-form",
        decks: Annotated[str, typer.Option(metavar="PAIRING,...", help="deck pairings played in turn, e.g. "
                                                                       "imperial-sylvan; 'all'")] = "all",
        seed: Annotated[int, typer.Option(metavar="N", help="the search's seed (deals and sampler)")] = 1,
        concurrency: ConcurrencyOpt = 1,
        name: Annotated[str | None, typer.Option(
            metavar="PRESET", help="the preset written", show_default="PLAYER_tuned")] = None,
        address: AddressOpt = None,
        workers: WorkersOpt = None,
        resume: ResumeOpt = False,
        force: Annotated[bool, typer.Option("--force", help="replace a preset of that name")] = False,
        json_out: bool = json_flag("the preset"),
        cards_dir: CardsOpt = None,
        progress: ProgressOpt = True,
    ) -> None:
        """Tune a player's parameters by self-play against a reference on Ray Tune (Optuna TPE),
        measure the best on fresh deals and write it as a named preset."""
        from pipelines.raytune import check_out, connect, interruptible
        from sim.bench import pairings
        from sim.cards import BASE_DECKS, load_card_set
        from sim.state import MODES
        from strategies import STRATEGIES, make_strategy
        from strategies.tune_player import Search, measure, preset_text, run_search
        from strategies.tune_space import default_space, fixed_params, load_space
        from strategies.tuned import NAME, SHIPPED, is_shipped, presets_dir

        for option, value, minimum in (("--trials", trials, 1), ("--games-per-trial", games_per_trial, 2),
                                       ("--measure-games", measure_games, 2), ("--concurrency", concurrency, 1)):
            at_least(option, value, minimum)
        at_least("--workers", workers)
        for option, value in (("--games-per-trial", games_per_trial), ("--measure-games", measure_games)):
            if value % 2:
                raise UserError(f"{option}: expected an even number (each deal from both seats), got {value}")
        forms = form.split(",")
        if any(f not in MODES for f in forms) or len(set(forms)) < len(forms):
            raise UserError(f"--form: expected {', '.join(MODES)} or both separated by a comma, got {form!r}")
        name = name or f"{player}_tuned"
        make_strategy(player, 0, 0)
        if not NAME.fullmatch(name) or name in STRATEGIES:
            raise UserError(f"--name: expected a new name of lowercase letters, digits and '_' (not a built-in "
                            f"strategy), got {name!r}")
        make_strategy(reference, 0, 0)
        dimensions = load_space(space, player) if space is not None else default_space(player)
        fixed = fixed_params(player, param or [], dimensions)
        target = presets_dir() / f"{name}.toml"
        if presets_dir().resolve() != SHIPPED.resolve() and is_shipped(name):
            raise UserError(f"--name: {name!r} is a preset shipped with the code (read before "
                            f"$TASHKALAR_PRESETS); choose another name")
        if target.exists() and not force:
            raise UserError(f"--name: the preset {target} exists; --force replaces it")
        card_set = load_card_set(cards_dir)
        deck_pairs = pairings(decks, [d for d in BASE_DECKS if d in card_set.decks] if decks == "all"
                              else sorted(card_set.decks))
        search = Search(player, reference, form, [list(d) for d in deck_pairs], trials, games_per_trial,
                        measure_games, seed, concurrency, {d.param.name: d.to_dict() for d in dimensions},
                        str(cards_dir.resolve()) if cards_dir else None, fixed)
        check_out(out, asdict(search), resume)

        connect(address, workers)
        with interruptible(out):
            best, search_score = run_search(search, dimensions, out, resume, progress)
        typer.echo(f"best of {trials} trials: {100 * search_score:.1f}% on the search's games; measuring it "
                   f"on {measure_games} fresh games", err=True)
        measured = measure(search, best)
        target.parent.mkdir(parents=True, exist_ok=True)
        text = preset_text(name, search, best, search_score, measured)
        target.write_text(text, encoding="utf-8")
        if json_out:
            print_json(tomllib.loads(text))
        else:
            typer.echo(text)
        typer.echo(f"wrote {target}", err=True)
