"""What the mutation scripts (mutation.py, mutation_rust.py, mutation_sql.py) share: the copy of the committed
tree that they mutate, and a command run with a time limit (docs/mutation.md)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def copy_head(work: Path, prefix: str, rev: str = "HEAD") -> tuple[Path, str]:
    """A copy of the committed tree at ``rev``, ``work/PREFIX-COMMIT`` (reused when it exists), and the commit.

    The tests read the rules' reference cards from ``../shared`` (``tests/ruleset.py``: two levels above the
    test file), so the checkout's ``../shared`` is linked beside the copy and inside it (mutmut runs the tests
    one level down, in ``mutants/``)."""
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    tree = work / f"{prefix}-{commit[:12]}"
    if not tree.is_dir():
        partial = work / f"{prefix}-partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(partial)], input=archive, check=True)
        partial.rename(tree)
    shared = ROOT.parent / "shared"
    for link in (work / "shared", tree / "shared"):
        if shared.is_dir() and not link.exists():
            link.symlink_to(shared)
    return tree, commit


def run_limited(cmd: list[str], cwd: Path, env: dict[str, str], limit: float, log: Path) -> tuple[str, float]:
    """Run ``cmd``, its output appended to ``log``: ('pass' | 'fail' | 'timeout', wall seconds). Past the limit
    (or when this script is interrupted) the command's whole process group is killed: a looping test binary
    that cargo started goes too."""
    start = time.perf_counter()
    with log.open("a") as out:
        out.write(f"\n$ {' '.join(cmd)}\n")
        out.flush()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc: int | None = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            rc = None
        finally:
            if proc.poll() is None:  # past the limit, or this script interrupted: the whole group goes
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    result = "timeout" if rc is None else "pass" if rc == 0 else "fail"
    return result, time.perf_counter() - start
