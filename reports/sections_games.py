"""Game-level sections: what the report covers, first-player advantage, matchups, strategy pairings, game
length, how games ended and score margins."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from reports import charts
from reports.analysis import Record
from reports.dataset import Run
from reports.model import INT, NUM, RATE, TEXT, Chart, Column, Section, Table
from reports.stats import Rate

Query = dict[str, list[Record]]


def overview_section(runs: list[Run], q: Query) -> Section:
    per_run: dict[int, dict[str, Any]] = defaultdict(lambda: {"games": 0, "forms": [], "card_sets": set()})
    for r in q["overview"]:
        entry = per_run[r["run"]]
        entry["games"] += r["games"]
        entry["forms"].append(f"{r['mode']} ({r['games']:,})")
        entry["card_sets"].update(r["card_sets"])
    rows = []
    for run in runs:
        entry = per_run[run.index]
        card_set = run.manifest.get("card_set")
        rows.append({
            "run": run.label, "path": str(run.path), "games": entry["games"],
            "planned": run.manifest.get("games") if isinstance(run.manifest.get("games"), int) else None,
            "forms": ", ".join(entry["forms"]), "card_sets": ", ".join(sorted(entry["card_sets"])),
            "dataset": str(run.manifest.get("dataset_id", "")),
            "source": str(card_set.get("source", "")) if isinstance(card_set, dict) else "",
        })
    columns = [Column("run", "Run"), Column("path", "Directory"), Column("games", "Games", INT),
               Column("planned", "Games planned", INT, "from the run's manifest"), Column("forms", "Forms"),
               Column("card_sets", "Card-set fingerprints"), Column("dataset", "Dataset id"),
               Column("source", "Card set")]
    return Section("overview", "What this report covers", "", [Table("runs", "Runs", columns, rows)])


def _distribution(counts: list[tuple[int, int]]) -> dict[str, float]:
    """Mean, quantiles and extremes of a distribution given as (value, count) pairs."""
    counts = sorted(counts)
    total = sum(c for _, c in counts)

    def quantile(p: float) -> float:
        seen = 0
        for v, c in counts:
            seen += c
            if seen >= p * total:
                return v
        return counts[-1][0]

    return {"games": total, "mean": sum(v * c for v, c in counts) / total, "p10": quantile(0.1),
            "median": quantile(0.5), "p90": quantile(0.9), "min": counts[0][0], "max": counts[-1][0]}


def _distribution_block(q: Query, query: str, key: str, what: str, x_label: str) -> list[Table | Chart]:
    by_mode: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for r in q[query]:
        by_mode[r["mode"]].append((r[key], r["games"]))
    series = {}
    rows = []
    for mode, counts in sorted(by_mode.items()):
        stats = _distribution(counts)
        series[mode] = [(v, c / stats["games"]) for v, c in counts]
        rows.append({"mode": mode} | stats)
    title = f"{what}: share of games"
    columns = [Column("mode", "Form"), Column("games", "Games", INT), Column("mean", "Mean", NUM, digits=2),
               Column("p10", "10th percentile", NUM, digits=0), Column("median", "Median", NUM, digits=0),
               Column("p90", "90th percentile", NUM, digits=0), Column("min", "Min", NUM, digits=0),
               Column("max", "Max", NUM, digits=0)]
    return [Chart(f"{query}-chart", title, charts.lines(title, series, x_label, "share of games")),
            Table(query, what, columns, rows)]


def _matchup_charts(q: Query) -> list[Chart]:
    groups: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for r in q["matchups"]:
        groups[(r["mode"], r["strategy"], r["opp_strategy"])].append(r)
    out = []
    for (mode, strategy, opp), rows in sorted(groups.items()):
        decks = sorted({r["deck"] for r in rows})
        opps = sorted({r["opp_deck"] for r in rows})
        cells = {}
        for r in rows:
            rate = Rate(r["wins"], r["games"])
            lo, hi = rate.interval
            cells[(decks.index(r["deck"]), opps.index(r["opp_deck"]))] = (
                rate.value or 0.0,
                f"{r['deck']} against {r['opp_deck']}: {rate.value:.1%} (95% {lo:.1%}–{hi:.1%}) of "
                f"{rate.n:,} seat-games, {r['ties']:,} ties")
        title = f"{mode}: {strategy} (rows) against {opp} (columns), row deck's win rate"
        out.append(Chart(f"matchups-{mode}-{strategy}-{opp}", title,
                         charts.heatmap(title, decks, opps, cells, "deck \\ against")))
    return out


def deck_rows(q: Query) -> tuple[list[Record], list[str]]:
    """Per form, strategy pairing and deck: the win rate overall, without mirrors and per opposing deck
    (seat-games; ties are games not won, counted apart), and the opposing decks seen."""
    groups: dict[tuple[str, str, str, str], dict[str, list[int]]] = defaultdict(dict)
    for r in q["matchups"]:
        groups[(r["mode"], r["strategy"], r["opp_strategy"], r["deck"])][r["opp_deck"]] = [
            r["games"], r["wins"], r["ties"]]
    opps = sorted({r["opp_deck"] for r in q["matchups"]})
    rows = []
    for (mode, strategy, opp_strategy, deck), by_opp in sorted(groups.items()):
        others = [v for o, v in by_opp.items() if o != deck]
        total = [sum(v[i] for v in by_opp.values()) for i in range(3)]
        row: Record = {"mode": mode, "strategy": strategy, "opp_strategy": opp_strategy, "deck": deck,
                       "games": total[0], "won": Rate(total[1], total[0]), "tie_rate": Rate(total[2], total[0]),
                       "no_mirror": Rate(sum(v[1] for v in others), sum(v[0] for v in others))}
        row |= {f"vs_{o}": Rate(by_opp[o][1], by_opp[o][0]) for o in opps if o in by_opp}
        rows.append(row)
    return rows, opps


def _decks_block(q: Query) -> list[Table | Chart]:
    rows, opps = deck_rows(q)
    columns = [Column("mode", "Form"), Column("strategy", "Strategy"), Column("opp_strategy", "Against strategy"),
               Column("deck", "Deck"), Column("games", "Seat-games", INT),
               Column("won", "Win rate", RATE, "all seat-games, mirrors included; a tie is not a win"),
               Column("tie_rate", "Ties", RATE),
               Column("no_mirror", "Win rate without mirrors", RATE, "against the other decks only")]
    columns += [Column(f"vs_{o}", f"Against {o}", RATE, f"seat-games against {o}") for o in opps]
    charts_out: list[Table | Chart] = []
    for key in sorted({(r["mode"], r["strategy"], r["opp_strategy"]) for r in rows}):
        items = []
        for r in rows:
            if (r["mode"], r["strategy"], r["opp_strategy"]) == key and r["no_mirror"].n:
                rate = r["no_mirror"]
                lo, hi = rate.interval
                items.append(charts.Interval(r["deck"], rate.value or 0.0, lo, hi,
                                             note=f"{r['deck']}: {rate.value:.1%} of {rate.n:,} seat-games"))
        if items:
            title = f"{key[0]}: {key[1]} against {key[2]}, deck win rate without mirrors"
            charts_out.append(Chart(f"decks-{'-'.join(key)}", title, charts.bars(title, items, "win rate")))
    note = ("A mirror's win rate is (1 - ties) / 2 by construction, so 'without mirrors' is the deck's "
            "strength against the others.")
    return [Table("decks", "Deck win rate per form", columns, rows, note), *charts_out]


def first_player_rows(q: Query) -> list[Record]:
    """Per form and strategies: the first and second player's win rates, ties, and the first player's share
    of the decisive games (the ties left out), which the summary's verdict uses."""
    return [r | {"first_won": Rate(r["first_wins"], r["games"]), "second_won": Rate(r["second_wins"], r["games"]),
                 "tie_rate": Rate(r["ties"], r["games"]),
                 "decisive": Rate(r["first_wins"], r["first_wins"] + r["second_wins"])} for r in q["first_player"]]


