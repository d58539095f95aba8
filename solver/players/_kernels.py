"""Policies that play without Python in the loop: baseline bots and abstracted tables.

A seat's agent is one `Player`: its kind, its parameters and its table for that seat
(bots carry the empty table of solver.players.agents and ignore it). Both seats of a
round are one `Seats`. Every kernel writes probabilities over the core's legal actions,
in their order, from what the seat knows (the knowledge array of solver.mccfr.kernels).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from solver.decisions import kernels as dk
from solver.mccfr import kernels as ab
from solver.scripted import kernels as lg
from solver.mccfr import kernels as mc

# the baseline bots' kinds and parameter slots live with the other scripted players
UNIFORM, HONEST, PARANOID, HEURISTIC = lg.UNIFORM, lg.HONEST, lg.PARANOID, lg.HEURISTIC
TABLE = 4
NO_TABLE = -2      # _agent_probs of a bot: no table entry involved

# decision kinds of the coverage counts (DK_*), and their categories (COV_*)
DK_TURN = 0        # turn start: peek or use
DK_AFTER_PEEK = 1  # silent or announce
DK_RESPOND = 2     # challenge or pass
DK_POWER = 3       # unmasking, picks, Witch keep/swap
NUM_DECISION_KINDS = 4
COV_LEARNED = 0    # an entry with at least the threshold of updates
COV_THIN = 1       # an entry with fewer
COV_NONE = 2       # no entry: played uniformly
NUM_COVERAGE = 3

P_BLUFF = lg.P_BLUFF            # heuristic (solver.scripted): its bluff rate
P_CHALLENGE = lg.P_CHALLENGE    # heuristic: its challenge threshold
P_SURE_WINS = 2    # table: 1 to take sure wins by rule (solver.mccfr.kernels.sure_win)
P_TILT_ACTION = 3  # table: the action a tilt multiplies, as its code above the position
                   # actions (A_SILENT, A_CHALLENGE, A_PASS, ...; A_ANNOUNCE: any announce)
P_TILT_FACTOR = 4  # table: its factor (0: no tilt). A tilted table is one of the biased
                   # continuation strategies of a play-time search (solver.search)
P_FALLBACK = 5     # table: the league kind that moves where the table has not learned
                   # (0: none, uniform where it has no entry; solver.players.agents.Fallback)
P_FALLBACK_VISITS = 6         # ... at a turn or power decision whose entry has fewer
                              # training updates than this (or none)
P_FALLBACK_VISITS_CLAIMS = 7  # ... at an announcement or a response
P_COARSE_LETTERS = 8  # table: 1 if its coarse entries act on letters (docs/abstraction.md)
P_FINE_CLASSES = 9    # table: 1 if a position decision's fine key is its class set
                      # (MCCFRConfig.fine_key="classes")
NUM_PARAMS = 10

# One seat's agent, as kernels see it. A table agent's arrays are its table for that
# seat (open addressing `slots` over `keys`; entry e's probabilities are
# probs[offset[e]:offset[e] + nact[e]], float32; visits[e] its training updates, for
# coverage counts); a bot's are the one-entry empty table. kind: int64, params: float64.
Player = namedtuple("Player", ["kind", "params", "slots", "keys", "offset", "nact", "probs",
                               "visits", "locks"])
# The players of the two seats of a round (seat0 moves for seat 0, seat1 for seat 1).
Seats = namedtuple("Seats", ["seat0", "seat1"])
# A tournament's tallies: results[0..2] += (agent A wins, draws, agent B wins),
# results[3] += turn-cap draws; lengths[t] += rounds of t turns; coverage[agent (0: A,
# 1: B), DK_*, COV_*] += table decisions by kind and by how trained their entry was.
Tally = namedtuple("Tally", ["results", "lengths", "coverage"])


@jit
def _table_probs(player, state, rules, know, seat, legal, m, scratch, abst, out):
    """An abstracted strategy table: the probability of each abstract action, from the
    decision's fine entry if the table has one, else from its coarse entry (docs/
    abstraction.md, "Two levels"), shared uniformly by the legal actions in it. With
    neither, uniform over the abstract actions: the caller learns it from the
    returned entry index, -1 (tournaments count such decisions). A coarse entry on
    letters (P_COARSE_LETTERS) is read over the letters the decision has,
    renormalised, each letter's share split evenly among its legal actions. `scratch`
    has ab.SCRATCH_ROWS rows."""
    slots, keys, offset, nact, probs = (player.slots, player.keys, player.offset,
                                        player.nact, player.probs)
    letters = player.params[P_COARSE_LETTERS] > 0
    fine, coarse, n, width = ab.decision_keys(state, rules, know, seat, legal, m, scratch,
                                              abst, letters, player.params[P_FINE_CLASSES] > 0)
    e = mc.find(slots, keys, fine)
    if e >= 0 and nact[e] != n:
        e = -1
    if e < 0:
        e = mc.find(slots, keys, coarse)
        if e >= 0 and nact[e] != width:
            e = -1
        if e >= 0 and letters:
            _letter_probs(probs, offset[e], width, scratch, abst, n, m, out)
            return e
    members = np.zeros(m, dtype=np.int64)
    for i in range(m):
        members[abst[i]] += 1
    total = 0.0
    for i in range(m):
        j = abst[i]
        p = np.float64(probs[offset[e] + j]) if e >= 0 else 1.0 / n
        out[i] = p / members[j]
        total += out[i]
    for i in range(m):  # stored as float32: renormalise in float64
        out[i] /= total
    return e


@jit
def _letter_probs(probs, off, width, scratch, abst, n, m, out):
    """out[:m] from a coarse entry's letter probabilities probs[off:off + width], read
    as training reads its coarse policy (mc.spread over the n abstract actions, whose
    letters and sizes are scratch rows 5 and 6), each abstract action's share split
    evenly among its legal actions."""
    letters = mc.Letters(width, scratch[5], scratch[6],
                         np.empty(2 * mc.MAX_ABSTRACT, dtype=np.float64))
    per_class = np.empty(n, dtype=np.float64)
    mc.spread(probs, off, False, letters, n, per_class)
    for i in range(m):
        out[i] = per_class[abst[i]] / scratch[6, abst[i]]


@jit
def _tilt(params, rules, legal, m, out):
    """Multiply the probability of the tilted action by P_TILT_FACTOR and renormalise
    (Brown, Sandholm and Amos 2018: a blueprint biased toward one action)."""
    base = 4 * rules[k.R_N]
    target = np.int64(params[P_TILT_ACTION])
    total = 0.0
    for i in range(m):
        code = legal[i] - base
        hit = code == target or (target == k.A_ANNOUNCE and k.A_ANNOUNCE <= code < k.A_CHALLENGE)
        if hit:
            out[i] *= params[P_TILT_FACTOR]
        total += out[i]
    if total > 0.0:
        for i in range(m):
            out[i] /= total


@jit
def _fallback_threshold(params, phase):
    """The updates a table entry needs before the table, not its fallback, moves at a
    decision of core phase `phase` (announcements and responses have their own)."""
    if phase == k.PH_AFTER_PEEK or phase == k.PH_RESPOND:
        return params[P_FALLBACK_VISITS_CLAIMS]
    return params[P_FALLBACK_VISITS]


@jit
def _agent_probs(player, state, rules, know, seat, legal, m, scratch, abst, out):
    """Probabilities of the legal actions legal[:m] for `seat`, by `player` (a Player),
    written into out[:m]. Returns the table entry found (-1: none; the decision is then
    played uniformly, or by the table's fallback rules, P_FALLBACK, which also move
    where the entry has too few updates), NO_TABLE
    for bots and for a table's sure wins (P_SURE_WINS), which are played by rule, not
    read from the table. A forbid lock of the player (restricted play) takes actions
    out first: the player decides among the rest, as its table was trained to, and the
    forbidden actions get probability 0."""
    if dk.has_forbids(player.locks):
        kept = legal[:m].copy()
        n = dk.allowed(player.locks, state, rules, seat, kept, m)
        if n < m:
            sub = np.empty(n, dtype=np.float64)
            e = _free_probs(player, state, rules, know, seat, kept, n, scratch, abst, sub)
            j = 0
            for i in range(m):   # kept[:n] is legal[:m] in order, less the forbidden
                if j < n and legal[i] == kept[j]:
                    out[i] = sub[j]
                    j += 1
                else:
                    out[i] = 0.0
            return e
    return _free_probs(player, state, rules, know, seat, legal, m, scratch, abst, out)


@jit
def _free_probs(player, state, rules, know, seat, legal, m, scratch, abst, out):
    """_agent_probs over legal[:m] as given (no action forbidden)."""
    kind, params = player.kind, player.params
    if player.locks.player.shape[0] > 0 and dk.locked_probs(player.locks, state, rules, know,
                                                             seat, legal, m, out):
        return NO_TABLE   # a locked decision: played as locked, not read from the table
    if kind == TABLE:
        if params[P_SURE_WINS] > 0:
            w = mc.sure_win(state, rules, know, seat, legal, m)
            if w >= 0:   # played by rule, as in training: not a table decision
                for i in range(m):
                    out[i] = 0.0
                out[w] = 1.0
                return NO_TABLE
        e = _table_probs(player, state, rules, know, seat, legal, m, scratch, abst, out)
        fallback = np.int64(params[P_FALLBACK])
        if fallback >= lg.FIRST_KIND:
            below = _fallback_threshold(params, state[k.S_PHASE])
            if e < 0 or player.visits[e] < below:   # its rules with their defaults
                settings = lg.SOUND_DEFAULTS if fallback == lg.SOUND else params
                lg.scripted_probs(fallback, settings, state, rules, know, seat, legal, m,
                                  out)
        if params[P_TILT_FACTOR] > 0:
            _tilt(params, rules, legal, m, out)
        return e
    lg.scripted_probs(kind, params, state, rules, know, seat, legal, m, out)
    return NO_TABLE


@jit
def _seat_probs(seats, state, rules, know, seat, legal, m, scratch, abst, out):
    """_agent_probs for `seat`, by the player of that seat in `seats` (a Seats)."""
    if seat == 0:
        return _agent_probs(seats.seat0, state, rules, know, seat, legal, m, scratch, abst,
                            out)
    return _agent_probs(seats.seat1, state, rules, know, seat, legal, m, scratch, abst, out)


@jit
def _replay(rules, history):
    """Core state and knowledge after the action ids in `history` (chance included)."""
    state = k.initial_state(rules)
    know = ab.initial_knowledge(state, rules)
    for a in history:
        before = state.copy()
        k.apply_action(state, rules, a)
        ab.observe(know, before, a, state, rules)
    return state, know


@jit
def _replay_probs(rules, history, player, out_actions, out_probs):
    """The agent's probabilities at the decision reached by `history`; returns how many
    legal actions were written and the table entry used (-1: none, played uniformly;
    NO_TABLE for bots): the OpenSpiel policy wrapper's one call."""
    state, know = _replay(rules, history)
    seat = k.current_player(state)
    m = k.legal_actions(state, rules, out_actions)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    e = _agent_probs(player, state, rules, know, seat, out_actions, m, scratch, abst,
                     out_probs)
    return m, e


