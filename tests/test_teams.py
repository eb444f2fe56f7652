"""Team games, 2 against 2, through the Python layers: the API (seats, sides and views), the record and its
mirror of the core's, passing control from a Python strategy, the scenario notation, ``tashkalar play
--teams`` and ``bench --teams``. The rules themselves are tested in the core (core/engine/src/team_tests.rs)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from typer.testing import CliRunner

from sim import core
from sim.cards import load_card_set
from sim.cli import app
from sim.decisions import Action, Decision, PlayerView
from sim.errors import UserError
from sim.game import Game
from sim.record import Draw, PassControl
from sim.state import SIDEWAYS, seat_name
from strategies import make_strategy
from strategies.random_player import RandomStrategy

TABLE = ("imperial", "sylvan", "highland", "imperial")
FORMS = ("high-form", "deathmatch")
PASS = Action("pass")


def team_game(seed: int, mode: str = "high-form", players=None, **options) -> Game:
    players = players or [make_strategy("random", seat, seed) for seat in range(4)]
    return Game(load_card_set(), mode, TABLE, players, seed, teams=True, strict=True, **options)


class AskedRandom(RandomStrategy):
    """The random player asked in Python (a subclass is not played by the core), recording what it was asked."""

    def __init__(self, seed: int, passes: str | None = "") -> None:
        super().__init__(seed)
        # "action": pass control before an action; "effect": in the middle of an effect; "": never; None: as
        # the core's random player (any option, the pass included)
        self.passes = passes
        self.asked: list[tuple[int, int | None, Decision]] = []  # (seat, controller, decision)

    def choose(self, view: PlayerView, decision: Decision) -> int:
        self.asked.append((view.seat, view.controller, decision))
        if self.passes is None:
            return self._rng.randrange(len(decision.options))
        if PASS in decision.options and self.passes == ("action" if decision.kind == "action" else "effect"):
            return decision.options.index(PASS)
        options = [i for i, o in enumerate(decision.options) if o != PASS]
        return options[self._rng.randrange(len(options))]


# ----- the API
def test_a_team_game_needs_four_decks_and_four_strategies() -> None:
    cards = load_card_set()
    with pytest.raises(UserError, match="team game needs 4 players"):
        Game(cards, "high-form", TABLE[:2], [make_strategy("random", s, 0) for s in range(2)], 0, teams=True)
    with pytest.raises(UserError, match="got 4 decks and 3 strategies"):
        Game(cards, "deathmatch", TABLE, [make_strategy("random", s, 0) for s in range(3)], 0, teams=True)


@pytest.mark.parametrize("mode", FORMS)
def test_the_setup_deals_each_seat_its_beings_and_flare_and_the_first_two_seats_the_legends(mode: str) -> None:
    for seed in range(6):
        game = team_game(seed, mode)
        game.setup()
        s = game.state
        assert s.team_game and s.seats == 2 and s.players == 4
        first = s.record.first_player
        t = s.teams
        assert t.turn_seat == first and s.active == first % 2 and s.first_player == first % 2
        assert t.holder == [first, (first + 1) % 4][::1 if first % 2 == 0 else -1]
        assert s.seat_of(first % 2) == first
        for seat in range(4):
            m = s.member(seat)
            assert len(m.hand) == 3 and len(m.flare_hand) == 1 and m.deck_name == TABLE[seat]
            assert s.upright(seat) == len(m.deck) - SIDEWAYS > 0
        assert [len(h) for h in s.legend_hand] == [2, 2]
        legend_drawers = {e.seat for e in s.record.of_kind(Draw) if e.deck == "legend"}
        assert legend_drawers == {first, (first + 1) % 4}
        assert s.clone(random.Random(0)).teams == s.teams and s.clone(random.Random(0)).teams is not s.teams


@pytest.mark.parametrize("mode", FORMS)
def test_the_legends_go_to_the_teammate_and_the_deck_trigger_is_the_last_upright_card(mode: str) -> None:
    game = team_game(3, mode)
    seen: list[tuple[int, int, bool]] = []

    def after(g: Game) -> None:
        s = g.state
        seat = s.teams.turn_seat if s.counters.extra_turn else (s.teams.turn_seat - 1) % 4
        side = seat % 2
        if not s.counters.extra_turn:
            assert s.teams.holder[side] == (seat + 2) % 4  # handed over with the legends
        else:
            assert s.teams.holder[side] == seat
        if s.end_trigger == "deck" and not any(t for *_, t in seen):
            assert s.upright(seat) == 0 and len(s.member(seat).deck) > 0  # the sideways cards remain
        seen.append((s.turn, seat, s.end_trigger == "deck"))

    game.turn_listeners.append(after)
    record = game.play()
    assert record.end_reason == "deck" and any(t for *_, t in seen)
    seats = [seat for _, seat, _ in seen]
    assert seats[:4] == [(record.first_player + i) % 4 for i in range(4)]


def test_views_are_by_seat_and_a_sandbox_hides_the_teammates_hand() -> None:
    game = team_game(2)
    game.setup()
    s = game.state
    first = s.teams.turn_seat
    view = game.views[first]
    assert view.player == first % 2 and view.seat == first and view.team_game and view.players == 4
    assert view.teammate == (first + 2) % 4 and view.turn_seat == first and view.controller is None
    assert view.opponent == 1 - first % 2 and view.upright(first) == s.upright(first)
    assert view.seat_hand_sizes((first + 2) % 4) == (3, 1)
    sandbox = view.sandbox(random.Random(1))
    mate = s.member((first + 2) % 4)
    other = sandbox.member((first + 2) % 4)
    assert len(other.hand) == 3 and sorted(c.index for c in other.hand + other.deck) == sorted(
        c.index for c in mate.hand + mate.deck)
    assert sandbox.hand[first % 2] == s.hand[first % 2]


# ----- passing control
def test_a_python_strategy_passes_control_before_an_action_and_the_teammate_only_places() -> None:
    players = [AskedRandom(seat, passes="action" if seat % 2 == 0 else "") for seat in range(4)]
    game = team_game(5, "high-form", players, ask_all=True)
    record = game.play()
    passes = record.of_kind(PassControl)
    assert passes and all(e.seat % 2 == 0 and e.to == (e.seat + 2) % 4 and e.during == "" for e in passes)
    taken_over = [(seat, d) for p in players for seat, controller, d in p.asked if controller == seat]
    assert taken_over
    for seat, d in taken_over:
        assert d.player == seat % 2
        if d.kind == "action":
            assert d.options == [Action("place")]


def test_control_passes_in_the_middle_of_an_effect_and_the_teammate_finishes_it() -> None:
    found = False
    for seed in range(20):
        players = [AskedRandom(seed * 4 + seat, passes="effect") for seat in range(4)]
        game = team_game(seed, "deathmatch", players)
        record = game.play()
        inside = [e for e in record.of_kind(PassControl) if e.during]
        if not inside:
            continue
        found = True
        e = inside[0]
        mate = players[e.to]
        answers = [(seat, ctrl, d) for seat, ctrl, d in mate.asked if ctrl == e.to]
        assert answers and all(PASS not in d.options for _, _, d in answers)
        asked_turn = [d for seat, ctrl, d in mate.asked if ctrl == e.to and d.kind == "action"]
        assert all(d.options == [Action("place")] for d in asked_turn)
        break
    assert found


# ----- the record
@pytest.mark.parametrize("mode", FORMS)
def test_a_team_record_names_real_seats_and_scores_per_team(mode: str) -> None:
    record = team_game(7, mode).play()
    assert record.teams and record.config["teams"] is True and len(record.config["decks"]) == 4
    assert len(record.scores) == 2 and record.winner in (-1, 0, 1) and 0 <= record.first_player < 4
    assert {e.seat for e in record.events} <= {-1, 0, 1, 2, 3}
    assert {e.seat for e in record.events if e.kind == "held"} == {0, 1, 2, 3}
    data = json.loads(json.dumps(record.to_dict()))
    assert list(data["config"]) == ["mode", "decks", "strategies", "seed", "teams"]


@pytest.mark.parametrize("mode", FORMS)
def test_python_records_of_team_games_are_the_cores_records(mode: str) -> None:
    """Whole games (one call into the core) and games asked in Python at every decision with the state handed
    over each turn give the record the core writes (the digests of scripts/golden_records.py)."""
    cards = load_card_set()
    digests = core.record_digests(cards, mode, TABLE, ("random",) * 4, (0, 8), 1, teams=True)
    for seed in range(8):
        whole = team_game(seed, mode).play()
        players = [AskedRandom(0, passes=None) for _ in range(4)]
        for p, native in zip(players, [make_strategy("random", s, seed) for s in range(4)], strict=True):
            p._rng = native._rng
        asked = team_game(seed, mode, players)
        asked.turn_listeners.append(lambda g: g.state.check_invariants())
        for record in (whole, asked.play()):
            line = json.dumps(record.to_dict(), separators=(",", ":"))
            assert hashlib.sha256(line.encode()).hexdigest()[:32] == digests[seed], (mode, seed)


@pytest.mark.parametrize("mode", FORMS)
def test_hundreds_of_strict_random_team_games_through_the_api(mode: str) -> None:
    for seed in range(150):
        decks = tuple(("imperial", "sylvan", "highland")[(seed // (i + 1) + i) % 3] for i in range(4))
        players = [make_strategy("random", seat, seed) for seat in range(4)]
        record = Game(load_card_set(), mode, decks, players, seed, teams=True, strict=True).play()
        assert len(record.scores) == 2 and record.end_reason


# ----- the scenario notation
TEAM_SCENARIO = """
teams: yes
mode: deathmatch
decks: imperial, sylvan, highland, imperial
active: A2
turn: 6
hand 3: highland/clan-axeman
hand 1: imperial/swordmaster
flare 2: flare/02
legends a: legend/fire-dragon
deathmatch points b: 3
control: passed
arena:
  a  b  c  d  e  f  g  h  i
