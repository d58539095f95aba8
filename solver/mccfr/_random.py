"""Random numbers of the Monte Carlo CFR kernels: splitmix64 in a one-element uint64
array (numba kernels).

Every draw a traversal makes (chance, the sampled seats' moves, the probes, pruning, the
league opponent, a shared world's deal) comes from one such array, a stream per seat or
chunk: its whole state is one number, which a checkpoint saves, so that a run is a
function of its seed and a resumed run is bit-exact (docs/mccfr.md). Kept apart because
everything else draws from it: the tables' users through solver.mccfr.kernels (the
play-time search), the FlatTree sampler (_tree_kernels) and the traversal.
"""

from __future__ import annotations

import numpy as np

from game_def.kernels import jit


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
