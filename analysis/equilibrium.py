"""An exact solve held in memory (no run directory): DCFR on a FlatTree until the
exploitability is at most a target, and what it proves about the game's value.

In a two-player zero-sum game, a profile whose seats gain b0 - u0 and b1 - u1 by a best
response brackets the game value: seat 0 can guarantee -b1 (its strategy against seat
1's best response) and seat 1 holds seat 0 to b0, so seat 0's value lies in [-b1, b0].
"""

from __future__ import annotations

import dataclasses

import numpy as np

from solver.exact.best_response import BestResponder
from solver.exact.cfr import CFRSolver, algorithm
from solver.exact.tree import FlatTree


@dataclasses.dataclass(frozen=True)
class Solved:
    """A solved two-player tree: the average strategy, seat 0's value under it, the
    bracket [lo, hi] on seat 0's game value, the exploitability and iterations."""

    strategy: np.ndarray
    value: float
    lo: float
    hi: float
    exploitability: float
    iterations: int

    def seat_value(self, seat: int) -> tuple[float, float, float]:
        """(value, lo, hi) of the game for `seat`."""
        if seat == 0:
            return self.value, self.lo, self.hi
        return -self.value, -self.hi, -self.lo


def solve(tree: FlatTree, target: float = 1e-4, max_iterations: int = 20_000,
          algo: str = "dcfr") -> Solved:
    """DCFR (or `algo`) until the exploitability is at most `target` or
    `max_iterations` have run; two-player zero-sum trees only."""
    if tree.num_players != 2:
        raise ValueError("an exact value bracket needs a two-player zero-sum tree")
    solver = CFRSolver(tree, algorithm(algo))
    responder = BestResponder(tree, solver)
    chunk = 10
    while True:
        solver.step(min(chunk, max_iterations - solver.iteration))
        result = responder.evaluate_solver()
        if result.exploitability <= target or solver.iteration >= max_iterations:
            break
        chunk = min(2 * chunk, 200)
    b0, b1 = result.best_response
    return Solved(solver.average_strategy(), float(result.value), float(-b1), float(b0),
                  float(result.exploitability), int(solver.iteration))
