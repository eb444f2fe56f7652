"""Tuned presets: a lookahead player's parameters found by ``tashkalar tune-player``, stored as
``strategies/presets/NAME.toml`` (or in ``$TASHKALAR_PRESETS``) and named like a strategy (``NAME``) in
studies and the ladder. The file also keeps how the parameters were found and measured; only ``player``
and ``[params]`` change how it plays. The shipped presets are always read, before ``$TASHKALAR_PRESETS``:
the default player is one of them, and a folder of one's own can neither hide nor replace it."""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from strategies.registry import StrategyConfigError

NAME = re.compile(r"[a-z][a-z0-9_]*")
"""A preset's name: usable as a ladder label and a study's strategy name as it is."""


SHIPPED = Path(__file__).with_name("presets")
"""The presets shipped with the code (the default player's among them)."""


def presets_dir() -> Path:
    """Where presets are written (and read after the shipped ones): ``$TASHKALAR_PRESETS``, else the
    shipped folder."""
    return Path(os.environ.get("TASHKALAR_PRESETS") or SHIPPED)


def _folders() -> list[Path]:
    """Where presets are read, in order: the shipped folder, then ``$TASHKALAR_PRESETS`` if it differs."""
    return list(dict.fromkeys([SHIPPED.resolve(), presets_dir().resolve()]))


@dataclass(frozen=True)
class Preset:
    name: str
    player: str
    params: dict[str, Any]


def preset_names() -> list[str]:
    return sorted({p.stem for folder in _folders() if folder.is_dir() for p in folder.glob("*.toml")})


def is_shipped(name: str) -> bool:
    return (SHIPPED / f"{name}.toml").is_file()


def load_preset(name: str) -> Preset | None:
    """The preset ``name``, None where there is none; a StrategyConfigError naming the file if it is broken."""
    if not NAME.fullmatch(name):
        return None
    path = next((p for p in (folder / f"{name}.toml" for folder in _folders()) if p.is_file()), None)
    if path is None:
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise StrategyConfigError(f"{path}: not a readable preset ({e})") from None
    player, params = data.get("player"), data.get("params")
    if not isinstance(player, str) or not isinstance(params, dict):
        raise StrategyConfigError(f"{path}: expected player = \"STRATEGY\" and a [params] table")
    return Preset(name, player, params)


def played_as(name: str) -> tuple[str, dict[str, Any]]:
    """The strategy and the parameters that ``name`` plays with: a preset's player and params, or the
    strategy itself with none (what the core is given when it plays the games itself)."""
    preset = load_preset(name)
    return (preset.player, dict(preset.params)) if preset is not None else (name, {})
