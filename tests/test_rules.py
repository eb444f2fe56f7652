"""The rules of RULES.md, one scenario at a time, on the test card set (tests/ruleset.py)."""

from __future__ import annotations

import pytest

from sim import board
from sim.cards import load_card_set
from sim.decisions import DISCARD, END, FLARE, PLACE, SUMMON, Action
from sim.game import Game
from sim.ranks import COMMON, LEGENDARY
from sim.record import Draw, FlareInvoked, GameRecord, Place, Points, Summon, TaskClaim, TaskReveal
from sim.state import DEATHMATCH, HIGH_FORM, MODES
from tests.helpers import Scripted, arena, sq
from tests.ruleset import FirstOption, at, award, card, position, rules_cards, turn

PLACE_ACTION, FLARE_ACTION, END_ACTION = Action(PLACE), Action(FLARE), Action(END)
DISCARD_ACTION = Action(DISCARD)


def summon_action(game: Game, cid: str) -> Action:
    return Action(SUMMON, card(game, cid))


def origins(game: Game, cid: str, player: int = 0) -> set[str]:
    return {board.name(pl.origin) for pl in game.legal_placements(player, card(game, cid))}


def seats_by_turn(game: Game) -> dict[int, int]:
    """Who took the place actions of each turn."""
    return {e.turn: e.seat for e in game.state.record.of_kind(Place) if e.cause == "place-action"}


# ----- setup
@pytest.mark.parametrize("mode", MODES)
def test_setup_deals_three_beings_two_legends_and_one_flare(mode):
    cards = load_card_set()
    for seed in range(10):
        game = Game(cards, mode, ("imperial", "imperial"), [FirstOption(), FirstOption()], seed)
        game.setup()
        s = game.state
        for p in (0, 1):
            assert (len(s.hand[p]), len(s.legend_hand[p]), len(s.flare_hand[p])) == (3, 2, 1)
            assert len(s.deck[p]) == 15
        assert (len(s.legend_deck), len(s.flare_deck)) == (8, 10)
        assert len([e for e in s.record.of_kind(Draw) if e.opening]) == 12
        assert s.active == s.first_player


def test_the_first_player_is_chosen_by_the_seed():
    cards = load_card_set()
    firsts = set()
    for seed in range(20):
        game = Game(cards, HIGH_FORM, ("imperial", "imperial"), [FirstOption(), FirstOption()], seed)
        game.setup()
        firsts.add(game.state.first_player)
    assert firsts == {0, 1}


def test_high_form_task_row_is_three_simple_tasks_not_one_category_and_a_next_task():
    cards = load_card_set()
    for seed in range(200):
        game = Game(cards, HIGH_FORM, ("imperial", "imperial"), [FirstOption(), FirstOption()], seed)
        game.setup()
        s = game.state
        assert len(s.task_row) == 3 and not any(t.advanced for t in s.task_row)
        cats = [t.category for t in s.task_row]
        assert len(set(cats)) > 1
        assert s.next_task is not None and cats.count(s.next_task.category) < 2
        shown = (*s.task_row, s.next_task, *s.task_deck)
        assert sorted(t.id for t in shown) == sorted(t.id for t in cards.tasks)


def test_task_row_sets_aside_advanced_tasks_and_a_third_of_one_category():
    game = Game(rules_cards(), HIGH_FORM, ("test", "test"), [FirstOption(), FirstOption()], 3)
    s = game.state
    tasks = {t.id: t for t in rules_cards().tasks}
    top_first = ["task/destruction", "task/heroic-devastation", "task/devastation", "task/heroic-destruction",
                 "task/red-conquest", "task/end-of-legends", "task/imprisonment"]
    with game.edit() as b:
        b.task_deck = [tasks[t] for t in reversed(top_first)]  # the top of the deck is the end of the list
    game._deal_task_row()
    assert [t.id for t in s.task_row] == ["task/destruction", "task/devastation", "task/red-conquest"]
    # the next task may be advanced but not a third destruction task: only imprisonment fits
    assert s.next_task.id == "task/imprisonment"
    assert sorted(t.id for t in s.task_deck) == ["task/end-of-legends", "task/heroic-destruction",
                                                 "task/heroic-devastation"]


