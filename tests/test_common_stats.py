"""The one Wilson interval (common.stats), used by both games' simulators and, through
game_def.simulate, by the tournaments, sweeps and reports."""

from __future__ import annotations

import pytest
from scipy import stats

from common.stats import wilson_interval

# Newcombe, R. G. (1998). Two-sided confidence intervals for the single proportion:
# comparison of seven methods. Statistics in Medicine 17(8), 857-872: Table I, method 3
# (the Wilson score interval without continuity correction), at 4 decimals.
NEWCOMBE_1998 = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize("successes, trials, lo, hi", NEWCOMBE_1998)
def test_wilson_interval_matches_newcombe_1998(successes, trials, lo, hi):
    """Catches a wrong formula: the Wald interval, a dropped z^2/(4n^2) term under the
    root or a centre not pulled towards 1/2 each miss the published ends."""
    got = wilson_interval(successes, trials)
    assert (round(got[0], 4), round(got[1], 4)) == (lo, hi)


@pytest.mark.parametrize("successes, trials", [(81, 263), (15, 148), (1, 29), (30, 100),
                                               (999, 1000), (5, 7)])
def test_wilson_interval_agrees_with_scipy(successes, trials):
    """An independent implementation: scipy's binomtest(...).proportion_ci('wilson')."""
    ci = stats.binomtest(successes, trials).proportion_ci(0.95, method="wilson")
    assert wilson_interval(successes, trials) == pytest.approx((ci.low, ci.high), abs=1e-6)


def test_both_games_use_the_one_interval():
    """Catches a copy creeping back into either game (there were two, the same formula
    in two files)."""
    from game_def import simulate as robin_wood
    from robin_des_bois import simulation as robin_des_bois

    assert robin_wood.wilson_interval is wilson_interval
    assert robin_des_bois.wilson_interval is wilson_interval