@jit
def _draw_at(actions, probs, m, r):
    """The one of actions[:m] where the running sum of probs[:m] first passes r (a
    uniform draw in [0, 1)); never one of probability 0, even when rounding leaves the
    running sum short of 1."""
    acc = 0.0
    last = -1
    for i in range(m):
        if probs[i] > 0.0:
            last = i
            acc += probs[i]
            if r < acc:
                return actions[i]
    return actions[last]


@jit
def _draw(actions, probs, m):
    """One of actions[:m] drawn with probabilities probs[:m] (numpy's random stream)."""
    return _draw_at(actions, probs, m, np.random.random())


@jit
def _decision_kind(phase):
    if phase == k.PH_TURN:
        return DK_TURN
    if phase == k.PH_AFTER_PEEK:
        return DK_AFTER_PEEK
    if phase == k.PH_RESPOND:
        return DK_RESPOND
    return DK_POWER


@jit
def _count_coverage(coverage, phase, entry, player, min_visits):
    """Count one table decision of `player` by kind and by who moved: learned (the
    table, on an entry with at least `min_visits` updates), thin (an entry with fewer,
    or one below the fallback's threshold for its kind, where the fallback's rules
    moved: a reader of coverage asks how much of the play is learned) or none."""
    if entry == NO_TABLE:
        return
    if entry < 0:
        c = COV_NONE
    else:
        need = float(min_visits)
        if np.int64(player.params[P_FALLBACK]) >= lg.FIRST_KIND:
            need = max(need, _fallback_threshold(player.params, phase))
        c = COV_LEARNED if player.visits[entry] >= need else COV_THIN
    coverage[_decision_kind(phase), c] += 1


