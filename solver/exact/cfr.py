"""Regret minimisation over a FlatTree: CFR, CFR+, linear CFR, DCFR and predictive CFR+.

All use alternating updates (player 0's regrets, then player 1's against player 0's
updated strategy, as OpenSpiel's CFR solvers do) and float64 accumulation.

References: Zinkevich et al. 2007 (CFR); Tammelin 2014 (CFR+); Brown & Sandholm 2019,
"Solving Imperfect-Information Games via Discounted Regret Minimization" (linear CFR,
DCFR with alpha=1.5, beta=0, gamma=2); Farina, Kroer & Sandholm 2021, "Faster Game
Solving via Predictive Blackwell Approachability" (PCFR+, quadratic averaging).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from solver.exact import _kernels as kern
from solver.exact.tree import FlatTree, uniform_strategy


@dataclasses.dataclass(frozen=True)
class Algorithm:
    """One member of the CFR family: its update rule and discount parameters."""

    name: str
    rule: int
    alpha: float = 0.0
    beta: float = 0.0
    gamma: float = 0.0

    def average_weight(self, t: int) -> float:
        """Weight of iteration t's strategy in the average (discounting aside)."""
        if self.rule == kern.RULE_CFR_PLUS:
            return float(t)
        if self.rule == kern.RULE_PCFR_PLUS:
            return float(t) ** 2
        return 1.0

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


ALGORITHMS: dict[str, Algorithm] = {
    "cfr": Algorithm("cfr", kern.RULE_CFR),
    "cfr+": Algorithm("cfr+", kern.RULE_CFR_PLUS),
    "lcfr": Algorithm("lcfr", kern.RULE_DISCOUNTED, 1.0, 1.0, 1.0),
    "dcfr": Algorithm("dcfr", kern.RULE_DISCOUNTED, 1.5, 0.0, 2.0),
    "pcfr+": Algorithm("pcfr+", kern.RULE_PCFR_PLUS),
}


def algorithm(name: str, alpha: float | None = None, beta: float | None = None,
              gamma: float | None = None) -> Algorithm:
    """An algorithm by name (cfr, cfr+, lcfr, dcfr, pcfr+); DCFR parameters may be set."""
    key = name.strip().lower().replace("plus", "+")
    if key not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; choose one of {', '.join(ALGORITHMS)}")
    algo = ALGORITHMS[key]
    changes = {k: v for k, v in (("alpha", alpha), ("beta", beta), ("gamma", gamma))
               if v is not None}
    if changes and algo.rule != kern.RULE_DISCOUNTED:
        raise ValueError(f"alpha/beta/gamma apply to dcfr and lcfr only (got {name!r})")
    return dataclasses.replace(algo, **changes) if changes else algo


class CFRSolver:
    """Iterates one algorithm over one tree; holds regrets and the strategy sum."""

    def __init__(self, tree: FlatTree, algo: Algorithm | str = "cfr+"):
        self.tree = tree
        self.algo = algorithm(algo) if isinstance(algo, str) else algo
        slots = tree.num_action_slots
        self.iteration = 0
        self.current = uniform_strategy(tree)
        self.regret = np.zeros(slots)
        self.prediction = np.zeros(slots)
        self.strategy_sum = np.zeros(slots)
        self._instant = np.zeros(slots)
        self._own_infosets = [np.flatnonzero(tree.infoset_player == p).astype(np.int64)
                              for p in (0, 1)]
        n = tree.num_nodes
        self._reach_own = np.empty(n)
        self._reach_other = np.empty(n)
        self._value = np.empty(n)

    # ----- state for checkpoints ------------------------------------------------------
    def arrays(self) -> dict[str, np.ndarray]:
        return {"current": self.current, "regret": self.regret,
                "prediction": self.prediction, "strategy_sum": self.strategy_sum}

    def restore(self, iteration: int, arrays: dict[str, np.ndarray]) -> None:
        for name, arr in arrays.items():
            target = getattr(self, name)
            if target.shape != arr.shape:
                raise ValueError(f"checkpoint array {name} has shape {arr.shape}, "
                                 f"the tree needs {target.shape}")
            target[:] = arr
        self.iteration = iteration

    # ----- iterations -----------------------------------------------------------------
    def step(self, iterations: int = 1) -> None:
        t = self.tree
        a = self.algo
        for _ in range(iterations):
            self.iteration += 1
            it = self.iteration
            for p in (0, 1):
                kern._traverse(t.kind, t.player, t.infoset, t.first_child, t.num_children,
                               t.edge_prob, t.payoff, t.infoset_offset, p,
                               1.0 if p == 0 else -1.0, a.average_weight(it), self.current,
                               self._instant, self.strategy_sum, self._reach_own,
                               self._reach_other, self._value)
                kern._update(self._own_infosets[p], t.infoset_offset, t.infoset_num_actions,
                             a.rule, float(it), a.alpha, a.beta, a.gamma, self._instant,
                             self.regret, self.prediction, self.strategy_sum, self.current)

    def average_strategy(self) -> np.ndarray:
        """The average strategy per action slot (uniform where never reached)."""
        return normalise(self.tree, self.strategy_sum)


def normalise(tree: FlatTree, weights: np.ndarray) -> np.ndarray:
    """Per infoset, weights / their sum (uniform where the sum is zero)."""
    sums = np.add.reduceat(weights, tree.infoset_offset) if len(weights) else weights
    per_slot = np.repeat(sums, tree.infoset_num_actions)
    uniform = uniform_strategy(tree)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(per_slot > 0, weights / np.where(per_slot > 0, per_slot, 1), uniform)
    return out
