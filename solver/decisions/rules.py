"""Locks compiled for the kernels (`LockRules`), and the checks a lock must pass on a
variant whose tree is too big to enumerate (the printed decks).

On an exact tree a lock that selects no decision is found by looking
(solver.locks.exact); here it is found by reading the variant: a card not in the deck, a
seat it does not have, strikes it never reaches or turns past its cap select nothing.
"""

from __future__ import annotations

import numpy as np

from game_def.characters import NAMES
from game_def.variant import Variant
from solver.scripted import BASIC_KINDS, FALLBACK_RULE_KINDS, LEAGUE_KINDS, scripted_params

from . import _kernels as kern
from .language import KINDS, VERBS, Lock, LockError

# whom a lock may play as (solver.decisions.language.PLAYER_NAMES), by kind
PLAYABLE = {**BASIC_KINDS, **LEAGUE_KINDS, "sound": FALLBACK_RULE_KINDS["sound"]}
PARAMS = 4   # the widest parameter row a lock's player reads (the sound default's)


def _class_code(key: str) -> int:
    if key in VERBS:
        return VERBS.index(key)
    if key == "truth":
        return kern.CLASS_TRUTH
    if key == "bluff":
        return kern.CLASS_BLUFF
    return kern.CLASS_CARD + NAMES.index(key)


def compile_locks(locks) -> kern.LockRules:
    """`locks` (Lock objects, in order) as the kernels take them."""
    locks = tuple(locks)
    width = max([len(lock.actions) for lock in locks]
                + [len(lock.forbid) for lock in locks] + [1])
    select = np.full((len(locks), kern.SEL_SIZE), kern.ANY, dtype=np.int64)
    classes = np.zeros((len(locks), width), dtype=np.int64)
    probs = np.zeros((len(locks), width), dtype=np.float64)
    player = np.full(len(locks), kern.PLAY_CLASSES, dtype=np.int64)
    params = np.zeros((len(locks), PARAMS), dtype=np.float64)
    for i, lock in enumerate(locks):
        row = select[i]
        if lock.kind is not None:
            row[kern.SEL_KIND] = KINDS.index(lock.kind)
        if lock.seat is not None:
            row[kern.SEL_SEAT] = lock.seat
        for name, column in (("peeked", kern.SEL_PEEKED), ("claim", kern.SEL_CLAIM),
                             ("power", kern.SEL_POWER), ("faceup", kern.SEL_FACEUP)):
            card = getattr(lock, name)
            if card is not None:
                row[column] = NAMES.index(card)
        if lock.strikes is not None:
            row[kern.SEL_STRIKES] = lock.strikes
        if lock.turns is not None:
            row[kern.SEL_TURN_FIRST], row[kern.SEL_TURN_LAST] = lock.turns
        row[kern.SEL_CLASSES] = len(lock.actions)
        for c, (key, p) in enumerate(lock.actions):
            classes[i, c] = _class_code(key)
            probs[i, c] = p
        if lock.forbid:
            row[kern.SEL_CLASSES] = len(lock.forbid)
            player[i] = kern.FORBID_CLASSES
            for c, key in enumerate(lock.forbid):
                classes[i, c] = _class_code(key)
        if lock.play is not None:
            player[i] = PLAYABLE[lock.play]
            row = scripted_params(lock.play)
            params[i, :len(row)] = row
    return kern.LockRules(select, classes, probs, player, params)


def seat_locks(locks, seat: int) -> tuple:
    """The locks as they bind one seat alone: a lock on every seat becomes a lock on
    `seat`, locks on other seats are dropped (an exploiter meets the locked play of the
    strategy it exploits but decides its own moves freely)."""
    return tuple(lock.for_seat(seat) for lock in locks if lock.seat in (None, seat))


def no_locks() -> kern.LockRules:
    """LockRules with no lock: every decision is free."""
    return compile_locks(())


def check_locks(locks, variant: Variant) -> None:
    """Refuse, in one line each, locks that can select no decision of `variant`: a seat
    it does not have, a card not in its deck, strikes a player never has, turns past its
    cap."""
    deck = {NAMES[c] for c in range(len(NAMES)) if variant.counts[c] > 0}
    for lock in locks:
        where = f"lock {lock.text!r}"
        if lock.seat is not None and lock.seat >= variant.players:
            raise LockError(f"{where} names seat {lock.seat}, but {variant} has seats 0 to "
                            f"{variant.players - 1}")
        for name in ("peeked", "claim", "power", "faceup"):
            card = getattr(lock, name)
            if card is not None and card not in deck:
                raise LockError(f"{where} selects no decision of {variant}: {card} is not "
                                f"in its deck ({', '.join(sorted(deck))})")
        if lock.strikes is not None and lock.strikes >= variant.strikes:
            raise LockError(f"{where} selects no decision of {variant}: a player with "
                            f"{lock.strikes} strikes is out (it takes {variant.strikes})")
        if lock.turns is not None and lock.turns[0] > variant.max_turns:
            raise LockError(f"{where} selects no decision of {variant}: its turns start "
                            f"after the cap of {variant.max_turns}")
