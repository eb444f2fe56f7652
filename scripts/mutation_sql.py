"""Mutation score of the report's SQL files (``reports/sql/*.sql``, ``reports/regression/*.sql``).

mutmut mutates Python only; this plants one small mistake at a time in a SQL file and runs the tests that read
that file. Steps, in a fresh copy of the committed tree (``git archive HEAD``; the checkout is never touched):
1. every mutant of every SQL file is listed (operators below; comments and string literals are left alone);
2. one run of the candidate test files (``TEST_FILES``, without the ``ray`` and ``slow`` markers) records which
   test files read which SQL file (``Path.read_text``), and their clean times;
3. ``--sample`` mutants are drawn with ``random.Random("SEED:sql")`` from the sorted mutant ids, and run in the
   order drawn (a run stopped early is scored on the first K drawn: a smaller sample, not a biased one);
4. each sampled mutant is written into the copy and the test files that read its SQL file run with ``-x``;
   killed: pytest exits non-zero (a failing test, or a query the mutant broke), or runs past the limit
   (4 x the clean time + 60 s); survived: exit 0; "no tests": no candidate test file reads the SQL file.
5. ``results.json`` and ``results.md`` (score with a 95% Wilson interval, every survivor's change) go to the
   work directory.

Operators: min <-> max, sum -> count, avg -> sum, AND <-> OR, = <-> <>, < <-> <=, > <-> >=, ASC <-> DESC,
an integer constant +1 and -1, a condition term (after WHERE, HAVING, AND, OR, ON, FILTER's WHERE) replaced by
TRUE, DISTINCT dropped.

Usage: .venv/bin/python scripts/mutation_sql.py [--sample 40] [--seed 10] [--work DIR] [--commit REV] [--list]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from mutation_tree import ROOT, copy_head, run_limited

from reports.stats import wilson

SQL_GLOBS = ("reports/sql/*.sql", "reports/regression/*.sql")
TEST_FILES = (
    "tests/test_report_truth.py", "tests/test_regression_unit.py", "tests/test_reports.py",
    "tests/test_regression_gates.py", "tests/test_regression_gate.py", "tests/test_regression_power.py",
    "tests/test_history_metrics.py", "tests/test_melee.py", "tests/test_teams_report.py",
    "tests/test_reports_ablation.py", "tests/test_reports_card_pages.py", "tests/test_reports_charts.py",
    "tests/test_reports_errors.py", "tests/test_reports_headlines.py", "tests/test_reports_inputs.py",
    "tests/test_reports_levels.py", "tests/test_reports_skill.py", "tests/test_reports_stats.py",
    "tests/test_reports_strength.py", "tests/test_flares.py", "tests/test_pipelines_store.py",
    "tests/test_cli.py", "tests/test_expansions_pipeline.py",
)
MARKERS = "not ray and not slow"

_SWAPS = {"min": "max", "max": "min", "sum": "count", "avg": "sum", "and": "OR", "or": "AND",
          "asc": "DESC", "desc": "ASC", "=": "<>", "<>": "=", "!=": "=", "<": "<=", "<=": "<", ">": ">=",
          ">=": ">"}
# Tokens: comments and string literals (skipped), words, integers, comparison operators, parentheses.
_TOKEN = re.compile(r"(?P<skip>--[^\n]*|'(?:[^']|'')*'|\"[^\"]*\")|(?P<word>[A-Za-z_][A-Za-z_0-9]*)"
                    r"|(?P<int>\d+(?:\.\d+)?)|(?P<op><>|!=|<=|>=|->>|->|=>|::|<|>|=)|(?P<paren>[()])|(?P<end>;)")
_TERM_START = {"where", "having", "and", "or", "on"}
_TERM_END = {"and", "or", "group", "order", "having", "window", "qualify", "limit", "union", "join", "left",
             "inner", "cross", "select", "from", "then", "else", "end", "when", "using", "where"}


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    line: int
    operator: str
    start: int
    end: int
    replacement: str
    original: str


def _tokens(text: str) -> list[re.Match]:
    """Every token but comments (string literals are kept: they end a condition term, never mutated)."""
    return [m for m in _TOKEN.finditer(text) if not m.group().startswith("--")]


def nxt_word(toks: list[re.Match], i: int) -> str:
    return toks[i + 1].group().lower() if i + 1 < len(toks) else ""


def _term_end(text: str, toks: list[re.Match], i: int) -> int:
    """The end offset of the condition term that starts at token ``i`` (at its parenthesis depth)."""
    depth, end = 0, toks[i].start()
    for t in toks[i:]:
        low = t.group().lower()
        if t.group("paren"):
            depth += 1 if low == "(" else -1
            if depth < 0:
                break
        elif depth == 0 and (t.group("end") or (t.group("word") and low in _TERM_END)):
            break
        end = t.end()
    return end


def mutants_of(path: Path, rel: str) -> list[Mutant]:
    text = path.read_text()
    toks = _tokens(text)
    out: list[tuple[str, int, int, str]] = []
    for i, t in enumerate(toks):
        if t.group("skip") or (t.group().lower() == "or" and nxt_word(toks, i) == "replace"):
            continue
        word, low = t.group(), t.group().lower()
        nxt = toks[i + 1].group() if i + 1 < len(toks) else ""
        prev = toks[i - 1].group().lower() if i else ""
        if t.group("word"):
            if low in ("min", "max", "sum", "avg") and nxt == "(":
                out.append((f"{low}->{_SWAPS[low].lower()}", t.start(), t.end(), _SWAPS[low]))
            elif low in ("and", "or") and prev != "between":
                if not (low == "and" and any(x.group().lower() == "between" for x in toks[max(0, i - 4):i])):
                    out.append((f"{low}->{_SWAPS[low].lower()}", t.start(), t.end(), _SWAPS[low]))
            elif low in ("asc", "desc"):
                out.append((f"{low}->{_SWAPS[low].lower()}", t.start(), t.end(), _SWAPS[low]))
            elif low == "distinct" and prev == "select":
                out.append(("drop-distinct", t.start(), t.end() + 1, ""))
            if low in _TERM_START or (low == "where" and prev == "("):
                if low in ("and", "or") and any(x.group().lower() == "between" for x in toks[max(0, i - 4):i]):
                    continue
                if i + 1 < len(toks) and toks[i + 1].group().lower() not in _TERM_END:
                    start, end = toks[i + 1].start(), _term_end(text, toks, i + 1)
                    if end > start and text[start:end].strip().lower() != "true":
                        out.append((f"{low}-term->true", start, end, "TRUE"))
        elif t.group("int") and "." not in word and prev not in ("limit",) and not re.match(r"[A-Za-z_]",
                                                                                               text[t.start() - 1]):
            n = int(word)
            out.append(("int+1", t.start(), t.end(), str(n + 1)))
            if n > 0:
                out.append(("int-1", t.start(), t.end(), str(n - 1)))
        elif t.group("op") and word in _SWAPS:
            out.append((f"{word}->{_SWAPS[word]}", t.start(), t.end(), _SWAPS[word]))
    mutants = []
    for k, (op, start, end, repl) in enumerate(out):
        line = text.count("\n", 0, start) + 1
        mutants.append(Mutant(f"{rel}:{k:04d}", rel, line, op, start, end, repl, text[start:end]))
    return mutants


def all_mutants(root: Path) -> list[Mutant]:
    files = sorted(p for g in SQL_GLOBS for p in root.glob(g))
    return [m for p in files for m in mutants_of(p, str(p.relative_to(root)))]


def apply(root: Path, m: Mutant) -> str:
    """Write the mutant into ``root``; returns the file's clean text (to restore)."""
    path = root / m.file
    clean = path.read_text()
    path.write_text(clean[:m.start] + m.replacement + clean[m.end:])
    return clean