def test_deathmatch_second_player_puts_both_start_pieces():
    cards = load_card_set()
    seen = set()
    for seed in range(6):
        for choice in ("c5", "g5"):
            players = [Scripted(choice), Scripted(choice)]
            game = Game(cards, DEATHMATCH, ("imperial", "imperial"), players, seed)
            game.setup()
            s = game.state
            first, second = s.first_player, 1 - s.first_player
            seen.add(first)
            assert players[first].asked == []
            assert players[second].asked[0].kind == "start-square"
            assert players[second].asked[0].options == [sq("c5"), sq("g5")]
            other = "g5" if choice == "c5" else "c5"
            assert s.piece_at(sq(choice)) == (second, COMMON) and s.piece_at(sq(other)) == (first, COMMON)
            assert s.occupied().bit_count() == 2 and s.tokens == [15, 15]
    assert seen == {0, 1}


def test_first_turn_has_one_action_and_every_other_turn_two():
    game = Game(rules_cards(), HIGH_FORM, ("test", "test"), [FirstOption(), FirstOption()], 1, strict=True)
    game.setup()
    first = game.state.first_player
    for _ in range(3):
        game.play_turn()
    places = seats_by_turn(game)
    placed = game.state.record.of_kind(Place)
    assert [sum(1 for e in placed if e.turn == t and e.cause == "place-action") for t in (1, 2, 3)] == [1, 2, 2]
    assert [places[t] for t in (1, 2, 3)] == [first, 1 - first, first]


# ----- actions
def test_all_actions_must_be_used_and_end_is_only_offered_with_a_flare():
    opp = {"e9": "2h", "f9": "2h"}  # flare/12's upper half needs 2 more upgraded pieces
    game, _ = position(opp, flare_1="flare/12")
    assert END_ACTION not in game.action_options(0) and FLARE_ACTION in game.action_options(0)
    with game.edit() as b:
        b.actions_left = 0
    assert game.action_options(0) == [FLARE_ACTION, END_ACTION]
    game, _ = position(opp, actions="0")
    assert game.action_options(0) == []


def test_place_puts_a_common_piece_on_any_empty_square():
    game, me = position({"e5": "2h"}, "d4")
    game.apply_action(0, PLACE_ACTION)
    assert me.asked[0].kind == "place"
    assert me.asked[0].options == [s for s in board.SQUARES if s != sq("e5")]
    assert arena(game) == {"e5": "2h", "d4": "1c"}
    assert game.state.actions_left == 1 and game.state.tokens[0] == 16


def test_place_with_an_empty_stock_takes_a_common_or_heroic_piece_back_first():
    game, me = position({"e5": "1h", "d4": "1c", "c3": "1l"}, "e5", "e5", stock_1="tokens=0")
    game.apply_action(0, PLACE_ACTION)
    take, place = me.asked
    assert take.kind == "take" and take.options == [sq("d4"), sq("e5")]  # never the legendary piece
    assert place.kind == "place" and sq("e5") in place.options  # the square just vacated may be used
    assert arena(game) == {"e5": "1c", "d4": "1c", "c3": "1l"}  # the heroic token comes back as a common
    assert game.state.tokens[0] == 0


# ----- summoning
@pytest.mark.parametrize("orientation", range(8))
def test_a_pattern_is_found_in_each_of_its_eight_orientations(orientation):
    ell = [(1, 0), (2, 0), (2, 1)]  # test/ell: no symmetry, so its 8 orientations all differ
    pieces = {board.name(board.offset(sq("e5"), *turn(dx, dy, orientation))): "1c" for dx, dy in ell}
    game, _ = position(pieces, at("e5"), hand_1="test/ell")
    at_e5 = [pl for pl in game.legal_placements(0, card(game, "test/ell")) if pl.origin == sq("e5")]
    assert [pl.orientation for pl in at_e5] == [orientation]
    game.apply_action(0, summon_action(game, "test/ell"))
    assert arena(game)["e5"] == "1c"
    assert game.state.record.of_kind(Summon)[-1] == Summon(game.state.turn, 0, "test/ell", sq("e5"), orientation)


def test_an_asymmetric_pattern_has_eight_distinct_orientations():
    ell = rules_cards().by_id["test/ell"]
    assert {pl.orientation for pl in ell.placements} == set(range(8))


