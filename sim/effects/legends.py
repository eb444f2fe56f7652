"""Effect functions of the legends cards that the step vocabulary cannot express."""

from __future__ import annotations

from sim import board
from sim.board import DIRECTIONS, RAYS
from sim.effects.context import COMBAT, EffectContext
from sim.effects.interpreter import Step, custom
from sim.patterns import transform
from sim.ranks import COMMON, HEROIC, LEGENDARY, RANK_NAMES

STORM_MOVES = {COMMON: 5, HEROIC: 3, LEGENDARY: 1}  # Storm Elemental: most moves by the placed piece's rank


def _marked_directions(ctx: EffectContext) -> list[int]:
    """The directions the card's marked squares indicate (each marked square is adjacent to the being),
    turned with the pattern."""
    assert ctx.placement is not None
    pattern = ctx.state.cards.by_id[ctx.card_id].pattern
    return [DIRECTIONS.index(transform(dx, dy, ctx.placement.orientation)) for dx, dy in pattern.marked]


def _line_moves(ctx: EffectContext, src: int, most: int | None, stop_on_legendary: bool = False) -> int:
    """Optional combat moves with the piece on ``src`` in one direction, up to ``most`` (None: any number).

    The first decision picks the first move, which fixes the direction; each later move is asked as
    that move or stop. Returns the square where the piece ends."""
    options = [(src, dst) for d in range(8) if (dst := ctx.ray_targets(src, d, COMBAT)) is not None]
    direction = None
    done = 0
    while options and (most is None or done < most):
        choice = ctx.choose("move", options, optional=True)
        if choice is None:
            break
        src, dst = choice
        direction = board.direction_between(src, dst) if direction is None else direction
        destroyed = ctx.move(src, dst)
        src = dst
        done += 1
        if stop_on_legendary and destroyed is not None and destroyed[1] == LEGENDARY:
            break
        nxt = ctx.ray_targets(src, direction, COMBAT)
        options = [(src, nxt)] if nxt is not None else []
    return src


@custom("legends.fire_dragon")
def fire_dragon(ctx: EffectContext, step: Step) -> bool:
    """Choose an indicated direction; destroy the non-legendary pieces at distance 1-2 in it and in the two
    directions at 45 degrees. Every indicated direction is offered, also one with nothing to destroy."""
    origin = ctx.self_sq
    if origin is None:
        return False
    d = ctx.choose("direction", _marked_directions(ctx))
    if d is None:
        return False
    fan = [sq for fd in (d - 1, d, d + 1) for sq in RAYS[origin][fd % 8][:2]]
    for sq in fan:
        if (piece := ctx.piece_at(sq)) is not None and piece[1] != LEGENDARY:
            ctx.destroy(sq)
    return True


@custom("legends.hell_bull")
def hell_bull(ctx: EffectContext, step: Step) -> bool:
    """Any number of combat moves in one direction with the Hell Bull; taking a legendary piece stops it."""
    if ctx.self_sq is None:
        return False
    start = ctx.self_sq
    return _line_moves(ctx, start, None, stop_on_legendary=True) != start


@custom("legends.angel_of_death")
def angel_of_death(ctx: EffectContext, step: Step) -> bool:
    """May pick any other piece: upgrade it (if the stock allows), then combat-leap the Angel onto it."""
    angel = ctx.self_sq
    if angel is None:
        return False
    # The Angel is legendary, so a combat leap may enter any square: every other piece is a target.
    target = ctx.choose("leap", [(angel, sq) for sq in board.bits(ctx.state.occupied() & ~(1 << angel))],
                        optional=True, prompt="piece to upgrade and take")
    if target is None:
        return False
    ctx.upgrade(target[1])
    ctx.move(angel, target[1])
    return True


@custom("legends.eldest_tree")
def eldest_tree(ctx: EffectContext, step: Step) -> bool:
    """On up to 3 different adjacent squares: destroy an enemy non-legendary piece, upgrade your common piece,
    or place your common piece on an empty square."""
    if ctx.self_sq is None:
        return False
    s = ctx.state
    used = 0
    done = False
    for _ in range(3):
        adjacent = board.ADJACENT[ctx.self_sq] & ~used
        enemy, mine = s.pieces[ctx.enemy], s.pieces[ctx.player]
        options = adjacent & (enemy[COMMON] | enemy[HEROIC] | mine[COMMON])
        if s.tokens[ctx.player] > 0:
            options |= adjacent & s.empty()
        sq = ctx.choose("square", list(board.bits(options)), optional=True)
        if sq is None:
            break
        used |= 1 << sq
        piece = ctx.piece_at(sq)
        if piece is None:
            ctx.place(sq)
        elif piece[0] == ctx.player:
            ctx.upgrade(sq)
        else:
            ctx.destroy(sq)
        done = True
    return done


@custom("legends.bone_catapult")
def bone_catapult(ctx: EffectContext, step: Step) -> bool:
    """May pick any piece on a line in an indicated direction (not blocked): destroy it and the commons
    adjacent to it."""
    origin = ctx.self_sq
    if origin is None:
        return False
    occupied = ctx.state.occupied()
    line = board.mask_of(sq for d in _marked_directions(ctx) for sq in RAYS[origin][d])
    target = ctx.choose("destroy", list(board.bits(line & occupied)), optional=True)
    if target is None:
        return False
    ctx.destroy(target)
    commons = ctx.state.pieces[0][COMMON] | ctx.state.pieces[1][COMMON]
    for sq in board.bits(board.ADJACENT[target] & commons):
        ctx.destroy(sq)
    return True


