"""The ``ladder`` command: a round robin between strategies with win rates and ratings."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.errors import UserError, fail_cleanly
from sim.options import at_least

FORM_SPECIALISTS = {"high-form": "hunter", "deathmatch": "brawler"}


def default_entrants(mode: str) -> list[str]:
    return ["random", "greedy", "builder", FORM_SPECIALISTS[mode]]


def parse_params(texts: list[str], names: list[str]) -> dict[str, dict[str, Any]]:
    """``STRATEGY.NAME=VALUE`` options as parameters per strategy."""
    from strategies.params import parse_value

    out: dict[str, dict[str, Any]] = {}
    for text in texts:
        key, eq, value = text.partition("=")
        strategy, dot, name = key.strip().partition(".")
        if not eq or not dot or not name:
            raise UserError(f"--param: expected STRATEGY.NAME=VALUE like builder.patterns=2, got {text!r}")
        if strategy not in names:
            raise UserError(f"--param {text!r}: {strategy!r} is not one of the ladder's strategies "
                            f"({', '.join(names)})")
        out.setdefault(strategy, {})[name] = parse_value(value)
    return out


def _progress(label: str, done: int, total: int) -> None:
    if not sys.stderr.isatty():
        return
    sys.stderr.write(f"\r{label}: {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")


def register(app: typer.Typer) -> None:
    @app.command()
    @fail_cleanly
    def ladder(
        mode: Annotated[str, typer.Option(
            metavar="FORMS", help="high-form, deathmatch, or both separated by a comma")] = (
            "high-form"),
        games: Annotated[int, typer.Option(
            metavar="N", help="games per pairing (even: each deal is played from both seats)")] = 200,
        strategies: Annotated[str | None, typer.Option(
            metavar="NAMES", help="strategy names separated by commas (default: random, greedy, builder and the form's "
                 "specialist, hunter or brawler)")] = None,
        param: Annotated[list[str] | None, typer.Option(
            metavar="STRATEGY.NAME=VALUE", help="a strategy parameter (repeatable)")] = None,
        decks: Annotated[str, typer.Option(
            metavar="PAIRINGS", help="deck pairings, e.g. imperial-imperial,highland-sylvan; 'all'")] = (
            "imperial-imperial"),
        workers: Annotated[int | None, typer.Option(
            metavar="N", help="worker processes", show_default="one per core")] = None,
        seed: Annotated[int, typer.Option(metavar="N", help="the ladder's base seed")] = 1,
        json_out: Annotated[Path | None, typer.Option("--json", metavar="FILE.json",
                                                      help="also write the results as JSON")] = (
            None),
        cards_dir: Annotated[Path | None, typer.Option("--cards", metavar="CARDS_DIR",
                                                       help="a card-set directory")] = None,
    ) -> None:
        """Play a round robin between strategies; print each pairing's win rate (95% Wilson interval) and
        Elo-style ratings, as Markdown."""
        from sim.bench import machine, pairings
        from sim.cards import BASE_DECKS, load_card_set
        from sim.state import MODES
        from strategies.ladder import Entrant, render, run_ladder

        at_least("--games", games)
        at_least("--workers", workers)
        modes = [m.strip() for m in mode.split(",") if m.strip()]
        for m in modes:
            if m not in MODES:
                raise UserError(f"--mode: unknown form {m!r}; expected {', '.join(MODES)} "
                                "or both, comma-separated")
        card_set = load_card_set(cards_dir)
        deck_pairs = pairings(decks, [d for d in BASE_DECKS if d in card_set.decks] if decks == "all"
                              else sorted(card_set.decks))
        results = []
        for m in modes:
            names = ([s.strip() for s in strategies.split(",") if s.strip()] if strategies
                     else default_entrants(m))
            params = parse_params(param or [], names)
            entrants = [Entrant(n, params.get(n, {})) for n in names]

            result = run_ladder(m, entrants, games, deck_pairs, workers=workers or 0, base_seed=seed,
                                cards_dir=str(cards_dir) if cards_dir else None,
                                progress=functools.partial(_progress, m))
            results.append(result)
            typer.echo(render(result) + "\n")
        typer.echo(f"machine: {machine()}")
        if json_out is not None:
            json_out.write_text(json.dumps({"machine": machine(), "ladders": [r.to_dict() for r in results]},
                                           indent=1))
            typer.echo(f"wrote {json_out}")