@pytest.mark.parametrize("token, fits", [("1c", False), ("1h", True), ("1l", True), ("2h", False)])
def test_a_pattern_cell_takes_your_piece_of_its_rank_or_better(token, fits):
    game, _ = position({"d5": token}, hand_1="test/needs-heroic")
    assert origins(game, "test/needs-heroic") == ({"c5", "e5", "d4", "d6"} if fits else set())
    assert (summon_action(game, "test/needs-heroic") in game.action_options(0)) == fits


@pytest.mark.parametrize("token, allowed, destroyed", [
    (None, True, [0, 0, 0]),
    ("2c", True, [1, 0, 0]),
    ("2h", True, [0, 1, 0]),
    ("2l", False, None),
    ("1c", True, [0, 0, 0]),  # your own piece is destroyed too, but that never counts
    ("1h", True, [0, 0, 0]),
    ("1l", False, None),
])
def test_the_summoning_square_may_hold_a_piece_of_equal_or_lower_rank(token, allowed, destroyed):
    pieces = {"d5": "1c"} | ({"e5": token} if token else {})
    game, _ = position(pieces, at("e5"), hand_1="test/knight")  # a heroic being
    assert ("e5" in origins(game, "test/knight")) == allowed
    if allowed:
        game.apply_action(0, summon_action(game, "test/knight"))
        assert arena(game)["e5"] == "1h"
        assert game.state.counters.destroyed == destroyed


@pytest.mark.parametrize("on_square, fits", [("1c", True), (None, False), ("2c", False)])
def test_a_pattern_cell_on_the_summoning_square_needs_your_piece_there(on_square, fits):
    pieces = {"f5": "1c"} | ({"e5": on_square} if on_square else {})
    game, _ = position(pieces, at("e5"), hand_1="test/on-self")
    assert ("e5" in origins(game, "test/on-self")) == fits
    if fits:
        game.apply_action(0, summon_action(game, "test/on-self"))
        assert arena(game) == {"e5": "1c", "f5": "1c"}
        assert game.state.counters.destroyed == [0, 0, 0] and game.state.tokens[0] == 15


def test_with_an_empty_stock_a_summon_takes_a_piece_outside_the_pattern():
    game, me = position({"d5": "1c", "a5": "1c", "i5": "1h"}, at("e5"), "i5", hand_1="test/single",
                        stock_1="tokens=0")
    game.apply_action(0, summon_action(game, "test/single"))
    take = me.asked[-1]
    assert take.kind == "take" and take.options == [sq("a5"), sq("i5")]  # not d5: it is in the pattern
    assert arena(game) == {"d5": "1c", "a5": "1c", "e5": "1c"}


def test_with_an_empty_stock_and_every_piece_in_the_pattern_there_is_no_summon():
    game, _ = position({"d5": "1c"}, hand_1="test/single", stock_1="tokens=0")
    assert origins(game, "test/single") == set()
    game, _ = position({"d5": "1c", "e5": "1c"}, hand_1="test/single", stock_1="tokens=0")
    assert "e5" in origins(game, "test/single")  # your piece on the summoning square goes back to the stock


def test_a_legend_with_no_legendary_piece_in_stock_takes_one_off_the_arena_outside_the_pattern():
    game, me = position({"d5": "1l", "c3": "1l", "g3": "1l"}, at("e5"), "g3", legends_1="legend/test-1")
    game.apply_action(0, summon_action(game, "legend/test-1"))
    assert me.asked[-1].kind == "take" and me.asked[-1].options == [sq("c3"), sq("g3")]
    assert arena(game) == {"d5": "1l", "c3": "1l", "e5": "1l"}
    assert game.state.legend_discard == [card(game, "legend/test-1")]
    assert game.state.record.of_kind(Points) == []  # in High Form a legend scores by standing in the arena


def test_never_more_than_three_legendary_pieces_in_the_arena():
    game, me = position({"d5": "1c", "c3": "1l", "g3": "1l", "c7": "1l"}, at("e5"), "c7",
                        legends_1="legend/test-1", stock_1="legends=1")
    game.apply_action(0, summon_action(game, "legend/test-1"))
    assert me.asked[-1].kind == "take"  # a legendary piece is in stock, yet three are in the arena
    assert game.state.pieces[0][LEGENDARY].bit_count() == 3 and game.state.legend_stock[0] == 1


