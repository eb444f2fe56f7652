"""The per-card fingerprints a run recorded in its manifest (the run's data is opened by reports.dataset)."""

from __future__ import annotations

from pathlib import Path

from reports.dataset import DatasetError, find_run


def card_fingerprints(run_dir: Path | str) -> dict[str, str]:
    run = find_run(Path(run_dir), 0)
    fingerprints = run.manifest.get("card_set", {}).get("cards")
    if not isinstance(fingerprints, dict):
        raise DatasetError(f"{run.path / 'manifest.json'}: missing, or without per-card fingerprints "
                           "(card_set.cards); was this run written by 'tashkalar run'?")
    return fingerprints