1 -- -- .. .. .. .. .. -- --
2 -- .. .. .. .. .. .. .. --
3 .. .. .. .. .. .. .. .. ..
4 .. .. .. Ac .. .. .. .. ..
5 .. .. .. .. Ah Bc .. .. ..
6 .. .. .. Ac .. .. .. .. ..
7 .. .. .. .. .. .. Bl .. ..
8 -- .. .. .. .. .. .. .. --
9 -- -- .. .. .. .. .. -- --
"""


def test_the_scenario_notation_sets_up_a_team_position() -> None:
    from sim.scenario import load_scenario, render_arena

    game = load_scenario(TEAM_SCENARIO, [AskedRandom(s) for s in range(4)], load_card_set())
    s = game.state
    t = s.teams
    assert s.team_game and t.turn_seat == 2 and s.active == 0 and t.holder == [2, 3]
    assert t.controller == 0 and s.control_passed
    assert s.record.first_player == (2 - 5) % 4 and s.first_player == s.record.first_player % 2
    assert [c.id for c in s.hand[0]] == ["highland/clan-axeman"] and [c.id for c in s.member(0).hand] == [
        "imperial/swordmaster"]
    assert [f.id for f in s.member(1).flare_hand] == ["flare/02"]
    assert [c.id for c in s.legend_hand[0]] == ["legend/fire-dragon"] and s.dm_points == [0, 3]
    assert s.tokens == [13, 15] and s.legend_stock == [3, 2]
    assert "Ah Bc" in render_arena(s)
    assert game.action_options(0) == [Action("place")]  # control passed: the teammate places only
    game.finish_turn()
    s = game.state
    assert s.teams.turn_seat == 3 and s.teams.controller is None and s.teams.holder == [0, 3]
    placed = [e for e in s.record.events if e.kind == "place"]
    assert len(placed) == 2 and all(e.seat == 0 for e in placed)  # recorded for the teammate who placed


def test_team_fields_need_teams_yes() -> None:
    from sim.scenario import ScenarioError, load_scenario

    with pytest.raises(ScenarioError, match="team game field"):
        load_scenario("legends a: legend/fire-dragon\n", [AskedRandom(0), AskedRandom(1)])
    with pytest.raises(ScenarioError, match="team's"):
        load_scenario("teams: yes\ndecks: imperial, sylvan, highland, imperial\nlegends 1: legend/fire-dragon\n",
                      [AskedRandom(s) for s in range(4)])


# ----- the commands
def run(*args: str):
    return CliRunner().invoke(app, [str(a) for a in args], prog_name="tashkalar")


def test_play_teams_prints_seats_legends_decks_and_the_team_result() -> None:
    result = run("play", "--teams", "--decks", "-".join(TABLE), "--strategies", "random", "--form", "deathmatch",
                 "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Team A: A1 (imperial, random), A2 (highland, random); team B: B1 (sylvan, random)")
    assert "== Turn 1: " in out and "(sylvan, random) ==" in out
    assert "passes control to" in out and "legends (2) held by" in out and "sideways" in out
    assert "score team A " in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("Result: team A ") and "ended by" in last
    result = run("play", "--teams", "--seed", "4", "--strategies", "builder,random", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["config"]["teams"] is True and data["config"]["strategies"] == ["builder", "random"] * 2
    assert len(data["scores"]) == 2


@pytest.mark.parametrize(("args", "message"), [
    (("--decks", "imperial-sylvan-highland"), "1, 2 (team A's, team B's) or 4 names"),
    (("--strategies", "random,random,random,random,random"), "--strategies: a team game takes"),
    (("--players", "4"), "leave out --players"),
])
def test_play_teams_errors_are_clear(args: tuple[str, ...], message: str) -> None:
    result = run("play", "--teams", *args)
    assert result.exit_code == 2 and message in result.stderr and "Traceback" not in result.output


def test_bench_teams_reports_both_forms() -> None:
    result = run("bench", "--teams", "--games", "3", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["results"]
    assert [r["mode"] for r in rows] == ["team-high-form", "team-deathmatch"]
    assert all(r["games_per_second"] > 0 and len(r["decks"].split("-")) == 4 for r in rows)
    bad = run("bench", "--teams", "--decks", "imperial-sylvan", "--games", "1")
    assert bad.exit_code == 2 and "table of 4" in bad.stderr


def test_seat_names_alternate_teams_clockwise() -> None:
    assert [seat_name(s) for s in range(4)] == ["A1", "B1", "A2", "B2"]
