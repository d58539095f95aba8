"""Monte Carlo CFR's traversal: one sampled walk of a round for one seat, its probes and
regret updates, and the loops that run a batch's traversals (numba kernels;
docs/mccfr.md).

Tables: one per seat, passed as a tuple `tables` indexed by seat, two, three or four
(docs/nplayer.md, "Monte Carlo CFR"). Payoffs are the core's (`_payoff`): beyond two
seats the winner gets 1 and every other seat -1/(N-1); partners share their team's
payoff.

The traversal ("probe-sampled external sampling"): chance and every other seat are
sampled; at a traverser decision every action gets a value estimate and a regret
update. While the product of the branchings expanded above stays within
`CFG_MAX_BRANCHING`, every action is expanded recursively (external sampling);
beyond, one action is followed (drawn from the current policy mixed with
`CFG_EXPLORATION` uniform) and every other action is valued by one *probe*: a single
playout where every seat plays its current policy, the traverser its own table's and
the other seats their snapshots' (Gibson et al. 2012, "Generalized sampling and
variance in counterfactual regret minimization"). Traverser moves are never
importance-weighted: a visit's updates count 1 whatever led there (the weights that
compound along a path are what swamped earlier runs; docs/mccfr.md discusses the bias
this accepts). Actions whose regret is below `CFG_PRUNE_BELOW` and that every level
plays with probability 0 are skipped with probability `CFG_PRUNE_PROBABILITY`
(regret-based pruning, as in Pluribus). With CFG_SHARED_WORLD a traversal deals the
hidden cards at its start (`_deal_world`), so all its action values face one world.

A traversal for seat i gives its average-strategy sums to the next seat's decisions
only, (i + 1) mod N, as OpenSpiel's external sampling does beyond two players; with two
seats that is the opponent's every decision (exploiters, CFG_OWN_AVERAGE: to the
traverser's own decisions instead, weighted by its reach). Decisions a lock selects
(_locked), sure wins (solver.knowledge) and the seats a league opponent plays
(_league_play) are played, never learned; a forbid lock takes actions out of a
restricted seat's decisions first (_restricted), so its table learns over the rest. Writes go to a chunk's overlay or, for
`_run_worker`, to the tables themselves (_chunks); policies come from _policies.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from solver.knowledge.kernels import sure_win as _sure_win
from solver.mccfr import _abstraction as ab
from solver.mccfr._chunks import _crowded, _mine, _no_chunk, _their_sum
from solver.mccfr._league_play import _league_move, _league_seat
from solver.mccfr._locked import _locked, _restricted
from solver.mccfr._policies import Letters, _opponent_policy, _own_policy
from solver.mccfr._random import _below, _pick, _uniform
from solver.mccfr._settings import (
    CFG_COARSE_LETTERS, CFG_EXPLORATION, CFG_FINE_CLASSES, CFG_FINE_VISITS,
    CFG_LEAGUE_SHARE, CFG_MAX_BRANCHING, CFG_OWN_AVERAGE, CFG_PRUNE_BELOW,
    CFG_PRUNE_PROBABILITY, CFG_SHARED_WORLD, CFG_SURE_WINS,
)
from solver.mccfr._table import M_DEEP, M_PROBES, M_PRUNED

MAX_DEPTH = 2048


@jit
def _payoff(state, rules, seat):
    """`seat`'s payoff at a terminal state (the core's returns: docs/rules.md,
    "Payoffs"): a win 1; a loss -1, or -1/(N-1) beyond two seats; a draw 0; a team's
    two seats get the same."""
    w = state[k.S_WINNER]
    if w < 0:
        return 0.0
    if rules[k.R_TEAMS]:
        return 1.0 if w % 2 == seat % 2 else -1.0
    if w == seat:
        return 1.0
    return -1.0 / (rules[k.R_PLAYERS] - 1)


@jit
def _concrete(abstract_of, m, j, rng):
    """A legal index whose abstract action is j, uniformly among them."""
    count = 0
    for i in range(m):
        if abstract_of[i] == j:
            count += 1
    r = _below(rng, count)
    for i in range(m):
        if abstract_of[i] == j:
            if r == 0:
                return i
            r -= 1
    return -1


@jit
def _sample_chance(state, rules, legal, chance_p, rng):
    c = k.chance_outcomes(state, rules, legal, chance_p)
    return legal[_pick(chance_p, c, rng)]


Workspace = namedtuple("Workspace", ["states", "knows", "legal", "abst", "sig", "sig_c",
                                     "sig_f", "vals", "frames", "reach", "scratch",
                                     "probe_state", "probe_know", "probe_before",
                                     "letter_of", "size", "letter_buf", "world",
                                     "deal_buf"])


@jit
def _workspace():
    """Per-depth buffers of one worker's traversals."""
    return Workspace(np.empty((MAX_DEPTH, k.S_SIZE), dtype=np.int64),
                     np.empty((MAX_DEPTH, ab.K_SIZE), dtype=np.int64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.int64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.int64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.float64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.float64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.float64),
                     np.empty((MAX_DEPTH, k.MAX_LEGAL), dtype=np.float64),
                     np.zeros((MAX_DEPTH, F_SIZE), dtype=np.int64),
                     np.ones(MAX_DEPTH, dtype=np.float64),
                     np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64),
                     np.empty(k.S_SIZE, dtype=np.int64),
                     np.empty(ab.K_SIZE, dtype=np.int64),
                     np.empty(k.S_SIZE, dtype=np.int64),
                     np.zeros((MAX_DEPTH, k.MAX_LEGAL), dtype=np.int64),
                     np.ones((MAX_DEPTH, k.MAX_LEGAL), dtype=np.int64),
                     np.empty(2 * ab.MAX_ABSTRACT, dtype=np.float64),
                     np.empty(k.S_SIZE, dtype=np.int64),
                     np.empty(2 * k.MAX_POSITIONS, dtype=np.int64))


