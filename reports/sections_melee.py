"""The melee section: 3-4 player Deathmatch melees, read from the melee views apart from the duels.

Win rate by place in turn order (randomized: the seed draws the first player), results by deck and
strategy (descriptive: the study fixes the tables), the colour scores and what decided the games,
improvised summoning, and the cards' randomized estimates as in the duel's sections (opening hand and
position in the shuffled deck), flagged as their own false-discovery family. Melees have no tasks (they
are Deathmatches), so there are no task estimates. See docs/reports.md, "Melee".
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from reports import charts
from reports.analysis import Record, card_records, estimates
from reports.dataset import Run, select_games
from reports.model import DIFF, INT, NUM, POINTS, RATE, SHARE, TEXT, Chart, Column, Section, Table, diff_text, rate_text
from reports.names import Names
from reports.queries import Rows, run_named
from reports.sections_cards import card_tables_for, strength_forests
from reports.stats import Diff, Rate, flag, mean_interval
from reports.summary import MIN_HEADLINE, family_count, too_few

SETUP = ("melee_seats", "cards")
QUERIES = ("melee_overview", "deck_baseline", "card_hands", "card_positions", "card_plays", "flares", "melee_positions",
           "melee_decks", "melee_colours", "melee_decided", "melee_improvised")


@dataclass
class Melee:
    """The melee queries' rows, the card records built from them, and the turn-order rows (flagged once)."""

    q: dict[str, Rows]
    cards: list[Record]
    positions: list[Record]

    @property
    def games(self) -> int:
        return sum(r["games"] for r in self.q["melee_decided"])


def melee_data(runs: list[Run], names: Names, where: str, con: duckdb.DuckDBPyConnection) -> Melee | None:
    """The melees of the runs, or None when they hold none. Their randomized card estimates are flagged here,
    as one family."""
    select_games(con, runs, melee=True)
    if not con.execute("SELECT count(*) FROM games").fetchone()[0]:
        return None
    q = run_named(con, where, SETUP, QUERIES)
    cards = card_records(q, names)
    flag(estimates(cards))
    return Melee(q, cards, _position_rows(q))


def _players(mode: str) -> int:
    return int(mode.split("-")[1])


def _position_rows(q: dict[str, Rows]) -> list[Record]:
    by_mode: dict[str, list[Record]] = {}
    for r in q["melee_positions"]:
        by_mode.setdefault(r["mode"], []).append(r)
    rows = []
    for mode, positions in by_mode.items():
        games, wins = sum(r["games"] for r in positions), sum(r["wins"] for r in positions)
        for r in positions:
            here = Rate(r["wins"], r["games"])
            effect = Diff(here, Rate(wins - r["wins"], games - r["games"]))
            rows.append({"mode": mode, "position": r["position"] + 1, "win": here,
                         "fair": 1 / _players(mode), "effect": effect, "mde": effect.mde,
                         "mean_score": r["mean_score"]})
    flag([r["effect"] for r in rows])
    for r in rows:
        e = r["effect"]
        r["flags"] = ("▲" if e.value > 0 else "▼") if e.flagged else ""
    return rows


def _deck_rows(q: dict[str, Rows]) -> list[Record]:
    return [r | {"win": Rate(r["wins"], r["games"]), "fair": 1 / _players(r["mode"])} for r in q["melee_decks"]]


def _decided_rows(q: dict[str, Rows]) -> list[Record]:
    rows = []
    for r in q["melee_decided"]:
        n = r["games"]
        rows.append({"mode": r["mode"], "games": n, "by_lowest": Rate(r["by_lowest"], n),
                     "by_tiebreak": Rate(n - r["by_lowest"] - r["shared"], n), "shared": Rate(r["shared"], n),
                     "best_colour_lost": Rate(r["best_colour_lost"], n),
                     "tiebreaks": ", ".join(f"{label} {r[key]:,}" for key, label in (
                         ("by_second_lowest", "second-lowest"), ("by_highest", "highest"),
                         ("by_upgraded", "upgraded"), ("by_pieces", "pieces")) if r[key])})
    return rows


def _improvised_rows(q: dict[str, Rows]) -> list[Record]:
    rows = []
    for r in q["melee_improvised"]:
        n, k = r["games"], r["improvising_games"]
        rows.append(r | {"per_game": r["improvisations"] / n if n else None, "share": Rate(k, n),
                         "improvising": Rate(r["improvising_wins"], k), "other": Rate(r["other_wins"], n - k)})
    return rows


