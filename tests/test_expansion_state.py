"""The expansions' state through the Python layers (issue 17): what a ``PlayerView`` shows of it and what a
sandbox keeps, how ``tashkalar play`` and ``tashkalar scenario`` print it, the scenario notation's fields that
set it, and strict mode counting it. The rules themselves are tested in the core."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sim import board
from sim.cards import load_card_set
from sim.cli import app
from sim.decisions import Decision, PlayerView
from sim.game import Game
from sim.narrate import describe_event, expansion_lines
from sim.record import EVENT_KINDS, Event
from sim.scenario import ScenarioError, load_scenario, render_expansion
from sim.state import InvariantError
from strategies import make_strategy
from tests.helpers import Scripted

EMPTY_ARENA = """arena:
1 -- -- .. .. .. .. .. -- --
2 -- .. .. .. .. .. .. .. --
3 .. .. .. .. .. .. .. .. ..
4 .. .. .. 1c .. .. .. .. ..
5 .. .. .. .. 1h 2c 2h .. ..
6 .. .. .. 1c .. .. .. .. ..
7 .. .. .. .. .. .. .. .. ..
8 -- .. .. .. .. .. .. .. --
9 -- -- .. .. .. .. .. -- --
"""

# a melee of the three expansion decks with every kind of expansion state
MELEE = """decks: etherweave, everfrost, nethervoid
turn: 5
hand 1: etherweave/merchant-of-time, etherweave/doppelganger
pending 1: etherweave/merchant-of-time
stasis 1: heroic of 2
possessed 1: 2
frozen 2: everfrost/ice-queen
removed 2: tokens=1 legends=1
action loss 3: 2
gateway 3: g5
hound 3: nethervoid/hell-hound
void squares: 1
extra destruction: 1
arena:
1 -- -- .. .. .. .. .. -- --
2 -- .. .. .. .. .. .. .. --
3 .. .. .. .. .. .. .. .. ..
4 .. .. .. 1c .. .. .. .. ..
5 .. .. .. .. 1h 2c 3h .. ..
6 .. .. .. 1c .. .. .. .. ..
7 .. .. .. .. .. .. .. .. ..
8 -- .. .. .. .. .. .. .. --
9 -- -- .. .. .. .. .. -- --
"""

TEAMS = """teams: yes
decks: everfrost, nethervoid, etherweave, imperial
active: 3
frozen 1: everfrost/ice-queen
hand 3: etherweave/merchant-of-time
pending 3: etherweave/merchant-of-time
stasis 3: common of B
gateway b: suspended
removed a: tokens=2 legends=0
action loss b: A
arena:
1 -- -- .. .. .. .. .. -- --
2 -- .. .. .. .. .. .. .. --
3 .. .. .. .. .. .. .. .. ..
4 .. .. .. Ac .. .. .. .. ..
5 .. .. .. .. Ah Bc .. .. ..
6 .. .. .. Ac .. .. .. .. ..
7 .. .. .. .. .. .. .. .. ..
8 -- .. .. .. .. .. .. .. --
9 -- -- .. .. .. .. .. -- --
"""


def players(n: int = 4) -> list[Any]:
    return [Scripted() for _ in range(n)]


def melee() -> Game:
    return load_scenario(MELEE, players())


def fields(text: str) -> list[str]:
    """The expansion fields of a scenario text, as written."""
    keys = ("frozen", "pending", "stasis", "hound", "gateway", "possessed", "removed", "action loss", "void",
            "extra")
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    return [line for line in lines if line.startswith(keys)]


def card(cid: str) -> Any:
    return load_card_set().by_id[cid]


# ----- the scenario fields
def test_the_expansion_fields_set_the_state_as_written():
    s = melee().state
    assert s.pending == [card("etherweave/merchant-of-time"), None, None]
    assert s.stasis == [(1, 1), None, None]
    assert s.frozen == [None, card("everfrost/ice-queen"), None]
    assert card("everfrost/ice-queen") not in s.deck[1] + s.hand[1] + s.discarded[1]
    assert s.hound_return[2] == card("nethervoid/hell-hound") and s.hound_return[2] not in s.deck[2]
    assert s.gateway == [None, None, board.parse_square("g5")]
    assert s.possessed == [1, None, None]
    assert s.removed[1] == [1, 1] and (s.token_total[1], s.legend_total[1]) == (14, 2)
    assert (s.tokens[1], s.legend_stock[1]) == (14 - 1 - 1, 2)  # one on the arena, one heroic in stasis
    assert s.action_loss == [0, 0, 0b10]
    assert (s.void_squares, s.extra_destruction) == (1, 1)
    s.check_invariants()


def test_render_expansion_writes_the_fields_back():
    assert sorted(render_expansion(melee().state)) == sorted(fields(MELEE))
    assert sorted(render_expansion(load_scenario(TEAMS, players()).state)) == sorted(fields(TEAMS))


def test_a_team_scenario_puts_each_seats_state_with_his_cards():
    s = load_scenario(TEAMS, players()).state
    t = s.teams
    assert t is not None and t.holder == [2, 3]  # A2 plays; A1's cards wait on the bench
    assert t.bench[0].frozen == card("everfrost/ice-queen") and s.frozen[0] is None
    assert s.pending[0] == card("etherweave/merchant-of-time") and s.stasis[0] == (1, 0)
    assert s.gateway_suspended == [False, True] and s.removed[0] == [2, 0] and s.action_loss[1] == 1
    assert s.tokens[1] == 17 - 1 - 1  # one on the arena, one in stasis
    view = PlayerView(s, 1)
    assert view.seat_state(0).frozen == card("everfrost/ice-queen")
    assert view.seat_state(2) == (None, card("etherweave/merchant-of-time"), (1, 0), None)
    assert view.gateway_suspended(1) and view.gateway(1) is None


def test_the_example_with_expansion_state_of_the_notation_page_loads():
    page = (Path(__file__).resolve().parents[1] / "docs" / "scenario-notation.md").read_text()
    example = page.split("### Expansion state", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    s = load_scenario(example, players()).state
    assert s.frozen[0] is not None and s.gateway[1] is not None
    assert sorted(render_expansion(s)) == sorted(fields(example))


@pytest.mark.parametrize("decks, added, message", [
    ("everfrost, nethervoid", "frozen 1: everfrost/snow-fox", "everfrost/snow-fox has no frozen text"),
    ("everfrost, nethervoid", "hand 1: everfrost/ice-queen\nfrozen 1: everfrost/ice-queen",
     "everfrost/ice-queen is not in player 1's deck (everfrost) outside the hand"),
    ("everfrost, nethervoid", "frozen 1: everfrost/ice-princess, everfrost/crystal-grower",
     "frozen 1 names one card, got 2"),
    ("everfrost, nethervoid", "frozen 2: everfrost/ice-princess", "everfrost/ice-princess is not in player 2's deck"),
    ("etherweave, nethervoid", "pending 1: etherweave/doppelganger",
     "etherweave/doppelganger is not in player 1's hand (a pending being stays in the hand"),
    ("etherweave, nethervoid", "stasis 1: heroic of 2",
     "stasis 1: a piece is in stasis only on a pending Merchant of Time"),
    ("etherweave, nethervoid", "hand 1: etherweave/merchant-of-time\npending 1: etherweave/merchant-of-time\n"
                               "stasis 1: great of 2", "stasis 1 takes a rank and its owner, like 'heroic of 2'"),
    ("etherweave, nethervoid", "hand 1: etherweave/merchant-of-time\npending 1: etherweave/merchant-of-time\n"
                               "stasis 1: common of 3", "stasis 1: expected a player from 1 to 2, got '3'"),
    ("everfrost, nethervoid", "gateway 2: e5", "gateway 2: the Gateway is a common or heroic piece of player 2, "
                                               "and e5 holds none"),
    ("everfrost, nethervoid", "gateway 2: a1", "gateway 2: 'a1' is not a square of the arena"),
    ("everfrost, nethervoid", "gateway 2: suspended", "gateway 2: a suspended Gateway waits for a common or heroic "
                                                      "piece of player 2 in stasis"),
    ("everfrost, nethervoid", "possessed 2: 2", "possessed 2: a player is possessed by an opponent's colour"),
    ("everfrost, nethervoid", "possessed 2: x", "possessed 2: expected a player from 1 to 2, got 'x'"),
    ("everfrost, nethervoid", "removed 1: tokens=lots", "removed takes tokens=N legends=N, got 'tokens=lots'"),
    ("everfrost, nethervoid", "action loss 1: 1", "action loss 1 names the opponents"),
    ("everfrost, nethervoid", "hound 3: nethervoid/hell-hound", "'hound 3' names a player this 2-player scenario"),
    ("everfrost, nethervoid", "hound 2: nethervoid/nope", "unknown being 'nethervoid/nope'"),
    ("everfrost, nethervoid", "void squares: many", "void squares must be a whole number from 0 to 8"),
    ("everfrost, nethervoid", "extra destruction: -1", "extra destruction must be a whole number at least 0"),
])
def test_each_expansion_field_is_checked_and_names_its_line(decks, added, message):
    text = f"decks: {decks}\n{added}\n{EMPTY_ARENA}"
    line = 1 + added.count("\n") + 1
    with pytest.raises(ScenarioError) as err:
        load_scenario(text, players())
    assert f"line {line}: {message}" in str(err.value)


@pytest.mark.parametrize("added, message", [
    ("gateway 1: e5", "'gateway 1': in a team game this field is the team's (A or B), not a seat's"),
    ("frozen a: everfrost/ice-queen", "unknown field 'frozen a'"),
    ("stasis 1: common of 2", "stasis 1: a piece is in stasis only on a pending Merchant of Time"),
    ("possessed a: A", "possessed a: a player is possessed by an opponent's colour"),
    ("action loss a: C", "action loss a: expected A or B, got 'C'"),
])
def test_team_expansion_fields_are_per_seat_or_per_team(added, message):
    text = f"teams: yes\ndecks: everfrost, nethervoid, etherweave, imperial\n{added}\n"
    with pytest.raises(ScenarioError, match=f"line 3: {message}".replace("(", r"\(").replace(")", r"\)")):
        load_scenario(text, players())


def test_pieces_in_stasis_or_removed_come_out_of_the_stock():
    text = "decks: etherweave, nethervoid\nhand 1: etherweave/merchant-of-time\n" \
           "pending 1: etherweave/merchant-of-time\nstasis 1: legendary of 2\nremoved 2: tokens=3\n"
    s = load_scenario(text, players()).state
    assert (s.tokens[1], s.legend_stock[1], s.token_total[1], s.legend_total[1]) == (14, 2, 14, 3)


# ----- the view and the sandbox
def test_a_view_shows_every_players_public_expansion_state():
    s = melee().state
    for me in range(3):
        v = PlayerView(s, me)
        assert v.pending(0) == card("etherweave/merchant-of-time") and v.stasis(0) == (1, 1)
        assert v.frozen(1) == card("everfrost/ice-queen") and v.removed(1) == (1, 1)
        assert v.action_loss(2) and not v.action_loss(1)
        assert v.gateway(2) == board.parse_square("g5") and not v.gateway_suspended(2)
        assert v.possessed(0) == 1 and v.hound_return(2) == card("nethervoid/hell-hound")
        assert (v.void_squares, v.extra_destruction) == (1, 1)


def test_a_sandbox_keeps_the_public_expansion_state():
    s = melee().state
    keep = ("pending", "stasis", "frozen", "removed", "action_loss", "gateway", "gateway_suspended", "possessed",
            "hound_return", "void_squares", "extra_destruction")
    for me in range(3):
        for seed in range(5):
            c = PlayerView(s, me).sandbox(random.Random(seed))
            for name in keep:
                assert getattr(c, name) == getattr(s, name), name
            assert s.pending[0] in c.hand[0]
            c.check_invariants()
    t = load_scenario(TEAMS, players()).state
    c = PlayerView(t, 1).sandbox(random.Random(1))
    assert c.teams.bench[0].frozen == card("everfrost/ice-queen") and c.stasis[0] == (1, 0)
    assert c.pending[0] in c.hand[0]
    c.check_invariants()


# ----- narration
def _event(cls: type[Event]) -> Event:
    """An event of ``cls`` with plausible field values."""
    values = {"turn": 3, "seat": 1, "card": "etherweave/merchant-of-time", "cause": "etherweave/swap-card",
              "square": 40, "other": 41, "owner": 0, "rank": 1, "colour": 0, "twice": True, "reason": "discard",
              "source": "etherweave/doppelganger", "to": 3, "during": "", "points": 2, "task": "task/x",
              "opening": False, "deck": "personal", "orientation": 0, "destroyed": 1, "upper": True, "lower": False,
              "lead": 0, "against": -1, "counted": True, "old_rank": 0}
    return cls(**{f.name: values[f.name] for f in dataclasses.fields(cls)})


SILENT = {"draw", "effect", "held", "task_reveal", "pass_control"}  # pass_control: team games only


@pytest.mark.parametrize("kind", sorted(EVENT_KINDS))
def test_every_event_kind_has_a_line_and_team_games_name_seats_and_teams(kind):
    e = _event(EVENT_KINDS[kind])
    duel = describe_event(e)
    assert (duel is None) == (kind in SILENT), kind
    team = describe_event(e, teams=True)
    assert (team is None) == (kind in SILENT - {"pass_control"}), kind
    if team is not None and kind != "improvise":  # improvising is the melee's
        assert "player" not in team, team


def test_team_games_name_the_seat_of_summons_discards_and_returns():
    for kind, start in (("summon", "B1 summons"), ("discard", "B1 discards"), ("return", "B1 returns"),
                        ("warp", "B1 plays the warp"), ("thaw", "B1 thaws")):
        assert describe_event(_event(EVENT_KINDS[kind]), teams=True).startswith(start), kind
    assert "team A" in describe_event(_event(EVENT_KINDS["stasis"]), teams=True)
    assert "the Gateway of team B" in describe_event(_event(EVENT_KINDS["gateway"]), teams=True)


def test_expansion_lines_print_the_public_state():
    s = melee().state
    assert expansion_lines(s) == [
        "pending: player 1 etherweave/merchant-of-time (stasis: a heroic piece of player 2)",
        "frozen in play: player 2 everfrost/ice-queen",
        "under the deck at the end of the turn: player 3 nethervoid/hell-hound",
        "player 1's next summoning uses the pieces of player 2",
        "removed from the game: player 2 1 token, 1 legendary piece",
        "Gateway of player 3: g5",
        "player 3's next turn has 1 action",
        "void summoning: 1 empty square may count as commons",
        "extra destruction: each enemy piece destroyed counts 1 more",
    ]
    between = expansion_lines(s, mid_turn=False)
    assert not any("summoning" in x or "under the deck" in x or "extra" in x for x in between)
    team = expansion_lines(load_scenario(TEAMS, players()).state)
    assert "frozen in play: A1 everfrost/ice-queen" in team
    assert "pending: A2 etherweave/merchant-of-time (stasis: a common piece of team B)" in team
    assert "Gateway of team B: suspended (its piece is in stasis)" in team


def test_the_scenario_command_prints_the_expansion_state(tmp_path):
    f = tmp_path / "melee.txt"
    f.write_text(MELEE)
    result = CliRunner().invoke(app, ["scenario", str(f)])
    assert result.exit_code == 0, result.output
    assert "frozen in play: player 2 everfrost/ice-queen" in result.output
    assert "Gateway of player 3: g5" in result.output


@pytest.mark.parametrize("decks, teams", [
    ("everfrost-nethervoid", False), ("etherweave-everfrost", False),
    ("everfrost-nethervoid-etherweave-imperial", True)])
def test_play_prints_the_expansion_state_after_turns(decks, teams):
    args = ["play", "--decks", decks, "--strategies", "random", "--seed", "5", "--form", "deathmatch"]
    args += ["--teams"] if teams else []
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    if not teams:
        assert "frozen in play:" in result.output
    if teams:
        assert "player " not in result.output.replace("players", "")


# ----- strict mode
class Watcher:
    """A random player that checks, at every decision, that its view shows the state's public expansion state."""

    name = "watcher"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.checked = 0

    def choose(self, view: PlayerView, decision: Decision) -> int:
        s = view._state
        for p in range(view.seats):
            assert view.frozen(p) == s.frozen[p] and view.pending(p) == s.pending[p]
            assert view.gateway(p) == s.gateway[p] and view.stasis(p) == s.stasis[p]
            self.checked += view.frozen(p) is not None or view.pending(p) is not None or view.gateway(p) is not None
        return self.rng.randrange(len(decision.options))


