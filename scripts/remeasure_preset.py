"""Measure a preset again on its own fresh deals, after a change to its player, and rewrite its ``[measured]``.

    python scripts/remeasure_preset.py strategies/presets/swift_tuned.toml [--workers N]

The deals, the reference, the forms and the deck pairings are the preset's own (``[measured]``, ``[search]``),
so the new figures compare one for one with the old; ``[params]`` and ``[search]`` are kept, and a comment
line records the old win rate. docs/strategies.md, "The default player".
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

from strategies.tune_player import Search, measure, preset_text


def search_of(preset: dict) -> Search:
    """The search that wrote ``preset``, as far as its measurement needs it."""
    measured, found = preset["measured"], preset["search"]
    forms = measured["form"].split(",")
    per_form = measured["games"] // len(forms)
    search = Search(preset["player"], measured["reference"], measured["form"],
                    [d.split("-") for d in measured["decks"]], found["trials"], found["games_per_trial"],
                    per_form, found["seed"], found["concurrency"], found["space"], None, found["fixed"])
    if search.measure_seed != measured["seed"]:
        raise SystemExit(f"error: the preset's measure seed {measured['seed']} does not follow from its search "
                         f"seed {found['seed']}")
    return search


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("preset", type=Path)
    parser.add_argument("--workers", type=int, default=None, help="Ray CPUs (default: all)")
    args = parser.parse_args()
    preset = tomllib.loads(args.preset.read_text(encoding="utf-8"))
    search = search_of(preset)
    params = {k: v for k, v in preset["params"].items() if k not in search.fixed}

    import ray

    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
    by_form = measure(search, params)
    text = preset_text(args.preset.stem, search, params, preset["search"]["best_score"], by_form)
    old = preset["measured"]
    note = (f"# [measured] replayed by scripts/remeasure_preset.py; before: win_rate {old['win_rate']} "
            f"{old['interval']}")
    header, rest = text.split("\n", 1)
    args.preset.write_text(f"{header}\n{note}\n{rest}", encoding="utf-8")
    for form, outcome in by_form.items():
        print(f"{form}: {100 * outcome.score:.1f}% over {outcome.games} games")


if __name__ == "__main__":
    sys.exit(main())
