"""Locks on an exact tree: which infosets each lock selects, the probabilities it fixes
there, and the tree the CFR family solves with them.

A locked decision is no longer a choice: its nodes become chance nodes that play the
locked probabilities (`LockedDecisions.solve_tree`). The CFR family then solves the
game that is left, with no change to its kernels, and the exact best response on that
tree is a best response over the free decisions only, so its NashConv measures how far
the free decisions are from the best answer to the locked ones. `lift` writes a strategy
of that tree back onto the full tree, the locked probabilities included, so strategy
files, reports and `load_strategy` honour the locks.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from game_def.actions import player_action_to_string
from game_def.characters import NAMES
from game_def.core import rules_array
from game_def.variant import Variant
from solver.exact.tree import CHANCE, FlatTree

from . import _kernels as kern
from solver.decisions.language import KINDS, Lock, LockError


@dataclasses.dataclass(frozen=True)
class LockReport:
    """What one lock did: the infosets it selected and fixed, and those where none of
    its actions was legal (left free)."""

    text: str
    selected: int
    fixed: int
    not_applicable: int

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class LockedDecisions:
    """The infosets the locks fix (`locked`, bool per infoset) and their probabilities
    (`probs`, per action slot of the full tree; meaningful at locked infosets)."""

    tree: FlatTree
    locked: np.ndarray
    probs: np.ndarray
    reports: tuple[LockReport, ...]

    @property
    def num_locked(self) -> int:
        return int(self.locked.sum())

    def solve_tree(self) -> FlatTree:
        """The full tree with every locked decision turned into a chance node that plays
        the locked probabilities, and the free infosets renumbered in order."""
        t = self.tree
        free = ~self.locked
        new_id = np.cumsum(free) - 1
        free_ids = np.flatnonzero(free)
        kind, player, infoset = t.kind.copy(), t.player.copy(), t.infoset.copy()
        edge_prob = t.edge_prob.copy()
        decisions = np.flatnonzero(infoset >= 0)
        sets = infoset[decisions]
        pinned = decisions[self.locked[sets]]
        # Each locked node's children get its infoset's locked probabilities.
        counts = t.num_children[pinned].astype(np.int64)
        children = _spans(t.first_child[pinned].astype(np.int64), counts)
        slots = _spans(t.infoset_offset[infoset[pinned]].astype(np.int64), counts)
        edge_prob[children] = self.probs[slots]
        kind[pinned] = CHANCE
        player[pinned] = -1
        infoset[pinned] = -1
        keep = decisions[free[sets]]
        infoset[keep] = new_id[infoset[keep]].astype(infoset.dtype)
        slot_free = np.repeat(free, t.infoset_num_actions)
        counts = t.infoset_num_actions[free]
        offsets = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(t.infoset_offset.dtype)
        keys = t.infoset_key

        def key(i: int) -> str:
            old = int(free_ids[i])
            return keys[old] if isinstance(keys, list) else keys(old)

        return FlatTree(kind, player, infoset, t.first_child, t.num_children, edge_prob,
                        t.payoff, t.infoset_player[free], offsets, counts,
                        t.infoset_actions[slot_free], key, t.description + " (locked)",
                        t.payoffs)

    def lift(self, strategy: np.ndarray) -> np.ndarray:
        """A strategy of solve_tree() as a strategy of the full tree."""
        out = self.probs.copy()
        slot_free = np.repeat(~self.locked, self.tree.infoset_num_actions)
        out[slot_free] = strategy
        return out

    def restrict(self, strategy: np.ndarray) -> np.ndarray:
        """A strategy of the full tree, its free decisions only (for solve_tree())."""
        return strategy[np.repeat(~self.locked, self.tree.infoset_num_actions)].copy()


@dataclasses.dataclass(frozen=True)
class LockSet:
    """Locks as the exact solve job takes them (SolveConfig.locks). The job does not
    import this package (it sits above solver.exact): it uses `texts`,
    `needs_full_tree` and `apply` alone."""

    locks: tuple[Lock, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.locks)

    @property
    def texts(self) -> list[str]:
        return [lock.text for lock in self.locks]

    @property
    def needs_full_tree(self) -> bool:
        """Whether the locks must be applied to the tree without the position symmetry
        (needs_full_tree, below)."""
        return any(needs_full_tree(lock) for lock in self.locks)

    def apply(self, variant: Variant, tree: FlatTree, symmetric: bool) -> LockedDecisions:
        return lock_decisions(variant, tree, self.locks, symmetric)


POSITION_VERBS = ("peek", "use", "reveal", "pick")


def needs_full_tree(lock: Lock) -> bool:
    """On the position-symmetric tree one action stands for every untouched position it
    represents (solver.exact.symmetry), so a probability spread evenly over its legal
    actions would not be even over the real positions. Locks whose actions aim at
    positions, and whole-seat players, are therefore applied to the full tree; locks on
    characters (announce, respond, name, keep or swap) are the same on both."""
    return lock.play is not None or any(key in POSITION_VERBS for key, _ in lock.actions)


def _spans(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The concatenation of arange(start, start + count) for each pair."""
    ends = np.cumsum(counts)
    return np.repeat(starts - (ends - counts), counts) + np.arange(ends[-1] if len(ends)
                                                                    else 0)


