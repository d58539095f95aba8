"""analysis.values (reach, action values of a stored exact strategy) against a brute-force
recursive evaluation of the OpenSpiel game under load_strategy's policy."""

from __future__ import annotations

from collections import defaultdict

import pytest

import game_def
from analysis.values import StrategyValues
from solver import load_strategy
from solver.exact.cfr import algorithm
from solver.exact.job import SolveConfig, solve


def _brute_force(game, policy):
    """Every history's reach, value (seat 0) and counterfactual weight, by recursion."""
    rows = []

    def visit(state, reach, without):
        if state.is_terminal():
            return state.returns()[0]
        if state.is_chance_node():
            v = 0.0
            for a, p in state.chance_outcomes():
                v += p * visit(state.child(a), reach * p, [w * p for w in without])
            return v
        mover = state.current_player()
        probs = policy.action_probabilities(state)
        children = {}
        v = 0.0
        for a in state.legal_actions():
            p = probs[a]
            nxt = [w * (p if seat != mover else 1.0) for seat, w in enumerate(without)]
            children[a] = visit(state.child(a), reach * p, nxt)
            v += p * children[a]
        rows.append((state.history(), state.information_state_string(), mover, reach,
                     without[mover], v, children, probs))
        return v

    visit(game.new_initial_state(), 1.0, [1.0, 1.0])
    return rows


@pytest.mark.parametrize("spec,symmetric", [("rspx:max_turns=2", True),
                                            ("rspx:max_turns=2", False),
                                            ("Robin+Sheriff+Peasant+Peasant+Traitor:max_turns=2", True)])
def test_values_and_reach_equal_a_brute_force_evaluation(tmp_path, spec, symmetric):
    variant = game_def.parse(spec)
    # few iterations: a mixed, non-equilibrium strategy makes every number informative
    solve(SolveConfig(variant, algorithm("cfr"), tmp_path, max_iterations=7,
                      symmetric=symmetric))
    policy = load_strategy(tmp_path)
    values = StrategyValues.from_run(tmp_path)
    rows = _brute_force(policy.game, policy)
    weight = defaultdict(float)
    weighted = defaultdict(lambda: defaultdict(float))
    info_reach = defaultdict(float)
    for history, info, mover, reach, w, v, children, _ in rows:
        weight[info] += w
        info_reach[info] += reach
        for a, cv in children.items():
            weighted[info][a] += w * (cv if mover == 0 else -cv)
    checked = 0
    for history, info, mover, reach, w, v, children, probs in rows:
        got = values.situation(history)
        assert got.mover == mover
        assert got.reach == pytest.approx(reach, abs=1e-12)
        assert got.value == pytest.approx(v, abs=1e-12)
        assert got.situation_reach == pytest.approx(info_reach[info], abs=1e-12)
        if weight[info] == 0:
            assert got.action_values is None
            continue
        want = {a: weighted[info][a] / weight[info] for a in children}
        assert got.action_values.keys() == want.keys()
        for a in want:
            assert got.action_values[a] == pytest.approx(want[a], abs=1e-12)
        mix = sum(probs[a] * want[a] for a in want)
        assert got.strategy_value == pytest.approx(mix, abs=1e-12)
        checked += 1
    assert checked > 50