@jit
def _keys(ws, d, cfg, state, rules, know, cur, legal, m, abst):
    """The decision's keys (fine, coarse, abstract actions) and its Letters, whose
    per-action rows are kept at depth d (the update on the way back reads them)."""
    fk, ck, n, width = ab._decision_keys(state, rules, know, cur, legal, m, ws.scratch,
                                         abst, cfg[CFG_COARSE_LETTERS] > 0,
                                         cfg[CFG_FINE_CLASSES] > 0)
    for j in range(n):
        ws.letter_of[d, j] = ws.scratch[5, j]
        ws.size[d, j] = ws.scratch[6, j]
    return fk, ck, n, Letters(width, ws.letter_of[d], ws.size[d], ws.letter_buf)


@jit
def _child(ws, d, rules, action):
    ws.states[d + 1, :] = ws.states[d]
    k.apply_action(ws.states[d + 1], rules, action)
    ws.knows[d + 1, :] = ws.knows[d]
    ab._observe(ws.knows[d + 1], ws.states[d], action, ws.states[d + 1], rules)


# per-depth bookkeeping of the iterative traversal (F_* columns of ws.frames)
F_KIND = 0        # PASS_UP, EXPAND or PROBE
F_NEXT = 1        # next abstract action to expand (EXPAND)
F_ACTIONS = 2     # number of abstract actions
F_LEGAL = 3       # number of legal actions
F_FINE = 4        # fine entry, -1 if none
F_COARSE = 5      # coarse entry, -1 if none
F_CHOSEN = 6      # the action followed (PROBE)
F_BRANCH = 7      # product of the traverser's expanded branchings above this depth
F_WIDTH = 8       # number of coarse actions (letters, or the abstract actions)
F_SIZE = 9
PASS_UP = 0       # chance, another seat, a move played by rule: the value passes up unchanged
EXPAND = 1        # traverser, every action expanded
PROBE = 2         # traverser, one action followed, the others probed


