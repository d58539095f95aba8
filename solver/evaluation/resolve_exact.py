"""The re-solver's whole strategy on a small deck, and its exact exploitability.

The re-solver (solver.search.resolve) is run at every public state of the round where
a seat has a choice: one subgame per public state gives the root strategy of every
information set of the seat to move there, so walking the public tree once gives the
re-solver's strategy everywhere. Its ranges are exact (every history of the public
state) and its horizon values are the exact tree's node values under the blueprint
and its tilts. The exact best response (solver.exact) then gives its exploitability,
beside the blueprint's: the measurement of depth-limited solving (Brown, Sandholm and
Amos 2018), which needs no opponent model.

The blueprint is a table agent (projected onto the tree) or, for checks, any strategy
on the exact tree's action slots (an exact solve's).
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from game_def import kernels as k
from game_def.core import rules_array

from solver.evaluation import _one_step_kernels as _k
from solver.evaluation.abstraction_cost import project
from solver.exact import build_robinwood_tree, exploitability
from solver.exact.best_response import node_values
from solver.players import kernels as ka
from solver.players.agents import Agent, bot
from solver.search import ranges
from solver.search.resolve import LeafValues, ResolveConfig, build_within, solve_subgames
from solver.search.searcher import TILT_ACTIONS


def _tilted(tree, n_positions: int, strategy: np.ndarray, action: str,
            factor: float) -> np.ndarray:
    target = TILT_ACTIONS[action]
    code = tree.infoset_actions.astype(np.int64) - 4 * n_positions
    if target == k.A_ANNOUNCE:
        hit = (code >= k.A_ANNOUNCE) & (code < k.A_CHALLENGE)
    else:
        hit = code == target
    out = np.where(hit, strategy * factor, strategy)
    sums = np.add.reduceat(out, tree.infoset_offset)
    per_slot = np.repeat(sums, tree.infoset_num_actions)
    return np.divide(out, per_slot, out=strategy.copy(), where=per_slot > 0)


def value_tables(tree, n_positions: int, bp: np.ndarray, tilts,
                 agent: Agent | None = None) -> list[np.ndarray]:
    """Per re-solving seat `me`: player 0's value at every node of `tree` with `me`
    playing the blueprint `bp` (tree slots) and the other seat each continuation, the
    blueprint then each tilt (continuations x nodes). With `agent`, the tilts are the
    agent's own (projected); else they are applied to `bp`'s slots."""
    seat_of_slot = np.repeat(tree.infoset_player, tree.infoset_num_actions)
    conts = [bp]
    for action, factor in tilts:
        if agent is not None:
            params = np.array(agent.params, dtype=np.float64)
            params[ka.P_TILT_ACTION] = TILT_ACTIONS[action]
            params[ka.P_TILT_FACTOR] = float(factor)
            conts.append(project(dataclasses.replace(agent, params=params),
                                 agent.variant, tree))
        else:
            conts.append(_tilted(tree, n_positions, bp, action, factor))
    return [np.stack([node_values(tree, np.where(seat_of_slot == me, bp, c))
                      for c in conts]) for me in (0, 1)]


@dataclasses.dataclass
class ResolvedStrategy:
    strategy: np.ndarray        # per action slot of the exact tree
    blueprint: np.ndarray       # the blueprint's
    public_states: int          # re-solved (a seat had a choice)
    largest_subgame: int        # nodes
    seconds: float


def resolved_strategy(blueprint: Agent | None, config: ResolveConfig, tree=None,
                      progress=None, batch_limit: int = 1_000_000, *, variant=None,
                      tree_blueprint: np.ndarray | None = None) -> ResolvedStrategy:
    """The re-solver's strategy at every information set of a small variant (module
    docstring): of the table agent `blueprint`, or of `tree_blueprint` (a strategy on
    `tree`'s slots, with `variant`). Subgames are solved together, `batch_limit` nodes
    at a time (solver.search.resolve.forest: the same strategies as one by one)."""
    variant = blueprint.variant if blueprint is not None else variant
    tree = tree if tree is not None else build_robinwood_tree(variant)
    rules = rules_array(variant)
    layout = ranges.token_layout(variant)
    start = time.perf_counter()
    if blueprint is not None:
        bp = project(blueprint, variant, tree)
        seats = blueprint.seats()
    else:
        bp = np.ascontiguousarray(tree_blueprint, dtype=np.float64)
        seats = bot("uniform").seats()      # not read: the tree strategy is
    values = LeafValues(None, config, tables=value_tables(
        tree, variant.num_positions, bp, config.tilts, blueprint))
    strategy = bp.copy()
    # own ranges: what each seat played, the re-solved strategy (filled in as it goes)
    lockstep = ranges.TreeStrategy.of(tree, bp if blueprint is None else None,
                                      strategy if config.own_range == "played" else None)
    first_child = lockstep.first_child
    stack = [ranges.initial_roots(rules, tree_root=True)]
    solved = 0
    largest = 0
    batch, pending, batch_nodes = [], [], 0

    def flush():
        nonlocal solved, largest, batch, pending, batch_nodes
        if not batch:
            return
        results = solve_subgames(batch, config, [p[0] for p in pending])
        for (_, own, node_sets), result in zip(pending, results):
            largest = max(largest, result.nodes)
            for row, s in enumerate(node_sets):
                actions, probs = result.strategy(own[row])
                off = int(tree.infoset_offset[s])
                m = int(tree.infoset_num_actions[s])
                if not np.array_equal(tree.infoset_actions[off:off + m], actions):
                    raise AssertionError("the subgame's actions differ from the tree's")
                strategy[off:off + m] = probs
        solved += len(batch)
        if progress is not None:
            progress(solved)
        batch, pending, batch_nodes = [], [], 0

    while stack:
        # a batch of public states is solved before any of them is expanded, so that
        # their children's own ranges read what was just re-solved
        ready = []
        while stack and batch_nodes < batch_limit:
            roots = stack.pop()
            ready.append(roots)
            node_sets = tree.infoset[roots.nodes]
            if tree.infoset_num_actions[node_sets[0]] > 1:
                built = build_within(rules, layout, roots, config, values, first_child)
                batch.append(built)
                pending.append((roots.seat, roots.hashes[:, roots.seat].copy(), node_sets))
                batch_nodes += built[0].num_nodes
        flush()
        for roots in ready:
            children, keys = ranges.expand(rules, layout, seats, roots, config.range_eps,
                                           lockstep)
            for _, group in ranges.split(children, keys):
                stack.append(group)
    return ResolvedStrategy(strategy, bp, solved, largest, time.perf_counter() - start)


# the decision kinds of solver.search.settings.DECISION_KINDS, by core phase
_KIND_OF_PHASE = {k.PH_TURN: "turn", k.PH_AFTER_PEEK: "after_peek", k.PH_RESPOND: "respond"}


def one_step_strategy(tree, bp: np.ndarray, tables, kinds=("turn", "power"),
                      model_eps: float = 0.05, phases: np.ndarray | None = None
                      ) -> np.ndarray:
    """The one-step searcher (solver.search.searcher) in its limit of infinitely many
    particles and rollouts: at each information set of a searched kind (`phases`: the
    core phase of each infoset), each action's score is its least, over the
    continuations of `tables` (value_tables), belief-weighted value (the belief: chance
    and the blueprint in the other seat, mixed with uniform at `model_eps`); the best
    actions share the probability (ties split evenly), the others get none. Elsewhere
    the blueprint."""
    out = bp.copy()
    offset = tree.infoset_offset.astype(np.int64)
    nact = tree.infoset_num_actions.astype(np.int64)
    for me in (0, 1):
        reach = np.empty(tree.num_nodes)
        _k._others_reach(tree.kind, tree.player, tree.infoset, tree.first_child,
                         tree.num_children, tree.edge_prob, offset, bp, me,
                         float(model_eps), reach)
        scores = np.zeros((tree.num_action_slots, tables[me].shape[0]))
        _k._action_scores(tree.kind, tree.player, tree.infoset, tree.first_child,
                          tree.num_children, offset, reach, tables[me], me, scores)
        least = scores.min(axis=1)
        for s in np.flatnonzero(tree.infoset_player == me):
            kind = _KIND_OF_PHASE.get(int(phases[s]), "power")
            if kind not in kinds or nact[s] < 2:
                continue
            sl = slice(offset[s], offset[s] + nact[s])
            best = least[sl] >= least[sl].max() - 1e-12
            out[sl] = best / best.sum()
    return out


def infoset_phases(tree, variant) -> np.ndarray:
    """The core phase of each infoset of a (non-symmetric) exact tree."""
    phases = np.full(tree.num_infosets, -1, dtype=np.int64)
    _k._phases(rules_array(variant), tree.first_child, tree.infoset, phases)
    return phases


def compare(blueprint: Agent, config: ResolveConfig, tree=None,
            search_kinds=("turn", "power")) -> dict:
    """Exact exploitability of the blueprint, of its one-step searcher's limit
    (one_step_strategy, deciding `search_kinds`) and of its re-solver on the blueprint's
    variant, with the re-solver's cost."""
    variant = blueprint.variant
    tree = tree if tree is not None else build_robinwood_tree(variant)
    resolved = resolved_strategy(blueprint, config, tree)
    tables = value_tables(tree, variant.num_positions, resolved.blueprint, config.tilts,
                          blueprint)
    searched = one_step_strategy(tree, resolved.blueprint, tables, search_kinds,
                                 phases=infoset_phases(tree, variant))
    return {"variant": str(variant), "config": config.to_json(),
            "blueprint": exploitability(tree, resolved.blueprint).exploitability,
            "one_step": exploitability(tree, searched).exploitability,
            "resolver": exploitability(tree, resolved.strategy).exploitability,
            "public_states": resolved.public_states,
            "largest_subgame": resolved.largest_subgame,
            "seconds": resolved.seconds}
