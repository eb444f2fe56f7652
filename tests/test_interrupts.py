"""The stderr gate of a stopped run (pipelines.interrupts.quiet_ray_after_stop), in a child process whose
stderr is a pipe, as under a script or a scheduler."""

import subprocess
import sys

CHILD = r"""
import os, signal, sys
from pipelines.interrupts import quiet_ray_after_stop
signal.signal(signal.SIGTERM, lambda signum, frame: None)
ray_line = b"[2026-12-04 10:51:45,172 E 20205 20456] task_manager.cc:1545: Failed to push error to driver\n"
with quiet_ray_after_stop():
    os.write(2, ray_line)                      # before any signal: kept
    print("progress", file=sys.stderr, flush=True)
    sys.stdin.readline()                       # the parent has seen both lines
    os.kill(os.getpid(), signal.SIGTERM)
    os.write(2, ray_line.replace(b"E 20205", b"W 20205"))   # after the signal: dropped
    os.write(2, b"a line of our own\n")        # kept
    os.write(2, b"unfinished")                 # a last line without its end: kept
print("terminated", file=sys.stderr)
"""


def test_ray_native_lines_are_dropped_after_a_stop_signal_and_nothing_else_is():
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    seen = [child.stderr.readline(), child.stderr.readline()]
    child.stdin.write("go\n")
    child.stdin.flush()
    seen += child.stderr.read().splitlines(keepends=True)
    assert child.wait(timeout=60) == 0, seen
    assert [line.rstrip("\n") for line in seen] == [
        "[2026-12-04 10:51:45,172 E 20205 20456] task_manager.cc:1545: Failed to push error to driver",
        "progress", "a line of our own", "unfinishedterminated"]
