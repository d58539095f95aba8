"""Write a two-player Robin Wood round into a FlatTree by walking the numba core once.

Information sets are identified exactly, without strings: each player's observation
record (docs/game-interface.md) is a path in a trie of integer tokens, and an infoset is
a (player, trie node) pair. Strings are rebuilt from the trie only when asked for, and
equal the OpenSpiel game's `information_state_string` (checked in tests).
"""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit
from game_def.actions import action_to_string, num_distinct_actions
from game_def.characters import NAMES
from game_def.core import rules_array
from game_def.variant import Variant

from solver.exact.tree import CHANCE, DECISION, TERMINAL, FlatTree

# Memory per tree node at the peak of a whole solve (count, build, iterate, measure,
# save), over the process baseline: 77.7 B measured on the symmetric rspx:max_turns=7
# tree (32.3 M nodes; benchmarks/bench_memory.py), 80.3 B on rspx:max_turns=6
# (tests/test_solve_job.py). The tree's arrays take 23 B a node and its infoset arrays
# about 4; the solver's 16 B a node (own reach; others' reach
# then value) and 4 float64 slot arrays (about 31 B a node: current, regret, this
# pass's regret, strategy sum; PCFR+ adds its prediction, 8 more), and one touched
# byte an infoset (about 0.4 B a node). The observation
# trie (about 8 B) is on disk, memory-mapped, while iterating; the build peaks lower
# (47 B), its hash tables holding int32 entry indices.
PEAK_BYTES_PER_NODE = 84
# PCFR+ keeps last iteration's regrets too: one more float64 per slot (0.97 a node).
PREDICTION_BYTES_PER_NODE = 8


class TreeTooLarge(MemoryError):
    """The tree has more nodes than the caller allowed."""


def _token_layout(n: int) -> tuple[int, int, int]:
    na = num_distinct_actions(n)
    fastest = 1 + k.MAX_PLAYERS * na
    seen = fastest + k.MAX_PLAYERS
    base = seen + k.MAX_POSITIONS * k.NUM_CHARACTERS
    return fastest, seen, base


