"""Binomial intervals shared by both games' simulators, tournaments and reports."""

from __future__ import annotations

import math

Z95 = 1.959964  # the standard normal's 97.5% quantile: two-sided 95%


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a binomial proportion
    successes/trials. Unlike the normal (Wald) interval it stays inside [0, 1] and is
    not empty at 0 or `trials` successes; 0 trials give the uninformative (0, 1)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # exact at the edges (the formula leaves rounding residue, e.g. a lower end of 5e-20
    # for 0 successes), and never excluding the estimate itself
    lo = 0.0 if successes == 0 else min(p, max(0.0, centre - half))
    hi = 1.0 if successes == trials else max(p, min(1.0, centre + half))
    return (lo, hi)
