"""Regret minimisation over a FlatTree: CFR, CFR+, linear CFR, DCFR and predictive CFR+.

All use alternating updates (player 0's regrets, then player 1's against player 0's
updated strategy, and so on for every player, as OpenSpiel's CFR solvers do) and float64
accumulation. With three or more players the same updates run (each player's pass
treats every other player's decisions as the others'), but CFR's guarantee is weaker
there: the average strategy need not approach a Nash equilibrium, only a coarse
correlated equilibrium, so its NashConv is what it reaches, not a bound (docs/nplayer.md).

References: Zinkevich et al. 2007 (CFR); Tammelin 2014 (CFR+); Brown & Sandholm 2019,
"Solving Imperfect-Information Games via Discounted Regret Minimization" (linear CFR,
DCFR with alpha=1.5, beta=0, gamma=2); Farina, Kroer & Sandholm 2021, "Faster Game
Solving via Predictive Blackwell Approachability" (PCFR+, quadratic averaging).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

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


# Threads a solver uses by default: this project's machines have two cores, and the
# schedule splits a pass in two (more threads would idle).
DEFAULT_THREADS = min(2, os.cpu_count() or 1)
_POOL: ThreadPoolExecutor | None = None


def _both(first: Callable[[], None], second: Callable[[], None], threads: int) -> None:
    """Run first() here and second() on the pool's thread (nogil kernels), or both here
    one after the other when threads == 1: the same arithmetic either way."""
    global _POOL
    if threads < 2:
        first()
        second()
        return
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cfr")
    job = _POOL.submit(second)
    try:
        first()
    finally:
        job.result()


@contextlib.contextmanager
def _whole_iterations():
    """Hold back SIGINT until the block ends; yields a list that is non-empty once one
    arrived (the loop then stops after its iteration), and delivers it afterwards to
    whatever handler was there. An interrupt landing between the kernels of a pass would
    leave half an iteration in the arrays (a checkpoint written then would not resume to
    an uninterrupted run's numbers), or, on two threads, the other thread still writing
    them while the handler runs. Outside the main thread (which alone gets signals in
    Python) there is nothing to hold back."""
    if threading.current_thread() is not threading.main_thread():
        yield []
        return
    arrived: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: arrived.append(signum))
    try:
        yield arrived
    finally:
        signal.signal(signal.SIGINT, previous)
        if arrived:
            signal.raise_signal(signal.SIGINT)


@dataclasses.dataclass
class Schedule:
    """How one pass is split over two threads, bit for bit the same on one.

    `top` (node ranges: every node at depth <= `depth`) runs alone: top-down before the
    groups, and after them a walk from the root down to depth `depth` (the groups'
    values below it). `groups[p]` are two lists of disjoint subtrees (descendant ranges
    of the nodes at depth `depth`) for player p's pass, walked from `roots[p]` (the
    children of those nodes, ascending); no infoset of p has nodes in both, so the two
    threads never write the same regret or strategy-sum slot, and each slot receives its
    terms in the same order whatever the threads. Each thread then updates p's infosets
    that lie wholly in its subtrees (`own[p][0]`, `own[p][1]`); the rest (`own[p][2]`,
    those with a node in the top) are updated after the top's walk. One thread runs the
    same walks in the same order. The serial schedule (depth -1) is one walk from the
    root over the whole tree.
    """

    depth: int
    top: np.ndarray
    groups: tuple[tuple[np.ndarray, np.ndarray], ...]  # per player
    balance: tuple[float, ...]  # per player: the larger group's share of the nodes
    levels: int = 0  # the tree's depth (the walks' stack size)
    roots: tuple = ()  # per player: (roots of group 0, of group 1), int64 node ids
    own: tuple = ()  # per player: (infosets of group 0, of group 1, the rest), int32

    @property
    def down(self) -> np.ndarray:
        """The ranges of the top-down half: the top of a split schedule; none for the
        serial one, whose walk carries every reach itself."""
        return self.top if self.depth >= 0 else self.top[:0]

    def assign_infosets(self, tree: FlatTree) -> "Schedule":
        """Fill `own`: which update each of a player's infosets belongs to."""
        ts = kern.tree_struct(tree)
        own = []
        for p in range(tree.num_players):
            marks = np.zeros(tree.num_infosets, dtype=np.int8)
            kern._mark_infosets(ts, self.groups[p][0], p, 1, marks)
            kern._mark_infosets(ts, self.groups[p][1], p, 2, marks)
            kern._mark_infosets(ts, self.top, p, 4, marks)
            mine = tree.infoset_player == p
            own.append(tuple(np.flatnonzero(mine & (marks == m)).astype(np.int32)
                             for m in (1, 2)) +
                       (np.flatnonzero(mine & (marks != 1) & (marks != 2))
                        .astype(np.int32),))
        self.own = tuple(own)
        return self

    @classmethod
    def serial(cls, tree: FlatTree, levels: int) -> "Schedule":
        empty = np.zeros((0, 2), dtype=np.int64)
        whole = np.array([[0, tree.num_nodes]], dtype=np.int64)
        none = np.zeros(0, dtype=np.int64)
        players = range(tree.num_players)
        return cls(-1, whole, tuple((empty, empty) for _ in players),
                   tuple(1.0 for _ in players), levels,
                   tuple((none, none) for _ in players)).assign_infosets(tree)

    @classmethod
    def split(cls, tree: FlatTree, scratch: np.ndarray, max_depth: int = 12) -> "Schedule":
        """The frontier depth whose subtrees, grouped by shared infosets, balance two
        threads best. `scratch`: 8 bytes a node (the solver's own-reach array)."""
        n = tree.num_nodes
        ts = kern.tree_struct(tree)
        ints = scratch.view(np.int32)
        depth, last = ints[:n], ints[n:2 * n]
        kern._subtree_ends(ts, depth, last)
        levels = int(depth.max())
        if not kern._is_contiguous(ts, last):
            return cls.serial(tree, levels)
        owner = np.empty(tree.num_infosets, dtype=np.int32)
        best = None
        for d in range(1, max_depth + 1):
            ranges = kern._frontier(ts, depth, last, d)
            if len(ranges) < 2:
                if len(ranges) == 0:
                    break
                continue
            ranges = ranges[np.argsort(ranges[:, 0], kind="stable")]
            sizes = ranges[:, 1] - ranges[:, 0]
            top = n - int(sizes.sum())
            groups, shares, cost = [], [], 0
            for p in range(tree.num_players):
                owner.fill(-1)
                roots = kern._components(ts, ranges, p, owner)
                comp_size = np.bincount(roots, weights=sizes, minlength=len(ranges))
                bins = [[], []]
                load = [0, 0]
                for c in np.argsort(-comp_size, kind="stable"):
                    if comp_size[c] == 0:
                        break
                    j = 0 if load[0] <= load[1] else 1
                    bins[j].append(c)
                    load[j] += comp_size[c]
                member = [np.isin(roots, b) for b in bins]
                groups.append((ranges[member[0]], ranges[member[1]]))
                shares.append(max(load) / n)
                cost += top + max(load)
            if best is None or cost < best[0]:
                best = (cost, d, ranges, tuple(groups), tuple(shares))
            if cost <= 1.02 * n:  # within 2% of an even split for both passes
                break
        if best is None:
            return cls.serial(tree, levels)
        _, d, ranges, groups, shares = best
        # The top: every node outside the frontier's subtrees (depth <= d).
        bounds = np.concatenate(([0], ranges.ravel(), [n])).reshape(-1, 2)
        top = bounds[bounds[:, 1] > bounds[:, 0]].astype(np.int64)
        roots = tuple(tuple(_roots(depth, d, g) for g in groups[p])
                      for p in range(tree.num_players))
        return cls(d, top, groups, shares, levels, roots).assign_infosets(tree)


