"""Information abstraction for the full game (numba kernels; docs/abstraction.md).

A player's situation is summarised by what they know now, not by the history that led
there. Two-player variants only. The summary lives in a small int64 "knowledge" array
kept beside the core state and updated after every action from what the action let
each player see:

- per seat and position, the set of characters the card there can be (a 10-bit mask:
  one bit once seen, the union of two after a blind exchange, all bits when unknown);
- per seat and position, whether the *other* seat has looked at the card privately
  since it last moved;
- per position, the last character publicly claimed for it.

The key of a decision is a hash of the seat, the decision being taken, both strikes, a
turn bucket and the *sorted* list of per-position codes, so it is canonical under
position relabelling (positions are exchangeable: docs/rules.md). Position actions are
abstracted the same way: all positions with the same code are one abstract action, and
playing it picks one of them uniformly.
"""

from __future__ import annotations

import numpy as np

from game_def import _core as k
from game_def._jit import jit

FULL_MASK = (1 << k.NUM_CHARACTERS) - 1

# ----- knowledge array ----------------------------------------------------------------
K_CAND = 0                                # [seat * 16 + pos]: candidate character mask
K_OTHER_LOOKED = K_CAND + 2 * k.MAX_POSITIONS    # [seat * 16 + pos]: the other seat looked
K_CLAIM = K_OTHER_LOOKED + 2 * k.MAX_POSITIONS   # [pos]: last claim, -1 none
K_SIZE = K_CLAIM + k.MAX_POSITIONS

# ----- per-position code bits -----------------------------------------------------------
CODE_FACE_UP = 1 << 10
CODE_OTHER_LOOKED = 1 << 11
CODE_CLAIM_SHIFT = 12                     # 4 bits: claim + 1
ROLE_PEEKED = 1 << 16                     # the card peeked (announced) this turn
ROLE_POWER = 1 << 17                      # the card running the power (the Witch's own)
ROLE_PICKED = 1 << 18                     # the power's first pick

# Turn buckets: turns played so far -> bucket (coarser as the round gets longer).
TURN_BUCKET_EDGES = np.array([2, 4, 8, 16], dtype=np.int64)
NUM_TURN_BUCKETS = len(TURN_BUCKET_EDGES) + 1

# Abstract actions beyond position classes keep the core's fixed-action offsets.
MAX_ABSTRACT = k.MAX_LEGAL


@jit
def _initial_knowledge(state, rules):
    """Knowledge at the start of a round: face-up cards known to both, the rest unknown."""
    know = np.zeros(K_SIZE, dtype=np.int64)
    n = rules[k.R_N]
    for p in range(k.MAX_POSITIONS):
        know[K_CLAIM + p] = -1
        for s in range(2):
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
    actor = before[k.S_ACTOR]
    base = 4 * n
    if phase == k.PH_SHUFFLE:
        a = before[k.S_PICK]
        b = before[k.S_PICK2]
        for s in range(2):
            _exchange(know, a, b, s)
        know[K_CLAIM + a] = -1
        know[K_CLAIM + b] = -1
    elif phase == k.PH_AFTER_PEEK and act > base + k.A_SILENT:
        know[K_CLAIM + before[k.S_PEEK_POS]] = act - base - k.A_ANNOUNCE
    elif phase == k.PH_WITCH_CHOICE:
        a = before[k.S_POWER_POS]
        b = before[k.S_PICK]
        other = 1 - actor
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
        know[K_CLAIM + a] = -1
        know[K_CLAIM + b] = -1
    scope = after[k.S_SEEN_SCOPE]
    if scope != k.SCOPE_NONE:
        pos = after[k.S_SEEN_POS]
        bit = 1 << after[k.S_SEEN_CHAR]
        if scope == k.SCOPE_ACTOR:
            know[K_CAND + actor * k.MAX_POSITIONS + pos] = bit
            know[K_OTHER_LOOKED + (1 - actor) * k.MAX_POSITIONS + pos] = 1
        else:
            for s in range(2):
                know[K_CAND + s * k.MAX_POSITIONS + pos] = bit


@jit
def _turn_bucket(turn):
    b = 0
    while b < len(TURN_BUCKET_EDGES) and turn >= TURN_BUCKET_EDGES[b]:
        b += 1
    return b