@jit
def _deal_world(world, state, rules, buf, rng):
    """world := state with every card nobody has drawn yet dealt now: the undealt pool
    (S_POOL) shuffled uniformly onto the undealt positions. That is the distribution
    the lazy deal draws from one card at a time (positions are exchangeable), so a
    playout from `world` has the law of one from `state`; the values of actions
    estimated from one world face the same hidden cards, so their differences (the
    regrets) carry less noise.
    Returns the number of cards dealt (-1, world untouched, if pool and positions
    disagree)."""
    world[:] = state
    n = rules[k.R_N]
    free = 0
    for p in range(n):
        if world[k.S_CARD + p] == k.UNDEALT:
            buf[free] = p
            free += 1
    cards = 0
    for c in range(k.NUM_CHARACTERS):
        for _ in range(world[k.S_POOL + c]):
            if cards < free:
                buf[k.MAX_POSITIONS + cards] = c
            cards += 1
    if cards != free:
        return -1
    for i in range(free - 1, 0, -1):   # Fisher-Yates
        j = _below(rng, i + 1)
        t = buf[k.MAX_POSITIONS + i]
        buf[k.MAX_POSITIONS + i] = buf[k.MAX_POSITIONS + j]
        buf[k.MAX_POSITIONS + j] = t
    for i in range(free):
        c = buf[k.MAX_POSITIONS + i]
        world[k.S_CARD + buf[i]] = c
        world[k.S_POOL + c] -= 1
    return free


@jit
def _probe(seat, tables, cfg, rules, rng, ws, d, action, league, foe, chunk, direct,
           locks):
    """One playout after `action` at depth d, every seat on its current policy: `seat`
    on its own table as the chunk sees it (`_peek`), every other seat on its table's
    snapshot, or league player `foe` for the seats it plays when foe >= 0
    (`_league_seat`); no inserts. Returns its payoff for `seat` and counts its nodes in
    ws.frames."""
    own = tables[seat]
    mine = _mine(own, chunk, direct)
    state = ws.probe_state
    know = ws.probe_know
    before = ws.probe_before
    state[:] = ws.states[d]
    know[:] = ws.knows[d]
    k.apply_action(state, rules, action)
    ab._observe(know, ws.states[d], action, state, rules)
    legal = ws.legal[MAX_DEPTH - 1]
    abst = ws.abst[MAX_DEPTH - 1]
    sig = ws.sig[MAX_DEPTH - 1]
    sig_c = ws.sig_c[MAX_DEPTH - 1]
    sig_f = ws.sig_f[MAX_DEPTH - 1]
    nodes = 1
    while state[k.S_PHASE] != k.PH_TERMINAL:
        nodes += 1
        if nodes > MAX_DEPTH:
            mine.meta[M_DEEP] += 1
            break
        cur = k.current_player(state)
        if cur == k.CHANCE_PLAYER:
            a = _sample_chance(state, rules, legal, sig, rng)
        else:
            m = _restricted(locks, state, rules, cur, legal,
                             k.legal_actions(state, rules, legal))
            w = _sure_win(state, rules, know, cur, legal, m) if cfg[CFG_SURE_WINS] > 0 else -1
            if _locked(locks, state, rules, know, cur, legal, m, sig):
                a = legal[_pick(sig, m, rng)]
            elif w >= 0:
                a = legal[w]
            elif foe >= 0 and _league_seat(rules, cur, seat):
                a = legal[_league_move(league, foe, state, rules, know, cur, legal, m, sig,
                                       rng)]
            else:
                fk, ck, n, letters = _keys(ws, MAX_DEPTH - 1, cfg, state, rules, know,
                                           cur, legal, m, abst)
                if cur == seat:
                    _own_policy(own, chunk, direct, cfg, fk, ck, n, letters, False, sig,
                                sig_c, sig_f)
                else:
                    _opponent_policy(tables[cur], cfg, fk, ck, n, letters, sig, sig_c,
                                     sig_f, mine.meta)
                j = _pick(sig, n, rng)
                a = legal[_concrete(abst, m, j, rng)]
        before[:] = state
        k.apply_action(state, rules, a)
        ab._observe(know, before, a, state, rules)
    mine.meta[M_PROBES] += 1
    ws.frames[MAX_DEPTH - 1, 0] += nodes
    return _payoff(state, rules, seat)


@jit
def _prunable(cfg, regret, off, slot, j, sig, sig_c, sig_f, rng):
    """Skip abstract action j (whose regret is regret[off + slot]) this time? Only
    actions every level plays with probability 0."""
    if regret[off + slot] >= cfg[CFG_PRUNE_BELOW]:
        return False
    if sig[j] > 0 or sig_c[j] > 0 or sig_f[j] > 0:
        return False
    return _uniform(rng) < cfg[CFG_PRUNE_PROBABILITY]