@jit
def _grow_i8(a, need):
    if need <= a.shape[0]:
        return a
    out = np.empty(max(need, 2 * a.shape[0]), dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@jit
def _grow_2d(a, need):
    if need <= a.shape[0]:
        return a
    out = np.empty((max(need, 2 * a.shape[0]), a.shape[1]), dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@jit
def _hash_slot(key, mask):
    h = (key ^ (key >> 31)) * 0x5BD1E9955BD1E995  # int64 multiply, wraps
    return (h ^ (h >> 29)) & mask


@jit
def _table_find(keys, key):
    """Slot of `key` in an open-addressing table (linear probing), or of the empty slot
    where it would go. Capacity is a power of two; empty slots hold -1."""
    mask = keys.shape[0] - 1
    i = _hash_slot(key, mask)
    while keys[i] != -1 and keys[i] != key:
        i = (i + 1) & mask
    return i


@jit
def _table_grow(keys, values):
    new_keys = np.full(2 * keys.shape[0], -1, dtype=np.int64)
    new_values = np.empty(2 * keys.shape[0], dtype=np.int64)
    for i in range(keys.shape[0]):
        if keys[i] != -1:
            j = _table_find(new_keys, keys[i])
            new_keys[j] = keys[i]
            new_values[j] = values[i]
    return new_keys, new_values


# The builder's two hash tables (observation -> trie node, trie node -> infoset) hold
# only int32 entry indices; an entry's key is recomputed from the arrays the entries
# live in (trie: parent * base + token; infosets: their observation). That is 4 bytes a
# slot instead of 16, the difference between the build's peak and the solve's.

@jit
def _trie_find(table, parent, token, key, base):
    mask = table.shape[0] - 1
    i = _hash_slot(key, mask)
    while True:
        e = table[i]
        if e == -1 or np.int64(parent[e]) * base + token[e] == key:
            return i
        i = (i + 1) & mask


@jit
def _trie_rehash(table, parent, token, count, base):
    out = np.full(2 * table.shape[0], -1, dtype=np.int32)
    for e in range(2, count):  # 0 and 1 are the roots, never looked up
        out[_trie_find(out, parent, token, np.int64(parent[e]) * base + token[e], base)] = e
    return out


@jit
def _set_find(table, set_obs, obs):
    mask = table.shape[0] - 1
    i = _hash_slot(obs, mask)
    while True:
        e = table[i]
        if e == -1 or set_obs[e] == obs:
            return i
        i = (i + 1) & mask


@jit
def _set_rehash(table, set_obs, count):
    out = np.full(2 * table.shape[0], -1, dtype=np.int32)
    for e in range(count):
        out[_set_find(out, set_obs, np.int64(set_obs[e]))] = e
    return out


@jit
def _grow_by_half(a, need):
    """Like _grow_i8 with 1.5x steps (the trie's arrays are large: less slack)."""
    if need <= a.shape[0]:
        return a
    out = np.empty(max(need, a.shape[0] + a.shape[0] // 2), dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@jit
def _observe(table, trie_parent, trie_token, n_trie, obs, token, base):
    """The trie node reached from `obs` by `token` (created if new)."""
    key = np.int64(obs) * base + token
    i = _trie_find(table, trie_parent, trie_token, key, base)
    if table[i] != -1:
        return np.int64(table[i])
    child = n_trie[0]
    table[i] = child
    trie_parent[child] = obs
    trie_token[child] = token
    n_trie[0] += 1
    return child


@jit
def _one_untouched_representative(actions, m, n_pos, touched):
    """Position symmetry: positions never mentioned so far (never peeked, used, revealed,
    picked or seen, and not face up from the start) are interchangeable under the lazy
    deal, so of the actions aimed at them only the one at the lowest such position is
    kept. Compacts `actions` in place; returns the new count."""
    lowest = 0
    while lowest < n_pos and (touched >> lowest) & 1:
        lowest += 1
    kept = 0
    for i in range(m):
        a = actions[i]
        if a < 4 * n_pos:
            pos = a % n_pos
            if not (touched >> pos) & 1 and pos != lowest:
                continue
        actions[kept] = a
        kept += 1
    return kept


@jit
def _initially_mentioned(state, n_pos):
    """Positions face up at the start (the Traitors) count as already mentioned."""
    mask = 0
    for pos in range(n_pos):
        if state[k.S_FACEUP + pos]:
            mask |= 1 << pos
    return mask


@jit
def _mentioned_after(mask, mover, action, child, n_pos):
    """`mask` plus the positions that `action` (by `mover`) and its outcome mention."""
    if mover != k.CHANCE_PLAYER and action < 4 * n_pos:
        mask |= 1 << (action % n_pos)
    if child[k.S_SEEN_SCOPE] != k.SCOPE_NONE:
        mask |= 1 << child[k.S_SEEN_POS]
    return mask


@jit
def _expand(state, rules, mover, symmetric, mentioned, actions, probs):
    """The node's outgoing edges, in tree order: chance outcomes with their
    probabilities, or legal actions (one representative of the untouched positions when
    symmetric). Returns how many."""
    if mover == k.CHANCE_PLAYER:
        return k.chance_outcomes(state, rules, actions, probs)
    m = k.legal_actions(state, rules, actions)
    if symmetric:
        m = _one_untouched_representative(actions, m, rules[k.R_N], mentioned)
    return m


@jit
def _build(rules, num_nodes, na, tok_fastest, tok_seen, base, symmetric):
    """DFS over the core into node arrays of exactly `num_nodes` (counted beforehand by
    `_count_nodes`, so nothing is grown or copied); returns them, the infoset arrays and
    the trie, or a node count of -1 if the tree turned out larger."""
    kind = np.empty(num_nodes, dtype=np.int8)
    player = np.empty(num_nodes, dtype=np.int8)
    infoset = np.empty(num_nodes, dtype=np.int32)
    first = np.empty(num_nodes, dtype=np.int32)
    count = np.empty(num_nodes, dtype=np.int8)
    prob = np.empty(num_nodes, dtype=np.float64)
    payoff = np.empty(num_nodes, dtype=np.float32)
    players = rules[k.R_PLAYERS]
    teams = rules[k.R_TEAMS] != 0
    # Every player's payoff, for trees of three or four players (none for two).
    payoffs = np.zeros((players if players > 2 else 0, num_nodes))
    guess = max(1024, num_nodes // 4)
    set_player = np.empty(guess, dtype=np.int8)
    set_obs = np.empty(guess, dtype=np.int32)
    set_count = np.empty(guess, dtype=np.int8)
    set_actions = np.empty(2 * guess, dtype=np.int16)
    trie_parent = np.empty(max(1 << 16, num_nodes // 2), dtype=np.int32)
    trie_token = np.empty(trie_parent.shape[0], dtype=np.int16)
    size = 1 << 16
    while size < trie_parent.shape[0]:
        size *= 2
    trie_table = np.full(size, -1, dtype=np.int32)
    size = 1 << 12
    while size < guess:
        size *= 2
    set_table = np.full(size, -1, dtype=np.int32)
    n_trie = np.zeros(1, dtype=np.int64)
    n_trie[0] = players  # trie roots: node p for player p's empty record
    for p in range(players):
        trie_parent[p] = -1
        trie_token[p] = 0
    n_sets = 0
    n_slots = 0

    stack = np.empty((4096, k.S_SIZE), dtype=np.int64)
    # node id, bitmask of positions mentioned, then each player's observation (trie node)
    stack_meta = np.empty((4096, 2 + players), dtype=np.int64)
    obs = np.empty(players, dtype=np.int64)
    parent_obs = np.empty(players, dtype=np.int64)  # the popped node's (its slot is reused)
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    ret = np.zeros(players, dtype=np.float64)

    stack[0] = k.initial_state(rules)
    stack_meta[0, 0] = 0
    n_pos = rules[k.R_N]
    stack_meta[0, 1] = _initially_mentioned(stack[0], n_pos)
    for p in range(players):
        stack_meta[0, 2 + p] = p
    top = 1
    n_nodes = 1
    prob[0] = 1.0
    while top > 0:
        top -= 1
        state = stack[top].copy()
        node = stack_meta[top, 0]
        touched = stack_meta[top, 1]
        for p in range(players):
            parent_obs[p] = stack_meta[top, 2 + p]
        cur = k.current_player(state)
        if cur == k.TERMINAL_PLAYER:
            kind[node] = TERMINAL
            player[node] = -1
            infoset[node] = -1
            first[node] = 0
            count[node] = 0
            k.returns(state, rules, ret)
            payoff[node] = ret[0]
            for p in range(payoffs.shape[0]):
                payoffs[p, node] = ret[p]
            if players == 2 and np.float64(payoff[node]) != ret[0]:
                return -2, kind, player, infoset, first, count, prob, payoff, set_player, \
                    set_obs, set_count, set_actions, trie_parent, trie_token, n_sets, \
                    n_slots, n_trie[0], payoffs
            continue
        m = _expand(state, rules, cur, symmetric, touched, actions, probs)
        if cur == k.CHANCE_PLAYER:
            kind[node] = CHANCE
            player[node] = -1
            infoset[node] = -1
        else:
            mine = parent_obs[cur]
            slot = _set_find(set_table, set_obs, mine)
            if set_table[slot] != -1:
                s = set_table[slot]
            else:
                s = n_sets
                set_player = _grow_by_half(set_player, n_sets + 1)
                set_obs = _grow_by_half(set_obs, n_sets + 1)
                set_count = _grow_by_half(set_count, n_sets + 1)
                set_actions = _grow_by_half(set_actions, n_slots + m)
                set_table[slot] = s
                set_player[s] = cur
                set_obs[s] = mine
                set_count[s] = m
                for i in range(m):
                    set_actions[n_slots + i] = actions[i]
                n_slots += m
                n_sets += 1
                if 2 * n_sets > set_table.shape[0]:
                    set_table = _set_rehash(set_table, set_obs, n_sets)
            kind[node] = DECISION
            player[node] = cur
            infoset[node] = s
        if n_nodes + m > num_nodes:
            return -1, kind, player, infoset, first, count, prob, payoff, set_player, \
                set_obs, set_count, set_actions, trie_parent, trie_token, n_sets, n_slots, \
                n_trie[0], payoffs
        first[node] = n_nodes
        count[node] = m
        payoff[node] = 0.0
        stack = _grow_2d(stack, top + m)
        stack_meta = _grow_2d(stack_meta, top + m)
        actor = state[k.S_ACTOR]
        for j in range(m):
            i = m - 1 - j  # push in reverse so that child 0 is expanded first
            a = actions[i]
            child = n_nodes + i
            prob[child] = probs[i] if cur == k.CHANCE_PLAYER else 1.0
            scope = k.action_scope(state, rules, a)
            nxt = stack[top]
            nxt[:] = state
            k.apply_action(nxt, rules, a)
            for p in range(players):
                obs[p] = parent_obs[p]
            # Terminal nodes belong to no infoset: their observations are never needed
            # (this saves about a trie node per terminal, in time and memory).
            ends = nxt[k.S_PHASE] == k.PH_TERMINAL
            seen = nxt[k.S_SEEN_SCOPE]
            for event in range(2):  # the action's own token, then an identity seen
                if event == 0:
                    who = scope
                    if cur == k.CHANCE_PLAYER:
                        token = tok_fastest + (a - k.C_FASTEST)
                    else:
                        token = 1 + cur * na + a
                else:
                    who = seen
                    token = tok_seen + nxt[k.S_SEEN_POS] * k.NUM_CHARACTERS + nxt[k.S_SEEN_CHAR]
                if who == k.SCOPE_NONE or ends:
                    continue
                trie_parent = _grow_by_half(trie_parent, n_trie[0] + 2)
                trie_token = _grow_by_half(trie_token, n_trie[0] + 2)
                if 2 * (n_trie[0] + 2) > trie_table.shape[0]:
                    trie_table = _trie_rehash(trie_table, trie_parent, trie_token, n_trie[0],
                                              base)
                for p in range(players):
                    # SCOPE_TEAM: the actor and the partner opposite (team mode)
                    if who == k.SCOPE_ALL or p == actor or \
                            (who == k.SCOPE_TEAM and teams and p == (actor + 2) % 4):
                        obs[p] = _observe(trie_table, trie_parent, trie_token, n_trie,
                                          obs[p], token, base)
            stack_meta[top, 0] = child
            stack_meta[top, 1] = _mentioned_after(touched, cur, a, nxt, n_pos)
            for p in range(players):
                stack_meta[top, 2 + p] = obs[p]
            top += 1
        n_nodes += m
    return n_nodes, kind, player, infoset, first, count, prob, payoff, set_player, set_obs, \
        set_count, set_actions, trie_parent, trie_token, n_sets, n_slots, n_trie[0], payoffs


@jit
def _count_nodes(rules, max_nodes, symmetric):
    """Nodes of the game tree (a plain DFS over the core), or -1 past max_nodes."""
    stack = np.empty((4096, k.S_SIZE), dtype=np.int64)
    touched = np.empty(4096, dtype=np.int64)
    stack[0] = k.initial_state(rules)
    n_pos = rules[k.R_N]
    touched[0] = _initially_mentioned(stack[0], n_pos)
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    top = 1
    nodes = 0
    while top > 0:
        top -= 1
        state = stack[top].copy()
        mentioned = touched[top]
        nodes += 1
        if nodes > max_nodes:
            return -1
        cur = k.current_player(state)
        if cur == k.TERMINAL_PLAYER:
            continue
        m = _expand(state, rules, cur, symmetric, mentioned, actions, probs)
        stack = _grow_2d(stack, top + m)
        touched = _grow_i8(touched, top + m)
        for i in range(m):
            a = actions[i]
            stack[top] = state
            k.apply_action(stack[top], rules, a)
            touched[top] = _mentioned_after(mentioned, cur, a, stack[top], n_pos)
            top += 1
    return nodes


def count_nodes(variant: Variant, max_nodes: int = 10**12, symmetric: bool = False) -> int:
    """Size of the game tree without building it (millions of nodes a second);
    -1 if it has more than max_nodes nodes."""
    return int(_count_nodes(rules_array(variant), max_nodes,
                            symmetric and variant.layout is None))


class KeyBuilder:
    """Rebuilds information-state strings from the observation trie, on demand."""

    def __init__(self, variant: Variant, trie_parent, trie_token, set_obs, set_player):
        self._n = variant.num_positions
        self._na = num_distinct_actions(self._n)
        self._fastest, self._seen, _ = _token_layout(self._n)
        self._parent, self._token = trie_parent, trie_token
        self._obs, self._player = set_obs, set_player

    def trie_arrays(self) -> dict[str, np.ndarray]:
        """What a strategy file stores to rebuild the keys (far smaller than strings)."""
        return {"parent": self._parent, "token": self._token, "set_obs": self._obs,
                "set_player": self._player}

    def spill(self, folder) -> None:
        """Move the trie to .npy files in `folder`, read back memory-mapped: a solve does
        not touch it until the strategy file is written, so it need not stay resident
        (about 8 bytes a node)."""
        from pathlib import Path

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("_parent", "_token", "_obs", "_player"):
            path = folder / f"{name[1:]}.npy"
            np.save(path, getattr(self, name))
            setattr(self, name, np.load(path, mmap_mode="r"))

    @classmethod
    def from_arrays(cls, variant: Variant, arrays: dict[str, np.ndarray]) -> "KeyBuilder":
        return cls(variant, arrays["parent"], arrays["token"], arrays["set_obs"],
                   arrays["set_player"])

    def _text(self, token: int) -> str:
        if token >= self._seen:
            pos, card = divmod(token - self._seen, k.NUM_CHARACTERS)
            return f"{pos}={NAMES[card]}"
        if token >= self._fastest:
            return f"fastest {token - self._fastest}"
        mover, action = divmod(token - 1, self._na)
        return f"{mover}:{action_to_string(self._n, mover, action)}"

    def __call__(self, infoset: int) -> str:
        node = int(self._obs[infoset])
        tokens = []
        while self._parent[node] >= 0:
            tokens.append(self._text(int(self._token[node])))
            node = int(self._parent[node])
        return "; ".join([f"P{int(self._player[infoset])}", *reversed(tokens)])


def build_robinwood_tree(variant: Variant, max_nodes: int = 200_000_000,
                         symmetric: bool = False, num_nodes: int | None = None) -> FlatTree:
    """The whole game tree of a variant (two to four players, teams too), under the lazy
    deal. Trees of three or four players carry every player's payoff (`payoffs`).

    symmetric=True explores one representative per class of interchangeable positions
    (see `solver.exact.symmetry`): a smaller game with the same value, whose strategies lift
    to the full game with the same exploitability. Not available with a fixed layout,
    where positions hold known cards and are not interchangeable.
    `num_nodes` is the tree's size if already counted (`count_nodes`, same symmetry);
    otherwise it is counted first (a fraction of the build's time), so that the node
    arrays are allocated once at their final size.
    Raises TreeTooLarge (with the node count reached) above `max_nodes`.
    """
    if symmetric and variant.layout is not None:
        raise ValueError("position symmetry needs the random deal; drop the layout or "
                         "solve without symmetry")
    if symmetric and variant.players != 2:
        raise ValueError("position symmetry is implemented for two players; solve "
                         f"{variant} without it")
    rules = rules_array(variant)
    na = num_distinct_actions(variant.num_positions)
    fastest, seen, base = _token_layout(variant.num_positions)
    assert base < 2**15 and k.MAX_LEGAL < 128  # int16 tokens and action ids, int8 counts
    max_nodes = min(max_nodes, 2**31 - 1)  # int32 node indices
    if num_nodes is None:
        num_nodes = count_nodes(variant, max_nodes, symmetric)
    if num_nodes < 0 or num_nodes > max_nodes:
        raise TreeTooLarge(f"the game tree of {variant} has more than {max_nodes:,} nodes; "
                           f"lower max_turns or pick a smaller deck")
    (n, kind, player, infoset, first, count, prob, payoff, set_player, set_obs, set_count,
     set_actions, trie_parent, trie_token, n_sets, n_slots, n_trie, payoffs) = _build(
        rules, num_nodes, na, fastest, seen, base, symmetric)
    if n == -2:
        raise ValueError(f"{variant} has a payoff that is not exactly a float32")
    if n != num_nodes:
        raise ValueError(f"the tree of {variant} has a different size than counted "
                         f"({num_nodes:,}): is num_nodes from the same symmetry?")
    num_actions = set_count[:n_sets].copy()
    every_payoff = payoffs if variant.players > 2 else None
    if every_payoff is not None:
        payoff = every_payoff[0].copy()  # -1/3 (four players) is no float32
    tree = FlatTree(
        kind=kind, player=player, infoset=infoset, first_child=first, num_children=count,
        edge_prob=prob, payoff=payoff,
        infoset_player=set_player[:n_sets].copy(),
        infoset_offset=np.concatenate(([0], np.cumsum(num_actions, dtype=np.int64)[:-1]))
        .astype(np.int32),
        infoset_num_actions=num_actions,
        infoset_actions=set_actions[:n_slots].copy(),
        infoset_key=KeyBuilder(variant, trie_parent[:n_trie].copy(),
                                trie_token[:n_trie].copy(), set_obs[:n_sets].copy(),
                                set_player[:n_sets].copy()),
        description=str(variant) + (" (position-symmetric)" if symmetric else ""),
        payoffs=every_payoff,
    )
    tree.symmetric = symmetric
    return tree


@jit
def _index_table(keys_in, values_in):
    """Open-addressing table of keys_in -> values_in (keys non-negative, unique)."""
    size = 16
    while size < 2 * keys_in.shape[0] + 2:
        size *= 2
    keys = np.full(size, -1, dtype=np.int64)
    values = np.empty(size, dtype=np.int64)
    for i in range(keys_in.shape[0]):
        j = _table_find(keys, keys_in[i])
        keys[j] = keys_in[i]
        values[j] = values_in[i]
    return keys, values


@jit
def _walk(child_keys, child_values, set_keys, set_values, root, tokens, base):
    """Infoset reached from trie root `root` by `tokens`, or -1 if there is none."""
    node = root
    for t in tokens:
        j = _table_find(child_keys, node * base + t)
        if child_keys[j] == -1:
            return -1
        node = child_values[j]
    j = _table_find(set_keys, node)
    return set_values[j] if set_keys[j] != -1 else -1


class TrieIndex:
    """Information-state string -> infoset, by walking the stored observation trie.

    Lets a large stored strategy answer queries without building every key string.
    """

    def __init__(self, variant: Variant, arrays: dict[str, np.ndarray]):
        n = variant.num_positions
        self._players = variant.players
        self._na = num_distinct_actions(n)
        self._fastest, self._seen, self._base = _token_layout(n)
        names = {name: c for c, name in enumerate(NAMES)}
        self._actions = {action_to_string(n, 0, a): a for a in range(self._na)}
        self._names = names
        parent = arrays["parent"].astype(np.int64)
        token = arrays["token"].astype(np.int64)
        inner = np.flatnonzero(parent >= 0)
        self._child = _index_table(parent[inner] * self._base + token[inner], inner)
        sets = arrays["set_obs"].astype(np.int64)
        self._sets = _index_table(sets, np.arange(len(sets), dtype=np.int64))

    def _token(self, text: str) -> int:
        seat, colon, action = text.partition(":")
        if colon and seat.isdigit():
            return 1 + int(seat) * self._na + self._actions[action]
        if text.startswith("fastest "):
            return self._fastest + int(text[8:])
        pos, eq, name = text.partition("=")
        if eq:
            return self._seen + int(pos) * k.NUM_CHARACTERS + self._names[name]
        raise KeyError(text)

    def infoset(self, key: str) -> int:
        """The infoset index of `key`, or -1 if the tree has no such information state."""
        head, *tokens = key.split("; ")
        try:
            root = int(head[1:]) if head.startswith("P") else -1
            ints = np.array([self._token(t) for t in tokens], dtype=np.int64)
        except (KeyError, ValueError):
            return -1
        if not 0 <= root < self._players:
            return -1
        return int(_walk(self._child[0], self._child[1], self._sets[0], self._sets[1],
                         root, ints, self._base))
