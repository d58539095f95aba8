"""Monte Carlo CFR over the two-level information abstraction (numba kernels;
docs/mccfr.md).

One table per seat (the abstraction key includes the seat, so they never share an
entry), passed as a tuple `tables` indexed by seat: two for two players, three or four
beyond (docs/nplayer.md, "Monte Carlo CFR"). Payoffs are the core's: beyond two seats
the winner gets 1 and every other seat -1/(N-1); partners share their team's payoff.
A traversal for seat i gives its average-strategy sums to the next seat's decisions
only, (i + 1) mod N, as OpenSpiel's external sampling does beyond two players; with two
seats that is the opponent's every decision. A batch is cut into chunks per seat (`Chunk`, `_run_chunk`; docs/
mccfr.md, "Workers"): a chunk traversing for seat i reads seat i's table as it was at
the batch start plus its own updates (a private overlay: copies of the entries it
touched, the entries it created) and the other seat's policy from the snapshot taken at
the batch start (only entries that existed then are visible across seats); it writes
only its overlay, seat i's regrets, visits and new entries, and the average-strategy
sums it gives the other seat. After every chunk has run, `_merge_mine` and
`_merge_theirs` add the overlays to the tables in chunk order. No chunk reads another's
writes and the merge order is fixed, so the tables are the same whatever the number of
threads that ran the chunks: runs are reproducible from a seed, and resume is exact.
One chunk per seat draws and writes exactly what one worker per seat writing the tables
directly did (`_run_worker`, `direct`; the exploiter still trains that way).

Each decision has a coarse entry and, once that has `CFG_FINE_VISITS` updates, a fine
entry (solver.mccfr._abstraction). Both are updated with the same action values; the policy
a seat plays is the fine entry's once it has `CFG_FINE_VISITS` updates of its own
("ready"), the coarse entry's before that. With CFG_COARSE_LETTERS the coarse entry acts
on the phase's letters (`Letters`): its policy is spread over the abstract actions
(`_spread`) and its regrets are per letter (`_update_letters`).

The traversal ("probe-sampled external sampling"): chance and the opponent are
sampled; at a traverser decision every action gets a value estimate and a regret
update. While the product of the branchings expanded above stays within
`CFG_MAX_BRANCHING`, every action is expanded recursively (external sampling);
beyond, one action is followed (drawn from the current policy mixed with
`CFG_EXPLORATION` uniform) and every other action is valued by one *probe*: a single
playout where both seats play their current policies (Gibson et al. 2012, "Generalized
sampling and variance in counterfactual regret minimization"). Traverser moves are
never importance-weighted: a visit's updates count 1 whatever led there (the weights
that compound along a path are what swamped earlier runs; docs/mccfr.md discusses the
bias this accepts). Actions whose regret is below `CFG_PRUNE_BELOW` and that every
level plays with probability 0 are skipped with probability `CFG_PRUNE_PROBABILITY`
(regret-based pruning, as in Pluribus).

League opponents (`CFG_LEAGUE_SHARE` > 0, a non-empty `League`): that share of
traversals draws one league player or baseline bot (solver.scripted) who plays every
decision of every other seat of the traversal (copies of it at three or four players),
probes included, instead of their tables; in team mode it plays the other team's two
seats and the traverser's partner plays its own table (`_league_seat`), as it will in
play. The traverser's regrets then answer a mixture of the tables and the league; the
other seats' average strategies get nothing from those traversals (the partner is never
the seat a traversal averages, and the league's moves are not their own).

Locked decisions (`LockRules` of solver.decisions, empty for none): a decision a lock
selects is played with the lock's probabilities wherever it occurs, for either seat, and
never enters a table: the traverser's regrets answer the locked play, as an exact
locked solve turns those decisions into chance nodes (solver.locks.exact).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from solver.decisions import kernels as dk
from solver.mccfr import _abstraction as ab
from solver.knowledge.kernels import sure_win as _sure_win
from solver.scripted import kernels as lg

# ----- a seat's table --------------------------------------------------------------------
Table = namedtuple("Table", ["slots", "keys", "level", "offset", "nact", "visits", "ready",
                             "regret", "ssum", "snap", "meta"])
"""slots[cap]  open addressing (linear probing), entry index or -1; cap a power of 2
keys[E]      abstraction key of each entry
level[E]     ab.FINE or ab.COARSE (int8)
offset[E]    first action slot of each entry
nact[E]      number of abstract actions
visits[E]    regret updates so far
ready[E]     1 if the entry had CFG_FINE_VISITS updates at the batch start (int8)
regret[A]    cumulative regrets (float64)
ssum[A]      cumulative average-strategy weights (float64)
snap[A]      regret-matching strategy at the batch start (float32)
meta[M_SIZE] counters (M_*)"""

M_ENTRIES = 0     # entries in use
M_USED = 1        # action slots in use
M_FROZEN = 2      # entries visible to the other worker this batch
M_OVERFLOW = 3    # inserts refused because the table was full
M_MISMATCH = 4    # lookups whose action count disagreed with the entry (must stay 0)
M_DEEP = 5        # traversals cut at the depth limit (must stay 0)
M_SLOT_CAPACITY = 6   # length of regret/ssum/snap (set by the owner of the arrays)
M_PRUNED = 7      # actions skipped by regret-based pruning
M_PROBES = 8      # probe playouts
M_SIZE = 10

# ----- run settings: one float64 array (solver.mccfr.MCCFRConfig.settings_array) ----------
CFG_EXPLORATION = 0       # uniform share of the followed action at a probe decision
CFG_MAX_BRANCHING = 1     # expand every action while the expanded branchings multiply to <=
CFG_PRUNE_BELOW = 2       # regret below which a zero-probability action may be skipped
CFG_PRUNE_PROBABILITY = 3
CFG_FINE_VISITS = 4       # updates after which a fine entry is played (< 0: coarse only)
CFG_OWN_AVERAGE = 5       # 1: average strategy at the traverser's own decisions, weighted
                          # by its reach (exploiters: the fixed side learns nothing);
                          # 0: at the opponent's decisions (external sampling's rule)
CFG_SURE_WINS = 6         # 1: every seat takes a sure win (solver.knowledge._sure_win) by rule
CFG_LEAGUE_SHARE = 7      # share of traversals whose opponent is a league player (League)
CFG_COARSE_LETTERS = 8    # 1: coarse entries act on the phase's letters (docs/abstraction.md)
CFG_SHARED_WORLD = 9      # 1: a traversal deals its hidden cards at its start, so all
#                           its action values face one world (_deal_world, _run_worker)
CFG_FINE_CLASSES = 10    # 1 (with letters): a position decision's fine key is its
#                           class-set key (docs/abstraction.md, "Fine key on classes")
CFG_SIZE = 11

# ----- league opponents in training ---------------------------------------------------
League = namedtuple("League", ["kinds", "params"])
"""The league players a traversal may meet instead of the opponent's table
(CFG_LEAGUE_SHARE of traversals, one player drawn uniformly for the whole traversal).
kinds[L]      solver.scripted kinds (int64); L = 0: always the table
params[L, P]  each player's parameter row (solver.scripted.default_params)"""

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
def _find_frozen(table, key):
    """Entry of `key` if it existed at the batch start, else -1 (safe while the owner
    inserts: an entry present then is reached through slots all filled before)."""
    frozen = table.meta[M_FROZEN]
    slots = table.slots
    mask = len(slots) - 1
    h = key & mask
    while True:
        e = slots[h]
        if e < 0 or e >= frozen:
            return -1
        if table.keys[e] == key:
            return e
        h = (h + 1) & mask


