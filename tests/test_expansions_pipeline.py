"""The expansion decks (Everfrost, Nethervoid, Etherweave) in studies, ablation, the dataset, the report and the
bench: "all+expansions" decks and cards, vanilla expansion beings, the frozen/thawed/warped card events, and a
study of expansion decks on local Ray."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import polars as pl
import pytest

from pipelines.study import Study, Variant, load_study, parse_study
from pipelines.tables import TableBuilder
from pipelines.variants import VARIANT_DECK, variant_cards
from sim.bench import pairings
from sim.cards import BASE_DECKS, load_card_set
from sim.game import Game
from strategies import make_strategy

EXPANSIONS = ("etherweave", "everfrost", "nethervoid")
ALL = sorted((*BASE_DECKS, *EXPANSIONS))
BIN = Path(sys.executable).parent


def study(**changes: object) -> Study:
    data: dict[str, object] = {"forms": ["high-form"], "deck_pairings": "all", "strategy_pairings": "all",
                               "players": {"r": {"strategy": "random"}}, "games_per_cell": 2, "base_seed": 1}
    return parse_study({**data, **changes}, Path("expansions.toml"))


def test_all_decks_are_the_base_decks_and_all_plus_expansions_every_deck():
    assert {d for p in study().deck_pairings for d in p} == set(BASE_DECKS)
    pairs = study(deck_pairings="all+expansions").deck_pairings
    assert len(pairs) == 21 and {d for p in pairs for d in p} == set(ALL)
    assert ("everfrost", "nethervoid") in pairs and ("everfrost", "everfrost") in pairs
    named = study(deck_pairings=[["everfrost", "imperial"], ["etherweave", "nethervoid"]]).deck_pairings
    assert named == (("everfrost", "imperial"), ("etherweave", "nethervoid"))
    melee = study(forms=["melee-3"], deck_pairings=None, strategy_pairings=None, deck_tables="all+expansions",
                  strategy_tables=[["r", "r", "r"]], games_per_cell=3)
    assert any("nethervoid" in t for t in melee.deck_tables) and all(len(set(t)) >= 2 for t in melee.deck_tables)
    teams = study(forms=["team-deathmatch"], deck_pairings=None, strategy_pairings=None,
                  team_deck_tables="all+expansions", team_strategy_tables=[[["r", "r"], ["r", "r"]]], games_per_cell=4)
    assert {d for (a, b) in teams.team_deck_tables for d in (*a, *b)} == set(ALL)
    assert len(teams.team_deck_tables) > len(study(forms=["team-deathmatch"], deck_pairings=None,
                                                   strategy_pairings=None, team_deck_tables="all",
                                                   team_strategy_tables=[[["r", "r"], ["r", "r"]]],
                                                   games_per_cell=4).team_deck_tables)


def test_the_ablation_names_expansion_cards_by_id_family_or_all_plus_expansions():
    cards = load_card_set()
    arms = study(ablation={"cards": ["everfrost/*"]}).ablation
    assert [v.card for v in arms] == [b.id for b in cards.decks["everfrost"]] and len(arms) == 18
    one = study(ablation={"cards": ["etherweave/time-traveler"], "mode": "remove"}).ablation
    assert one == (Variant("etherweave/time-traveler", "remove"),)
    base = {v.card for v in study(ablation={"cards": "all"}).ablation}
    every = {v.card for v in study(ablation={"cards": "all+expansions"}).ablation}
    assert not any(c.split("/")[0] in EXPANSIONS for c in base)
    assert every - base == {b.id for d in EXPANSIONS for b in cards.decks[d]}


def test_a_vanilla_expansion_being_loses_its_frozen_and_warp_texts_and_summoning_anywhere():
    cards = load_card_set()
    for card_id, kept in (("everfrost/ice-wyvern", "frozen"), ("etherweave/paradox-worm", "warp"),
                          ("etherweave/time-traveler", "summon_anywhere")):
        assert getattr(cards.by_id[card_id], kept)
        deck = card_id.split("/")[0]
        changed = variant_cards(cards, Variant(card_id, "vanilla"))
        vanilla = next(b for b in changed.decks[VARIANT_DECK.format(deck=deck)] if b.id == card_id)
        assert (vanilla.effect, vanilla.frozen, vanilla.warp, vanilla.summon_anywhere) == ((), None, None, False)
        assert vanilla.rank == cards.by_id[card_id].rank
    # the vanilla Ice Wyvern is summoned and discarded, never frozen
    changed = variant_cards(cards, Variant("everfrost/ice-wyvern", "vanilla"))
    frozen = set()
    for seed in range(40):
        players = [make_strategy("builder", seat, seed) for seat in range(2)]
        record = Game(changed, "deathmatch", ("everfrost~variant", "imperial"), players, seed).play()
        frozen |= {e.card for e in record.events if e.kind == "freeze"}
    assert frozen and "everfrost/ice-wyvern" not in frozen


def _card_events(decks: tuple[str, str], seeds: range) -> pl.DataFrame:
    cards = load_card_set()
    builder = TableBuilder()
    for seed in seeds:
        players = [make_strategy("builder", seat, seed) for seat in range(2)]
        record = Game(cards, "high-form", decks, players, seed).play()
        builder.add(seed, "cell", record, "fp")
    return pl.from_arrow(builder.tables()["card_events"])


def test_card_events_record_freezes_thaws_and_warps_with_the_outcome_of_their_texts():
    frost = _card_events(("everfrost", "sylvan"), range(12))
    kinds = frost["event"].value_counts().to_dicts()
    kinds = {k["event"]: k["count"] for k in kinds}
    assert kinds["frozen"] > 0 and kinds["thawed"] > 0 and "warped" not in kinds
    thaws = frost.filter(pl.col("event") == "thawed")
    assert set(thaws["square"]) == {-1} and thaws["card_id"].str.starts_with("everfrost/").all()
    outcome = sum(thaws[c].cast(pl.Int64).sum() for c in ("enemy_common", "enemy_heroic", "upgrades", "downgrades",
                                                          "placed", "converted", "own_destroyed"))
    assert outcome > 0  # the frozen texts did something
    warps = _card_events(("etherweave", "highland"), range(12)).filter(pl.col("event") == "warped")
    assert warps.height > 0 and warps["card_id"].str.starts_with("etherweave/").all()


def test_base_deck_card_events_have_no_expansion_rows():
    base = _card_events(("imperial", "sylvan"), range(4))
    assert not base.filter(pl.col("event").is_in(["frozen", "thawed", "warped"])).height


def test_bench_pairings_name_the_expansion_decks():
    base, expansions = ["imperial", "highland", "sylvan"], EXPANSIONS
    assert len(pairings("all", base, 2, expansions)) == 9
    with_expansion = pairings("expansions", base, 2, expansions)
    assert len(with_expansion) == 27 and all(set(p) & set(expansions) for p in with_expansion)
    assert len(pairings("all+expansions", base, 2, expansions)) == 36
    assert pairings("everfrost-imperial,nethervoid-etherweave", base, 2, expansions) == [
        ("everfrost", "imperial"), ("nethervoid", "etherweave")]
    assert all(set(t) & set(expansions) for t in pairings("expansions", base, 3, expansions))


def test_the_expansions_study_is_valid():
    s = load_study(Path(__file__).parent.parent / "studies" / "expansions.toml")
    assert {d for p in s.deck_pairings for d in p} == set(ALL) and len(s.deck_pairings) == 21
    assert set(s.forms) == {"high-form", "deathmatch"}


RAY_STUDY = """
name = "ray-expansions"
forms = ["high-form", "deathmatch"]
deck_pairings = [["everfrost", "nethervoid"], ["etherweave", "imperial"]]
strategy_pairings = [["random", "random"]]
games_per_cell = 12
base_seed = 17
shard_size = 8