@jit
def _play(rules, rounds, seed, a_seat, seats, min_visits, tally):
    """Play `rounds` rounds with agent A in seat `a_seat` and agent B in the other: the
    players of `seats` (a Seats: A's for a_seat, B's for the other), tallied into
    `tally` (a Tally; an entry with at least `min_visits` updates counts as learned).
    """
    results, lengths, coverage = tally.results, tally.lengths, tally.coverage
    np.random.seed(seed)
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    chance_p = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    probs = np.empty(k.MAX_LEGAL, dtype=np.float64)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    before = np.empty(k.S_SIZE, dtype=np.int64)
    for _ in range(rounds):
        state = k.initial_state(rules)
        know = ab.initial_knowledge(state, rules)
        while state[k.S_PHASE] != k.PH_TERMINAL:
            cur = k.current_player(state)
            if cur == k.CHANCE_PLAYER:
                c = k.chance_outcomes(state, rules, legal, chance_p)
                a = _draw(legal, chance_p, c)
            else:
                m = k.legal_actions(state, rules, legal)
                agent = 0 if cur == a_seat else 1
                if cur == 0:
                    e = _agent_probs(seats.seat0, state, rules, know, cur, legal, m, scratch,
                                     abst, probs)
                    _count_coverage(coverage[agent], state[k.S_PHASE], e, seats.seat0,
                                    min_visits)
                else:
                    e = _agent_probs(seats.seat1, state, rules, know, cur, legal, m, scratch,
                                     abst, probs)
                    _count_coverage(coverage[agent], state[k.S_PHASE], e, seats.seat1,
                                    min_visits)
                a = _draw(legal, probs, m)
            before[:] = state
            k.apply_action(state, rules, a)
            ab.observe(know, before, a, state, rules)
        w = state[k.S_WINNER]
        if w < 0:
            results[1] += 1
            if state[k.S_EVENTS] & k.EV_TURN_CAP:
                results[3] += 1
        elif w == a_seat:
            results[0] += 1
        else:
            results[2] += 1
        lengths[state[k.S_TURN]] += 1


