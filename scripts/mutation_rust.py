"""Mutation score of the Rust rules (``core/engine/src``, not the strategies in ``players/``), against the cargo
tests and the Python rule tests.

cargo-mutants (pinned in scripts/mutation.sh) lists the mutants; this script draws a seeded sample and runs it
itself, so that a mutant the cargo tests miss can also be built into the extension and run against the Python
tests. Steps, in a copy of the committed tree (``git archive HEAD``, or ``--commit``; the checkout is never
touched):
1. ``cargo mutants --list --json`` over the rules' files (``RULE_FILES``; test-only modules are not mutated);
2. ``--sample`` mutants drawn with ``random.Random("SEED:rust")`` from the list sorted by name, and run in the
   order drawn: the first K of them are the sample of size K, so a run stopped early is scored on the
   longest measured run of the drawn order (a smaller sample, not a biased one);
3. each mutant is written into the copy, and, stopping at the first stage that fails:
   a. the cargo tests of the rules (``cargo test --release -p tk_engine --lib`` and the rules' integration
      tests ``RULE_TESTS``);
   b. the Python rule tests (``PY_RULE_TESTS``) through ``sim._core`` built from the mutant (maturin's
      ``cargo build --release -p tk_core_py``);
   c. the other integration tests of ``tk_engine`` (the strategies');
   killed: a test stage fails or runs past its limit (a mutant that loops); a mutant that does not build is
   "unviable" (as cargo-mutants counts it), reported apart and left out of the score. Release builds are
   incremental (the same code and opt-level; a fifth of the CPU per mutant);
4. ``results.json`` (after every mutant: a run started again goes on) and ``results.md`` in the work
   directory, with a 95% Wilson interval.

Usage: .venv/bin/python scripts/mutation_rust.py [--sample 60] [--seed 10] [--work DIR] [--commit REV] [--list]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from mutation_tree import ROOT, copy_head, run_limited

from reports.stats import wilson

RULE_FILES = ("src/board.rs", "src/cards.rs", "src/decisions.rs", "src/etherweave.rs", "src/everfrost.rs",
              "src/game.rs", "src/patterns.rs", "src/ranks.rs", "src/record.rs", "src/rng.rs", "src/state.rs",
              "src/tasks.rs", "src/effects/*.rs")
NOT_MUTATED = ("src/effects/testing.rs", "src/effects/*_tests.rs", "src/*_tests.rs")
RULE_TESTS = ("engine", "base_records", "expansions")
PY_RULE_TESTS = ("tests/test_core.py", "tests/test_rules.py", "tests/test_tasks.py", "tests/test_everfrost.py",
                 "tests/test_etherweave.py", "tests/test_nethervoid.py", "tests/test_teams.py",
                 "tests/test_scenario.py", "tests/test_expansion_state.py", "tests/test_record.py",
                 "tests/test_core_api.py", "tests/test_melee.py", "tests/test_placements.py", "tests/cards",
                 "tests/test_flares.py", "tests/test_properties.py", "tests/test_card_export.py",
                 "tests/test_core_live.py")
MARKERS = "not ray and not slow"


def list_mutants(core: Path) -> list[dict]:
    cmd = ["cargo", "mutants", "--list", "--json", "--diff", "-p", "tk_engine", "--dir", str(core)]
    for f in RULE_FILES:
        cmd += ["--file", f"engine/{f}"]
    for f in NOT_MUTATED:
        cmd += ["--exclude", f"engine/{f}"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def name(m: dict) -> str:
    return m["name"]


def _patch(tree: Path, m: dict, reverse: bool = False) -> None:
    """Apply (or take back) a mutant's diff; cargo-mutants' ``+++`` line names the mutation, not the file."""
    lines = m["diff"].splitlines(keepends=True)
    diff = "".join(f"+++ {m['file']}\n" if line.startswith("+++ ") else line for line in lines)
    cmd = ["patch", "-p0", "-s", "-d", str(tree / "core")] + (["-R"] if reverse else [])
    subprocess.run(cmd, input=diff, text=True, check=True)


class Stages:
    """The build and test stages of one tree (``run`` takes a stage's time limit)."""

    def __init__(self, tree: Path, target: Path, log: Path):
        self.tree, self.log = tree, log
        # Incremental release builds: the same code at the same opt-level, a fifth of the CPU to rebuild after
        # a one-line mutant (docs/mutation.md).
        self.env = {**os.environ, "CARGO_TARGET_DIR": str(target), "PYTHONPATH": str(tree),
                    "PYO3_PYTHON": sys.executable, "CARGO_PROFILE_RELEASE_INCREMENTAL": "true"}
        core = ["cargo", "test", "--release", "-p", "tk_engine"]
        rules = ["--lib"] + [a for t in RULE_TESTS for a in ("--test", t)]
        rest = sorted({p.stem for p in (tree / "core" / "engine" / "tests").glob("*.rs")} - set(RULE_TESTS))
        self.commands = {
            "build-rules": core + rules + ["--no-run"],
            "cargo-rules": core + rules,
            "build-py": ["cargo", "build", "--release", "-p", "tk_core_py", "--features", "pyo3/extension-module"],
            "python-rules": [sys.executable, "-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider",
                             "-m", MARKERS, *PY_RULE_TESTS],
            "cargo-rest": core + [a for t in rest for a in ("--test", t)],
        }
        self.target = target

    def run(self, stage: str, limit: float | None = None) -> tuple[str, float]:
        cwd = self.tree if stage == "python-rules" else self.tree / "core"
        if stage == "python-rules":
            shutil.copy2(self.target / "release" / "lib_core.so", self.tree / "sim" / "_core.abi3.so")
        return run_limited(self.commands[stage], cwd, self.env, limit or 4 * 3600, self.log)


def summary(results: list[dict], sample: list[dict], meta: dict) -> list[str]:
    """The score on the longest measured run of the drawn order, then every mutant measured."""
    measured = {r["name"]: r for r in results}
    prefix = [measured[name(m)] for m in itertools.takewhile(lambda m: name(m) in measured, sample)]
    viable = [r for r in prefix if r["status"] != "unviable"]
    killed = sum(r["status"] != "survived" for r in viable)
    lo, hi = wilson(killed, len(viable))
    lines = [f"Rust rules mutants: {meta['mutants']} at {meta['commit'][:12]}; seed {meta['seed']}, the first "
             f"{len(prefix)} of {len(sample)} drawn, {len(prefix) - len(viable)} unviable; killed {killed} of "
             f"{len(viable)} ({killed / max(1, len(viable)):.2f}, 95% interval {lo:.2f}-{hi:.2f})", ""]
    lines += [f"- `{r['name']}`: {r['status']} {r['stage']}" for r in prefix]
    later = [r for r in results if r not in prefix]
    if later:
        lines += ["", "Measured past the first gap in the drawn order (not counted):", ""]
        lines += [f"- `{r['name']}`: {r['status']} {r['stage']}" for r in later]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=60)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "tashkalar-mutation-rust")
    parser.add_argument("--commit", default="HEAD", help="the commit to measure (default HEAD)")
    parser.add_argument("--list", action="store_true", help="print every mutant's name and stop")
    parser.add_argument("--stages", default="build-rules,cargo-rules,build-py,python-rules,cargo-rest",
                        help="the stages to run, in order (a shorter list gives a lower bound, quicker)")
    args = parser.parse_args()
    if args.list:
        for m in sorted(list_mutants(ROOT / "core"), key=name):
            print(name(m))
        return
    args.work.mkdir(parents=True, exist_ok=True)
    tree, commit = copy_head(args.work, "tree", args.commit)
    mutants = sorted(list_mutants(tree / "core"), key=name)
    sample = random.Random(f"{args.seed}:rust").sample(mutants, min(args.sample, len(mutants)))  # drawn order
    stages = Stages(tree, args.work / "target", args.work / f"cargo-{commit[:12]}.log")
    unknown = set(args.stages.split(",")) - set(stages.commands)
    if unknown:
        sys.exit(f"error: --stages: no such stage {', '.join(sorted(unknown))} (stages: {', '.join(stages.commands)})")
    stages.commands = {k: v for k, v in stages.commands.items() if k in args.stages.split(",")}
    out = args.work / "results.json"
    meta = {"commit": commit, "seed": args.seed, "stages": list(stages.commands), "mutants": len(mutants)}
    done = json.loads(out.read_text()) if out.exists() else {}
    if {k: done.get(k) for k in meta} != meta:  # a run of another commit, seed or stages starts afresh
        done = {}
    clean: dict[str, float] = done.get("clean", {})
    for stage in stages.commands:  # the clean tree: every stage must pass; its time sets the limits
        if stage in clean:
            continue
        result, seconds = stages.run(stage)
        if result != "pass":
            sys.exit(f"error: the clean tree fails stage {stage}; see {stages.log}")
        clean[stage] = seconds
        print(f"clean {stage}: {seconds:.0f} s", flush=True)
    results = [r for r in done.get("results", []) if r["name"] in {name(m) for m in sample}]
    for m in sample:
        if name(m) in {r["name"] for r in results}:
            continue  # measured before this run was interrupted
        _patch(tree, m)
        status, stage_of, seconds = "survived", "", 0.0
        try:
            for stage in stages.commands:
                # Generous on a shared machine: past it, a test run counts as killed (a mutant that loops).
                result, took = stages.run(stage, 5 * clean[stage] + 300)
                seconds += took
                if result != "pass":
                    # A mutant that does not build is unviable: left out of the score, as cargo-mutants does.
                    status = "unviable" if stage.startswith("build") else result.replace("fail", "killed")
                    stage_of = stage
                    break
        finally:
            _patch(tree, m, reverse=True)
        results.append({"name": name(m), "status": status, "stage": stage_of, "seconds": round(seconds),
                        "diff": m["diff"]})
        print(f"{name(m)}: {status} {stage_of} ({seconds:.0f} s)", flush=True)
        out.write_text(json.dumps({**meta, "clean": clean, "results": results}, indent=1))
        (args.work / "results.md").write_text("\n".join(summary(results, sample, meta)) + "\n")
    print(summary(results, sample, meta)[0])


if __name__ == "__main__":
    main()
