"""The effect step vocabulary: each card's ``effect`` is a list of steps run in order (by the core,
core/engine/src/effects/interpreter.rs); here they are checked when a card file is loaded.

The names below are the core's (``sim._core.step_vocabulary()``). A step is a table
``{ do = "<step>", ... }``. Keys shared by the steps:

- ``where``: the squares considered: ``self`` (the summoned being), ``adjacent``, ``orthogonal``,
  ``diagonal`` (adjacent to the being), ``marked`` (the card's marked squares), ``pattern`` (the pieces
  used to summon it), ``any``, ``within:N`` (distance 1..N from the being), ``red``, ``green``,
  ``near_green`` / ``near_red`` (on or adjacent to a coloured square), ``adjacent_to_green`` (adjacent
  to a green square), ``adjacent_to_mine`` / ``adjacent_to_enemy`` (adjacent to one of your / an enemy
  piece), ``marked_other`` (the card's second kind of marked square, ``+`` in the grid), ``adjacent_to_gateway``
  (the 8 squares around your Gateway, Nethervoid; none without one).
- ``owner``: ``mine``, ``enemy`` or ``any`` (default); ``ranks``: a list of rank names (default all);
  ``not_self = true`` leaves out the summoned being.
- How many: ``count = N`` (mandatory, as many as can be done), ``up_to = N`` (optional, 0..N),
  ``all = true`` (every matching square, no choice). Default: exactly 1.
- ``if``: run the step only when a condition holds: ``previous`` / ``not_previous`` (whether the
  previous step did something), ``on_red`` / ``on_green`` (the summoning square), ``last_action`` /
  ``not_last_action``, ``self_alive``, ``self_gateway`` / ``not_self_gateway`` (whether the being is your
  Gateway, Nethervoid).
- ``prompt``: the text of the decision the step asks.

Steps: ``gain_actions`` (``n``), ``destroy`` (``counts = false``: not counted as destroyed by you),
``upgrade``, ``downgrade``, ``place`` (``rank``, ``color = "mine"|"enemy"``), ``convert`` (``rank =
"same"|"common"``), ``move`` and ``leap`` (``piece = "self"|"choose"``, ``kind = "standard"|"combat"``,
``empty_only``, ``same_piece``; leaps take ``to = "any"|"within:N"|"exactly:N"``), ``one_of``
(``branches``: lists of steps, ``labels``), and ``custom`` (``fn``: a function registered in the core,
core/engine/src/effects/mod.rs, for what the vocabulary cannot say; ``args``: what it is given).
"""

from __future__ import annotations

from typing import Any

from sim import _core
from sim.ranks import RANK_NAMES

Step = dict[str, Any]

# The vocabulary is declared once, in the core (core/engine/src/effects/steps.rs), and read from it here.
_VOCABULARY = _core.step_vocabulary()
_COMMON_KEYS: set[str] = set(_VOCABULARY["common_keys"])
_STEP_KEYS: dict[str, set[str]] = {step: set(keys) for step, keys in _VOCABULARY["steps"].items()}
_CONDITIONS: tuple[str, ...] = tuple(_VOCABULARY["conditions"])
_WHERE: tuple[str, ...] = tuple(_VOCABULARY["where"])


def validate_steps(steps: list[Step]) -> None:
    from sim.core import CUSTOM_EFFECTS

    for i, st in enumerate(steps):
        where = f"step {i + 1}"
        do = st.get("do")
        if do not in _STEP_KEYS:
            raise ValueError(f"{where}: unknown step {do!r}; expected one of {', '.join(sorted(_STEP_KEYS))}")
        unknown = set(st) - _COMMON_KEYS - _STEP_KEYS[do]
        if unknown:
            raise ValueError(f"{where} ({do}): unknown key(s) {', '.join(sorted(unknown))}")
        cond = st.get("if")
        if cond is not None and cond not in _CONDITIONS:
            raise ValueError(f"{where}: unknown condition {cond!r}; expected one of {', '.join(_CONDITIONS)}")
        w = st.get("where")
        if w is not None and w not in _WHERE and not parse_distance(w, ("within",)):
            raise ValueError(f"{where}: unknown 'where' {w!r}; expected one of {', '.join(_WHERE)} or within:N")
        for key in ("ranks",):
            for r in st.get(key, []):
                if r not in RANK_NAMES:
                    raise ValueError(f"{where}: unknown rank {r!r}")
        if do == "custom" and st.get("fn") not in CUSTOM_EFFECTS:
            raise ValueError(f"{where}: no registered effect function {st.get('fn')!r}")
        if do in ("move", "leap") and st.get("kind", "standard") not in ("standard", "combat"):
            raise ValueError(f"{where}: 'kind' must be 'standard' or 'combat'")
        if do == "one_of":
            branches = st.get("branches")
            if not isinstance(branches, list) or len(branches) < 2:
                raise ValueError(f"{where}: 'branches' must list at least two lists of steps")
            for b in branches:
                validate_steps(b)


def parse_distance(text: Any, prefixes: tuple[str, ...]) -> tuple[str, int] | None:
    if not isinstance(text, str) or ":" not in text:
        return None
    head, _, n = text.partition(":")
    if head in prefixes and n.isdigit():
        return head, int(n)
    return None
