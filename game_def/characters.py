"""The characters of Robin Wood, their fixed ids, camps and what can be announced.

Ids are stable: the numba core, strategy files and the twin in tests all index by them.
"""

from __future__ import annotations

import difflib
import enum

from .errors import VariantError


class Character(enum.IntEnum):
    ROBIN = 0
    COMPANION = 1
    SHERIFF = 2
    DEPUTY = 3
    PEASANT = 4
    TRICKSTER = 5
    MONK = 6
    WITCH = 7
    TRAITOR = 8
    INNKEEPER = 9

    @property
    def label(self) -> str:
        """The capitalised English name used in action strings ("Robin")."""
        return self.name.capitalize()


NUM_CHARACTERS = len(Character)
NAMES: tuple[str, ...] = tuple(c.label for c in Character)

# A camp is its leader plus however many followers the deck holds (RULES-MODEL "Cards").
ROBIN_CAMP = frozenset({Character.ROBIN, Character.COMPANION})
SHERIFF_CAMP = frozenset({Character.SHERIFF, Character.DEPUTY})

# Announcing the Trickster or the Traitor is always a lie with no power: never offered.
ANNOUNCEABLE = frozenset(Character) - {Character.TRICKSTER, Character.TRAITOR}


def parse_character(name: str, *, where: str = "name") -> Character:
    """Character from its English name, case-insensitively; a clear error otherwise."""
    key = name.strip().lower()
    for c in Character:
        if c.label.lower() == key:
            return c
    close = difflib.get_close_matches(name.strip().capitalize(), NAMES, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise VariantError(
        f"unknown character {name.strip()!r} in {where}{hint}; "
        f"known characters: {', '.join(NAMES)}"
    )


def parse_character_list(text: str, *, where: str) -> tuple[Character, ...]:
    """Names separated by '+' or ',' (RULES-MODEL "Game parameters")."""
    parts = [p for p in text.replace(",", "+").split("+")]
    if any(not p.strip() for p in parts):
        raise VariantError(
            f"empty character name in {where} {text!r}; write names joined by '+', "
            f"e.g. Robin+Sheriff+Peasant+Traitor"
        )
    return tuple(parse_character(p, where=where) for p in parts)
