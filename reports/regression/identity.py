"""What makes two runs the same study: the dataset identity less the card set, code version and seed.

Regression compares like with like: two runs of one study differ only in their cards (or the code that
played them), so any difference in their metrics is caused by that change. Runs of different studies
(other forms, decks, players or parameters, sizes) are refused unless the user explicitly overrides.
The base seed is not part of the identity: runs with the same seed are compared game by game (paired),
runs with different seeds as independent samples of the same study.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

# Config keys that name or locate a study, split it into shards, or draw its sample of games.
_NOT_IDENTITY = ("name", "card_set", "shard_size", "base_seed")


def study_identity(manifest: dict[str, Any]) -> dict[str, Any]:
    """The config keys that decide which games a study plays, card set excluded."""
    config = manifest.get("config", {})
    return {k: v for k, v in config.items() if k not in _NOT_IDENTITY}


def study_id(manifest: dict[str, Any]) -> str:
    """A short hash of ``study_identity``: equal for two runs of one study with other cards or code."""
    text = json.dumps(study_identity(manifest), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def identity_differences(baseline: dict[str, Any], candidate: dict[str, Any]) -> list[str]:
    """Human-readable differences between the two runs' study identities (empty when the same study)."""
    old, new = study_identity(baseline), study_identity(candidate)
    out = []
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            out.append(f"{key}: {_short(old.get(key))} in the baseline, {_short(new.get(key))} in the candidate")
    return out


def strategies_label(manifest: dict[str, Any]) -> str:
    """The study's players as ``label=strategy`` pairs, e.g. ``builder=builder,tuned=builder``."""
    players = manifest.get("config", {}).get("players", {})
    return ",".join(f"{label}={spec.get('strategy', label)}" for label, spec in sorted(players.items()))


def code_label(manifest: dict[str, Any]) -> str:
    """The code that played the run: the git commit (``+dirty``) or the package version."""
    code = manifest.get("code_version", {})
    commit = code.get("git_commit")
    if commit:
        return commit[:12] + ("+dirty" if code.get("git_dirty") else "")
    return str(code.get("package", "unknown"))


def _short(value: Any) -> str:
    text = "absent" if value is None else json.dumps(value, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."