def games_section(q: Query) -> Section:
    first = first_player_rows(q)
    first_cols = [Column("mode", "Form"), Column("first_strategy", "First player's strategy"),
                  Column("second_strategy", "Second player's strategy"), Column("games", "Games", INT),
                  Column("first_won", "First player's win rate", RATE),
                  Column("second_won", "Second player's win rate", RATE), Column("tie_rate", "Ties", RATE),
                  Column("decisive", "First player's share of decisive games", RATE,
                         "first player's wins / games someone won")]
    seat_cols = [Column("games", "Seat-games", INT), Column("won", "Win rate", RATE),
                 Column("tie_rate", "Ties", RATE)]
    matchups = [r | {"won": Rate(r["wins"], r["games"]), "tie_rate": Rate(r["ties"], r["games"])}
                for r in q["matchups"]]
    match_cols = [Column("mode", "Form"), Column("strategy", "Strategy"),
                  Column("opp_strategy", "Against strategy"), Column("deck", "Deck"),
                  Column("opp_deck", "Against deck")] + seat_cols
    pairings = [r | {"won": Rate(r["wins"], r["games"]), "tie_rate": Rate(r["ties"], r["games"])}
                for r in q["strategy_pairings"]]
    pair_cols = [Column("mode", "Form"), Column("strategy", "Strategy"),
                 Column("opp_strategy", "Against strategy")] + seat_cols
    mode_games: dict[str, int] = defaultdict(int)
    for r in q["end_reasons"]:
        mode_games[r["mode"]] += r["games"]
    ends = [r | {"share": Rate(r["games"], mode_games[r["mode"]]), "tiebreak": r["tiebreak"] or "none"}
            for r in q["end_reasons"]]
    end_cols = [Column("mode", "Form"),
                Column("end_reason", "End triggered by", TEXT, "deck, score or turn-limit"),
                Column("tiebreak", "Decided by", TEXT, "none: the scores differed"),
                Column("games", "Games", INT), Column("share", "Share of the form's games", RATE)]
    intro = "A seat-game is one player's side of one game; a mirror match gives two."
    return Section("games", "Games", intro, [
        Table("first_player", "First-player advantage", first_cols, first),
        *_decks_block(q),
        *_matchup_charts(q),
        Table("matchups", "Deck matchups", match_cols, matchups,
              "Each row: the deck's seat-games against that deck."),
        Table("strategy_pairings", "Strategy pairings", pair_cols, pairings),
        *_distribution_block(q, "game_lengths", "turns", "Game length (turns)", "turns"),
        Table("end_reasons", "How games ended", end_cols, ends),
        *_distribution_block(q, "score_margins", "margin", "Score margin", "final score difference"),
    ])