@jit
def _find_or_insert(table, key, n, level):
    """Entry of `key`, inserted with n actions if new; -1 if the table is full."""
    slots = table.slots
    meta = table.meta
    mask = len(slots) - 1
    h = key & mask
    while True:
        e = slots[h]
        if e < 0:
            break
        if table.keys[e] == key:
            return e
        h = (h + 1) & mask
    e = meta[M_ENTRIES]
    if (e >= len(table.keys) or meta[M_USED] + n > meta[M_SLOT_CAPACITY]
            or 2 * (e + 1) > len(slots)):
        meta[M_OVERFLOW] += 1
        return -1
    table.keys[e] = key
    table.level[e] = level
    table.offset[e] = meta[M_USED]
    table.nact[e] = n
    table.visits[e] = 0
    table.ready[e] = 0
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
def _refresh_snapshot(table, fine_visits):
    """Freeze the entries present now, store their regret-matching strategy and whether
    they are ready to be played (fine entries with at least `fine_visits` updates)."""
    entries = table.meta[M_ENTRIES]
    buf = np.empty(ab.MAX_ABSTRACT, dtype=np.float64)
    for e in range(entries):
        off = table.offset[e]
        n = table.nact[e]
        _regret_matching(table.regret, off, n, buf)
        for j in range(n):
            table.snap[off + j] = buf[j]
        table.ready[e] = 1 if fine_visits >= 0 and table.visits[e] >= fine_visits else 0
    table.meta[M_FROZEN] = entries


@jit
def _discount(table, positive, negative, average):
    used = table.meta[M_USED]
    regret = table.regret
    ssum = table.ssum
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


# ----- chunks: a batch cut into work units whose results do not depend on the workers ------
Chunk = namedtuple("Chunk", ["mine", "theirs", "origin", "start_visits", "start", "counts"])
"""One work unit of a batch (docs/mccfr.md, "Workers"): a private overlay of the tables,
so that chunks can run on any number of threads and their updates be merged in chunk
order afterwards (_merge_mine, _merge_theirs) into the same tables.
mine            a Table of the traverser's entries this chunk touched: copies of the
                shared entries (regrets, visits) made on first touch and entries it
                created; its policy reads them, so a chunk sees its own updates and
                nothing of the other chunks' (the shared table stays as at the batch start)
theirs          a Table keyed by the opponent's entry index: the average-strategy sums
                this chunk adds to the opponent's entries (its ssum), with nact, offset
origin[E]       shared entry of each of mine's entries, -1 for one created by the chunk
start_visits[E] visits of the shared entry when copied (0 for created entries)
start[A]        mine's regrets when copied (0 for created entries): the merge adds
                regret - start
counts[C_SIZE]  C_* below"""
C_NEW_ENTRIES = 0   # entries this chunk created (they must fit in the shared table)
C_NEW_ACTIONS = 1   # their action slots
C_FIRST = 2         # 1 for a seat's first chunk: it starts from the shared values and is
#                     merged by copying them back (bit-identical to one worker per seat)
C_SIZE = 3


@jit
def _mine(own, chunk, direct):
    """The table a traversal writes its own entries to: `own` itself (direct, one
    worker per seat) or the chunk's overlay."""
    return own if direct else chunk.mine


@jit
def _append(table, key, n, level):
    """Insert `key` (absent) with n actions into an overlay table; returns its entry, or
    -1 (counted in M_OVERFLOW) if the overlay is full. Regrets are not cleared: the
    caller fills them."""
    slots = table.slots
    meta = table.meta
    mask = len(slots) - 1
    h = key & mask
    while slots[h] >= 0:
        h = (h + 1) & mask
    e = meta[M_ENTRIES]
    if (e >= len(table.keys) or meta[M_USED] + n > meta[M_SLOT_CAPACITY]
            or 2 * (e + 1) > len(slots)):
        meta[M_OVERFLOW] += 1
        return -1
    table.keys[e] = key
    table.level[e] = level
    table.offset[e] = meta[M_USED]
    table.nact[e] = n
    table.visits[e] = 0
    meta[M_USED] += n
    meta[M_ENTRIES] = e + 1
    slots[h] = e
    return e


@jit
def _fits(own, counts, n):
    """Would a new entry of n actions still fit in the shared table after the ones this
    chunk created (the check `_find_or_insert` makes)?"""
    e = own.meta[M_ENTRIES] + counts[C_NEW_ENTRIES]
    return not (e >= len(own.keys)
                or own.meta[M_USED] + counts[C_NEW_ACTIONS] + n > own.meta[M_SLOT_CAPACITY]
                or 2 * (e + 1) > len(own.slots))


