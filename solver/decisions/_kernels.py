"""Decisions as the mover sees them, and locked decisions played without Python in the
loop.

`_features_of` reads what the mover knows of a decision (its kind, the peeked card, the
claim answered, the power running, its strikes, the turn, the face-up characters): the
features the lock language selects on. `_locked_probs` plays a `LockRules` (the compiled
locks of solver.decisions.rules) at one decision: the last lock that selects it and has a
legal action there fixes its probabilities, as on an exact tree (solver.locks.exact), so
Monte Carlo CFR and the table agents honour the same locks the exact solvers do.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from solver.scripted import kernels as lg

F_KIND, F_SEAT, F_PEEKED, F_CLAIM, F_POWER, F_STRIKES, F_TURN, F_FACEUP = range(8)
NUM_FEATURES = 8
KIND_TURN, KIND_ANNOUNCE, KIND_RESPOND, KIND_POWER = range(4)

# A lock's selectors (ANY: not selected on), one row per lock.
SEL_KIND, SEL_SEAT, SEL_PEEKED, SEL_CLAIM, SEL_POWER, SEL_STRIKES = range(6)
SEL_TURN_FIRST, SEL_TURN_LAST, SEL_FACEUP, SEL_CLASSES = 6, 7, 8, 9
SEL_SIZE = 10
ANY = -1
# Action classes: the verbs in solver.decisions.language.VERBS order, then truth and
# bluff, then CLASS_CARD + c (announcing character c, or naming it).
(V_PEEK, V_USE, V_REVEAL, V_PICK, V_SILENT, V_ANNOUNCE, V_CHALLENGE, V_PASS, V_KEEP,
 V_SWAP, V_NAME) = range(11)
CLASS_TRUTH = 11
CLASS_BLUFF = 12
CLASS_CARD = 16
PLAY_CLASSES = -1   # LockRules.player: the lock fixes action classes, not a player
FORBID_CLASSES = -2  # LockRules.player: the lock takes action classes out, fixes nothing

LockRules = namedtuple("LockRules", ["select", "classes", "probs", "player", "params"])
"""Locks as kernels take them, in order (the later holds where two select a decision):
select[L, SEL_SIZE]   int64 selectors (ANY: any) and, at SEL_CLASSES, the class count
classes[L, C]         int64 action classes (CLASS_* or a V_* verb)
probs[L, C]           float64 their probabilities
player[L]             int64 PLAY_CLASSES, FORBID_CLASSES (classes[L] are forbidden),
                      or the kind of the scripted player that plays
                      every decision the lock selects (solver.scripted: UNIFORM, a
                      baseline bot, a league player)
params[L, P]          float64 that player's parameters"""


@jit
def _features_of(state, rules, cur, out):
    """What `cur`, the mover at decision `state`, knows of it: out[F_*]."""
    phase = state[k.S_PHASE]
    out[F_SEAT] = cur
    out[F_PEEKED] = -1
    out[F_CLAIM] = -1
    out[F_POWER] = -1
    if phase == k.PH_TURN:
        out[F_KIND] = KIND_TURN
    elif phase == k.PH_AFTER_PEEK:
        out[F_KIND] = KIND_ANNOUNCE
        out[F_PEEKED] = state[k.S_CARD + state[k.S_PEEK_POS]]
    elif phase == k.PH_RESPOND:
        out[F_KIND] = KIND_RESPOND
        out[F_CLAIM] = state[k.S_ANNOUNCED]
    else:
        out[F_KIND] = KIND_POWER
        out[F_POWER] = state[k.S_POWER]
    out[F_STRIKES] = state[k.S_STRIKES + cur]
    out[F_TURN] = state[k.S_TURN] + 1
    mask = 0
    for p in range(rules[k.R_N]):
        if state[k.S_FACEUP + p] and state[k.S_CARD + p] != k.UNDEALT:
            mask |= 1 << state[k.S_CARD + p]
    out[F_FACEUP] = mask


@jit
def _selects(sel, row):
    """Whether a lock's selector row `sel` selects the decision of features `row`."""
    if sel[SEL_KIND] != ANY and sel[SEL_KIND] != row[F_KIND]:
        return False
    if sel[SEL_SEAT] != ANY and sel[SEL_SEAT] != row[F_SEAT]:
        return False
    if sel[SEL_PEEKED] != ANY and sel[SEL_PEEKED] != row[F_PEEKED]:
        return False
    if sel[SEL_CLAIM] != ANY and sel[SEL_CLAIM] != row[F_CLAIM]:
        return False
    if sel[SEL_POWER] != ANY and sel[SEL_POWER] != row[F_POWER]:
        return False
    if sel[SEL_STRIKES] != ANY and sel[SEL_STRIKES] != row[F_STRIKES]:
        return False
    if sel[SEL_TURN_FIRST] != ANY and not (sel[SEL_TURN_FIRST] <= row[F_TURN]
                                           <= sel[SEL_TURN_LAST]):
        return False
    if sel[SEL_FACEUP] != ANY and (row[F_FACEUP] >> sel[SEL_FACEUP]) & 1 == 0:
        return False
    return True


