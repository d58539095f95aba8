"""What a seat's table plays at a decision: its policies over the abstract actions
(numba kernels; docs/abstraction.md, "Two levels" and "Letters").

Each decision has a coarse entry and, once that has `CFG_FINE_VISITS` updates, a fine
entry (solver.mccfr._abstraction). Both are updated with the same action values; the
policy a seat plays is the fine entry's once it has `CFG_FINE_VISITS` updates of its own
("ready"), the coarse entry's before that. With CFG_COARSE_LETTERS the coarse entry acts
on the phase's letters (`Letters`): its policy is spread over the abstract actions
(`_spread`) and its regrets are per letter (_traversal._update_letters). The traverser
reads its own entries as its chunk sees them (`_own_policy`: regret matching on the
current regrets, creating the entries it will update); every other seat, at any table
size, is read from its table's snapshot at the batch start (`_opponent_policy`). Kept
apart: the traversal and its probes ask only for these policies.
"""

from __future__ import annotations

from collections import namedtuple

from game_def.kernels import jit

from solver.mccfr import _abstraction as ab
from solver.mccfr._chunks import _mine, _peek, _touch
from solver.mccfr._settings import CFG_COARSE_LETTERS, CFG_FINE_VISITS
from solver.mccfr._table import M_MISMATCH, _find_frozen, _regret_matching

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
    """The snapshot policies of `table`, another seat's than the traverser's (an
    opponent's or a team partner's: entries present at the batch start only); returns
    (fine entry, coarse entry)."""
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