@jit
def _touch(own, chunk, direct, key, n, level, create):
    """Entry of `key` in _mine(own, chunk, direct), ready to be updated: found there,
    else copied from the shared table, else created with n actions when `create`;
    -1 if none (or no room)."""
    if direct:
        if create:
            return _find_or_insert(own, key, n, level)
        return _find(own.slots, own.keys, key)
    mine = chunk.mine
    o = _find(mine.slots, mine.keys, key)
    if o >= 0:
        return o
    b = _find(own.slots, own.keys, key)
    if b < 0:
        if not create:
            return -1
        if not _fits(own, chunk.counts, n):
            mine.meta[M_OVERFLOW] += 1
            return -1
        o = _append(mine, key, n, level)
        if o < 0:
            return -1
        off = mine.offset[o]
        for j in range(n):
            mine.regret[off + j] = 0.0
            chunk.start[off + j] = 0.0
        chunk.origin[o] = -1
        chunk.start_visits[o] = 0
        chunk.counts[C_NEW_ENTRIES] += 1
        chunk.counts[C_NEW_ACTIONS] += n
        return o
    m = own.nact[b]
    o = _append(mine, key, m, own.level[b])
    if o < 0:
        return -1
    off = mine.offset[o]
    src = own.offset[b]
    for j in range(m):
        mine.regret[off + j] = own.regret[src + j]
        chunk.start[off + j] = own.regret[src + j]
    mine.visits[o] = own.visits[b]
    chunk.origin[o] = b
    chunk.start_visits[o] = own.visits[b]
    return o


@jit
def _peek(own, chunk, direct, key):
    """(table, entry) holding `key`'s current values for a read (a probe): the chunk's
    copy if it has one, else the shared entry; entry -1 if none."""
    if not direct:
        o = _find(chunk.mine.slots, chunk.mine.keys, key)
        if o >= 0:
            return chunk.mine, o
    return own, _find(own.slots, own.keys, key)


@jit
def _their_sum(opp, chunk, direct, e):
    """(array, offset) where the average-strategy sums of the opponent's entry e go:
    the opponent's table itself (direct) or the chunk's `theirs`; offset -1 if the
    chunk has no room."""
    if direct:
        return opp.ssum, opp.offset[e]
    theirs = chunk.theirs
    o = _find(theirs.slots, theirs.keys, e)
    if o < 0:
        n = opp.nact[e]
        o = _append(theirs, e, n, opp.level[e])
        if o < 0:
            return theirs.ssum, -1
        off = theirs.offset[o]
        src = opp.offset[e]
        first = chunk.counts[C_FIRST] > 0
        for j in range(n):
            theirs.ssum[off + j] = opp.ssum[src + j] if first else 0.0
    return theirs.ssum, theirs.offset[o]


@jit
def _clear_chunk(chunk, first):
    """Empty a chunk for a new batch (`first`: the seat's first chunk)."""
    for t in (chunk.mine, chunk.theirs):
        t.slots[:] = -1
        t.meta[M_ENTRIES] = 0
        t.meta[M_USED] = 0
        for i in (M_OVERFLOW, M_MISMATCH, M_DEEP, M_PRUNED, M_PROBES):
            t.meta[i] = 0
    chunk.counts[:] = 0
    chunk.counts[C_FIRST] = 1 if first else 0


@jit
def _crowded(table):
    """More than half of an overlay used: grow it before the next traversal (one
    traversal touches far fewer entries than the half left)."""
    return (2 * table.meta[M_ENTRIES] > len(table.keys)
            or 2 * table.meta[M_USED] > table.meta[M_SLOT_CAPACITY])



@jit
def _merge_mine(own, chunk):
    """Add a chunk's regrets, visits, new entries and counters to the traverser's
    table, in the chunk's entry order (its first touches: so new entries are inserted
    in the order a single worker would have created them). A seat's first chunk copies
    its values (it started from the shared ones), the others add their differences."""
    mine = chunk.mine
    first = chunk.counts[C_FIRST] > 0
    for o in range(mine.meta[M_ENTRIES]):
        n = mine.nact[o]
        b = chunk.origin[o]
        if b < 0:
            b = _find_or_insert(own, mine.keys[o], n, mine.level[o])
            if b < 0:
                continue
            if own.nact[b] != n:
                own.meta[M_MISMATCH] += 1
                continue
        src = mine.offset[o]
        dst = own.offset[b]
        if first:
            for j in range(n):
                own.regret[dst + j] = mine.regret[src + j]
            own.visits[b] = mine.visits[o]
        else:
            for j in range(n):
                own.regret[dst + j] += mine.regret[src + j] - chunk.start[src + j]
            own.visits[b] += mine.visits[o] - chunk.start_visits[o]
    for i in (M_OVERFLOW, M_MISMATCH, M_DEEP, M_PRUNED, M_PROBES):
        own.meta[i] += mine.meta[i] + chunk.theirs.meta[i]


@jit
def _merge_theirs(table, chunk):
    """Add the average-strategy sums a chunk of the other seat gave this table's
    entries (copied back for that seat's first chunk, added for the others)."""
    theirs = chunk.theirs
    first = chunk.counts[C_FIRST] > 0
    for o in range(theirs.meta[M_ENTRIES]):
        e = theirs.keys[o]
        src = theirs.offset[o]
        dst = table.offset[e]
        if first:
            for j in range(theirs.nact[o]):
                table.ssum[dst + j] = theirs.ssum[src + j]
        else:
            for j in range(theirs.nact[o]):
                table.ssum[dst + j] += theirs.ssum[src + j]


# ----- policies ---------------------------------------------------------------------------
Letters = namedtuple("Letters", ["width", "letter_of", "size", "buf"])
"""A decision's coarse actions when they are letters (CFG_COARSE_LETTERS): the
alphabet's size, the letter of each abstract action and its number of legal actions
(ab._decision_keys' scratch rows 5 and 6), and a float64 buffer of 2 * ab.MAX_ABSTRACT."""