def test_a_legend_cannot_be_summoned_without_any_legendary_piece():
    game, _ = position({"d5": "1c"}, legends_1="legend/test-1", stock_1="legends=0")
    assert origins(game, "legend/test-1") == set()


def test_a_summoned_being_goes_to_its_owners_discard_pile():
    game, _ = position({"d5": "1c"}, at("e5"), hand_1="test/single")
    game.apply_action(0, summon_action(game, "test/single"))
    assert game.state.discarded[0] == [card(game, "test/single")] and game.state.hand[0] == []


# ----- discard
def test_discard_once_per_turn_then_return_cards_to_the_bottom_of_their_decks():
    single, ell, knight = "test/single", "test/ell", "test/knight"
    game, me = position({}, lambda d: card(game, single), lambda d: card(game, ell),
                        lambda d: card(game, "legend/test-1"), lambda d: card(game, "flare/01"), None,
                        hand_1=f"{single}, {ell}, {knight}", legends_1="legend/test-1, legend/test-2",
                        flare_1="flare/01")
    s = game.state
    game.apply_action(0, DISCARD_ACTION)
    assert me.asked[0].kind == "discard" and card(game, single) not in me.asked[1].options
    assert me.asked[1].options[0] is None  # stop returning
    assert s.discarded[0] == [card(game, single)] and s.hand[0] == [card(game, knight)]
    assert s.deck[0][0] is card(game, ell) and s.legend_deck[0] is card(game, "legend/test-1")
    assert s.flare_deck[0] is card(game, "flare/01")
    assert s.actions_left == 1 and DISCARD_ACTION not in game.action_options(0)
    game.end_turn(0)  # the refill draws from the top, not the returned cards
    assert len(s.hand[0]) == 3 and s.deck[0][0] is card(game, ell)
    assert len(s.legend_hand[0]) == 2 and s.legend_deck[0] is card(game, "legend/test-1")
    assert len(s.flare_hand[0]) == 1 and s.flare_hand[0][0] is not card(game, "flare/01")


def test_discard_is_offered_again_next_turn():
    game, me = position({}, PLACE_ACTION, "a5", PLACE_ACTION, "b5", hand_1="test/single")
    with game.edit() as b:
        b.discarded_this_turn = True  # discarded on the turn before
    assert DISCARD_ACTION not in game.action_options(0)
    game.play_turn()
    assert DISCARD_ACTION in me.asked[0].options


# ----- flares
UPGRADED_3_PIECES_6 = {"c9": "2h", "d9": "2h", "e9": "2h", "f9": "2c", "g9": "2c", "d8": "2c"}


def test_a_flare_is_free_and_resolves_both_halves_in_order_even_if_the_upper_changes_the_counts():
    game, me = position(UPGRADED_3_PIECES_6, "a5", "b4", flare_1="flare/01")  # 3/6: common, then heroic
    s = game.state
    assert game.flare_halves(0, s.flare_hand[0][0]) == 3
    game.apply_action(0, FLARE_ACTION)
    assert arena(game)["a5"] == "1c" and arena(game)["b4"] == "1h"  # lower half done with only 4 more pieces
    assert s.actions_left == 2 and s.flare_hand[0] == [] and s.flare_discard == [card(game, "flare/01")]
    assert s.record.of_kind(FlareInvoked) == [FlareInvoked(2, 0, "flare/01", upper=True, lower=True, lead=0)]
    assert FLARE_ACTION not in game.action_options(0)


def test_a_flare_is_offered_only_while_a_half_holds():
    few = {"c9": "2h", "d9": "2h", "f9": "2c", "g9": "2c", "d8": "2c"}  # 2 more upgraded, 5 more pieces
    game, _ = position(few, flare_1="flare/01")
    assert FLARE_ACTION not in game.action_options(0)


def test_in_deathmatch_invoking_a_flare_scores_a_point_for_the_opponent():
    game, _ = position(UPGRADED_3_PIECES_6, "a5", "b4", flare_1="flare/01", mode="deathmatch")
    game.apply_action(0, FLARE_ACTION)
    assert game.state.dm_points == [0, 1] and game.state.record.of_kind(Points)[-1].source == "flare"


# ----- Deathmatch scoring
NEXT_TO_E5 = ("d4", "e4", "f4", "f5", "f6", "e6")


