"""The run manifest: what was asked for, with what cards and code, and which shards are done.

The dataset id hashes everything that decides the rows (the config less its name and card-set path, the
card fingerprints, the schema version); a run directory only ever holds shards of one dataset id.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from pipelines.schema import SCHEMA_VERSION, TABLES
from pipelines.study import Study
from sim.cards import CardSet
from sim.errors import UserError

FORMAT = 1


def dataset_id(study: Study, card_fingerprint: str) -> str:
    identity = {k: v for k, v in study.to_config().items() if k not in ("name", "card_set")}
    identity |= {"card_fingerprint": card_fingerprint, "schema_version": SCHEMA_VERSION}
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]


# The Python that decides a run's rows: the game and its players, and the study, shard and table code.
PLAYING_SOURCES = ("sim", "strategies", "pipelines/study.py", "pipelines/variants.py", "pipelines/cardfiles.py",
                   "pipelines/shard.py", "pipelines/tables.py", "pipelines/summaries.py", "pipelines/schema.py")


def python_source() -> str:
    """A fingerprint of the Python sources that play and record games: two runs with equal fingerprints (and
    equal core sources) played alike, whatever commit they were made from; a checkout's edits count."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    files = [f for source in PLAYING_SOURCES for f in ((root / source).rglob("*.py") if (root / source).is_dir()
                                                       else [root / source])]
    for file in sorted(files):
        digest.update(file.relative_to(root).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def code_version() -> dict[str, Any]:
    """The package version, the compiled core's version and source fingerprint, the fingerprint of the Python
    that plays, and the git commit (with a dirty flag) when running from a checkout."""
    from sim import _core

    out: dict[str, Any] = {"package": metadata.version("tashkalar-balance"),
                           "core": {"version": _core.__version__, "source": _core.SOURCE_FINGERPRINT},
                           "python_source": python_source()}
    repo = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True,
                                timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=repo,
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return out
    return out | {"git_commit": commit, "git_dirty": bool(dirty)}


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_manifest(study: Study, cards: CardSet, ident: str) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "name": study.name,
        "dataset_id": ident,
        "schema_version": SCHEMA_VERSION,
        "tables": list(TABLES),
        "config": study.to_config(),
        "card_set": {"source": study.card_set or "builtin", "fingerprint": cards.fingerprint(),
                     "cards": dict(sorted(cards.fingerprints.items()))},
        "code_version": code_version(),
        "games": study.total_games,
        "shards": study.shard_count,
        "shard_status": [],  # the shards done, in shard order; see done_shards
        "sessions": [],
    }


def done_shards(manifest: dict[str, Any] | None) -> dict[int, dict[str, Any]]:
    """The entries of the shards a manifest records as done, by shard.

    Only done shards are listed, so the manifest grows with the work done, not with the study's size
    (manifests written before listed pending shards too; those entries are skipped).
    """
    entries = (manifest or {}).get("shard_status", [])
    return {s["shard"]: s for s in entries if s.get("status") == "done"}


def read_manifest(path: Path) -> dict[str, Any] | None:
    """The manifest at ``path``; None if there is none. An unreadable one is a UserError."""
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise UserError(f"{path}: unreadable manifest ({e}); {REPAIR_HINT}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or "dataset_id" not in data:
        raise UserError(f"{path}: not a manifest this version writes; {REPAIR_HINT}")
    return data


REPAIR_HINT = ("rerun with --repair to rebuild it from the shard files (every intact shard is kept), or --force "
               "to discard the run")


def write_manifest(path: Path, manifest: dict[str, Any], done: dict[int, dict[str, Any]] | None = None) -> None:
    """Write ``manifest`` atomically; ``done``, when given, becomes its ``shard_status``."""
    if done is not None:
        manifest = manifest | {"shard_status": [done[i] for i in sorted(done)]}
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(manifest, indent=1) + "\n")
        os.replace(tmp, path)
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(path)) from None  # a full disk names the file


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What makes ``old`` a different dataset from ``new``: config keys, changed cards, the schema."""
    old_config, old_cards = old.get("config", {}), old.get("card_set", {})
    out = [k for k in sorted(set(old_config) | set(new["config"]))
           if k not in ("name", "card_set") and old_config.get(k) != new["config"].get(k)]
    if old_cards.get("fingerprint") != new["card_set"]["fingerprint"]:
        before, after = old_cards.get("cards", {}), new["card_set"]["cards"]
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        out.append(f"cards ({', '.join(changed)})" if changed else "card set")
    if old.get("schema_version") != new["schema_version"]:
        out.append(f"schema version ({old.get('schema_version')} -> {new['schema_version']})")
    return out or ["dataset id"]
