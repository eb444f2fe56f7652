"""Random positions around one summon of each being of the named groups, played by random players in the
Python engine: one JSON line per case (the position, the summon, the events it recorded, the arena and
turn counters after it), for the core's replay test `effects::testing::effect_cases_match_python`.

    git worktree add ../py-engine e69a308   # a revision that still has the Python engine
    PYTHONPATH=../py-engine python core/engine/tests/effect_cases.py 500 legends sylvan > /tmp/cases.jsonl
    cd core && TK_EFFECT_CASES=/tmp/cases.jsonl cargo test -p tk_engine --lib effect_cases -- --ignored

The Python engine is retired from this tree (docs/core.md): the cases come from a checkout that has it, so
the check is the one the port was verified with, kept for auditing the core against that reference.

Groups: ``legends`` or a deck name. Random games rarely summon some beings (a legend a few times in a
thousand games); here each being gets N positions: its pattern with some pieces upgraded, random pieces
of both players around it, either mode, and for deck beings a random discard pile.
"""

from __future__ import annotations

import json
import random
import sys

from sim import board
from sim.cards import load_card_set
from sim.patterns import oriented
from sim.ranks import LEGENDARY
from sim.scenario import load_scenario
from strategies.random_player import RandomStrategy

RANK_OF = {0: "c", 1: "h", 2: "l"}


def grid(pieces: dict[str, str]) -> str:
    return "\n".join(" ".join("--" if not board.on_arena(x, y) else pieces.get(board.name(board.square(x, y)), "..")
                              for x in range(1, 10)) for y in range(1, 10)) + "\n"


def arena(s) -> list[list[int]]:
    return [[sq, *s.piece_at(sq)] for sq in board.bits(s.occupied())]


def cases(cards, card, decks: list[str], n: int):
    legend = card.id.startswith("legend/")
    rng = random.Random(card.id + "fuzz")
    for _ in range(n):
        placement = rng.choice(card.placements)
        at = placement.origin
        pieces = {board.name(board.offset(at, dx, dy)): f"1{RANK_OF[max(r, rng.choice((0, 0, 1)))]}"
                  for dx, dy, r in oriented(card.pattern, placement.orientation).cells}
        legends = [sum(1 for v in pieces.values() if v == "1l"), 0]
        tokens = [len(pieces) - legends[0], 0]
        density = rng.choice((0.2, 0.5, 0.8))
        for s in board.SQUARES:
            name = board.name(s)
            if name in pieces or rng.random() > density:
                continue
            p, r = rng.randrange(2), rng.choice((0, 0, 1, 2))
            if r == LEGENDARY and legends[p] >= 2 or r < LEGENDARY and tokens[p] >= 15:
                continue
            legends[p] += r == LEGENDARY
            tokens[p] += r < LEGENDARY
            pieces[name] = f"{p + 1}{RANK_OF[r]}"
        mode = rng.choice(("high-form", "deathmatch"))
        held = f"legends 1: {card.id}" if legend else f"hand 1: {card.id}"
        text = f"mode: {mode}\ndecks: {', '.join(decks)}\n{held}\narena:\n{grid(pieces)}"
        seeds = (rng.randrange(1 << 30), rng.randrange(1 << 30))
        game = load_scenario(text, [RandomStrategy(seeds[0]), RandomStrategy(seeds[1])])
        s = game.state
        options = [pl for pl in game.legal_placements(0, card) if pl.origin == at]
        if not options:
            continue
        discard = []
        if not legend and rng.random() < 0.7:
            discard = rng.sample(s.deck[0], rng.randrange(len(s.deck[0]) + 1))
            for d in discard:
                s.deck[0].remove(d)
                s.discarded[0].append(d)
        case = {"card": card.id, "decks": decks, "discarded": [d.id for d in discard], "mode": mode,
                "turn": s.turn, "actions": s.actions_left, "pieces": arena(s),
                "tokens": s.tokens[:], "legend_stock": s.legend_stock[:],
                "token_total": s.token_total[:], "legend_total": s.legend_total[:],
                "origin": options[0].origin, "orientation": options[0].orientation, "seeds": seeds}
        before = len(s.record.events)
        s.actions_left -= 1
        game.summon(0, card, options[0])
        s.check_invariants()
        case["events"] = s.record.to_dict()["events"][before:]
        case["after"] = arena(s)
        case["counters"] = [s.counters.destroyed, s.counters.extra_draws, s.counters.extra_legend_draws,
                            s.counters.extra_turn, s.actions_left]
        yield case


def main() -> None:
    n, groups = int(sys.argv[1]), sys.argv[2:]
    cards = load_card_set()
    for group in groups:
        beings = cards.legends if group == "legends" else cards.decks[group]
        decks = ["sylvan" if group == "legends" else group, "imperial"]
        for card in beings:
            for case in cases(cards, card, decks, n):
                sys.stdout.write(json.dumps(case, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
