"""Chunks: a batch cut into work units whose results do not depend on the number of
workers (numba kernels; docs/mccfr.md, "Workers").

A batch is cut into chunks per seat (`Chunk`; _traversal._run_chunk runs one). A chunk
traversing for seat i reads seat i's table as it was at the batch start plus its own
updates (a private overlay: copies of the entries it touched, the entries it created)
and every other seat's policy from the snapshot taken at the batch start (only entries
that existed then are visible across seats). It writes only its overlay: seat i's
regrets, visits and new entries, and the average-strategy sums it gives the next seat,
(i + 1) mod N, the one seat whose decisions a traversal for i averages. After every
chunk has run, each seat's table takes its own chunks (`_merge_mine`), then the chunks
of the seat before it, (i - 1) mod N (`_merge_theirs`), in chunk order. No chunk reads
another's writes and the merge order is fixed, so the tables are the same whatever the
number of threads that ran the chunks: runs are reproducible from a seed, and resume is
exact. One chunk per seat draws and writes exactly what one worker per seat writing the
tables directly did (`direct`: _traversal._run_worker; the exploiter still trains that
way). Kept apart: every read and write of a traversal's own entries and of the sums it
gives goes through here (`_mine`, `_touch`, `_peek`, `_their_sum`), so the traversal
does not care whether it writes a chunk or the tables.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from game_def.kernels import jit

from solver.mccfr._table import (
    M_DEEP, M_ENTRIES, M_MISMATCH, M_OVERFLOW, M_PROBES, M_PRUNED, M_SIZE, M_SLOT_CAPACITY,
    M_USED, Table, _find, _find_or_insert,
)

Chunk = namedtuple("Chunk", ["mine", "theirs", "origin", "start_visits", "start", "counts"])
"""One work unit of a batch (docs/mccfr.md, "Workers"): a private overlay of the tables,
so that chunks can run on any number of threads and their updates be merged in chunk
order afterwards (_merge_mine, _merge_theirs) into the same tables.
mine            a Table of the traverser's entries this chunk touched: copies of the
                shared entries (regrets, visits) made on first touch and entries it
                created; its policy reads them, so a chunk sees its own updates and
                nothing of the other chunks' (the shared table stays as at the batch start)
theirs          a Table keyed by the entry index of the seat the traversals average, the
                next one ((seat + 1) mod N): the average-strategy sums this chunk adds
                to that seat's entries (its ssum), with nact, offset
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
    """(array, offset) where the average-strategy sums of entry e of `opp`, the seat
    the traversal averages ((seat + 1) mod N), go: that table itself (direct) or the
    chunk's `theirs`; offset -1 if the chunk has no room."""
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
    """Add the average-strategy sums a chunk of the seat before this table's,
    (seat - 1) mod N, gave this table's entries (its traversals average this seat's
    decisions; copied back for that seat's first chunk, added for the others)."""
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
