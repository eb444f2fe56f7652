"""Game records to Arrow tables with the schemas of pipelines.schema: the Python path, for shards with a Python
strategy in them (a shard of core players gets the same tables from the core, core/py/src/tables.rs; the tests
hold the two to each other).

This runs on the workers for every game, so ``add`` only keeps the record's events; ``tables`` turns a whole
shard's events into one frame (a column per field the tables need, one frame per event kind, concatenated in
event order) and makes the table rows from it with Polars (columnar work instead of a Python loop per event).
An effect's outcome is counted on the events that follow a summon (or an expansion's thaw or warp) and name its
card as their cause, up to the game's next summon, thaw or warp.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import polars as pl
import pyarrow as pa

from pipelines.schema import SCHEMA_VERSION, TABLES
from pipelines.summaries import shard_summaries
from sim.record import (
    Convert,
    Destroy,
    Discard,
    Downgrade,
    Draw,
    Event,
    FlareInvoked,
    Freeze,
    GameRecord,
    Held,
    Improvise,
    Place,
    Points,
    Return,
    Summon,
    TaskClaim,
    TaskReveal,
    Thaw,
    Upgrade,
    Warp,
)
from sim.state import GameState

# The event kinds the tables read, with the fields they read: (event field, frame column, frame type).
# "card" is the card a row is about: the card itself, a piece event's cause, a task or a points source.
_FIELDS: dict[type[Event], tuple[tuple[str, str, pl.DataType], ...]] = {
    Draw: (("card", "card", pl.String()), ("opening", "opening", pl.Boolean()), ("deck", "deck", pl.String())),
    Summon: (("card", "card", pl.String()), ("square", "square", pl.Int16())),
    Discard: (("card", "card", pl.String()),),
    Return: (("card", "card", pl.String()),),
    Held: (("card", "card", pl.String()),),
    FlareInvoked: (("card", "card", pl.String()), ("upper", "upper", pl.Boolean()),
                   ("lower", "lower", pl.Boolean()), ("lead", "lead", pl.Int16()), ("against", "against", pl.Int8())),
    Destroy: (("cause", "card", pl.String()), ("owner", "owner", pl.Int8()), ("rank", "rank", pl.Int8())),
    Upgrade: (("cause", "card", pl.String()),),
    Downgrade: (("cause", "card", pl.String()),),
    Place: (("cause", "card", pl.String()),),
    Convert: (("cause", "card", pl.String()),),
    TaskReveal: (("task", "card", pl.String()),),
    TaskClaim: (("task", "card", pl.String()), ("points", "points", pl.Int16())),
    Points: (("source", "card", pl.String()), ("points", "points", pl.Int16()), ("colour", "colour", pl.Int8())),
    Freeze: (("card", "card", pl.String()),),  # Everfrost: the card became its seat's frozen effect
    Thaw: (("card", "card", pl.String()),),  # Everfrost: the frozen effect thawed (its frozen text)
    Warp: (("card", "card", pl.String()),),  # Etherweave: the card's warp text played from hand
}
_LIFECYCLE = {"discard": "discarded", "return": "returned", "held": "held", "freeze": "frozen"}
# The plays whose effect the outcome counters count: a summon, and (expansions) a thaw's frozen text and a warp text
# played from hand; the events that follow and name the card as their cause, up to the game's next such play.
_PLAYS = {"summon": "played", "thaw": "thawed", "warp": "warped"}
_EFFECT_KINDS = ("destroy", "upgrade", "downgrade", "place", "convert")
_COUNTERS = ("enemy_common", "enemy_heroic", "enemy_legendary", "own_destroyed", "upgrades", "downgrades",
             "placed", "converted")
_DECK_CARD_TYPE = {"personal": "being", "legend": "legend", "flare": "flare"}


def _card_type(card: pl.Expr) -> pl.Expr:
    return (pl.when(card.str.starts_with("legend/")).then(pl.lit("legend"))
            .when(card.str.starts_with("flare/")).then(pl.lit("flare")).otherwise(pl.lit("being")))


def setup_order(state: GameState) -> tuple[list[str], ...]:
    """Each seat's being deck in the order the setup shuffle left it, first drawn first: the opening hand
    (in draw order), then the deck from its top. Call it right after ``Game.setup``. A team game: the 4
    players', each from his side's slots or the bench."""
    if getattr(state, "team_game", False):
        members = [state.member(seat) for seat in range(state.players)]
        return tuple([c.id for c in m.hand] + [c.id for c in reversed(m.deck)] for m in members)
    return tuple([c.id for c in state.hand[p]] + [c.id for c in reversed(state.deck[p])]
                 for p in range(state.seats))


def _places(record: GameRecord, seats: int, teams: bool) -> list[int]:
    """Each seat's place: the melee's ranking; in a duel 1 for the winner (both on a tie), 2 for the other; in a
    team game 1 for both seats of the winning team (all four on a tie)."""
    if record.places:
        return record.places
    return [1 if record.winner in (-1, p % 2 if teams else p) else 2 for p in range(seats)]


class TableBuilder:
    """Collects the records of many games and makes one Arrow table per kind."""

    def __init__(self) -> None:
        self.games: list[tuple[Any, ...]] = []
        self.records: list[tuple[int, list[Event]]] = []
        self.deck_order: list[tuple[int, int, str, int]] = []
        self.seats: list[tuple[Any, ...]] = []
        self.colour_points: list[tuple[int, int, int, int, bool]] = []
        self.passes: list[tuple[int, int, int, int, str]] = []
        self.team_games: list[int] = []

    def add(self, game_id: int, cell: str, record: GameRecord, card_set: str,
            players: tuple[str, ...] | None = None, variant: str = "", variant_seat: int = -1,
            deck_order: tuple[list[str], ...] = ([], [])) -> None:
        """``players``: the labels for the strategy columns (a study's player labels); default: the names.
        ``deck_order``: each seat's being ids in their shuffled order at setup (see ``setup_order``)."""
        cfg = record.config
        strategies = players or cfg["strategies"]
        decks, n = cfg["decks"], len(cfg["decks"])
        teams = bool(cfg.get("teams"))  # 2 against 2: team = seat % 2; scores and winner per team
        self.games.append((
            game_id, cell, cfg["seed"], cfg["mode"], n, teams, decks[0], decks[1], strategies[0], strategies[1],
            record.first_player, record.winner, record.scores[0], record.scores[1], record.turns,
            record.end_reason, record.tiebreak, card_set, SCHEMA_VERSION, variant, variant_seat))
        improvised = [0] * n
        for e in record.events:
            if type(e) is Improvise:
                improvised[e.seat] += 1
            elif e.kind == "pass_control":
                self.passes.append((game_id, e.turn, e.seat, e.to, e.during))  # type: ignore[attr-defined]
        if teams:
            self.team_games.append(game_id)
        places = _places(record, n, teams)
        team = [p % 2 if teams else p for p in range(n)]
        self.seats.extend((game_id, p, team[p], decks[p], strategies[p], (p - record.first_player) % n,
                           record.scores[team[p]], places[p], improvised[p]) for p in range(n))
        for p, row in enumerate(record.colour_scores):
            self.colour_points.extend((game_id, p, c, v, v == record.scores[p])
                                      for c, v in enumerate(row) if v is not None)
        self.records.append((game_id, record.events))
        self.deck_order.extend((game_id, seat, card, pos) for seat, ids in enumerate(deck_order)
                               for pos, card in enumerate(ids))

    def _event_frame(self) -> pl.DataFrame:
        """Every event the tables read, in order: ``idx`` (position in the shard), ``game_id``, ``kind``,
        ``turn``, ``seat`` and the columns of ``_FIELDS`` (null where a kind has no such field)."""
        picked: dict[type[Event], tuple[list[int], list[int], list[Event]]] = {k: ([], [], []) for k in _FIELDS}
        idx = 0
        for game_id, events in self.records:
            for event in events:
                bucket = picked.get(type(event))
                if bucket is not None:
                    bucket[0].append(idx)
                    bucket[1].append(game_id)
                    bucket[2].append(event)
                idx += 1
        frames = []
        for kind, (where, games, events) in picked.items():
            columns = [pl.Series("idx", where, pl.Int64()), pl.Series("game_id", games, pl.Int64()),
                       pl.Series("kind", [kind.kind] * len(events), pl.String()),
                       pl.Series("turn", list(map(attrgetter("turn"), events)), pl.Int16()),
                       pl.Series("seat", list(map(attrgetter("seat"), events)), pl.Int8())]
            columns += [pl.Series(column, list(map(attrgetter(name), events)), dtype)
                        for name, column, dtype in _FIELDS[kind]]
            frames.append(pl.DataFrame(columns))
        ev = pl.concat(frames, how="diagonal").sort("idx")
        summon = pl.col("kind").is_in(list(_PLAYS))
        team_game = pl.col("game_id").is_in(self.team_games)
        return ev.with_columns(
            pl.when(summon).then(pl.col("idx")).forward_fill().over("game_id").alias("summon_idx"),
            pl.when(summon).then(pl.col("card")).forward_fill().over("game_id").alias("summon_card"),
            # the colour the event's seat plays: its team in a team game (a destroy's owner is the team)
            pl.when(team_game).then(pl.col("seat") % 2).otherwise(pl.col("seat")).cast(pl.Int8()).alias("side"),
        )

    def _card_rows(self, ev: pl.DataFrame) -> pl.DataFrame:
        kind, card = pl.col("kind"), pl.col("card")
        rank = pl.col("rank")
        destroy = kind == "destroy"
        enemy = destroy & (pl.col("owner") != pl.col("side"))
        effects = (ev.filter(kind.is_in(_EFFECT_KINDS) & (card == pl.col("summon_card")))
                   .group_by("summon_idx").agg(
                       (enemy & (rank == 0)).sum().alias("enemy_common"),
                       (enemy & (rank == 1)).sum().alias("enemy_heroic"),
                       (enemy & (rank == 2)).sum().alias("enemy_legendary"),
                       (destroy & ~enemy).sum().alias("own_destroyed"),
                       *[(kind == k).sum().alias(name) for k, name in zip(_EFFECT_KINDS[1:], _COUNTERS[4:],
                                                                           strict=True)]))
        zero = [pl.lit(0).alias(c) for c in _COUNTERS]
        base = [pl.col("idx"), pl.col("game_id"), pl.col("turn"), pl.col("seat"), card.alias("card_id")]
        played = (ev.filter(kind.is_in(list(_PLAYS)))
                  .join(effects, left_on="idx", right_on="summon_idx", how="left")
                  .select(*base, _card_type(card).alias("card_type"),
                          kind.replace_strict(_PLAYS, return_dtype=pl.String).alias("event"),
                          pl.lit(False).alias("opening"), pl.col("square").fill_null(-1),
                          *[pl.col(c).fill_null(0) for c in _COUNTERS]))
        drawn = ev.filter(kind == "draw").select(
            *base, pl.col("deck").replace_strict(_DECK_CARD_TYPE, return_dtype=pl.String).alias("card_type"),
            pl.lit("drawn").alias("event"), pl.col("opening"),
            pl.lit(-1).alias("square"), *zero)
        other = ev.filter(kind.is_in([*_LIFECYCLE, "flare"])).select(
            *base, _card_type(card).alias("card_type"),
            kind.replace_strict({**_LIFECYCLE, "flare": "invoked"}, return_dtype=pl.String).alias("event"),
            pl.lit(False).alias("opening"), pl.lit(-1).alias("square"), *zero)
        return pl.concat([drawn, played, other], how="vertical_relaxed").sort("idx").drop("idx")

    def tables(self) -> dict[str, pa.Table]:
        schemas = TABLES
        ev = self._event_frame()
        kind = pl.col("kind")
        frames = {
            "card_events": self._card_rows(ev),
            "task_events": ev.filter(kind.is_in(["task_reveal", "task_claim"])).select(
                "game_id", "turn", pl.when(kind == "task_claim").then(pl.col("seat")).otherwise(-1).alias("seat"),
                pl.col("card").alias("task_id"),
                pl.when(kind == "task_claim").then(pl.lit("claimed")).otherwise(pl.lit("revealed")).alias("event"),
                pl.when(kind == "task_claim").then(pl.col("points")).otherwise(0).alias("points")),
            "flare_events": ev.filter(kind == "flare").select(
                "game_id", "turn", "seat", pl.col("card").alias("flare_id"), "upper", "lower",
                pl.col("lead").alias("behind_by"), "against"),
            "points": ev.filter(kind == "points").select(
                "game_id", "turn", "seat", pl.col("card").alias("source"), "points", "colour"),
        }
        out = {"games": pa.Table.from_pylist(
            [dict(zip(schemas["games"].names, row, strict=True)) for row in self.games], schema=schemas["games"])}
        for name, rows in (("deck_order", self.deck_order), ("seat_results", self.seats),
                           ("colour_points", self.colour_points), ("pass_control", self.passes)):
            out[name] = pa.Table.from_pylist([dict(zip(schemas[name].names, row, strict=True)) for row in rows],
                                             schema=schemas[name])
        for name, frame in frames.items():
            out[name] = frame.to_arrow().select(schemas[name].names).cast(schemas[name])
        out |= shard_summaries(out)
        return {name: out[name] for name in schemas}
