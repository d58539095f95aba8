"""A Robin des Bois position in the numba core, stepped from Python with checked inputs.

The core (`_core`, private) plays the same rules as the OpenSpiel game (`state.py`, the
reference) with the same action ids and chance outcomes, over flat int64 arrays. This
wrapper is for tests and tools that step one game; batches of random games are
`robin_des_bois.simulate`.

    state = CoreState.new({"players": 4})
    while not state.is_terminal():
        ...
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from . import _core as k
from .actions import ActionLayout
from .rules import Rules, RulesError, from_params


def compile_rules(params: "Mapping[str, Any] | Rules | None") -> tuple[Rules, np.ndarray]:
    """Validated Rules and the core's rules array, from OpenSpiel parameters (missing
    keys take the defaults), a Rules, or None (all defaults)."""
    if params is None:
        rules = from_params({})
    elif isinstance(params, Rules):
        rules = params
    elif isinstance(params, Mapping):
        rules = from_params(params)
    else:
        raise RulesError(f"params must be a dict of game parameters, a Rules or None, "
                         f"got {type(params).__name__}")
    return rules, k.rules_array(rules, ActionLayout(rules))


class CoreState:
    """One game in the numba core. Players and chance as in pyspiel: current_player() is
    a seat, -1 (chance) or -4 (terminal)."""

    def __init__(self, rules: Rules, rules_arr: np.ndarray, state: np.ndarray):
        self.rules = rules
        self._rules = rules_arr
        self._state = state
        self._counters = np.zeros(k.NUM_COUNTERS, dtype=np.int64)
        self._buf = np.empty(k.MAX_LEGAL, dtype=np.int64)
        self._probs = np.empty(k.MAX_TYPES, dtype=np.float64)

    @classmethod
    def new(cls, params: "Mapping[str, Any] | Rules | None" = None) -> "CoreState":
        """The initial state (before the deal) for these box contents."""
        rules, arr = compile_rules(params)
        return cls(rules, arr, k._initial_state(arr))

    def clone(self) -> "CoreState":
        other = CoreState(self.rules, self._rules, self._state.copy())
        other._counters[:] = self._counters
        return other

    # ----- queries -------------------------------------------------------------------
    def current_player(self) -> int:
        return int(k._current_player(self._state))

    def is_terminal(self) -> bool:
        return int(self._state[k.S_PHASE]) == k.OVER

    def is_chance_node(self) -> bool:
        return int(self._state[k.S_PHASE]) in (k.DEAL, k.REFILL)

    def legal_actions(self) -> list[int]:
        """Player actions, ascending; [] at chance nodes and at the end."""
        n = k._legal_actions(self._state, self._rules, self._buf)
        return [int(a) for a in self._buf[:n]]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(card id, probability) at a chance node, ascending card ids; [] elsewhere."""
        if not self.is_chance_node():
            return []
        n = k._chance_outcomes(self._state, self._rules, self._buf, self._probs)
        return [(int(c), float(p)) for c, p in zip(self._buf[:n], self._probs[:n])]

    def scores(self) -> list[int]:
        out = np.empty(k.MAX_PLAYERS, dtype=np.int64)
        k._scores(self._state, self._rules, out)
        return [int(x) for x in out[:self.rules.players]]

    def returns(self) -> list[float]:
        out = np.empty(k.MAX_PLAYERS, dtype=np.float64)
        k._returns(self._state, self._rules, out)
        return [float(x) for x in out[:self.rules.players]]

    def counters(self) -> dict[str, int]:
        """What this game's moves did so far (simulation.COUNTERS)."""
        return {name: int(v) for name, v in zip(k.COUNTER_NAMES, self._counters)}

    # ----- moves ---------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        """Apply a legal action or chance outcome (a card id); ValueError otherwise."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"action must be an integer id, got {action!r}")
        if self.is_terminal():
            raise ValueError(f"the game is over: no action {action} can be applied")
        if self.is_chance_node():
            legal = [c for c, _ in self.chance_outcomes()]
            what = "chance outcome (card id)"
        else:
            legal = self.legal_actions()
            what = "action"
        if int(action) not in legal:
            raise ValueError(f"{what} {action} is not legal here; legal: {legal}")
        k._apply_action(self._state, self._rules, int(action), self._counters)
