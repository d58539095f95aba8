"""What each seat knows in a round of any table size (numba kernels; docs/abstraction.md,
"Knowledge: what is tracked").

A small int64 "knowledge" array kept beside the core state and updated after every
action from what the action let each player see:

- per seat and position, the set of characters the card there can be (a 10-bit mask:
  one bit once seen, the union of two after a blind exchange, all bits when unknown);
- per seat and position, whether *another* seat has looked at the card privately
  since it last moved (with two seats: the other seat);
- per position, the last character publicly claimed for it, and whether that claim was
  made over the public count: when the deck's copies of the character were all already
  face up or claimed at other face-down positions (`_over_count`), a claim a forced liar
  would not choose (docs/sound-play.md, "The Trickster's lie");
- per seat and position, the character the seat's team last named for it with the
  Innkeeper's signal (team mode: the partner observes the pair, docs/rules.md).

Beyond two seats a seat knows less about who knows what: the look mark says that
*some* other seat may know the card, not which (docs/abstraction.md, "Three and four
players").

Everything that plays on a seat's own information reads it: the abstraction of Monte
Carlo CFR (solver.mccfr), the scripted players (solver.scripted), table agents, search
and the local best response. Its own package, below all of them, so that training can
play scripted opponents without an import cycle.
"""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

FULL_MASK = (1 << k.NUM_CHARACTERS) - 1

# ----- knowledge array ----------------------------------------------------------------
SEATS = k.MAX_PLAYERS
K_CAND = 0                                # [seat * 16 + pos]: candidate character mask
K_OTHER_LOOKED = K_CAND + SEATS * k.MAX_POSITIONS    # [seat * 16 + pos]: another seat looked
K_CLAIM = K_OTHER_LOOKED + SEATS * k.MAX_POSITIONS   # [pos]: last claim, -1 none
K_SIGNAL = K_CLAIM + k.MAX_POSITIONS      # [seat * 16 + pos]: the team's signal, -1 none
K_CLAIM_OVER = K_SIGNAL + SEATS * k.MAX_POSITIONS  # [pos]: 1 if that claim was over the count
K_SIZE = K_CLAIM_OVER + k.MAX_POSITIONS


@jit
def _initial_knowledge(state, rules):
    """Knowledge at the start of a round: face-up cards known to both, the rest unknown."""
    know = np.zeros(K_SIZE, dtype=np.int64)
    n = rules[k.R_N]
    for p in range(k.MAX_POSITIONS):
        know[K_CLAIM + p] = -1
        for s in range(SEATS):
            know[K_SIGNAL + s * k.MAX_POSITIONS + p] = -1
        for s in range(rules[k.R_PLAYERS]):
            if p < n and state[k.S_FACEUP + p] and state[k.S_CARD + p] != k.UNDEALT:
                know[K_CAND + s * k.MAX_POSITIONS + p] = 1 << state[k.S_CARD + p]
            else:
                know[K_CAND + s * k.MAX_POSITIONS + p] = FULL_MASK
    return know


@jit
def _exchange(know, a, b, seat):
    """Seat `seat` saw positions a and b exchanged blind (or not): both become the union."""
    ia = K_CAND + seat * k.MAX_POSITIONS + a
    ib = K_CAND + seat * k.MAX_POSITIONS + b
    union = know[ia] | know[ib]
    know[ia] = union
    know[ib] = union
    la = K_OTHER_LOOKED + seat * k.MAX_POSITIONS + a
    lb = K_OTHER_LOOKED + seat * k.MAX_POSITIONS + b
    looked = know[la] | know[lb]
    know[la] = looked
    know[lb] = looked
    ga = K_SIGNAL + seat * k.MAX_POSITIONS + a
    gb = K_SIGNAL + seat * k.MAX_POSITIONS + b
    know[ga] = -1
    know[gb] = -1


@jit
def _clear_claim(know, pos):
    know[K_CLAIM + pos] = -1
    know[K_CLAIM_OVER + pos] = 0


