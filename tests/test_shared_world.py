"""Shared worlds (MCCFRConfig.shared_world, docs/mccfr.md, "Shared worlds").

- `_deal_world` deals every card nobody has drawn yet, and the worlds it deals follow
  the lazy deal's law: each undealt position's character and each pair's joint
  frequencies match the probabilities the core's own chance nodes give, computed here
  from the pool by plain arithmetic (not by the kernel).
- Monte Carlo CFR with shared worlds converges on a reduced deck (exact
  exploitability), is reproducible whatever the worker count, resumes exactly and
  differs from the lazy deal; the CLI records the setting and refuses it for the
  exact solvers.
"""

from __future__ import annotations

import dataclasses
import itertools
import json

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from game_def import _core as k
from robinwood.cli import cli
from solver.evaluation.abstraction_cost import project
from solver.exact.best_response import exploitability
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.mccfr._traversal import _deal_world
from solver.mccfr.trainer import MCCFRConfig, MCCFRSolver
from solver.players.agents import load_table_agent, trained_agent

try:
    from tests.test_coarse_letters import _arrays
except ImportError:  # tests/ is not a package: pytest puts it on sys.path
    from test_coarse_letters import _arrays

RSPX5 = game_def.parse("rspx:max_turns=5")


# a standard-deck round with two cards drawn, one of them moved by a Deputy's blind
# shuffle with an undealt card
MID_ROUND = ("peek 0", "deal Deputy", "announce Deputy", "pass", "pick 0", "pick 5",
             "shuffle swap", "peek 3", "deal Companion", "announce Robin", "challenge")


def _mid_round_state():
    game = game_def.load_game("standard")
    state = game_def.play(game, *MID_ROUND)
    return game, np.array(state.core_state, dtype=np.int64)


def _pool_probabilities(state, n):
    """Per undealt position, the lazy deal's probability of each character, and the
    joint probability of a pair: plain arithmetic on the pool counts."""
    pool = [int(state[k.S_POOL + c]) for c in range(k.NUM_CHARACTERS)]
    total = sum(pool)
    free = [p for p in range(n) if state[k.S_CARD + p] == k.UNDEALT]
    single = {c: pool[c] / total for c in range(k.NUM_CHARACTERS) if pool[c]}
    pair = {}
    for a, b in itertools.product(single, single):
        pair[(a, b)] = pool[a] / total * (pool[b] - (a == b)) / (total - 1)
    return pool, free, single, pair


def test_dealt_worlds_follow_the_lazy_deal():
    game, state = _mid_round_state()
    rules = game.rules
    n = int(rules[k.R_N])
    pool, free, single, pair = _pool_probabilities(state, n)
    assert len(free) == sum(pool) == 9 and sum(pool[c] for c in single) == 9
    world = np.empty_like(state)
    buf = np.empty(2 * k.MAX_POSITIONS, dtype=np.int64)
    rng = np.array([12345], dtype=np.uint64)
    draws = 20_000
    counts = np.zeros((n, k.NUM_CHARACTERS))
    pairs = {}
    a, b = free[0], free[-1]
    dealt = [p for p in range(n) if p not in free]
    outside = np.ones(len(state), bool)
    outside[k.S_POOL:k.S_POOL + k.NUM_CHARACTERS] = False
    outside[k.S_CARD:k.S_CARD + n] = False
    for _ in range(draws):
        assert _deal_world(world, state, rules, buf, rng) == len(free)
        # what was dealt stays; the pool is used up exactly, nothing else changes
        assert all(world[k.S_CARD + p] == state[k.S_CARD + p] for p in dealt)
        assert all(world[k.S_POOL + c] == 0 for c in range(k.NUM_CHARACTERS))
        drawn = np.bincount([world[k.S_CARD + p] for p in free],
                            minlength=k.NUM_CHARACTERS)
        assert list(drawn) == pool
        assert np.array_equal(world[outside], state[outside])
        for p in free:
            counts[p, world[k.S_CARD + p]] += 1
        key = (int(world[k.S_CARD + a]), int(world[k.S_CARD + b]))
        pairs[key] = pairs.get(key, 0) + 1
    # frequencies against the lazy deal's probabilities, within 5 standard errors
    for p in free:
        for c, prob in single.items():
            se = np.sqrt(prob * (1 - prob) / draws)
            assert abs(counts[p, c] / draws - prob) < 5 * se + 1e-9, (p, c)
    for key, prob in pair.items():
        se = np.sqrt(prob * (1 - prob) / draws)
        assert abs(pairs.get(key, 0) / draws - prob) < 5 * se + 1e-9, key
    # the core's own chance node at a peek of an undealt card gives the same law
    peeked = game_def.play(game, *MID_ROUND, f"peek {a}")
    outcomes = dict(peeked.chance_outcomes())
    assert outcomes == pytest.approx(single)


def test_a_pool_that_disagrees_with_the_positions_is_left_alone():
    game, state = _mid_round_state()
    broken = state.copy()
    broken[k.S_POOL + k.PEASANT] += 1
    world = np.zeros_like(state)
    buf = np.empty(2 * k.MAX_POSITIONS, dtype=np.int64)
    rng = np.array([1], dtype=np.uint64)
    assert _deal_world(world, broken, game.rules, buf, rng) == -1
    assert np.array_equal(world, broken)


@pytest.fixture(scope="module")
def rspx5_tree():
    return build_robinwood_tree(RSPX5, symmetric=False)


def test_shared_worlds_converge_on_a_reduced_deck(rspx5_tree):
    # Measured (4 seeds, 40,000 traversals a seat): 0.0068, 0.0286, 0.0310, 0.0322
    # against 0.0305-0.0375 for the lazy deal (benchmarks/probes/bench_shared_world.py).
    solver = MCCFRSolver(MCCFRConfig(RSPX5, workers=1, seed=0, coarse_actions="letters",
                                     shared_world=True))
    solver.run(200)
    counters = solver.counters()
    assert counters["mismatch"] == 0 and counters["probes"] > 0
    value = exploitability(rspx5_tree, project(trained_agent(solver), RSPX5,
                                               rspx5_tree)).exploitability
    assert value < 0.05, value


def test_shared_worlds_are_reproducible_and_resume_exactly():
    variant = game_def.parse("standard:max_turns=12")
    config = MCCFRConfig(variant, batch_iterations=40, seed=5, coarse_actions="letters",
                         shared_world=True)
    runs = {}
    for workers in (1, 2):
        solver = MCCFRSolver(dataclasses.replace(config, workers=workers))
        solver.run(3)
        runs[workers] = _arrays(solver)
    half = MCCFRSolver(config)
    half.run(1)
    resumed = MCCFRSolver.from_state_arrays(config, half.state_arrays())
    resumed.run(2)
    lazy = MCCFRSolver(dataclasses.replace(config, shared_world=False))
    lazy.run(3)
    for seat in (0, 1):
        assert np.array_equal(runs[1][seat], runs[2][seat])
        assert np.array_equal(runs[1][seat], _arrays(resumed)[seat])
        assert not np.array_equal(runs[1][seat], _arrays(lazy)[seat])


def test_cli_records_shared_worlds_and_the_exact_solvers_refuse_them(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--algo", "mccfr",
        "--iterations", "400", "--shared-world", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["algorithm"]["shared_world"] is True
    load_table_agent(out)   # loads and plays like any table
    result = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--algo", "cfr+",
        "--iterations", "2", "--shared-world", "--out", str(tmp_path / "exact")])
    assert result.exit_code == 2
    assert "--shared-world" in result.output and "mccfr" in result.output
