"""The narrow interface between games and solvers: a game tree as flat arrays (no
Python object per node). Two-player zero-sum trees carry player 0's payoff only; trees
of three or more players (or of any general-sum game) carry every player's (`payoffs`).

Nodes are numbered so that every parent comes before its children and the children of
a node are contiguous (`first_child[n] .. first_child[n] + num_children[n] - 1`). A
forward pass over node ids is therefore top-down and a backward pass bottom-up. At a
decision node, child `i` is the infoset's action `i` (perfect recall guarantees every
node of an infoset has the same legal actions, in the same order).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

TERMINAL, CHANCE, DECISION = 0, 1, 2


@dataclasses.dataclass
class FlatTree:
    """A game tree for the CFR kernels. `payoff` is player 0's; in a two-player zero-sum
    tree player 1 gets minus it and `payoffs` is None, otherwise `payoffs[p]` holds
    player p's payoff at every node (zero off the terminals)."""

    # Narrow types (see `layout_dtypes`): indices in 32 bits, counts in 8 where they fit,
    # payoffs in float32 when every payoff is exactly a float32 (kernels add in float64).
    kind: np.ndarray            # int8 per node: TERMINAL, CHANCE or DECISION
    player: np.ndarray          # int8 per node: acting player at decisions, -1 otherwise
    infoset: np.ndarray         # int32 per node: infoset index at decisions, -1 otherwise
    first_child: np.ndarray     # int32 per node (0 at terminals); int64 past 2^31 nodes
    num_children: np.ndarray    # int8 per node (int32 past 127 children)
    edge_prob: np.ndarray       # float64 per node: chance probability of the edge into it
                                #   (1.0 below decision nodes and at the root)
    payoff: np.ndarray          # float32 (exact) or float64 per node: player 0's payoff
                                #   at terminals
    infoset_player: np.ndarray  # int8 per infoset
    infoset_offset: np.ndarray  # int32 per infoset: start of its slots in action arrays
    infoset_num_actions: np.ndarray  # int8 per infoset (int32 past 127 actions)
    infoset_actions: np.ndarray  # int16 per action slot (int64 past 2^15): the game's
                                 #   action id
    infoset_key: Callable[[int], str] | list[str]  # infoset -> information-state string
    description: str = ""
    payoffs: np.ndarray | None = None  # float64 (players, nodes), or None: 2-player zero-sum

    # ----- sizes -----------------------------------------------------------------------
    @property
    def num_nodes(self) -> int:
        return len(self.kind)

    @property
    def num_players(self) -> int:
        return 2 if self.payoffs is None else int(self.payoffs.shape[0])

    def player_payoff(self, p: int) -> np.ndarray:
        """Player p's payoff per node (float64 where the tree stores every player's)."""
        if self.payoffs is not None:
            return self.payoffs[p]
        return self.payoff if p == 0 else -self.payoff.astype(np.float64)

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_player)

    @property
    def num_action_slots(self) -> int:
        return len(self.infoset_actions)

    @property
    def nbytes(self) -> int:
        return sum(getattr(self, f.name).nbytes for f in dataclasses.fields(self)
                   if isinstance(getattr(self, f.name), np.ndarray))

    def key(self, infoset: int) -> str:
        keys = self.infoset_key
        return keys[infoset] if isinstance(keys, list) else keys(infoset)

    def keys(self) -> list[str]:
        return [self.key(i) for i in range(self.num_infosets)]

    def validate(self) -> None:
        """Check the structural invariants the kernels rely on (cheap, vectorised)."""
        n = self.num_nodes
        inner = self.kind != TERMINAL
        kids = self.num_children[inner]
        if np.any(kids < 1):
            raise ValueError("a chance or decision node has no children")
        starts = self.first_child[inner]
        if np.any(starts <= np.flatnonzero(inner)):
            raise ValueError("a child is numbered before its parent")
        if np.any(starts + kids > n):
            raise ValueError("a child index is out of range")
        decisions = np.flatnonzero(self.kind == DECISION)
        sets = self.infoset[decisions]
        if np.any(self.infoset_num_actions[sets] != self.num_children[decisions]):
            raise ValueError("a decision node's child count differs from its infoset's")
        if np.any(self.infoset_player[sets] != self.player[decisions]):
            raise ValueError("a decision node's player differs from its infoset's")
        if self.payoffs is not None:
            if self.payoffs.ndim != 2 or self.payoffs.shape[1] != n or \
                    self.payoffs.shape[0] < 2:
                raise ValueError(f"payoffs must have shape (players, {n}), got "
                                 f"{self.payoffs.shape}")
            if not np.array_equal(self.payoffs[0], self.payoff):
                raise ValueError("payoffs[0] differs from payoff (player 0's)")
            if np.any(self.payoffs[:, self.kind != TERMINAL] != 0):
                raise ValueError("payoffs must be zero off the terminal nodes")
            if np.any(self.player[decisions] >= self.payoffs.shape[0]):
                raise ValueError("a decision node's player has no payoff row")
        chance = np.flatnonzero(self.kind == CHANCE)
        if len(chance):
            ids = _ranges(self.first_child[chance], self.num_children[chance])
            offsets = np.concatenate(([0], np.cumsum(self.num_children[chance])[:-1]))
            sums = np.add.reduceat(self.edge_prob[ids], offsets)
            bad = np.flatnonzero(np.abs(sums - 1.0) > 1e-9)
            if len(bad):
                raise ValueError(f"chance node {chance[bad[0]]}'s probabilities sum to "
                                 f"{sums[bad[0]]}")


def index_dtype(limit: int) -> type:
    """int32 for indices below 2^31 (every tree that fits in memory today), else int64."""
    return np.int32 if limit < 2**31 else np.int64


def count_dtype(limit: int) -> type:
    """int8 for child and action counts below 128, else int32."""
    return np.int8 if limit < 128 else np.int32


def action_dtype(limit: int) -> type:
    """int16 for action ids below 2^15, else int64."""
    return np.int16 if limit < 2**15 else np.int64


def payoff_array(payoff: np.ndarray) -> np.ndarray:
    """Payoffs as float32 when that is exact (Robin Wood's are -1, 0, 1), else float64."""
    narrow = payoff.astype(np.float32)
    return narrow if np.array_equal(narrow.astype(np.float64), payoff) else \
        payoff.astype(np.float64)


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Concatenation of arange(start, start + count) for each pair."""
    total = int(counts.sum())
    steps = np.ones(total, dtype=np.int64)
    heads = np.concatenate(([0], np.cumsum(counts)[:-1]))
    steps[heads] = starts - np.concatenate(([0], starts[:-1] + counts[:-1] - 1))
    return np.cumsum(steps)


def uniform_strategy(tree: FlatTree) -> np.ndarray:
    """Per action slot, 1 / (number of actions of its infoset)."""
    return np.repeat(1.0 / tree.infoset_num_actions, tree.infoset_num_actions)
