"""What the abstraction costs: an abstracted strategy (a Monte Carlo CFR table or a
bot) written onto the exact game tree of a reduced deck, where the exact best response
gives its true exploitability.

The projection also checks the abstraction's contract on every node: all histories of
one information state must get the same probabilities (the key depends only on what the
player knows). A violation is counted and reported, never averaged away.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit
from game_def.core import rules_array

from solver.mccfr import kernels as ab
from solver.players import kernels as ka
from solver.players.agents import Agent
from solver.exact.best_response import exploitability
from solver.exact.kernels import grow_2d
from solver.exact.robinwood_tree import build_robinwood_tree


@jit
def _project(rules, first_child, infoset, infoset_offset, seats, strategy, filled):
    """DFS over the (non-symmetric) tree and the core in lockstep; writes the
    probabilities of the players of `seats` (solver.players.kernels.Seats) per infoset.
    Returns the number of inconsistent infosets seen."""
    states = np.empty((256, k.S_SIZE), dtype=np.int64)
    knows = np.empty((256, ab.K_SIZE), dtype=np.int64)
    nodes = np.empty(256, dtype=np.int64)
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    chance_p = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    probs = np.empty(k.MAX_LEGAL, dtype=np.float64)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    states[0] = k.initial_state(rules)
    knows[0] = ab.initial_knowledge(states[0], rules)
    nodes[0] = 0
    top = 1
    bad = 0
    while top > 0:
        top -= 1
        state = states[top].copy()
        know = knows[top].copy()
        node = nodes[top]
        cur = k.current_player(state)
        if cur == k.TERMINAL_PLAYER:
            continue
        if cur == k.CHANCE_PLAYER:
            m = k.chance_outcomes(state, rules, actions, chance_p)
        else:
            m = k.legal_actions(state, rules, actions)
            ka.seat_probs(seats, state, rules, know, cur, actions, m, scratch, abst, probs)
            s = infoset[node]
            off = infoset_offset[s]
            if filled[s]:
                for i in range(m):
                    if abs(strategy[off + i] - probs[i]) > 1e-9:
                        bad += 1
                        break
            else:
                filled[s] = 1
                for i in range(m):
                    strategy[off + i] = probs[i]
        if top + m > len(nodes):
            states = grow_2d(states, top + m)
            knows = grow_2d(knows, top + m)
            grown = np.empty(2 * (top + m), dtype=np.int64)
            grown[:top] = nodes[:top]
            nodes = grown
        f = first_child[node]
        for i in range(m):
            states[top] = state
            k.apply_action(states[top], rules, actions[i])
            knows[top] = know
            ab.observe(knows[top], state, actions[i], states[top], rules)
            nodes[top] = f + i
            top += 1
    return bad


@dataclasses.dataclass
class AbstractionCost:
    variant: str
    agent: str
    exploitability: float
    value: float            # seat 0's expected payoff with both seats following it
    infosets: int
    inconsistent_infosets: int


def exact_evaluation(agent: Agent, variant=None, tree=None) -> AbstractionCost:
    """Exact exploitability of an agent's strategy on the full (unabstracted) tree."""
    variant = variant or agent.variant
    if tree is None:
        tree = build_robinwood_tree(variant, symmetric=False)
    strategy = np.zeros(tree.num_action_slots, dtype=np.float64)
    filled = np.zeros(tree.num_infosets, dtype=np.int8)
    bad = _project(rules_array(variant), tree.first_child, tree.infoset, tree.infoset_offset,
                   agent.seats(), strategy, filled)
    # Infosets the walk never reached cannot exist in a full walk; guard anyway.
    missing = np.flatnonzero(filled == 0)
    for s in missing:
        off, n = tree.infoset_offset[s], tree.infoset_num_actions[s]
        strategy[off:off + n] = 1.0 / n
    result = exploitability(tree, strategy)
    return AbstractionCost(str(variant), agent.name, result.exploitability, result.value,
                           tree.num_infosets, int(bad))


def project(agent: Agent, variant, tree) -> np.ndarray:
    """The agent's strategy on every infoset of a non-symmetric exact tree."""
    strategy = np.zeros(tree.num_action_slots, dtype=np.float64)
    filled = np.zeros(tree.num_infosets, dtype=np.int8)
    bad = _project(rules_array(variant), tree.first_child, tree.infoset, tree.infoset_offset,
                   agent.seats(), strategy, filled)
    if bad:
        raise AssertionError(f"{agent.name} gives {bad} infosets of {variant} different "
                             f"probabilities in different histories")
    return strategy


def exact_match_value(a: Agent, b: Agent, variant, tree=None) -> float:
    """Seat 0's exact expected payoff when agent `a` plays seat 0 and `b` seat 1."""
    from solver.exact.best_response import expected_value

    if tree is None:
        tree = build_robinwood_tree(variant, symmetric=False)
    sa, sb = project(a, variant, tree), project(b, variant, tree)
    seat_of_slot = np.repeat(tree.infoset_player, tree.infoset_num_actions)
    return expected_value(tree, np.where(seat_of_slot == 0, sa, sb))
