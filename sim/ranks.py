"""Piece ranks and players."""

COMMON, HEROIC, LEGENDARY = 0, 1, 2
RANK_NAMES = ("common", "heroic", "legendary")
RANK_LETTERS = ("c", "h", "l")


def rank_from_name(name: str) -> int:
    return RANK_NAMES.index(name)
