"""Public states and the two seats' ranges over them: the roots a re-solve starts from.

A *root* is a history at a decision, with both seats' knowledge (solver.mccfr), its
reach (chance, seat 0's and seat 1's blueprint probabilities of their actions on it,
each mixed with uniform at `eps` so that an action the blueprint never takes still
leaves histories), the hashes of its three observation records (seat 0's, seat 1's,
the public one) and, on a small deck, its node in the exact game tree. A *public
state* is the set of roots that share the public record, the seat to move and the
phase. `expand` steps a public state's roots to the next decisions and groups them
into the public states that follow; `roots_of` follows a real history's public record
from the start of the round, exactly while a public state has at most `max_roots`
roots and by stratified resampling beyond (the real seat's own class keeps half).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from game_def import kernels as k
from game_def.actions import num_distinct_actions
from game_def.variant import Variant

from solver.mccfr import kernels as ab
from solver.players import kernels as ka
from solver.search import _resolve_kernels as rk


class RangeLost(RuntimeError):
    """The resampled ranges kept no history that explains the public record."""


def token_layout(variant: Variant) -> np.ndarray:
    """The int64 token layout the kernels take (rk.L_*): actions, first chance token,
    first seen-identity token, the bound on tokens."""
    na = num_distinct_actions(variant.num_positions)
    fastest = 1 + k.MAX_PLAYERS * na
    seen = fastest + k.MAX_PLAYERS
    return np.array([na, fastest, seen, seen + k.MAX_POSITIONS * k.NUM_CHARACTERS],
                    dtype=np.int64)


@dataclasses.dataclass
class Roots:
    """Histories at decisions (module docstring): one row each."""

    states: np.ndarray      # int64 (n, S_SIZE)
    knows: np.ndarray       # int64 (n, K_SIZE)
    reach: np.ndarray       # float64 (n, R_SIZE): chance, each seat's blueprint, each
                            # seat's own (rk.R_*)
    hashes: np.ndarray      # uint64 (n, 3): seat 0's, seat 1's and the public record
    nodes: np.ndarray       # int64 (n,): exact-tree node, or -1

    def __len__(self) -> int:
        return len(self.nodes)

    def take(self, index) -> "Roots":
        return Roots(self.states[index], self.knows[index], self.reach[index],
                     self.hashes[index], self.nodes[index])

    def weight(self, me: int) -> np.ndarray:
        """Each root's probability up to a constant, as seat `me` sees it: chance, its
        own range (what it played) and the other seat's (its blueprint)."""
        r = self.reach
        return r[:, rk.R_CHANCE] * r[:, rk.R_OWN + me] * r[:, rk.R_BLUEPRINT + 1 - me]

    def own_weight(self, me: int) -> np.ndarray:
        """Chance and `me`'s own range alone (the safe gadget's weights)."""
        return self.reach[:, rk.R_CHANCE] * self.reach[:, rk.R_OWN + me]

    @property
    def seat(self) -> int:
        """The seat to move (the same at every root of a public state)."""
        return int(k.current_player(self.states[0]))


def initial_roots(rules: np.ndarray, tree_root: bool = False) -> Roots:
    """The round's first public state: its first decision (the lazy deal starts at one)."""
    state = k.initial_state(rules)
    if k.current_player(state) < 0:
        raise ValueError("the round does not start at a decision: re-solving needs the "
                         "lazy deal of two-player rounds")
    know = ab.initial_knowledge(state, rules)
    start = np.uint64(rk.HASH_START)
    return Roots(state[None, :].copy(), know[None, :].copy(), np.ones((1, rk.R_SIZE)),
                 np.full((1, 3), start, dtype=np.uint64),
                 np.array([0 if tree_root else -1], dtype=np.int64))


NO_TREE = np.zeros(0, dtype=np.int64)


NO_STRATEGY = np.zeros(0, dtype=np.float64)


@dataclasses.dataclass
class TreeStrategy:
    """The exact tree, for roots that follow its nodes: optionally a blueprint given as
    a strategy on its action slots (an exact solve's, for instance), which the ranges
    then read instead of an agent's table, and the strategy the seats actually play
    (`own`: the re-solver's, filled in as it re-solves), for their own ranges."""

    first_child: np.ndarray
    infoset: np.ndarray
    offset: np.ndarray
    strategy: np.ndarray
    own: np.ndarray = dataclasses.field(default_factory=lambda: NO_STRATEGY)

    @classmethod
    def of(cls, tree, strategy=None, own=None) -> "TreeStrategy":
        def slots(a):
            return NO_STRATEGY if a is None else np.ascontiguousarray(a, dtype=np.float64)

        return cls(np.ascontiguousarray(tree.first_child, dtype=np.int64),
                   np.ascontiguousarray(tree.infoset, dtype=np.int64),
                   np.ascontiguousarray(tree.infoset_offset, dtype=np.int64),
                   slots(strategy), own if own is not None else NO_STRATEGY)


