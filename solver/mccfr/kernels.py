"""Monte Carlo CFR's kernel interface: what kernels in other packages may call.

Table agents (solver.players), the local best response and the trained exploiter
(solver.evaluation) and the sampled analysis (analysis.sampled) read the same
abstraction and the same tables as training. They reach them only through the names
below, re-exported from the private modules of one job each: `_abstraction`
(information abstraction: what a seat knows, its decision keys), `_random` (the random
streams), `_table` (a seat's table), `_settings` (the settings array), `_policies` (a
coarse entry's letters), `_league_play` (league opponents) and `_traversal` (payoffs,
the per-seat worker), and from solver.knowledge (sure wins), so that any of them can
change behind this list. Layouts: `K_*` index a seat's knowledge row, `FINE`/`COARSE`
are the abstraction levels, `M_*` a table's counters, `CFG_*` the settings array,
`Table` a seat's table (docs/mccfr.md, docs/abstraction.md).
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
from ._league_play import League, no_league  # noqa: F401
from ._policies import Letters  # noqa: F401
from ._settings import (  # noqa: F401
    CFG_EXPLORATION, CFG_FINE_VISITS, CFG_LEAGUE_SHARE, CFG_MAX_BRANCHING, CFG_OWN_AVERAGE,
    CFG_PRUNE_BELOW, CFG_PRUNE_PROBABILITY, CFG_SIZE, CFG_SURE_WINS,
)
from ._table import (  # noqa: F401
    M_ENTRIES, M_FROZEN, M_SIZE, M_SLOT_CAPACITY, M_USED, Table,
)
from solver.knowledge.kernels import sure_win  # noqa: F401
from solver.knowledge.kernels import target_located  # noqa: F401
from ._league_play import _league_seat as league_seat  # noqa: F401
from ._policies import _spread as spread  # noqa: F401
from ._random import (  # noqa: F401
    _below as below,
    _next_u64 as next_u64,
    _pick as pick,
    _uniform as uniform,
)
from ._table import (  # noqa: F401
    _discount as discount,
    _find as find,
    _rehash as rehash,
)
from ._traversal import (  # noqa: F401
    _payoff as payoff,
    _run_worker as run_worker,
)
