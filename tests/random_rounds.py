"""Rounds with uniformly random moves, for tests that check something at every decision
(chance drawn by its probabilities, every player's move uniform over the legal ones)."""

from __future__ import annotations


def random_decisions(game, rounds: int, rng):
    """Yield the state at every decision of `rounds` random rounds of `game`, drawing
    from `rng` (a numpy Generator), before the move is applied."""
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            yield state
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
