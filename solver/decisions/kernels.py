"""The decisions package's kernel interface: what kernels in other packages may call.

`features_of` (what the mover knows of a decision: F_* columns, KIND_* kinds),
`LockRules` (compiled locks; solver.decisions.rules builds them), `locked_probs`, which
plays a locked decision, and `allowed`, which takes a restricted seat's forbidden actions
out of a decision's legal actions. Monte Carlo CFR (solver.mccfr), the table agents
(solver.players) and exact locks (solver.locks) reach them only through these names.
"""

from ._kernels import (  # noqa: F401  (re-exported layout)
    F_CLAIM, F_FACEUP, F_KIND, F_PEEKED, F_POWER, F_SEAT, F_STRIKES, F_TURN, KIND_ANNOUNCE,
    KIND_POWER, KIND_RESPOND, KIND_TURN, NUM_FEATURES, LockRules,
)
from ._kernels import _features_of as features_of  # noqa: F401
from ._kernels import _allowed as allowed  # noqa: F401
from ._kernels import _has_forbids as has_forbids  # noqa: F401
from ._kernels import _locked_probs as locked_probs  # noqa: F401