@pytest.mark.parametrize("enemies, points", [
    ("c", 0), ("cc", 1), ("ccc", 1), ("cccc", 2), ("h", 1), ("l", 2), ("chl", 3), ("cccchl", 5),
])
def test_deathmatch_scores_pairs_of_commons_heroic_one_legendary_two(enemies, points):
    pieces = {"c5": "1c"} | {s: "2" + r for s, r in zip(NEXT_TO_E5, enemies, strict=False)}
    game, _ = position(pieces, at("e5"), hand_1="test/bomber", mode="deathmatch")
    game.apply_action(0, summon_action(game, "test/bomber"))
    game.end_turn(0)
    assert game.state.dm_points == [points, 0]


def test_an_odd_common_is_lost_at_the_end_of_the_turn():
    pieces = {"c5": "1c", "d4": "2c", "b7": "1c", "e8": "2c"}
    opponent = Scripted("i5", "h5")
    game, me = position(pieces, at("e5"), hand_1="test/bomber, test/blast", mode="deathmatch", actions="1",
                        opponent=opponent)
    s = game.state
    game.apply_action(0, summon_action(game, "test/bomber"))
    game.end_turn(0)
    assert s.dm_points == [0, 0]
    game.play_turn()  # the opponent places two pieces
    me.answers = [summon_action(game, "test/blast"), at("e7"), PLACE_ACTION, "a4"]
    game.play_turn()
    assert "e8" not in arena(game) and s.dm_points == [0, 0]


def test_destroying_your_own_pieces_never_scores():
    pieces = {"b5": "1c", "d4": "1c", "e4": "1h", "f4": "1l"}
    game, _ = position(pieces, at("e5"), hand_1="test/blast", mode="deathmatch")
    game.apply_action(0, summon_action(game, "test/blast"))
    game.end_turn(0)
    assert arena(game) == {"b5": "1c", "e5": "1c"}
    assert game.state.dm_points == [0, 0] and game.state.counters.destroyed == [0, 0, 0]


def test_summoning_a_legend_scores_a_deathmatch_point_but_upgrading_to_legendary_does_not():
    game, _ = position({"d5": "1c"}, at("e5"), legends_1="legend/test-1", mode="deathmatch")
    game.apply_action(0, summon_action(game, "legend/test-1"))
    assert game.state.dm_points == [1, 0]
    game, _ = position({"a5": "1c", "d4": "1h"}, at("e5"), hand_1="test/promoter", mode="deathmatch")
    game.apply_action(0, summon_action(game, "test/promoter"))
    assert arena(game)["d4"] == "1l" and game.state.dm_points == [0, 0]


# ----- High Form scoring
def test_high_form_scores_tasks_and_legendary_pieces_in_the_arena():
    game, _ = position({"a5": "1c", "d4": "1h", "c3": "1l", "g7": "2l"}, at("e5"), hand_1="test/promoter")
    s = game.state
    assert (s.score(0), s.score(1)) == (1, 1)
    game.apply_action(0, summon_action(game, "test/promoter"))  # upgraded to legendary: it scores too
    assert s.score(0) == 2
    game.destroy(sq("c3"), "test")
    assert s.score(0) == 1  # a destroyed legend loses its point


# ----- tasks
CROSS = {"e4": "1c", "e5": "1c", "e6": "1c", "d5": "1c", "f5": "1c"}
ROW = "task/center-cross, task/destruction, task/red-conquest"


def test_claiming_a_task_scores_it_and_the_next_task_moves_in():
    game, me = position(CROSS, lambda d: d.options[0], tasks=ROW, next_task="task/imprisonment")
    s = game.state
    game.end_turn(0)
    claim = me.asked[0]
    assert claim.kind == "claim" and [t and t.id for t in claim.options] == ["task/center-cross", None]
    assert [t.id for t in s.claimed[0]] == ["task/center-cross"] and s.score(0) == 2
    assert [t.id for t in s.task_row] == ["task/destruction", "task/red-conquest", "task/imprisonment"]
    assert s.next_task is not None and s.next_task.id not in {*ROW.split(", "), "task/imprisonment"}
    assert s.record.of_kind(TaskClaim) == [TaskClaim(2, 0, "task/center-cross", 2)]