def _roots(depth: np.ndarray, d: int, ranges: np.ndarray) -> np.ndarray:
    """The subtrees' roots: the nodes at depth d + 1 in the descendant ranges of the
    nodes at depth d, ascending."""
    parts = [lo + np.flatnonzero(depth[lo:hi] == d + 1) for lo, hi in ranges]
    return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, np.int64)


class CFRSolver:
    """Iterates one algorithm over one tree; holds regrets and the strategy sum.

    `threads` (default: 2 where the machine has them) splits every pass over disjoint
    subtrees (`Schedule`); the results are identical to one thread's, bit for bit.
    """

    def __init__(self, tree: FlatTree, algo: Algorithm | str = "cfr+",
                 threads: int | None = None):
        self.tree = tree
        self.algo = algorithm(algo) if isinstance(algo, str) else algo
        self.threads = DEFAULT_THREADS if threads is None else max(1, int(threads))
        slots = tree.num_action_slots
        self.iteration = 0
        predictive = self.algo.rule == kern.RULE_PCFR_PLUS
        self.current = uniform_strategy(tree)
        self.regret = np.zeros(slots)
        # Only PCFR+ reads last iteration's regrets (its prediction).
        self.prediction = np.zeros(slots if predictive else 0)
        self.strategy_sum = np.zeros(slots)
        instant = np.zeros(slots)
        n = tree.num_nodes
        reach_own = np.empty(n)
        # The same schedule for any number of threads: that is what makes one thread's
        # results and two threads' identical.
        self.schedule = Schedule.split(tree, reach_own)
        self._width = int(tree.num_children.max()) if n else 1
        self._tree = kern.tree_struct(tree)
        # Player p's view (its own payoff under the kernels' sign) for each pass; the
        # same struct for both players of a two-player zero-sum tree.
        self._views = tuple(self._tree if tree.payoffs is None else
                            kern.tree_struct(tree, p) for p in range(tree.num_players))
        # Infosets with a node in the top of a split schedule are updated every pass
        # (both threads' walks may reach them, so neither marks them); the walks mark
        # the others they reach.
        touched = np.zeros(tree.num_infosets, dtype=np.int8)
        if self.schedule.depth >= 0:
            for p in range(tree.num_players):
                touched[self.schedule.own[p][2]] = kern.ALWAYS
        self._state = kern.CFRState(self.current, self.regret, self.prediction,
                                    self.strategy_sum, instant, reach_own, np.empty(n),
                                    touched)

    # ----- state for checkpoints ------------------------------------------------------
    def arrays(self) -> dict[str, np.ndarray]:
        return {"current": self.current, "regret": self.regret,
                "prediction": self.prediction, "strategy_sum": self.strategy_sum}

    def restore(self, iteration: int, arrays: dict[str, np.ndarray]) -> None:
        for name, arr in arrays.items():
            target = getattr(self, name)
            if name == "prediction" and target.size == 0:
                continue  # a checkpoint from before predictions were PCFR+'s only
            if target.shape != arr.shape:
                raise ValueError(f"checkpoint array {name} has shape {arr.shape}, "
                                 f"the tree needs {target.shape}")
            target[:] = arr
        self.iteration = iteration
        if self.prediction.size:  # any infoset may hold a prediction: update all once
            self._state.touched[:] |= kern.LAST

    # ----- iterations -----------------------------------------------------------------
    def step(self, iterations: int = 1) -> None:
        """Run `iterations` iterations. A Ctrl-C (SIGINT) meanwhile takes effect once the
        iteration under way is complete (`_whole_iterations`)."""
        cs, a, sched = self._state, self.algo, self.schedule
        threads, levels, width = self.threads, sched.levels, self._width
        with _whole_iterations() as interrupted:
            for _ in range(iterations):
                self.iteration += 1
                it = self.iteration
                rule = kern.Rule(a.rule, float(it), float(a.alpha), float(a.beta),
                                 float(a.gamma), a.average_weight(it))
                for p, ts in enumerate(self._views):
                    (r0, r1), (own0, own1, own_top) = sched.roots[p], sched.own[p]
                    kern._pass_top_down(ts, cs, p, sched.down)
                    _both(lambda: kern._pass_group(ts, cs, p, rule, r0, own0, levels,
                                                   width),
                          lambda: kern._pass_group(ts, cs, p, rule, r1, own1, levels,
                                                   width), threads)
                    kern._pass_top_up(ts, cs, p, rule, sched.depth, own_top, levels, width)
                if interrupted:
                    break

    def restore_current(self) -> None:
        """Recompute the current strategy from the regrets (after a best response
        borrowed its array)."""
        kern._rematch(self._tree, self._state, self.algo.rule == kern.RULE_PCFR_PLUS)

    def average_strategy(self, out: np.ndarray | None = None) -> np.ndarray:
        """The average strategy per action slot (uniform where never reached), into
        `out` if given (the solve job passes `current` once it is done iterating)."""
        return normalise(self.tree, self.strategy_sum, out)


def normalise(tree: FlatTree, weights: np.ndarray,
              out: np.ndarray | None = None) -> np.ndarray:
    """Per infoset, weights / their sum (uniform where the sum is zero); one pass, no
    temporaries (the average strategy of a 200-million-node solve is 1.5 GiB)."""
    if out is None:
        out = np.empty(len(weights))
    kern._normalise(kern.tree_struct(tree), weights, out)
    return out
