"""Stopping a run on SIGINT or SIGTERM: with or without a terminal, sent to the process or its group, at any
moment, Ray's start-up included.

The driver installs its own handlers for both signals, whatever it inherited: a process started in the
background of a script inherits SIGINT ignored, and ``ray.init`` replaces the handlers with its own. While the
driver waits inside Ray (``ray.wait``, ``ray.get``), a signal is only recorded: an exception raised inside
Ray's native code can abort the process, so the driver loop raises it at the next safe point, within a
fraction of a second. A second signal raises at once.
"""

from __future__ import annotations

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


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    print("terminated" if signum == signal.SIGTERM else "interrupted", file=sys.stderr, flush=True)
    raise SystemExit(128 + signum)


def exit_on_stop_signals() -> None:
    """For the whole command line, from its first line: SIGINT and SIGTERM end any command with one line and
    the shell's status (130, 143), even where SIGINT was inherited ignored (a background job of a script).
    ``tashkalar run`` replaces these with StopSignals while it runs, to keep what it wrote."""
    for signum in SIGNALS:
        signal.signal(signum, _exit_on_signal)


class StopSignals:
    """The driver's handlers for SIGINT and SIGTERM, installed for the life of the context (main thread only)."""

    def __init__(self) -> None:
        self.received: int | None = None  # the first signal that asked to stop
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
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.restore()
