"""The search space of ``tashkalar tune-player``: ranges for some of a tunable player's declared parameters,
from a TOML file (a table per parameter: ``[patterns] low = 0.5, high = 3.0``, optionally ``log = true``) or,
by default, every weight of the declaration around its default."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.errors import UserError
from strategies.params import Param

NOT_SEARCHED_BY_DEFAULT = ("score", "frozen", "pending", "gateway", "stasis", "removed", "free_action",
                           "lost_action", "pass_margin")
"""``score`` is the unit the other weights are counted in (scaling all of them changes no choice); the
expansion weights matter only with expansion decks and ``pass_margin`` only in team games, which the default
games do not deal."""

TUNABLE_BEYOND_PRESETS = ("swift",)
"""Players tunable besides the lookahead presets: ``swift`` takes the lookahead's evaluation weights too."""


@dataclass(frozen=True)
class Dimension:
    param: Param
    low: float
    high: float
    log: bool = False

    def to_tune(self) -> Any:
        from ray import tune

        if self.param.kind is int:
            return tune.lograndint(int(self.low), int(self.high) + 1) if self.log else (
                tune.randint(int(self.low), int(self.high) + 1))
        return tune.loguniform(self.low, self.high) if self.log else tune.uniform(self.low, self.high)

    def to_dict(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "log": self.log}


def tunable() -> list[str]:
    """The players ``tune-player`` searches: the lookahead presets (``strategies.params.presets``) and
    ``TUNABLE_BEYOND_PRESETS``."""
    from strategies import params

    return [*params.presets(), *TUNABLE_BEYOND_PRESETS]


def declared(player: str) -> tuple[Param, ...]:
    """The parameters of a tunable player."""
    from strategies import params

    if player not in tunable():
        raise UserError(f"--player: expected one of {', '.join(tunable())}, got {player!r}")
    return params.declared()[player]


def default_space(player: str) -> list[Dimension]:
    """Every real-valued weight but those in NOT_SEARCHED_BY_DEFAULT, from 0 (or its minimum) to twice its
    default (2 where the default is 0), within its declared bounds."""
    out = []
    for p in declared(player):
        if p.kind is not float or p.name in NOT_SEARCHED_BY_DEFAULT:
            continue
        low = p.minimum if p.minimum is not None else 0.0
        high = 2 * p.default if p.default > 0 else 2.0
        out.append(Dimension(p, low, min(high, p.maximum) if p.maximum is not None else high))
    return out


def load_space(path: Path, player: str) -> list[Dimension]:
    """The ranges a space file gives; a UserError naming the file, the key and what was expected."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such space file") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise UserError(f"{path}: not a readable TOML file ({e})") from None
    by_name = {p.name: p for p in declared(player)}
    if not data:
        raise UserError(f"{path}: expected at least one [PARAMETER] table with low and high")
    out = []
    for name, spec in data.items():
        param = by_name.get(name)
        if param is None or param.kind not in (int, float):
            numeric = ", ".join(n for n, p in by_name.items() if p.kind in (int, float))
            raise UserError(f"{path}: {name}: not a numeric parameter of {player} (its numeric parameters: "
                            f"{numeric})")
        if not isinstance(spec, dict) or set(spec) - {"low", "high", "log"} or not {"low", "high"} <= set(spec):
            raise UserError(f"{path}: {name}: expected a table like [{name}] low = 0.5, high = 2.0 (log = true "
                            f"optional), got {spec!r}")
        low, high, log = spec["low"], spec["high"], spec.get("log", False)
        numbers = (int,) if param.kind is int else (int, float)
        if not all(isinstance(v, numbers) and not isinstance(v, bool) for v in (low, high)):
            kind = "whole numbers" if param.kind is int else "numbers"
            raise UserError(f"{path}: {name}: low and high must be {kind}, got {low!r} and {high!r}")
        if not isinstance(log, bool):
            raise UserError(f"{path}: {name}.log: expected true or false, got {log!r}")
        if not low < high:
            raise UserError(f"{path}: {name}: expected low < high, got {low} and {high}")
        if (param.minimum is not None and low < param.minimum) or (param.maximum is not None and high > param.maximum):
            raise UserError(f"{path}: {name}: the range must lie within the parameter's bounds "
                            f"({param.minimum} to {param.maximum}), got {low} to {high}")
        if log and low <= 0:
            raise UserError(f"{path}: {name}: a log range needs low > 0, got {low}")
        out.append(Dimension(param, float(low) if param.kind is float else low,
                             float(high) if param.kind is float else high, log))
    return out


def fixed_params(player: str, texts: list[str], space: list[Dimension]) -> dict[str, Any]:
    """``--param NAME=VALUE`` options: the player's parameters held fixed, checked as a study checks them; a
    UserError for a malformed one or one the space also searches."""
    from strategies import params

    fixed = {}
    for text in texts:
        name, eq, value = text.partition("=")
        if not eq or not name.strip():
            raise UserError(f"--param: expected NAME=VALUE like effect_runs=1, got {text!r}")
        fixed[name.strip()] = params.parse_value(value)
    searched = sorted(set(fixed) & {d.param.name for d in space})
    if searched:
        raise UserError(f"--param: {', '.join(searched)} is searched by the space; fix it or search it, not both")
    try:
        resolved = params.resolve(player, fixed)
    except UserError as e:
        raise UserError(f"--param: {e}") from None
    return {name: resolved[name] for name in sorted(fixed)}
