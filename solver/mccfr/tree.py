"""Probe-sampled Monte Carlo CFR on a FlatTree: the full game's sampling scheme
(docs/mccfr.md) on games whose exact exploitability is cheap (Kuhn, Leduc), so that it
can be checked against OpenSpiel's external-sampling MCCFR at equal traversals."""

from __future__ import annotations

import numpy as np

from solver.mccfr import _tree_kernels as kern
from solver.exact.tree import FlatTree


class TreeMCCFR:
    """Sampled CFR over a FlatTree's infosets: `run(n)` makes n traversals per player,
    in batches of `batch` with linear weighting between batches."""

    def __init__(self, tree: FlatTree, *, max_branching: int = 16, exploration: float = 0.1,
                 prune_below: float = -2.0, prune_probability: float = 0.0,
                 batch: int = 100, seed: int = 0):
        if max_branching < 1 or batch < 1 or not 0 <= exploration <= 1 or not (
                0 <= prune_probability < 1):
            raise ValueError("max_branching and batch must be >= 1, exploration in [0, 1], "
                             "prune_probability in [0, 1)")
        self.tree = tree
        self.cfg = np.zeros(kern.T_SIZE)
        self.cfg[kern.T_EXPLORATION] = exploration
        self.cfg[kern.T_MAX_BRANCHING] = max_branching
        self.cfg[kern.T_PRUNE_BELOW] = prune_below
        self.cfg[kern.T_PRUNE_PROBABILITY] = prune_probability
        self.batch = batch
        self.regret = np.zeros(tree.num_action_slots)
        self.ssum = np.zeros(tree.num_action_slots)
        self.rng = np.array(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64))
        self.iterations = 0
        self.nodes = 0
        self._batches = 0
        self._width = int(tree.num_children.max())

    def run(self, iterations: int) -> None:
        tree = kern.tree_arrays(self.tree)
        sums = kern.Sums(self.regret, self.ssum)
        while iterations > 0:
            step = min(self.batch, iterations)
            self.nodes += kern._run(tree, sums, self.cfg, step, self.rng, self._width)
            self.iterations += step
            iterations -= step
            self._batches += 1
            b = float(self._batches)
            kern._discount(sums, b / (b + 1.0))

    def average_strategy(self) -> np.ndarray:
        """Per action slot: the normalised average strategy (uniform without mass)."""
        t = self.tree
        out = np.empty_like(self.ssum)
        for i in range(t.num_infosets):
            off, n = t.infoset_offset[i], t.infoset_num_actions[i]
            total = self.ssum[off:off + n].sum()
            out[off:off + n] = self.ssum[off:off + n] / total if total > 0 else 1.0 / n
        return out
