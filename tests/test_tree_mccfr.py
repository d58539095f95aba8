"""The full game's sampling scheme (probe-sampled external sampling, docs/mccfr.md)
over the FlatTree interface, against OpenSpiel's external-sampling MCCFR on Kuhn and
Leduc poker at the same number of traversals, with exact exploitability."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from solver.exact.best_response import exploitability
from solver.exact.openspiel_tree import build_from_openspiel
from solver.mccfr.tree import TreeMCCFR

TRAVERSALS = 10_000
SEEDS = (0, 1, 2)


def _ours(tree, **kw) -> float:
    values = []
    for seed in SEEDS:
        solver = TreeMCCFR(tree, seed=seed, **kw)
        solver.run(TRAVERSALS)
        values.append(exploitability(tree, solver.average_strategy()).exploitability)
    return float(np.mean(values))


def _openspiel(game) -> float:
    values = []
    for seed in SEEDS:
        solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed)
        for _ in range(TRAVERSALS):       # one iteration traverses once for each player
            solver.run_iteration()
        values.append(pyspiel.exploitability(game, solver.average_policy()))
    return float(np.mean(values))


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_probe_sampling_matches_openspiel_external_sampling(name):
    # Measured (3 seeds, 10,000 traversals per player): Kuhn 0.0081 against OpenSpiel's
    # 0.0101, Leduc 0.247 against 0.283. Allowed: within 1.25x of OpenSpiel's.
    game = pyspiel.load_game(name)
    tree = build_from_openspiel(game)
    ours, theirs = _ours(tree), _openspiel(game)
    assert ours <= 1.25 * theirs, (ours, theirs)
    # and the scheme learns: uniform play is far worse
    uniform = exploitability(tree, TreeMCCFR(tree).average_strategy()).exploitability
    assert ours < uniform / 5


def test_aggressive_regret_pruning_is_what_the_comparison_catches():
    """Pruning zero-probability actions below regret -2 nine times in ten (Pluribus'
    rule without its warm-up) measured 0.72 on Leduc against 0.25 without: the reason
    it is off by default. The comparison above must see such a difference."""
    game = pyspiel.load_game("leduc_poker")
    tree = build_from_openspiel(game)
    pruned = _ours(tree, prune_probability=0.9)
    assert pruned > 1.25 * _openspiel(game)
