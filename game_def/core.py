"""Typed, validating wrappers around the numba core (`_core`).

The OpenSpiel state and the simulator call the kernels through these functions or,
on their hot paths, directly with arrays built here.
"""

from __future__ import annotations

import numpy as np

from . import _core as k
from .characters import Character
from .variant import Variant

EVENT_NAMES = k.EVENT_NAMES


def rules_array(variant: Variant) -> np.ndarray:
    """The variant as the core's int64 rules array."""
    rules = np.zeros(k.R_SIZE, dtype=np.int64)
    rules[k.R_N] = variant.num_positions
    rules[k.R_PLAYERS] = variant.players
    rules[k.R_TEAMS] = int(variant.teams)
    rules[k.R_STRIKES] = variant.strikes
    rules[k.R_MAX_TURNS] = variant.max_turns
    rules[k.R_FIRST] = variant.first_player
    rules[k.R_RANDOM_ORDER] = int(variant.challenge_order == "random")
    rules[k.R_TRAITOR_REVEAL] = int(variant.traitor_strikes_on_reveal)
    rules[k.R_COUNTS:k.R_COUNTS + k.NUM_CHARACTERS] = variant.counts
    rules[k.R_LAYOUT:k.R_LAYOUT + k.MAX_POSITIONS] = -1
    if variant.layout is not None:
        rules[k.R_HAS_LAYOUT] = 1
        rules[k.R_LAYOUT:k.R_LAYOUT + len(variant.layout)] = [int(c) for c in variant.layout]
    return rules


def initial_state(rules: np.ndarray) -> np.ndarray:
    return k._initial_state(rules)


def current_player(state: np.ndarray) -> int:
    return int(k._current_player(state))


def legal_actions(state: np.ndarray, rules: np.ndarray) -> np.ndarray:
    """Legal player actions in increasing order (empty at chance and terminal nodes)."""
    out = np.empty(k.MAX_LEGAL, dtype=np.int64)
    count = k._legal_actions(state, rules, out)
    return out[:count]


def chance_outcomes(state: np.ndarray, rules: np.ndarray) -> list[tuple[int, float]]:
    actions = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    count = k._chance_outcomes(state, rules, actions, probs)
    return [(int(actions[i]), float(probs[i])) for i in range(count)]


def is_chance(state: np.ndarray) -> bool:
    return current_player(state) == k.CHANCE_PLAYER


def apply_action(state: np.ndarray, rules: np.ndarray, action: int) -> None:
    """Apply `action` in place after checking that it is legal here."""
    if state[k.S_PHASE] == k.PH_TERMINAL:
        raise ValueError("the round is over: no action can be applied")
    legal = ([a for a, _ in chance_outcomes(state, rules)] if is_chance(state)
             else legal_actions(state, rules).tolist())
    if int(action) not in legal:
        raise ValueError(f"action {action} is not legal here; legal: {legal}")
    k._apply_action(state, rules, int(action))


def returns(state: np.ndarray, rules: np.ndarray) -> np.ndarray:
    out = np.zeros(int(rules[k.R_PLAYERS]), dtype=np.float64)
    k._returns(state, rules, out)
    return out


def events(state: np.ndarray) -> frozenset[str]:
    """Names of what the last applied action made happen (EVENT_NAMES)."""
    bits = int(state[k.S_EVENTS])
    return frozenset(name for i, name in enumerate(EVENT_NAMES) if bits >> i & 1)


def cards(state: np.ndarray, rules: np.ndarray) -> tuple[str | None, ...]:
    n = int(rules[k.R_N])
    return tuple(None if c == k.UNDEALT else Character(int(c)).label
                 for c in state[k.S_CARD:k.S_CARD + n])


def random_playout(state: np.ndarray, rules: np.ndarray) -> int:
    """Finish the round in place with uniformly random moves; return the steps taken."""
    return int(k._random_playout(state, rules))


def seed(value: int) -> None:
    """Seed the random generator the kernels draw from (numba's, per thread)."""
    k._seed(int(value))