@jit
def _update(table, e, n, vals, level_sig):
    """Regrets of entry e from the action values (NaN: pruned, no update)."""
    if e < 0:
        return
    value = 0.0
    for j in range(n):
        if not np.isnan(vals[j]):
            value += level_sig[j] * vals[j]
    off = table.offset[e]
    for j in range(n):
        if not np.isnan(vals[j]):
            table.regret[off + j] += vals[j] - value
    table.visits[e] += 1


@jit
def _update_letters(table, e, n, vals, level_sig, letters):
    """Regrets of coarse entry e, per letter: a letter's value is the mean of its
    abstract actions' values weighted by their numbers of legal actions (how the
    letter's probability is spread); letters absent or pruned get no update."""
    if e < 0:
        return
    value = 0.0
    for j in range(n):
        if not np.isnan(vals[j]):
            value += level_sig[j] * vals[j]
    acc = letters.buf
    weight = letters.buf[ab.MAX_ABSTRACT:]
    for ell in range(letters.width):
        acc[ell] = 0.0
        weight[ell] = 0.0
    for j in range(n):
        if not np.isnan(vals[j]):
            ell = letters.letter_of[j]
            acc[ell] += letters.size[j] * vals[j]
            weight[ell] += letters.size[j]
    off = table.offset[e]
    for ell in range(letters.width):
        if weight[ell] > 0:
            table.regret[off + ell] += acc[ell] / weight[ell] - value
    table.visits[e] += 1


