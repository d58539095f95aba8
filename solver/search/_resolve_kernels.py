"""Depth-limited re-solving for two-player Robin Wood: numba kernels.

A decision is re-solved over its *public state*: every history whose public record
(what both seats see: RULES-MODEL "What each player observes") equals the real one's,
up to a decision of the same seat in the same phase. Each such history is a *root* of
the subgame, weighted by chance times both seats' blueprint probabilities of their
actions on it (each seat's *range*), and labelled by what each seat has observed (its
observation record, hashed: two roots share a seat's information set exactly when
their hashes for that seat are equal). The kernels here:

- `_expand_public`: the public states that follow a public state (all its roots'
  next decisions, grouped by public record, seat and phase), for enumerating the
  public tree of a small deck and for finding the roots of a state exactly;
- `_build_subgame`: the subgame over a weighted root set, to a turn horizon, as flat
  node arrays in the layout of solver.exact.tree (children contiguous, parents first).
  Its information sets are tries of observation tokens started at each root's class;
  at the horizon the seat that is not re-solving picks one of K continuation
  strategies at its information set (Brown, Sandholm and Amos 2018, multi-valued
  states); a safe variant adds the re-solving gadget (Burch, Johanson and Bowling
  2014): the opponent may take its blueprint value at the root instead of entering;
- `_leaf_values`: the value of a horizon state under the re-solving seat's blueprint
  against each continuation: by a full walk of the rest of the round while it stays
  under a node budget, by rollouts beyond it.

Players are read through solver.players.kernels.agent_probs only. Payoffs are player
0's, as in solver.exact.tree.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.typed import Dict

from game_def import kernels as k
from game_def.kernels import jit

from solver.mccfr import kernels as ab
from solver.players import kernels as ka

PUBLIC = 2          # the observer index of the public record (seats are 0 and 1)
TERMINAL, CHANCE, DECISION = 0, 1, 2    # node kinds, as solver.exact.tree

# information-set key flags (key = trie node * 4 + flag)
KEY_DECISION = 0    # a decision of the game
KEY_LEAF = 1        # the opponent's choice of continuation at the horizon
KEY_GADGET = 2      # the opponent's choice to enter the subgame or take its value

# layout of the token array (solver.exact.robinwood_tree's tokens)
L_ACTIONS = 0       # distinct player actions
L_FASTEST = 1       # first chance token
L_SEEN = 2          # first seen-identity token
L_BASE = 3          # tokens are below this

# a root's reach factors: chance, each seat's blueprint probabilities of its actions,
# and each seat's own: the strategy it actually played (the re-solver's where it has
# re-solved; the blueprint otherwise)
R_CHANCE = 0
R_BLUEPRINT = 1     # + seat
R_OWN = 3           # + seat
R_SIZE = 5

HASH_START = np.uint64(0x6A09E667F3BCC908)


@jit
def _grow_rows(a, need):
    if need <= a.shape[0]:
        return a
    out = np.empty((max(need, 2 * a.shape[0]),) + a.shape[1:], dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@jit
def _grow(a, need):
    if need <= a.shape[0]:
        return a
    out = np.empty(max(need, 2 * a.shape[0]), dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@jit
def _grow_nodes(kind, player, infoset, first, count, prob, payoff, need):
    """The subgame's node arrays with room for `need` nodes."""
    return (_grow(kind, need), _grow(player, need), _grow(infoset, need), _grow(first, need),
            _grow(count, need), _grow(prob, need), _grow(payoff, need))


@jit
def _step_tokens(before, action, after, rules, layout, observer, out):
    """Tokens `observer` (seat 0, seat 1 or PUBLIC) records of the step `before`
    --action--> `after`: the action if it sees it, then an identity it sees. Returns
    how many (0-2). The same tokens as the exact tree's observation trie."""
    if after[k.S_PHASE] == k.PH_TERMINAL:
        return 0
    cur = k.current_player(before)
    actor = before[k.S_ACTOR]
    n = 0
    scope = k.action_scope(before, rules, action)
    if scope == k.SCOPE_ALL or (scope == k.SCOPE_ACTOR and observer == actor):
        if cur == k.CHANCE_PLAYER:
            out[n] = layout[L_FASTEST] + (action - k.C_FASTEST)
        else:
            out[n] = 1 + cur * layout[L_ACTIONS] + action
        n += 1
    seen = after[k.S_SEEN_SCOPE]
    if seen == k.SCOPE_ALL or (seen == k.SCOPE_ACTOR and observer == actor):
        out[n] = layout[L_SEEN] + after[k.S_SEEN_POS] * k.NUM_CHARACTERS + after[k.S_SEEN_CHAR]
        n += 1
    return n


