"""Effect functions of the highland cards that the step vocabulary cannot express."""

from __future__ import annotations

from sim import board
from sim.effects.context import COMBAT, STANDARD, EffectContext
from sim.effects.interpreter import STEPS, Step, custom
from sim.ranks import COMMON, HEROIC, LEGENDARY

# The central red square (e5): the Werewolf's strong effect needs a coloured square other than it.
_CENTRE = board.square(5, 5)
_OUTER_COLOURED = (board.RED | board.GREEN) & ~(1 << _CENTRE)


@custom("highland.blood_shaman")
def blood_shaman(ctx: EffectContext, step: Step) -> bool:
    """Destroy one non-legendary piece; if it stood on red, destroy every common piece around that square."""
    targets = ctx.rank_mask((COMMON, HEROIC))
    sq = ctx.choose("destroy", list(board.bits(targets)), False, "non-legendary piece to destroy")
    if sq is None:
        return False
    ctx.destroy(sq)
    if board.RED >> sq & 1:
        for near in board.bits(board.ADJACENT[sq] & ctx.rank_mask((COMMON,))):
            ctx.destroy(near)
    return True


@custom("highland.warlord")
def warlord(ctx: EffectContext, step: Step) -> bool:
    """Up to 3 combat moves with your pieces; a third one must be the Warlord's unless it already moved."""
    made, warlord_moved = 0, False

    def options() -> list[tuple[int, int]]:
        if made == 2 and not warlord_moved:
            sources = [ctx.self_sq] if ctx.self_sq is not None else []
        else:
            sources = list(board.bits(ctx.state.mine(ctx.player)))
        return [(src, dst) for src in sources for dst in ctx.move_targets(src, COMBAT)]

    for _, dst, _ in ctx.optional_moves(3, options, "combat move with one of your pieces"):
        made += 1
        warlord_moved |= dst == ctx.self_sq
    return made > 0


@custom("highland.war_summoner")
def war_summoner(ctx: EffectContext, step: Step) -> bool:
    """The next summon this turn may use one enemy piece in its pattern (the game applies it)."""
    ctx.state.counters.borrow_enemy_piece = True
    return True


@custom("highland.legend_slayer")
def legend_slayer(ctx: EffectContext, step: Step) -> bool:
    """Destroy a diagonal legendary piece or up to two diagonal non-legendary ones; the first pick decides."""
    if ctx.self_sq is None:
        return False
    diagonal = board.DIAGONAL[ctx.self_sq]
    first = ctx.choose("destroy", list(board.bits(diagonal & ctx.state.occupied())), True,
                       "diagonal piece to destroy (a legendary one ends the effect)")
    if first is None:
        return False
    _, rank = ctx.destroy(first)  # type: ignore[misc]
    if rank == LEGENDARY:
        return True
    second = ctx.choose("destroy", list(board.bits(diagonal & ctx.rank_mask((COMMON, HEROIC)))), True,
                        "second diagonal non-legendary piece to destroy")
    if second is not None:
        ctx.destroy(second)
    return True


@custom("highland.mountain_troll")
def mountain_troll(ctx: EffectContext, step: Step) -> bool:
    """Destroy every adjacent enemy common piece; two or more destroyed gain an action."""
    if ctx.self_sq is None:
        return False
    victims = list(board.bits(board.ADJACENT[ctx.self_sq] & ctx.rank_mask((COMMON,), "enemy")))
    for sq in victims:
        ctx.destroy(sq)
    if len(victims) >= 2:
        ctx.gain_actions(1)
    return bool(victims)


@custom("highland.hungry_bear")
def hungry_bear(ctx: EffectContext, step: Step) -> bool:
    """Up to 2 standard moves; a move onto an empty square is the last one."""

    def options() -> list[tuple[int, int]]:
        src = ctx.self_sq
        return [] if src is None else [(src, dst) for dst in ctx.move_targets(src, STANDARD)]

    done = False
    for _, _, destroyed in ctx.optional_moves(2, options, "standard move of the Hungry Bear"):
        done = True
        if destroyed is None:
            break
    return done


@custom("highland.werewolf")
def werewolf(ctx: EffectContext, step: Step) -> bool:
    """Up to 3 combat moves if summoned on a red or green square off the centre, else 1 standard move."""
    strong = ctx.origin is not None and bool(_OUTER_COLOURED >> ctx.origin & 1)
    move: Step = {"do": "move", "piece": "self", "kind": COMBAT if strong else STANDARD,
                  "up_to": 3 if strong else 1}
    return STEPS["move"](ctx, move)
