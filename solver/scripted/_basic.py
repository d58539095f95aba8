"""The baseline bots: honest (the truth, never challenges), paranoid (the truth,
challenges every claim) and heuristic (bluffs a leader at a rate, challenges claims it
finds unlikely); uniform play is kind UNIFORM. Below the table agents (solver.players)
so that locked decisions (solver.decisions) can be played by them in training too."""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from ._helpers import _known, _spread

UNIFORM = 0
HONEST = 1
PARANOID = 2
HEURISTIC = 3
P_BLUFF = 0        # heuristic: probability of claiming Robin/Sheriff with another card
P_CHALLENGE = 1    # heuristic: challenge when P(claim true | what it knows) is below this
DEFAULT_BLUFF = 0.3            # the heuristic bot's rates when none are given
DEFAULT_CHALLENGE_BELOW = 0.3


@jit
def _basic_probs(kind, params, state, rules, know, seat, legal, m, out):
    """The baseline bots (described in solver/players/agents.py): honest, paranoid,
    heuristic; probabilities of legal[:m] written into out[:m]."""
    n = rules[k.R_N]
    base = 4 * n
    phase = state[k.S_PHASE]
    w = np.zeros(m, dtype=np.float64)
    if phase == k.PH_TURN:
        # peek at a face-down card it does not know; any face-down card if it knows all
        for i in range(m):
            a = legal[i]
            if a < n and _known(know, seat, a) < 0:
                w[i] = 1.0
        if w.sum() == 0:
            for i in range(m):
                if legal[i] < n:
                    w[i] = 1.0
    elif phase == k.PH_AFTER_PEEK:
        # The truth (silent for the Peasant); the Trickster must lie: Robin or Sheriff.
        # The heuristic bot claims Robin or Sheriff instead with probability P_BLUFF.
        card = state[k.S_CARD + state[k.S_PEEK_POS]]
        bluff = 0.0
        if card == k.TRICKSTER:
            bluff = 1.0
        elif kind == HEURISTIC and card != k.ROBIN and card != k.SHERIFF:
            bluff = params[P_BLUFF]
        for i in range(m):
            a = legal[i]
            truthful = (a == base + k.A_SILENT) if card == k.PEASANT else (
                a == base + k.A_ANNOUNCE + card)
            if truthful:
                w[i] += 1.0 - bluff
            if a == base + k.A_ANNOUNCE + k.ROBIN or a == base + k.A_ANNOUNCE + k.SHERIFF:
                w[i] += bluff / 2
    elif phase == k.PH_RESPOND:
        challenge = 0.0
        if kind == PARANOID:
            challenge = 1.0
        elif kind == HEURISTIC:
            said = state[k.S_ANNOUNCED]
            here = _known(know, seat, state[k.S_PEEK_POS])
            if here >= 0:
                challenge = 1.0 if here != said else 0.0
            else:
                located = 0
                unknown = 0
                for p in range(n):
                    c = _known(know, seat, p)
                    if c == said:
                        located += 1
                    elif c < 0 and not state[k.S_FACEUP + p]:
                        unknown += 1
                left = rules[k.R_COUNTS + said] - located
                likely = left / unknown if unknown > 0 else 0.0
                challenge = 1.0 if likely < params[P_CHALLENGE] else 0.0
        for i in range(m):
            w[i] = challenge if legal[i] == base + k.A_CHALLENGE else 1.0 - challenge
    elif phase == k.PH_REVEAL:
        # reveal cards known to be in the target camp, then unknown ones
        target = k.SHERIFF if state[k.S_POWER] == k.ROBIN else k.ROBIN
        for i in range(m):
            c = _known(know, seat, legal[i] - 2 * n)
            if c >= 0 and k.in_camp(c, target):
                w[i] = 1.0
        if w.sum() == 0:
            for i in range(m):
                if _known(know, seat, legal[i] - 2 * n) < 0:
                    w[i] = 1.0
    elif phase == k.PH_WITCH_CHOICE:
        for i in range(m):
            w[i] = 1.0 if legal[i] == base + k.A_KEEP else 0.0
    _spread(out, legal, m, w)