@jit
def _in_class(code, action, n, peeked):
    """Whether player action `action` (n positions) belongs to action class `code`."""
    card = -1
    if action < 4 * n:
        verb = action // n
    else:
        offset = action - 4 * n
        if offset == k.A_SILENT:
            verb = V_SILENT
        elif k.A_ANNOUNCE <= offset < k.A_CHALLENGE:
            verb = V_ANNOUNCE
            card = offset - k.A_ANNOUNCE
        elif offset == k.A_CHALLENGE:
            verb = V_CHALLENGE
        elif offset == k.A_PASS:
            verb = V_PASS
        elif offset == k.A_KEEP:
            verb = V_KEEP
        elif offset == k.A_SWAP:
            verb = V_SWAP
        else:
            verb = V_NAME
            card = offset - k.A_NAME
    if code == verb:
        return True
    if verb == V_ANNOUNCE:
        return (code == CLASS_TRUTH and card == peeked) or (
            code == CLASS_BLUFF and card != peeked) or code == CLASS_CARD + card
    return verb == V_NAME and code == CLASS_CARD + card


@jit
def _class_probs(locks, lock, legal, m, n, peeked, out, taken):
    """Lock `lock`'s action classes spread over legal[:m] into out[:m] (each class's
    probability evenly over the legal actions it is the first class to match; the
    matched classes' probabilities renormalised); False where no class matches."""
    for i in range(m):
        out[i] = 0.0
        taken[i] = False
    mass = 0.0
    matched = False
    for c in range(locks.select[lock, SEL_CLASSES]):
        code = locks.classes[lock, c]
        hits = 0
        for i in range(m):
            if not taken[i] and _in_class(code, legal[i], n, peeked):
                hits += 1
        if hits == 0:
            continue
        p = locks.probs[lock, c]
        for i in range(m):
            if not taken[i] and _in_class(code, legal[i], n, peeked):
                out[i] += p / hits
                taken[i] = True
        mass += p
        matched = True
    if not matched:
        return False
    if mass <= 0.0:   # only zero-probability classes apply: evenly over them
        count = 0
        for i in range(m):
            count += taken[i]
        for i in range(m):
            out[i] = 1.0 / count if taken[i] else 0.0
    else:
        for i in range(m):
            out[i] /= mass
    return True


@jit
def _locked_probs(locks, state, rules, know, seat, legal, m, out):
    """If a lock fixes the decision of `seat` at `state` (legal actions legal[:m], what
    the seat knows `know`), write its probabilities into out[:m] and return True; False
    where the decision is free. The last lock that selects the decision and has a legal
    action there holds (solver.locks.exact.lock_decisions decides the same)."""
    count = locks.player.shape[0]
    if count == 0:
        return False
    row = np.empty(NUM_FEATURES, dtype=np.int64)
    _features_of(state, rules, seat, row)
    taken = np.empty(m, dtype=np.bool_)
    n = rules[k.R_N]
    for lock in range(count - 1, -1, -1):
        if not _selects(locks.select[lock], row):
            continue
        kind = locks.player[lock]
        if kind == FORBID_CLASSES:   # applied to the legal actions first (_allowed)
            continue
        if kind == PLAY_CLASSES:
            if _class_probs(locks, lock, legal, m, n, row[F_PEEKED], out, taken):
                return True
            continue
        lg.scripted_probs(kind, locks.params[lock], state, rules, know, seat, legal, m, out)
        return True
    return False


@jit
def _forbidden(locks, row, action, n):
    """Whether a forbid lock selecting the decision of features `row` names `action`."""
    for lock in range(locks.player.shape[0]):
        if locks.player[lock] != FORBID_CLASSES or not _selects(locks.select[lock], row):
            continue
        for c in range(locks.select[lock, SEL_CLASSES]):
            if _in_class(locks.classes[lock, c], action, n, row[F_PEEKED]):
                return True
    return False


@jit
def _has_forbids(locks):
    """Whether any lock is a forbid lock (restricted play)."""
    for lock in range(locks.player.shape[0]):
        if locks.player[lock] == FORBID_CLASSES:
            return True
    return False


@jit
def _allowed(locks, state, rules, seat, legal, m):
    """Restricted play: keeps in legal[:m'] (in order) the legal actions legal[:m] of
    `seat` that no forbid lock selecting the decision names, and returns m'. Where every
    legal action is forbidden the restriction does not apply: m is returned and legal
    is untouched, as where no forbid lock selects the decision."""
    if not _has_forbids(locks):
        return m
    row = np.empty(NUM_FEATURES, dtype=np.int64)
    _features_of(state, rules, seat, row)
    n = rules[k.R_N]
    count = 0
    for i in range(m):
        if not _forbidden(locks, row, legal[i], n):
            count += 1
    if count == 0 or count == m:
        return m
    count = 0
    for i in range(m):
        if not _forbidden(locks, row, legal[i], n):
            legal[count] = legal[i]
            count += 1
    return count
