"""The scripted players' kernel interface: what kernels in other packages may call.

The baseline bots' kinds (`UNIFORM` to `HEURISTIC`) and their kernel `basic_probs`; the
league players' kinds (`FIRST_KIND` up to `FIRST_HELD_OUT_KIND`), the held-out
players' (`FIRST_HELD_OUT_KIND` to `LAST_KIND`, but for the fallback rules'
`CLAIM_COUNTER` among them), parameter slots and kernel `league_probs`; and the helpers
every player shares (what a seat knows at a position, weights to probabilities). Table
agents (fallback rules) and tournaments reach them through solver.players; Monte Carlo
CFR plays them as training opponents (`league_share`) and at locked decisions
(solver.decisions).
"""

from ._basic import (  # noqa: F401  (re-exported layout)
    DEFAULT_BLUFF, DEFAULT_CHALLENGE_BELOW, HEURISTIC, HONEST, P_BLUFF, P_CHALLENGE, PARANOID,
    UNIFORM,
)
from ._basic import _basic_probs as basic_probs  # noqa: F401
from ._helpers import _known as known  # noqa: F401
from ._helpers import _spread as spread  # noqa: F401
from ._league import (  # noqa: F401  (re-exported layout)
    BAITER, CAREFUL, CLAIM_COUNTER, COUNTER, DISRUPTOR, FIRST_HELD_OUT_KIND, FIRST_KIND,
    LAST_KIND, LATE_BLUFFER, MIRROR, PEEK_HOARDER, PROPORTIONAL, PROVER, LEADER_BLUFFER,
    NUM_LEAGUE_PARAMS, P_THRESHOLD, SILENT, TEMPO, UNMASKER,
    THRESHOLD_CHALLENGER, TRUTHFUL_CHALLENGER,
)
from ._league import _league_probs as league_probs  # noqa: F401
from ._sound import (  # noqa: F401  (re-exported layout)
    NUM_SOUND_PARAMS, P_BLUFF_CAUGHT, P_BLUFF_EXPOSURE, P_BLUFF_SHARE, P_BLUFF_WORTH,
    P_CLAIM_WEIGHT, P_CLAIM_WEIGHT_MANY, P_DETER, P_POWER_VALUE, P_TEMPO, P_TRICKSTER_LIE,
    SOUND,
    SOUND_DEFAULTS,
)
from ._sound import _break_even as break_even  # noqa: F401
from ._sound import _claim_weight as claim_weight  # noqa: F401
from ._sound import _liar as lie_shares  # noqa: F401
from ._sound import _sound_probs as sound_probs  # noqa: F401
from ._play import _scripted_probs as scripted_probs  # noqa: F401
