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

from reports.analysis import Record, card_records, estimates
from reports.dataset import Run, select_games
from reports.model import DIFF, INT, NUM, POINTS, RATE, SHARE, TEXT, Column, Section, Table
from reports.names import Names
from reports.queries import Rows, run_named
from reports.sections_cards import card_tables_for
from reports.stats import Diff, Rate, flag
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
    return Section("melee", "Melee (3-4 players)", intro, [
        Table("melee_positions", "Win rate by place in turn order", POSITION_COLUMNS, m.positions),
        Table("melee_decks", "Results by deck and strategy", DECK_COLUMNS, _deck_rows(m.q)),
        Table("melee_colours", "Colour scores at the end", COLOUR_COLUMNS, m.q["melee_colours"]),
        Table("melee_decided", "What decided the games", DECIDED_COLUMNS, _decided_rows(m.q)),
        Table("melee_improvised", "Improvised summoning", IMPROVISED_COLUMNS, _improvised_rows(m.q)),
        *card_tables_for(m.cards, "melee", "Melee"),
    ])