[ablation]
cards = ["everfrost/ice-wyvern"]
"""


@pytest.mark.ray
def test_an_expansion_study_gives_the_same_rows_on_one_or_two_workers_and_is_reported(tmp_path):
    from tests.test_pipelines_ray import assert_same_rows, tashkalar_run

    path = tmp_path / "expansions.toml"
    path.write_text(RAY_STUDY)
    one, two = tmp_path / "one", tmp_path / "two"
    printed = tashkalar_run(path, two, "--workers", "2").stdout
    assert "high-form|everfrost-nethervoid|random-random" in printed
    tashkalar_run(path, one, "--workers", "1")
    assert_same_rows(two, one)
    arms = duckdb.sql(f"select variant, count(*) from '{two}/games/*.parquet' group by variant order by variant")
    assert arms.fetchall() == [("", 48), ("vanilla:everfrost/ice-wyvern", 48)]
    csv_dir = tmp_path / "csv"
    result = subprocess.run([str(BIN / "tashkalar"), "report", str(two), "--csv", str(csv_dir), "--no-html"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    decks = (csv_dir / "decks.csv").read_text()
    for deck in ("everfrost", "nethervoid", "etherweave", "imperial"):
        assert f",{deck}," in decks, deck
    beings = (csv_dir / "beings.csv").read_text()
    assert "Ice Wyvern" in beings and "Paradox Worm" in beings and "Hell Hound" in beings
    free = (csv_dir / "being_free_plays.csv").read_text()
    assert "everfrost" in free and "etherweave" in free
    assert "Ice Wyvern" in (csv_dir / "ablation.csv").read_text()