@jit
def _traverse(seat, tables, cfg, rules, rng, ws, league, foe, chunk, direct, locks):
    """One traversal for `seat` from ws.states[0]/ws.knows[0] (the module docstring
    says how it samples), against the other seats' tables, or against league player
    `foe` (an index into `league`) when foe >= 0. Iterative (an explicit stack of depths).
    Writes go to the tables themselves when `direct` (one worker per seat), else to
    `chunk` (merged after the batch). Returns the number of nodes visited, probes
    included."""
    own = tables[seat]
    mine = _mine(own, chunk, direct)
    averaged = (seat + 1) % rules[k.R_PLAYERS]   # the seat whose average sums it gives
    d = 0
    entering = True
    ret = 0.0
    visited = 0
    frames = ws.frames
    frames[0, F_BRANCH] = 1
    frames[MAX_DEPTH - 1, 0] = 0
    max_branching = cfg[CFG_MAX_BRANCHING]
    own_average = cfg[CFG_OWN_AVERAGE] > 0
    reach = ws.reach
    reach[0] = 1.0
    while True:
        if entering:
            visited += 1
            state = ws.states[d]
            if state[k.S_PHASE] == k.PH_TERMINAL:
                ret = _payoff(state, rules, seat)
                entering = False
                continue
            if d + 2 >= MAX_DEPTH:
                mine.meta[M_DEEP] += 1
                ret = 0.0
                entering = False
                continue
            cur = k.current_player(state)
            frames[d, F_KIND] = PASS_UP
            frames[d + 1, F_BRANCH] = frames[d, F_BRANCH]
            reach[d + 1] = reach[d]
            if cur == k.CHANCE_PLAYER:
                a = _sample_chance(state, rules, ws.legal[d], ws.sig[d], rng)
                _child(ws, d, rules, a)
                d += 1
                continue
            legal = ws.legal[d]
            abst = ws.abst[d]
            # restricted play: a forbid lock takes actions out before anything is read
            m = _restricted(locks, state, rules, cur, legal,
                             k.legal_actions(state, rules, legal))
            frames[d, F_LEGAL] = m
            if _locked(locks, state, rules, ws.knows[d], cur, legal, m, ws.sig[d]):
                # a locked decision (any seat's): played as locked, nothing learned
                _child(ws, d, rules, legal[_pick(ws.sig[d], m, rng)])
                d += 1
                continue
            if cfg[CFG_SURE_WINS] > 0:
                w = _sure_win(state, rules, ws.knows[d], cur, legal, m)
                if w >= 0:   # the mover wins whatever follows: played, not learned
                    _child(ws, d, rules, legal[w])
                    d += 1
                    continue
            if foe >= 0 and _league_seat(rules, cur, seat):
                # a league opponent: played, nothing learned
                j = _league_move(league, foe, state, rules, ws.knows[d], cur, legal, m,
                                 ws.sig[d], rng)
                _child(ws, d, rules, legal[j])
                d += 1
                continue
            fk, ck, n, letters = _keys(ws, d, cfg, state, rules, ws.knows[d], cur, legal, m,
                                       abst)
            frames[d, F_ACTIONS] = n
            frames[d, F_WIDTH] = letters.width
            sig = ws.sig[d]
            sig_c = ws.sig_c[d]
            sig_f = ws.sig_f[d]
            if cur != seat:
                opp = tables[cur]
                ef, ec = _opponent_policy(opp, cfg, fk, ck, n, letters, sig, sig_c, sig_f,
                                          mine.meta)
                # external sampling: the sampled seat's policy added to its average,
                # at each level, for the next seat (`averaged`) only
                if own_average or cur != averaged:
                    ec = -1
                    ef = -1
                if ec >= 0:
                    total, off = _their_sum(opp, chunk, direct, ec)
                    if off >= 0:
                        for j in range(n):
                            total[off + letters.letter_of[j]] += sig_c[j]
                if ef >= 0:
                    total, off = _their_sum(opp, chunk, direct, ef)
                    if off >= 0:
                        for j in range(n):
                            total[off + j] += sig_f[j]
                j = _pick(sig, n, rng)
                _child(ws, d, rules, legal[_concrete(abst, m, j, rng)])
                d += 1
                continue
            ef, ec = _own_policy(own, chunk, direct, cfg, fk, ck, n, letters, True, sig,
                                 sig_c, sig_f)
            frames[d, F_FINE] = ef
            frames[d, F_COARSE] = ec
            if own_average:
                # own reach: expanded decisions multiply it, followed ones are sampled
                # on-policy (their frequency carries it)
                w = reach[d]
                if ec >= 0:
                    off = mine.offset[ec]
                    for j in range(n):
                        mine.ssum[off + letters.letter_of[j]] += w * sig_c[j]
                if ef >= 0:
                    off = mine.offset[ef]
                    for j in range(n):
                        mine.ssum[off + j] += w * sig_f[j]
            # regret of the played level decides pruning
            played = ef if (ef >= 0 and mine.visits[ef] >= cfg[CFG_FINE_VISITS]) else ec
            vals = ws.vals[d]
            for j in range(n):
                vals[j] = 0.0
                slot = letters.letter_of[j] if played == ec else j
                if played >= 0 and _prunable(cfg, mine.regret, mine.offset[played], slot, j,
                                             sig, sig_c, sig_f, rng):
                    vals[j] = np.nan
                    mine.meta[M_PRUNED] += 1
            if frames[d, F_BRANCH] * n <= max_branching:
                frames[d, F_KIND] = EXPAND
                frames[d + 1, F_BRANCH] = frames[d, F_BRANCH] * n
                j = 0
                while np.isnan(vals[j]):
                    j += 1
                frames[d, F_NEXT] = j
                reach[d + 1] = reach[d] * sig[j]
            else:
                frames[d, F_KIND] = PROBE
                # the action followed: current policy mixed with uniform exploration
                eps = cfg[CFG_EXPLORATION]
                if _uniform(rng) < eps:
                    j = _below(rng, n)
                    while np.isnan(vals[j]):
                        j = _below(rng, n)
                else:
                    j = _pick(sig, n, rng)
                frames[d, F_CHOSEN] = j
                for jj in range(n):
                    if jj != j and not np.isnan(vals[jj]):
                        vals[jj] = _probe(seat, tables, cfg, rules, rng, ws, d,
                                          legal[_concrete(abst, m, jj, rng)], league, foe,
                                          chunk, direct, locks)
            _child(ws, d, rules, legal[_concrete(abst, m, j, rng)])
            d += 1
            continue
        # returning `ret` to depth d - 1
        if d == 0:
            return visited + frames[MAX_DEPTH - 1, 0]
        d -= 1
        kind = frames[d, F_KIND]
        if kind == PASS_UP:
            continue
        n = frames[d, F_ACTIONS]
        vals = ws.vals[d]
        if kind == EXPAND:
            j = frames[d, F_NEXT]
            vals[j] = ret
            j += 1
            while j < n and np.isnan(vals[j]):
                j += 1
            if j < n:
                frames[d, F_NEXT] = j
                reach[d + 1] = reach[d] * ws.sig[d, j]
                _child(ws, d, rules, ws.legal[d, _concrete(ws.abst[d], frames[d, F_LEGAL],
                                                           j, rng)])
                d += 1
                entering = True
                continue
        else:
            vals[frames[d, F_CHOSEN]] = ret
        if cfg[CFG_COARSE_LETTERS] > 0:
            _update_letters(mine, frames[d, F_COARSE], n, vals, ws.sig_c[d],
                            Letters(frames[d, F_WIDTH], ws.letter_of[d], ws.size[d],
                                    ws.letter_buf))
        else:
            _update(mine, frames[d, F_COARSE], n, vals, ws.sig_c[d])
        _update(mine, frames[d, F_FINE], n, vals, ws.sig_f[d])
        value = 0.0
        sig = ws.sig[d]
        for j in range(n):
            if not np.isnan(vals[j]):
                value += sig[j] * vals[j]
        ret = value


