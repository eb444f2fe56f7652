"""Check the regression gate: A/A calibration and planted changes on real runs, and its power by simulation.

    python scripts/validate_regression.py aa --seeds 20 --games 200 --strategy random --workers 1
    python scripts/validate_regression.py planted --games 200 --strategy builder --workers 1
    python scripts/validate_regression.py power --runs 2000 --divergence 0.6

``aa``: for each of ``--seeds`` fresh base seeds, the study is played twice with no change. Paired (the
same seed twice) the games must be identical and nothing may move; unpaired (the candidate on another
fresh seed) the count of seeds with something moved measures the gate's false alarms.
``planted``: one baseline and three candidates with one Imperial card edited: made clearly stronger
(Swordmaster destroys every enemy piece within 3 squares), clearly weaker (the Hypnotist, the Imperial
being worth most in the full-deck ablation, loses its effect) and slightly weaker (Summoner places up to
1 piece instead of 2). Prints each verdict.
The study: every pairing of two different base decks, both forms, ``--games`` per cell.
``power``: ``--runs`` simulated regressions of studies/nightly.toml per scenario, decided by the gate code
(reports/regression/simulate.py): a true 3-point move of Imperial in the worst case (every game diverges)
and in a realistic one (``--divergence``: the share of Imperial's games that play differently; the others
replay exactly), and A/A runs (no change) paired and on other seeds. Prints how often each gate kind moved.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

from pipelines.runner import run_study
from pipelines.study import load_study
from reports.regression.compare import Thresholds, compare_runs
from reports.regression.design import gate_designs
from reports.regression.gates import Gate
from reports.regression.render import describe
from reports.regression.simulate import Layout, Scenario, simulated_gates
from sim.cards import BUILTIN_DIR

STUDY = """
name = "validate"
forms = ["high-form", "deathmatch"]
deck_pairings = [["imperial", "highland"], ["imperial", "sylvan"], ["highland", "sylvan"]]
strategy_pairings = [["{strategy}", "{strategy}"]]
games_per_cell = {games}
base_seed = {seed}
shard_size = 50
{card_set}
"""

EDITS = {
    "stronger: Swordmaster destroys every enemy piece within 3": (
        '{ do = "destroy", where = "diagonal", owner = "enemy", ranks = ["common"], up_to = 1 },',
        '{ do = "destroy", where = "within:3", owner = "enemy", all = true },'),
    "weaker: Hypnotist has no effect": (
        '  { do = "custom", fn = "imperial.hypnotist" },\n', ""),
    "slightly weaker: Summoner places up to 1": (
        '{ do = "place", where = "marked", rank = "common", up_to = 2 },',
        '{ do = "place", where = "marked", rank = "common", up_to = 1 },'),
}


def _run(tmp: Path, name: str, args: argparse.Namespace, seed: int, card_set: Path | None = None) -> Path:
    study_file = tmp / f"{name}.toml"
    study_file.write_text(STUDY.format(strategy=args.strategy, games=args.games, seed=seed,
                                       card_set=f'card_set = "{card_set}"' if card_set else ""))
    out = tmp / "runs" / name
    run_study(load_study(study_file), out, workers=args.workers, show_progress=False)
    return out


def _edited(tmp: Path, label: str) -> Path:
    old, new = EDITS[label]
    cards = tmp / f"cards-{abs(hash(label))}"
    shutil.copytree(BUILTIN_DIR, cards)
    text = (cards / "imperial.toml").read_text()
    assert old in text, label
    (cards / "imperial.toml").write_text(text.replace(old, new, 1))
    return cards


def aa(args: argparse.Namespace, tmp: Path, thresholds: Thresholds) -> None:
    print("| seed | paired: gates moved | paired: largest change | unpaired: gates moved | unpaired: smallest q |")
    print("|---|---|---|---|---|")
    alarms = 0
    for i in range(args.seeds):
        seed = args.first_seed + i
        base = _run(tmp, f"aa-{seed}-a", args, seed)
        twin = _run(tmp, f"aa-{seed}-b", args, seed)
        other = _run(tmp, f"aa-{seed}-c", args, seed + 1_000_000)
        paired = compare_runs(base, twin, thresholds)
        unpaired = compare_runs(base, other, thresholds)
        alarms += bool(unpaired.moved)
        largest = max(abs(g.estimate.difference) for g in paired.gates)
        smallest_q = min(g.q_value for g in unpaired.gates)
        print(f"| {seed} | {len(paired.moved)} | {largest:.3f} | {len(unpaired.moved)} | {smallest_q:.3f} |",
              flush=True)
        for run in (base, twin, other):
            shutil.rmtree(run)
    print(f"\nunpaired A/A: something moved for {alarms} of {args.seeds} seeds")


def planted(args: argparse.Namespace, tmp: Path, thresholds: Thresholds) -> None:
    base = _run(tmp, "base", args, args.first_seed)
    for label in EDITS:
        cand = _run(tmp, f"cand-{abs(hash(label))}", args, args.first_seed, _edited(tmp, label))
        r = compare_runs(base, cand, thresholds)
        print(f"\n### {label}\n\nchanged cards: {', '.join(r.changed_cards)}; {len(r.moved)} of "
              f"{sum(g.tested for g in r.gates)} gates moved")
        for g in r.gates:
            if g.metric in ("card_position_effect", "card_ablation_effect"):
                e = g.estimate
                print(f"- own effect ({g.metric}), {g.mode}: {e.baseline:+.3f} -> {e.candidate:+.3f} "
                      f"(change {e.difference:+.3f} [{e.low:+.3f}, {e.high:+.3f}], q {g.q_value:.2g}, "
                      f"moved: {g.moved})")
        for g in r.moved:
            print(f"- moved: {describe(g)} [{g.estimate.low * 100:+.1f}, {g.estimate.high * 100:+.1f}] pp")
        imperial = [g for g in r.gates if g.subject == "imperial"]
        for g in imperial:
            print(f"- imperial, {g.mode}: {g.estimate.difference * 100:+.1f} pp [{g.estimate.low * 100:+.1f}, "
                  f"{g.estimate.high * 100:+.1f}], detectable {g.mde * 100:.1f} pp, moved: {g.moved}")
        print(flush=True)


NIGHTLY = Path(__file__).resolve().parent.parent / "studies" / "nightly.toml"


def power(args: argparse.Namespace, tmp: Path, thresholds: Thresholds) -> None:
    study = load_study(NIGHTLY)
    layout = Layout(study)
    planned = {(d.metric, d.mode, d.subject): d.power for d in gate_designs(study, thresholds)}
    scenarios = {
        "3 pp Imperial move, worst case (every game diverges)": Scenario("imperial", 0.03),
        f"3 pp Imperial move, {args.divergence:.0%} of its games diverge, no other game":
            Scenario("imperial", 0.03, divergence=args.divergence, others_diverge=False),
        "A/A on the same seeds, every game diverges": Scenario(),
        "A/A on other seeds": Scenario(paired=False),
        "A/A on the same seeds, identical games": Scenario(others_diverge=False),
    }
    rng = np.random.default_rng(args.first_seed)
    print(f"{args.runs} simulated regressions of {NIGHTLY.name} per scenario ({layout.games:,} games a run), "
          f"min difference {thresholds.min_difference}, alpha {thresholds.alpha}\n")
    print("| scenario | Imperial deck gate moved up (high-form, deathmatch) | matchups with Imperial moved, "
          "the right way | anything moved | anything moved the wrong way |")
    print("|---|---|---|---|---|")
    for label, scenario in scenarios.items():
        up: dict[str, int] = {mode: 0 for mode in study.forms}
        matchups = matchup_total = alarms = wrong = 0
        for _ in range(args.runs):
            gates = simulated_gates(layout, scenario, thresholds, rng)
            alarms += any(g.moved for g in gates)
            for g in gates:
                expected = _planted_sign(g, scenario.deck)
                wrong += g.moved and g.estimate.difference * expected < 0
                if g.metric == "deck_win_rate" and g.subject == scenario.deck:
                    up[g.mode] += g.moved and g.estimate.difference > 0
                if g.metric == "matchup_win_rate" and expected:
                    matchup_total += 1
                    matchups += g.moved and g.estimate.difference * expected > 0
        rates = ", ".join(f"{up[m] / args.runs:.1%} (plan: {planned[('deck_win_rate', m, 'imperial')]:.1%})"
                          for m in study.forms) if scenario.deck else "-"
        share = f"{matchups / matchup_total:.1%}" if matchup_total else "-"
        print(f"| {label} | {rates} | {share} | {alarms / args.runs:.1%} | {wrong if scenario.deck else '-'} |",
              flush=True)


def _planted_sign(gate: Gate, deck: str) -> int:
    """The direction a gate should move for a planted rise of ``deck``: up for the deck and a matchup it
    leads, down for the other decks and a matchup it follows; 0 for the rest (true change 0)."""
    if not deck or gate.metric == "card_position_effect":
        return 0
    if gate.metric == "deck_win_rate":
        return 1 if gate.subject == deck else -1
    first, _, second = gate.subject.partition(" vs ")
    return 1 if first == deck else -1 if second == deck else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("check", choices=["aa", "planted", "power"])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=9_100)
    parser.add_argument("--games", type=int, default=200, help="games per cell (even)")
    parser.add_argument("--strategy", default="builder")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1000, help="power: simulated regressions per scenario")
    parser.add_argument("--divergence", type=float, default=0.6,
                        help="power: share of the changed deck's games that play differently (realistic case)")
    parser.add_argument("--min-difference", type=float, default=Thresholds().min_difference)
    args = parser.parse_args()
    thresholds = Thresholds(min_difference=args.min_difference)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="validate-regression-") as tmp:
        {"aa": aa, "planted": planted, "power": power}[args.check](args, Path(tmp), thresholds)
    sizes = "" if args.check == "power" else f"; {args.strategy}, {args.games} games per cell"
    print(f"\n({time.monotonic() - started:.0f} s{sizes}, min difference {args.min_difference})")


if __name__ == "__main__":
    main()
