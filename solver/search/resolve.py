"""Depth-limited re-solving (Brown, Sandholm and Amos 2018) over a blueprint table.

At a decision of seat `me`, the subgame starts at the decision's public state over both
seats' ranges (solver.search.ranges: every history the public record allows, weighted
by chance and by each seat's blueprint probabilities, and labelled by what each seat
observed, so that the opponent's information sets are reasoned about, not read through
one self-image). It runs to the end of the `horizon`-th turn boundary; there the
opponent picks, at its information set, one of the continuation strategies: the
blueprint or a tilt of it (the blueprint with one action's probability multiplied:
multi-valued states), `me` continuing as the blueprint. It is solved with the exact
CFR engine (solver.exact) over its flat tree, and `me` plays the root's average
strategy at its own information set, sampled.

`gadget="resolve"` is the safe variant (Burch, Johanson and Bowling 2014): at the root
the opponent may, at each of its information sets, take its blueprint value there
instead of entering, so the re-solved strategy may not give it more than the blueprint
did (where the values are exact). `gadget="none"` is unsafe re-solving.

Leaf and gadget values come from `values`: the exact game tree's node values on a small
deck (solver.search.whole), else a walk of the rest of the round under a node budget and
rollouts beyond it. docs/resolve.md gives the method and what it measured.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from game_def import kernels as k
from game_def.core import rules_array

from solver.exact import CFRSolver, FlatTree
from solver.players import kernels as ka
from solver.players.agents import Agent, AgentError
from solver.search import _resolve_kernels as rk
from solver.search import ranges
from solver.search.searcher import TILT_ACTIONS

GADGETS = ("none", "resolve")
OWN_RANGES = ("played", "blueprint")


@dataclasses.dataclass(frozen=True)
class ResolveConfig:
    """How a decision is re-solved (docs/resolve.md measures the choices)."""

    horizon: int = 1            # turn boundaries the subgame reaches (1: this turn's end)
    max_depth: int = 2          # ... and player decisions below its root, at most
    iterations: int = 300       # iterations on the subgame
    algorithm: str = "dcfr"
    gadget: str = "none"
    tilts: tuple = (("challenge", 5.0), ("announce", 5.0))
    range_eps: float = 0.05     # ranges mix the blueprint with uniform at this rate
    max_roots: int = 32         # roots kept per public state (resampled beyond)
    leaf_budget: int = 0        # nodes a leaf's exact walk may visit before rollouts
    rollouts: int = 2           # rollouts per leaf and continuation beyond the budget
    max_nodes: int = 20_000     # a larger subgame is cut nearer (horizon, then depth)
    own_range: str = "blueprint"  # the re-solving seat's own range: its blueprint's, or
                                  # what it played ("played": the exact check only)

    def __post_init__(self):
        ints = {"horizon": (1, 20), "max_depth": (1, 64), "iterations": (1, 100_000), "max_roots": (1, 10**6),
                "leaf_budget": (0, 10**9), "rollouts": (1, 10**6),
                "max_nodes": (100, 10**9)}
        for name, (lo, hi) in ints.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or \
                    not lo <= value <= hi:
                raise AgentError(f"re-solve {name} must be an integer from {lo} to {hi}, "
                                 f"got {value!r}")
        if self.own_range not in OWN_RANGES:
            raise AgentError(f"re-solve own_range must be one of {', '.join(OWN_RANGES)}, "
                             f"got {self.own_range!r}")
        if self.gadget not in GADGETS:
            raise AgentError(f"re-solve gadget must be one of {', '.join(GADGETS)}, got "
                             f"{self.gadget!r}")
        if not 0.0 <= self.range_eps < 1.0:
            raise AgentError(f"re-solve range_eps must be in [0, 1), got "
                             f"{self.range_eps!r}")
        for tilt in self.tilts:
            if len(tilt) != 2 or tilt[0] not in TILT_ACTIONS or \
                    not 0.0 < float(tilt[1]) < 1e9:
                raise AgentError(f"a re-solve tilt is (action, factor) with action one of "
                                 f"{', '.join(TILT_ACTIONS)} and a positive factor; got "
                                 f"{tilt!r}")

    def to_json(self) -> dict:
        out = dataclasses.asdict(self)
        out["tilts"] = [list(t) for t in self.tilts]
        return out


def continuation_params(blueprint: Agent, seat: int, tilts) -> np.ndarray:
    """The continuation strategies' parameter rows: the blueprint's own, then one per
    tilt (solver.players P_TILT_*)."""
    base = np.array(blueprint.player(seat).params, dtype=np.float64)
    rows = [base]
    for action, factor in tilts:
        row = base.copy()
        row[ka.P_TILT_ACTION] = TILT_ACTIONS[action]
        row[ka.P_TILT_FACTOR] = float(factor)
        rows.append(row)
    return np.ascontiguousarray(rows)


class LeafValues:
    """Player 0's values of horizon states under `me`'s blueprint against each
    continuation of the other seat: by walk and rollouts (the default), or read from
    exact-tree node values (`tables[me]`: continuations x nodes) on a small deck."""

    def __init__(self, blueprint: Agent | None, config: ResolveConfig, tables=None,
                 seed: int = 0):
        if blueprint is None and tables is None:
            raise ValueError("leaf values need a blueprint agent or exact value tables")
        self.blueprint = blueprint
        self.config = config
        self.tables = tables
        self.seed = int(seed)
        if tables is None:
            self.rules = rules_array(blueprint.variant)
            self.types = [continuation_params(blueprint, 1 - me, config.tilts)
                          for me in (0, 1)]

    @property
    def count(self) -> int:
        return len(self.config.tilts) + 1

    def __call__(self, me: int, states, knows, nodes, n: int, only_blueprint=False,
                 seed: int = 0):
        """Values of states [0, n) (n x continuations; the blueprint's column alone with
        only_blueprint); `seed` draws the rollouts."""
        if self.tables is not None:
            table = self.tables[me]
            return table[:1 if only_blueprint else None, nodes[:n]].T.copy()
        types = self.types[me][:1] if only_blueprint else self.types[me]
        out = np.empty((n, len(types)))
        stream = np.random.SeedSequence([self.seed, int(seed) & (2**63 - 1)])
        rk._leaf_values(self.rules, states, knows, n, me, self.blueprint.player(me),
                        self.blueprint.player(1 - me), types, self.config.leaf_budget,
                        self.config.rollouts, stream.generate_state(1, dtype=np.uint64)[0],
                        out)
        return out


@dataclasses.dataclass
class Solved:
    """A re-solved public state: `me`'s root strategy at each of its classes there."""

    me: int
    strategies: dict        # own record hash (int) -> (actions int64, probabilities)
    nodes: int              # subgame size
    infosets: int
    horizon: int            # horizon used (a subgame over max_nodes is cut shorter)
    seconds: float

    def strategy(self, own_hash) -> tuple[np.ndarray, np.ndarray]:
        return self.strategies[int(own_hash)]