def test_a_player_may_decline_a_claim():
    game, _ = position(CROSS, None, tasks=ROW, next_task="task/imprisonment")
    game.end_turn(0)
    assert game.state.claimed[0] == [] and [t.id for t in game.state.task_row] == ROW.split(", ")


def test_only_one_task_is_claimed_per_turn():
    pieces = CROSS | {"e5": "1h", "d5": "1h"}  # center cross and central dominance
    game, me = position(pieces, lambda d: d.options[1], tasks="task/center-cross, task/central-dominance, "
                        "task/red-conquest", next_task="task/imprisonment")
    game.end_turn(0)
    assert [t and t.id for t in me.asked[0].options] == ["task/center-cross", "task/central-dominance", None]
    assert [t.id for t in game.state.claimed[0]] == ["task/central-dominance"]
    assert "task/center-cross" in [t.id for t in game.state.task_row]


def test_the_new_next_task_is_never_a_third_of_one_category():
    game, _ = position(CROSS, lambda d: d.options[0], tasks="task/center-cross, task/red-conquest, "
                       "task/green-conquest", next_task="task/destruction")
    s = game.state
    colour = card(game, "task/color-conquest")
    with game.edit() as b:
        b.task_deck.remove(colour)
        b.task_deck.append(colour)  # on top: it would be a third colored task
    game.end_turn(0)
    assert [t.category for t in s.task_row] == ["colored", "colored", "destruction"]
    assert s.next_task.category != "colored" and colour in s.task_deck  # put under the deck, not lost


RED = {"c8": "1h", "d2": "1h", "e5": "1c"}  # Red Conquest: 3 pieces on red squares, 2 upgraded
STUCK = "task/red-conquest, task/green-conquest, task/center-cross"  # two colored tasks showing
COLOURED = "task/color-conquest, task/red-legends, task/green-legends"  # every task left is a third colored


def _claim(pieces: dict[str, str], task: str, **keys: str) -> Game:
    game, me = position(pieces, lambda d: next(t for t in d.options if t and t.id == task), tasks=STUCK, **keys)
    assert game.state.next_task is None
    game.end_turn(0)
    assert [t.id for t in game.state.claimed[0]] == [task]
    return game


def test_a_claim_with_no_next_task_refills_the_row_as_soon_as_a_task_fits():
    game = _claim(RED, "task/red-conquest", task_deck=COLOURED, task_deck_size="3")
    s = game.state
    # one colored task showing: the top colored task fits and moves in; a third colored one cannot be next
    assert [t.id for t in s.task_row] == ["task/green-conquest", "task/center-cross", "task/color-conquest"]
    assert s.next_task is None and [t.id for t in s.task_deck] == ["task/green-legends", "task/red-legends"]
    assert [e.task for e in s.record.of_kind(TaskReveal)] == ["task/color-conquest"]


def test_a_claim_that_leaves_no_task_fitting_keeps_a_row_of_two():
    game = _claim(CROSS, "task/center-cross", task_deck=COLOURED, task_deck_size="3")
    s = game.state
    assert [t.id for t in s.task_row] == ["task/red-conquest", "task/green-conquest"] and s.next_task is None
    assert len(s.task_deck) == 3 and s.record.of_kind(TaskReveal) == []


def test_after_the_refill_a_new_next_task_is_revealed_when_one_fits():
    game = _claim(RED, "task/red-conquest", task_deck="task/color-conquest, task/red-legends, task/destruction",
                  task_deck_size="3")
    s = game.state
    assert [t.id for t in s.task_row][-1] == "task/color-conquest"
    assert s.next_task.id == "task/destruction" and [t.id for t in s.task_deck] == ["task/red-legends"]


def test_a_claim_refills_a_short_row_to_three_tasks():
    game, _ = position(RED, lambda d: d.options[0], tasks="task/red-conquest, task/center-cross",
                       task_deck="task/destruction, task/isolation, task/diagonals", task_deck_size="3")
    game.end_turn(0)
    s = game.state
    assert [t.id for t in s.task_row] == ["task/center-cross", "task/destruction", "task/isolation"]
    assert s.next_task.id == "task/diagonals" and s.task_deck == []


def test_a_task_is_claimable_only_if_met_at_the_end_of_the_turn():
    game, me = position(CROSS | {"e5": ".."}, tasks=ROW, next_task="task/imprisonment")
    game.end_turn(0)
    assert me.asked == [] and game.state.claimed[0] == []


