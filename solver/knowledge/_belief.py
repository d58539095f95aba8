"""A seat's belief about the cards: for every position, the probability of each
character, from what the seat has observed (docs/sound-play.md, "The belief").

The model: the deal is uniform (every arrangement of the deck's cards equally likely);
the seat's candidate masks (the knowledge array: what it saw, face-up cards, blind
exchanges) rule arrangements out; and each unchallenged public claim (and, in team mode,
each signal of the seat's Innkeeper team) is evidence with likelihood ratio `weight`:
an arrangement with the claimed character at the claimed position counts `weight` times
one without. A peeked Trickster must lie, so a claim is also evidence for the Trickster
at its position: with `liar[c]` > 0 for the claimed character c, an arrangement with the
Trickster there counts `weight` times liar[c] (the chance that a Trickster's forced lie
names c, relative to the chance that a c is announced), except for a claim made over
the public count (the knowledge array's K_CLAIM_OVER: every copy already face up or
claimed elsewhere), which no forced liar picks. Under that model the marginals are
exact: a dynamic programme over the positions the seat cannot place, whose state is
the multiset of characters still to place (at most 1,728 states on the printed decks),
forward and backward. The positions
that say nothing about their card (any character left, no claim: most of them early in
a round) are exchangeable and need no step of it: a multinomial fills them at once
(`_fill`), bit for bit what the steps would give at an integer claim weight.

The knowledge array keeps each position's candidate set, not the joint constraint a
blind exchange leaves (two cards known to be X and Y, each position "X or Y"): counts
carry some of it (one X and one Y left to place), the rest is the model's one
approximation. The plain-Python twin (tests/naive_belief.py) reads information-state
strings and enumerates arrangements; the two agree to 1e-9.
"""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from ._kernels import FULL_MASK, K_CAND, K_CLAIM, K_CLAIM_OVER, K_SIGNAL, _exact

# The likelihood ratio of an unchallenged claim (or a team signal) when the caller has
# no model of the claimant: a claim makes its character twelve times likelier at its
# position than the deck alone says (chosen on the league panel: docs/sound-play.md).
DEFAULT_CLAIM_WEIGHT = 12.0


@jit
def _evidence(rules, know, seat, weight, liar, weights):
    """Per position and character, the weight of the evidence (module docstring): 1, or
    `weight` for the position's last public claim c (and `weight` times liar[c] for the
    Trickster there, unless the claim was made over the public count) and, for a seat
    (seat >= 0), for its team's signal there."""
    n = rules[k.R_N]
    for p in range(n):
        for c in range(k.NUM_CHARACTERS):
            weights[p, c] = 1.0
        claim = know[K_CLAIM + p]
        if claim >= 0:
            weights[p, claim] *= weight
            if liar[claim] > 0.0 and claim != k.TRICKSTER and know[K_CLAIM_OVER + p] == 0:
                weights[p, k.TRICKSTER] *= weight * liar[claim]
        if seat >= 0:
            signal = know[K_SIGNAL + seat * k.MAX_POSITIONS + p]
            if signal >= 0:
                weights[p, signal] *= weight


@jit
def _marginals(rules, masks, weights, exchange, out):
    """out[p, c] = P(position p holds c) for p < n, for the uniform deal of the deck
    (rules' counts) restricted to masks[p] and weighted by weights[p, c]; returns False
    (out uniform over each mask) when the masks admit no arrangement. `exchange`: fill
    the plain positions at once (`_fill`), else one by one like the others (the
    reference the shortcut is measured and tested against)."""
    n = rules[k.R_N]
    nc = k.NUM_CHARACTERS
    left = np.zeros(nc, dtype=np.int64)
    for c in range(nc):
        left[c] = rules[k.R_COUNTS + c]
    unknown = np.empty(n, dtype=np.int64)
    u = 0
    for p in range(n):
        for c in range(nc):
            out[p, c] = 0.0
        c = _exact(masks[p])
        if c >= 0:
            out[p, c] = 1.0
            left[c] -= 1
        else:
            unknown[u] = p
            u += 1
    consistent = True
    total = 0
    for c in range(nc):
        if left[c] < 0:
            consistent = False
        total += left[c]
    if consistent and total == u and u > 0:
        told = _plain_last(masks, weights, left, unknown, u) if exchange else u
        consistent = _fill(masks, weights, left, unknown, told, u, out)
    if not consistent:
        for i in range(u):
            p = unknown[i]
            bits = 0
            for c in range(nc):
                if (masks[p] >> c) & 1:
                    bits += 1
            for c in range(nc):
                out[p, c] = 1.0 / bits if (masks[p] >> c) & 1 and bits > 0 else 0.0
    return consistent