@jit
def _chain(h, toks, n):
    for i in range(n):
        h = ab.mix(h, toks[i])
    return h


@jit
def _public_key(h_public, state):
    """A public state's key: its public record's hash, the seat to move and the phase."""
    h = ab.mix(h_public, 1000 + k.current_player(state))
    return np.int64(ab.mix(h, 2000 + state[k.S_PHASE]) & np.uint64(0x7FFFFFFFFFFFFFFF))


# ===== public states ======================================================================
# A set of roots (histories at decisions): `state[i]`, `know[i]` (both seats' knowledge,
# solver.mccfr.kernels), `reach[i]` (R_*), `hashes[i]` (seat 0, seat 1, public: uint64
# record hashes), `node[i]` (the exact tree's node in lockstep, or -1).

@jit
def _expand_public(rules, layout, seats, eps, states, knows, reach, hashes, nodes, n,
                   first_child, tree_infoset, tree_offset, tree_strategy, own_strategy,
                   out_states, out_knows, out_reach, out_hashes, out_nodes, out_key):
    """Every decision that follows one step from roots [0, n) (each root's actions, then
    chance until a decision), with its reach (the seats' probabilities from `seats`,
    mixed with uniform at rate `eps`), record hashes and public key; terminals are
    dropped. `first_child`: the exact tree's, to follow its nodes in lockstep (empty: no
    tree); with it, a non-empty `tree_strategy` (per slot of the tree, its infosets'
    `tree_infoset` and `tree_offset`) gives the seats' blueprint probabilities instead
    of `seats`, and a non-empty `own_strategy` (tree slots) the probabilities of their
    own factors (else the blueprint's). Returns the outputs (grown as needed) and their count."""
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_LEGAL, dtype=np.float64)
    chance_a = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.int64)
    chance_p = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    toks = np.empty(2, dtype=np.int64)
    before = np.empty(k.S_SIZE, dtype=np.int64)
    lockstep = first_child.shape[0] > 0
    # a stack of pending (state, know, reach, hashes, node) below the roots' actions
    st = np.empty((64, k.S_SIZE), dtype=np.int64)
    kn = np.empty((64, knows.shape[1]), dtype=np.int64)
    rc = np.empty((64, R_SIZE), dtype=np.float64)
    hs = np.empty((64, 3), dtype=np.uint64)
    nd = np.empty(64, dtype=np.int64)
    count = 0
    for r in range(n):
        state = states[r]
        cur = k.current_player(state)
        m = k.legal_actions(state, rules, actions)
        if tree_strategy.shape[0] > 0:      # a strategy of the exact tree's slots
            off = tree_offset[tree_infoset[nodes[r]]]
            for i in range(m):
                probs[i] = tree_strategy[off + i]
        else:
            ka.seat_probs(seats, state, rules, knows[r], cur, actions, m, scratch, abst,
                          probs)
        for i in range(m):   # a range keeps every action's histories alive (eps > 0)
            probs[i] = (1.0 - eps) * probs[i] + eps / m
        own_off = -1
        if own_strategy.shape[0] > 0:
            own_off = tree_offset[tree_infoset[nodes[r]]]
        top = 0
        for i in range(m):
            st = _grow_rows(st, top + 1)
            kn = _grow_rows(kn, top + 1)
            rc = _grow_rows(rc, top + 1)
            hs = _grow_rows(hs, top + 1)
            nd = _grow(nd, top + 1)
            st[top] = state
            kn[top] = knows[r]
            k.apply_action(st[top], rules, actions[i])
            ab.observe(kn[top], state, actions[i], st[top], rules)
            rc[top] = reach[r]
            rc[top, R_BLUEPRINT + cur] *= probs[i]
            if own_off >= 0:
                rc[top, R_OWN + cur] *= (1.0 - eps) * own_strategy[own_off + i] + eps / m
            else:
                rc[top, R_OWN + cur] *= probs[i]
            for o in range(3):
                t = _step_tokens(state, actions[i], st[top], rules, layout, o, toks)
                hs[top, o] = _chain(hashes[r, o], toks, t)
            nd[top] = first_child[nodes[r]] + i if lockstep else -1
            top += 1
        while top > 0:
            top -= 1
            s = st[top].copy()
            kw = kn[top].copy()
            rr = rc[top].copy()
            hh = hs[top].copy()
            node = nd[top]
            c = k.current_player(s)
            if c == k.TERMINAL_PLAYER:
                continue
            if c != k.CHANCE_PLAYER:
                out_states = _grow_rows(out_states, count + 1)
                out_knows = _grow_rows(out_knows, count + 1)
                out_reach = _grow_rows(out_reach, count + 1)
                out_hashes = _grow_rows(out_hashes, count + 1)
                out_nodes = _grow(out_nodes, count + 1)
                out_key = _grow(out_key, count + 1)
                out_states[count] = s
                out_knows[count] = kw
                out_reach[count] = rr
                out_hashes[count] = hh
                out_nodes[count] = node
                out_key[count] = _public_key(hh[PUBLIC], s)
                count += 1
                continue
            mc = k.chance_outcomes(s, rules, chance_a, chance_p)
            for j in range(mc):
                st = _grow_rows(st, top + 1)
                kn = _grow_rows(kn, top + 1)
                rc = _grow_rows(rc, top + 1)
                hs = _grow_rows(hs, top + 1)
                nd = _grow(nd, top + 1)
                before[:] = s
                st[top] = s
                kn[top] = kw
                k.apply_action(st[top], rules, chance_a[j])
                ab.observe(kn[top], before, chance_a[j], st[top], rules)
                rc[top] = rr
                rc[top, R_CHANCE] *= chance_p[j]
                for o in range(3):
                    t = _step_tokens(before, chance_a[j], st[top], rules, layout, o, toks)
                    hs[top, o] = _chain(hh[o], toks, t)
                nd[top] = first_child[node] + j if lockstep else -1
                top += 1
    return out_states, out_knows, out_reach, out_hashes, out_nodes, out_key, count


