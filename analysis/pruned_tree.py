"""A game tree with some actions forbidden: the actions, and every node below them,
removed, so that the player still chooses freely among the actions left (restricted
play, analysis.restricted_play). A lock (solver.locks) fixes a decision's
probabilities; a restriction only takes actions away.

The tree keeps the FlatTree invariants (parents before children, each node's children
contiguous, child i of a decision node its infoset's action i): removing nodes and
renumbering the rest in order keeps both. An infoset whose every action would be
forbidden keeps them all (the restriction does not apply there).
"""

from __future__ import annotations

import numpy as np

from solver.exact.tree import DECISION, TERMINAL, FlatTree


def _spans(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """starts[i], starts[i] + 1, ..., starts[i] + counts[i] - 1, concatenated."""
    if len(starts) == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(counts)
    base = np.repeat(starts - (ends - counts), counts)
    return base + np.arange(int(ends[-1]), dtype=np.int64)


def applicable(tree: FlatTree, forbidden: np.ndarray) -> np.ndarray:
    """`forbidden` (bool per action slot) less the infosets where it forbids every
    action: there the restriction does not apply."""
    counts = tree.infoset_num_actions.astype(np.int64)
    per_set = np.add.reduceat(forbidden.astype(np.int64),
                              tree.infoset_offset.astype(np.int64))
    return forbidden & ~np.repeat(per_set == counts, counts)


def forbid(tree: FlatTree, forbidden: np.ndarray) -> FlatTree:
    """`tree` without the forbidden actions (bool per action slot, where applicable)
    and the subtrees below them."""
    t = tree
    if len(forbidden) != t.num_action_slots:
        raise ValueError(f"forbidden has {len(forbidden)} entries, the tree "
                         f"{t.num_action_slots} action slots")
    forbidden = applicable(t, np.asarray(forbidden, dtype=bool))
    first = t.first_child.astype(np.int64)
    kids = t.num_children.astype(np.int64)
    decisions = np.flatnonzero(t.kind == DECISION)
    sets = t.infoset[decisions].astype(np.int64)
    counts = t.infoset_num_actions[sets].astype(np.int64)
    children = _spans(first[decisions], counts)
    slots = _spans(t.infoset_offset[sets].astype(np.int64), counts)
    keep = np.ones(t.num_nodes, dtype=bool)
    frontier = children[forbidden[slots]]
    while len(frontier):            # every node below a removed one goes too
        keep[frontier] = False
        inner = frontier[t.kind[frontier] != TERMINAL]
        frontier = _spans(first[inner], kids[inner])
    kept = np.cumsum(keep)          # kept nodes up to and including each node
    old = np.flatnonzero(keep)
    inner = t.kind[old] != TERMINAL
    f, k = first[old], kids[old]
    new_first = np.where(inner, kept[np.maximum(f - 1, 0)] * (f > 0), 0)
    new_kids = np.where(inner, kept[np.minimum(f + k - 1, t.num_nodes - 1)]
                        - np.where(f > 0, kept[np.maximum(f - 1, 0)], 0), 0)
    slot_keep = ~forbidden
    num_actions = np.add.reduceat(slot_keep.astype(np.int64),
                                  t.infoset_offset.astype(np.int64))
    offsets = np.concatenate(([0], np.cumsum(num_actions)[:-1]))
    out = FlatTree(
        t.kind[old], t.player[old], t.infoset[old],
        new_first.astype(t.first_child.dtype), new_kids.astype(t.num_children.dtype),
        t.edge_prob[old], t.payoff[old], t.infoset_player,
        offsets.astype(t.infoset_offset.dtype),
        num_actions.astype(t.infoset_num_actions.dtype), t.infoset_actions[slot_keep],
        t.infoset_key, t.description + " (restricted)",
        None if t.payoffs is None else t.payoffs[:, old])
    out.validate()
    return out
