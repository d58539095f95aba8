"""The re-solver's whole strategy on a small deck, and its exact exploitability.

The re-solver (solver.search.resolve) is run at every public state of the round where
a seat has a choice: one subgame per public state gives the root strategy of every
information set of the seat to move there, so walking the public tree once gives the
re-solver's strategy everywhere. Its ranges are exact (every history of the public
state) and its horizon values are the exact tree's node values under the blueprint
and its tilts. The exact best response (solver.exact) then gives its exploitability,
beside the blueprint's: the measurement of depth-limited solving (Brown, Sandholm and
Amos 2018), which needs no opponent model.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from game_def.core import rules_array

from solver.evaluation.abstraction_cost import project
from solver.exact import build_robinwood_tree, exploitability
from solver.exact.best_response import node_values
from solver.players.agents import Agent
from solver.search import ranges
from solver.search.resolve import (
    LeafValues, ResolveConfig, build_within, continuation_params, solve_subgames,
)


def value_tables(blueprint: Agent, variant, tree, tilts) -> list[np.ndarray]:
    """Per re-solving seat `me`: player 0's value at every node of `tree` with `me`
    playing the blueprint and the other seat each continuation (continuations x nodes)."""
    bp = project(blueprint, variant, tree)
    seat_of_slot = np.repeat(tree.infoset_player, tree.infoset_num_actions)
    tables = []
    for me in (0, 1):
        rows = []
        for params in continuation_params(blueprint, 1 - me, tilts):
            other = dataclasses.replace(blueprint, params=params)
            cont = bp if np.array_equal(params, blueprint.params) else \
                project(other, variant, tree)
            rows.append(node_values(tree, np.where(seat_of_slot == me, bp, cont)))
        tables.append(np.stack(rows))
    return tables


@dataclasses.dataclass
class ResolvedStrategy:
    strategy: np.ndarray        # per action slot of the exact tree
    blueprint: np.ndarray       # the blueprint's, projected
    public_states: int          # re-solved (a seat had a choice)
    largest_subgame: int        # nodes
    seconds: float


def resolved_strategy(blueprint: Agent, config: ResolveConfig, tree=None,
                      progress=None, batch_limit: int = 1_000_000) -> ResolvedStrategy:
    """The re-solver's strategy at every information set of the blueprint's (small)
    variant (module docstring). Subgames are solved together, `batch_limit` nodes at a
    time (solver.search.resolve.forest: the same strategies as one by one)."""
    variant = blueprint.variant
    tree = tree if tree is not None else build_robinwood_tree(variant)
    rules = rules_array(variant)
    layout = ranges.token_layout(variant)
    start = time.perf_counter()
    values = LeafValues(blueprint, config, tables=value_tables(blueprint, variant, tree,
                                                               config.tilts))
    bp = project(blueprint, variant, tree)
    strategy = bp.copy()
    seats = blueprint.seats()
    first_child = np.ascontiguousarray(tree.first_child, dtype=np.int64)
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
        roots = stack.pop()
        node_sets = tree.infoset[roots.nodes]
        if tree.infoset_num_actions[node_sets[0]] > 1:
            built = build_within(rules, layout, roots, config, values, first_child)
            batch.append(built)
            pending.append((roots.seat, roots.hashes[:, roots.seat].copy(), node_sets))
            batch_nodes += built[0].num_nodes
            if batch_nodes >= batch_limit:
                flush()
        children, keys = ranges.expand(rules, layout, seats, roots, config.range_eps,
                                       first_child)
        for _, group in ranges.split(children, keys):
            stack.append(group)
    flush()
    return ResolvedStrategy(strategy, bp, solved, largest, time.perf_counter() - start)


def compare(blueprint: Agent, config: ResolveConfig, tree=None) -> dict:
    """Exact exploitability of the blueprint and of its re-solver on the blueprint's
    variant, with the re-solver's cost."""
    variant = blueprint.variant
    tree = tree if tree is not None else build_robinwood_tree(variant)
    resolved = resolved_strategy(blueprint, config, tree)
    return {"variant": str(variant), "config": config.to_json(),
            "blueprint": exploitability(tree, resolved.blueprint).exploitability,
            "resolver": exploitability(tree, resolved.strategy).exploitability,
            "public_states": resolved.public_states,
            "largest_subgame": resolved.largest_subgame,
            "seconds": resolved.seconds}