@jit
def _run_worker(seat, iterations, cfg, rules, rng, own, opp, league, locks):
    """Run `iterations` traversals of a two-seat round for `seat`, writing the tables
    directly (one worker per seat: it writes its own regrets and the opponent's average
    sums, reads the opponent's snapshot); returns the number of nodes visited.
    _start_traversal says how each traversal starts; `_run_worker_tables` is the same
    at any table size."""
    tables = (own, opp) if seat == 0 else (opp, own)
    return _run_worker_tables(seat, iterations, cfg, rules, rng, tables, league, locks)


@jit
def _run_worker_tables(seat, iterations, cfg, rules, rng, tables, league, locks):
    """_run_worker for a tuple of every seat's table (any table size)."""
    ws = _workspace()
    chunk = _no_chunk()
    visited = 0
    for _ in range(iterations):
        foe = _start_traversal(cfg, rules, rng, ws, league)
        visited += _traverse(seat, tables, cfg, rules, rng, ws, league, foe, chunk, True,
                             locks)
    return visited


@jit
def _run_chunk(seat, iterations, cfg, rules, rng, tables, league, locks, chunk):
    """Run up to `iterations` traversals of one chunk for `seat`, reading the tables
    (frozen during the batch) and writing only `chunk`; stops early, before a
    traversal, when the chunk's overlay is crowded (the caller grows it and calls again:
    the traversals do not depend on where they were split). Returns (traversals done,
    nodes visited)."""
    ws = _workspace()
    visited = 0
    done = 0
    while done < iterations:
        if _crowded(chunk.mine) or _crowded(chunk.theirs):
            break
        foe = _start_traversal(cfg, rules, rng, ws, league)
        visited += _traverse(seat, tables, cfg, rules, rng, ws, league, foe, chunk, False,
                             locks)
        done += 1
    return done, visited


@jit
def _start_traversal(cfg, rules, rng, ws, league):
    """Set up one traversal's root in ws and return its league opponent (-1: the
    table). With CFG_SHARED_WORLD the traversal deals its hidden cards at its start
    (_deal_world: the lazy deal's law). A share CFG_LEAGUE_SHARE of traversals (when
    `league` has players) meets a league player drawn uniformly instead of the other
    seats' tables (_league_play); no draw is made otherwise, so a run without a league consumes its
    random stream exactly as before."""
    foe = -1
    players = league.kinds.shape[0]
    share = cfg[CFG_LEAGUE_SHARE]
    if players > 0 and share > 0 and _uniform(rng) < share:
        foe = _below(rng, players)
    ws.states[0, :] = k.initial_state(rules)
    if cfg[CFG_SHARED_WORLD] > 0:
        # one world for the whole traversal: every action value it estimates, the
        # followed path's and the probes', faces the same hidden cards
        _deal_world(ws.world, ws.states[0], rules, ws.deal_buf, rng)
        ws.states[0, :] = ws.world
    ws.knows[0, :] = ab._initial_knowledge(ws.states[0], rules)
    return foe
