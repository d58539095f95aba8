"""The players' kernel interface: how kernels in other packages ask a player to move.

Tournaments, the local best response and the trained exploiter (solver.evaluation), the
abstraction's exact cost and the sampled analysis (analysis.sampled, analysis.table_balance)
play bots, league players and table agents inside their own kernels. They use only the
names below, re-exported from the private `_kernels`: the player kinds, the decision
kinds and coverage classes a tournament counts (`DK_*`, `COV_*`), the kernels that give
a seat's action probabilities and play rounds (`play_table`, `play_table_counted` with
coverage counts, and `table_move`, one move of such a round: any table size), and the structures they take: a seat's `Player`
(kind, parameters, its table for that seat), both seats' `Seats`, and a tournament's
`Tally`. Build a Player with `solver.players.agents.Agent.player(seat)`.
"""

from ._kernels import (  # noqa: F401  (re-exported layout)
    COV_LEARNED, COV_NONE, COV_THIN, DK_AFTER_PEEK, DK_POWER, DK_RESPOND, DK_TURN,
    HEURISTIC, HONEST, NO_TABLE, NUM_COVERAGE, NUM_DECISION_KINDS, NUM_PARAMS, P_BLUFF,
    P_CHALLENGE, P_COARSE_LETTERS, P_FALLBACK, P_FINE_CLASSES, P_FALLBACK_VISITS, P_FALLBACK_VISITS_CLAIMS, P_SURE_WINS, P_TILT_ACTION, P_TILT_FACTOR, PARANOID, TABLE, UNIFORM, Player, Seats, Tally,
)
from ._kernels import (  # noqa: F401  (re-exported kernels)
    _agent_probs as agent_probs,
    _decision_kind as decision_kind,
    _draw as draw,
    _draw_at as draw_at,
    _play as play,
    _play_table as play_table,
    _play_table_counted as play_table_counted,
    _replay as replay,
    _replay_probs as replay_probs,
    _seat_probs as seat_probs,
    _table_move as table_move,
    _table_probs as table_probs,
)
