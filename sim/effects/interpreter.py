"""The effect step vocabulary: each card's ``effect`` is a list of steps run in order.

A step is a table ``{ do = "<step>", ... }``. Keys shared by the steps:

- ``where``: the squares considered: ``self`` (the summoned being), ``adjacent``, ``orthogonal``,
  ``diagonal`` (adjacent to the being), ``marked`` (the card's marked squares), ``pattern`` (the pieces
  used to summon it), ``any``, ``within:N`` (distance 1..N from the being), ``red``, ``green``,
  ``near_green`` / ``near_red`` (on or adjacent to a coloured square), ``adjacent_to_green`` (adjacent
  to a green square), ``adjacent_to_mine`` (adjacent to one of your pieces).
- ``owner``: ``mine``, ``enemy`` or ``any`` (default); ``ranks``: a list of rank names (default all);
  ``not_self = true`` leaves out the summoned being.
- How many: ``count = N`` (mandatory, as many as can be done), ``up_to = N`` (optional, 0..N),
  ``all = true`` (every matching square, no choice). Default: exactly 1.
- ``if``: run the step only when a condition holds: ``previous`` / ``not_previous`` (whether the
  previous step did something), ``on_red`` / ``on_green`` (the summoning square), ``last_action`` /
  ``not_last_action``, ``self_alive``.

Steps: ``gain_actions`` (``n``), ``destroy`` (``counts = false``: not counted as destroyed by you),
``upgrade``, ``downgrade``, ``place`` (``rank``, ``color = "mine"|"enemy"``), ``convert`` (``rank =
"same"|"common"``), ``move`` and ``leap`` (``piece = "self"|"choose"``, ``kind = "standard"|"combat"``,
``empty_only``, ``same_piece``; leaps take ``to = "any"|"within:N"|"exactly:N"``), ``one_of``
(``branches``: lists of steps, ``labels``), and ``custom`` (``fn``: a registered Python function for
what the vocabulary cannot say).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim import board
from sim.effects.context import COMBAT, STANDARD, EffectContext
from sim.ranks import COMMON, RANK_NAMES

Step = dict[str, Any]
StepFn = Callable[[EffectContext, Step], bool]

STEPS: dict[str, StepFn] = {}
CUSTOM: dict[str, Callable[[EffectContext, Step], bool]] = {}

_COMMON_KEYS = {"do", "if", "where", "owner", "ranks", "not_self", "count", "up_to", "all", "prompt"}
_STEP_KEYS: dict[str, set[str]] = {
    "gain_actions": {"n"},
    "destroy": {"counts"},
    "upgrade": set(),
    "downgrade": set(),
    "place": {"rank", "color"},
    "convert": {"rank"},
    "move": {"piece", "kind", "empty_only", "same_piece"},
    "leap": {"piece", "kind", "empty_only", "same_piece", "to"},
    "one_of": {"branches", "labels"},
    "custom": {"fn", "args"},
}
_CONDITIONS = ("previous", "not_previous", "on_red", "on_green", "last_action", "not_last_action", "self_alive")
_WHERE = ("self", "adjacent", "orthogonal", "diagonal", "marked", "pattern", "any", "red", "green",
          "near_green", "near_red", "adjacent_to_green", "adjacent_to_mine")


def step(name: str) -> Callable[[StepFn], StepFn]:
    def register(fn: StepFn) -> StepFn:
        STEPS[name] = fn
        return fn

    return register


def custom(name: str) -> Callable[[StepFn], StepFn]:
    """Register a Python effect function for ``{ do = "custom", fn = name }``."""

    def register(fn: StepFn) -> StepFn:
        CUSTOM[name] = fn
        return fn

    return register


# ----- validation (at card-set load)
def validate_steps(steps: list[Step]) -> None:
    from sim.effects import library  # noqa: F401  registers the custom functions

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
        if w is not None and w not in _WHERE and not _parse_distance(w, ("within",)):
            raise ValueError(f"{where}: unknown 'where' {w!r}; expected one of {', '.join(_WHERE)} or within:N")
        for key in ("ranks",):
            for r in st.get(key, []):
                if r not in RANK_NAMES:
                    raise ValueError(f"{where}: unknown rank {r!r}")
        if do == "custom" and st.get("fn") not in CUSTOM:
            raise ValueError(f"{where}: no registered effect function {st.get('fn')!r}")
        if do in ("move", "leap") and st.get("kind", STANDARD) not in (STANDARD, COMBAT):
            raise ValueError(f"{where}: 'kind' must be 'standard' or 'combat'")
        if do == "one_of":
            branches = st.get("branches")
            if not isinstance(branches, list) or len(branches) < 2:
                raise ValueError(f"{where}: 'branches' must list at least two lists of steps")
            for b in branches:
                validate_steps(b)


def _parse_distance(text: Any, prefixes: tuple[str, ...]) -> tuple[str, int] | None:
    if not isinstance(text, str) or ":" not in text:
        return None
    head, _, n = text.partition(":")
    if head in prefixes and n.isdigit():
        return head, int(n)
    return None


# ----- running
def run_steps(ctx: EffectContext, steps: tuple[Step, ...] | list[Step]) -> bool:
    """Run steps in order; returns whether the last step did something."""
    for st in steps:
        cond = st.get("if")
        if cond is not None and not _holds(ctx, cond):
            ctx.did = False
            continue
        ctx.did = STEPS[st["do"]](ctx, st)
    return ctx.did


def _holds(ctx: EffectContext, cond: str) -> bool:
    if cond == "previous":
        return ctx.did
    if cond == "not_previous":
        return not ctx.did
    if cond == "self_alive":
        return ctx.self_sq is not None
    if cond in ("on_red", "on_green"):
        colour = board.RED if cond == "on_red" else board.GREEN
        return ctx.origin is not None and bool(colour >> ctx.origin & 1)
    if cond == "last_action":
        return ctx.is_last_action()
    return not ctx.is_last_action()


def squares(ctx: EffectContext, st: Step) -> int:
    """The squares a step's ``where``/``owner``/``ranks``/``not_self`` select (occupied or not)."""
    w = st.get("where", "any")
    centre = ctx.self_sq if ctx.self_sq is not None else ctx.origin
    if w == "self":
        m = 1 << ctx.self_sq if ctx.self_sq is not None else 0
    elif w == "any":
        m = board.ARENA
    elif w == "marked":
        m = ctx.marked_squares()
    elif w == "pattern":
        m = board.mask_of(ctx.pattern_sqs)
    elif w == "red":
        m = board.RED
    elif w == "green":
        m = board.GREEN
    elif w in ("near_green", "near_red", "adjacent_to_green"):
        colour = board.RED if w == "near_red" else board.GREEN
        m = 0 if w == "adjacent_to_green" else colour
        for sq in board.bits(colour):
            m |= board.ADJACENT[sq]
    elif w == "adjacent_to_mine":
        m = 0
        for sq in board.bits(ctx.state.mine(ctx.player)):
            m |= board.ADJACENT[sq]
    elif centre is None:
        m = 0
    elif w == "adjacent":
        m = board.ADJACENT[centre]
    elif w == "orthogonal":
        m = board.ORTHOGONAL[centre]
    elif w == "diagonal":
        m = board.DIAGONAL[centre]
    else:
        m = board.WITHIN[_parse_distance(w, ("within",))[1]][centre]  # type: ignore[index]
    owner = st.get("owner", "any")
    ranks = st.get("ranks")
    if ranks is not None:
        m &= ctx.rank_mask([RANK_NAMES.index(r) for r in ranks], owner)
    elif owner != "any":
        m &= ctx.owner_mask(owner)
    if st.get("not_self") and ctx.self_sq is not None:
        m &= ~(1 << ctx.self_sq)
    return m


