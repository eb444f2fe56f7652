"""Records of games played through the Python API (`sim.game.Game`) as JSON lines, one game a line.

    python scripts/py_records.py --mode high-form --decks imperial,sylvan --strategies random,random \
        --seeds 0:100 [--strict] > py.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys

from sim.cards import load_card_set
from sim.game import Game
from strategies import make_strategy


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True)
    ap.add_argument("--decks", required=True, help="two decks, comma-separated")
    ap.add_argument("--strategies", default="random,random")
    ap.add_argument("--seeds", default="0:10", help="first:end (end excluded)")
    ap.add_argument("--strict", action="store_true")
    a = ap.parse_args()
    cards = load_card_set()
    decks = a.decks.split(",")
    names = a.strategies.split(",")
    first, end = (int(x) for x in a.seeds.split(":"))
    out = sys.stdout
    for seed in range(first, end):
        players = [make_strategy(n, seat, seed) for seat, n in enumerate(names)]
        record = Game(cards, a.mode, decks, players, seed, strict=a.strict).play()
        out.write(json.dumps(record.to_dict(), separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
