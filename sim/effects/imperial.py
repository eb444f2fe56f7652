"""Effect functions of the imperial cards that the step vocabulary cannot express."""

from __future__ import annotations

from collections.abc import Callable

from sim import board
from sim.board import RAYS
from sim.effects.context import COMBAT, STANDARD, EffectContext
from sim.effects.interpreter import Step, custom
from sim.ranks import COMMON, HEROIC, LEGENDARY


def _path(ctx: EffectContext, src: int, direction: int, kind: str) -> list[int]:
    """The squares the piece on ``src`` reaches by successive moves in ``direction``, nearest first."""
    out = []
    for sq in RAYS[src][direction]:
        if not ctx.can_enter(src, sq, kind):
            break
        out.append(sq)
    return out


def _indicated_directions(ctx: EffectContext) -> list[int]:
    """The card's arrows: the directions from the summoning square to each marked square on the arena."""
    assert ctx.origin is not None
    return [board.direction_between(ctx.origin, m) for m in ctx.placement.marked_squares  # type: ignore[misc]
            if m is not None]


@custom("imperial.messenger")
def messenger(ctx: EffectContext, step: Step) -> bool:
    """One of your non-legendary pieces goes any number of standard moves in one direction.

    One decision picks the piece, the direction and how far (the last square reached)."""
    options = []
    paths: dict[tuple[int, int], list[int]] = {}
    for src in board.bits(ctx.state.of_ranks(ctx.player, (COMMON, HEROIC))):
        for d in range(8):
            path = _path(ctx, src, d, STANDARD)
            for i, dst in enumerate(path):
                options.append((src, dst))
                paths[src, dst] = path[:i + 1]
    choice = ctx.choose("move", options, True, "piece, direction and last square of its standard moves")
    if choice is None:
        return False
    cur = choice[0]
    for sq in paths[choice]:
        ctx.move(cur, sq)
        cur = sq
    return True


@custom("imperial.chronicler")
def chronicler(ctx: EffectContext, step: Step) -> bool:
    """Upgrade one of your other common pieces; that piece may then make a standard move."""
    assert ctx.origin is not None
    targets = ctx.state.pieces[ctx.player][COMMON] & ~(1 << ctx.origin)
    sq = ctx.choose("upgrade", list(board.bits(targets)), False, "your common piece to upgrade")
    if sq is None:
        return False
    ctx.upgrade(sq)
    moves = [(sq, dst) for dst in ctx.move_targets(sq, STANDARD)]
    choice = ctx.choose("move", moves, True, "standard move with the upgraded piece")
    if choice is not None:
        ctx.move(*choice)
    return True


@custom("imperial.step_onto_marked")
def step_onto_marked(ctx: EffectContext, step: Step) -> bool:
    """The being may move onto its (single, adjacent) marked square when that square is empty."""
    targets = ctx.marked_squares() & ctx.state.empty()
    if ctx.self_sq is None or not targets:
        return False
    options = [(ctx.self_sq, dst) for dst in board.bits(targets)]
    choice = ctx.choose("move", options, True, "move onto the marked square")
    if choice is None:
        return False
    ctx.move(*choice)
    return True


@custom("imperial.hypnotist")
def hypnotist(ctx: EffectContext, step: Step) -> bool:
    """One combat move with each of up to 3 enemy common or up to 2 enemy heroic pieces.

    The first move's piece fixes the rank; each piece moves at most once."""
    enemy = ctx.state.pieces[ctx.enemy]
    unmoved = enemy[COMMON] | enemy[HEROIC]
    rank: int | None = None
    done = 0
    while rank is None or done < (3 if rank == COMMON else 2):
        options = [(src, dst) for src in board.bits(unmoved) for dst in ctx.move_targets(src, COMBAT)]
        choice = ctx.choose("move", options, True, "combat move with an enemy piece")
        if choice is None:
            break
        src, dst = choice
        if rank is None:
            rank = ctx.piece_at(src)[1]  # type: ignore[index]
        ctx.move(src, dst)
        done += 1
        unmoved &= enemy[rank] & ~(1 << src) & ~(1 << dst)
    return done > 0


def _commons_in_line(ctx: EffectContext, direction: int) -> list[int]:
    """Every common piece from the being to the edge of the arena in ``direction``."""
    commons = ctx.rank_mask((COMMON,))
    return [sq for sq in RAYS[ctx.origin][direction] if commons >> sq & 1]  # type: ignore[index]