# ----- refills and the end trigger
def _only_in_deck(game: Game, player: int, n: int) -> None:
    """Leave ``n`` cards in the player's deck; the rest go to the discard pile."""
    with game.edit() as s:
        s.discarded[player] += s.deck[player][:-n] if n else s.deck[player]
        s.deck[player] = s.deck[player][-n:] if n else []


def test_refill_draws_from_the_top_of_each_deck():
    game, _ = position({}, hand_1="test/single", legends_1="legend/test-1")
    s = game.state
    tops = s.deck[0][-2:], s.legend_deck[-1:], s.flare_deck[-1:]
    game.end_turn(0)
    assert s.hand[0][1:] == tops[0][::-1] and s.legend_hand[0][1:] == tops[1] and s.flare_hand[0] == tops[2]


def test_legend_and_flare_decks_are_reshuffled_from_their_discard_piles():
    game, _ = position({}, hand_1="test/single, test/ell, test/knight", legends_1="legend/test-1")
    s = game.state
    with game.edit() as b:
        b.legend_discard, b.legend_deck = b.legend_deck, []
        b.flare_discard, b.flare_deck = b.flare_deck, []
    game.end_turn(0)
    assert len(s.legend_hand[0]) == 2 and len(s.flare_hand[0]) == 1
    assert s.legend_discard == [] and len(s.legend_deck) == 4
    assert s.flare_discard == [] and len(s.flare_deck) == 11
    s.check_invariants()


def test_a_personal_deck_is_never_reshuffled():
    game, _ = position({}, hand_1="test/single")
    _only_in_deck(game, 0, 0)
    with game.edit() as b:
        b.end_trigger = "deck"  # already triggered when the last card was drawn
    game.end_turn(0)
    assert game.state.hand[0] == [card(game, "test/single")] and game.state.deck[0] == []


def claimed(game: Game, *task_ids: str) -> None:
    """Player 1 has claimed these tasks earlier in the game."""
    with game.edit() as s:
        for tid in task_ids:
            task = card(game, tid)
            s.claimed[0].append(task)
            s.task_points[0] += task.points
            s.record_points(s.turn, 0, tid, task.points)


@pytest.mark.parametrize("active", ["1", "2"])
def test_drawing_the_last_card_triggers_the_end_and_each_player_plays_once_more(active):
    game, _ = position({}, me=FirstOption(), opponent=FirstOption(), hand_1="test/single, test/ell",
                       hand_2="test/single, test/ell", active=active)
    trigger = int(active) - 1
    _only_in_deck(game, trigger, 1)
    game.play_turn()  # turn 3: draws the last card
    s = game.state
    assert (s.end_trigger, s.end_trigger_player, s.over) == ("deck", trigger, False)
    record = game.play()
    assert record.turns == 5 and record.end_reason == "deck"
    assert [seats_by_turn(game)[t] for t in (3, 4, 5)] == [trigger, 1 - trigger, trigger]


@pytest.mark.parametrize("mode, points, triggered", [
    ("deathmatch", 17, False), ("deathmatch", 18, True), ("high-form", 8, False), ("high-form", 9, True),
])
def test_a_score_at_the_threshold_at_the_end_of_a_turn_triggers_the_end(mode, points, triggered):
    legends = {"a5": "1l", "c3": "1l", "g3": "1l"}
    game, _ = position(legends if mode == HIGH_FORM else {}, mode=mode, actions="0")
    s = game.state
    if mode == HIGH_FORM:  # 3 legendary pieces plus claimed tasks
        claimed(game, "task/color-conquest", "task/center-cross" if points == 8 else "task/diagonals")
    else:
        award(game, 1, points)  # the non-active player's score counts too
    assert s.score(0 if mode == HIGH_FORM else 1) == points
    game.end_turn(0)
    assert s.end_trigger == ("score" if triggered else None)


def test_the_game_ends_after_the_final_round_even_if_the_score_falls_back():
    game, _ = position({"a5": "1l", "c3": "1l", "g3": "1l"}, me=FirstOption(), opponent=FirstOption())
    s = game.state
    claimed(game, "task/color-conquest", "task/diagonals")
    game.play_turn()
    assert s.end_trigger == "score" and s.score(0) == 9
    game.destroy(sq("a5"), "test")
    record = game.play()
    assert record.turns == 5 and record.end_reason == "score" and record.scores[0] == 8