MODE = Column("mode", "Form")
POSITION_COLUMNS = [
    MODE, Column("position", "Turn order", INT, "1: the first player, who has 1 action on his first turn"),
    Column("win", "Win rate", RATE, "seat-games won at this place in turn order"),
    Column("fair", "Fair share", SHARE, "1 / players"),
    Column("effect", "This place minus the others", DIFF,
           "randomized (the seed draws the first player); tested and flagged"),
    Column("mde", "MDE", POINTS, "minimal detectable effect at 80% power, this sample"),
    Column("mean_score", "Mean score", NUM, "the seats' final (lowest colour) score"),
    Column("flags", "Flags", TEXT, "Benjamini-Hochberg at 5% over the turn-order places"),
]
DECK_COLUMNS = [
    MODE, Column("deck", "Deck"), Column("strategy", "Strategy"),
    Column("win", "Win rate (descriptive)", RATE, "the study fixes which decks meet: not a randomized comparison"),
    Column("fair", "Fair share", SHARE, "1 / players"),
    Column("ties", "Shared first places", INT), Column("mean_score", "Mean score", NUM),
    Column("mean_place", "Mean place", NUM, "1 is the first place"),
]
COLOUR_COLUMNS = [
    MODE, Column("seat_games", "Seat-games", INT),
    Column("mean_lowest", "Lowest colour", NUM, "mean of each seat's lowest colour score: its final score"),
    Column("mean_middle", "Middle colour", NUM, "4 players: the second-lowest of three"),
    Column("mean_highest", "Highest colour", NUM), Column("mean_colour", "Any colour", NUM),
    Column("level_seats", "Colours level", INT, "seat-games whose colour scores were all equal"),
]
DECIDED_COLUMNS = [
    MODE, Column("games", "Games", INT),
    Column("by_lowest", "Decided by the lowest colour", RATE, "the winner had the highest lowest colour score"),
    Column("by_tiebreak", "Decided by a tiebreak", RATE), Column("tiebreaks", "Tiebreaks"),
    Column("shared", "Shared first place", RATE),
    Column("best_colour_lost", "Best single colour lost", RATE,
           "games the holder of the best score in any one colour did not win: his lowest colour let him down"),
]
IMPROVISED_COLUMNS = [
    MODE, Column("strategy", "Strategy"), Column("games", "Seat-games", INT),
    Column("per_game", "Improvisations per seat-game", NUM, digits=2),
    Column("share", "Seat-games with one", RATE),
    Column("improvising", "Win rate: improvised (descriptive)", RATE,
           "who improvises depends on how the game goes: never tested"),
    Column("other", "Win rate: did not (descriptive)", RATE),
]


def _by_mode(rows: list[Record]) -> dict[str, list[Record]]:
    out: dict[str, list[Record]] = {}
    for r in rows:
        out.setdefault(r["mode"], []).append(r)
    return out


def _fair(mode: str) -> tuple[float, str]:
    return 1 / _players(mode), f"fair share, 1 in {_players(mode)}"


def _position_charts(rows: list[Record]) -> list[Chart]:
    """Per form: the win rate at each place in turn order against the fair share; a flagged place in orange."""
    out = []
    for mode, places in _by_mode(rows).items():
        items = [charts.Interval(f"place {r['position']}", r["win"].value or 0.0, *r["win"].interval,
                                 r["effect"].flagged, f"{mode}, place {r['position']}: {rate_text(r['win'])}; "
                                 f"{diff_text(r['effect'])} against the other places")
                 for r in places if r["win"].n]
        title = f"{mode}: win rate by place in turn order"
        note = "Orange: the place's difference from the others is flagged." if any(i.flagged for i in items) else ""
        out.append(Chart(f"melee-positions-{mode}", title, charts.bars(title, items, "win rate", reference=_fair(mode)),
                         note))
    return out


def _deck_charts(rows: list[Record]) -> list[Chart]:
    """Per form: each deck and strategy's win rate (descriptive) against the fair share."""
    out = []
    for mode, decks in _by_mode(rows).items():
        items = [charts.Interval(f"{r['deck']} · {r['strategy']}", r["win"].value or 0.0, *r["win"].interval,
                                 note=f"{r['deck']} ({r['strategy']}), {mode}: {rate_text(r['win'])}")
                 for r in decks if r["win"].n]
        title = f"{mode}: win rate by deck and strategy (descriptive)"
        out.append(Chart(f"melee-decks-{mode}", title, charts.bars(title, items, "win rate", reference=_fair(mode))))
    return out