@jit
def _spread(weights, off, positive, letters, n, out):
    """A coarse entry's policy over the n abstract actions from its per-letter weights
    weights[off:off + width] (regrets when `positive`: their positive parts; else
    probabilities): renormalised over the letters present (uniform over them where none
    has weight), then each letter's share split among its abstract actions by their
    numbers of legal actions, so that every legal action of a letter is equally
    likely. off < 0: no entry (uniform over the letters present)."""
    buf = letters.buf
    width = letters.width
    for ell in range(width):
        buf[ell] = -1.0                       # absent
    for j in range(n):
        buf[letters.letter_of[j]] = 0.0
    total = 0.0
    present = 0
    for ell in range(width):
        if buf[ell] < 0:
            continue
        present += 1
        w = 0.0
        if off >= 0:
            w = weights[off + ell]
            if positive and w < 0:
                w = 0.0
        buf[ell] = w
        total += w
    # each present letter's probability, then divided by its legal actions
    members = letters.buf[ab.MAX_ABSTRACT:]
    for ell in range(width):
        members[ell] = 0.0
    for j in range(n):
        members[letters.letter_of[j]] += letters.size[j]
    for j in range(n):
        ell = letters.letter_of[j]
        p = buf[ell] / total if total > 0 else 1.0 / present
        out[j] = p * letters.size[j] / members[ell]


@jit
def _own_policy(own, chunk, direct, cfg, fine_key, coarse_key, n, letters, insert, sig,
                sig_c, sig_f):
    """The traverser's current policies at a decision: coarse (sig_c), fine (sig_f) and
    the one it plays (sig), over the abstract actions. When `insert`, the entries are
    touched (`_touch`: created, or copied into the chunk) so that they can be updated;
    else only read (`_peek`). `letters`: the decision's letters when CFG_COARSE_LETTERS
    (the coarse entry then has letters.width actions), else unused. Returns (fine
    entry, coarse entry) in `_mine(own, chunk, direct)` (meaningful when `insert`), -1
    where there is none."""
    by_letter = cfg[CFG_COARSE_LETTERS] > 0
    width = letters.width if by_letter else n
    mine = _mine(own, chunk, direct)
    tc = mine
    if insert:
        ec = _touch(own, chunk, direct, coarse_key, width, ab.COARSE, True)
    else:
        tc, ec = _peek(own, chunk, direct, coarse_key)
    if ec >= 0 and tc.nact[ec] != width:
        mine.meta[M_MISMATCH] += 1
        ec = -1
    ef = -1
    tf = mine
    if cfg[CFG_FINE_VISITS] >= 0:
        # a fine entry is created only once its coarse entry is trained: the fine level
        # refines the situations met often enough to learn them separately
        if insert:
            create = ec >= 0 and mine.visits[ec] >= cfg[CFG_FINE_VISITS]
            ef = _touch(own, chunk, direct, fine_key, n, ab.FINE, create)
        else:
            tf, ef = _peek(own, chunk, direct, fine_key)
        if ef >= 0 and tf.nact[ef] != n:
            mine.meta[M_MISMATCH] += 1
            ef = -1
    if by_letter:
        _spread(tc.regret, tc.offset[ec] if ec >= 0 else -1, True, letters, n, sig_c)
    elif ec >= 0:
        _regret_matching(tc.regret, tc.offset[ec], n, sig_c)
    else:
        for j in range(n):
            sig_c[j] = 1.0 / n
    if ef >= 0:
        _regret_matching(tf.regret, tf.offset[ef], n, sig_f)
    else:
        for j in range(n):
            sig_f[j] = sig_c[j]
    use_fine = ef >= 0 and tf.visits[ef] >= cfg[CFG_FINE_VISITS]
    for j in range(n):
        sig[j] = sig_f[j] if use_fine else sig_c[j]
    return ef, ec


@jit
def _opponent_policy(table, cfg, fine_key, coarse_key, n, letters, sig, sig_c, sig_f,
                     counters):
    """The opponent's snapshot policies (entries present at the batch start only);
    returns (fine entry, coarse entry)."""
    by_letter = cfg[CFG_COARSE_LETTERS] > 0
    width = letters.width if by_letter else n
    ec = _find_frozen(table, coarse_key)
    if ec >= 0 and table.nact[ec] != width:
        counters[M_MISMATCH] += 1
        ec = -1
    ef = _find_frozen(table, fine_key)
    if ef >= 0 and table.nact[ef] != n:
        counters[M_MISMATCH] += 1
        ef = -1
    if by_letter:
        # the snapshot is regret matching over the whole alphabet: renormalised over
        # the letters present, it is regret matching over them
        _spread(table.snap, table.offset[ec] if ec >= 0 else -1, False, letters, n, sig_c)
    elif ec >= 0:
        off = table.offset[ec]
        for j in range(n):
            sig_c[j] = table.snap[off + j]
    else:
        for j in range(n):
            sig_c[j] = 1.0 / n
    if ef >= 0:
        off = table.offset[ef]
        for j in range(n):
            sig_f[j] = table.snap[off + j]
    else:
        for j in range(n):
            sig_f[j] = sig_c[j]
    use_fine = ef >= 0 and table.ready[ef] == 1
    for j in range(n):
        sig[j] = sig_f[j] if use_fine else sig_c[j]
    return ef, ec


# ----- one worker -------------------------------------------------------------------------
@jit
def _payoff(state, rules, seat):
    """`seat`'s payoff at a terminal state (the core's returns: docs/rules.md,
    "Payoffs"): a win 1; a loss -1, or -1/(N-1) beyond two seats; a draw 0; a team's
    two seats get the same."""
    w = state[k.S_WINNER]
    if w < 0:
        return 0.0
    if rules[k.R_TEAMS]:
        return 1.0 if w % 2 == seat % 2 else -1.0
    if w == seat:
        return 1.0
    return -1.0 / (rules[k.R_PLAYERS] - 1)