@jit
def _plain(masks, weights, left, p):
    """Does position p say nothing about its card: its mask admits every character
    left to place, each with weight 1? Such positions are exchangeable."""
    for c in range(k.NUM_CHARACTERS):
        if left[c] > 0 and (not (masks[p] >> c) & 1 or weights[p, c] != 1.0):
            return False
    return True


@jit
def _plain_last(masks, weights, left, unknown, u):
    """Reorder unknown[:u] in place, the positions that say something about their card
    first (in position order) and the plain ones (`_plain`) last; returns how many come
    first."""
    order = np.empty(u, dtype=np.int64)
    first = 0
    for i in range(u):
        if not _plain(masks, weights, left, unknown[i]):
            order[first] = unknown[i]
            first += 1
    last = first
    for i in range(u):
        if _plain(masks, weights, left, unknown[i]):
            order[last] = unknown[i]
            last += 1
    unknown[:u] = order
    return first


@jit
def _fill(masks, weights, left, unknown, told, u, out):
    """The dynamic programme of the module docstring over the u positions unknown[:u]
    and the multiset `left` of characters to place, the first `told` positions those
    with a constraint or evidence, the rest plain (exchangeable: `_plain`). A multiset
    is a mixed-radix index (digit c in 0..left[c]); the ways to fill the first i
    positions leave a multiset of u - i cards, so each step visits only the multisets
    of that size. F[s] sums the weights of the ways to fill the first i positions
    leaving s, B[i, s] those to fill positions i.. from s; out[p] adds F * weight * B
    over the step that fills p. The g = u - told plain positions need no steps: the
    ways to fill them from a multiset s of g cards are the multinomial g! / prod s_c!,
    and each holds c in s_c / g of them. Every weight sum is a sum of products of the
    weights, so with integer weights (12, the default) it is an exact integer and the
    order of the positions changes no bit of the result."""
    nc = k.NUM_CHARACTERS
    plain = u - told
    stride = np.zeros(nc, dtype=np.int64)
    size = 1
    for c in range(nc):
        stride[c] = size
        size *= left[c] + 1
    avail = np.zeros(size, dtype=np.int64)      # bit c: the multiset holds a c
    level = np.zeros(size, dtype=np.int64)      # how many cards it holds
    ways = np.zeros(size, dtype=np.float64)     # multisets of `plain` cards: the multinomial
    digit = np.zeros(nc, dtype=np.int64)        # the digits of st, counted up like an odometer
    factorial = np.ones(plain + 1, dtype=np.int64)
    for j in range(1, plain + 1):
        factorial[j] = factorial[j - 1] * j
    bits = 0
    cards = 0
    for st in range(size):
        avail[st] = bits
        level[st] = cards
        if cards == plain:
            below = np.int64(1)
            for c in range(nc):
                below *= factorial[digit[c]]
            ways[st] = factorial[plain] // below
        c = 0
        while c < nc and digit[c] == left[c]:   # carry: digits at their maximum wrap to 0
            cards -= digit[c]
            digit[c] = 0
            bits &= ~(1 << c)
            c += 1
        if c < nc:
            digit[c] += 1
            cards += 1
            bits |= 1 << c
    start = np.zeros(u + 2, dtype=np.int64)     # multisets ordered by size (counting sort)
    for st in range(size):
        start[level[st] + 1] += 1
    for lv in range(u + 1):
        start[lv + 1] += start[lv]
    order = np.empty(size, dtype=np.int64)
    fill = start.copy()
    for st in range(size):
        order[fill[level[st]]] = st
        fill[level[st]] += 1
    # every entry read below was written a step before (a multiset one card smaller)
    backward = np.empty((told + 1, size), dtype=np.float64)
    for j in range(start[plain], start[plain + 1]):
        backward[told, order[j]] = ways[order[j]]
    for i in range(told - 1, -1, -1):
        p = unknown[i]
        lv = u - i
        for j in range(start[lv], start[lv + 1]):
            st = order[j]
            bits = masks[p] & avail[st]
            acc = 0.0
            c = 0
            while bits:
                if bits & 1:
                    acc += weights[p, c] * backward[i + 1, st - stride[c]]
                bits >>= 1
                c += 1
            backward[i, st] = acc
    full = size - 1    # every digit at its maximum: nothing placed yet
    z = backward[0, full]
    if z <= 0.0:
        return False
    forward = np.zeros(size, dtype=np.float64)
    forward[full] = 1.0
    for i in range(told):
        p = unknown[i]
        lv = u - i
        for j in range(start[lv], start[lv + 1]):
            st = order[j]
            f = forward[st]
            if f == 0.0:
                continue
            bits = masks[p] & avail[st]
            c = 0
            while bits:
                if bits & 1:
                    share = f * weights[p, c]
                    out[p, c] += share * backward[i + 1, st - stride[c]]
                    forward[st - stride[c]] += share
                bits >>= 1
                c += 1
        for c in range(nc):
            out[p, c] /= z
    if plain > 0:
        held = np.zeros(nc, dtype=np.float64)   # summed over arrangements, times plain
        for j in range(start[plain], start[plain + 1]):
            st = order[j]
            f = forward[st] * ways[st]
            if f == 0.0:
                continue
            for c in range(nc):
                held[c] += f * ((st // stride[c]) % (left[c] + 1))
        for i in range(told, u):
            p = unknown[i]
            for c in range(nc):
                out[p, c] = held[c] / plain / z
    return True


@jit
def _belief(rules, know, seat, weight, liar, out):
    """out[p, c] for p < n: the probability that `seat` gives character c at position p,
    from its own knowledge row, the public claims and its team's signals (module
    docstring); `weight` is the claims' likelihood ratio, liar[c] the Trickster's share
    of a claim of c (all 0: a claim says nothing of the Trickster). Returns whether the seat's
    knowledge admits an arrangement of the deck (else each mask uniformly)."""
    n = rules[k.R_N]
    masks = np.empty(n, dtype=np.int64)
    for p in range(n):
        masks[p] = know[K_CAND + seat * k.MAX_POSITIONS + p]
    weights = np.empty((n, k.NUM_CHARACTERS), dtype=np.float64)
    _evidence(rules, know, seat, weight, liar, weights)
    return _marginals(rules, masks, weights, True, out)


@jit
def _belief_stepwise(rules, know, seat, weight, liar, out):
    """`_belief` with every unknown position filled one by one (no exchangeable
    shortcut): the reference benchmarks/bench_belief.py and the tests compare it to."""
    n = rules[k.R_N]
    masks = np.empty(n, dtype=np.int64)
    for p in range(n):
        masks[p] = know[K_CAND + seat * k.MAX_POSITIONS + p]
    weights = np.empty((n, k.NUM_CHARACTERS), dtype=np.float64)
    _evidence(rules, know, seat, weight, liar, weights)
    return _marginals(rules, masks, weights, False, out)


@jit
def _public_belief(rules, state, know, weight, liar, out):
    """The belief of a seat that knows only what is public: the face-up cards, the deck
    and the claims; what the sound default assumes another seat knows of a position it
    has not looked at. Reads the public state (face-up cards) and the claims only."""
    n = rules[k.R_N]
    masks = np.empty(n, dtype=np.int64)
    for p in range(n):
        masks[p] = 1 << state[k.S_CARD + p] if state[k.S_FACEUP + p] else FULL_MASK
    weights = np.empty((n, k.NUM_CHARACTERS), dtype=np.float64)
    _evidence(rules, know, -1, weight, liar, weights)
    return _marginals(rules, masks, weights, True, out)
