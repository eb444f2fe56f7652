"""Stopping a run on SIGINT or SIGTERM: with or without a terminal, sent to the process or its group, at any
moment, Ray's start-up included.

The driver installs its own handlers for both signals, whatever it inherited: a process started in the
background of a script inherits SIGINT ignored, and ``ray.init`` replaces the handlers with its own. While the
driver waits inside Ray (``ray.wait``, ``ray.get``), a signal is only recorded: an exception raised inside
Ray's native code can abort the process, so the driver loop raises it at the next safe point, within a
fraction of a second. A second signal raises at once.
"""

from __future__ import annotations

import atexit
import os
import re
import select
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: stop as Ctrl-C does, keeping what is written (callers that handle Ctrl-C handle
    this too; ``tashkalar run`` tells them apart for the exit status)."""


def _stop_exception(signum: int) -> KeyboardInterrupt:
    return Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def exit_status(error: KeyboardInterrupt) -> int:
    """The shell's status for a run stopped by a signal: 128 + the signal's number (130, 143)."""
    return 128 + (signal.SIGTERM if isinstance(error, Terminated) else signal.SIGINT)


_early_signal: list[int] = []  # the signal the command line's first handler received, until StopSignals takes it


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    if not _early_signal:
        _early_signal.append(signum)
    raise SystemExit(128 + signum)


def _end_an_early_stop() -> None:
    """At the interpreter's exit, after every other exit handler (registered first, it runs last): a signal
    the first handler received ends the process with its one line and status, even where the SystemExit it
    raised was swallowed (it can land inside code that catches everything, such as an import's fallback)."""
    if _early_signal:
        signum = _early_signal[0]
        print("terminated" if signum == signal.SIGTERM else "interrupted", file=sys.stderr, flush=True)
        os._exit(128 + signum)


def exit_on_stop_signals() -> None:
    """For the whole command line, from its first line: SIGINT and SIGTERM end any command with one line and
    the shell's status (130, 143), even where SIGINT was inherited ignored (a background job of a script).
    ``tashkalar run`` replaces these with StopSignals while it runs, to keep what it wrote; a signal that came
    before is then its stop."""
    atexit.register(_end_an_early_stop)
    for signum in SIGNALS:
        signal.signal(signum, _exit_on_signal)


class StopSignals:
    """The driver's handlers for SIGINT and SIGTERM, installed for the life of the context (main thread only)."""

    def __init__(self) -> None:
        # the first signal that asked to stop: one that came before these handlers, if any
        self.received: int | None = _early_signal.pop() if _early_signal else None
        self._deferring = False
        self._previous: dict[int, Any] = {}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        first = self.received is None
        if first:
            self.received = signum
        if self._deferring and first:
            return
        raise _stop_exception(self.received or signum)

    def install(self) -> None:
        """(Re)install the handlers: at the start, and again after ``ray.init`` installed its own. Only the
        main thread receives signals; elsewhere this does nothing."""
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in SIGNALS:
            previous = signal.signal(signum, self._handle)
            self._previous.setdefault(signum, previous)

    def restore(self) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        self._previous.clear()

    def check(self) -> None:
        """Raise the stop a recorded signal asked for (KeyboardInterrupt, or Terminated for SIGTERM)."""
        if self.received is not None:
            raise _stop_exception(self.received)

    @contextmanager
    def deferred(self, raise_after: bool = True) -> Iterator[None]:
        """Inside, the first signal is recorded, not raised; leaving raises it (unless ``raise_after`` is
        false: cleaning up after a stop, which must run to its end)."""
        outer, self._deferring = self._deferring, True
        try:
            yield
        finally:
            self._deferring = outer
        if raise_after and not outer:
            self.check()

    def __enter__(self) -> StopSignals:
        self.check()  # a signal that came before these handlers stops here, before anything is done
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.restore()


# A line of Ray's native (C++) logger: "[2026-12-04 10:51:45,172 E 20205 20456] task_manager.cc:1545: ...".
_RAY_NATIVE_LINE = re.compile(rb"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z] \d+ \d+\] ")
_END = b"\0tashkalar: end of the stderr gate\0"


@contextmanager
def quiet_ray_after_stop() -> Iterator[None]:
    """Keep a stopped run's stderr to its one line when stderr is not a terminal (a script, a scheduler).

    Ray's native code in the driver writes its errors straight to file descriptor 2, and a signal sent to the
    process group also stops Ray's workers, so the driver's Ray may log that it lost them ("Failed to push
    error to driver ...") before the run can say "terminated". Inside, descriptor 2 is a pipe that a thread
    copies to the real stderr, dropping Ray's native log lines once SIGINT or SIGTERM has arrived (seen on
    Python's signal wake-up descriptor, written the moment the signal lands). In a terminal nothing changes:
    a pipe there would turn the progress bar off."""
    if os.isatty(2) or threading.current_thread() is not threading.main_thread():
        yield
        return
    sys.stderr.flush()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    previous_wakeup = signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    pipe_read, pipe_write = os.pipe()
    real_stderr = os.dup(2)
    os.dup2(pipe_write, 2)
    os.close(pipe_write)
    copier = threading.Thread(target=_copy_stderr, args=(pipe_read, wake_read, real_stderr), daemon=True)
    copier.start()
    try:
        yield
    finally:
        sys.stderr.flush()
        os.write(2, _END)  # Ray's child processes may hold the pipe open too: the copier stops at this mark
        os.dup2(real_stderr, 2)
        copier.join(timeout=5)
        signal.set_wakeup_fd(previous_wakeup)
        if not copier.is_alive():  # else it still reads them (never seen): the process ends soon anyway
            for fd in (pipe_read, wake_read, wake_write, real_stderr):
                os.close(fd)


def _copy_stderr(pipe: int, wake: int, out: int) -> None:
    stopped = False
    pending = b""
    while True:
        readable, _, _ = select.select([wake, pipe], [], [])
        if wake in readable:  # first: a line that came with the signal is judged after it
            stopped = stopped or any(byte in SIGNALS for byte in os.read(wake, 64))
        if pipe not in readable:
            continue
        chunk = os.read(pipe, 65536)
        pending += chunk
        end = pending.find(_END)
        finished = end >= 0 or not chunk
        text = pending[:end] if end >= 0 else pending
        cut = len(text) if finished else text.rfind(b"\n") + 1  # an unfinished last line waits for its end
        lines, pending = text[:cut], text[cut:]
        for line in lines.splitlines(keepends=True):
            if not (stopped and _RAY_NATIVE_LINE.match(line)):
                os.write(out, line)
        if finished:
            return
