"""Hand-made run directories: rows written with pyarrow directly, so that a test's expected numbers come
from the rows it wrote by hand, never from the row builder or the report under test.

A row names only the columns it cares about; the others get a neutral default (0, False, "" or, for a
square, -1), so a test reads as the facts it is about.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.schema import SCHEMA_VERSION, SUMMED, TABLES
from pipelines.summaries import shard_summaries

Row = dict[str, Any]


def _default(field: pa.Field) -> Any:
    if field.name == "square":
        return -1
    if pa.types.is_boolean(field.type):
        return False
    if pa.types.is_string(field.type):
        return ""
    return 0


def game(game_id: int, mode: str, decks: tuple[str, str], first: int, winner: int, *,
         strategies: tuple[str, str] = ("random", "random"), scores: tuple[int, int] = (0, 0), turns: int = 20,
         end_reason: str = "score", tiebreak: str = "") -> Row:
    """A games row; ``winner`` is the winning seat or -1 for a tie."""
    return {
        "game_id": game_id, "cell": f"{mode}|{decks[0]}-{decks[1]}|{strategies[0]}-{strategies[1]}",
        "seed": game_id, "mode": mode, "players": 2, "deck_0": decks[0], "deck_1": decks[1],
        "strategy_0": strategies[0],
        "strategy_1": strategies[1], "first_player": first, "winner": winner, "score_0": scores[0],
        "score_1": scores[1], "turns": turns, "end_reason": end_reason, "tiebreak": tiebreak,
        "card_set": "handmade", "schema_version": SCHEMA_VERSION,
    }


def table(name: str, rows: list[Row]) -> pa.Table:
    schema = TABLES[name]
    full = [{f.name: r.get(f.name, _default(f)) for f in schema} for r in rows]
    unknown = {k for r in rows for k in r} - set(schema.names)
    assert not unknown, f"{name}: no such columns {unknown}"
    return pa.Table.from_pylist(full, schema=schema)


def write_run(path: Path, games: list[Row], manifest: dict[str, Any] | None = None, **events: list[Row]) -> Path:
    """A run directory with one Parquet file per table, in the order the rows are given (task events are
    read in file order); tables not given are written empty, but for the summed tables (pipelines.schema.SUMMED),
    which are summed from the others as the shard writer sums them."""
    unknown = set(events) - set(TABLES)
    assert not unknown, f"no such tables {unknown}"
    tables = {name: table(name, games if name == "games" else events.get(name, [])) for name in TABLES}
    summed = shard_summaries(tables)
    tables |= {name: summed[name] for name in SUMMED if name not in events}
    for name in TABLES:
        (path / name).mkdir(parents=True, exist_ok=True)
        pq.write_table(tables[name], path / name / "part-0.parquet")
    (path / "manifest.json").write_text(json.dumps(manifest if manifest is not None else {"name": path.name}))
    return path