# ===== the subgame ========================================================================
# Output node arrays (grown as needed): kind, player, infoset, first child, children,
# edge probability, payoff (player 0's); information sets: player, action count, key,
# actions (slots); leaves: the horizon states and knowledge, the node whose children (or
# which, with one continuation) take their values, and the exact tree's node.
@jit
def _trie_step(trie, n_trie, node, token, base):
    key = node * base + token
    child = trie.get(key, -1)
    if child < 0:
        child = n_trie[0]
        trie[key] = child
        n_trie[0] += 1
    return child


@jit
def _infoset_of(sets, key, player, m, actions, set_player, set_count, set_key, set_actions,
                n_sets, n_slots):
    """The information set of `key` (created with actions[:m] if new); returns its index
    and the (grown) arrays and counts."""
    s = sets.get(key, -1)
    if s >= 0:
        return s, set_player, set_count, set_key, set_actions, n_sets, n_slots
    s = n_sets
    sets[key] = s
    set_player = _grow(set_player, s + 1)
    set_count = _grow(set_count, s + 1)
    set_key = _grow(set_key, s + 1)
    set_actions = _grow(set_actions, n_slots + m)
    set_player[s] = player
    set_count[s] = m
    set_key[s] = key
    for i in range(m):
        set_actions[n_slots + i] = actions[i]
    return s, set_player, set_count, set_key, set_actions, n_sets + 1, n_slots + m


