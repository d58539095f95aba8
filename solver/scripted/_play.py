"""One entry for every scripted kind: uniform play, the baseline bots, the league and
held-out players, the claim counter and the sound default. Table agents (their
fallback), Monte Carlo CFR's league opponents and locked decisions all move a scripted
player through it, so a new kind is dispatched in one place."""

from __future__ import annotations

from game_def.kernels import jit

from ._basic import UNIFORM, _basic_probs
from ._league import FIRST_KIND, _league_probs
from ._sound import SOUND, _sound_probs


@jit
def _scripted_probs(kind, params, state, rules, know, seat, legal, m, out):
    """Probabilities of legal[:m] for the scripted player `kind` (its parameter row
    `params`) in `seat`, written into out[:m]."""
    if kind == UNIFORM:
        for i in range(m):
            out[i] = 1.0 / m
    elif kind == SOUND:
        _sound_probs(params, state, rules, know, seat, legal, m, out)
    elif kind >= FIRST_KIND:
        _league_probs(kind, params, state, rules, know, seat, legal, m, out)
    else:
        _basic_probs(kind, params, state, rules, know, seat, legal, m, out)
