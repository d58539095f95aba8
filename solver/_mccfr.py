"""Monte Carlo CFR over the information abstraction (numba kernels; docs/mccfr.md).

Two seat tables, one per seat (the abstraction key includes the seat, so they never
share an entry). A batch runs one worker per seat: worker i traverses for seat i,
writes seat i's regrets (and inserts seat i's entries) and writes the *other* table's
average-strategy sums (external sampling) or its own (outcome sampling). The other
seat's policy is read from a snapshot taken at the start of the batch, and only
entries that existed then are visible across seats. Writes never overlap, no read
depends on the other worker's progress, so a batch gives the same arrays whether its
two workers run in two threads or one after the other: runs are reproducible from a
seed whatever the worker count, and resume is exact.

Table of a seat (arrays; see solver.mccfr.SeatTable):
  slots[cap]      open addressing (linear probing), entry index or -1; cap a power of 2
  keys[E]         abstraction key of each entry
  offset[E]       first action slot of each entry
  nact[E]         number of abstract actions
  regret[A]       cumulative regrets (float32)
  ssum[A]         cumulative average-strategy weights (float32)
  snap[A]         regret-matching strategy at the batch start (float32)
  meta[8]         M_* counters
"""

from __future__ import annotations

import numpy as np

from game_def import _core as k
from game_def._jit import jit

from . import _abstraction as ab

M_ENTRIES = 0     # entries in use
M_USED = 1        # action slots in use
M_FROZEN = 2      # entries visible to the other worker this batch
M_OVERFLOW = 3    # inserts refused because the table was full
M_MISMATCH = 4    # lookups whose action count disagreed with the entry (must stay 0)
M_DEEP = 5        # traversals cut at the depth limit (must stay 0)
M_SLOT_CAPACITY = 6   # length of regret/ssum/snap (set by the owner of the arrays)
M_SIZE = 8

EXTERNAL = 0
OUTCOME = 1

MAX_DEPTH = 2048