def _classes(roots: ranges.Roots) -> tuple[np.ndarray, list[np.ndarray]]:
    """Dense class ids of each root for seat 0 and seat 1 (one id space), and each
    seat's class hashes in id order."""
    u0, c0 = np.unique(roots.hashes[:, 0], return_inverse=True)
    u1, c1 = np.unique(roots.hashes[:, 1], return_inverse=True)
    classes = np.stack([c0, c1 + len(u0)], axis=1).astype(np.int64)
    return np.ascontiguousarray(classes), [u0, u1]


def build(rules, layout, roots: ranges.Roots, config: ResolveConfig, values: LeafValues,
          first_child: np.ndarray, horizon: int | None = None, seed: int = 0,
          max_depth: int | None = None):
    """The subgame's FlatTree over `roots` (module docstring), the classes' hashes and
    the root class of each of `me`'s information sets; None if over max_nodes."""
    me = roots.seat
    opp = 1 - me
    classes, hashes = _classes(roots)
    n_cls = int(classes.max()) + 1
    horizon_turn = int(roots.states[0, k.S_TURN]) + (horizon or config.horizon)
    reach = roots.reach
    if config.gadget == "none":
        weights = roots.weight(me)
        if weights.sum() <= 0:      # out of both ranges: chance alone
            weights = reach[:, rk.R_CHANCE].copy()
        g_weight = np.zeros(n_cls)
        g_value = np.zeros(n_cls)
        gadget = 0
    else:
        weights = roots.own_weight(me)
        if weights.sum() <= 0:
            weights = reach[:, rk.R_CHANCE].copy()
        v = values(me, roots.states, roots.knows, roots.nodes, len(roots),
                   only_blueprint=True, seed=seed + 1)[:, 0]
        g_weight = np.bincount(classes[:, opp], weights=weights, minlength=n_cls)
        g_sum = np.bincount(classes[:, opp], weights=weights * v, minlength=n_cls)
        g_value = np.divide(g_sum, g_weight, out=np.zeros(n_cls), where=g_weight > 0)
        gadget = 1
    out = rk._build_subgame(rules, layout, me, roots.states, roots.knows, classes,
                            np.ascontiguousarray(weights), roots.nodes, len(roots),
                            horizon_turn, max_depth or config.max_depth, values.count,
                            gadget, g_weight, g_value,
                            first_child, config.max_nodes)
    (n, kind, player, infoset, first, count, prob, payoff, set_player, set_count, set_key,
     set_actions, n_sets, n_slots, leaf_state, leaf_know, leaf_first, leaf_tree,
     n_leaves) = out
    if n < 0:
        return None
    leaf = values(me, leaf_state, leaf_know, leaf_tree, n_leaves, seed=seed)
    width = values.count
    for c in range(width):
        payoff[leaf_first[:n_leaves] + (c if width > 1 else 0)] = leaf[:, c]
    num_actions = set_count[:n_sets].copy()
    tree = FlatTree(
        kind=kind[:n].copy(), player=player[:n].copy(), infoset=infoset[:n].copy(),
        first_child=first[:n].copy(), num_children=count[:n].copy(),
        edge_prob=prob[:n].copy(), payoff=payoff[:n].copy(),
        infoset_player=set_player[:n_sets].copy(),
        infoset_offset=np.concatenate(([0], np.cumsum(num_actions)[:-1])).astype(np.int64),
        infoset_num_actions=num_actions,
        infoset_actions=set_actions[:n_slots].copy(),
        infoset_key=[str(x) for x in set_key[:n_sets]],
        description="re-solving subgame")
    own = {}
    keys = set_key[:n_sets]
    offset = len(hashes[0]) if me == 1 else 0
    for cid, h in enumerate(hashes[me]):
        hit = np.flatnonzero(keys == (cid + offset) * 4 + rk.KEY_DECISION)
        if len(hit):
            own[int(h)] = int(hit[0])
    return tree, own


