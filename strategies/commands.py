"""The ``ladder`` command: a round robin between strategies with win rates and ratings."""

from __future__ import annotations

import re
from typing import Annotated, Any

import typer

from sim.errors import UserError, fail_cleanly
from sim.options import CardsOpt, at_least, json_flag, print_json

FORM_SPECIALISTS = {"high-form": "hunter", "deathmatch": "brawler", "melee-3": "brawler", "melee-4": "brawler",
                    "team-high-form": "hunter", "team-deathmatch": "brawler"}


def default_entrants(mode: str) -> list[str]:
    return ["random", "greedy", "builder", "planner", FORM_SPECIALISTS[mode]]


LABEL = re.compile(r"[A-Za-z0-9_.]+")


def parse_entrants(text: str) -> list[tuple[str, str]]:
    """``--strategies`` as (label, strategy) pairs: each entry is ``STRATEGY`` or ``LABEL=STRATEGY``."""
    out = []
    for entry in (e.strip() for e in text.split(",")):
        if not entry:
            continue
        label, eq, strategy = (x.strip() for x in entry.partition("="))
        if not eq:
            strategy = label
        if not LABEL.fullmatch(label) or not strategy:
            raise UserError(f"--strategies: expected STRATEGY or LABEL=STRATEGY (a label holds letters, digits, "
                            f"'_' and '.'), got {entry!r}")
        out.append((label, strategy))
    return out


def parse_params(texts: list[str], names: list[str]) -> dict[str, dict[str, Any]]:
    """``LABEL.NAME=VALUE`` options as parameters per entrant label (a label may hold dots: the parameter
    is the part after the last one)."""
    from strategies.params import parse_value

    out: dict[str, dict[str, Any]] = {}
    for text in texts:
        key, eq, value = text.partition("=")
        label, dot, name = key.strip().rpartition(".")
        if not eq or not dot or not name or not label:
            raise UserError(f"--param: expected STRATEGY.NAME=VALUE like builder.patterns=2, got {text!r}")
        if label not in names:
            raise UserError(f"--param {text!r}: {label!r} is not one of the ladder's strategies "
                            f"({', '.join(names)})")
        out.setdefault(label, {})[name] = parse_value(value)
    return out


