"""Strength at any table size, exactly, on trees small enough to solve: a strategy in
one seat against N-1 copies of each scripted player (solver.players.table_players),
rotated over every seat, its chance of winning against the fair share 1/N (teams: the
strategy's pair against a scripted pair, fair share 1/2). A win share counts a drawn
round (the turn cap: no player paid +1) as 1/N of a win for every seat (1/2 for each
team), as strength by play does (solver.evaluation.table_play), so that the shares sum
to 1 and the fair share is 1/N whatever the draw rate. Files written before 2026-12-06
by the exact measure counted a draw as 0 (solver.evaluation.run_files says which).

On an exact tree the chance of winning is a sum over terminals weighted by their reach
under the mixed profile, so the figures carry no sampling error (no intervals needed).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from game_def.actions import player_action_to_string
from game_def.variant import Variant
from solver.exact.best_response import player_values, reach_probabilities
from solver.exact.tree import TERMINAL, FlatTree
from solver.players.table_players import TABLE_PLAYERS, table_player_probs


def project_player(name: str, tree: FlatTree, num_positions: int) -> np.ndarray:
    """Scripted player `name` on every infoset of a non-symmetric exact tree (it reads
    the infoset's information-state string and legal action strings only)."""
    out = np.empty(tree.num_action_slots)
    for s in range(tree.num_infosets):
        off, m = int(tree.infoset_offset[s]), int(tree.infoset_num_actions[s])
        texts = [player_action_to_string(num_positions, int(a))
                 for a in tree.infoset_actions[off:off + m]]
        out[off:off + m] = table_player_probs(name, tree.key(s), texts)
    return out


def win_probabilities(tree: FlatTree, strategy: np.ndarray) -> np.ndarray:
    """P(player p wins) for every player: the reach of the terminals paying p +1 (a win,
    or its team's)."""
    reach = reach_probabilities(tree, strategy)
    terminal = tree.kind == TERMINAL
    return np.array([float(reach[terminal] @ (tree.player_payoff(p)[terminal] == 1.0))
                     for p in range(tree.num_players)])


def draw_probability(tree: FlatTree, strategy: np.ndarray) -> float:
    """P(the round ends with no player paid +1): a draw at the turn cap."""
    reach = reach_probabilities(tree, strategy)
    terminal = tree.kind == TERMINAL
    won = np.zeros(int(terminal.sum()), dtype=bool)
    for p in range(tree.num_players):
        won |= tree.player_payoff(p)[terminal] == 1.0
    return float(reach[terminal][~won].sum())


def fair_share(variant: Variant) -> float:
    """A seat's fair share of wins: 1/N, 1/2 for a team."""
    return 0.5 if variant.teams else 1.0 / variant.players


def win_shares(tree: FlatTree, strategy: np.ndarray, fair: float) -> np.ndarray:
    """Every player's win share: P(wins) + fair * P(draw)."""
    return win_probabilities(tree, strategy) + fair * draw_probability(tree, strategy)


def mixed(tree: FlatTree, ours: np.ndarray, theirs: np.ndarray, seats) -> np.ndarray:
    """`ours` at the infosets of `seats`, `theirs` at the others."""
    mine = np.isin(tree.infoset_player, list(seats))
    slots = np.repeat(mine, tree.infoset_num_actions)
    return np.where(slots, ours, theirs)


@dataclasses.dataclass(frozen=True)
class TableStrength:
    """One row per (opponent, seat): the strategy's win share there (a draw 1/N), the
    same seat's share when every seat plays the strategy (self-play: what the seat order
    itself gives), the strategy's value, and the outright win and draw probabilities."""

    variant: Variant
    rows: pd.DataFrame

    @property
    def fair_share(self) -> float:
        return fair_share(self.variant)

    def summary(self) -> pd.DataFrame:
        """Per opponent: the seat-averaged chance of winning, the worst seat's, the edge
        over self-play (seat-averaged and worst), and whether every seat beats the fair
        share 1/N (which a seat order that never reaches the last seat's turn rules out
        whatever the play; the edge over self-play does not depend on it)."""
        g = self.rows.groupby("opponent", sort=False)
        edge = self.rows["win_share"] - self.rows["self_play_share"]
        out = pd.DataFrame({"win_share": g["win_share"].mean(),
                            "worst_seat_share": g["win_share"].min(),
                            "edge_over_self_play": edge.groupby(self.rows["opponent"],
                                                                sort=False).mean(),
                            "worst_seat_edge": edge.groupby(self.rows["opponent"],
                                                            sort=False).min(),
                            "value": g["value"].mean()})
        out["fair_share"] = self.fair_share
        out["beats_fair_share_in_every_seat"] = out["worst_seat_share"] > self.fair_share
        return out


def table_strength(variant: Variant, tree: FlatTree, strategy: np.ndarray,
                   opponents=TABLE_PLAYERS) -> TableStrength:
    """The strategy in each seat (teams: each pair) against copies of each opponent in
    the others, exactly."""
    rows = []
    n = variant.num_positions
    if variant.teams:
        groups = [(0, 2), (1, 3)]
    else:
        groups = [(s,) for s in range(variant.players)]
    fair = fair_share(variant)
    self_shares = win_shares(tree, strategy, fair)
    for name in opponents:
        theirs = project_player(name, tree, n)
        for seats in groups:
            profile = mixed(tree, strategy, theirs, seats)
            wins = win_probabilities(tree, profile)
            draw = draw_probability(tree, profile)
            values = player_values(tree, profile)
            rows.append({"opponent": name, "seat": "+".join(map(str, seats)),
                         "win_share": wins[seats[0]] + fair * draw,
                         "self_play_share": self_shares[seats[0]],
                         "value": values[seats[0]], "wins": wins[seats[0]],
                         "draws": draw})
    return TableStrength(variant, pd.DataFrame(rows))