def forest(trees: list[FlatTree]) -> tuple[FlatTree, np.ndarray]:
    """Independent subgames as one FlatTree under a chance root (equal probabilities),
    so that one CFR run solves them all: every subgame's regrets are its own, scaled by
    a constant, which regret matching ignores. Returns the tree and each subgame's
    first action slot in it. Subgame j's root becomes node 1 + j and its other nodes
    one contiguous block, so children stay contiguous and after their parents."""
    if len(trees) == 1:
        return trees[0], np.zeros(1, dtype=np.int64)
    count = len(trees)
    sizes = np.array([t.num_nodes for t in trees], dtype=np.int64)
    block = 1 + count + np.concatenate(([0], np.cumsum(sizes - 1)[:-1]))
    set_base = np.concatenate(([0], np.cumsum([t.num_infosets for t in trees])[:-1]))
    slot_base = np.concatenate(([0], np.cumsum([t.num_action_slots for t in trees])[:-1]))

    def remap(j, ids):
        return np.where(ids == 0, 1 + j, block[j] + ids - 1)

    def gather(name, root_value, transform=None):
        heads = [np.array([root_value])]
        rest = []
        for j, t in enumerate(trees):
            arr = getattr(t, name).astype(np.float64 if name in ("edge_prob", "payoff")
                                          else np.int64)
            if transform is not None:
                arr = transform(j, t, arr)
            heads.append(arr[:1])
            rest.append(arr[1:])
        return np.concatenate(heads + rest)

    def children(j, t, arr):
        return np.where(t.kind == 0, 0, remap(j, arr))

    def sets(j, t, arr):
        return np.where(arr >= 0, arr + set_base[j], -1)

    kind = gather("kind", 1).astype(np.int8)
    prob = gather("edge_prob", 1.0)
    prob[1:1 + count] = 1.0 / count
    tree = FlatTree(
        kind=kind, player=gather("player", -1).astype(np.int8),
        infoset=gather("infoset", -1, sets).astype(np.int64),
        first_child=gather("first_child", 1, children).astype(np.int64),
        num_children=gather("num_children", count).astype(np.int64),
        edge_prob=prob, payoff=gather("payoff", 0.0),
        infoset_player=np.concatenate([t.infoset_player for t in trees]),
        infoset_offset=np.concatenate([t.infoset_offset + slot_base[j]
                                       for j, t in enumerate(trees)]).astype(np.int64),
        infoset_num_actions=np.concatenate([t.infoset_num_actions for t in trees]),
        infoset_actions=np.concatenate([t.infoset_actions for t in trees]),
        infoset_key=[key for t in trees for key in t.keys()],
        description=f"{count} re-solving subgames")
    return tree, slot_base


