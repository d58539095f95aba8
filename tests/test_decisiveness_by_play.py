"""Decisiveness and lead changes by play (analysis.table_balance's sampled self-play,
read by the sampled audit) against independent computations:

- two seats: the exact walk of analysis.decisiveness (itself checked against a plain
  walk of the OpenSpiel game, tests/test_decisiveness.py) on the same uniform strategy;
- three seats and teams: a plain-Python twin that plays uniform rounds through the
  OpenSpiel game, reads each state's strikes and applies the definitions to the whole
  path at its end (a side leads with strictly fewer strikes than every other side, a
  team's strikes being its seats' together).

Both sides are sampled, so they agree within 4 standard errors. Planted bugs this
catches (each tried): the lead taken at the turn of the move rather than the turn after
(shares shifted down); a change counted when the lead passes to nobody (a tie); a
team's strikes read from one of its seats only.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import game_def
from analysis.decisiveness import decisiveness
from analysis.table_balance import sampled_table_balance
from game_def import kernels as k
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.exact.tree import uniform_strategy
from solver.players.agents import bot


def _side_leader(core, players: int, teams: bool) -> int:
    sides = 2 if teams else players
    strikes = [sum(int(core[k.S_STRIKES + s]) for s in range(players) if s % sides == side)
               for side in range(sides)]
    low = min(strikes)
    return strikes.index(low) if strikes.count(low) == 1 else -1


def _twin(spec: str, rounds: int, seed: int) -> dict:
    """Per-round decided shares (won rounds) and lead changes (every round) of uniform
    play, from the OpenSpiel game's states."""
    game = game_def.load_game(spec)
    variant = game_def.parse(spec)
    rng = random.Random(seed)
    decided, changes = [], []
    for _ in range(rounds):
        state = game.new_initial_state()
        path = []   # (turn of the move, counting from 1; the leader after it)
        while not state.is_terminal():
            turn = int(state._state[k.S_TURN]) + 1
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            path.append((turn, _side_leader(state._state, variant.players, variant.teams)))
        strict = [lead for _, lead in path if lead >= 0]
        changes.append(sum(1 for x, y in zip(strict, strict[1:]) if x != y))
        winner = int(state._state[k.S_WINNER])
        if winner < 0:
            continue
        side = winner % 2 if variant.teams else winner
        if path and path[-1][1] == side:
            j = len(path) - 1
            while j > 0 and path[j - 1][1] == side:
                j -= 1
            decided.append(path[j][0] / path[-1][0])
        else:
            decided.append(1.0)
    return {"decided": np.array(decided), "changes": np.array(changes, dtype=float)}


def _close(ours: float, theirs: np.ndarray, rounds_ours: int, what: str) -> None:
    spread = theirs.std()
    se = spread * math.sqrt(1 / len(theirs) + 1 / rounds_ours)
    assert abs(ours - theirs.mean()) < 4 * se + 1e-9, (what, ours, theirs.mean(), se)


def test_two_seats_by_play_equal_the_exact_walk():
    spec = "rspx:max_turns=3"
    variant = game_def.parse(spec)
    tree = build_robinwood_tree(variant)
    exact = decisiveness(variant, tree, uniform_strategy(tree))
    rounds = 40_000
    played = sampled_table_balance(bot("uniform"), rounds, seed=5, variant=variant)
    # per-round spreads bounded by the exact rates' own (a share in [0, 1]; changes
    # counted per round): 4 sigma of a Bernoulli-sized spread
    assert abs(played.decisiveness - exact["decisiveness"]) < 4 * 0.5 / math.sqrt(
        rounds * 0.5), (played.decisiveness, exact)
    assert played.lead_changes == pytest.approx(exact["lead_changes"],
                                                abs=4 * 1.5 / math.sqrt(rounds))
    assert 0 < played.decisiveness < 1 and played.lead_changes > 0


@pytest.mark.parametrize("spec", ["standard:players=3,max_turns=12",
                                  "team:players=4,teams=true,max_turns=12"])
def test_more_seats_by_play_equal_a_plain_walk(spec):
    variant = game_def.parse(spec)
    rounds = 20_000
    played = sampled_table_balance(bot("uniform"), rounds, seed=7, variant=variant)
    twin = _twin(spec, 4000, seed=11)
    assert twin["changes"].mean() > 0 and len(twin["decided"]) > 300
    _close(played.decisiveness, twin["decided"], int(rounds * len(twin["decided"]) / 4000),
           "decisiveness")
    _close(played.lead_changes, twin["changes"], rounds, "lead changes")
