"""The scripted players' kernel interface: what kernels in other packages may call.

The league players' kinds (`FIRST_KIND` to `LAST_KIND`) and parameter slots, the kernel
that gives a league player's action probabilities, and the helpers every player shares
(what a seat knows at a position, weights to probabilities). Table agents (fallback
rules) and tournaments reach them through solver.players; Monte Carlo CFR plays them as
training opponents (`league_share`).
"""

from ._helpers import _known as known  # noqa: F401
from ._helpers import _spread as spread  # noqa: F401
from ._league import (  # noqa: F401  (re-exported layout)
    BAITER, CAREFUL, COUNTER, FIRST_HELD_OUT_KIND, FIRST_KIND, LAST_KIND, LATE_BLUFFER,
    MIRROR, PEEK_HOARDER, PROPORTIONAL, LEADER_BLUFFER, NUM_LEAGUE_PARAMS, P_THRESHOLD,
    SILENT, TEMPO,
    THRESHOLD_CHALLENGER, TRUTHFUL_CHALLENGER,
)
from ._league import _league_probs as league_probs  # noqa: F401
