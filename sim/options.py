"""Checks shared by the commands' options, so the same option means the same thing everywhere.

``--workers N``: at least 1; leaving it out means one per core (there is no ``0`` for "all"). ``--games N``:
at least 1. Out-of-range values are user errors (``error: ...``, exit status 2), like every other mistake.
"""

from __future__ import annotations

from sim.errors import UserError


def at_least(option: str, value: int | None, minimum: int = 1) -> int | None:
    """``value`` if it is at least ``minimum`` (None, the option left out, passes); a UserError otherwise."""
    if value is not None and value < minimum:
        raise UserError(f"{option}: expected an integer of at least {minimum}, got {value}")
    return value
