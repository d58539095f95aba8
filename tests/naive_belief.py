"""Plain-Python twin of a seat's belief about the cards (docs/sound-play.md, "The
belief"), written from the document: it reads the seat's information-state string
(through the abstraction's twin, tests/naive_abstraction.py, which rebuilds the seat's
candidate sets, the public claims and its team's signals token by token), never the
core's state nor the kernel's knowledge array, and sums the weights of every
arrangement of the deck's remaining cards over the positions the seat cannot place by a
memoised recursion (each position in turn, the multiset of cards still to place as the
memo key) that carries each arrangement's per-position counts along.

    probabilities = belief(state, seat, weight)    # [position][character]
"""

from __future__ import annotations

from functools import lru_cache

from naive_abstraction import _read

NUM_CHARACTERS = 10


def _exact(mask: int) -> int:
    return mask.bit_length() - 1 if mask and mask & (mask - 1) == 0 else -1


def belief(state, seat: int, weight: float) -> list[list[float]]:
    variant, _, view, _ = _read(state, seat)
    n = variant.num_positions
    counts = [int(c) for c in variant.counts]
    out = [[0.0] * NUM_CHARACTERS for _ in range(n)]
    unknown = []
    for p in range(n):
        c = _exact(view.cand[p])
        if c >= 0:
            out[p][c] = 1.0
            counts[c] -= 1
        else:
            unknown.append(p)
    evidence = {}
    for p in unknown:
        w = [1.0] * NUM_CHARACTERS
        if view.claim[p] >= 0:
            w[view.claim[p]] *= weight
        if view.signal[p] >= 0:
            w[view.signal[p]] *= weight
        evidence[p] = w
    if min(counts) < 0 or sum(counts) != len(unknown):
        return None   # no arrangement: the kernel falls back to the masks alone

    @lru_cache(maxsize=None)
    def ways(i: int, left: tuple) -> tuple:
        """(total weight, per (unknown index, character) weight) of the arrangements of
        the multiset `left` over unknown[i:]."""
        if i == len(unknown):
            return 1.0, ()
        p = unknown[i]
        total, marginal = 0.0, {}
        for c in range(NUM_CHARACTERS):
            if not (view.cand[p] >> c) & 1 or left[c] == 0:
                continue
            rest = list(left)
            rest[c] -= 1
            z, sub = ways(i + 1, tuple(rest))
            w = evidence[p][c] * z
            if w == 0.0:
                continue
            total += w
            marginal[(i, c)] = marginal.get((i, c), 0.0) + w
            for key, value in sub:
                marginal[key] = marginal.get(key, 0.0) + evidence[p][c] * value
        return total, tuple(marginal.items())

    z, marginal = ways(0, tuple(counts))
    if z == 0.0:
        return None
    for (i, c), value in marginal:
        out[unknown[i]][c] = value / z
    return out
