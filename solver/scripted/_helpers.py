"""Small kernels every player shares: what a seat knows of a position, and turning
weights into probabilities (the league players here, the bots and table agents of
solver.players through solver.scripted.kernels)."""

from __future__ import annotations

from game_def import kernels as k
from game_def.kernels import jit

from solver.knowledge import kernels as ab


@jit
def _known(know, seat, pos):
    """The character `seat` knows at `pos`, or -1."""
    return ab.exact(know[ab.K_CAND + seat * k.MAX_POSITIONS + pos])


@jit
def _spread(out, legal, m, weights):
    """Normalise weights[:m] into out[:m] (uniform if they are all zero)."""
    total = 0.0
    for i in range(m):
        total += weights[i]
    for i in range(m):
        out[i] = weights[i] / total if total > 0 else 1.0 / m
