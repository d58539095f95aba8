"""A seat's table: the hash table of its decision entries, their regrets and
average-strategy sums (numba kernels; docs/mccfr.md, "Table and memory").

Monte Carlo CFR keeps one table per seat (the abstraction key includes the seat, so
tables never share an entry); the kernels take them as a tuple indexed by seat, two,
three or four. This module holds the table's layout (`Table`, its counters `M_*`) and
what works on one table alone: lookup and insertion (open addressing, linear probing),
regret matching, the snapshot the other seats read during a batch, the weighting's
discount, rehashing after growth and the normalised average strategy a table file keeps.
Kept apart so that chunks, policies, the traversal and the trainer share one layout.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from game_def.kernels import jit

from solver.mccfr import _abstraction as ab

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
M_FROZEN = 2      # entries in the snapshot: what the other seats read this batch
M_OVERFLOW = 3    # inserts refused because the table was full
M_MISMATCH = 4    # lookups whose action count disagreed with the entry (must stay 0)
M_DEEP = 5        # traversals cut at the depth limit (must stay 0)
M_SLOT_CAPACITY = 6   # length of regret/ssum/snap (set by the owner of the arrays)
M_PRUNED = 7      # actions skipped by regret-based pruning
M_PROBES = 8      # probe playouts
M_SIZE = 10


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
