"""The differential corpus: digests of game records made by the retired Python engine, which the core must
reproduce event for event (docs/core.md, "Differential testing").

    python scripts/golden_records.py check tests/golden/random.txt    # 100,800 random games
    python scripts/golden_records.py check tests/golden/builder.txt   # 5,040 builder games
    python scripts/golden_records.py write builder FILE               # digests of the engine of today

A line is ``mode deck deck first:end digest``: the SHA-256 (first 32 hex digits) of the records of the
seeds ``first..end`` played in order, each record hashed as one line of JSON (``GameRecord.to_dict()``
dumped with ``separators=(",", ":")``). Random games come in blocks of 100 seeds, builder games one a
line. The files in tests/golden/ were written by the Python engine before it was retired; ``write``
exists for the day a rule change is meant to change records (say so in docs/core.md when you use it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from sim import core
from sim.cards import BASE_DECKS, load_card_set
from sim.state import MODES

CORPORA = {"random": (5600, 100), "builder": (280, 1)}  # seeds per pairing and form, games per line
Line = tuple[str, str, str, int, int, str]  # mode, deck, deck, first seed, end seed, digest


def read(path: str) -> tuple[str, list[Line]]:
    """The strategy and the lines of a corpus file."""
    with open(path) as f:
        header, *rows = f.read().splitlines()
    lines = []
    for row in rows:
        mode, a, b, span, digest = row.split()
        first, end = span.split(":")
        lines.append((mode, a, b, int(first), int(end), digest))
    return header.split()[1], lines


def digests(kind: str, mode: str, a: str, b: str, first: int, end: int, block: int) -> list[str]:
    return core.record_digests(load_card_set(), mode, (a, b), (kind, kind), (first, end), block)


def mismatches(kind: str, lines: list[Line]) -> list[Line]:
    """The lines whose games the core does not reproduce; consecutive lines of one pairing and form are
    played in one call."""
    bad: list[Line] = []
    groups: dict[tuple[str, str, str], list[Line]] = {}
    for line in lines:
        groups.setdefault(line[:3], []).append(line)
    for (mode, a, b), group in groups.items():
        group.sort(key=lambda x: x[3])
        block = group[0][4] - group[0][3]
        runs: list[list[Line]] = [[group[0]]]
        for line in group[1:]:
            if line[3] == runs[-1][-1][4] and line[4] - line[3] == block:
                runs[-1].append(line)
            else:
                runs.append([line])
        for run in runs:
            got = digests(kind, mode, a, b, run[0][3], run[-1][4], block)
            bad.extend(line for line, digest in zip(run, got, strict=True) if digest != line[5])
    return bad


def _spans(kind: str) -> Iterator[tuple[str, str, str, int, int]]:
    seeds, block = CORPORA[kind]
    for mode in MODES:
        for a in BASE_DECKS:
            for b in BASE_DECKS:
                for start in range(0, seeds, block):
                    yield mode, a, b, start, start + block


def write(kind: str, path: str) -> None:
    block = CORPORA[kind][1]
    with open(path, "w") as out:
        out.write(f"# {kind} games: mode deck deck first-seed:end sha256[:32] (scripts/golden_records.py)\n")
        for mode, a, b, first, end in _spans(kind):
            (digest,) = digests(kind, mode, a, b, first, end, block)
            out.write(f"{mode} {a} {b} {first}:{end} {digest}\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("kind", choices=sorted(CORPORA))
    w.add_argument("path")
    c = sub.add_parser("check")
    c.add_argument("path")
    a = ap.parse_args()
    if a.command == "write":
        write(a.kind, a.path)
        return
    kind, lines = read(a.path)
    bad = mismatches(kind, lines)
    for line in bad:
        print(f"differs: {' '.join(map(str, line))}", file=sys.stderr)
    games = sum(line[4] - line[3] for line in lines)
    print(f"{kind}: {games} games, {len(lines) - len(bad)} of {len(lines)} lines match")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