@jit
def _position_codes(state, rules, know, seat, codes):
    """Write each position's code, as `seat` sees it, into codes[:n]."""
    n = rules[k.R_N]
    phase = state[k.S_PHASE]
    for p in range(n):
        cand = know[K_CAND + seat * k.MAX_POSITIONS + p]
        c = 0 if cand == FULL_MASK else cand
        if state[k.S_FACEUP + p]:
            # Everybody sees it: who looked and what was claimed no longer matter.
            c |= CODE_FACE_UP
        elif cand & (cand - 1):
            # Not known exactly: what the opponent may know and has claimed matters.
            if know[K_OTHER_LOOKED + seat * k.MAX_POSITIONS + p]:
                c |= CODE_OTHER_LOOKED
            c |= (know[K_CLAIM + p] + 1) << CODE_CLAIM_SHIFT
        codes[p] = c
    if phase != k.PH_TURN:
        if state[k.S_PEEK_POS] >= 0:
            codes[state[k.S_PEEK_POS]] |= ROLE_PEEKED
        if state[k.S_POWER_POS] >= 0 and phase != k.PH_AFTER_PEEK and phase != k.PH_RESPOND:
            codes[state[k.S_POWER_POS]] |= ROLE_POWER
        if state[k.S_PICK] >= 0:
            codes[state[k.S_PICK]] |= ROLE_PICKED


@jit
def _mix(h, v):
    """One step of a 64-bit hash chain (splitmix64 finaliser over h ^ v)."""
    x = h ^ np.uint64(v & 0x7FFFFFFFFFFFFFFF) ^ (np.uint64((v >> 63) & 1) << np.uint64(63))
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@jit
def _global_features(state, rules, seat, out):
    """The non-positional part of a decision's key: 6 integers."""
    phase = state[k.S_PHASE]
    out[0] = seat
    out[1] = phase
    out[2] = state[k.S_STRIKES + seat]
    out[3] = state[k.S_STRIKES + 1 - seat]
    out[4] = _turn_bucket(state[k.S_TURN])
    detail = -1
    if phase == k.PH_RESPOND:
        detail = state[k.S_ANNOUNCED]
    elif phase == k.PH_REVEAL or phase == k.PH_PICK or phase == k.PH_WITCH_CHOICE:
        detail = state[k.S_POWER]
    out[5] = detail


@jit
def _features(state, rules, know, seat, codes, sorted_codes, glob):
    """Canonical features of `seat`'s decision: globals and the sorted position codes."""
    n = rules[k.R_N]
    _position_codes(state, rules, know, seat, codes)
    for p in range(n):
        sorted_codes[p] = codes[p]
    # insertion sort: n <= 16
    for i in range(1, n):
        v = sorted_codes[i]
        j = i - 1
        while j >= 0 and sorted_codes[j] > v:
            sorted_codes[j + 1] = sorted_codes[j]
            j -= 1
        sorted_codes[j + 1] = v
    _global_features(state, rules, seat, glob)


@jit
def _key_of(sorted_codes, n, glob):
    h = np.uint64(0x243F6A8885A308D3)
    for i in range(6):
        h = _mix(h, glob[i])
    for i in range(n):
        h = _mix(h, sorted_codes[i])
    key = np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF))
    return key


@jit
def _abstract_decision(state, rules, know, seat, legal, m, codes, sorted_codes, glob,
                       cls, abstract_of):
    """Key of `seat`'s decision and the abstract action of each legal action.

    `legal[:m]` are the core's legal actions; abstract_of[i] gets the abstract index of
    legal[i] (`cls` is scratch of the same length). Position actions (peek/use/reveal/pick) are numbered by the rank of their
    (action kind, position code) among the distinct ones of this decision; the other
    actions follow in the core's order. Returns (key, number of abstract actions).
    """
    n = rules[k.R_N]
    _features(state, rules, know, seat, codes, sorted_codes, glob)
    key = _key_of(sorted_codes, n, glob)
    base = 4 * n
    for i in range(m):
        a = legal[i]
        cls[i] = codes[a % n] | ((a // n) << 20) if a < base else -1
    distinct = 0
    for i in range(m):
        if cls[i] < 0:
            continue
        rank = 0
        for j in range(m):
            if cls[j] >= 0 and cls[j] < cls[i]:
                seen_before = False
                for q in range(j):
                    if cls[q] == cls[j]:
                        seen_before = True
                        break
                if not seen_before:
                    rank += 1
        abstract_of[i] = rank
        if rank + 1 > distinct:
            distinct = rank + 1
    nxt = distinct
    for i in range(m):
        if cls[i] < 0:
            abstract_of[i] = nxt
            nxt += 1
    return key, nxt