# ----- random numbers: splitmix64 in a one-element uint64 array (checkpointable) ------
@jit
def _next_u64(rng):
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit
def _uniform(rng):
    """A float in [0, 1)."""
    return np.float64(_next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit
def _below(rng, n):
    """An integer in [0, n)."""
    v = np.int64(_uniform(rng) * n)
    return v if v < n else n - 1


@jit
def _pick(probs, m, rng):
    r = _uniform(rng)
    acc = 0.0
    for i in range(m):
        acc += probs[i]
        if r < acc:
            return i
    for i in range(m - 1, -1, -1):  # rounding: the last action with positive mass
        if probs[i] > 0:
            return i
    return m - 1


# ----- table ------------------------------------------------------------------------------
@jit
def _find(slots, keys, key):
    """Entry index of `key`, or -1."""
    mask = len(slots) - 1
    h = key & mask
    while True:
        e = slots[h]
        if e < 0:
            return -1
        if keys[e] == key:
            return e
        h = (h + 1) & mask


@jit
def _find_frozen(slots, keys, meta, key):
    """Entry of `key` if it existed at the batch start, else -1 (safe while the owner
    inserts: an entry present then is reached through slots all filled before)."""
    frozen = meta[M_FROZEN]
    mask = len(slots) - 1
    h = key & mask
    while True:
        e = slots[h]
        if e < 0 or e >= frozen:
            return -1
        if keys[e] == key:
            return e
        h = (h + 1) & mask


@jit
def _find_or_insert(slots, keys, offset, nact, meta, key, n):
    """Entry of `key`, inserted with n actions if new; -1 if the table is full."""
    mask = len(slots) - 1
    h = key & mask
    while True:
        e = slots[h]
        if e < 0:
            break
        if keys[e] == key:
            return e
        h = (h + 1) & mask
    e = meta[M_ENTRIES]
    if e >= len(keys) or meta[M_USED] + n > meta[M_SLOT_CAPACITY] or 2 * (e + 1) > len(slots):
        meta[M_OVERFLOW] += 1
        return -1
    keys[e] = key
    offset[e] = meta[M_USED]
    nact[e] = n
    meta[M_USED] += n
    meta[M_ENTRIES] = e + 1
    slots[h] = e            # published last: readers see a complete entry
    return e


@jit
def _regret_matching(regret, off, n, out):
    total = 0.0
    for j in range(n):
        r = regret[off + j]
        if r > 0:
            total += r
    if total > 0:
        for j in range(n):
            r = regret[off + j]
            out[j] = r / total if r > 0 else 0.0
    else:
        for j in range(n):
            out[j] = 1.0 / n


@jit
def _refresh_snapshot(meta, offset, nact, regret, snap):
    """Freeze the entries present now and store their regret-matching strategy."""
    entries = meta[M_ENTRIES]
    buf = np.empty(ab.MAX_ABSTRACT, dtype=np.float64)
    for e in range(entries):
        off = offset[e]
        n = nact[e]
        _regret_matching(regret, off, n, buf)
        for j in range(n):
            snap[off + j] = buf[j]
    meta[M_FROZEN] = entries


@jit
def _discount(meta, regret, ssum, positive, negative, average):
    used = meta[M_USED]
    for i in range(used):
        r = regret[i]
        regret[i] = r * positive if r > 0 else r * negative
        ssum[i] *= average


@jit
def _rehash(keys, entries, slots):
    """Fill a fresh slot array (all -1) with the first `entries` keys."""
    mask = len(slots) - 1
    for e in range(entries):
        h = keys[e] & mask
        while slots[h] >= 0:
            h = (h + 1) & mask
        slots[h] = e


# ----- one worker -------------------------------------------------------------------------
@jit
def _payoff(state, seat):
    w = state[k.S_WINNER]
    if w < 0:
        return 0.0
    return 1.0 if w == seat else -1.0


@jit
def _concrete(abstract_of, m, j, rng):
    """A legal index whose abstract action is j, uniformly among them."""
    count = 0
    for i in range(m):
        if abstract_of[i] == j:
            count += 1
    r = _below(rng, count)
    for i in range(m):
        if abstract_of[i] == j:
            if r == 0:
                return i
            r -= 1
    return -1


@jit
def _child(states, knows, d, rules, action):
    states[d + 1, :] = states[d]
    k._apply_action(states[d + 1], rules, action)
    knows[d + 1, :] = knows[d]
    ab._observe(knows[d + 1], states[d], action, states[d + 1], rules)


@jit
def _sample_chance(state, rules, legal, chance_p, rng):
    c = k._chance_outcomes(state, rules, legal, chance_p)
    return legal[_pick(chance_p, c, rng)]


# per-depth bookkeeping of the iterative traversals (F_* columns of `frames`)
F_KIND = 0        # PASS_UP (chance, sampled opponent) or EXPAND (traverser, all actions)
F_NEXT = 1        # next abstract action to expand
F_ACTIONS = 2     # number of abstract actions
F_LEGAL = 3       # number of legal actions
F_ENTRY = 4       # table entry, -1 if none
F_PLAYER = 5
F_CHOSEN = 6      # abstract action sampled
F_BRANCH = 7      # product of the traverser's expanded branchings above this depth
F_SIZE = 8
PASS_UP = 0       # chance or opponent: the child's value passes up unchanged
EXPAND = 1        # traverser, every action expanded (regrets updated here)
SAMPLED = 2       # traverser, one action sampled (importance-weighted)
# per-depth reals of outcome sampling (R_* columns of `reals`)
R_MY = 0
R_OPP = 1
R_SAMPLE = 2
R_Q = 3           # probability with which the traverser's action was sampled
R_W = 4           # importance weight of updates at this depth (external sampling)
R_SIZE = 5


@jit
def _lookup_own(state, rules, know, cur, legal_d, m, scratch, abst_d,
                own_slots, own_keys, own_off, own_nact, own_meta, own_regret, sigma):
    """Key the traverser's decision, find or insert its entry, write its current
    strategy into sigma; returns (entry or -1, abstract action count)."""
    key, n = ab._abstract_decision(state, rules, know, cur, legal_d, m, scratch[0],
                                   scratch[1], scratch[2], scratch[3], abst_d)
    e = _find_or_insert(own_slots, own_keys, own_off, own_nact, own_meta, key, n)
    if e >= 0 and own_nact[e] != n:
        own_meta[M_MISMATCH] += 1
        e = -1
    if e >= 0:
        _regret_matching(own_regret, own_off[e], n, sigma)
    else:
        for j in range(n):
            sigma[j] = 1.0 / n
    return e, n


@jit
def _lookup_opponent(state, rules, know, cur, legal_d, m, scratch, abst_d, own_meta,
                     opp_slots, opp_keys, opp_off, opp_nact, opp_meta, opp_snap, sigma):
    """Key the opponent's decision and read its snapshot strategy into sigma (uniform
    for entries the opponent did not have at the batch start)."""
    key, n = ab._abstract_decision(state, rules, know, cur, legal_d, m, scratch[0],
                                   scratch[1], scratch[2], scratch[3], abst_d)
    e = _find_frozen(opp_slots, opp_keys, opp_meta, key)
    if e >= 0 and opp_nact[e] != n:
        own_meta[M_MISMATCH] += 1
        e = -1
    if e >= 0:
        off = opp_off[e]
        for j in range(n):
            sigma[j] = opp_snap[off + j]
    else:
        for j in range(n):
            sigma[j] = 1.0 / n
    return e, n


@jit
def _external(seat, expand_p, max_branching, epsilon, rules, rng, states, knows, legal,
              abst, sig, vals, frames, reals, scratch,
              own_slots, own_keys, own_off, own_nact, own_meta, own_regret,
              opp_slots, opp_keys, opp_off, opp_nact, opp_meta, opp_snap, opp_ssum):
    """One external-sampling traversal for `seat` from states[0]/knows[0].

    Chance and the opponent are sampled; the traverser's actions are all expanded at a
    decision with probability `expand_p` while the product of expanded branchings on the
    path stays within `max_branching`; otherwise one action is sampled (epsilon-uniform
    mixed with the current strategy) and everything below is importance-weighted, so
    the counterfactual values stay unbiased. expand_p=1 with an unbounded budget is
    plain external sampling. Iterative (an explicit stack of depths). Returns the
    number of nodes visited.
    """
    d = 0
    entering = True
    ret = 0.0
    visited = 0
    reals[0, R_W] = 1.0
    frames[0, F_BRANCH] = 1
    while True:
        if entering:
            visited += 1
            state = states[d]
            if state[k.S_PHASE] == k.PH_TERMINAL:
                ret = _payoff(state, seat)
                entering = False
                continue
            if d + 1 >= MAX_DEPTH:
                own_meta[M_DEEP] += 1
                ret = 0.0
                entering = False
                continue
            cur = k._current_player(state)
            w = reals[d, R_W]
            frames[d, F_KIND] = PASS_UP
            reals[d + 1, R_W] = w
            frames[d + 1, F_BRANCH] = frames[d, F_BRANCH]
            if cur == k.CHANCE_PLAYER:
                a = _sample_chance(state, rules, legal[d], sig[d], rng)
                _child(states, knows, d, rules, a)
                d += 1
                continue
            m = k._legal_actions(state, rules, legal[d])
            frames[d, F_LEGAL] = m
            if cur == seat:
                e, n = _lookup_own(state, rules, knows[d], cur, legal[d], m, scratch, abst[d],
                                   own_slots, own_keys, own_off, own_nact, own_meta,
                                   own_regret, sig[d])
                frames[d, F_ENTRY] = e
                frames[d, F_ACTIONS] = n
                if frames[d, F_BRANCH] * n <= max_branching and (
                        expand_p >= 1.0 or _uniform(rng) < expand_p):
                    frames[d, F_KIND] = EXPAND
                    frames[d, F_NEXT] = 0
                    frames[d + 1, F_BRANCH] = frames[d, F_BRANCH] * n
                    i = _concrete(abst[d], m, 0, rng)
                else:
                    frames[d, F_KIND] = SAMPLED
                    if _uniform(rng) < epsilon:
                        j = _below(rng, n)
                    else:
                        j = _pick(sig[d], n, rng)
                    q = epsilon / n + (1.0 - epsilon) * sig[d, j]
                    frames[d, F_CHOSEN] = j
                    reals[d, R_Q] = q
                    reals[d + 1, R_W] = w / q
                    i = _concrete(abst[d], m, j, rng)
                _child(states, knows, d, rules, legal[d, i])
                d += 1
                continue
            e, n = _lookup_opponent(state, rules, knows[d], cur, legal[d], m, scratch,
                                    abst[d], own_meta, opp_slots, opp_keys, opp_off,
                                    opp_nact, opp_meta, opp_snap, sig[d])
            if e >= 0:
                off = opp_off[e]
                for j in range(n):
                    opp_ssum[off + j] += np.float32(w * sig[d, j])
            j = _pick(sig[d], n, rng)
            i = _concrete(abst[d], m, j, rng)
            _child(states, knows, d, rules, legal[d, i])
            d += 1
            continue
        # returning `ret` to depth d - 1
        if d == 0:
            return visited
        d -= 1
        kind = frames[d, F_KIND]
        if kind == PASS_UP:
            continue
        if kind == SAMPLED:
            j = frames[d, F_CHOSEN]
            ret = sig[d, j] * ret / reals[d, R_Q]
            continue
        j = frames[d, F_NEXT]
        vals[d, j] = ret
        n = frames[d, F_ACTIONS]
        if j + 1 < n:
            frames[d, F_NEXT] = j + 1
            i = _concrete(abst[d], frames[d, F_LEGAL], j + 1, rng)
            _child(states, knows, d, rules, legal[d, i])
            d += 1
            entering = True
            continue
        value = 0.0
        for jj in range(n):
            value += sig[d, jj] * vals[d, jj]
        e = frames[d, F_ENTRY]
        if e >= 0:
            off = own_off[e]
            w = reals[d, R_W]
            for jj in range(n):
                own_regret[off + jj] += np.float32(w * (vals[d, jj] - value))
        ret = value


@jit
def _outcome(seat, epsilon, rules, rng, states, knows, legal, abst, sig, frames, reals,
             scratch, own_slots, own_keys, own_off, own_nact, own_meta, own_regret, own_ssum,
             opp_slots, opp_keys, opp_off, opp_nact, opp_meta, opp_snap):
    """One outcome-sampling episode for `seat` (epsilon-exploration on its own actions,
    stochastically weighted averaging at its own decisions). Returns nodes visited."""
    d = 0
    my_reach = 1.0
    opp_reach = 1.0
    sample_reach = 1.0
    while True:
        state = states[d]
        if state[k.S_PHASE] == k.PH_TERMINAL or d + 1 >= MAX_DEPTH:
            if state[k.S_PHASE] != k.PH_TERMINAL:
                own_meta[M_DEEP] += 1
            break
        cur = k._current_player(state)
        frames[d, F_KIND] = PASS_UP
        if cur == k.CHANCE_PLAYER:
            a = _sample_chance(state, rules, legal[d], sig[d], rng)
            _child(states, knows, d, rules, a)
            d += 1
            continue
        m = k._legal_actions(state, rules, legal[d])
        if cur == seat:
            e, n = _lookup_own(state, rules, knows[d], cur, legal[d], m, scratch, abst[d],
                               own_slots, own_keys, own_off, own_nact, own_meta,
                               own_regret, sig[d])
            if _uniform(rng) < epsilon:
                j = _below(rng, n)
            else:
                j = _pick(sig[d], n, rng)
            q = epsilon / n + (1.0 - epsilon) * sig[d, j]
            frames[d, F_KIND] = EXPAND
            frames[d, F_ENTRY] = e
            frames[d, F_ACTIONS] = n
            frames[d, F_CHOSEN] = j
            reals[d, R_MY] = my_reach
            reals[d, R_OPP] = opp_reach
            reals[d, R_SAMPLE] = sample_reach
            reals[d, R_Q] = q
            my_reach *= sig[d, j]
            sample_reach *= q
        else:
            e, n = _lookup_opponent(state, rules, knows[d], cur, legal[d], m, scratch,
                                    abst[d], own_meta, opp_slots, opp_keys, opp_off,
                                    opp_nact, opp_meta, opp_snap, sig[d])
            j = _pick(sig[d], n, rng)
            opp_reach *= sig[d, j]
            sample_reach *= sig[d, j]
        i = _concrete(abst[d], m, j, rng)
        _child(states, knows, d, rules, legal[d, i])
        d += 1
    visited = d + 1
    value = _payoff(states[d], seat)   # importance-weighted value of the subtree below
    while d > 0:
        d -= 1
        if frames[d, F_KIND] != EXPAND:
            continue
        n = frames[d, F_ACTIONS]
        j = frames[d, F_CHOSEN]
        q = reals[d, R_Q]
        child = value / q
        node_value = sig[d, j] * child
        e = frames[d, F_ENTRY]
        if e >= 0:
            off = own_off[e]
            w = reals[d, R_OPP] / reals[d, R_SAMPLE]
            avg = reals[d, R_MY] / reals[d, R_SAMPLE]
            for jj in range(n):
                action_value = child if jj == j else 0.0
                own_regret[off + jj] += np.float32(w * (action_value - node_value))
                own_ssum[off + jj] += np.float32(avg * sig[d, jj])
        value = node_value
    return visited


@jit
def _run_worker(seat, sampling, iterations, epsilon, expand_p, max_branching, rules, rng,
                own_slots, own_keys, own_off, own_nact, own_meta, own_regret, own_ssum,
                opp_slots, opp_keys, opp_off, opp_nact, opp_meta, opp_snap, opp_ssum):
    """Run `iterations` traversals for `seat`; returns the number of nodes visited."""
    states = np.empty((MAX_DEPTH, k.S_SIZE), dtype=np.int64)
    knows = np.empty((MAX_DEPTH, ab.K_SIZE), dtype=np.int64)
    legal = np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.int64)
    sig = np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.float64)
    vals = np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.float64)
    frames = np.zeros((MAX_DEPTH, F_SIZE), dtype=np.int64)
    reals = np.zeros((MAX_DEPTH, R_SIZE), dtype=np.float64)
    scratch = np.empty((4, k.MAX_LEGAL), dtype=np.int64)
    visited = 0
    for _ in range(iterations):
        states[0, :] = k._initial_state(rules)
        knows[0, :] = ab._initial_knowledge(states[0], rules)
        if sampling == EXTERNAL:
            visited += _external(seat, expand_p, max_branching, epsilon, rules, rng, states,
                                 knows, legal, abst, sig, vals, frames, reals, scratch, own_slots, own_keys, own_off, own_nact,
                                 own_meta, own_regret, opp_slots, opp_keys, opp_off, opp_nact,
                                 opp_meta, opp_snap, opp_ssum)
        else:
            visited += _outcome(seat, epsilon, rules, rng, states, knows, legal, abst, sig,
                                frames, reals, scratch, own_slots, own_keys, own_off,
                                own_nact, own_meta, own_regret, own_ssum, opp_slots, opp_keys,
                                opp_off, opp_nact, opp_meta, opp_snap)
    return visited


@jit
def _normalise_average(offset, nact, ssum, regret, out):
    """Average strategy per entry; the current (regret-matching) one where the average
    has no mass yet."""
    buf = np.empty(ab.MAX_ABSTRACT, dtype=np.float64)
    for e in range(len(offset)):
        off = offset[e]
        n = nact[e]
        total = 0.0
        for j in range(n):
            total += ssum[off + j]
        if total > 0:
            for j in range(n):
                out[off + j] = ssum[off + j] / total
        else:
            _regret_matching(regret, off, n, buf)
            for j in range(n):
                out[off + j] = buf[j]
