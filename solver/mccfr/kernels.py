"""Monte Carlo CFR's kernel interface: what kernels in other packages may call.

Table agents (solver.players), the local best response and the trained exploiter
(solver.evaluation) and the sampled analysis (analysis.sampled) read the same
abstraction and the same tables as training. They reach them only through the names
below, re-exported from the private `_abstraction` (information abstraction: what a seat
knows, its decision keys), `_sure_win` (decisions that surely win) and `_kernels` (sampling, tables, regret updates), so that
either can change behind this list. Layouts: `K_*` index a seat's knowledge row,
`FINE`/`COARSE` are the abstraction levels, `M_*` a table's counters, `CFG_*` the
settings array, `Table` a seat's table (docs/mccfr.md, docs/abstraction.md).
"""

from ._abstraction import (  # noqa: F401  (re-exported layout)
    CARD_LETTERS, COARSE, COARSE_FEATURES, CODE_CLAIM_SHIFT, CODE_FACE_UP, CODE_OTHER_LOOKED, FINE,
    K_CAND, K_CLAIM, K_OTHER_LOOKED, K_SIZE, LETTER_UNKNOWN, MAX_ABSTRACT, ROLE_PEEKED, ROLE_PICKED,
    ROLE_POWER, SCRATCH_ROWS, TURN_BUCKET_EDGES,
)
from ._abstraction import (  # noqa: F401  (re-exported kernels)
    _coarse_features as coarse_features,
    _decision_keys as decision_keys,
    _exact as exact,
    _features as features,
    _initial_knowledge as initial_knowledge,
    _mix as mix,
    _observe as observe,
    _position_codes as position_codes,
)
from ._kernels import (  # noqa: F401
    CFG_EXPLORATION, CFG_FINE_VISITS, CFG_LEAGUE_SHARE, CFG_MAX_BRANCHING, CFG_OWN_AVERAGE,
    CFG_PRUNE_BELOW, CFG_PRUNE_PROBABILITY, CFG_SIZE, CFG_SURE_WINS, M_ENTRIES, M_FROZEN, M_SIZE,
    M_SLOT_CAPACITY, M_USED, League, Letters, Table, no_league,
)
from solver.knowledge.kernels import sure_win  # noqa: F401
from solver.knowledge.kernels import target_located  # noqa: F401
from ._kernels import (  # noqa: F401
    _below as below,
    _discount as discount,
    _find as find,
    _next_u64 as next_u64,
    _league_seat as league_seat,
    _payoff as payoff,
    _pick as pick,
    _rehash as rehash,
    _spread as spread,
    _run_worker as run_worker,
    _uniform as uniform,
)