@custom("legends.fire_elemental")
def fire_elemental(ctx: EffectContext, step: Step) -> bool:
    """Destroy every non-legendary enemy piece adjacent, or every common enemy piece within distance 2. Both
    branches are always offered, even one that destroys nothing (the project's ruling for "A or B")."""
    if ctx.self_sq is None:
        return False
    enemy = ctx.state.pieces[ctx.enemy]
    sets = {
        "adjacent": board.ADJACENT[ctx.self_sq] & (enemy[COMMON] | enemy[HEROIC]),
        "commons within 2": board.WITHIN[2][ctx.self_sq] & enemy[COMMON],
    }
    label = ctx.choose("branch", list(sets))
    for sq in board.bits(sets[label]):
        ctx.destroy(sq)
    return bool(sets[label])


def _can_downgrade(ctx: EffectContext, sq: int) -> bool:
    owner, rank = ctx.piece_at(sq)  # type: ignore[misc]
    return rank == HEROIC or (rank == LEGENDARY and ctx.state.tokens[owner] > 0)


@custom("legends.leviathan")
def leviathan(ctx: EffectContext, step: Step) -> bool:
    """Downgrade a connected group of up to 3 upgraded pieces, or destroy one of up to 4 common pieces (any
    colours). The group is chosen piece by piece, each new piece adjacent to one already chosen."""
    s = ctx.state

    def upgraded() -> int:
        m = s.pieces[0][HEROIC] | s.pieces[1][HEROIC] | s.pieces[0][LEGENDARY] | s.pieces[1][LEGENDARY]
        return board.mask_of(sq for sq in board.bits(m) if _can_downgrade(ctx, sq))

    def commons() -> int:
        return s.pieces[0][COMMON] | s.pieces[1][COMMON]

    branches = {"downgrade": (upgraded, 3, ctx.downgrade), "destroy": (commons, 4, ctx.destroy)}
    label = ctx.choose("branch", list(branches))  # both choices, even one that would find no piece
    if label is None:
        return False
    candidates, most, act = branches[label]
    chosen = 0
    for _ in range(most):
        reach = board.ARENA
        if chosen:
            reach = 0
            for sq in board.bits(chosen):
                reach |= board.ADJACENT[sq]
        sq = ctx.choose("square", list(board.bits(candidates() & reach & ~chosen)), optional=True,
                        prompt=f"piece to {label}")
        if sq is None:
            break
        chosen |= 1 << sq
        act(sq)
    return chosen != 0


@custom("legends.two_headed_dragon")
def two_headed_dragon(ctx: EffectContext, step: Step) -> bool:
    """May upgrade one of the pieces used to summon it; then may destroy a heroic piece next to that one."""
    s = ctx.state
    upgradable = [sq for sq in ctx.pattern_sqs if (piece := ctx.piece_at(sq)) is not None
                  and (piece[1] == COMMON or (piece[1] == HEROIC and s.can_have_piece(piece[0], LEGENDARY)))]
    sq = ctx.choose("upgrade", sorted(upgradable), optional=True)
    if sq is None:
        return False
    ctx.upgrade(sq)
    heroic = s.pieces[0][HEROIC] | s.pieces[1][HEROIC]
    target = ctx.choose("destroy", list(board.bits(board.ADJACENT[sq] & heroic)), optional=True)
    if target is not None:
        ctx.destroy(target)
    return True


@custom("legends.earth_elemental_move")
def earth_elemental_move(ctx: EffectContext, step: Step) -> bool:
    """The Earth Elemental may do one combat move onto an adjacent red or green square."""
    if ctx.self_sq is None:
        return False
    coloured = board.ADJACENT[ctx.self_sq] & (board.RED | board.GREEN)
    options = [(ctx.self_sq, dst) for dst in ctx.move_targets(ctx.self_sq, COMBAT, coloured)]
    choice = ctx.choose("move", options, optional=True)
    if choice is None:
        return False
    ctx.move(*choice)
    return True


@custom("legends.time_elemental")
def time_elemental(ctx: EffectContext, step: Step) -> bool:
    """The player takes another turn after this one (the engine plays it even in the final round)."""
    ctx.state.counters.extra_turn = True
    return True


@custom("legends.storm_elemental")
def storm_elemental(ctx: EffectContext, step: Step) -> bool:
    """May place a piece of any rank in stock within distance 3; it does up to 5/3/1 combat moves (common/
    heroic/legendary) in one direction, then is destroyed."""
    if ctx.self_sq is None:
        return False
    s = ctx.state
    squares = list(board.bits(board.WITHIN[3][ctx.self_sq] & s.empty()))
    ranks = [RANK_NAMES[r] for r in (COMMON, HEROIC, LEGENDARY) if s.can_have_piece(ctx.player, r)]
    if not squares:
        return False
    label = ctx.choose("branch", ranks, optional=True, prompt="rank of the piece to place")
    if label is None:
        return False
    rank = RANK_NAMES.index(label)
    sq = ctx.choose("place", squares)
    ctx.place(sq, rank)
    end = _line_moves(ctx, sq, STORM_MOVES[rank])
    ctx.destroy(end)
    return True
