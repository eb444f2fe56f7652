"""The named scripted strategies: presets of the lookahead engine's weights (``strategies.lookahead``).

- ``greedy``: scores each option by the position it leads to (points, material by rank, legends,
  threats, High Form task progress) and takes the best; it does not plan patterns.
- ``builder``: greedy plus the readiness of its hand: it places pieces to complete or approach the
  patterns of its cards and summons when the result is worth more than the card kept in hand.
- ``hunter`` (High Form): a builder that pursues what makes High Form points: legends (its legend cards
  and legendary pieces weigh more) and the upgraded pieces most tasks and legend patterns want.
- ``brawler`` (Deathmatch): a builder that values every enemy piece destroyed and keeps its flare until
  it pays for the point it gives away.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from strategies.lookahead import PARAMS, Lookahead
from strategies.params import Param, resolve
from strategies.registry import register


def _preset(**defaults: float | int) -> tuple[Param, ...]:
    unknown = set(defaults) - {p.name for p in PARAMS}
    assert not unknown, unknown
    return tuple(dataclasses.replace(p, default=type(p.default)(defaults[p.name]))
                 if p.name in defaults else p for p in PARAMS)


PRESETS: dict[str, tuple[Param, ...]] = {
    "greedy": _preset(),
    "builder": _preset(patterns=1.5),
    "hunter": _preset(patterns=1.5, heroic=3.5, legendary=5.0, legend_cards=2.0),
    "brawler": _preset(patterns=1.5, destruction=1.0, threat=0.6, flare_margin=2.0),
}


def _factory(name: str):
    def make(seat: int, seed: int, params: dict[str, Any]) -> Lookahead:
        return Lookahead(name, seed, resolve(name, PRESETS[name], params))

    return make


for _name in PRESETS:
    register(_name)(_factory(_name))