@jit
def _league_seat(rules, cur, seat):
    """Whether a league opponent plays `cur`'s decisions in a traversal for `seat`: every
    other seat's, except a team's partner (the opposite seat), who is the traverser's
    own side and plays its own table, as it will beside the trained seat in play."""
    if cur == seat:
        return False
    return not (rules[k.R_TEAMS] and cur % 2 == seat % 2)


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
def _sample_chance(state, rules, legal, chance_p, rng):
    c = k.chance_outcomes(state, rules, legal, chance_p)
    return legal[_pick(chance_p, c, rng)]


Workspace = namedtuple("Workspace", ["states", "knows", "legal", "abst", "sig", "sig_c",
                                     "sig_f", "vals", "frames", "reach", "scratch",
                                     "probe_state", "probe_know", "probe_before",
                                     "letter_of", "size", "letter_buf", "world",
                                     "deal_buf"])


@jit
def _workspace():
    """Per-depth buffers of one worker's traversals."""
    return Workspace(np.empty((MAX_DEPTH, k.S_SIZE), dtype=np.int64),
                     np.empty((MAX_DEPTH, ab.K_SIZE), dtype=np.int64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.int64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.int64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.float64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.float64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.float64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.float64),
                     np.zeros((MAX_DEPTH, F_SIZE), dtype=np.int64),
                     np.ones(MAX_DEPTH, dtype=np.float64),
                     np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64),
                     np.empty(k.S_SIZE, dtype=np.int64),
                     np.empty(ab.K_SIZE, dtype=np.int64),
                     np.empty(k.S_SIZE, dtype=np.int64),
                     np.zeros((MAX_DEPTH, k.MAX_LEGAL), dtype=np.int64),
                     np.ones((MAX_DEPTH, k.MAX_LEGAL), dtype=np.int64),
                     np.empty(2 * ab.MAX_ABSTRACT, dtype=np.float64),
                     np.empty(k.S_SIZE, dtype=np.int64),
                     np.empty(2 * k.MAX_POSITIONS, dtype=np.int64))


@jit
def _keys(ws, d, cfg, state, rules, know, cur, legal, m, abst):
    """The decision's keys (fine, coarse, abstract actions) and its Letters, whose
    per-action rows are kept at depth d (the update on the way back reads them)."""
    fk, ck, n, width = ab._decision_keys(state, rules, know, cur, legal, m, ws.scratch,
                                         abst, cfg[CFG_COARSE_LETTERS] > 0,
                                         cfg[CFG_FINE_CLASSES] > 0)
    for j in range(n):
        ws.letter_of[d, j] = ws.scratch[5, j]
        ws.size[d, j] = ws.scratch[6, j]
    return fk, ck, n, Letters(width, ws.letter_of[d], ws.size[d], ws.letter_buf)


@jit
def _child(ws, d, rules, action):
    ws.states[d + 1, :] = ws.states[d]
    k.apply_action(ws.states[d + 1], rules, action)
    ws.knows[d + 1, :] = ws.knows[d]
    ab._observe(ws.knows[d + 1], ws.states[d], action, ws.states[d + 1], rules)


# per-depth bookkeeping of the iterative traversal (F_* columns of ws.frames)
F_KIND = 0        # PASS_UP, EXPAND or PROBE
F_NEXT = 1        # next abstract action to expand (EXPAND)
F_ACTIONS = 2     # number of abstract actions
F_LEGAL = 3       # number of legal actions
F_FINE = 4        # fine entry, -1 if none
F_COARSE = 5      # coarse entry, -1 if none
F_CHOSEN = 6      # the action followed (PROBE)
F_BRANCH = 7      # product of the traverser's expanded branchings above this depth
F_WIDTH = 8       # number of coarse actions (letters, or the abstract actions)
F_SIZE = 9
PASS_UP = 0       # chance or opponent: the child's value passes up unchanged
EXPAND = 1        # traverser, every action expanded
PROBE = 2         # traverser, one action followed, the others probed


@jit
def _deal_world(world, state, rules, buf, rng):
    """world := state with every card nobody has drawn yet dealt now: the undealt pool
    (S_POOL) shuffled uniformly onto the undealt positions. That is the distribution
    the lazy deal draws from one card at a time (positions are exchangeable), so a
    playout from `world` has the law of one from `state`; the values of actions
    estimated from one world face the same hidden cards, so their differences (the
    regrets) carry less noise.
    Returns the number of cards dealt (-1, world untouched, if pool and positions
    disagree)."""
    world[:] = state
    n = rules[k.R_N]
    free = 0
    for p in range(n):
        if world[k.S_CARD + p] == k.UNDEALT:
            buf[free] = p
            free += 1
    cards = 0
    for c in range(k.NUM_CHARACTERS):
        for _ in range(world[k.S_POOL + c]):
            if cards < free:
                buf[k.MAX_POSITIONS + cards] = c
            cards += 1
    if cards != free:
        return -1
    for i in range(free - 1, 0, -1):   # Fisher-Yates
        j = _below(rng, i + 1)
        t = buf[k.MAX_POSITIONS + i]
        buf[k.MAX_POSITIONS + i] = buf[k.MAX_POSITIONS + j]
        buf[k.MAX_POSITIONS + j] = t
    for i in range(free):
        c = buf[k.MAX_POSITIONS + i]
        world[k.S_CARD + buf[i]] = c
        world[k.S_POOL + c] -= 1
    return free