@jit
def _build_subgame(rules, layout, me, states, knows, classes, weights, nodes, n_roots,
                   horizon_turn, max_depth, continuations, gadget, gadget_weight, gadget_value,
                   first_child, max_nodes):
    """The subgame over roots [0, n_roots) (`classes[i]`: root i's information-set class
    for seat 0 and seat 1, dense ids shared by the two seats' ranges; `weights[i]`: its
    probability, chance times both ranges), cut where a turn ends at `horizon_turn`
    (state S_TURN reaching it) or after `max_depth` player decisions below a root. At a
    cut the seat `1 - me` picks one of `continuations`
    values (a decision keyed by its information set; one continuation: a terminal).

    gadget: 0, the root is chance over the roots by weight (unsafe re-solving); 1, the
    root is chance over the opponent's classes c by `gadget_weight[c]` (chance times
    `me`'s range), then the opponent enters (action 0: chance over the class's roots by
    `weights`, which then hold chance times `me`'s range) or takes `gadget_value[c]`
    (player 0's payoff) and the subgame ends.

    Returns the node arrays, the information sets, the leaves and their counts; a node
    count of -1 if the subgame passed `max_nodes`."""
    opp = 1 - me
    base = layout[L_BASE]
    n_cls = 0
    for i in range(n_roots):
        n_cls = max(n_cls, classes[i, 0] + 1, classes[i, 1] + 1)
    cap = 1024
    kind = np.empty(cap, dtype=np.int8)
    player = np.empty(cap, dtype=np.int8)
    infoset = np.empty(cap, dtype=np.int32)
    first = np.empty(cap, dtype=np.int64)
    count = np.empty(cap, dtype=np.int32)
    prob = np.empty(cap, dtype=np.float64)
    payoff = np.empty(cap, dtype=np.float64)
    set_player = np.empty(64, dtype=np.int8)
    set_count = np.empty(64, dtype=np.int32)
    set_key = np.empty(64, dtype=np.int64)
    set_actions = np.empty(256, dtype=np.int64)
    leaf_state = np.empty((16, k.S_SIZE), dtype=np.int64)
    leaf_know = np.empty((16, knows.shape[1]), dtype=np.int64)
    leaf_first = np.empty(16, dtype=np.int64)
    leaf_tree = np.empty(16, dtype=np.int64)
    trie = Dict.empty(key_type=types.int64, value_type=types.int64)
    sets = Dict.empty(key_type=types.int64, value_type=types.int64)
    n_trie = np.zeros(1, dtype=np.int64)
    n_trie[0] = n_cls       # trie roots: the classes
    n_sets = 0
    n_slots = 0
    n_leaves = 0
    actions = np.empty(max(k.MAX_LEGAL, continuations, 2), dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    toks = np.empty(2, dtype=np.int64)
    ret = np.zeros(k.MAX_PLAYERS, dtype=np.float64)
    lockstep = first_child.shape[0] > 0

    # the stack of nodes to expand: node id, root index, trie node of seat 0 and 1, tree node
    st = np.empty((256, k.S_SIZE), dtype=np.int64)
    kn = np.empty((256, knows.shape[1]), dtype=np.int64)
    meta = np.empty((256, 5), dtype=np.int64)
    top = 0
    n_nodes = 1
    prob[0] = 1.0
    kind[0] = CHANCE
    player[0] = -1
    infoset[0] = -1
    payoff[0] = 0.0
    # ----- the root: chance over roots, or the gadget -----
    if gadget == 0:
        total = 0.0
        for i in range(n_roots):
            total += weights[i]
        first[0] = 1
        count[0] = n_roots
        n_nodes = 1 + n_roots
        kind, player, infoset, first, count, prob, payoff = _grow_nodes(
            kind, player, infoset, first, count, prob, payoff, n_nodes)
        st = _grow_rows(st, n_roots)
        kn = _grow_rows(kn, n_roots)
        meta = _grow_rows(meta, n_roots)
        for i in range(n_roots):
            prob[1 + i] = weights[i] / total
            st[top] = states[i]
            kn[top] = knows[i]
            meta[top, 0] = 1 + i
            meta[top, 1] = classes[i, 0]
            meta[top, 2] = classes[i, 1]
            meta[top, 3] = nodes[i]
            meta[top, 4] = 0
            top += 1
    else:
        # chance over the opponent's classes that hold a root
        members = np.zeros(n_cls, dtype=np.int64)
        for i in range(n_roots):
            members[classes[i, opp]] += 1
        n_opp = 0
        total = 0.0
        for c in range(n_cls):
            if members[c] > 0:
                n_opp += 1
                total += gadget_weight[c]
        first[0] = 1
        count[0] = n_opp
        need = 1 + 3 * n_opp + n_roots
        kind, player, infoset, first, count, prob, payoff = _grow_nodes(
            kind, player, infoset, first, count, prob, payoff, need)
        st = _grow_rows(st, n_roots)
        kn = _grow_rows(kn, n_roots)
        meta = _grow_rows(meta, n_roots)
        choice = 1
        n_nodes = 1 + n_opp
        for c in range(n_cls):
            if members[c] == 0:
                continue
            g = choice
            choice += 1
            prob[g] = gadget_weight[c] / total
            actions[0] = 0
            actions[1] = 1
            s, set_player, set_count, set_key, set_actions, n_sets, n_slots = _infoset_of(
                sets, c * 4 + KEY_GADGET, opp, 2, actions, set_player, set_count, set_key,
                set_actions, n_sets, n_slots)
            kind[g] = DECISION
            player[g] = opp
            infoset[g] = s
            first[g] = n_nodes
            count[g] = 2
            payoff[g] = 0.0
            enter = n_nodes
            take = n_nodes + 1
            n_nodes += 2
            prob[enter] = 1.0
            prob[take] = 1.0
            kind[take] = TERMINAL
            player[take] = -1
            infoset[take] = -1
            first[take] = 0
            count[take] = 0
            payoff[take] = gadget_value[c]
            kind[enter] = CHANCE
            player[enter] = -1
            infoset[enter] = -1
            payoff[enter] = 0.0
            first[enter] = n_nodes
            count[enter] = members[c]
            inside = 0.0
            for i in range(n_roots):
                if classes[i, opp] == c:
                    inside += weights[i]
            for i in range(n_roots):
                if classes[i, opp] != c:
                    continue
                prob[n_nodes] = weights[i] / inside if inside > 0 else 1.0 / members[c]
                st[top] = states[i]
                kn[top] = knows[i]
                meta[top, 0] = n_nodes
                meta[top, 1] = classes[i, 0]
                meta[top, 2] = classes[i, 1]
                meta[top, 3] = nodes[i]
                meta[top, 4] = 0
                top += 1
                n_nodes += 1

    # ----- the game below the roots -----
    while top > 0:
        top -= 1
        state = st[top].copy()
        know = kn[top].copy()
        node = meta[top, 0]
        t0 = meta[top, 1]
        t1 = meta[top, 2]
        tnode = meta[top, 3]
        depth = meta[top, 4]
        cur = k.current_player(state)
        payoff[node] = 0.0
        if cur == k.TERMINAL_PLAYER:
            kind[node] = TERMINAL
            player[node] = -1
            infoset[node] = -1
            first[node] = 0
            count[node] = 0
            k.returns(state, rules, ret)
            payoff[node] = ret[0]
            continue
        if state[k.S_TURN] >= horizon_turn or (depth >= max_depth and
                                                 cur != k.CHANCE_PLAYER):
            leaf_state = _grow_rows(leaf_state, n_leaves + 1)
            leaf_know = _grow_rows(leaf_know, n_leaves + 1)
            leaf_first = _grow(leaf_first, n_leaves + 1)
            leaf_tree = _grow(leaf_tree, n_leaves + 1)
            leaf_state[n_leaves] = state
            leaf_know[n_leaves] = know
            leaf_tree[n_leaves] = tnode
            if continuations == 1:
                kind[node] = TERMINAL
                player[node] = -1
                infoset[node] = -1
                first[node] = 0
                count[node] = 0
                leaf_first[n_leaves] = node
            else:
                for i in range(continuations):
                    actions[i] = i
                own = t1 if opp == 1 else t0
                s, set_player, set_count, set_key, set_actions, n_sets, n_slots = \
                    _infoset_of(sets, own * 4 + KEY_LEAF, opp, continuations, actions,
                                set_player, set_count, set_key, set_actions, n_sets, n_slots)
                need = n_nodes + continuations
                kind, player, infoset, first, count, prob, payoff = _grow_nodes(
                    kind, player, infoset, first, count, prob, payoff, need)
                kind[node] = DECISION
                player[node] = opp
                infoset[node] = s
                first[node] = n_nodes
                count[node] = continuations
                for i in range(continuations):
                    c = n_nodes + i
                    kind[c] = TERMINAL
                    player[c] = -1
                    infoset[c] = -1
                    first[c] = 0
                    count[c] = 0
                    prob[c] = 1.0
                    payoff[c] = 0.0
                leaf_first[n_leaves] = n_nodes
                n_nodes += continuations
            n_leaves += 1
            continue
        if cur == k.CHANCE_PLAYER:
            m = k.chance_outcomes(state, rules, actions, probs)
            kind[node] = CHANCE
            player[node] = -1
            infoset[node] = -1
        else:
            m = k.legal_actions(state, rules, actions)
            own = t0 if cur == 0 else t1
            s, set_player, set_count, set_key, set_actions, n_sets, n_slots = _infoset_of(
                sets, own * 4 + KEY_DECISION, cur, m, actions, set_player, set_count,
                set_key, set_actions, n_sets, n_slots)
            kind[node] = DECISION
            player[node] = cur
            infoset[node] = s
        need = n_nodes + m
        if need > max_nodes:
            return -1, kind, player, infoset, first, count, prob, payoff, set_player, \
                set_count, set_key, set_actions, n_sets, n_slots, leaf_state, leaf_know, \
                leaf_first, leaf_tree, n_leaves
        kind, player, infoset, first, count, prob, payoff = _grow_nodes(
            kind, player, infoset, first, count, prob, payoff, need)
        first[node] = n_nodes
        count[node] = m
        st = _grow_rows(st, top + m)
        kn = _grow_rows(kn, top + m)
        meta = _grow_rows(meta, top + m)
        for j in range(m):
            i = m - 1 - j       # pushed in reverse: child 0 is expanded first
            child = n_nodes + i
            prob[child] = probs[i] if cur == k.CHANCE_PLAYER else 1.0
            nxt = st[top]
            nxt[:] = state
            k.apply_action(nxt, rules, actions[i])
            kn[top] = know
            ab.observe(kn[top], state, actions[i], nxt, rules)
            o0 = t0
            o1 = t1
            t = _step_tokens(state, actions[i], nxt, rules, layout, 0, toks)
            for e in range(t):
                o0 = _trie_step(trie, n_trie, o0, toks[e], base)
            t = _step_tokens(state, actions[i], nxt, rules, layout, 1, toks)
            for e in range(t):
                o1 = _trie_step(trie, n_trie, o1, toks[e], base)
            meta[top, 0] = child
            meta[top, 1] = o0
            meta[top, 2] = o1
            meta[top, 3] = first_child[tnode] + i if lockstep else -1
            meta[top, 4] = depth + (0 if cur == k.CHANCE_PLAYER else 1)
            top += 1
        n_nodes += m
    return n_nodes, kind, player, infoset, first, count, prob, payoff, set_player, \
        set_count, set_key, set_actions, n_sets, n_slots, leaf_state, leaf_know, \
        leaf_first, leaf_tree, n_leaves


# ===== values of horizon states ===========================================================
@jit
def _typed(model, params):
    """`model` (a Player) with the parameters `params` (a continuation: solver.players
    P_TILT_*)."""
    return ka.Player(model.kind, params, model.slots, model.keys, model.offset, model.nact,
                     model.probs, model.visits, model.locks)


@jit
def _walk_values(rules, state0, know0, me, cont, model, types, budget, out):
    """Player 0's expected payoff from `state0` with `me` playing `cont` and the other
    seat playing `model` under each row of `types`, into out[:K], by a full walk of the
    rest of the round (path probabilities per continuation). Returns the nodes visited,
    or -1 once past `budget` (out is then unfinished)."""
    n_types = types.shape[0]
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_LEGAL, dtype=np.float64)
    tprobs = np.empty((n_types, k.MAX_LEGAL), dtype=np.float64)
    chance_p = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    ret = np.zeros(k.MAX_PLAYERS, dtype=np.float64)
    st = np.empty((64, k.S_SIZE), dtype=np.int64)
    kn = np.empty((64, know0.shape[0]), dtype=np.int64)
    pp = np.empty((64, n_types), dtype=np.float64)
    st[0] = state0
    kn[0] = know0
    pp[0, :] = 1.0
    top = 1
    visited = 0
    for t in range(n_types):
        out[t] = 0.0
    while top > 0:
        top -= 1
        visited += 1
        if visited > budget:
            return -1
        state = st[top].copy()
        know = kn[top].copy()
        path = pp[top].copy()
        cur = k.current_player(state)
        if cur == k.TERMINAL_PLAYER:
            k.returns(state, rules, ret)
            for t in range(n_types):
                out[t] += path[t] * ret[0]
            continue
        if cur == k.CHANCE_PLAYER:
            m = k.chance_outcomes(state, rules, legal, chance_p)
            for i in range(m):
                tprobs[0, i] = chance_p[i]
        else:
            m = k.legal_actions(state, rules, legal)
            if cur == me:
                ka.agent_probs(cont, state, rules, know, cur, legal, m, scratch, abst, probs)
            else:
                for t in range(n_types):
                    ka.agent_probs(_typed(model, types[t]), state, rules, know, cur, legal,
                                   m, scratch, abst, probs)
                    for i in range(m):
                        tprobs[t, i] = probs[i]
        st = _grow_rows(st, top + m)
        kn = _grow_rows(kn, top + m)
        pp = _grow_rows(pp, top + m)
        for i in range(m):
            alive = False
            for t in range(n_types):
                if cur == k.CHANCE_PLAYER:
                    q = tprobs[0, i]
                elif cur == me:
                    q = probs[i]
                else:
                    q = tprobs[t, i]
                pp[top, t] = path[t] * q
                alive = alive or pp[top, t] > 0.0
            if not alive:
                continue
            st[top] = state
            k.apply_action(st[top], rules, legal[i])
            kn[top] = know
            ab.observe(kn[top], state, legal[i], st[top], rules)
            top += 1
    return visited