def test_the_turn_limit_ends_a_game_that_would_not_end():
    game = Game(rules_cards(), DEATHMATCH, ("test", "test"), [FirstOption(), FirstOption()], 0, strict=True,
                max_turns=12)
    record = game.play()
    assert (record.turns, record.end_reason) == (12, "turn-limit")


@pytest.mark.parametrize("mine, theirs, winner, tiebreak", [
    ({"a5": "1h", "b5": "1h"}, {"i5": "2h", "h5": "2c", "h4": "2c", "h6": "2c"}, 0, "upgraded"),
    ({"a5": "1h", "b5": "1c"}, {"i5": "2h", "h5": "2c", "h4": "2c"}, 1, "pieces"),
    ({"a5": "1h", "b5": "1c"}, {"i5": "2h", "h5": "2c"}, -1, "tie"),
    ({"a5": "1l"}, {"i5": "2h", "h5": "2h", "h4": "2h"}, 0, ""),
])
def test_ties_are_broken_by_upgraded_pieces_then_pieces(mine, theirs, winner, tiebreak):
    game, _ = position(mine | theirs, actions="0")
    s = game.state
    with game.edit() as b:
        b.end_trigger, b.trigger_turn, b.turns_after_trigger = "deck", 1, 1
    game.end_turn(0)
    assert s.over and (s.record.winner, s.record.tiebreak) == (winner, tiebreak)


# ----- extra turns
class ExtraTurnOn(FirstOption):
    """Plays the first option, and on the given turns gains an extra turn (as Time Elemental does: see
    ``_play_turn``)."""

    def __init__(self, *turns: int):
        self.turns = turns


def _play_turn(game: Game) -> None:
    """A turn in which the active player gains an extra turn where his ``ExtraTurnOn`` says so."""
    game.begin_turn()
    if game.state.turn in game.strategies[game.state.active].turns:
        with game.edit() as s:
            s.counters.extra_turn = True
    game.finish_turn()


def _play(game: Game) -> GameRecord:
    while not game.state.over:
        _play_turn(game)
    return game.state.record


def _extra_turn_game(mine: ExtraTurnOn, theirs: ExtraTurnOn, **keys: str) -> Game:
    game, _ = position({}, me=mine, opponent=theirs, **keys)
    return game


def test_an_extra_turn_is_played_by_the_same_player_with_two_actions():
    game = _extra_turn_game(ExtraTurnOn(3), ExtraTurnOn())
    _play_turn(game)
    _play_turn(game)
    _play_turn(game)
    assert [seats_by_turn(game)[t] for t in (3, 4, 5)] == [0, 0, 1]
    assert sum(1 for e in game.state.record.of_kind(Place) if e.turn == 4 and e.cause == "place-action") == 2


@pytest.mark.parametrize("extra_for, extra_turn, seats", [
    ("me", 4, [1, 0, 0]),  # the last turn of the final round gains an extra turn
    ("them", 3, [1, 1, 0]),  # the first turn of the final round gains one
])
def test_extra_turns_do_not_count_toward_the_final_round(extra_for, extra_turn, seats):
    mine, theirs = (ExtraTurnOn(extra_turn), ExtraTurnOn()) if extra_for == "me" else (
        ExtraTurnOn(), ExtraTurnOn(extra_turn))
    game = _extra_turn_game(mine, theirs)
    with game.edit() as s:
        s.end_trigger, s.trigger_turn, s.active = "deck", 2, 1  # player 1 triggered the end on turn 2
    record = _play(game)
    assert record.turns == 5 and [seats_by_turn(game)[t] for t in (3, 4, 5)] == seats


def test_an_extra_turn_gained_on_the_trigger_turn_does_not_count():
    game = _extra_turn_game(ExtraTurnOn(3), ExtraTurnOn(), hand_1="test/single, test/ell")
    _only_in_deck(game, 0, 1)
    record = _play(game)
    assert game.state.trigger_turn == 3
    assert record.turns == 6 and [seats_by_turn(game)[t] for t in (3, 4, 5, 6)] == [0, 0, 1, 0]