def _first_two_pieces(ctx: EffectContext, direction: int) -> list[int]:
    """The first two pieces in ``direction``; a legendary piece stops the shot before it."""
    out: list[int] = []
    for sq in RAYS[ctx.origin][direction]:  # type: ignore[index]
        piece = ctx.piece_at(sq)
        if piece is None:
            continue
        if piece[1] == LEGENDARY:
            break
        out.append(sq)
        if len(out) == 2:
            break
    return out


def _fire(ctx: EffectContext, shot: Callable[[EffectContext, int], list[int]]) -> bool:
    """Offer the indicated directions where ``shot`` hits something; destroy its hits in the chosen one."""
    shots = {d: shot(ctx, d) for d in _indicated_directions(ctx)}
    d = ctx.choose("direction", [d for d, hit in shots.items() if hit], True, "direction to shoot")
    if d is None:
        return False
    for sq in shots[d]:
        ctx.destroy(sq)
    return True


@custom("imperial.cannon")
def cannon(ctx: EffectContext, step: Step) -> bool:
    """Destroy every common piece in one of the indicated directions."""
    return _fire(ctx, _commons_in_line)


@custom("imperial.gun_tower")
def gun_tower(ctx: EffectContext, step: Step) -> bool:
    """Destroy the first two pieces in one of the indicated directions; a legendary piece stops the shot."""
    return _fire(ctx, _first_two_pieces)


@custom("imperial.champion")
def champion(ctx: EffectContext, step: Step) -> bool:
    """May destroy an adjacent enemy piece; a legendary one costs the Champion its life for an action."""
    if ctx.self_sq is None:
        return False
    targets = board.ADJACENT[ctx.self_sq] & ctx.state.mine(ctx.enemy)
    sq = ctx.choose("destroy", list(board.bits(targets)), True, "adjacent enemy piece to destroy")
    if sq is None:
        return False
    piece = ctx.destroy(sq)
    if piece is not None and piece[1] == LEGENDARY:
        ctx.destroy(ctx.self_sq)
        ctx.gain_actions(1)
    return True


@custom("imperial.cavalry_captain")
def cavalry_captain(ctx: EffectContext, step: Step) -> bool:
    """One of your other pieces makes up to 1 combat and up to 2 standard moves, in any order.

    The first move picks the piece. A move that a standard move allows uses up a standard move while one is
    left: that keeps every later move open, so the engine need not ask which kind it was."""
    left = {STANDARD: 2, COMBAT: 1}
    sources = [sq for sq in board.bits(ctx.state.mine(ctx.player)) if sq != ctx.self_sq]
    done = False
    while left[STANDARD] or left[COMBAT]:
        kind = COMBAT if left[COMBAT] else STANDARD
        options = [(src, dst) for src in sources for dst in ctx.move_targets(src, kind)]
        choice = ctx.choose("move", options, True, "move with the chosen piece")
        if choice is None:
            break
        src, dst = choice
        left[STANDARD if left[STANDARD] and ctx.can_enter(src, dst, STANDARD) else COMBAT] -= 1
        ctx.move(src, dst)
        sources = [dst]
        done = True
    return done


@custom("imperial.knight")
def knight(ctx: EffectContext, step: Step) -> bool:
    """Up to 3 combat moves with the Knight, never onto a common piece."""

    def options() -> list[tuple[int, int]]:
        src = ctx.self_sq
        if src is None:
            return []
        commons = ctx.rank_mask((COMMON,))
        return [(src, dst) for dst in ctx.move_targets(src, COMBAT) if not commons >> dst & 1]

    return sum(1 for _ in ctx.optional_moves(3, options, "combat move with the Knight")) > 0


@custom("imperial.master_of_intrigue")
def master_of_intrigue(ctx: EffectContext, step: Step) -> bool:
    """Up to 3 moves: standard ones with the being, combat ones with its non-legendary pattern pieces."""
    done = False
    for _ in range(3):
        options = []
        if ctx.self_sq is not None:
            options += [(ctx.self_sq, dst) for dst in ctx.move_targets(ctx.self_sq, STANDARD)]
        for src in ctx.pattern_sqs:
            if ctx.piece_at(src)[1] != LEGENDARY:  # type: ignore[index]
                options += [(src, dst) for dst in ctx.move_targets(src, COMBAT)]
        choice = ctx.choose("move", options, True, "his standard move or a pattern piece's combat move")
        if choice is None:
            break
        ctx.move(*choice)
        done = True
    return done
