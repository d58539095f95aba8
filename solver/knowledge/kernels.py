"""The knowledge array's kernel interface: what kernels in other packages may call.

The layout `K_*` indexes a seat's knowledge row (solver.knowledge._kernels); the kernels
start a round's knowledge, update it after an action, read an exact character from a
candidate mask, and find the decisions that surely win (solver.knowledge._sure_win).
"""

from ._kernels import (  # noqa: F401  (re-exported layout)
    FULL_MASK, K_CAND, K_CLAIM, K_CLAIM_OVER, K_OTHER_LOOKED, K_SIGNAL, K_SIZE, SEATS,
)
from ._kernels import (  # noqa: F401  (re-exported kernels)
    _exact as exact,
    _initial_knowledge as initial_knowledge,
    _observe as observe,
    _over_count as over_count,
)
from ._sure_win import _sure_win as sure_win  # noqa: F401
from ._sure_win import _target_located as target_located  # noqa: F401
from ._belief import DEFAULT_CLAIM_WEIGHT  # noqa: F401
from ._belief import _belief as belief  # noqa: F401
from ._belief import _belief_stepwise as belief_stepwise  # noqa: F401
from ._belief import _public_belief as public_belief  # noqa: F401