@jit
def _probe(seat, tables, cfg, rules, rng, ws, d, action, league, foe, chunk, direct,
           locks):
    """One playout after `action` at depth d, both seats on their current policies
    (the opponent's is league player `foe` when foe >= 0; no inserts); returns its
    payoff for `seat` and counts its nodes in ws.frames. Own policies are read through
    the chunk (`_peek`)."""
    own = tables[seat]
    mine = _mine(own, chunk, direct)
    state = ws.probe_state
    know = ws.probe_know
    before = ws.probe_before
    state[:] = ws.states[d]
    know[:] = ws.knows[d]
    k.apply_action(state, rules, action)
    ab._observe(know, ws.states[d], action, state, rules)
    legal = ws.legal[MAX_DEPTH - 1]
    abst = ws.abst[MAX_DEPTH - 1]
    sig = ws.sig[MAX_DEPTH - 1]
    sig_c = ws.sig_c[MAX_DEPTH - 1]
    sig_f = ws.sig_f[MAX_DEPTH - 1]
    nodes = 1
    while state[k.S_PHASE] != k.PH_TERMINAL:
        nodes += 1
        if nodes > MAX_DEPTH:
            mine.meta[M_DEEP] += 1
            break
        cur = k.current_player(state)
        if cur == k.CHANCE_PLAYER:
            a = _sample_chance(state, rules, legal, sig, rng)
        else:
            m = k.legal_actions(state, rules, legal)
            w = _sure_win(state, rules, know, cur, legal, m) if cfg[CFG_SURE_WINS] > 0 else -1
            if _locked(locks, state, rules, know, cur, legal, m, sig):
                a = legal[_pick(sig, m, rng)]
            elif w >= 0:
                a = legal[w]
            elif foe >= 0 and _league_seat(rules, cur, seat):
                a = legal[_league_move(league, foe, state, rules, know, cur, legal, m, sig,
                                       rng)]
            else:
                fk, ck, n, letters = _keys(ws, MAX_DEPTH - 1, cfg, state, rules, know,
                                           cur, legal, m, abst)
                if cur == seat:
                    _own_policy(own, chunk, direct, cfg, fk, ck, n, letters, False, sig,
                                sig_c, sig_f)
                else:
                    _opponent_policy(tables[cur], cfg, fk, ck, n, letters, sig, sig_c,
                                     sig_f, mine.meta)
                j = _pick(sig, n, rng)
                a = legal[_concrete(abst, m, j, rng)]
        before[:] = state
        k.apply_action(state, rules, a)
        ab._observe(know, before, a, state, rules)
    mine.meta[M_PROBES] += 1
    ws.frames[MAX_DEPTH - 1, 0] += nodes
    return _payoff(state, rules, seat)


@jit
def _prunable(cfg, regret, off, slot, j, sig, sig_c, sig_f, rng):
    """Skip abstract action j (whose regret is regret[off + slot]) this time? Only
    actions every level plays with probability 0."""
    if regret[off + slot] >= cfg[CFG_PRUNE_BELOW]:
        return False
    if sig[j] > 0 or sig_c[j] > 0 or sig_f[j] > 0:
        return False
    return _uniform(rng) < cfg[CFG_PRUNE_PROBABILITY]


@jit
def _update(table, e, n, vals, level_sig):
    """Regrets of entry e from the action values (NaN: pruned, no update)."""
    if e < 0:
        return
    value = 0.0
    for j in range(n):
        if not np.isnan(vals[j]):
            value += level_sig[j] * vals[j]
    off = table.offset[e]
    for j in range(n):
        if not np.isnan(vals[j]):
            table.regret[off + j] += vals[j] - value
    table.visits[e] += 1


@jit
def _update_letters(table, e, n, vals, level_sig, letters):
    """Regrets of coarse entry e, per letter: a letter's value is the mean of its
    abstract actions' values weighted by their numbers of legal actions (how the
    letter's probability is spread); letters absent or pruned get no update."""
    if e < 0:
        return
    value = 0.0
    for j in range(n):
        if not np.isnan(vals[j]):
            value += level_sig[j] * vals[j]
    acc = letters.buf
    weight = letters.buf[ab.MAX_ABSTRACT:]
    for ell in range(letters.width):
        acc[ell] = 0.0
        weight[ell] = 0.0
    for j in range(n):
        if not np.isnan(vals[j]):
            ell = letters.letter_of[j]
            acc[ell] += letters.size[j] * vals[j]
            weight[ell] += letters.size[j]
    off = table.offset[e]
    for ell in range(letters.width):
        if weight[ell] > 0:
            table.regret[off + ell] += acc[ell] / weight[ell] - value
    table.visits[e] += 1


