"""A candidate's games: every candidate plays the same seeded studies (common random numbers), played by the
study pipeline's own shard function, so that a candidate's games are those ``tashkalar run`` would play."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from pipelines.balance.space import Balance
from pipelines.study import game_seed, parse_study

BLOCK = 1 << 40  # rung r's games have the base seed game_seed(seed, BLOCK + r)
VERIFY = 1 << 41  # the verification studies' base seed: game_seed(seed, VERIFY), a seed no rung plays

Tally = Counter  # "deck|FORM|DECK|OPP", "first|FORM", "skill|FORM|DECK" -> wins; the same with "#n" -> games


def block_seed(seed: int, rung: int) -> int:
    return game_seed(seed, BLOCK + rung)


def verify_seed(seed: int) -> int:
    return game_seed(seed, VERIFY)


def study_config(balance: Balance, player: str, cards_dir: Path | str, games: int, base_seed: int,
                 skill: bool = False) -> dict[str, Any]:
    """The study of a candidate's games: every pairing of two decks with ``player`` in both seats or, for
    ``skill``, every deck mirror with the weaker player against the stronger."""
    if skill:
        assert balance.targets.skill is not None
        decks = [[d, d] for d in balance.decks]
        players = [[balance.targets.skill.weaker, balance.targets.skill.stronger]]
    else:
        decks, players = [list(p) for p in balance.pairings], [[player, player]]
    return {"name": f"{balance.name}-{'skill' if skill else 'decks'}", "forms": list(balance.forms),
            "deck_pairings": decks, "strategy_pairings": players, "games_per_cell": games, "base_seed": base_seed,
            "shard_size": games, "card_set": str(cards_dir)}


def tally_games(rows: dict[str, list[Any]], skill_player: str | None = None) -> Tally:
    """Counts from a ``games`` table (as columns): each deck's seat-games and wins against each other deck and
    the first player's wins per form; with ``skill_player``, that player's wins per form and (mirror) deck."""
    out: Tally = Counter()
    for mode, d0, d1, s0, s1, first, winner in zip(*(rows[c] for c in ("mode", "deck_0", "deck_1", "strategy_0",
                                                                       "strategy_1", "first_player", "winner")),
                                                   strict=True):
        decks, strategies = (d0, d1), (s0, s1)
        if skill_player is not None:
            seat = strategies.index(skill_player)
            key = f"skill|{mode}|{decks[seat]}"
            out[key] += winner == seat
            out[key + "#n"] += 1
            continue
        for seat in (0, 1):
            key = f"deck|{mode}|{decks[seat]}|{decks[1 - seat]}"
            out[key] += winner == seat
            out[key + "#n"] += 1
        out[f"first|{mode}"] += winner == first
        out[f"first|{mode}#n"] += 1
    return out


def play_study(config: dict[str, Any], skill_player: str | None = None) -> Tally:
    """Play every shard of the study ``config`` in this process and count its games."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from pipelines.cardfiles import pack
    from pipelines.shard import ShardJob, play_shard

    study = parse_study(config, Path(config["card_set"]) / "study.toml")
    ident = "tune-" + hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]
    job = ShardJob(study.to_config(), pack(study.card_set), ident)
    out: Tally = Counter()
    for shard in range(study.shard_count):
        games = pq.read_table(pa.BufferReader(play_shard(job, shard).files["games"]))
        out += tally_games(games.to_pydict(), skill_player)
    return out


def play_rung(balance: Balance, player: str, cards_dir: Path, seed: int, rung: int) -> Tally:
    """The games rung ``rung`` adds for the candidate in ``cards_dir``: its decks' pairings and, with a skill
    target, the skill mirrors, on the rung's seed."""
    games = balance.games[rung] - (balance.games[rung - 1] if rung else 0)
    seed_r = block_seed(seed, rung)
    tally = play_study(study_config(balance, player, cards_dir, games, seed_r))
    if balance.targets.skill is not None:
        tally += play_study(study_config(balance, player, cards_dir, games, seed_r, skill=True),
                            balance.targets.skill.stronger)
    return tally
