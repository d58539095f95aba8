"""Settings of the belief-and-lookahead kernels (solver.search._kernels), as the int64
array they take, shared by the play-time search and the local best response."""

from __future__ import annotations

import numpy as np

from game_def.variant import Variant

from solver.players import kernels as ka
from solver.search import kernels as ks

# decision kinds, in the order of solver.players.kernels.DK_*
DECISION_KINDS = ("turn", "after_peek", "respond", "power")
assert len(DECISION_KINDS) == ka.NUM_DECISION_KINDS

# how the lookahead's gain is split by decision (G_SPLIT): not at all, on fresh
# rollouts (unbiased), or on the rollouts that chose the action (biased upward; for
# measuring that bias)
SPLITS = {"off": ks.SPLIT_OFF, "fresh": ks.SPLIT_FRESH, "reuse": ks.SPLIT_REUSE}


def kinds_mask(kinds) -> int:
    """The G_SEARCH_KINDS bit mask of decision kind names (DECISION_KINDS)."""
    mask = 0
    for name in kinds:
        mask |= 1 << DECISION_KINDS.index(name)
    return mask


def config_array(particles: int, rollouts: int, *, group_positions: bool = True,
                 model_eps: float = 0.0, kinds=DECISION_KINDS,
                 split: str = "off") -> np.ndarray:
    """`particles` in the belief, `rollouts` per scored action, position actions grouped
    by what the seat knows of the position, the belief's model mixed with uniform at
    rate `model_eps`, the lookahead deciding the decision kinds `kinds`, its gain split
    by decision as `split` says (SPLITS)."""
    cfg = np.zeros(ks.G_SIZE, dtype=np.int64)
    cfg[ks.G_PARTICLES] = particles
    cfg[ks.G_ROLLOUTS] = rollouts
    cfg[ks.G_GROUP] = 1 if group_positions else 0
    cfg[ks.G_REGEN] = 3
    cfg[ks.G_REGEN_FACTOR] = 4
    cfg[ks.G_MODEL_EPS] = int(round(model_eps * 1e6))
    cfg[ks.G_SEARCH_KINDS] = kinds_mask(kinds)
    cfg[ks.G_SPLIT] = SPLITS[split]
    return cfg


def max_steps(variant: Variant) -> int:
    """Steps a round of `variant` can record: a turn is at most peek, announce, respond,
    then n reveals (or 2 picks and a choice)."""
    return variant.max_turns * (sum(variant.counts) + 5) + 8
