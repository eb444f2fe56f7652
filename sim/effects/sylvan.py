"""Effect functions of the sylvan cards that the step vocabulary cannot express."""

from __future__ import annotations

from sim import board
from sim.effects.context import COMBAT, STANDARD, EffectContext
from sim.effects.interpreter import Step, custom
from sim.ranks import COMMON, HEROIC, LEGENDARY
from sim.record import ToDeck


def _move_self(ctx: EffectContext, kind: str, prompt: str) -> tuple[int, int] | None:
    """Offer the summoned being's moves of ``kind`` (optional); the (from, to) pair done, or None."""
    if ctx.self_sq is None:
        return None
    src = ctx.self_sq
    choice = ctx.choose("move", [(src, dst) for dst in ctx.move_targets(src, kind)], True, prompt)
    if choice is not None:
        ctx.move(*choice)
    return choice


@custom("sylvan.forest_wardens")
def forest_wardens(ctx: EffectContext, step: Step) -> bool:
    """Destroy an enemy common if the enemy has more commons; then an enemy heroic if more upgraded pieces."""
    s = ctx.state
    me, them = s.pieces[ctx.player], s.pieces[ctx.enemy]
    done = False
    if them[COMMON].bit_count() > me[COMMON].bit_count():
        sq = ctx.choose("destroy", list(board.bits(them[COMMON])), False, "enemy common piece to destroy")
        done = ctx.destroy(sq) is not None
    if s.upgraded(ctx.enemy).bit_count() > s.upgraded(ctx.player).bit_count():
        sq = ctx.choose("destroy", list(board.bits(them[HEROIC])), False, "enemy heroic piece to destroy")
        if sq is not None:
            done |= ctx.destroy(sq) is not None
    return done


@custom("sylvan.naiad")
def naiad(ctx: EffectContext, step: Step) -> bool:
    """Up to two different pieces of yours next to the Naiad each do one standard move."""
    assert ctx.origin is not None
    around = board.ADJACENT[ctx.origin]
    moved = 0  # the square of the piece that already moved

    def options() -> list[tuple[int, int]]:
        sources = around & ctx.state.mine(ctx.player) & ~moved
        return [(src, dst) for src in board.bits(sources) for dst in ctx.move_targets(src, STANDARD)]

    done = False
    for _, dst, _ in ctx.optional_moves(2, options, "standard move with one of your pieces next to the Naiad"):
        moved = 1 << dst
        done = True
    return done


@custom("sylvan.kiskin_spirit")
def kiskin_spirit(ctx: EffectContext, step: Step) -> bool:
    """Put a card of your discard pile on top of your deck (optional); if you do, or the pile is empty,
    draw one extra card at the end of the turn."""
    s = ctx.state
    pile = s.discarded[ctx.player]
    if pile:
        card = ctx.choose("card", list(pile), True, "card of your discard pile to put on top of your deck")
        if card is None:
            return False
        pile.remove(card)
        s.deck[ctx.player].append(card)
        s.record.add(ToDeck(s.turn, ctx.player, card.id))
    s.counters.extra_draws += 1
    return True


@custom("sylvan.centaur_spearman")
def centaur_spearman(ctx: EffectContext, step: Step) -> bool:
    """An optional combat move; then the next piece that way (the first met past any empty squares) is
    destroyed unless it is legendary."""
    choice = _move_self(ctx, COMBAT, "combat move of the Centaur Spearman")
    if choice is None:
        return False
    src, dst = choice
    occupied = ctx.state.occupied()
    for sq in board.RAYS[dst][board.direction_between(src, dst)]:  # type: ignore[index]
        if occupied >> sq & 1:
            if ctx.piece_at(sq)[1] != LEGENDARY:  # type: ignore[index]
                ctx.destroy(sq)
            break
    return True


@custom("sylvan.centaur_chieftain")
def centaur_chieftain(ctx: EffectContext, step: Step) -> bool:
    """An optional combat move; then up to three combat moves in that direction by your other pieces."""
    choice = _move_self(ctx, COMBAT, "combat move of the Centaur Chieftain")
    if choice is None:
        return False
    direction = board.direction_between(*choice)
    assert direction is not None
    for _ in range(3):
        others = ctx.state.mine(ctx.player)
        if ctx.self_sq is not None:
            others &= ~(1 << ctx.self_sq)
        options = []
        for src in board.bits(others):
            dst = ctx.ray_targets(src, direction, COMBAT)
            if dst is not None:
                options.append((src, dst))
        follow = ctx.choose("move", options, True, f"combat move {board.DIRECTION_NAMES[direction]} "
                            "with another piece of yours")
        if follow is None:
            break
        ctx.move(*follow)
    return True


@custom("sylvan.forest_mystic")
def forest_mystic(ctx: EffectContext, step: Step) -> bool:
    """One extra card from your deck and one from the legend deck at the end of the turn."""
    ctx.state.counters.extra_draws += 1
    ctx.state.counters.extra_legend_draws += 1
    return True


def _first_piece(ctx: EffectContext, sq: int, direction: int) -> int | None:
    occupied = ctx.state.occupied()
    return next((s for s in board.RAYS[sq][direction] if occupied >> s & 1), None)


@custom("sylvan.kiskin_leafsplitter")
def kiskin_leafsplitter(ctx: EffectContext, step: Step) -> bool:
    """Up to twice: pick a diagonal direction and destroy the first piece that way (any owner or rank)."""
    done = False
    for _ in range(2):
        if ctx.self_sq is None:
            break
        here = ctx.self_sq
        options = [d for d in board.DIAGONAL_DIRECTIONS if _first_piece(ctx, here, d) is not None]
        direction = ctx.choose("direction", options, True, "diagonal direction to shoot")
        if direction is None:
            break
        ctx.destroy(_first_piece(ctx, here, direction))  # type: ignore[arg-type]
        done = True
    return done


@custom("sylvan.kiskin_boughrunner")
def kiskin_boughrunner(ctx: EffectContext, step: Step) -> bool:
    """Up to three combat moves of the Boughrunner, each ending next to another piece of yours."""

    def options() -> list[tuple[int, int]]:
        src = ctx.self_sq
        if src is None:
            return []
        others = ctx.state.mine(ctx.player) & ~(1 << src)
        return [(src, dst) for dst in ctx.move_targets(src, COMBAT) if board.ADJACENT[dst] & others & ~(1 << dst)]

    moves = ctx.optional_moves(3, options, "combat move ending next to one of your pieces")
    return sum(1 for _ in moves) > 0


@custom("sylvan.tree_shepherd")
def tree_shepherd(ctx: EffectContext, step: Step) -> bool:
    """Pick a piece of yours: a common is upgraded; a heroic may do a combat move, a legend a standard one.

    Every piece of yours may be picked, even one that could then do nothing."""
    mine = list(board.bits(ctx.state.mine(ctx.player)))
    sq = ctx.choose("piece", mine, False, "your piece for the Tree Shepherd")
    if sq is None:
        return False
    rank = ctx.piece_at(sq)[1]  # type: ignore[index]
    if rank == COMMON:
        return ctx.upgrade(sq)
    kind = COMBAT if rank == HEROIC else STANDARD
    options = [(sq, dst) for dst in ctx.move_targets(sq, kind)]
    choice = ctx.choose("move", options, True, f"{kind} move of that piece")
    if choice is None:
        return False
    ctx.move(*choice)
    return True
