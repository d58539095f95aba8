"""The numba core's kernel interface: the state layout and the jitted functions that
kernels in other packages (solver, analysis, explorer) may use.

A round is two int64 arrays, `rules` (the variant; index with `R_*`) and `state`
(index with `S_*`; phases `PH_*`, action ids `A_*`, chance ids `C_*`, events `EV_*`).
Everything here is re-exported from the private `_core`, so that the core's layout can
change in one place: a name that is not listed here is not part of the interface.
Python code that is not a kernel should use `game_def.core` (validating wrappers) or
the OpenSpiel game instead. `jit` is the project's one numba decorator (game_def._jit).
"""

from ._jit import jit
from ._core import (  # noqa: F401  (re-exported layout)
    ROBIN, COMPANION, SHERIFF, DEPUTY, PEASANT, TRICKSTER, MONK, WITCH, TRAITOR, INNKEEPER,
    NUM_CHARACTERS, UNDEALT, MAX_POSITIONS, MAX_PLAYERS, R_N, R_PLAYERS, R_TEAMS,
    R_STRIKES, R_MAX_TURNS, R_FIRST, R_RANDOM_ORDER, R_TRAITOR_REVEAL, R_HAS_LAYOUT,
    R_COUNTS, R_LAYOUT, R_SIZE, S_PHASE, S_ACTOR, S_TURN, S_PEEK_POS, S_ANNOUNCED,
    S_RESPONDER, S_ASKED, S_POWER, S_POWER_POS, S_PICK, S_PICK2, S_DEAL_POS,
    S_RESUME_PHASE, S_RESUME_ACTION, S_WINNER, S_EXTRA, S_SEEN_SCOPE, S_SEEN_POS,
    S_SEEN_CHAR, S_EVENTS, S_ENDER, S_POOL, S_CARD, S_FACEUP, S_STRIKES, S_SIZE, PH_TURN,
    PH_AFTER_PEEK, PH_RESPOND, PH_ORDER, PH_REVEAL, PH_PICK, PH_WITCH_CHOICE, PH_SHUFFLE,
    PH_NAME, PH_DEAL, PH_TERMINAL, CHANCE_PLAYER, TERMINAL_PLAYER, ONGOING, DRAW,
    SCOPE_NONE, SCOPE_ACTOR, SCOPE_ALL, SCOPE_TEAM, EV_TRAITOR_HIT, EV_CHALLENGE_RIGHT,
    EV_CHALLENGE_WRONG, EV_UNMASK_WIN, EV_UNMASK_MISTAKE, EV_ELIMINATION, EV_TURN_CAP,
    EVENT_NAMES, A_SILENT, A_ANNOUNCE, A_CHALLENGE, A_PASS, A_KEEP, A_SWAP, A_NAME,
    NUM_FIXED_ACTIONS, C_SHUFFLE_KEEP, C_SHUFFLE_SWAP, C_FASTEST, MAX_CHANCE_OUTCOMES,
    MAX_LEGAL,
)
from ._core import (  # noqa: F401  (re-exported kernels, public names)
    _initial_state as initial_state,
    _current_player as current_player,
    _apply_action as apply_action,
    _legal_actions as legal_actions,
    _chance_outcomes as chance_outcomes,
    _returns as returns,
    _in_camp as in_camp,
    _action_scope as action_scope,
    _sample_chance as sample_chance,
    _random_playout as random_playout,
)

__all__ = [
    "jit", "ROBIN", "COMPANION", "SHERIFF", "DEPUTY", "PEASANT", "TRICKSTER", "MONK",
    "WITCH", "TRAITOR", "INNKEEPER", "NUM_CHARACTERS", "UNDEALT", "MAX_POSITIONS",
    "MAX_PLAYERS", "R_N", "R_PLAYERS", "R_TEAMS", "R_STRIKES", "R_MAX_TURNS", "R_FIRST",
    "R_RANDOM_ORDER", "R_TRAITOR_REVEAL", "R_HAS_LAYOUT", "R_COUNTS", "R_LAYOUT", "R_SIZE",
    "S_PHASE", "S_ACTOR", "S_TURN", "S_PEEK_POS", "S_ANNOUNCED", "S_RESPONDER", "S_ASKED",
    "S_POWER", "S_POWER_POS", "S_PICK", "S_PICK2", "S_DEAL_POS", "S_RESUME_PHASE",
    "S_RESUME_ACTION", "S_WINNER", "S_EXTRA", "S_SEEN_SCOPE", "S_SEEN_POS", "S_SEEN_CHAR",
    "S_EVENTS", "S_ENDER", "S_POOL", "S_CARD", "S_FACEUP", "S_STRIKES", "S_SIZE",
    "PH_TURN", "PH_AFTER_PEEK", "PH_RESPOND", "PH_ORDER", "PH_REVEAL", "PH_PICK",
    "PH_WITCH_CHOICE", "PH_SHUFFLE", "PH_NAME", "PH_DEAL", "PH_TERMINAL", "CHANCE_PLAYER",
    "TERMINAL_PLAYER", "ONGOING", "DRAW", "SCOPE_NONE", "SCOPE_ACTOR", "SCOPE_ALL",
    "SCOPE_TEAM", "EV_TRAITOR_HIT", "EV_CHALLENGE_RIGHT", "EV_CHALLENGE_WRONG",
    "EV_UNMASK_WIN", "EV_UNMASK_MISTAKE", "EV_ELIMINATION", "EV_TURN_CAP", "EVENT_NAMES",
    "A_SILENT", "A_ANNOUNCE", "A_CHALLENGE", "A_PASS", "A_KEEP", "A_SWAP", "A_NAME",
    "NUM_FIXED_ACTIONS", "C_SHUFFLE_KEEP", "C_SHUFFLE_SWAP", "C_FASTEST",
    "MAX_CHANCE_OUTCOMES", "MAX_LEGAL", "initial_state", "current_player", "apply_action",
    "legal_actions", "chance_outcomes", "returns", "in_camp", "action_scope",
    "sample_chance", "random_playout",
]
