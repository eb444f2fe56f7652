"""Hand-made runs for the regression gates: one Deathmatch-style study whose manifest names its config
(so runs can be told apart as studies and paired by seed), written with tests/handmade.py."""

from __future__ import annotations

from pathlib import Path

from tests.handmade import game
from tests.handmade import write_run as write_rows

CONFIG = {"name": "hand", "forms": ["deathmatch"], "deck_pairings": [["imperial", "highland"]],
          "strategy_pairings": [["a", "a"]], "players": {"a": {"strategy": "random", "params": {}}},
          "games_per_cell": 0, "base_seed": 1, "shard_size": 100, "seat_balance": True, "card_set": "builtin"}


def write_run(path: Path, games: list[tuple[str, str, str, int]], *, base_seed: int = 1,
              opening: list[tuple[int, int, str]] = (), positions: list[tuple[int, int, str, int]] = (),
              cards: dict[str, str] | None = None, ablation: tuple[str, int, list[int]] | None = None) -> Path:
    """A run of ``games`` (mode, deck of seat 0, deck of seat 1, winner), ids in order; ``opening`` lists
    (game id, seat, card id) dealt in opening hands; ``positions`` (game id, seat, card id, position) where
    the setup shuffle put a being in its seat's deck; ``cards`` the per-card fingerprints of its manifest;
    ``ablation`` (card id, the seat holding the vanilla copy, each game's winner in the arm) adds the arm's
    games after the unchanged ones, on the same seeds."""
    rows = [game(i, mode, (deck_0, deck_1), first=0, winner=winner)
            for i, (mode, deck_0, deck_1, winner) in enumerate(games)]
    if ablation is not None:
        card, seat, winners = ablation
        for i, winner in enumerate(winners):
            arm = game(len(games) + i, rows[i]["mode"], (rows[i]["deck_0"], rows[i]["deck_1"]), first=0,
                       winner=winner)
            rows.append(arm | {"seed": i, "variant": f"vanilla:{card}", "variant_seat": seat})
    for row in rows:
        row.setdefault("variant_seat", -1)
    events = [{"game_id": g, "turn": 0, "seat": seat, "card_id": card, "card_type": "being", "event": "drawn",
               "opening": True} for g, seat, card in opening]
    manifest = {"name": "hand", "config": CONFIG | {"base_seed": base_seed, "games_per_cell": len(games)},
                "code_version": {"package": "test"},
                "card_set": {"fingerprint": "f", "cards": cards or {"imperial/knight": "k1"}}}
    order = [{"game_id": g, "seat": seat, "card_id": card, "position": position}
             for g, seat, card, position in positions]
    return write_rows(path, rows, manifest, card_events=events, deck_order=order)