@jit
def _traverse(seat, tables, cfg, rules, rng, ws, league, foe, chunk, direct, locks):
    """One traversal for `seat` from ws.states[0]/ws.knows[0] (the module docstring
    says how it samples), against the other seats' tables, or against league player
    `foe` (an index into `league`) when foe >= 0. Iterative (an explicit stack of depths).
    Writes go to the tables themselves when `direct` (one worker per seat), else to
    `chunk` (merged after the batch). Returns the number of nodes visited, probes
    included."""
    own = tables[seat]
    mine = _mine(own, chunk, direct)
    averaged = (seat + 1) % rules[k.R_PLAYERS]   # the seat whose average sums it gives
    d = 0
    entering = True
    ret = 0.0
    visited = 0
    frames = ws.frames
    frames[0, F_BRANCH] = 1
    frames[MAX_DEPTH - 1, 0] = 0
    max_branching = cfg[CFG_MAX_BRANCHING]
    own_average = cfg[CFG_OWN_AVERAGE] > 0
    reach = ws.reach
    reach[0] = 1.0
    while True:
        if entering:
            visited += 1
            state = ws.states[d]
            if state[k.S_PHASE] == k.PH_TERMINAL:
                ret = _payoff(state, rules, seat)
                entering = False
                continue
            if d + 2 >= MAX_DEPTH:
                mine.meta[M_DEEP] += 1
                ret = 0.0
                entering = False
                continue
            cur = k.current_player(state)
            frames[d, F_KIND] = PASS_UP
            frames[d + 1, F_BRANCH] = frames[d, F_BRANCH]
            reach[d + 1] = reach[d]
            if cur == k.CHANCE_PLAYER:
                a = _sample_chance(state, rules, ws.legal[d], ws.sig[d], rng)
                _child(ws, d, rules, a)
                d += 1
                continue
            legal = ws.legal[d]
            abst = ws.abst[d]
            m = k.legal_actions(state, rules, legal)
            frames[d, F_LEGAL] = m
            if _locked(locks, state, rules, ws.knows[d], cur, legal, m, ws.sig[d]):
                # a locked decision (either seat's): played as locked, nothing learned
                _child(ws, d, rules, legal[_pick(ws.sig[d], m, rng)])
                d += 1
                continue
            if cfg[CFG_SURE_WINS] > 0:
                w = _sure_win(state, rules, ws.knows[d], cur, legal, m)
                if w >= 0:   # the mover wins whatever follows: played, not learned
                    _child(ws, d, rules, legal[w])
                    d += 1
                    continue
            if foe >= 0 and _league_seat(rules, cur, seat):
                # a league opponent: played, nothing learned
                j = _league_move(league, foe, state, rules, ws.knows[d], cur, legal, m,
                                 ws.sig[d], rng)
                _child(ws, d, rules, legal[j])
                d += 1
                continue
            fk, ck, n, letters = _keys(ws, d, cfg, state, rules, ws.knows[d], cur, legal, m,
                                       abst)
            frames[d, F_ACTIONS] = n
            frames[d, F_WIDTH] = letters.width
            sig = ws.sig[d]
            sig_c = ws.sig_c[d]
            sig_f = ws.sig_f[d]
            if cur != seat:
                opp = tables[cur]
                ef, ec = _opponent_policy(opp, cfg, fk, ck, n, letters, sig, sig_c, sig_f,
                                          mine.meta)
                # external sampling: the opponent's average strategy, at its own level
                if own_average or cur != averaged:
                    ec = -1
                    ef = -1
                if ec >= 0:
                    total, off = _their_sum(opp, chunk, direct, ec)
                    if off >= 0:
                        for j in range(n):
                            total[off + letters.letter_of[j]] += sig_c[j]
                if ef >= 0:
                    total, off = _their_sum(opp, chunk, direct, ef)
                    if off >= 0:
                        for j in range(n):
                            total[off + j] += sig_f[j]
                j = _pick(sig, n, rng)
                _child(ws, d, rules, legal[_concrete(abst, m, j, rng)])
                d += 1
                continue
            ef, ec = _own_policy(own, chunk, direct, cfg, fk, ck, n, letters, True, sig,
                                 sig_c, sig_f)
            frames[d, F_FINE] = ef
            frames[d, F_COARSE] = ec
            if own_average:
                # own reach: expanded decisions multiply it, followed ones are sampled
                # on-policy (their frequency carries it)
                w = reach[d]
                if ec >= 0:
                    off = mine.offset[ec]
                    for j in range(n):
                        mine.ssum[off + letters.letter_of[j]] += w * sig_c[j]
                if ef >= 0:
                    off = mine.offset[ef]
                    for j in range(n):
                        mine.ssum[off + j] += w * sig_f[j]
            # regret of the played level decides pruning
            played = ef if (ef >= 0 and mine.visits[ef] >= cfg[CFG_FINE_VISITS]) else ec
            vals = ws.vals[d]
            for j in range(n):
                vals[j] = 0.0
                slot = letters.letter_of[j] if played == ec else j
                if played >= 0 and _prunable(cfg, mine.regret, mine.offset[played], slot, j,
                                             sig, sig_c, sig_f, rng):
                    vals[j] = np.nan
                    mine.meta[M_PRUNED] += 1
            if frames[d, F_BRANCH] * n <= max_branching:
                frames[d, F_KIND] = EXPAND
                frames[d + 1, F_BRANCH] = frames[d, F_BRANCH] * n
                j = 0
                while np.isnan(vals[j]):
                    j += 1
                frames[d, F_NEXT] = j
                reach[d + 1] = reach[d] * sig[j]
            else:
                frames[d, F_KIND] = PROBE
                # the action followed: current policy mixed with uniform exploration
                eps = cfg[CFG_EXPLORATION]
                if _uniform(rng) < eps:
                    j = _below(rng, n)
                    while np.isnan(vals[j]):
                        j = _below(rng, n)
                else:
                    j = _pick(sig, n, rng)
                frames[d, F_CHOSEN] = j
                for jj in range(n):
                    if jj != j and not np.isnan(vals[jj]):
                        vals[jj] = _probe(seat, tables, cfg, rules, rng, ws, d,
                                          legal[_concrete(abst, m, jj, rng)], league, foe,
                                          chunk, direct, locks)
            _child(ws, d, rules, legal[_concrete(abst, m, j, rng)])
            d += 1
            continue
        # returning `ret` to depth d - 1
        if d == 0:
            return visited + frames[MAX_DEPTH - 1, 0]
        d -= 1
        kind = frames[d, F_KIND]
        if kind == PASS_UP:
            continue
        n = frames[d, F_ACTIONS]
        vals = ws.vals[d]
        if kind == EXPAND:
            j = frames[d, F_NEXT]
            vals[j] = ret
            j += 1
            while j < n and np.isnan(vals[j]):
                j += 1
            if j < n:
                frames[d, F_NEXT] = j
                reach[d + 1] = reach[d] * ws.sig[d, j]
                _child(ws, d, rules, ws.legal[d, _concrete(ws.abst[d], frames[d, F_LEGAL],
                                                           j, rng)])
                d += 1
                entering = True
                continue
        else:
            vals[frames[d, F_CHOSEN]] = ret
        if cfg[CFG_COARSE_LETTERS] > 0:
            _update_letters(mine, frames[d, F_COARSE], n, vals, ws.sig_c[d],
                            Letters(frames[d, F_WIDTH], ws.letter_of[d], ws.size[d],
                                    ws.letter_buf))
        else:
            _update(mine, frames[d, F_COARSE], n, vals, ws.sig_c[d])
        _update(mine, frames[d, F_FINE], n, vals, ws.sig_f[d])
        value = 0.0
        sig = ws.sig[d]
        for j in range(n):
            if not np.isnan(vals[j]):
                value += sig[j] * vals[j]
        ret = value


