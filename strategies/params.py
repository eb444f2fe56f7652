"""Strategy parameters: each has a type, a default and a one-line meaning; configs are checked. They are
declared once, in the core (core/engine/src/players/params.rs), and read from it here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from sim import _core
from strategies.registry import StrategyConfigError

_KIND_NAMES = {bool: "true or false", int: "a whole number", float: "a number", str: "a name"}


@dataclass(frozen=True)
class Param:
    name: str
    default: float | int | bool | str
    doc: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None

    @property
    def kind(self) -> type:
        return type(self.default)

    def check(self, strategy: str, value: Any) -> float | int | bool | str:
        """``value`` converted to this parameter's type, or a StrategyConfigError saying what was expected."""
        kind = self.kind
        ok = (isinstance(value, bool) if kind is bool
              else isinstance(value, str) if kind is str
              else isinstance(value, int) and not isinstance(value, bool) if kind is int
              else isinstance(value, int | float) and not isinstance(value, bool))
        if not ok:
            raise StrategyConfigError(f"strategy {strategy!r}: parameter {self.name!r} must be "
                                      f"{_KIND_NAMES[kind]} ({self.doc}), got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise StrategyConfigError(f"strategy {strategy!r}: parameter {self.name!r} must be one of "
                                      f"{', '.join(sorted(self.choices))} ({self.doc}), got {value!r}")
        low, high = self.minimum, self.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = (f"at least {self.minimum}" if self.maximum is None
                      else f"between {self.minimum} and {self.maximum}")
            raise StrategyConfigError(f"strategy {strategy!r}: parameter {self.name!r} must be {bounds} "
                                      f"({self.doc}), got {value!r}")
        return kind(value)


@cache
def declared() -> dict[str, tuple[Param, ...]]:
    """Every strategy of the core with its parameters, in declaration order (``random`` takes none)."""
    return {strategy: tuple(Param(p["name"], p["default"], p["doc"], p["minimum"], p["maximum"],
                                  None if p["choices"] is None else tuple(p["choices"])) for p in params)
            for strategy, params in _core.strategy_params().items()}


def presets() -> dict[str, dict[str, Any]]:
    """The scripted strategies: each preset's lookahead parameters that differ from the defaults."""
    return _core.presets()


def resolve(strategy: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters of ``strategy`` with the given values checked and filled in; unknown names are an
    error."""
    params = declared()[strategy]
    by_name = {p.name: p for p in params}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise StrategyConfigError(f"strategy {strategy!r} has no parameter {', '.join(map(repr, unknown))}; "
                                  f"its parameters: {known}")
    return {p.name: p.check(strategy, given[p.name]) if p.name in given else p.default for p in params}


def parse_value(text: str) -> bool | int | float | str:
    """A parameter value written on the command line: true/false, an integer, a number, else the text."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(low)
        except ValueError:
            pass
    return text.strip()