def expand(rules, layout, seats: ka.Seats, roots: Roots, eps: float,
           tree: TreeStrategy | None = None) -> tuple[Roots, np.ndarray]:
    """The decisions one step after `roots` (each root's actions, then chance), and the
    public key of each: rows with equal keys form one public state. With `tree`, the
    roots follow the exact tree's nodes, and its strategy (if any) is the blueprint."""
    n = len(roots)
    guess = max(16, 4 * n)
    out = (np.empty((guess, k.S_SIZE), dtype=np.int64),
           np.empty((guess, roots.knows.shape[1]), dtype=np.int64),
           np.empty((guess, rk.R_SIZE)), np.empty((guess, 3), dtype=np.uint64),
           np.empty(guess, dtype=np.int64), np.empty(guess, dtype=np.int64))
    t = tree or TreeStrategy(NO_TREE, NO_TREE, NO_TREE, NO_STRATEGY)
    states, knows, reach, hashes, nodes, keys, count = rk._expand_public(
        rules, layout, seats, float(eps), roots.states, roots.knows, roots.reach,
        roots.hashes, roots.nodes, n, t.first_child, t.infoset, t.offset, t.strategy,
        t.own, *out)
    return Roots(states[:count], knows[:count], reach[:count], hashes[:count],
                 nodes[:count]), keys[:count]


def split(roots: Roots, keys: np.ndarray):
    """The public states among expanded roots: (key, Roots) in the order of first
    appearance."""
    uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    for u in order:
        yield int(uniq[u]), roots.take(np.flatnonzero(inverse == u))


def history_keys(rules, layout, history) -> list[tuple[int, np.ndarray]]:
    """Along a real history (core action ids, chance included): at every decision it
    passes, the last being where it ends (which must be a decision), the public key and
    the record hashes there (seat 0, seat 1, public)."""
    state = k.initial_state(rules)
    hashes = np.full(3, rk.HASH_START, dtype=np.uint64)
    toks = np.empty(2, dtype=np.int64)
    points = []
    for a in history:
        if k.current_player(state) >= 0:
            points.append((int(rk._public_key(hashes[rk.PUBLIC], state)), hashes.copy()))
        before = state.copy()
        k.apply_action(state, rules, int(a))
        for o in range(3):
            t = rk._step_tokens(before, int(a), state, rules, layout, o, toks)
            hashes[o] = rk._chain(hashes[o], toks, t)
    if k.current_player(state) < 0:
        raise ValueError("the history does not end at a player's decision")
    points.append((int(rk._public_key(hashes[rk.PUBLIC], state)), hashes.copy()))
    return points


def resample(roots: Roots, n: int, seat: int, own_hash, rng: np.random.Generator) -> Roots:
    """At most `n` roots standing for `roots`: the rows of `seat`'s class `own_hash` and
    the others resampled apart (systematic, by weight), each part keeping its total
    weight, the class getting half the rows (or all it has)."""
    mine = roots.hashes[:, seat] == np.uint64(own_hash)
    parts = []
    weight = roots.weight(seat)
    n_mine = min(int(mine.sum()), max(1, n // 2) if (~mine).any() else n)
    for mask, quota in ((mine, n_mine), (~mine, n - n_mine)):
        idx = np.flatnonzero(mask)
        if len(idx) == 0 or quota <= 0:
            continue
        w = weight[idx]
        if len(idx) <= quota or w.sum() <= 0:
            parts.append((idx[:quota] if w.sum() <= 0 else idx, None))
            continue
        c = np.cumsum(w / w.sum())
        picks = np.searchsorted(c, (rng.random() + np.arange(quota)) / quota, side="right")
        picks = np.minimum(picks, len(idx) - 1)
        parts.append((idx[picks], w.sum() / quota))
    rows = np.concatenate([p[0] for p in parts])
    out = roots.take(rows)
    start = 0
    for idx, each in parts:
        if each is not None:
            # the resampled rows of a part share its weight equally
            # (in the chance factor, so that each seat's own factor, which the safe
            # gadget reads, stays as it was)
            seg = slice(start, start + len(idx))
            out.reach[seg, rk.R_CHANCE] *= each / weight[rows[seg]]
        start += len(idx)
    return out


def roots_of(rules, layout, seats: ka.Seats, history, eps: float, max_roots: int,
             seed: int = 0) -> tuple[Roots, np.ndarray, int]:
    """The roots of the public state where `history` ends, both seats' ranges from
    `seats`; the record hashes of the real history there; and how many public states
    on the way were resampled (0: exact). A resampling draws from `seed` and the public
    state's key only, so that it reads nothing the deciding seat did not observe and
    gives the same roots whatever was asked before."""
    points = history_keys(rules, layout, history)
    seat = int(k.current_player(_state_after(rules, history)))
    roots = initial_roots(rules)
    resampled = 0
    for step, (key, hashes) in enumerate(points[1:]):
        children, keys = expand(rules, layout, seats, roots, eps)
        roots = children.take(np.flatnonzero(keys == key))
        if len(roots) == 0:
            # only after a resampling: every kept history contradicts what happened
            raise RangeLost("the resampled ranges hold no history of this public state")
        if len(roots) > max_roots:
            # the deciding seat's real record so far keeps half the rows, so that its
            # own histories stay represented at every step
            rng = np.random.default_rng([int(seed), step, key])
            roots = resample(roots, max_roots, seat, hashes[seat], rng)
            resampled += 1
    return roots, points[-1][1], resampled


def _state_after(rules, history) -> np.ndarray:
    state = k.initial_state(rules)
    for a in history:
        k.apply_action(state, rules, int(a))
    return state