@jit
def _run_worker(seat, iterations, cfg, rules, rng, own, opp, league, locks):
    """Run `iterations` traversals of a two-seat round for `seat`, writing the tables
    directly (one worker per seat: it writes its own regrets and the opponent's average
    sums, reads the opponent's snapshot); returns the number of nodes visited.
    _start_traversal says how each traversal starts."""
    tables = (own, opp) if seat == 0 else (opp, own)
    return _run_worker_tables(seat, iterations, cfg, rules, rng, tables, league, locks)


@jit
def _run_worker_tables(seat, iterations, cfg, rules, rng, tables, league, locks):
    """_run_worker for a tuple of every seat's table (any table size)."""
    ws = _workspace()
    chunk = _no_chunk()
    visited = 0
    for _ in range(iterations):
        foe = _start_traversal(cfg, rules, rng, ws, league)
        visited += _traverse(seat, tables, cfg, rules, rng, ws, league, foe, chunk, True,
                             locks)
    return visited


@jit
def _run_chunk(seat, iterations, cfg, rules, rng, tables, league, locks, chunk):
    """Run up to `iterations` traversals of one chunk for `seat`, reading the tables
    (frozen during the batch) and writing only `chunk`; stops early, before a
    traversal, when the chunk's overlay is crowded (the caller grows it and calls again:
    the traversals do not depend on where they were split). Returns (traversals done,
    nodes visited)."""
    ws = _workspace()
    visited = 0
    done = 0
    while done < iterations:
        if _crowded(chunk.mine) or _crowded(chunk.theirs):
            break
        foe = _start_traversal(cfg, rules, rng, ws, league)
        visited += _traverse(seat, tables, cfg, rules, rng, ws, league, foe, chunk, False,
                             locks)
        done += 1
    return done, visited


@jit
def _start_traversal(cfg, rules, rng, ws, league):
    """Set up one traversal's root in ws and return its league opponent (-1: the
    table). With CFG_SHARED_WORLD the traversal deals its hidden cards at its start
    (_deal_world: the lazy deal's law). A share CFG_LEAGUE_SHARE of traversals (when
    `league` has players) meets a league player drawn uniformly instead of the
    opponent's table; no draw is made otherwise, so a run without a league consumes its
    random stream exactly as before."""
    foe = -1
    players = league.kinds.shape[0]
    share = cfg[CFG_LEAGUE_SHARE]
    if players > 0 and share > 0 and _uniform(rng) < share:
        foe = _below(rng, players)
    ws.states[0, :] = k.initial_state(rules)
    if cfg[CFG_SHARED_WORLD] > 0:
        # one world for the whole traversal: every action value it estimates, the
        # followed path's and the probes', faces the same hidden cards
        _deal_world(ws.world, ws.states[0], rules, ws.deal_buf, rng)
        ws.states[0, :] = ws.world
    ws.knows[0, :] = ab._initial_knowledge(ws.states[0], rules)
    return foe


@jit
def _no_chunk():
    """A placeholder Chunk for direct traversals (never read)."""
    return Chunk(_overlay_table(1, 1, 1), _overlay_table(1, 1, 1),
                 np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                 np.zeros(1, dtype=np.float64), np.zeros(C_SIZE, dtype=np.int64))


@jit
def _overlay_table(entries, actions, sums):
    """An empty Table of `entries` entries and `actions` regret slots (`sums` average
    sum slots), slots twice the entries (a power of two)."""
    cap = 2
    while cap < 2 * entries:
        cap *= 2
    meta = np.zeros(M_SIZE, dtype=np.int64)
    meta[M_SLOT_CAPACITY] = max(actions, sums)
    return Table(np.full(cap, -1, dtype=np.int64), np.zeros(entries, dtype=np.int64),
                 np.zeros(entries, dtype=np.int8), np.zeros(entries, dtype=np.int64),
                 np.zeros(entries, dtype=np.int64), np.zeros(entries, dtype=np.int64),
                 np.zeros(entries, dtype=np.int8), np.zeros(actions, dtype=np.float64),
                 np.zeros(sums, dtype=np.float64), np.zeros(1, dtype=np.float32), meta)


@jit
def _locked(locks, state, rules, know, cur, legal, m, out):
    """Whether a lock fixes this decision of `cur` (its probabilities then in out[:m]):
    such a decision is played as locked in every traversal, probes included, by either
    seat, and no table learns it (solver.decisions)."""
    return locks.player.shape[0] > 0 and dk.locked_probs(locks, state, rules, know, cur,
                                                         legal, m, out)


@jit
def _league_move(league, foe, state, rules, know, seat, legal, m, probs, rng):
    """Index in legal[:m] of league player `foe`'s move for `seat` (probs: a buffer):
    a league player's rules, or a baseline bot's (uniform, honest, paranoid,
    heuristic)."""
    kind = league.kinds[foe]
    if kind >= lg.FIRST_KIND:
        lg.league_probs(kind, league.params[foe], state, rules, know, seat, legal, m, probs)
    elif kind == lg.UNIFORM:
        for i in range(m):
            probs[i] = 1.0 / m
    else:
        lg.basic_probs(kind, league.params[foe], state, rules, know, seat, legal, m, probs)
    return _pick(probs, m, rng)


def no_league() -> League:
    """A League with no players: every traversal meets the opponent's table."""
    return League(np.zeros(0, dtype=np.int64),
                  np.zeros((0, lg.NUM_LEAGUE_PARAMS), dtype=np.float64))


@jit
def _normalise_average(table, entries, actions, out):
    """Average strategy per entry; the current (regret-matching) one where the average
    has no mass yet."""
    buf = np.empty(ab.MAX_ABSTRACT, dtype=np.float64)
    for e in range(entries):
        off = table.offset[e]
        n = table.nact[e]
        total = 0.0
        for j in range(n):
            total += table.ssum[off + j]
        if total > 0:
            for j in range(n):
                out[off + j] = table.ssum[off + j] / total
        else:
            _regret_matching(table.regret, off, n, buf)
            for j in range(n):
                out[off + j] = buf[j]