COLOUR_MEASURES = (("lowest", "lowest colour"), ("middle", "middle colour"), ("highest", "highest colour"),
                   ("colour", "any colour"))


def _colour_chart(rows: Rows) -> list[Chart]:
    """The mean colour scores of each form with their 95% t intervals (the seat's score is its lowest)."""
    items = []
    for r in rows:
        for key, label in COLOUR_MEASURES:
            mean, sd = r[f"mean_{key}"], r[f"sd_{key}"]
            n = r["middle_seats"] if key == "middle" else r["seat_games"]
            if mean is None or sd is None or n < 2:
                continue
            lo, hi = mean_interval(mean, sd, n)
            items.append(charts.Interval(f"{r['mode']} · {label}", mean, lo, hi,
                                         note=f"{r['mode']}, {label}: mean {mean:.2f} ({lo:.2f} to {hi:.2f}), n={n:,}"))
    if not items:
        return []
    title = "Mean colour score at the end, per form"
    return [Chart("melee-colours-chart", title, charts.bars(title, items, "mean score (95% t interval)",
                                                            fmt=lambda v: f"{v:g}"),
                  "A seat's final score is its lowest colour score.")]


DECIDED_MEASURES = (("by_lowest", "by the lowest colour"), ("by_tiebreak", "by a tiebreak"),
                    ("shared", "shared first place"), ("best_colour_lost", "best single colour lost"))


def _decided_chart(rows: list[Record]) -> list[Chart]:
    items = [charts.Interval(f"{r['mode']} · {label}", r[key].value or 0.0, *r[key].interval,
                             note=f"{r['mode']}, {label}: {rate_text(r[key])}")
             for r in rows for key, label in DECIDED_MEASURES if r[key].n]
    if not items:
        return []
    title = "What decided the games, per form"
    return [Chart("melee-decided-chart", title, charts.bars(title, items, "share of games"))]


def melee_summary(m: Melee) -> list[str]:
    """What stands out in the melees, each statement on at least ``MIN_HEADLINE`` seat-games or games: places
    in turn order flagged, the count of card estimates flagged, and what decided the games."""
    out = []
    for r in m.positions:
        e = r["effect"]
        if e.flagged and e.n >= MIN_HEADLINE:
            out.append(f"In {r['mode']} games, turn-order place {r['position']} wins {100 * r['win'].value:.1f}% "
                       f"(fair share {100 * r['fair']:.1f}%; {100 * e.value:+.1f} points against the other places, "
                       f"flagged at a 5% false discovery rate).")
    out += family_count(estimates(m.cards), "randomized melee card estimates")
    for r in _decided_rows(m.q):
        if r["games"] >= MIN_HEADLINE:
            out.append(f"In {r['games']:,} {r['mode']} games, the holder of the best single colour score lost "
                       f"{100 * r['best_colour_lost'].value:.0f}% of them (a player's score is his lowest colour).")
        else:
            out.append(too_few(f"{r['mode']}", r["games"], "melees"))
    return out


def melee_section(m: Melee) -> Section:
    intro = (f"{m.games:,} Deathmatch melees of 3 or 4 players, every one for himself; a player's score is his "
             "lowest colour score. Decks and strategies hold the seats in rotation; the first player is drawn "
             "by the seed. The card tables read as the duel's: the randomized estimates compare seat-games by "
             "what the shuffle decided (a family of their own for the false discovery rate).")
    decks, decided = _deck_rows(m.q), _decided_rows(m.q)
    return Section("melee", "Melee (3-4 players)", intro, [
        Table("melee_positions", "Win rate by place in turn order", POSITION_COLUMNS, m.positions),
        *_position_charts(m.positions),
        Table("melee_decks", "Results by deck and strategy", DECK_COLUMNS, decks),
        *_deck_charts(decks),
        Table("melee_colours", "Colour scores at the end", COLOUR_COLUMNS, m.q["melee_colours"]),
        *_colour_chart(m.q["melee_colours"]),
        Table("melee_decided", "What decided the games", DECIDED_COLUMNS, decided),
        *_decided_chart(decided),
        Table("melee_improvised", "Improvised summoning", IMPROVISED_COLUMNS, _improvised_rows(m.q)),
        *card_tables_for(m.cards, "melee", "Melee"),
        *strength_forests(m.cards, (), "being"),
        *strength_forests(m.cards, (), "legend"),
    ])
