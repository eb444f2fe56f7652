"""Run the report's SQL files (``reports/sql/*.sql``) and return their rows as dictionaries."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from reports.dataset import DatasetError

SQL_DIR = Path(__file__).parent / "sql"
SETUP = ("seats", "cards")  # views and tables the queries read
QUERIES = ("overview", "deck_baseline", "card_hands", "card_plays", "flares", "tasks",
           "task_decks", "matchups", "strategy_pairings", "first_player", "game_lengths", "end_reasons",
           "score_margins", "card_positions", "task_setup", "ablation", "level_endings", "skill_depth")

ARMS_ONLY = ("ablation",)  # the queries of ablation arms' games, which have no rows without them
Rows = list[dict[str, Any]]


def sql(name: str) -> str:
    return (SQL_DIR / f"{name}.sql").read_text()


def _execute(con: duckdb.DuckDBPyConnection, name: str, where: str) -> duckdb.DuckDBPyConnection:
    try:
        return con.execute(sql(name))
    except duckdb.Error as e:
        first = str(e).splitlines()[0]
        raise DatasetError(f"{where}: could not read the data (a damaged Parquet file?) while running "
                           f"{name}.sql: {first}") from None


def run_queries(con: duckdb.DuckDBPyConnection, where: str) -> dict[str, Rows]:
    """Every query's rows, by query name; ``where`` names the runs in error messages."""
    return run_named(con, where, SETUP, QUERIES)


def run_named(con: duckdb.DuckDBPyConnection, where: str, setup: tuple[str, ...],
              queries: tuple[str, ...]) -> dict[str, Rows]:
    """The rows of ``queries``, after running the ``setup`` files, by query name."""
    for name in setup:
        _execute(con, name, where)
    arms = con.execute("SELECT count(*) FROM games_all WHERE variant <> ''").fetchone()[0]
    out: dict[str, Rows] = {}
    for name in queries:
        if name in ARMS_ONLY and not arms:  # it would read every card event to find no pair
            out[name] = []
            continue
        cur = _execute(con, name, where)
        columns = [d[0] for d in cur.description]
        out[name] = [dict(zip(columns, row, strict=True)) for row in cur.fetchall()]
    return out