@jit
def _table_move(players, state, rules, know, legal, chance_p, probs, scratch, abst):
    """The next action of a round at any table size, drawn from numpy's random stream:
    a chance outcome by its probability, seat s's move from players[s] (a tuple of one
    Player per seat) on what the seat knows (`know`). The rest are work arrays."""
    cur = k.current_player(state)
    if cur == k.CHANCE_PLAYER:
        c = k.chance_outcomes(state, rules, legal, chance_p)
        return _draw(legal, chance_p, c)
    m = k.legal_actions(state, rules, legal)
    _agent_probs(players[cur], state, rules, know, cur, legal, m, scratch, abst, probs)
    return _draw(legal, probs, m)


@jit
def _play_table(rules, rounds, seed, players, hero, tally):
    """Play `rounds` rounds of a table of any size, seat s moved by players[s] (a tuple
    of one Player per seat), the seats in bit mask `hero` being the side measured.
    tally[0] += rounds the hero side won, tally[1] += draws, tally[2] += rounds another
    side won, tally[3] += turn-cap draws; tally[4 + s] += rounds seat s (or its team)
    won."""
    coverage = np.zeros((NUM_DECISION_KINDS, NUM_COVERAGE), dtype=np.int64)
    _play_table_counted(rules, rounds, seed, players, hero, tally, coverage, 1)


@jit
def _play_table_counted(rules, rounds, seed, players, hero, tally, coverage, min_visits):
    """_play_table, also counting the hero seats' table decisions into coverage[DK_*,
    COV_*] (an entry with at least `min_visits` updates counts as learned), as
    tournaments count them at two seats."""
    np.random.seed(seed)
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    chance_p = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    probs = np.empty(k.MAX_LEGAL, dtype=np.float64)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    before = np.empty(k.S_SIZE, dtype=np.int64)
    seats = rules[k.R_PLAYERS]
    teams = rules[k.R_TEAMS] > 0
    for _ in range(rounds):
        state = k.initial_state(rules)
        know = ab.initial_knowledge(state, rules)
        while state[k.S_PHASE] != k.PH_TERMINAL:
            cur = k.current_player(state)
            if cur == k.CHANCE_PLAYER or not hero & (1 << cur):
                a = _table_move(players, state, rules, know, legal, chance_p, probs, scratch,
                                abst)
            else:
                m = k.legal_actions(state, rules, legal)
                e = _agent_probs(players[cur], state, rules, know, cur, legal, m, scratch,
                                 abst, probs)
                _count_coverage(coverage, state[k.S_PHASE], e, players[cur],
                                min_visits)
                a = _draw(legal, probs, m)
            before[:] = state
            k.apply_action(state, rules, a)
            ab.observe(know, before, a, state, rules)
        w = state[k.S_WINNER]
        if w < 0:
            tally[1] += 1
            if state[k.S_EVENTS] & k.EV_TURN_CAP:
                tally[3] += 1
            continue
        won_by_hero = False
        for s in range(seats):
            if s == w or (teams and s % 2 == w % 2):
                tally[4 + s] += 1
                if hero & (1 << s):
                    won_by_hero = True
        if won_by_hero:
            tally[0] += 1
        else:
            tally[2] += 1
