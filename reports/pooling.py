"""Whether runs may be pooled in one report: never the same games twice, and runs of different card sets,
players or code only when asked for (and then the report says so).

A report's estimates treat its games as independent draws of one set of conditions. A run given twice (a
copied directory keeps its dataset id), or two runs of one study on one base seed (two nightly runs replay
the same games), would count every game twice and narrow every interval; those are refused. Runs of one
study on different seeds are independent samples and pool freely. Runs whose card sets or code differ, or
that give one player label to different players, would mix conditions inside one estimate; they are refused
unless ``allow_mixed``. Runs of different players (strength levels from separate runs) are not a mix: the
report keeps every player apart (docs/reports.md).

``regress`` compares runs that share seeds on purpose and opens them without this check.
"""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

import duckdb

from reports.dataset import DatasetError, Run, table_relation
from reports.queries import sql

ALLOW_MIXED_FLAG = "--allow-mixed-runs"


class PoolingError(DatasetError):
    """Runs that cannot be pooled in one report: the same games twice, or a mix not asked for."""


def check_pooling(runs: list[Run], allow_mixed: bool = False) -> list[str]:
    """Refuse runs that hold the same games; return how the runs' conditions differ (empty when they do not),
    refusing any difference unless ``allow_mixed``."""
    if len(runs) < 2:
        return []
    _refuse_same_dataset(runs)
    con = duckdb.connect(":memory:")
    try:
        con.execute("CREATE VIEW pooled_games AS " + " UNION ALL ".join(
            f"SELECT {run.index}::USMALLINT AS run, game_id, seed, cell, variant, card_set "
            f"FROM ({table_relation(run, 'games')})" for run in runs))
        shared = con.execute(sql("pooled_shared_games")).fetchall()
        card_sets = {run: tuple(sets) for run, sets in con.execute(sql("pooled_card_sets")).fetchall()}
    finally:
        con.close()
    if shared:
        a, b, games, first = shared[0]
        raise PoolingError(
            f"{runs[a].path} and {runs[b].path}: {games:,} games are in both (the same seed, study cell and arm, "
            f"e.g. game {first}: two runs of one study on one base seed), so the same deals would count twice; "
            f"report one of them, give one study another base_seed, or compare them with `tashkalar regress`")
    mix = [m for m in (_card_set_mix(runs, card_sets), _code_mix(runs), _player_mix(runs)) if m]
    if mix and not allow_mixed:
        raise PoolingError(
            f"{', '.join(str(run.path) for run in runs)}: runs of different {mix_kinds(mix)}, which one report "
            f"would mix in its estimates ({'; '.join(mix)}); report them apart, compare two of them with "
            f"`tashkalar regress`, or pass {ALLOW_MIXED_FLAG} to pool them (the report then says so)")
    return mix


def mix_kinds(mix: list[str]) -> str:
    """What the mixed runs differ in, e.g. "card sets and code versions"."""
    return " and ".join(m.split(" (", 1)[0] for m in mix)


def _refuse_same_dataset(runs: list[Run]) -> None:
    for a, b in combinations(runs, 2):
        ident = a.manifest.get("dataset_id")
        if ident and ident == b.manifest.get("dataset_id"):
            raise PoolingError(f"{a.path} and {b.path}: the same dataset (id {ident}), a copy of one run or one "
                               f"study run twice on one seed; its games would count twice; report one of them")


def _card_set_mix(runs: list[Run], card_sets: dict[int, tuple[str, ...]]) -> str:
    if len(set(card_sets.values())) < 2:
        return ""
    return "card sets (" + "; ".join(f"{run.path}: {', '.join(card_sets.get(run.index, ()))}" for run in runs) + ")"


def _codes(run: Run) -> list[dict[str, Any]]:
    """The code versions that played the run's games: each session's that ran shards (a resumed run may have
    several), else the manifest's own; none for a run without a manifest."""
    sessions = [s.get("code_version") for s in run.manifest.get("sessions", []) or []
                if isinstance(s, dict) and s.get("shards_run", 1)]
    codes = [c for c in sessions if isinstance(c, dict)]
    top = run.manifest.get("code_version")
    return codes or ([top] if isinstance(top, dict) else [])


def _code_fields(code: dict[str, Any]) -> dict[str, str]:
    core = code.get("core")
    fields = {"python": code.get("python_source"), "core": core.get("source") if isinstance(core, dict) else None,
              "commit": code.get("git_commit"), "package": code.get("package")}
    return {k: str(v) for k, v in fields.items() if v}


def same_code(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two recorded code versions played games alike, by the most precise record both have: the
    fingerprints of the Python and the core sources, else the git commit, else the package version (each
    with the core's fingerprint when both recorded it). Nothing in common: taken as the same (unknown)."""
    x, y = _code_fields(a), _code_fields(b)
    for keys in (("python", "core"), ("commit", "core"), ("package", "core")):
        common = [k for k in keys if k in x and k in y]
        if keys[0] in common:
            return all(x[k] == y[k] for k in common)
    return True


def code_label(code: dict[str, Any]) -> str:
    f = _code_fields(code)
    if "python" in f:
        return f"python {f['python'][:12]}, core {f.get('core', '?')[:12]}"
    return f"commit {f['commit'][:12]}" if "commit" in f else f"package {f.get('package', 'unknown')}"


def _code_mix(runs: list[Run]) -> str:
    codes = {run.index: _codes(run) for run in runs}
    if all(same_code(x, y) for a, b in combinations(runs, 2) for x in codes[a.index] for y in codes[b.index]):
        return ""
    return "code versions (" + "; ".join(
        f"{run.path}: {', '.join(dict.fromkeys(code_label(c) for c in codes[run.index])) or 'not recorded'}"
        for run in runs) + ")"


def _players(run: Run) -> dict[str, str]:
    config = run.manifest.get("config")
    players = config.get("players") if isinstance(config, dict) else None
    return {label: json.dumps(spec, sort_keys=True) for label, spec in players.items()} \
        if isinstance(players, dict) else {}


def _player_mix(runs: list[Run]) -> str:
    players = {run.index: _players(run) for run in runs}
    clashes = []
    for label in sorted({label for p in players.values() for label in p}):
        specs = {players[run.index][label] for run in runs if label in players[run.index]}
        if len(specs) > 1:
            clashes.append(f"{label}: " + ", ".join(f"{players[run.index][label]} in {run.path}" for run in runs
                                                     if label in players[run.index]))
    return f"players under one label ({'; '.join(clashes)})" if clashes else ""