@jit
def _rollout_values(rules, state0, know0, me, cont, model, types, rollouts, rng, out):
    """out[:K] as _walk_values, by `rollouts` sampled rounds per continuation (common
    random numbers across continuations: each rollout's stream restarts from the same
    seed for every row)."""
    n_types = types.shape[0]
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_LEGAL, dtype=np.float64)
    chance_p = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    ret = np.zeros(k.MAX_PLAYERS, dtype=np.float64)
    state = np.empty(k.S_SIZE, dtype=np.int64)
    before = np.empty(k.S_SIZE, dtype=np.int64)
    know = np.empty(know0.shape[0], dtype=np.int64)
    stream = np.zeros(1, dtype=np.uint64)
    for t in range(n_types):
        out[t] = 0.0
    for r in range(rollouts):
        seed = ab.next_u64(rng)
        for t in range(n_types):
            stream[0] = seed
            opp = _typed(model, types[t])
            state[:] = state0
            know[:] = know0
            while state[k.S_PHASE] != k.PH_TERMINAL:
                cur = k.current_player(state)
                if cur == k.CHANCE_PLAYER:
                    m = k.chance_outcomes(state, rules, legal, chance_p)
                    a = ka.draw_at(legal, chance_p, m, ab.uniform(stream))
                else:
                    m = k.legal_actions(state, rules, legal)
                    if cur == me:
                        ka.agent_probs(cont, state, rules, know, cur, legal, m, scratch,
                                       abst, probs)
                    else:
                        ka.agent_probs(opp, state, rules, know, cur, legal, m, scratch,
                                       abst, probs)
                    a = ka.draw_at(legal, probs, m, ab.uniform(stream))
                before[:] = state
                k.apply_action(state, rules, a)
                ab.observe(know, before, a, state, rules)
            k.returns(state, rules, ret)
            out[t] += ret[0]
    for t in range(n_types):
        out[t] /= rollouts


@jit
def _leaf_values(rules, states, knows, n, me, cont, model, types, budget, rollouts, seed,
                 out):
    """out[i, :K]: the values of states [0, n) (_walk_values while under `budget` nodes,
    else _rollout_values; budget 0: rollouts only). Returns how many were walked."""
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    walked = 0
    for i in range(n):
        done = -1
        if budget > 0:
            done = _walk_values(rules, states[i], knows[i], me, cont, model, types, budget,
                                out[i])
        if done >= 0:
            walked += 1
        else:
            _rollout_values(rules, states[i], knows[i], me, cont, model, types, rollouts,
                            rng, out[i])
    return walked