def _how_many(st: Step) -> tuple[int, bool]:
    """(maximum number, whether stopping early is allowed)."""
    if "up_to" in st:
        return int(st["up_to"]), True
    return int(st.get("count", 1)), False


def _repeat(ctx: EffectContext, st: Step, kind: str, candidates: Callable[[], int],
            act: Callable[[int], bool]) -> bool:
    """Choose and act on squares one at a time, as many as the step says."""
    if st.get("all"):
        done = False
        for sq in board.bits(candidates()):
            done |= act(sq)
        return done
    n, optional = _how_many(st)
    done = False
    for _ in range(n):
        options = list(board.bits(candidates()))
        sq = ctx.choose(kind, options, optional, st.get("prompt", ""))
        if sq is None:
            break
        done |= act(sq)
    return done


@step("gain_actions")
def _gain_actions(ctx: EffectContext, st: Step) -> bool:
    ctx.gain_actions(int(st.get("n", 1)))
    return True


@step("destroy")
def _destroy(ctx: EffectContext, st: Step) -> bool:
    counts = bool(st.get("counts", True))
    return _repeat(ctx, st, "destroy", lambda: squares(ctx, st) & ctx.state.occupied(),
                   lambda sq: ctx.destroy(sq, counts) is not None)


def _can_upgrade(ctx: EffectContext, sq: int) -> bool:
    piece = ctx.piece_at(sq)
    return piece is not None and (piece[1] == 0 or (piece[1] == 1 and ctx.state.can_have_piece(piece[0], 2)))