def solve_subgames(built: list, config: ResolveConfig, seats: list[int],
                   seconds: float = 0.0) -> list[Solved]:
    """Solve subgames from `build` (each (tree, own classes, horizon)) together
    (`forest`): the root strategies of each one's seat `seats[j]`."""
    tree, slot_base = forest([b[0] for b in built])
    start = time.perf_counter()
    solver = CFRSolver(tree, config.algorithm, threads=1)
    solver.step(config.iterations)
    avg = solver.average_strategy()
    share = (time.perf_counter() - start + seconds) / len(built)
    out = []
    for j, (sub, own, horizon) in enumerate(built):
        strategies = {}
        for h, s in own.items():
            off = int(sub.infoset_offset[s])
            m = int(sub.infoset_num_actions[s])
            strategies[h] = (sub.infoset_actions[off:off + m].astype(np.int64),
                             avg[slot_base[j] + off:slot_base[j] + off + m].copy())
        out.append(Solved(seats[j], strategies, sub.num_nodes, sub.num_infosets, horizon,
                          share))
    return out


def build_within(rules, layout, roots: ranges.Roots, config: ResolveConfig,
                 values: LeafValues, first_child: np.ndarray = ranges.NO_TREE,
                 seed: int = 0):
    """`build` to the configured horizon and depth, or to nearer ones when the subgame
    would pass max_nodes (the horizon first, then the depth): (tree, own classes,
    horizon used)."""
    horizon, depth = config.horizon, config.max_depth
    while True:
        built = build(rules, layout, roots, config, values, first_child, horizon, seed,
                      depth)
        if built is not None:
            return built[0], built[1], horizon
        if horizon > 1:
            horizon -= 1
        elif depth > 1:
            depth = min(depth - 1, 8)
        else:
            raise AgentError(f"the re-solving subgame has more than "
                             f"{config.max_nodes:,} nodes even one decision deep: raise "
                             f"max_nodes or lower max_roots")


def solve(rules, layout, roots: ranges.Roots, config: ResolveConfig, values: LeafValues,
          first_child: np.ndarray = ranges.NO_TREE, seed: int = 0) -> Solved:
    """Re-solve the public state of `roots` (all at a decision of one seat); `seed`
    draws the rollouts."""
    start = time.perf_counter()
    built = build_within(rules, layout, roots, config, values, first_child, seed)
    return solve_subgames([built], config, [roots.seat], time.perf_counter() - start)[0]