_TRACE = '''
import json, os, pathlib, time
_real = pathlib.Path.read_text
_seen, _t, _failed = {}, {}, []
def _read_text(self, *a, **k):
    name = str(self)
    if name.endswith(".sql"):
        test = os.environ.get("PYTEST_CURRENT_TEST", "").split("::")[0]
        _seen.setdefault(test, set()).add(os.path.relpath(os.path.realpath(name)))
    return _real(self, *a, **k)
pathlib.Path.read_text = _read_text
def pytest_runtest_protocol(item, nextitem):
    _t.setdefault(item.location[0], 0.0)
    item._t0 = time.perf_counter()
def pytest_runtest_teardown(item, nextitem):
    _t[item.location[0]] += time.perf_counter() - item._t0
def pytest_runtest_logreport(report):
    if report.failed:
        _failed.append(report.nodeid)
def pytest_sessionfinish(session, exitstatus):
    with open(os.environ["SQL_TRACE_OUT"], "w") as f:
        json.dump({"reads": {k: sorted(v) for k, v in _seen.items()}, "times": _t,
                   "exit": int(exitstatus), "failed": _failed}, f)
'''


def _pytest(src: Path, files: list[str], limit: float, env: dict[str, str], log: Path) -> tuple[str, float]:
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-n", "0", "-p", "no:cacheprovider", "-m", MARKERS, *files]
    return run_limited(cmd, src, env, limit, log)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "tashkalar-mutation-sql")
    parser.add_argument("--commit", default="HEAD", help="the commit to measure (default HEAD)")
    parser.add_argument("--list", action="store_true", help="print every mutant and stop")
    args = parser.parse_args()
    if args.list:
        for m in all_mutants(ROOT):
            print(f"{m.id}\tline {m.line}\t{m.operator}\t{m.original!r} -> {m.replacement!r}")
        return
    args.work.mkdir(parents=True, exist_ok=True)
    src, commit = copy_head(args.work, "src", args.commit)
    for extension in ROOT.glob("sim/_core*.so"):  # the checkout's build of the core (not in the archive)
        shutil.copy2(extension, src / "sim" / extension.name)
    log = args.work / f"pytest-{commit[:12]}.log"
    env = {**os.environ, "PYTHONPATH": str(src), "SQL_TRACE_OUT": str(args.work / "trace.json")}
    trace_file = args.work / f"trace-{commit[:12]}.json"
    if not trace_file.exists():
        (src / "sql_trace_plugin.py").write_text(_TRACE)
        files = [f for f in TEST_FILES if (src / f).exists()]
        cmd = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-p", "sql_trace_plugin",
               "-m", MARKERS, *files]
        run_limited(cmd, src, env, 4 * 3600, log)
        trace = json.loads((args.work / "trace.json").read_text())
        if trace["exit"] != 0:
            failed = ", ".join(trace["failed"][:5]) or "none failed: see the log"
            sys.exit(f"error: the clean tests fail in {src} (pytest exit {trace['exit']}: {failed}); see {log}")
        (args.work / "trace.json").rename(trace_file)
    trace = json.loads(trace_file.read_text())
    readers: dict[str, set[str]] = {}
    for test, sqls in trace["reads"].items():
        for sql in sqls:
            readers.setdefault(sql, set()).add(test)
    mutants = all_mutants(src)
    # Run in the order drawn: the first K run are the sample of size K, so a run stopped early is scored on an
    # unbiased (smaller) sample, not on the files whose names sort first.
    ordered = sorted(mutants, key=lambda m: m.id)
    sample = random.Random(f"{args.seed}:sql").sample(ordered, min(args.sample, len(mutants)))
    results = []
    for m in sample:
        files = sorted(readers.get(m.file, ()))
        if not files:
            results.append({**asdict(m), "status": "no tests", "seconds": 0.0, "tests": []})
            continue
        limit = 4 * sum(trace["times"].get(f, 30.0) for f in files) + 60
        clean = apply(src, m)
        try:
            result, seconds = _pytest(src, files, limit, env, log)
        finally:
            (src / m.file).write_text(clean)
        status = {"pass": "survived", "fail": "killed", "timeout": "timeout"}[result]
        results.append({**asdict(m), "status": status, "seconds": round(seconds, 1), "tests": files})
        print(f"{m.id} {m.operator} {m.original!r}->{m.replacement!r}: {status} ({seconds:.0f} s)", flush=True)
        (args.work / "partial.json").write_text(json.dumps(results, indent=1))  # readable while it runs
    killed = sum(r["status"] in ("killed", "timeout") for r in results)
    lo, hi = wilson(killed, len(results))
    meta = {"commit": commit, "seed": args.seed, "sample": len(results), "mutants": len(mutants),
            "killed": killed, "score": killed / max(1, len(results)), "interval": [lo, hi]}
    (args.work / "results.json").write_text(json.dumps({**meta, "results": results}, indent=1))
    lines = [f"SQL mutants: {len(mutants)} at {commit[:12]}; seed {args.seed}, sample {len(results)}; "
             f"killed {killed} ({meta['score']:.2f}, 95% interval {lo:.2f}-{hi:.2f})", "",
             "| mutant | line | change | status |", "|---|---:|---|---|"]
    lines += [f"| `{r['id']}` | {r['line']} | `{r['original']}` -> `{r['replacement']}` | {r['status']} |"
              for r in results if r["status"] not in ("killed", "timeout")]
    (args.work / "results.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines[:1]))
    print(f"wrote {args.work / 'results.md'} and results.json")


if __name__ == "__main__":
    main()