def _can_downgrade(ctx: EffectContext, sq: int) -> bool:
    piece = ctx.piece_at(sq)
    return piece is not None and (piece[1] == 1 or (piece[1] == 2 and ctx.state.tokens[piece[0]] > 0))


@step("upgrade")
def _upgrade(ctx: EffectContext, st: Step) -> bool:
    def candidates() -> int:
        return board.mask_of(sq for sq in board.bits(squares(ctx, st) & ctx.state.occupied())
                             if _can_upgrade(ctx, sq))

    return _repeat(ctx, st, "upgrade", candidates, ctx.upgrade)


@step("downgrade")
def _downgrade(ctx: EffectContext, st: Step) -> bool:
    def candidates() -> int:
        return board.mask_of(sq for sq in board.bits(squares(ctx, st) & ctx.state.occupied())
                             if _can_downgrade(ctx, sq))

    return _repeat(ctx, st, "downgrade", candidates, ctx.downgrade)


@step("place")
def _place(ctx: EffectContext, st: Step) -> bool:
    rank = RANK_NAMES.index(st.get("rank", "common"))
    player = ctx.enemy if st.get("color") == "enemy" else ctx.player

    def candidates() -> int:
        if not ctx.state.can_have_piece(player, rank):
            return 0
        return squares(ctx, st) & ctx.state.empty()

    return _repeat(ctx, st, "place", candidates, lambda sq: ctx.place(sq, rank, player))


@step("convert")
def _convert(ctx: EffectContext, st: Step) -> bool:
    to_common = st.get("rank", "same") == "common"
    sel = {**st, "owner": "enemy"}

    def candidates() -> int:
        s = ctx.state
        m = squares(ctx, sel) & s.mine(ctx.enemy)
        if to_common:
            return m if s.can_have_piece(ctx.player, COMMON) else 0
        return board.mask_of(sq for sq in board.bits(m) if s.can_have_piece(ctx.player, ctx.piece_at(sq)[1]))

    return _repeat(ctx, st, "convert", candidates, lambda sq: ctx.convert(sq, COMMON if to_common else None))


def _movers(ctx: EffectContext, st: Step) -> list[int]:
    if st.get("piece", "self") == "self":
        return [ctx.self_sq] if ctx.self_sq is not None else []
    return list(board.bits(squares(ctx, {**st, "where": st.get("where", "any")}) & ctx.state.occupied()))


def _destinations(ctx: EffectContext, st: Step, src: int, leap: bool) -> list[int]:
    kind = st.get("kind", STANDARD)
    empty_only = bool(st.get("empty_only"))
    if not leap:
        return ctx.move_targets(src, kind, None, empty_only)
    to = st.get("to", "any")
    parsed = _parse_distance(to, ("within", "exactly"))
    if parsed is None:
        reach = board.ARENA
    elif parsed[0] == "within":
        reach = board.WITHIN[parsed[1]][src]
    else:
        reach = board.WITHIN[parsed[1]][src] & ~board.WITHIN[parsed[1] - 1][src]
    return ctx.move_targets(src, kind, reach, empty_only)


def _moves(ctx: EffectContext, st: Step, leap: bool) -> bool:
    n, optional = _how_many(st)
    same_piece = bool(st.get("same_piece")) or st.get("piece", "self") == "self"
    fixed: int | None = None
    done = False
    for _ in range(n):
        srcs = [fixed] if fixed is not None else _movers(ctx, st)
        options = [(src, dst) for src in srcs if src is not None for dst in _destinations(ctx, st, src, leap)]
        choice = ctx.choose("leap" if leap else "move", options, optional, st.get("prompt", ""))
        if choice is None:
            break
        src, dst = choice
        ctx.move(src, dst)
        done = True
        if same_piece:
            fixed = dst if st.get("piece", "self") != "self" else ctx.self_sq
            if fixed is None:
                break
    return done


@step("move")
def _move(ctx: EffectContext, st: Step) -> bool:
    return _moves(ctx, st, leap=False)


@step("leap")
def _leap(ctx: EffectContext, st: Step) -> bool:
    return _moves(ctx, st, leap=True)


@step("one_of")
def _one_of(ctx: EffectContext, st: Step) -> bool:
    branches = st["branches"]
    labels = st.get("labels") or [f"option {i + 1}" for i in range(len(branches))]
    label = ctx.choose("branch", list(labels), False, st.get("prompt", ""))
    return run_steps(ctx, branches[labels.index(label)])


@step("custom")
def _custom(ctx: EffectContext, st: Step) -> bool:
    return bool(CUSTOM[st["fn"]](ctx, st))
