"""The searcher's belief at a response (solver.search.searcher.respond_belief) against the
exact respond posterior (solver.knowledge.posterior) with the same claimant strategy:
its blueprint, whose probabilities the particle filter reweights by."""

from __future__ import annotations

import math

import numpy as np
import pytest

import game_def
from solver.knowledge.posterior import respond_posterior
from solver.mccfr import MCCFRConfig, MCCFRSolver
from solver.players import trained_agent
from solver.players.agents import AgentError, AgentPolicy
from solver.search import SearchConfig, Searcher
from solver.search.searcher import respond_belief

RSPX3 = game_def.parse("rspx:max_turns=3")
PARTICLES = 2048


@pytest.fixture(scope="module")
def blueprint():
    """The weak rspx:max_turns=3 table of tests/test_search.py (300 traversals a seat),
    whose claims mix: the posterior is strictly between 0 and 1 at a third of the
    responses below."""
    trainer = MCCFRSolver(MCCFRConfig(RSPX3, batch_iterations=100, workers=1, seed=4,
                                      chunks=1))
    trainer.run(3)
    return trained_agent(trainer)


def _responses(policy, count, seed):
    """The response states of rounds the policy plays in both seats."""
    game = policy.game
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            p = state.current_player()
            if sorted(state.action_to_string(p, a) for a in state.legal_actions()) == \
                    ["challenge", "pass"]:
                out.append(state.clone())
            probs = policy.action_probabilities(state)
            weights = np.array(list(probs.values()))
            state.apply_action(int(rng.choice(list(probs), p=weights / weights.sum())))
    return out[:count]


def test_the_particle_belief_at_a_response_is_the_exact_posterior(blueprint):
    """With the blueprint as the claimant's strategy in both, and the belief's model not
    mixed with uniform (model_eps 0), the searcher's share of particles in which the
    claim is false matches the exact posterior at 40 responses of self-play: exactly
    where the posterior is 0 or 1 (no particle survives that contradicts what was
    seen), and within 5 binomial standard errors sqrt(2 p (1 - p) / N) of it elsewhere
    (N particles, halved for the resampling: the filter resamples once the effective
    sample size falls below N / 2). Planted bug caught: the particles where the claim
    is true counted instead (1 where the posterior is 0)."""
    game = game_def.load_game(RSPX3)
    policy = AgentPolicy(game, blueprint)
    searcher = Searcher(blueprint, SearchConfig(particles=PARTICLES, model_eps=0.0))
    mixed = 0
    for state in _responses(policy, 40, seed=0):
        exact = respond_posterior(state, policy)
        got = respond_belief(searcher, state.history(), seed=99)
        if exact < 1e-12 or exact > 1 - 1e-12:
            assert got == pytest.approx(round(exact), abs=1e-12), (exact, got)
            continue
        mixed += 1
        bound = 5 * math.sqrt(2 * exact * (1 - exact) / PARTICLES)
        assert abs(got - exact) < bound, (exact, got, bound, state.history())
    assert mixed >= 10, mixed


def test_respond_belief_wants_a_response(blueprint):
    searcher = Searcher(blueprint, SearchConfig(particles=16))
    with pytest.raises(AgentError, match="response to a claim"):
        respond_belief(searcher, [], seed=0)