@pytest.mark.parametrize("deck", ["everfrost", "nethervoid", "etherweave"])
@pytest.mark.parametrize("mode", ["high-form", "deathmatch"])
def test_strict_games_of_each_expansion_deck_through_the_python_api(deck, mode):
    cards = load_card_set()
    checked = 0
    for seed in range(12):
        other = ("imperial", "sylvan", "highland", "everfrost", "nethervoid", "etherweave")[seed % 6]
        decks = (deck, other) if seed % 2 else (other, deck)
        watchers = [Watcher(seed * 2 + i) for i in range(2)]
        game = Game(cards, mode, decks, watchers, seed, strict=True)
        game.play()
        game.state.check_invariants()
        checked += sum(w.checked for w in watchers)
    assert checked > 0


def test_a_strict_team_game_with_the_three_expansion_decks():
    cards = load_card_set()
    for seed in range(3):
        strategies = [make_strategy("random", s, seed) for s in range(4)]
        Game(cards, "deathmatch", ("everfrost", "nethervoid", "etherweave", "imperial"), strategies, seed,
             strict=True, teams=True).play()


def _broken(change) -> str:
    game = melee()
    with game.edit() as s:
        change(s)
    with pytest.raises(InvariantError) as err:
        game.state.check_invariants()
    return str(err.value)


