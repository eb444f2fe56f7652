"""The differential corpus: hashes of game records made by the retired Python engine, which the core must
reproduce event for event (docs/core.md, "Differential testing").

    python scripts/golden_records.py write random FILE   # 100,800 random games (9 pairings x 2 forms x 5,600)
    python scripts/golden_records.py write builder FILE  # 5,040 builder games (9 pairings x 2 forms x 280)
    python scripts/golden_records.py check FILE [--every N]   # play them again, compare

A game's hash is the SHA-256 of its record as one line of JSON (``GameRecord.to_dict()`` dumped with
``separators=(",", ":")``). Random games are hashed in blocks of 100 consecutive seeds (one line per
block), builder games one line each. ``check --every N`` plays one block or game in N (the test suite
checks a sample; the whole corpus takes a few minutes on the core).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator

from sim.cards import BASE_DECKS, load_card_set
from sim.game import Game
from sim.state import MODES
from strategies import make_player

CORPORA = {"random": (5600, 100), "builder": (280, 1)}  # seeds per pairing and form, games per line


def _lines(kind: str) -> Iterator[tuple[str, str, str, range]]:
    seeds, block = CORPORA[kind]
    for mode in MODES:
        for a in BASE_DECKS:
            for b in BASE_DECKS:
                for start in range(0, seeds, block):
                    yield mode, a, b, range(start, start + block)


def _hash(kind: str, mode: str, a: str, b: str, seeds: range) -> str:
    cards = load_card_set()
    h = hashlib.sha256()
    for seed in seeds:
        players = [make_player(kind, seat, seed) for seat in (0, 1)]
        record = Game(cards, mode, (a, b), players, seed).play()
        h.update(json.dumps(record.to_dict(), separators=(",", ":")).encode())
    return h.hexdigest()[:32]


def write(kind: str, path: str) -> None:
    with open(path, "w") as out:
        out.write(f"# {kind} games: mode deck deck first-seed:end sha256[:32] (scripts/golden_records.py)\n")
        for mode, a, b, seeds in _lines(kind):
            out.write(f"{mode} {a} {b} {seeds.start}:{seeds.stop} {_hash(kind, mode, a, b, seeds)}\n")
            out.flush()


def check(path: str, every: int) -> int:
    """The number of lines that differ (each one printed)."""
    with open(path) as f:
        header, *lines = f.read().splitlines()
    kind = header.split()[1]
    bad = 0
    for i, line in enumerate(lines):
        if i % every:
            continue
        mode, a, b, span, expected = line.split()
        first, end = (int(x) for x in span.split(":"))
        if _hash(kind, mode, a, b, range(first, end)) != expected:
            print(f"differs: {line}", file=sys.stderr)
            bad += 1
    return bad


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("kind", choices=sorted(CORPORA))
    w.add_argument("path")
    c = sub.add_parser("check")
    c.add_argument("path")
    c.add_argument("--every", type=int, default=1)
    a = ap.parse_args()
    if a.command == "write":
        write(a.kind, a.path)
    else:
        sys.exit(1 if check(a.path, a.every) else 0)


if __name__ == "__main__":
    main()
