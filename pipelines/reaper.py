"""A watcher that stops what an embedded local Ray leaves behind when its driver is killed outright.

Ray ties its raylet, GCS and workers to the driver, so they die with it even after ``kill -9``; its
dashboard and runtime-env agents notice too but then spend about a minute reporting the death to the GCS
that died with it. The watcher, a small process of its own started before Ray, notes the driver's
descendants twice a second and, once the driver is gone, kills those still running. A driver that ends
normally stops the watcher first (``ray.shutdown`` has stopped everything by then).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

POLL_S = 0.5


def _processes() -> dict[int, tuple[int, str]]:
    """Every live process (zombies left out): its parent, and its start time, which tells it from a later
    process with the same pid."""
    out = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z":
            out[int(stat.parent.name)] = (int(fields[1]), fields[19])
    return out


def _descendants(root: int, processes: dict[int, tuple[int, str]]) -> dict[int, str]:
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    found, stack = {}, [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found[child] = processes[child][1]
            stack.append(child)
    return found


def watch(driver: int) -> None:
    seen: dict[int, str] = {}
    while (processes := _processes()).get(driver):
        seen |= _descendants(driver, processes)
        time.sleep(POLL_S)
    processes = _processes()
    for pid, started in seen.items():
        if pid != os.getpid() and processes.get(pid, (0, ""))[1] == started:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def start() -> subprocess.Popen[bytes] | None:
    """Watch this process; None where /proc does not exist (not Linux)."""
    if not Path("/proc/self/stat").exists():
        return None
    return subprocess.Popen([sys.executable, "-m", "pipelines.reaper", str(os.getpid())],
                            start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def stop(watcher: subprocess.Popen[bytes] | None) -> None:
    if watcher is not None:
        watcher.kill()
        watcher.wait()


if __name__ == "__main__":
    watch(int(sys.argv[1]))
