"""Checks that the ablation estimates can be trusted: planted effects and an A/A calibration.

``python -m reports.calibration planted --seeds 5`` plays, for each of several fresh base seeds, an
ablation study of a card set in which one Imperial being is made overwhelming (Swordmaster destroys every
enemy piece) and one useless (Herald has no effect and a pattern of two legendary pieces, which no player
completes: a dead card), and checks that the strong card ranks first with an
interval above 0 and the useless one is last: without variation (its vanilla copy is the card itself, so
its games never diverge) or with an interval covering 0.

``python -m reports.calibration aa --seeds 20`` plays A/A studies: each card of ``--cards`` replaced by an
identical copy (the players' random streams drawn anew, per card, so paired games diverge as in a real
ablation and each arm is its own check) and counts the arms and the base seeds with a flag; at a 5% level
about 1 in 20 is expected.

Shards run in this process's pool (no Ray), written as ordinary run directories under ``--dir``.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from pipelines.cardfiles import pack
from pipelines.manifest import dataset_id
from pipelines.shard import ShardJob, ShardOutput, play_shard
from pipelines.store import RunDir
from pipelines.study import Study, parse_study
from reports.analysis import Record, ablation_records
from reports.dataset import open_runs
from reports.names import Names
from reports.queries import run_queries
from reports.sections_cards import strength_order
from reports.stats import flag
from sim.cards import load_card_set

STRONG, USELESS, CONTROL = "imperial/swordmaster", "imperial/herald", "imperial/bomb"
_BUILTIN = Path(__file__).resolve().parent.parent / "sim" / "cards"


def planted_card_set(directory: Path) -> Path:
    """A copy of the built-in card set with STRONG made overwhelming and USELESS a dead card: no effect, and
    a pattern of two legendary pieces that no player completes."""
    directory.mkdir(parents=True, exist_ok=True)
    for f in _BUILTIN.glob("*.toml"):
        shutil.copy(f, directory / f.name)
    text = (directory / "imperial.toml").read_text()
    strong = ('effect = [\n  { do = "destroy", where = "diagonal", owner = "enemy", ranks = ["common"], up_to = 1 },\n'
              '  { do = "upgrade", where = "self", if = "previous" },\n]')
    useless = 'effect = [\n  { do = "move", piece = "choose", owner = "mine", empty_only = true, up_to = 2 },\n]'
    pattern = ('id = "imperial/herald"\nname = "Herald"\nrank = "common"\n'
               'pattern = """\n@   .   .\n.   c   c\n.   c   .\n"""')
    assert strong in text and useless in text and pattern in text, \
        "the built-in Imperial deck changed; update the planted set"
    text = text.replace(strong, 'effect = [\n  { do = "destroy", where = "any", owner = "enemy", all = true },\n]')
    text = text.replace(useless, "effect = []")
    text = text.replace(pattern, pattern.replace(".   c   c\n.   c   .", ".   l   .\n.   .   l"))
    (directory / "imperial.toml").write_text(text)
    return directory


def study_config(seed: int, games: int, strategy: str, forms: list[str], cards: list[str], mode: str,
                 card_set: str) -> dict[str, Any]:
    return {"name": f"calibration-{seed}", "forms": forms, "deck_pairings": [["imperial", "highland"]],
            "strategy_pairings": [[strategy, strategy]], "games_per_cell": games, "base_seed": seed,
            "shard_size": 25, "card_set": card_set, "ablation": {"cards": cards, "mode": mode}}


def run_local(study: Study, out: Path, mapper: Callable[..., Iterable[ShardOutput]] = map) -> Path:
    """Play every shard of ``study`` (with ``mapper``: ``map``, or a process pool's) and write them as a run
    directory at ``out``. The job carries the study's own dataset id: a worker keeps the study it loaded
    under that id, so two studies in one process must not share one."""
    job = ShardJob(study.to_config(), pack(study.card_set), dataset_id(study, study.load_cards().fingerprint()))
    run = RunDir(out, study.shard_count)
    for output in mapper(play_shard, [job] * study.shard_count, range(study.shard_count)):
        run.write_shard(output.shard, output.files)
    return out


def ablation_rows(run: Path, cards_dir: Path | None) -> list[Record]:
    """The report's ablation rows of one run, flagged within their family as the report does."""
    _, con = open_runs([run])
    try:
        q = run_queries(con, str(run))
    finally:
        con.close()
    rows, _ = ablation_records(q, Names(load_card_set(cards_dir)))
    flag([r["effect"] for r in rows])
    return rows


def _line(r: Record) -> str:
    e = r["effect"]
    if not e.defined:
        return f"{r['card_id']:24} {r['mode']:10} no value: {r['no_variation']}"
    lo, hi = e.interval
    return (f"{r['card_id']:24} {r['mode']:10} {100 * e.value:+6.1f} pp ({100 * lo:+.1f} to {100 * hi:+.1f}), "
            f"n={e.n}, {r['diverged']} diverged, q={e.q if e.q is None else round(e.q, 4)}"
            f"{' FLAGGED' if e.flagged else ''}")


def planted_pass(rows: list[Record], mode: str) -> bool:
    """The strong card ranks first with an interval above 0; the useless one ranks last, with no variation or
    an interval covering 0."""
    ranked = strength_order([r for r in rows if r["mode"] == mode], "effect")
    strong, useless = ranked[0], ranked[-1]
    if strong["card_id"] != STRONG or useless["card_id"] != USELESS:
        return False
    lo, hi = useless["effect"].interval
    return strong["effect"].interval[0] > 0 and (not useless["effect"].defined or lo <= 0 <= hi)


def planted(args: argparse.Namespace, pool: ProcessPoolExecutor) -> int:
    cards_dir = planted_card_set(args.dir / "planted-cards")
    passed = 0
    for seed in args.base_seeds:
        cards = ["imperial/*"] if args.whole_deck else [STRONG, USELESS, CONTROL]
        config = study_config(seed, args.games, args.strategy, args.forms, cards, "vanilla", str(cards_dir))
        rows = ablation_rows(run_local(parse_study(config, args.dir / "planted.toml"), args.dir / f"planted-{seed}",
                                       pool.map), cards_dir)
        ok = True
        for mode in args.forms:
            ok &= planted_pass(rows, mode)
            ranked = strength_order([r for r in rows if r["mode"] == mode], "effect")
            print(f"seed {seed}, {mode}:", *("  " + _line(r) for r in ranked), sep="\n")
        passed += ok
        print(f"seed {seed}: {'pass' if ok else 'FAIL'}")
    print(f"planted effects: {passed} of {len(args.base_seeds)} base seeds pass")
    return 0 if passed == len(args.base_seeds) else 1


def aa(args: argparse.Namespace, pool: ProcessPoolExecutor) -> int:
    seeds_flagged = arms = arms_flagged = 0
    for seed in args.base_seeds:
        config = study_config(seed, args.games, args.strategy, args.forms, args.cards, "copy", "builtin")
        rows = ablation_rows(run_local(parse_study(config, args.dir / "aa.toml"), args.dir / f"aa-{seed}",
                                       pool.map), None)
        tested = [r for r in rows if r["effect"].p is not None]
        arms += len(tested)
        arms_flagged += sum(r["effect"].flagged for r in tested)
        seeds_flagged += any(r["effect"].flagged for r in tested)
        print(f"seed {seed}:", *("  " + _line(r) for r in rows), sep="\n")
    print(f"A/A: {arms_flagged} of {arms} copy arms tested are flagged; a flag in {seeds_flagged} of "
          f"{len(args.base_seeds)} base seeds ({', '.join(args.cards)})")
    return 0 if seeds_flagged <= max(2, len(args.base_seeds) // 10) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("check", choices=["planted", "aa"])
    parser.add_argument("--seeds", type=int, default=5, help="how many fresh base seeds")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--games", type=int, default=200, help="games per cell (each form, imperial-highland)")
    parser.add_argument("--strategy", default="builder")
    parser.add_argument("--forms", default="deathmatch", help="comma-separated game forms")
    parser.add_argument("--cards", default="imperial/swordmaster",
                        help="the A/A cards, comma-separated: one copy arm each, its own check")
    parser.add_argument("--whole-deck", action="store_true",
                        help="planted: ablate all 18 Imperial beings, not only the strong, useless and control ones")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dir", type=Path, default=None, help="where the runs go (default: a temp dir)")
    args = parser.parse_args(argv)
    args.forms = args.forms.split(",")
    args.cards = args.cards.split(",")
    args.base_seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    args.dir = args.dir or Path(tempfile.mkdtemp(prefix="tashkalar-calibration-"))
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        status = (planted if args.check == "planted" else aa)(args, pool)
    print(f"{time.perf_counter() - start:.0f} s, runs in {args.dir}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
