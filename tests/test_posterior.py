"""The respond posterior (solver.knowledge.posterior): P(a claim is false | what the
responder saw) against a plain twin that walks every OpenSpiel history, on a deck small
enough to solve exactly, with the claimant playing the exact equilibrium; and the same
posterior, and so the same challenge decision, at histories the responder cannot tell
apart."""

from __future__ import annotations

import numpy as np
import pytest

import game_def
from naive_posterior import posteriors
from solver.exact import CFRSolver, build_robinwood_tree, exploitability
from solver.exact.policy import StrategyPolicy
from solver.knowledge.posterior import claim_is_false, respond_posterior
from solver.scripted.sound import break_even

RSPX2 = game_def.parse("rspx:max_turns=2")


@pytest.fixture(scope="module")
def equilibrium():
    """rspx:max_turns=2 solved by DCFR to exploitability below 1e-6 (6,382 nodes), as
    an OpenSpiel policy."""
    tree = build_robinwood_tree(RSPX2, symmetric=False)
    solver = CFRSolver(tree, "dcfr")
    solver.step(3000)
    eq = solver.average_strategy()
    assert exploitability(tree, eq).exploitability < 1e-6
    game = game_def.load_game(RSPX2)
    return game, StrategyPolicy.from_tree(game, tree, eq)


def _responses(game):
    """Every response state of the game (both seats), in a fixed order."""
    out = []
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(b) for b, _ in state.chance_outcomes())
            continue
        p = state.current_player()
        if sorted(state.action_to_string(p, a) for a in state.legal_actions()) == \
                ["challenge", "pass"]:
            out.append(state)
        stack.extend(state.child(a) for a in state.legal_actions())
    return out


def test_the_posterior_is_the_exact_bayes_posterior_under_the_equilibrium(equilibrium):
    """At one history of every response information state (693 on rspx:max_turns=2),
    the filter's posterior equals the twin's whole-tree Bayes posterior to 1e-9, the
    claimant playing the exact equilibrium; the equilibrium mixes its claims, so that
    some posteriors lie strictly between 0 and 1. Planted bugs caught: the claimant's
    actions weighted uniformly instead of by its strategy (error 0.67); a hidden chance
    outcome (the claimant's peeked card) followed as it fell instead of summed over
    (error 1)."""
    game, policy = equilibrium
    twin = posteriors(game, policy)
    seen = {}
    for state in _responses(game):
        seen.setdefault(state.information_state_string(), state)
    assert len(seen) == 693 and set(twin) <= set(seen)
    errors, mixed = [], 0
    for key, value in twin.items():
        got = respond_posterior(seen[key], policy)
        errors.append(abs(got - value))
        mixed += 1e-6 < value < 1 - 1e-6
    assert max(errors) < 1e-9, max(errors)
    assert mixed >= 10, mixed


def test_histories_the_responder_cannot_tell_apart_give_one_posterior_and_decision(
        equilibrium):
    """Every pair of response histories with the same information state for the
    responder (they differ in the claimant's peeked card or in cards neither has seen)
    gets the same posterior, and so the same challenge decision (posterior above the
    break-even at the strikes); some pairs differ in whether the claim is true. Planted
    bug caught: the hidden peeked card followed as it fell (posteriors 0 and 1 in one
    information state)."""
    game, policy = equilibrium
    groups: dict[str, list] = {}
    for state in _responses(game):
        groups.setdefault(state.information_state_string(), []).append(state)
    pairs = truth_differs = 0
    for states in groups.values():
        if len(states) < 2:
            continue
        values = [respond_posterior(s, policy) for s in states[:4]]
        decisions = [v > break_even(RSPX2, s.strikes, s.current_player(),
                                    1 - s.current_player())
                     for v, s in zip(values, states)]
        assert max(values) - min(values) == 0.0, values
        assert len(set(decisions)) == 1
        pairs += 1
        truth_differs += len({claim_is_false(s) for s in states}) > 1
    assert pairs > 100 and truth_differs > 50, (pairs, truth_differs)


def test_bad_input_is_a_one_line_error():
    """A state that is not a response, and a strategy that cannot reach the history."""
    game = game_def.load_game(RSPX2)
    state = game.new_initial_state()

    class Never:
        def action_probabilities(self, s, player_id=None):
            return {a: (1.0 if a == s.legal_actions()[0] else 0.0)
                    for a in s.legal_actions()}

    with pytest.raises(game_def.RobinWoodError, match="response to a claim"):
        respond_posterior(state, Never())
    # seat 0 peeks the last position and claims with its last action: Never would not
    while not (not state.is_chance_node() and
               state.action_to_string(state.current_player(),
                                      state.legal_actions()[0]) == "challenge"):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[-1])
    with pytest.raises(game_def.RobinWoodError, match="probability 0"):
        respond_posterior(state, Never())
    assert np.isfinite(respond_posterior(state, _Uniform()))


class _Uniform:
    def action_probabilities(self, s, player_id=None):
        legal = s.legal_actions()
        return {a: 1.0 / len(legal) for a in legal}
