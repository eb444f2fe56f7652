"""A card set as data a worker can rebuild on any node: the built-in set by name, an edited copy by its files.

Workers never receive CardSet objects (they hold cached placements and are tied to one process); they
rebuild the set and check its fingerprint against the driver's, so a node running different card or effect
code fails loudly instead of writing different games.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sim.cards import CardSet, load_card_set
from sim.files import read_text


class CardSetMismatch(RuntimeError):
    """A worker rebuilt a card set whose fingerprint differs from the driver's."""


@dataclass(frozen=True)
class CardSetPayload:
    fingerprint: str
    files: dict[str, str] | None  # TOML file name -> text; None for the built-in set

    @property
    def digest(self) -> str:
        h = hashlib.sha256()
        for name, text in sorted((self.files or {}).items()):
            h.update(f"{name}\0{text}\0".encode())
        return h.hexdigest()[:16]


def pack(directory: str | None) -> CardSetPayload:
    """The payload for a card-set directory (None: the built-in set)."""
    cards = load_card_set(directory)
    if directory is None:
        return CardSetPayload(cards.fingerprint(), None)
    files = {p.name: read_text(p) for p in sorted(Path(directory).glob("*.toml"))}
    return CardSetPayload(cards.fingerprint(), files)


def _materialize(payload: CardSetPayload) -> Path:
    """Write the files once per node into a directory named by their content, and return it."""
    target = Path(tempfile.gettempdir()) / f"tashkalar-cards-{payload.digest}"
    if target.is_dir():
        return target
    staging = Path(tempfile.mkdtemp(prefix=f"{target.name}.", dir=target.parent))
    for name, text in (payload.files or {}).items():
        (staging / name).write_text(text, encoding="utf-8")
    try:
        os.rename(staging, target)
    except OSError:  # another worker on this node got there first, with the same content
        for f in staging.iterdir():
            f.unlink()
        staging.rmdir()
    return target


def unpack(payload: CardSetPayload) -> CardSet:
    """The card set the payload describes, loaded in this process and checked against its fingerprint."""
    cards = load_card_set(None if payload.files is None else _materialize(payload))
    if cards.fingerprint() != payload.fingerprint:
        raise CardSetMismatch(f"this worker's card set has fingerprint {cards.fingerprint()}, the study's is "
                              f"{payload.fingerprint}: the node runs different card or effect code")
    return cards