@pytest.mark.parametrize("change, message", [
    (lambda s: s.deck[1].append(s.frozen[1]), "player 1: 19 beings accounted for"),
    (lambda s: setattr(s, "frozen", [None, None, None]), "player 1: 17 beings accounted for"),
    (lambda s: s.frozen.__setitem__(1, card("everfrost/snow-fox")), "player 1: everfrost/snow-fox frozen"),
    (lambda s: s.pending.__setitem__(0, s.deck[0][0]), "player 0's pending being is not in the hand"),
    (lambda s: s.pending.__setitem__(0, None), "player 0 has a piece in stasis without a pending Merchant"),
    (lambda s: s.stasis.__setitem__(0, None), "player 1: 1 tokens on the arena + 12 in stock"),
    (lambda s: s.gateway.__setitem__(2, board.parse_square("a5")), "player 2's Gateway on"),
    (lambda s: s.hound_return.__setitem__(2, None), "player 2: 17 beings accounted for"),
    (lambda s: s.hound_return.__setitem__(2, card("everfrost/snow-fox")), "returns a card of another deck"),
    (lambda s: s.removed.__setitem__(1, [-1, 0]), "player 1: removed pieces [-1, 0]"),
    (lambda s: s.action_loss.__setitem__(1, 0b10), "player 1: action loss 10"),
    (lambda s: s.possessed.__setitem__(0, 0), "player 0 is possessed by colour 0"),
])
def test_a_broken_expansion_state_raises_with_a_clear_message(change, message):
    assert message in _broken(change)
