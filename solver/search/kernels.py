"""The search kernels' interface: what other packages use of solver.search._kernels.

The local best response (solver.evaluation.lbr) plays the same belief and lookahead as
the play-time search, with the agent itself as the model. It uses only the names below:
the structures (`Match`, `Belief`, `Workspace`, `Split`), the settings (`G_*`,
`SPLIT_*`) and counters (`C_*`), the workspace and split builders and the kernels that
play rounds and run a belief along a history.
"""

from ._kernels import (  # noqa: F401  (re-exported layout)
    C_DECISIONS, C_DRAWS, C_FORCED, C_LOSSES, C_LOST_DECISIONS, C_REGEN_FAILED,
    C_REGENERATIONS, C_RESAMPLES, C_ROLLOUTS, C_ROUNDS, C_SIZE, C_SPLIT_ROLLOUTS,
    C_TURN_CAP, C_WINS,
    G_GROUP, G_MODEL_EPS, G_PARTICLES, G_REGEN, G_REGEN_FACTOR, G_ROLLOUTS,
    G_SEARCH_KINDS, G_SIZE, G_SPLIT, Belief, Match, Workspace,
)
from ._split import (  # noqa: F401  (re-exported layout)
    CHOICE_FIXED, CHOICE_LABELS, SPLIT_FRESH, SPLIT_OFF, SPLIT_REUSE, SPLIT_SIZE,
    SPLIT_SUBKEYS, SPLIT_TOTAL, Split,
)
from ._kernels import (  # noqa: F401  (re-exported kernels)
    _belief_after as belief_after,
    _decide as decide,
    _play_rounds as play_rounds,
    _workspace as workspace,
)
from ._split import _split as split  # noqa: F401