@jit
def _over_count(state, rules, know, pos, said):
    """Would a claim of `said` at `pos` be over the public count: every copy of `said`
    the deck holds already face up, or claimed (the last claim) at another face-down
    position? Public: the face-up cards and the claims are seen by every seat."""
    seen = 0
    for p in range(rules[k.R_N]):
        if p == pos:
            continue
        if state[k.S_FACEUP + p]:
            if state[k.S_CARD + p] == said:
                seen += 1
        elif know[K_CLAIM + p] == said:
            seen += 1
    return seen >= rules[k.R_COUNTS + said]


@jit
def _observe(know, before, action, after, rules):
    """Update `know` for `action`, applied to core state `before` giving `after`.

    Uses only what the rules let each seat observe (docs/game-interface.md): public
    actions, identities made known (the core's S_SEEN_* fields) and, for the actor
    alone, the Witch's keep/swap.
    """
    phase = before[k.S_PHASE]
    act = action
    if phase == k.PH_DEAL:          # the deal resumes the player action that needed it
        phase = before[k.S_RESUME_PHASE]
        act = before[k.S_RESUME_ACTION]
    n = rules[k.R_N]
    players = rules[k.R_PLAYERS]
    actor = before[k.S_ACTOR]
    base = 4 * n
    if phase == k.PH_SHUFFLE:
        a = before[k.S_PICK]
        b = before[k.S_PICK2]
        for s in range(players):
            _exchange(know, a, b, s)
        _clear_claim(know, a)
        _clear_claim(know, b)
    elif phase == k.PH_AFTER_PEEK and act > base + k.A_SILENT:
        pos = before[k.S_PEEK_POS]
        said = act - base - k.A_ANNOUNCE
        know[K_CLAIM_OVER + pos] = 1 if _over_count(before, rules, know, pos, said) else 0
        know[K_CLAIM + pos] = said
    elif phase == k.PH_WITCH_CHOICE:
        a = before[k.S_POWER_POS]
        b = before[k.S_PICK]
        for other in range(players):   # every other seat sees a blind exchange
            if other == actor:
                continue
            _exchange(know, a, b, other)
            know[K_OTHER_LOOKED + other * k.MAX_POSITIONS + a] = 1
            know[K_OTHER_LOOKED + other * k.MAX_POSITIONS + b] = 1
        if act == base + k.A_SWAP:
            ia = K_CAND + actor * k.MAX_POSITIONS + a
            ib = K_CAND + actor * k.MAX_POSITIONS + b
            tmp = know[ia]
            know[ia] = know[ib]
            know[ib] = tmp
            la = K_OTHER_LOOKED + actor * k.MAX_POSITIONS + a
            lb = K_OTHER_LOOKED + actor * k.MAX_POSITIONS + b
            tmp = know[la]
            know[la] = know[lb]
            know[lb] = tmp
            ga = K_SIGNAL + actor * k.MAX_POSITIONS + a
            gb = K_SIGNAL + actor * k.MAX_POSITIONS + b
            tmp = know[ga]
            know[ga] = know[gb]
            know[gb] = tmp
        _clear_claim(know, a)
        _clear_claim(know, b)
    elif phase == k.PH_NAME:
        # the Innkeeper's signal: the actor's team observes (position, named character)
        pos = before[k.S_PICK]
        for s in range(players):
            if s % 2 == actor % 2:
                know[K_SIGNAL + s * k.MAX_POSITIONS + pos] = act - base - k.A_NAME
    scope = after[k.S_SEEN_SCOPE]
    if scope != k.SCOPE_NONE:
        pos = after[k.S_SEEN_POS]
        bit = 1 << after[k.S_SEEN_CHAR]
        if scope == k.SCOPE_ACTOR:
            know[K_CAND + actor * k.MAX_POSITIONS + pos] = bit
            for s in range(players):
                if s != actor:
                    know[K_OTHER_LOOKED + s * k.MAX_POSITIONS + pos] = 1
        else:
            for s in range(players):
                know[K_CAND + s * k.MAX_POSITIONS + pos] = bit


@jit
def _exact(cand):
    """The character a candidate mask pins down, or -1."""
    if cand == 0 or (cand & (cand - 1)) != 0:
        return -1
    c = 0
    while (cand >> c) != 1:
        c += 1
    return c
