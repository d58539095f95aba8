"""Locked decisions in training: a decision a lock selects is played with the lock's
probabilities and never learned (numba kernels; docs/locks.md).

`LockRules` of solver.decisions (empty for none) select decisions; wherever a selected
decision occurs in a traversal, probes included, the seat to move plays it with the
lock's probabilities and no table gets an entry for it: the traverser's regrets answer
the locked play, as an exact locked solve turns those decisions into chance nodes
(solver.locks.exact). Training accepts locks at two players only (MCCFRConfig: the
selectors read a two-seat situation). Kept apart: the traversal asks only whether a
decision is locked, and which actions a restricted seat keeps.
"""

from __future__ import annotations

from game_def.kernels import jit

from solver.decisions import kernels as dk


@jit
def _locked(locks, state, rules, know, cur, legal, m, out):
    """Whether a lock fixes this decision of `cur` (its probabilities then in out[:m]):
    such a decision is played as locked in every traversal, probes included, by
    whichever seat moves, and no table learns it (solver.decisions)."""
    return locks.player.shape[0] > 0 and dk.locked_probs(locks, state, rules, know, cur,
                                                         legal, m, out)


@jit
def _restricted(locks, state, rules, cur, legal, m):
    """legal[:m] of `cur` with what a forbid lock takes out removed, in place; returns
    the count kept (restricted play: the seat learns over what is left)."""
    return dk.allowed(locks, state, rules, cur, legal, m)
