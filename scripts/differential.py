"""Differential test of the compiled core against the Python engine: the same games on both, record by record.

    PYTHONPATH=. python scripts/differential.py --reference ../py-engine [--pairs all|imperial,sylvan ...]
        [--modes high-form,deathmatch] [--seeds 0:200] [--strategies random,random] [--strict] [--both-strict]
        [--tk core/target/release/tk-play] [--cards /tmp/cards.json] [--stub-effects]

The Python engine is retired from this tree (the Python API runs on the core, docs/core.md): ``--reference``
is a checkout of a revision that still has it, e.g. ``git worktree add ../py-engine b75556f``; its
``scripts/py_records.py`` (in that checkout) plays the Python side, with its own ``sim`` package.

For every ordered deck pairing and mode, runs ``tk-play`` and ``scripts/py_records.py`` over the seeds and
reports, per pairing and mode, how many games match; for the first mismatching game of each, the seed, the
index of the first differing event and both events (or the differing result fields). ``--strict`` runs both
engines in strict mode; ``--both-strict`` runs each pairing both ways. Exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile

DECKS = ("imperial", "highland", "sylvan")
MODES = ("high-form", "deathmatch")


# scripts/py_records.py with the custom effect functions the core lacks (not in argv[1]) doing nothing.
_STUB = """
import sys, runpy
ported = set(sys.argv[1].split(","))
sys.argv = ["py_records.py", *sys.argv[2:]]
from sim import cards
from sim.effects import library  # noqa: F401
from sim.effects.interpreter import CUSTOM
cards._fingerprint = lambda table: ""
for name in CUSTOM:
    if name not in ported:
        CUSTOM[name] = lambda ctx, st: False
runpy.run_path("scripts/py_records.py", run_name="__main__")
"""


def first_difference(a: dict, b: dict) -> str:
    ea, eb = a.get("events", []), b.get("events", [])
    for i, (x, y) in enumerate(zip(ea, eb, strict=False)):
        if x != y:
            ctx = ea[max(0, i - 3):i]
            return (f"event {i}:\n    core:   {json.dumps(x)}\n    python: {json.dumps(y)}\n"
                    f"    (before: {json.dumps(ctx)})")
    if len(ea) != len(eb):
        i = min(len(ea), len(eb))
        return (f"event {i}: core has {len(ea)} events, python {len(eb)}; next core "
                f"{json.dumps(ea[i:i + 1])}, python {json.dumps(eb[i:i + 1])}")
    keys = [k for k in set(a) | set(b) if k != "events" and a.get(k) != b.get(k)]
    return "result fields differ: " + ", ".join(f"{k}: core {a.get(k)!r} python {b.get(k)!r}" for k in keys)


def run(cmd: list[str]) -> tuple[list[str], str]:
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.stdout.splitlines(), (p.stderr.strip().splitlines() or [""])[-1] if p.returncode else ""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", default="all", help="'all' (9 ordered pairings) or deck,deck")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--seeds", default="0:100")
    ap.add_argument("--strategies", default="random,random")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--tk", default="core/target/release/tk-play")
    ap.add_argument("--reference", required=True, help="a checkout of a revision with the Python engine")
    ap.add_argument("--cards", default="")
    ap.add_argument("--stub-effects", action="store_true",
                    help="custom effects the core lacks do nothing, on both sides (tests the rest without them)")
    a = ap.parse_args()
    cards = a.cards
    if not cards:
        from sim.cards import load_card_set
        from sim.core_cards import card_set_json

        fd, cards = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            f.write(card_set_json(load_card_set()))
    tk = os.path.abspath(a.tk)
    cards = os.path.abspath(cards)
    os.chdir(a.reference)
    os.environ["PYTHONPATH"] = "."
    a.tk = tk
    ported = subprocess.run([a.tk, "--list-effects"], capture_output=True, text=True).stdout.split()
    pairs = list(itertools.product(DECKS, DECKS)) if a.pairs == "all" else [tuple(a.pairs.split(","))]
    common = ["--strategies", a.strategies, "--seeds", a.seeds] + (["--strict"] if a.strict else [])
    bad = 0
    for mode in a.modes.split(","):
        for d0, d1 in pairs:
            args = ["--mode", mode, "--decks", f"{d0},{d1}", *common]
            core, core_err = run([a.tk, "--cards", cards, *args] + (["--stub-effects"] if a.stub_effects else []))
            py, py_err = run([sys.executable, "-c", _STUB, ",".join(ported), *args] if a.stub_effects
                             else [sys.executable, "scripts/py_records.py", *args])
            first = int(a.seeds.split(":")[0])
            same = sum(1 for x, y in zip(core, py, strict=False) if x == y)
            n = max(len(core), len(py))
            line = f"{mode:10} {d0:>8} v {d1:<8} {same}/{n} match"
            if core_err or py_err:
                line += f" (core error: {core_err!r}; python error: {py_err!r})"
            print(line, flush=True)
            for i, (x, y) in enumerate(itertools.zip_longest(core, py)):
                if x != y:
                    bad += 1
                    if x is None or y is None:
                        print(f"    seed {first + i}: only {'python' if x is None else 'core'} has a record")
                    else:
                        print(f"    seed {first + i}: {first_difference(json.loads(x), json.loads(y))}")
                    break
            if n != same and not core_err and not py_err:
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
