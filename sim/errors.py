"""User-facing errors: a clear message and a non-zero exit, never a traceback for a user's mistake."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class UserError(ValueError):
    """A mistake in the user's input (file, option, config, name); the message says what and where."""


def fail_cleanly(fn: F) -> F:
    """Turn a UserError into ``error: ...`` on stderr and exit status 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import typer

        try:
            return fn(*args, **kwargs)
        except UserError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]
