"""Position symmetry is lossless: same value, same exploitability once lifted."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import game_def
from solver.exact.best_response import exploitability
from solver.exact.cfr import CFRSolver
from solver.exact.policy import StrategyPolicy
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.exact.symmetry import PositionSymmetry


def lift_to_full_tree(variant, reduced, strategy):
    """The reduced strategy as a strategy of the full tree (every real infoset)."""
    full = build_robinwood_tree(variant)
    sym = PositionSymmetry(variant)
    table = {}
    for s in range(reduced.num_infosets):
        off, k = int(reduced.infoset_offset[s]), int(reduced.infoset_num_actions[s])
        table[reduced.key(s)] = dict(zip(reduced.infoset_actions[off:off + k].tolist(),
                                         strategy[off:off + k]))
    lifted = np.empty(full.num_action_slots)
    for s in range(full.num_infosets):
        off, k = int(full.infoset_offset[s]), int(full.infoset_num_actions[s])
        key = full.key(s)
        legal = full.infoset_actions[off:off + k].tolist()
        probs = sym.lift(key, legal, table[sym.canonical_key(key)])
        lifted[off:off + k] = [probs[a] for a in legal]
    return full, lifted


@pytest.mark.parametrize("spec, iterations", [
    ("rspx:max_turns=3", 300),
    ("rspmx:max_turns=2", 200),
    ("duel6:max_turns=1", 200),
    ("Robin+Witch+Sheriff+Deputy+Traitor:max_turns=2", 100),
])
def test_symmetric_tree_is_lossless(spec, iterations):
    variant = game_def.parse(spec)
    reduced = build_robinwood_tree(variant, symmetric=True)
    solver = CFRSolver(reduced, "pcfr+")
    solver.step(iterations)
    strategy = solver.average_strategy()
    small = exploitability(reduced, strategy)
    full, lifted = lift_to_full_tree(variant, reduced, strategy)
    assert reduced.num_nodes < full.num_nodes / 2
    big = exploitability(full, lifted)
    assert big.value == pytest.approx(small.value, abs=1e-12)
    assert big.exploitability == pytest.approx(small.exploitability, abs=1e-12)
    # The game value itself agrees: both trees solved separately converge to it.
    direct = CFRSolver(full, "pcfr+")
    direct.step(iterations)
    exact = exploitability(full, direct.average_strategy())
    gap = small.exploitability + exact.exploitability
    assert abs(small.value - exact.value) <= 2 * gap + 1e-9


def test_symmetric_policy_answers_real_states_and_openspiel_agrees():
    variant = game_def.parse("rspx:max_turns=2")
    game = game_def.load_game(variant)
    reduced = build_robinwood_tree(variant, symmetric=True)
    solver = CFRSolver(reduced, "dcfr")
    solver.step(100)
    strategy = solver.average_strategy()
    policy = StrategyPolicy.from_tree(game, reduced, strategy, PositionSymmetry(variant))
    ours = exploitability(reduced, strategy).exploitability
    assert pyspiel.exploitability(game, policy.to_dict()) == pytest.approx(ours, abs=1e-9)
    # A first peek at any of the three face-down positions has the same probability.
    probs = policy.action_probabilities(game.new_initial_state())
    assert probs[0] == pytest.approx(probs[1]) == pytest.approx(probs[2])
    assert sum(probs.values()) == pytest.approx(1.0)


def test_canonical_relabelling_orders_positions_by_first_mention():
    sym = PositionSymmetry(game_def.parse("duel6"))
    info = "P1; 0:peek 4; 0:announce Robin; 1:challenge; 4=Peasant; 1:peek 2"
    perm, mentioned = sym.relabeling(info)
    assert mentioned == 2 and perm[4] == 0 and perm[2] == 1 and perm[5] == 5
    assert sym.canonical_key(info) == \
        "P1; 0:peek 0; 0:announce Robin; 1:challenge; 0=Peasant; 1:peek 1"


def test_symmetry_needs_the_random_deal():
    with pytest.raises(ValueError, match="random deal"):
        build_robinwood_tree(game_def.parse("rspx:layout=Robin+Sheriff+Peasant+Traitor"),
                             symmetric=True)
