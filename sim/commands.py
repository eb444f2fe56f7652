"""Commands of the rules engine: ``play``, ``cards``, ``bench``, ``scenario``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from sim.errors import UserError, fail_cleanly
from sim.files import read_text
from sim.narrate import result_line
from sim.options import CardsOpt, at_least, json_flag, print_json, table_decks
from strategies.registry import DEFAULT_STRATEGY


def _seat_names(option: str, names: list[str], players: int) -> list[str]:
    """One name per seat: as many names as players, or fewer, repeated in turn (``--players 4 --decks
    imperial-sylvan`` seats imperial, sylvan, imperial, sylvan)."""
    if not names or len(names) > players:
        raise UserError(f"{option}: expected 1 to {players} names for {players} players, got {len(names)}")
    return [names[i % len(names)] for i in range(players)]


def _players(players: int | None, decks: tuple[str, ...]) -> int:
    n = players if players is not None else max(2, len(decks))
    if not 2 <= n <= 4:
        raise UserError(f"--players: expected 2, 3 or 4, got {n}")
    return n


def _team_names(option: str, names: list[str]) -> list[str]:
    """A team game's names by seat (A1, B1, A2, B2): one name for every seat, two (team A's, team B's) or
    four."""
    if len(names) not in (1, 2, 4):
        raise UserError(f"{option}: a team game takes 1, 2 (team A's, team B's) or 4 names (seats A1, B1, A2, B2), "
                        f"got {len(names)}")
    return [names[i % len(names)] for i in range(4)]


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def register(app: typer.Typer) -> None:
    @app.command()
    @fail_cleanly
    def play(
        form: Annotated[str | None, typer.Option(
            metavar="FORM", help="high-form or deathmatch (default: high-form for 2 players, deathmatch for a "
                                 "3-4 player melee)")] = None,
        players: Annotated[int | None, typer.Option(
            metavar="N", help="2 players (a duel) or 3-4 (a Deathmatch melee); default: one per deck given")] = None,
        decks: Annotated[str, typer.Option(metavar="DECK-DECK", help="a deck per seat joined with '-', e.g. "
                                           "imperial-sylvan; fewer names than players are repeated in turn")] = (
            "imperial-imperial"),
        strategies: Annotated[str, typer.Option(metavar="NAME,...", help="a strategy per seat, e.g. "
                                                "random,builder; fewer names are repeated in turn")] = (
            DEFAULT_STRATEGY),
        seed: Annotated[int, typer.Option(metavar="N", help="the game's seed")] = 0,
        json_out: bool = json_flag("the game record (not the turns)"),
        cards_dir: CardsOpt = None,
        strict: Annotated[bool, typer.Option(help="check invariants after every step")] = True,
        teams: Annotated[bool, typer.Option(
            "--teams", help="a team game, 2 against 2: seats A1, B1, A2, B2 clockwise (team A = A1 and A2); "
                            "--decks and --strategies take 1, 2 (per team) or 4 names (per seat)")] = False,
    ) -> None:
        """Play one game and print it turn by turn with arena diagrams."""
        from sim.cards import load_card_set
        from sim.game import Game
        from sim.narrate import Narrator
        from strategies import make_strategy

        table = table_decks(decks)
        if teams:
            if players is not None:
                raise UserError("--teams seats 4 players (two teams of two): leave out --players")
            seats = 4
            form = form or "high-form"
            names, deck_names = _team_names("--strategies", _names(strategies)), _team_names("--decks", [*table])
        else:
            seats = _players(players, table)
            form = form or ("high-form" if seats == 2 else "deathmatch")
            names = _seat_names("--strategies", _names(strategies), seats)
            deck_names = _seat_names("--decks", [*table], seats)
        card_set = load_card_set(cards_dir)
        seated = [make_strategy(n, seat, seed) for seat, n in enumerate(names)]
        game = Game(card_set, form, deck_names, seated, seed, strict=strict, teams=teams)
        if not json_out:
            if teams:
                from sim.narrate import seat_label

                typer.echo("Team A: " + ", ".join(seat_label(game, s) for s in (0, 2))
                           + "; team B: " + ", ".join(seat_label(game, s) for s in (1, 3)))
            Narrator(game, sys.stdout).attach()
        record = game.play()
        if json_out:
            print_json(record.to_dict())
        else:
            typer.echo(result_line(record))

    @app.command()
    @fail_cleanly
    def cards(
        json_out: bool = json_flag("the card set"),
        deck: Annotated[str | None, typer.Option(
            metavar="DECK", help="only this deck (or 'legends', 'flares', 'tasks')")] = None,
        cards_dir: CardsOpt = None,
    ) -> None:
        """Print the card set: patterns and the project's own effect descriptions."""
        from sim.card_export import export_cards, render_cards

        card_set = __import__("sim.cards", fromlist=["load_card_set"]).load_card_set(cards_dir)
        if json_out:
            print_json(export_cards(card_set, deck))
        else:
            typer.echo(render_cards(card_set, deck))

    @app.command()
    @fail_cleanly
    def scenario(
        file: Annotated[Path, typer.Argument(metavar="SCENARIO_FILE",
                                             help="a scenario file (notation: docs/scenario-notation.md)")],
        summon: Annotated[str | None, typer.Option(
            metavar="CARD_ID", help="summon this card of the player's hand")] = None,
        at: Annotated[str | None, typer.Option(
            metavar="SQUARE", help="the summoning square for --summon, e.g. e5")] = None,
        strategy: Annotated[str, typer.Option(metavar="NAME", help="who takes the effect's decisions")] = (
            DEFAULT_STRATEGY),
        seed: Annotated[int, typer.Option(metavar="N", help="the strategy's seed")] = 0,
        cards_dir: CardsOpt = None,
    ) -> None:
        """Set up a position to check a card: list where each card in hand can be summoned, or summon one
        (--summon ID --at SQUARE) and show what its effect did."""
        from sim import board
        from sim.cards import load_card_set
        from sim.narrate import describe_event, expansion_lines
        from sim.scenario import load_scenario, render_arena
        from sim.state import MAX_SEATS
        from strategies import make_strategy

        text = read_text(file)
        players = [make_strategy(strategy, seat, seed) for seat in range(MAX_SEATS)]
        game = load_scenario(text, players, load_card_set(cards_dir), source=str(file))
        s, p = game.state, game.state.active
        in_hand = {c.id: c for c in (*s.hand[p], *s.legend_hand[p])}
        if summon is None:
            typer.echo(render_arena(s))
            for line in expansion_lines(s):
                typer.echo(line)
            for card in in_hand.values():
                squares = sorted({board.name(pl.origin) for pl in game.legal_placements(p, card)})
                improvised = sorted({f"{board.name(pl.origin)} (improvising with player {c + 1}'s piece)"
                                     for pl, c in game.improvised_placements(p, card)})
                typer.echo(f"{card.id}: {', '.join(squares + improvised) or 'cannot be summoned'}")
            return
        if summon not in in_hand:
            held = ", ".join(in_hand) or "empty"
            raise UserError(f"--summon: {summon!r} is not in player {p + 1}'s hand ({held})")
        if at is None:
            raise UserError("--summon needs --at, the summoning square")
        try:
            square = board.parse_square(at)
        except ValueError as e:
            raise UserError(f"--at: {e}") from None
        card = in_hand[summon]
        options = [pl for pl in game.legal_placements(p, card) if pl.origin == square]
        if not options:
            raise UserError(f"{summon} cannot be summoned at {at} in this position")
        typer.echo(render_arena(s))
        for line in expansion_lines(s):
            typer.echo(line)
        seen = len(s.record.events)
        with game.edit() as b:
            b.actions_left -= 1  # the summon is an action, as in play (effects may ask whether it was the last)
        game.summon(p, card, game.ask(p, "summon", options, card.id))
        for event in s.record.events[seen:]:
            text = describe_event(event, s.team_game)
            if text:
                typer.echo(text)
        typer.echo(render_arena(s))
        for line in expansion_lines(s):
            typer.echo(line)

    @app.command()
    @fail_cleanly
    def bench(
        games: Annotated[int, typer.Option(metavar="N", help="games per form and pairing")] = 300,
        decks: Annotated[str | None, typer.Option(
            metavar="PAIRING,...", help="pairings, e.g. imperial-imperial,everfrost-sylvan, or tables for a melee; "
                                     "'all' (the base decks), 'expansions' (every pairing or table with an "
                                     "expansion deck) or 'all+expansions'",
            show_default="imperial-imperial; a melee: all")] = None,
        strategies: Annotated[str, typer.Option(
            metavar="NAME,...", help="one strategy name per player, or one for every seat (default random, unlike "
                                     "the other commands: the bench measures the engine, not a player)")] = "random",
        players: Annotated[int, typer.Option(
            metavar="N", help="2 (both forms of the duel) or 3-4 (a Deathmatch melee: --decks takes tables like "
                              "imperial-sylvan-highland, or all)")] = 2,
        engine: Annotated[str, typer.Option(
            metavar="ENGINE", help="core (whole games in the core) or api (games through the Python API)")] = "core",
        json_out: bool = json_flag("the figures"),
        teams: Annotated[bool, typer.Option(
            "--teams", help="team games, 2 against 2, in both forms: --decks takes tables of 4 by seat (A1-B1-A2-B2, "
                            "e.g. imperial-sylvan-highland-imperial), or all")] = False,
    ) -> None:
        """Games per second on one core, for each form and deck pairing: of CPU time (this process's user and
        system time, steady under load) and of wall time (falls when the machine is shared)."""
        from sim.bench import run_bench

        at_least("--games", games)
        if teams and players != 2:
            raise UserError("--teams seats 4 players (two teams of two): leave out --players")
        decks = decks or ("imperial-imperial" if players == 2 and not teams else "all")
        results = run_bench(games, decks, [s.strip() for s in strategies.split(",")], engine, players, teams=teams)
        if json_out:
            print_json(results)
            return
        typer.echo(f"{'engine':<6} {'form':<11} {'decks':<33} {'strategies':<16} {'games/CPU-s':>11} "
                   f"{'games/wall-s':>12}")
        for r in results["results"]:
            typer.echo(f"{r['engine']:<6} {r['mode']:<11} {r['decks']:<33} {r['strategies']:<16} "
                       f"{r['games_per_cpu_second']:11.1f} {r['games_per_second']:12.1f} "
                       f"({r['games']} games, {r['mean_turns']:.1f} turns)")
        for s in results["spread"]:
            verdict = "every pairing within 2x" if s["within_2x"] else "NOT every pairing within 2x"
            typer.echo(f"{s['mode']}: fastest {s['fastest']}, slowest {s['slowest']}, {s['ratio']:.2f}x in "
                       f"games per CPU second: {verdict} of the fastest")
        typer.echo(f"machine: {results['machine']}")
