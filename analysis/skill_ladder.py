"""The skill ladder: a round robin of players of rising skill (uniform play, each
scripted style of the league, the sound default, the exact equilibrium), exactly on the
tree of a two-player variant small enough to enumerate (the TAG framework's win-rate
matrix among agents of rising skill, here without sampling error).

Every scripted player is written onto the exact tree (solver.evaluation.abstraction_cost
.project: the numba player at every information set); for a pair, the row player's win
share is the mean over the two seat assignments of P(win) + P(draw)/2 = (1 + value)/2
(a win pays +1, a loss -1, a draw 0). A player against itself therefore gets exactly the
fair share 1/2; the matrix has no seeds at all.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from game_def.variant import Variant
from solver.exact.best_response import expected_value
from solver.exact.tree import FlatTree
from solver.scripted import LEAGUE_NAMES

EQUILIBRIUM = "equilibrium"
# uniform, the baseline bots, each league style, the sound default; then the exact one
LADDER = ("uniform", "honest", "paranoid", "heuristic") + LEAGUE_NAMES + ("sound",)


@dataclasses.dataclass(frozen=True)
class SkillLadder:
    """matrix: the row player's win share against the column player (every seat
    averaged); fair share 1/2, or 1/N by play at N seats (analysis.audit_sampled);
    half_width: each cell's 95% half-width where the matrix was measured by play (None:
    exact)."""

    variant: Variant
    matrix: pd.DataFrame
    fair_share: float = 0.5
    half_width: pd.DataFrame | None = None

    def strength(self) -> pd.Series:
        """Each player's mean win share against the others (the diagonal left out, and
        any cell not measured), strongest first."""
        m = self.matrix.to_numpy(dtype=float)
        off = ~np.eye(len(m), dtype=bool) & np.isfinite(m)
        mean = np.where(off, m, 0.0).sum(axis=1) / off.sum(axis=1)
        return pd.Series(mean, index=self.matrix.index,
                         name="mean_win_share").sort_values(ascending=False)

    def skill_pays(self) -> dict:
        """What the strongest player gains head to head over the weakest and over the
        median one (by mean win share), against the fair share."""
        s = self.strength()
        best, worst = s.index[0], s.index[-1]
        median = s.index[len(s) // 2]
        return {"strongest": best, "weakest": worst, "median": median,
                "over_weakest": float(self.matrix.at[best, worst]) - self.fair_share,
                "over_median": float(self.matrix.at[best, median]) - self.fair_share}


def player_strategies(variant: Variant, tree: FlatTree, names=LADDER,
                      equilibrium: np.ndarray | None = None, progress=None) -> dict:
    """Each named player's strategy on the (non-symmetric) tree, and the equilibrium's
    if given."""
    from solver.evaluation.abstraction_cost import project
    from solver.players.agents import bot

    out = {}
    for name in names:
        if progress is not None:
            progress(f"skill ladder: writing {name} onto the tree")
        out[name] = project(bot(name), variant, tree)
    if equilibrium is not None:
        out[EQUILIBRIUM] = equilibrium
    return out


def skill_ladder(variant: Variant, tree: FlatTree, strategies: dict,
                 progress=None) -> SkillLadder:
    """The round robin of `strategies` (name -> strategy on `tree`), exactly."""
    if variant.players != 2:
        raise ValueError("the exact skill ladder needs a two-player variant")
    names = list(strategies)
    seat0 = np.repeat(tree.infoset_player == 0, tree.infoset_num_actions)
    # value[a, b]: seat 0's value with a in seat 0 and b in seat 1
    value = np.zeros((len(names), len(names)))
    for i, a in enumerate(names):
        if progress is not None:
            progress(f"skill ladder: {a} in seat 0 against every player")
        for j, b in enumerate(names):
            value[i, j] = expected_value(tree, np.where(seat0, strategies[a],
                                                        strategies[b]))
    # a's share: seat 0 against b, (1 + value[a, b]) / 2; seat 1, (1 - value[b, a]) / 2
    share = (2 + value - value.T) / 4
    return SkillLadder(variant, pd.DataFrame(share, index=names, columns=names))