def register(app: typer.Typer) -> None:
    from strategies import tune_command

    tune_command.register(app)

    @app.command()
    @fail_cleanly
    def ladder(
        forms: Annotated[str, typer.Option(
            metavar="FORM,...", help="high-form, deathmatch, melee-3, melee-4, team-high-form, team-deathmatch, "
                                     "or several separated by commas")] = "high-form",
        games: Annotated[int, typer.Option(
            metavar="N", help="games per pairing (even: each deal is played from both seats; a melee: a multiple "
                              "of twice the players)")] = 200,
        strategies: Annotated[str | None, typer.Option(
            metavar="NAME,...", help="strategy names separated by commas, each optionally under a label, "
                 "LABEL=STRATEGY (default: random, greedy, builder, planner and the form's specialist, hunter "
                 "or brawler)")] = None,
        param: Annotated[list[str] | None, typer.Option(
            metavar="STRATEGY.NAME=VALUE", help="a strategy's (or label's) parameter (repeatable)")] = None,
        decks: Annotated[str, typer.Option(
            metavar="PAIRING,...", help="deck pairings, e.g. imperial-imperial,highland-sylvan; 'all'; a melee "
                                     "takes tables (imperial-sylvan-highland) and plays every boxed table by "
                                     "default; a team game takes tables of 4 decks by seat (seats 0 and 2 "
                                     "are one team)", show_default="imperial-imperial")] = None,
        workers: Annotated[int | None, typer.Option(
            metavar="N", help="worker processes", show_default="all cores")] = None,
        seed: Annotated[int, typer.Option(metavar="N", help="the ladder's base seed")] = 1,
        json_out: bool = json_flag("the results instead of the Markdown"),
        cards_dir: CardsOpt = None,
        progress: Annotated[bool, typer.Option(help="show a live progress bar with an ETA (on stderr)")] = True,
    ) -> None:
        """Play a round robin between strategies; print each pairing's win rate (95% Wilson interval) and
        Elo-style ratings, as Markdown."""
        from rich.console import Console

        from pipelines.progress import GameProgress
        from sim.bench import machine, pairings
        from sim.cards import BASE_DECKS, load_card_set
        from sim.state import MODES
        from strategies.ladder import MELEE_SEATS, TEAM_FORMS, Entrant, render, run_ladder

        at_least("--games", games)
        at_least("--workers", workers)
        modes = [m.strip() for m in forms.split(",") if m.strip()]
        for m in modes:
            if m not in (*MODES, *MELEE_SEATS, *TEAM_FORMS):
                known = ", ".join((*MODES, *MELEE_SEATS, *TEAM_FORMS))
                raise UserError(f"--forms: unknown form {m!r}; expected {known}, comma-separated")
        card_set = load_card_set(cards_dir)
        base = [d for d in BASE_DECKS if d in card_set.decks]
        results = []
        for m in modes:
            seats = MELEE_SEATS.get(m, 4 if m in TEAM_FORMS else 2)
            text = decks or ("imperial-imperial" if seats == 2 else "imperial-imperial-imperial-imperial"
                             if m in TEAM_FORMS else "all")
            deck_pairs = pairings(text, base if text == "all" else sorted(card_set.decks), seats)
            labelled = parse_entrants(strategies) if strategies else [(n, n) for n in default_entrants(m)]
            params = parse_params(param or [], [label for label, _ in labelled])
            entrants = [Entrant(label, params.get(label, {}), strategy) for label, strategy in labelled]

            with GameProgress(None, 0, Console(stderr=True), progress, label=m) as bar:
                result = run_ladder(m, entrants, games, deck_pairs, workers=workers or 0, base_seed=seed,
                                    cards_dir=str(cards_dir) if cards_dir else None, progress=bar.show)
            results.append(result)
            if not json_out:
                typer.echo(render(result) + "\n")
        if json_out:
            print_json({"machine": machine(), "ladders": [r.to_dict() for r in results]})
        else:
            typer.echo(f"machine: {machine()}")

    @app.command("blind-spots")
    @fail_cleanly
    def blind_spots(
        strategies: Annotated[str, typer.Option(
            metavar="NAME,...", help="strategies to measure, separated by commas (each plays itself)")] = "planner",
        games: Annotated[int, typer.Option(metavar="N", help="mirror games per strategy and form")] = 100,
        forms: Annotated[str, typer.Option(
            metavar="FORM,...", help="high-form, deathmatch, or both separated by commas")] = "high-form,deathmatch",
        decks: Annotated[str, typer.Option(
            metavar="PAIRING,...", help="deck pairings played in turn, e.g. imperial-highland,sylvan-sylvan; 'all' "
                                     "(the nine ordered pairings of the base decks)")] = "all",
        seed: Annotated[int, typer.Option(metavar="N", help="the seed of the first game (game i: seed + i)")] = 1,
        param: Annotated[list[str] | None, typer.Option(
            metavar="STRATEGY.NAME=VALUE", help="a strategy's parameter (repeatable)")] = None,
        json_out: bool = json_flag("the counts"),
    ) -> None:
        """Count a player's blind spots in mirror games: returns when discarding, legend summons and flares
        offered against taken, discards while a summon is legal, how games end, optional effect choices."""
        from sim.bench import machine, pairings
        from sim.cards import BASE_DECKS, load_card_set
        from sim.state import MODES
        from strategies.blind_spots import measure, render

        at_least("--games", games)
        played = [m.strip() for m in forms.split(",") if m.strip()]
        for m in played:
            if m not in MODES:
                raise UserError(f"--forms: unknown form {m!r}; expected {', '.join(MODES)}, comma-separated")
        names = [s.strip() for s in strategies.split(",") if s.strip()]
        params = parse_params(param or [], names)
        card_set = load_card_set()
        base = [d for d in BASE_DECKS if d in card_set.decks]
        deck_pairs = pairings(decks, base if decks == "all" else sorted(card_set.decks))
        results = [measure(card_set, name, form, deck_pairs, games, seed, params.get(name))
                   for name in names for form in played]
        if json_out:
            print_json({"machine": machine(), "games": games, "seed": seed, "decks": ["-".join(p) for p in deck_pairs],
                        "results": [r.to_dict() for r in results]})
            return
        typer.echo(render(results))
