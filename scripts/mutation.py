"""Mutation score of sim/, pipelines/ and reports/ from a seeded random sample of mutmut's mutants.

The whole space is over 12,000 mutants; this runs ``--per-package`` of them per package, drawn with a
seeded generator from the sorted mutant names, so the same commit, seed and size give the same sample.

Steps, in a fresh copy of the committed tree (``git archive HEAD``; the working tree is never touched):
1. mutmut generates every mutant (``[tool.mutmut]`` in pyproject.toml: which tests, which options);
2. the sample is drawn per package;
3. ``mutmut run`` runs each sampled mutant against the tests that cover it (mutmut's per-function
   coverage of the non-Ray, non-slow tests), with mutmut's per-mutant CPU limit;
4. mutants that timed out run once more with 4 times the limit (a loaded machine slows sound ones);
5. the results, with a 95% Wilson interval per package and the diff of every mutant not killed, go to
   ``results.json`` and ``results.md`` in the work directory.

Usage: .venv/bin/python scripts/mutation.py [--per-package 40] [--seed 10] [--jobs 2] [--work DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from mutation_tree import copy_head

PACKAGES = ("sim", "pipelines", "reports")
DETECTED = ("killed", "timeout", "caught by type check")

_GENERATE = """
import json, os
from mutmut.__main__ import (collect_source_file_mutation_data, copy_also_copy_files, copy_src_dir,
                             create_mutants, setup_source_paths, store_lines_covered_by_tests)
os.makedirs("mutants", exist_ok=True)
copy_src_dir(); copy_also_copy_files(); setup_source_paths(); store_lines_covered_by_tests()
create_mutants(int(os.environ.get("JOBS", "2")))
mutants, _ = collect_source_file_mutation_data(mutant_names=())
print(json.dumps(sorted(name for _, name, _ in mutants)))
"""

_COLLECT = """
import json, sys
from mutmut.__main__ import collect_source_file_mutation_data
from mutmut.mutation.diff_apply import get_diff_for_mutant
from mutmut.stats import status_by_exit_code
wanted = set(json.load(sys.stdin))
mutants, _ = collect_source_file_mutation_data(mutant_names=())
out = {}
for m, name, _ in mutants:
    if name in wanted:
        status = status_by_exit_code[m.exit_code_by_key[name]]
        diff = "" if status == "killed" else get_diff_for_mutant(name, path=m.path)
        out[name] = {"status": status, "file": str(m.path), "diff": diff}
print(json.dumps(out))
"""


def _python(code: str, cwd: Path, stdin: str = "", env: dict[str, str] | None = None) -> str:
    import os

    proc = subprocess.run([sys.executable, "-c", code], cwd=cwd, input=stdin, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    if proc.returncode:
        sys.exit(f"error: mutmut step failed in {cwd}:\n{proc.stderr[-4000:]}")
    return proc.stdout.strip().splitlines()[-1]


def _mutmut_run(src: Path, names: list[str], jobs: int, log: Path) -> None:
    with log.open("w") as out:
        run = subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs), *names],
                             cwd=src, stdout=out, stderr=subprocess.STDOUT, check=False)
    if run.returncode:
        sys.exit(f"error: mutmut run failed (exit {run.returncode}); see {log}")


def sample(names: list[str], per_package: int, seed: int) -> list[str]:
    """``per_package`` names of each package, drawn with a generator seeded by the seed and the package."""
    out = []
    for package in PACKAGES:
        mine = sorted(n for n in names if n.split(".")[0] == package)
        out += sorted(random.Random(f"{seed}:{package}").sample(mine, min(per_package, len(mine))))
    return out


def summarize(results: dict[str, dict], population: Counter) -> list[dict]:
    from reports.stats import wilson

    rows = []
    for package in PACKAGES:
        statuses = Counter(r["status"] for n, r in results.items() if n.split(".")[0] == package)
        n = sum(statuses.values())
        detected = sum(statuses[s] for s in DETECTED)
        lo, hi = wilson(detected, n)
        rows.append({"package": package, "mutants": population[package], "sampled": n, "detected": detected,
                     "score": detected / n if n else None, "interval": [lo, hi], "statuses": dict(statuses)})
    return rows


def _markdown(rows: list[dict], results: dict[str, dict], meta: dict) -> str:
    lines = [f"commit `{meta['commit']}`, seed {meta['seed']}, {meta['per_package']} mutants per package, "
             f"mutmut {meta['mutmut']}", "",
             "| package | mutants | sampled | killed | survived | no tests | timeout | score | 95% interval |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        s = r["statuses"]
        lines.append(f"| {r['package']} | {r['mutants']} | {r['sampled']} | {s.get('killed', 0)} | "
                     f"{s.get('survived', 0)} | {s.get('no tests', 0)} | {s.get('timeout', 0)} | "
                     f"{r['score']:.2f} | {r['interval'][0]:.2f}-{r['interval'][1]:.2f} |")
    lines += ["", "## Not killed", ""]
    for name, r in sorted(results.items()):
        if r["status"] not in DETECTED:
            lines += [f"### {name} ({r['status']})", "", "```diff", r["diff"].strip(), "```", ""]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-package", type=int, default=40)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "tashkalar-mutation")
    args = parser.parse_args()
    from importlib.metadata import version

    src, commit = copy_head(args.work, "src")
    names = json.loads(_python(_GENERATE, src, env={"JOBS": str(args.jobs)}))
    population = Counter(n.split(".")[0] for n in names)
    chosen = sample(names, args.per_package, args.seed)
    print(f"{len(names)} mutants ({dict(population)}); running {len(chosen)} in {src}", flush=True)
    log = args.work / f"mutmut-{commit[:12]}.log"
    _mutmut_run(src, chosen, args.jobs, log)
    results = json.loads(_python(_COLLECT, src, stdin=json.dumps(chosen)))
    timeouts = sorted(n for n, r in results.items() if r["status"] == "timeout")
    if timeouts:  # a busy machine can time out a sound mutant: give those 4 times the limit once more
        config = src / "pyproject.toml"
        text = config.read_text()
        multiplier = re.search(r"^timeout_multiplier = ([0-9.]+)$", text, re.M)
        assert multiplier, "pyproject.toml: [tool.mutmut] needs timeout_multiplier"
        config.write_text(text.replace(multiplier.group(0), f"timeout_multiplier = {4 * float(multiplier[1])}"))
        try:
            _mutmut_run(src, timeouts, args.jobs, args.work / f"mutmut-{commit[:12]}-timeouts.log")
        finally:
            config.write_text(text)
        results |= json.loads(_python(_COLLECT, src, stdin=json.dumps(timeouts)))
        for name in timeouts:
            results[name]["rechecked"] = True
    missing = sorted(set(chosen) - set(results))
    if missing:
        sys.exit(f"error: no result for {len(missing)} mutants (see {log}), e.g. {missing[0]}")
    meta = {"commit": commit, "seed": args.seed, "per_package": args.per_package, "mutmut": version("mutmut")}
    rows = summarize(results, population)
    (args.work / "results.json").write_text(json.dumps({**meta, "packages": rows, "mutants": results}, indent=1))
    (args.work / "results.md").write_text(_markdown(rows, results, meta))
    print(_markdown(rows, results, meta).split("\n## ")[0])
    print(f"wrote {args.work / 'results.md'} and results.json; mutmut's log: {log}")


if __name__ == "__main__":
    main()