def infoset_features(variant: Variant, tree: FlatTree, symmetric: bool) -> np.ndarray:
    """(infosets, NUM_FEATURES) int64: what the mover knows at each infoset."""
    features = np.full((tree.num_infosets, kern.NUM_FEATURES), kern.UNSEEN, dtype=np.int64)
    bad = kern._infoset_features(rules_array(variant), symmetric, tree.first_child,
                                 tree.infoset, features)
    if bad:
        raise AssertionError(f"{bad} decision nodes of {variant} see other features than "
                             f"their infoset's first node")
    return features


def _selected(lock: Lock, features: np.ndarray) -> np.ndarray:
    f = features
    mask = f[:, kern.F_KIND] != kern.UNSEEN
    if lock.kind is not None:
        mask &= f[:, kern.F_KIND] == KINDS.index(lock.kind)
    if lock.seat is not None:
        mask &= f[:, kern.F_SEAT] == lock.seat
    for name, column in (("peeked", kern.F_PEEKED), ("claim", kern.F_CLAIM),
                         ("power", kern.F_POWER)):
        card = getattr(lock, name)
        if card is not None:
            mask &= f[:, column] == NAMES.index(card)
    if lock.strikes is not None:
        mask &= f[:, kern.F_STRIKES] == lock.strikes
    if lock.turns is not None:
        mask &= (f[:, kern.F_TURN] >= lock.turns[0]) & (f[:, kern.F_TURN] <= lock.turns[1])
    if lock.faceup is not None:
        mask &= (f[:, kern.F_FACEUP] >> NAMES.index(lock.faceup)) & 1 == 1
    return mask


def _matches(key: str, action_text: str, peeked: int) -> bool:
    verb, _, rest = action_text.partition(" ")
    if key == verb:
        return True
    if verb == "announce":
        said = NAMES.index(rest)
        return (key == "truth" and said == peeked) or (key == "bluff" and said != peeked) \
            or key == rest
    return verb == "name" and key == rest


def _action_probs(lock: Lock, texts: list[str], peeked: int) -> np.ndarray | None:
    """The lock's probabilities over one infoset's legal actions, or None where none of
    its classes has a legal action."""
    m = len(texts)
    out = np.zeros(m)
    taken = np.zeros(m, dtype=bool)
    mass = 0.0
    for key, p in lock.actions:
        hits = np.array([not taken[i] and _matches(key, texts[i], peeked)
                         for i in range(m)])
        if hits.any():
            out[hits] += p / hits.sum()
            taken |= hits
            mass += p
    if not taken.any():
        return None
    if mass <= 0.0:  # only zero-probability classes apply: spread over them evenly
        out[taken] = 1.0 / taken.sum()
        return out
    return out / mass


