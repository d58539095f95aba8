"""The typed wrappers around the numba core (game_def.core) against the plain twin."""

from __future__ import annotations

import random

import numpy as np
import pytest

import game_def
from game_def import core

from naive import NaiveGame


@pytest.mark.parametrize("spec", ["standard", "duel8:players=3,challenge_order=random",
                                  "team:players=4,teams=true"])
def test_core_wrappers_follow_the_twin(spec):
    variant = game_def.parse(spec)
    rules = core.rules_array(variant)
    rng = random.Random(5)
    for _ in range(30):
        state = core.initial_state(rules)
        twin = NaiveGame(variant).new_initial_state()
        while not twin.is_terminal():
            assert core.current_player(state) == twin.current_player()
            if twin.is_chance_node():
                assert core.is_chance(state)
                outcomes = core.chance_outcomes(state, rules)
                assert [a for a, _ in outcomes] == [a for a, _ in twin.chance_outcomes()]
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = core.legal_actions(state, rules).tolist()
                assert legal == twin.legal_actions()
                action = rng.choice(legal)
            core.apply_action(state, rules, action)
            twin.apply_action(action)
        assert core.returns(state, rules).tolist() == pytest.approx(twin.returns())


def test_apply_action_rejects_illegal_moves_and_finished_rounds():
    rules = core.rules_array(game_def.parse("rspx:max_turns=1"))
    state = core.initial_state(rules)
    with pytest.raises(ValueError, match="not legal here"):
        core.apply_action(state, rules, 3)  # peek at the face-up Traitor
    core.seed(1)
    steps = core.random_playout(state, rules)
    assert steps > 0 and core.current_player(state) == -4
    with pytest.raises(ValueError, match="round is over"):
        core.apply_action(state, rules, 0)


def test_random_playout_is_reproducible_from_the_seed():
    rules = core.rules_array(game_def.parse("standard"))
    runs = []
    for _ in range(2):
        core.seed(42)
        states = [core.initial_state(rules) for _ in range(50)]
        runs.append([(core.random_playout(s, rules), s.tobytes()) for s in states])
    assert runs[0] == runs[1]
    assert len({steps for steps, _ in runs[0]}) > 1
    assert core.cards(np.frombuffer(runs[0][0][1], dtype=np.int64).copy(), rules)
