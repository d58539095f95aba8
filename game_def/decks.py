"""Named decks: the printed game and the reduced decks used for exact solving.

A deck is a count per character id. Reduced decks keep every rule; a camp in them is
its leader plus whatever followers the deck holds.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping

from .characters import NUM_CHARACTERS, Character as C

Counts = tuple[int, ...]


def counts_of(cards: Iterable[C]) -> Counts:
    """Per-character counts of a list of cards."""
    tally = Counter(int(c) for c in cards)
    return tuple(tally.get(i, 0) for i in range(NUM_CHARACTERS))


def _deck(spec: Mapping[C, int]) -> Counts:
    return tuple(spec.get(C(i), 0) for i in range(NUM_CHARACTERS))


_STANDARD = {C.ROBIN: 1, C.COMPANION: 2, C.SHERIFF: 1, C.DEPUTY: 2, C.PEASANT: 2,
             C.TRICKSTER: 1, C.MONK: 1, C.WITCH: 1, C.TRAITOR: 1}
_DUEL6 = {C.ROBIN: 1, C.COMPANION: 1, C.SHERIFF: 1, C.DEPUTY: 1, C.PEASANT: 1, C.TRAITOR: 1}

NAMED_DECKS: dict[str, Counts] = {
    # The printed 12-card game.
    "standard": _deck(_STANDARD),
    # Team mode: one Peasant replaced by the Innkeeper.
    "team": _deck({**_STANDARD, C.PEASANT: 1, C.INNKEEPER: 1}),
    # Reduced decks for exact solving, smallest first.
    "rspx": _deck({C.ROBIN: 1, C.SHERIFF: 1, C.PEASANT: 1, C.TRAITOR: 1}),
    "rspmx": _deck({C.ROBIN: 1, C.SHERIFF: 1, C.PEASANT: 1, C.MONK: 1, C.TRAITOR: 1}),
    "duel6": _deck(_DUEL6),
    "duel7": _deck({**_DUEL6, C.TRICKSTER: 1}),
    # duel8 adds the Witch (rspmx already covers the Monk): private looks and swaps.
    "duel8": _deck({**_DUEL6, C.TRICKSTER: 1, C.WITCH: 1}),
}


def deck_name(counts: Counts) -> str:
    """The named deck with these counts, else the cards joined by '+' in id order."""
    for name, named in NAMED_DECKS.items():
        if named == counts:
            return name
    return "+".join(C(i).label for i, k in enumerate(counts) for _ in range(k))