def lock_decisions(variant: Variant, tree: FlatTree, locks, symmetric: bool = False,
                   features: np.ndarray | None = None) -> LockedDecisions:
    """Apply `locks` (Lock objects, in order: the later holds) to the infosets of
    `tree`, the exact tree of `variant`. A lock that selects no infoset, or a seat the
    variant does not have, is a LockError."""
    for lock in locks:
        if lock.forbid:
            raise LockError(f"lock {lock.text!r} forbids actions (restricted play): "
                            f"exact solves take restrictions by pruning the tree "
                            f"(robinwood audit); give forbid= locks to --algo mccfr, or "
                            f"write the probabilities of the actions left")
    if symmetric:
        for lock in locks:
            if needs_full_tree(lock):
                raise LockError(f"lock {lock.text!r} plays positions or a whole player: "
                                f"apply it to the tree without the position symmetry "
                                f"(the solve job does so itself)")
    if features is None:
        features = infoset_features(variant, tree, symmetric)
    locked = np.zeros(tree.num_infosets, dtype=bool)
    probs = np.zeros(tree.num_action_slots)
    n = variant.num_positions
    reports = []
    played: dict[str, np.ndarray] = {}
    for lock in locks:
        if lock.seat is not None and lock.seat >= variant.players:
            raise LockError(f"lock {lock.text!r} names seat {lock.seat}, but {variant} has "
                            f"seats 0 to {variant.players - 1}")
        chosen = np.flatnonzero(_selected(lock, features))
        if len(chosen) == 0:
            raise LockError(f"lock {lock.text!r} selects no decision of {variant}: check "
                            f"its cards are in the deck and its turns within max_turns")
        fixed = 0
        if lock.play is not None:
            strategy = played.get(lock.play)
            if strategy is None:
                strategy = played[lock.play] = _player_strategy(lock, variant, tree,
                                                                symmetric)
            for s in chosen:
                off, m = tree.infoset_offset[s], tree.infoset_num_actions[s]
                probs[off:off + m] = strategy[off:off + m]
            locked[chosen] = True
            fixed = len(chosen)
        else:
            # Infosets with the same legal actions and peeked card get the same
            # probabilities: work them out once per such signature.
            known: dict[tuple, np.ndarray | None] = {}
            offsets, counts = tree.infoset_offset, tree.infoset_num_actions
            actions, peeked = tree.infoset_actions, features[:, kern.F_PEEKED]
            for s in chosen.tolist():
                off = int(offsets[s])
                m = int(counts[s])
                signature = (int(peeked[s]), actions[off:off + m].tobytes())
                p = known.get(signature, False)
                if p is False:
                    texts = [player_action_to_string(n, int(a))
                             for a in actions[off:off + m]]
                    p = known[signature] = _action_probs(lock, texts, int(peeked[s]))
                if p is None:
                    continue
                probs[off:off + m] = p
                locked[s] = True
                fixed += 1
        reports.append(LockReport(lock.text, len(chosen), fixed, len(chosen) - fixed))
    return LockedDecisions(tree, locked, probs, tuple(reports))


def _player_strategy(lock: Lock, variant: Variant, tree: FlatTree,
                     symmetric: bool) -> np.ndarray:
    from solver.exact.tree import uniform_strategy

    if lock.play == "uniform":
        return uniform_strategy(tree)
    if variant.players != 2 or variant.teams:
        raise LockError(f"lock {lock.text!r}: the scripted players play two-player "
                        f"rounds; use play=uniform or action probabilities for {variant}")
    from solver.evaluation.abstraction_cost import project
    from solver.players.agents import bot

    return project(bot(lock.play), variant, tree)


def lock_of_decision(locks, variant: Variant, state) -> str | None:
    """The text of the lock that fixes the decision at `state` (a decision state of
    `variant`'s OpenSpiel game), or None where it is free: the last lock that selects it
    and has a legal action there, as lock_decisions decides."""
    if not locks or state.is_chance_node() or state.is_terminal():
        return None
    row = np.empty(kern.NUM_FEATURES, dtype=np.int64)
    mover = state.current_player()
    kern._features_of(np.asarray(state.core_state), rules_array(variant), mover, row)
    texts = [state.action_to_string(mover, a) for a in state.legal_actions()]
    for lock in reversed(tuple(locks)):
        if not _selected(lock, row[None, :])[0]:
            continue
        if lock.play is not None or _action_probs(lock, texts,
                                                  int(row[kern.F_PEEKED])) is not None:
            return lock.text
    return None
