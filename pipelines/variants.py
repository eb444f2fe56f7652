"""Ablation arms: the card set a variant game is played with, and which seat gets the changed deck.

A vanilla being keeps its rank and pattern and loses its effect (an expansion being also its frozen text,
its warp text and summoning anywhere: it is summoned by its pattern and discarded like a base being); a
vanilla flare keeps its thresholds and loses both halves' effects. Because a vanilla copy takes the card's
place, every shuffle and draw of the game is the one of the unchanged game with the same seed: the paired
games only diverge once the card's effect would have mattered. A removed card (or task) shortens its deck, so
the shuffles that follow differ and the pairing is by seed only. A copy (mode "copy", the A/A check) changes
nothing in the card; the players' random streams are drawn anew (``player_seed``), so the pair diverges as it
would if the card mattered. Each copy arm draws its own streams (salted by its card's id): two A/A arms on one
seed are two independent checks, not one game played twice. See docs/studies.md, "Ablation".
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from pipelines.study import GameSpec, Variant
from sim.cards import Being, CardSet, Flare, Task

VARIANT_DECK = "{deck}~variant"  # the changed copy of a deck, held by one seat only
_COPY_SALT = 0x5EED_A1A1


def _fresh(cards: CardSet) -> tuple[dict[str, tuple[Being, ...]], tuple[Being, ...], tuple[Flare, ...],
                                    tuple[Task, ...]]:
    """New card objects throughout: a CardSet numbers its cards in place, so sets must not share them."""
    decks = {d: tuple(replace(b) for b in beings) for d, beings in cards.decks.items()}
    return (decks, tuple(replace(b) for b in cards.legends), tuple(replace(f) for f in cards.flares),
            tuple(replace(t) for t in cards.tasks))


def _change(card: Being | Flare | Task, mode: str) -> Being | Flare | Task | None:
    if mode == "remove":
        return None
    if mode == "copy" or isinstance(card, Task):
        return replace(card)
    if isinstance(card, Flare):
        return replace(card, upper=replace(card.upper, effect=()), lower=replace(card.lower, effect=()))
    # every text goes: an expansion being's frozen and warp texts and Time Traveler's summoning anywhere too
    return replace(card, effect=(), warp=None, warp_describe="", summon_anywhere=False, frozen=None,
                   frozen_describe="")


def _swap(cards: tuple, card_id: str, mode: str) -> tuple:
    out = []
    for c in cards:
        changed = _change(c, mode) if c.id == card_id else c
        if changed is not None:
            out.append(changed)
    return tuple(out)


def variant_cards(cards: CardSet, variant: Variant) -> CardSet:
    """The card set of ``variant``'s games. A being's deck gets a changed copy under ``VARIANT_DECK`` (the
    original stays, for the other seat); legends, flares and tasks are changed for both seats."""
    decks, legends, flares, tasks = _fresh(cards)
    for deck, beings in list(decks.items()):
        if any(b.id == variant.card for b in beings):
            decks[VARIANT_DECK.format(deck=deck)] = _swap(beings, variant.card, variant.mode)
    fingerprints = dict(cards.fingerprints)
    if variant.mode == "remove":
        fingerprints.pop(variant.card, None)
    else:
        fingerprints[variant.card] = f"{variant.mode}-{fingerprints.get(variant.card, '')}"
    return CardSet(decks, _swap(legends, variant.card, variant.mode), _swap(flares, variant.card, variant.mode),
                   _swap(tasks, variant.card, variant.mode), cards.source, fingerprints)


def owner_seat(spec: GameSpec, card_id: str) -> int | None:
    """The seat whose deck holds the being ``card_id``: where several seats play that deck, the seat of the
    cell's first-named side with it; None when no deck holds it or it is not a being of a deck."""
    deck = card_id.split("/", 1)[0]
    if deck not in spec.cell.decks:
        return None
    return spec.seat_of(spec.cell.decks.index(deck))


def variant_seat(spec: GameSpec, cards: CardSet) -> int:
    """The seat that plays the changed copy of its deck (an ablated being's owner), or -1."""
    if spec.variant is None:
        return -1
    seat = owner_seat(spec, spec.variant.card)
    changed = VARIANT_DECK.format(deck=spec.variant.card.split("/", 1)[0])
    return -1 if seat is None or changed not in cards.decks else seat


def seat_decks(spec: GameSpec, cards: CardSet) -> tuple[str, ...]:
    """The deck names the game is set up with: the owner of an ablated being plays the changed copy."""
    seat = variant_seat(spec, cards)
    if seat < 0:
        return spec.decks
    decks = list(spec.decks)
    decks[seat] = VARIANT_DECK.format(deck=spec.decks[seat])
    return tuple(decks)


def player_seed(spec: GameSpec) -> int:
    """The seed the players' streams derive from: the game's, except in an A/A ("copy") arm, where it is
    salted by the arm's card so that every copy arm is its own draw."""
    if spec.variant is not None and spec.variant.mode == "copy":
        card = int.from_bytes(hashlib.blake2b(spec.variant.card.encode(), digest_size=8).digest(), "big")
        return (spec.seed ^ _COPY_SALT ^ card) & ((1 << 63) - 1)
    return spec.seed
