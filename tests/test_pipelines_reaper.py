"""The watcher that stops what a killed driver leaves behind (no Ray: a driver with a detached child)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="the watcher needs /proc")

DRIVER = """
import subprocess, sys, time
from pipelines import reaper
watcher = reaper.start()
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)
print(watcher.pid, child.pid, flush=True)
if sys.argv[1] == "stop":
    reaper.stop(watcher)
time.sleep(300)
"""


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _start(mode: str) -> tuple[subprocess.Popen[str], int, int]:
    driver = subprocess.Popen([sys.executable, "-c", DRIVER, mode], stdout=subprocess.PIPE, text=True,
                              cwd=Path(__file__).parent.parent)
    watcher, child = (int(x) for x in driver.stdout.readline().split())
    time.sleep(1.5)  # the watcher has seen the child
    return driver, watcher, child


def test_what_outlives_a_killed_driver_is_killed():
    driver, watcher, child = _start("watch")
    driver.kill()
    driver.wait()
    deadline = time.monotonic() + 10
    while (_alive(child) or _alive(watcher)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(child) and not _alive(watcher)


def test_a_stopped_watcher_kills_nothing():
    driver, watcher, child = _start("stop")
    try:
        driver.kill()
        driver.wait()
        time.sleep(1.5)
        assert _alive(child) and not _alive(watcher)
    finally:
        os.kill(child, signal.SIGKILL)
