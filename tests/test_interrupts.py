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


SWALLOWED = r"""
import os, signal, sys
from pipelines.interrupts import StopSignals, exit_on_stop_signals
exit_on_stop_signals()
try:  # code that catches everything (an import's fallback) swallows the SystemExit the handler raises
    os.kill(os.getpid(), signal.{name})
except BaseException:
    pass
print("carried on", flush=True)
if sys.argv[1] == "run":
    try:
        with StopSignals():
            print("ran", flush=True)
    except KeyboardInterrupt as e:
        print(type(e).__name__, flush=True)
        os._exit(3)
"""


def _swallowed(name: str, then: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SWALLOWED.replace("{name}", name), then], capture_output=True,
                          text=True, timeout=60)


def test_a_signal_whose_exit_was_swallowed_still_ends_the_command_with_its_line_and_status():
    for name, status, word in [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")]:
        child = _swallowed(name, "exit")
        assert (child.returncode, child.stdout, child.stderr) == (status, "carried on\n", f"{word}\n")


def test_a_run_stops_at_its_first_safe_point_on_a_signal_that_came_before_its_handlers():
    for name, stop in [("SIGINT", "KeyboardInterrupt"), ("SIGTERM", "Terminated")]:
        child = _swallowed(name, "run")
        assert (child.returncode, child.stdout, child.stderr) == (3, f"carried on\n{stop}\n", "")
