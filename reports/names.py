"""Card and task names from a card set, for ids found in the data; an unknown id stands for itself."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sim.cards import CardSet, Task


@dataclass(frozen=True)
class TaskInfo:
    name: str
    category: str
    points: int | None
    advanced: bool


class Names:
    def __init__(self, card_set: CardSet):
        self.card_set = card_set
        counts = Counter(card.name for card in card_set.by_id.values())
        self._names = {cid: card.name if counts[card.name] == 1 else f"{card.name} ({cid})"
                       for cid, card in card_set.by_id.items()}
        self._ids = {shown: cid for cid, shown in self._names.items()}

    def card(self, card_id: str) -> str:
        return self._names.get(card_id, card_id)

    def card_id(self, name: str) -> str | None:
        """The id a name shown by ``card`` (or ``task``) stands for; None for a name of no card of the set."""
        return self._ids.get(name)

    def deck_cards(self, deck: str) -> list[str]:
        """The ids a seat playing ``deck`` can hold: the deck's beings, every legend and every flare."""
        beings = self.card_set.decks.get(deck, ())
        return [c.id for c in (*beings, *self.card_set.legends, *self.card_set.flares)]

    def tasks(self) -> list[Task]:
        return list(self.card_set.tasks)

    def task(self, task_id: str) -> TaskInfo:
        t = self.card_set.by_id.get(task_id)
        if isinstance(t, Task):
            return TaskInfo(t.name, t.category, t.points, t.advanced)
        return TaskInfo(task_id, "", None, False)
