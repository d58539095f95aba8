"""One-step lookahead over a particle belief, for two-player Robin Wood: numba kernels.

One seat (`me`) plays against an agent in the other seat. It keeps a belief over
everything it cannot see as weighted particles: each particle is a full core state plus
the knowledge array (solver.mccfr.kernels) of both seats, consistent with what `me` has
observed, reweighted at each opponent action by a *model* of the opponent. At each of
its decisions `me` scores every legal action (position actions grouped by what it knows
of the position) by applying it in particles drawn from the belief and finishing the
round with a fixed continuation (its own seat plays `cont`, the opponent plays the
model, or each of several biased versions of it, `types`, the score then being the
least); it takes the best.

Two users (docs/lbr.md, docs/search.md):
- the local best response (Lisy and Bowling 2017; solver.evaluation.lbr): the model is
  the agent itself, whose probabilities it may read, and the continuation a bot: its
  gain is a lower bound on the agent's exploitability;
- play-time search (solver.search.searcher): the model and the continuation are the
  searching seat's own blueprint table, which is all it may read; the opponent is a
  black box.

The kernels take a few structures: the `Match` (the rules, the seat, the agent it
faces, the model and its types, the continuation, the settings), the `Belief`
(particles and weights) and the `Workspace` (every scratch array, allocated once).
Players (solver.players.kernels.Player) are read through
solver.players.kernels.agent_probs only: black boxes. All randomness comes from a
splitmix64 stream per call (`rng`, one uint64), so a seed gives the same rounds on one
thread or two.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from solver.mccfr import kernels as ab
from solver.players import kernels as ka
from solver.mccfr.kernels import below as _below, payoff as _payoff, uniform as _uniform
from solver.mccfr.kernels import next_u64 as _next

from ._split import (SPLIT_OFF, SPLIT_REUSE, SPLIT_SALT, SPLIT_TOTAL, _close_split,
                     _record_choice, _record_strategy,
                     _split_row)

# ----- one observed step: a player action and the chance that follows it -----------------
T_ACTION = 0       # the player action; -1 when `me` cannot see it (opponent's Witch
                   # keep/swap, SCOPE_ACTOR: RULES-MODEL "What each player observes")
T_ACTOR = 1        # the seat that moved
T_SCOPE = 2        # S_SEEN_SCOPE once the step (and its chance) is applied
T_POS = 3          # S_SEEN_POS
T_CHAR = 4         # S_SEEN_CHAR if `me` saw it, else -1
T_VISIBLE = 5      # 1 if `me` saw the identity
T_LOOKER = 6       # S_ACTOR before the step: who looks at a SCOPE_ACTOR card
T_SIG = 7          # hash of the public part of the state after the step
T_SIZE = 8

# ----- configuration (int64 array) -------------------------------------------------------
G_PARTICLES = 0
G_ROLLOUTS = 1     # rollouts per scored action (per side of a challenge)
G_GROUP = 2        # group position actions by `me`'s code of the position
G_REGEN = 3        # regeneration attempts once every particle is inconsistent
G_REGEN_FACTOR = 4  # a regeneration runs this many times the particles, then resamples
G_MODEL_EPS = 5    # the belief mixes the model's probabilities with uniform at this rate,
                   # in millionths (0 for the LBR, whose model is the agent itself)
G_SEARCH_KINDS = 6  # bit d set: the lookahead decides decision kind d (DK_*); the
                    # continuation plays the others (all bits for the LBR)
G_SPLIT = 7        # where the gain comes from (_play_rounds' `split`): SPLIT_OFF, or
                   # each lookahead decision's advantage over the continuation valued on
                   # fresh rollouts (SPLIT_FRESH) or on the lookahead's own (SPLIT_REUSE)
G_SIZE = 8

# ----- counters (int64 array, per seat `me`) ----------------------------------------------
C_ROUNDS = 0
C_WINS = 1
C_DRAWS = 2
C_LOSSES = 3
C_TURN_CAP = 4
C_DECISIONS = 5        # decisions scored by lookahead
C_FORCED = 6           # decisions with one legal action
C_RESAMPLES = 7
C_REGENERATIONS = 8    # every particle inconsistent: regenerated from the start
C_REGEN_FAILED = 9     # regeneration failed: the continuation played the rest of the round
C_LOST_DECISIONS = 10  # decisions the continuation took after a failed regeneration
C_ROLLOUTS = 11
C_SPLIT_ROLLOUTS = 12  # rollouts that valued the split (G_SPLIT), not the choice
C_SIZE = 13

_PUBLIC_FIELDS = np.array([k.S_PHASE, k.S_ACTOR, k.S_TURN, k.S_PEEK_POS, k.S_ANNOUNCED,
                           k.S_RESPONDER, k.S_POWER, k.S_POWER_POS, k.S_PICK, k.S_PICK2,
                           k.S_WINNER, k.S_EXTRA], dtype=np.int64)


# ===== structures =========================================================================
# The belief: `state[i]`, `know[i]` a particle's core state and both seats' knowledge,
# `pend[i]` 1 while it waits to deal a card the opponent peeked in private, `w[i]` its
# weight.
Belief = namedtuple("Belief", ["state", "know", "pend", "w"])
# One seat's match: the core's rules array, the seat `me`, the agent in the other
# seat, the model of that agent the LBR's belief and rollouts use (the agent itself for
# the LBR; the blueprint for a play-time search, which cannot read its opponent) and the
# continuation `me` plays after its lookahead step (players of
# solver.players.kernels), the settings (int64, G_*).
# `types` (float64, one row of Player.params per row) are the opponents the rollouts
# face: the model with each row's parameters; an action's value is its least over them
# (one row, the model's own, for the LBR).
Match = namedtuple("Match", ["rules", "me", "agent", "model", "types", "cont", "cfg"])
# ===== random stream: the Monte Carlo CFR kernels' splitmix64 (_uniform, _below) =========
@jit
def _pick(values, probs, m, rng):
    """One of values[:m] with probabilities probs[:m] (never one of probability 0)."""
    return ka.draw_at(values, probs, m, _uniform(rng))


# ===== small pieces =======================================================================
@jit
def _probs_of(player, state, rules, know, seat, legal, m, ws, out):
    """A player's probabilities over legal[:m] (the black-box call)."""
    ka.agent_probs(player, state, rules, know, seat, legal, m, ws.scratch, ws.abst, out)


@jit
def _signature(state, rules):
    """Hash of what everybody sees of a state: phase, turn, movers, the power running,
    strikes, and which cards are face up with their identities."""
    h = np.uint64(0x243F6A8885A308D3)
    for f in _PUBLIC_FIELDS:
        h = ab.mix(h, state[f])
    for s in range(2):
        h = ab.mix(h, state[k.S_STRIKES + s])
    for p in range(rules[k.R_N]):
        if state[k.S_FACEUP + p]:
            h = ab.mix(h, 100 + p * 16 + state[k.S_CARD + p])
    return np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF))


@jit
def _is_chance(state):
    ph = state[k.S_PHASE]
    return ph == k.PH_DEAL or ph == k.PH_SHUFFLE or ph == k.PH_ORDER


@jit
def _step(state, know, rules, action, before):
    """Apply one action (player or chance) and update both seats' knowledge."""
    before[:] = state
    k.apply_action(state, rules, action)
    ab.observe(know, before, action, state, rules)


@jit
def _sample_chance(state, know, rules, rng, ws):
    """Resolve chance nodes by their probabilities until a decision or the end."""
    while _is_chance(state):
        c = k.chance_outcomes(state, rules, ws.chance_a, ws.chance_p)
        _step(state, know, rules, _pick(ws.chance_a, ws.chance_p, c, rng), ws.before)


@jit
def _record(rec, action, actor, looker, state, rules, me):
    """Write `me`'s observation of the step that led to `state`."""
    scope = state[k.S_SEEN_SCOPE]
    visible = scope == k.SCOPE_ALL or (scope == k.SCOPE_ACTOR and looker == me)
    rec[T_ACTION] = action
    rec[T_ACTOR] = actor
    rec[T_SCOPE] = scope
    rec[T_POS] = state[k.S_SEEN_POS] if scope != k.SCOPE_NONE else -1
    rec[T_CHAR] = state[k.S_SEEN_CHAR] if visible else -1
    rec[T_VISIBLE] = 1 if visible else 0
    rec[T_LOOKER] = looker
    rec[T_SIG] = _signature(state, rules)


# ===== rollouts ===========================================================================
@jit
def _rollout(state, know, match, opp, rng, ws):
    """Finish the round from `state` (modified): `me` plays the continuation,
    the other seat `opp` (a Player); `me`'s payoff."""
    rules, me = match.rules, match.me
    while state[k.S_PHASE] != k.PH_TERMINAL:
        if _is_chance(state):
            _sample_chance(state, know, rules, rng, ws)
            continue
        cur = k.current_player(state)
        m = k.legal_actions(state, rules, ws.legal2)
        player = match.cont if cur == me else opp
        _probs_of(player, state, rules, know, cur, ws.legal2, m, ws, ws.probs2)
        _step(state, know, rules, _pick(ws.legal2, ws.probs2, m, rng), ws.before)
    return _payoff(state, rules, me)


# ===== the belief =========================================================================
@jit
def _model_prob(p, m, cfg):
    """The model's probability of an observed opponent action, mixed with uniform over
    the m legal actions at rate cfg[G_MODEL_EPS] / 1e6, so that an opponent who plays
    what the model never would leaves the belief weighted, not empty."""
    eps = cfg[G_MODEL_EPS] * 1e-6
    return (1.0 - eps) * p + eps / m


@jit
def _find(legal, m, a):
    for i in range(m):
        if legal[i] == a:
            return i
    return -1


@jit
def _resolve_pending(st, kn, match, action, ws, rng):
    """A particle paused at the deal of a card the opponent peeked in private: deal it
    jointly with the opponent's next (visible) action. Each candidate identity c gets
    prior pool[c]/total times the agent's probability of `action` having seen c; one is
    drawn in proportion and the particle's weight is multiplied by their sum (the fully
    adapted proposal: no particle is wasted on a card the action rules out)."""
    rules, opp = match.rules, 1 - match.me
    total = 0
    for c in range(k.NUM_CHARACTERS):
        total += st[k.S_POOL + c]
    weight_sum = 0.0
    nc = 0
    for c in range(k.NUM_CHARACTERS):
        if st[k.S_POOL + c] == 0:
            continue
        cs = ws.cand_state[nc]
        ck = ws.cand_know[nc]
        cs[:] = st
        ck[:] = kn
        _step(cs, ck, rules, c, ws.before)
        wc = 0.0
        if cs[k.S_PHASE] == k.PH_AFTER_PEEK and k.current_player(cs) == opp:
            m = k.legal_actions(cs, rules, ws.legal2)
            i = _find(ws.legal2, m, action)
            if i >= 0:
                _probs_of(match.model, cs, rules, ck, opp, ws.legal2, m, ws, ws.probs2)
                wc = st[k.S_POOL + c] / total * _model_prob(ws.probs2[i], m, match.cfg)
        ws.cand_w[nc] = wc
        weight_sum += wc
        nc += 1
    if weight_sum <= 0.0:
        return 0.0
    r = _uniform(rng) * weight_sum
    acc = 0.0
    chosen = -1
    for j in range(nc):
        if ws.cand_w[j] > 0.0:
            chosen = j
            acc += ws.cand_w[j]
            if r < acc:
                break
    st[:] = ws.cand_state[chosen]
    kn[:] = ws.cand_know[chosen]
    return weight_sum


@jit
def _advance(st, kn, pend, i, rec, match, ws, rng):
    """Move particle i through one observed step; returns the factor its weight is
    multiplied by (0 when the particle cannot have produced the observation)."""
    rules = match.rules
    opp = 1 - match.me
    action = rec[T_ACTION]
    actor = rec[T_ACTOR]
    factor = 1.0
    counted = False
    if pend[i]:
        pend[i] = 0
        if actor != opp or action < 0:
            return 0.0
        factor = _resolve_pending(st, kn, match, action, ws, rng)
        if factor == 0.0:
            return 0.0
        counted = True
    if _is_chance(st) or st[k.S_PHASE] == k.PH_TERMINAL or k.current_player(st) != actor:
        return 0.0
    m = k.legal_actions(st, rules, ws.legal2)
    if action < 0:
        # The opponent's Witch keep/swap, unseen: drawn from the agent in this particle.
        if st[k.S_PHASE] != k.PH_WITCH_CHOICE:
            return 0.0
        _probs_of(match.model, st, rules, kn, opp, ws.legal2, m, ws, ws.probs2)
        action = _pick(ws.legal2, ws.probs2, m, rng)
    else:
        j = _find(ws.legal2, m, action)
        if j < 0:
            return 0.0
        if actor == opp and not counted:
            _probs_of(match.model, st, rules, kn, opp, ws.legal2, m, ws, ws.probs2)
            factor *= _model_prob(ws.probs2[j], m, match.cfg)
            if factor == 0.0:
                return 0.0
    _step(st, kn, rules, action, ws.before)
    while _is_chance(st):
        if st[k.S_PHASE] == k.PH_DEAL:
            dp = st[k.S_DEAL_POS]
            total = 0
            for c in range(k.NUM_CHARACTERS):
                total += st[k.S_POOL + c]
            if rec[T_VISIBLE] and rec[T_POS] == dp:
                # `me` saw this card: deal exactly that, at its deal probability.
                c = rec[T_CHAR]
                if st[k.S_POOL + c] == 0:
                    return 0.0
                factor *= st[k.S_POOL + c] / total
                _step(st, kn, rules, c, ws.before)
            elif st[k.S_RESUME_PHASE] == k.PH_TURN and st[k.S_ACTOR] == opp:
                # The opponent peeked an undealt card in private: wait for its next move.
                pend[i] = 1
                return factor
            else:
                c = k.chance_outcomes(st, rules, ws.chance_a, ws.chance_p)
                _step(st, kn, rules, _pick(ws.chance_a, ws.chance_p, c, rng), ws.before)
        else:
            c = k.chance_outcomes(st, rules, ws.chance_a, ws.chance_p)
            _step(st, kn, rules, _pick(ws.chance_a, ws.chance_p, c, rng), ws.before)
    scope = st[k.S_SEEN_SCOPE]
    if scope != rec[T_SCOPE]:
        return 0.0
    if scope != k.SCOPE_NONE:
        if st[k.S_SEEN_POS] != rec[T_POS]:
            return 0.0
        if rec[T_VISIBLE] and st[k.S_SEEN_CHAR] != rec[T_CHAR]:
            return 0.0
    if _signature(st, rules) != rec[T_SIG]:
        return 0.0
    return factor


@jit
def _systematic(w, count, n_out, out, rng):
    """Systematic resampling: n_out indices drawn in proportion to w[:count]."""
    total = 0.0
    for i in range(count):
        total += w[i]
    step = total / n_out
    u = _uniform(rng) * step
    acc = w[0]
    j = 0
    for s in range(n_out):
        target = u + s * step
        while acc <= target and j < count - 1:
            j += 1
            acc += w[j]
        # never land on a zero-weight particle (rounding at the end of the sum)
        jj = j
        while w[jj] <= 0.0 and jj > 0:
            jj -= 1
        out[s] = jj


@jit
def _filter_step(belief, count, rec, match, ws, rng, counters):
    """Update the first `count` particles of `belief` for one observed step: filter,
    normalise, resample when the effective sample size falls below half. Returns False
    if every weight vanished."""
    pst, pkn, pend, w = belief.state, belief.know, belief.pend, belief.w
    total = 0.0
    for i in range(count):
        if w[i] > 0.0:
            w[i] *= _advance(pst[i], pkn[i], pend, i, rec, match, ws, rng)
            total += w[i]
    if not total > 0.0:
        return False
    sq = 0.0
    for i in range(count):
        w[i] /= total
        sq += w[i] * w[i]
    if 1.0 / sq < 0.5 * count:
        idx = ws.idx[:count]
        _systematic(w, count, count, idx, rng)
        ws.tmp_state[:count] = pst[idx]
        ws.tmp_know[:count] = pkn[idx]
        ws.tmp_pend[:count] = pend[idx]
        pst[:count] = ws.tmp_state[:count]
        pkn[:count] = ws.tmp_know[:count]
        pend[:count] = ws.tmp_pend[:count]
        for i in range(count):
            w[i] = 1.0 / count
        counters[C_RESAMPLES] += 1
    return True


@jit
def _reset(belief, count, rules):
    """The belief at the start of a round: `count` copies of the initial state."""
    pst, pkn, pend, w = belief.state, belief.know, belief.pend, belief.w
    state = k.initial_state(rules)
    know = ab.initial_knowledge(state, rules)
    for i in range(count):
        pst[i] = state
        pkn[i] = know
        pend[i] = 0
        w[i] = 1.0 / count


@jit
def _regenerate(belief, nrec, match, ws, rng, counters):
    """Every particle contradicts the observations: rebuild the belief by re-running the
    filter from the start of the round over the nrec steps recorded in ws.recs with
    fresh draws and G_REGEN_FACTOR times the particles (ws.big), then resample down.
    True on success."""
    cfg = match.cfg
    count = cfg[G_PARTICLES]
    big = count * cfg[G_REGEN_FACTOR]
    for _ in range(cfg[G_REGEN]):
        _reset(ws.big, big, match.rules)
        ok = True
        for t in range(nrec):
            if not _filter_step(ws.big, big, ws.recs[t], match, ws, rng, counters):
                ok = False
                break
        if ok:
            idx = ws.big_idx
            _systematic(ws.big.w, big, count, idx, rng)
            for i in range(count):
                belief.state[i] = ws.big.state[idx[i]]
                belief.know[i] = ws.big.know[idx[i]]
                belief.pend[i] = ws.big.pend[idx[i]]
                belief.w[i] = 1.0 / count
            return True
    return False


# ===== the decision =======================================================================
@jit
def _draw_particles(belief, count, mask_card_pos, mask_card, want, n_out, out, rng, ws):
    """n_out particle indices, systematic in proportion to the belief's weights,
    restricted (when mask_card_pos >= 0) to particles whose card there is (want=1) or
    is not (want=0) `mask_card`. Returns the restricted weight mass."""
    w, pst = belief.w, belief.state
    mass = 0.0
    for i in range(count):
        keep = True
        if mask_card_pos >= 0:
            same = pst[i, k.S_CARD + mask_card_pos] == mask_card
            keep = same if want == 1 else not same
        ws.wmask[i] = w[i] if keep else 0.0
        mass += ws.wmask[i]
    if mass > 0.0:
        _systematic(ws.wmask, count, n_out, out, rng)
    return mass


@jit
def _value_of(g, m, idx, belief, match, opp, ws, counters, counter):
    """Mean payoff to `me` of group g of the legal actions ws.legal[:m] (grouped by ws.gid),
    the opponent playing `opp`:
    each rollout r starts from particle idx[r] with the random stream ws.seeds[r]
    (common random numbers across the groups compared); its rollouts are counted in
    counters[counter]."""
    legal, gid, seeds = ws.legal, ws.gid, ws.seeds
    n_roll = match.cfg[G_ROLLOUTS]
    pst, pkn = belief.state, belief.know
    total = 0.0
    members = 0
    for i in range(m):
        if gid[i] == g:
            ws.members[members] = legal[i]
            members += 1
    rng = np.zeros(1, dtype=np.uint64)
    for r in range(n_roll):
        rng[0] = seeds[r]
        a = ws.members[_below(rng, members)] if members > 1 else ws.members[0]
        st = ws.roll_state
        kn = ws.roll_know
        st[:] = pst[idx[r]]
        kn[:] = pkn[idx[r]]
        _step(st, kn, match.rules, a, ws.before)
        total += _rollout(st, kn, match, opp, rng, ws)
    counters[counter] += n_roll
    return total / n_roll


@jit
def _group_value(g, m, state, belief, match, idx, ws, rng, counters, counter):
    """The lookahead's value of group g of ws.legal[:m] (grouped by ws.gid): each
    rollout r from particle idx[r] with the stream ws.seeds[r], the least over the
    opponent's types. A challenge is split exactly by the particles' weight on the
    claim being true or false (each side's particles drawn with `rng`), and only what
    follows the strike is rolled out. Rollouts are counted in counters[counter]."""
    rules = match.rules
    n = rules[k.R_N]
    count = match.cfg[G_PARTICLES]
    n_roll = match.cfg[G_ROLLOUTS]
    a0 = -1
    for i in range(m):
        if ws.gid[i] == g:
            a0 = ws.legal[i]
            break
    challenge = state[k.S_PHASE] == k.PH_RESPOND and a0 == 4 * n + k.A_CHALLENGE
    model = match.model
    v = 1e300
    for j in range(match.types.shape[0]):
        opp = ka.Player(model.kind, match.types[j], model.slots, model.keys,
                        model.offset, model.nact, model.probs, model.visits,
                        model.locks)
        if challenge:
            # Challenging turns the card up: its identity in each particle decides
            # the strike, so the split is exact; only what follows is rolled out.
            pos = state[k.S_PEEK_POS]
            said = state[k.S_ANNOUNCED]
            vj = 0.0
            for want in (1, 0):
                mass = _draw_particles(belief, count, pos, said, want, n_roll,
                                       ws.side_idx, rng, ws)
                if mass > 0.0:
                    vj += mass * _value_of(g, m, ws.side_idx, belief, match, opp, ws,
                                           counters, counter)
        else:
            vj = _value_of(g, m, idx, belief, match, opp, ws, counters, counter)
        v = min(v, vj)
    return v


@jit
def _choose(state, know, belief, match, ws, rng, counters):
    """`me`'s action at `state`: the best legal action (group) by one-step
    lookahead over the belief, ties broken at random."""
    rules, me, cfg = match.rules, match.me, match.cfg
    n = rules[k.R_N]
    m = k.legal_actions(state, rules, ws.legal)
    if m == 1:
        counters[C_FORCED] += 1
        return ws.legal[0]
    counters[C_DECISIONS] += 1
    count = cfg[G_PARTICLES]
    n_roll = cfg[G_ROLLOUTS]
    # groups: position actions by (kind, `me`'s code of the position)
    ab.position_codes(state, rules, know, me, ws.codes)
    groups = 0
    for i in range(m):
        a = ws.legal[i]
        key = -1 - i
        if a < 4 * n and cfg[G_GROUP]:
            key = ((a // n) << 20) | ws.codes[a % n]
        g = -1
        for j in range(groups):
            if ws.group_key[j] == key:
                g = j
                break
        if g < 0:
            g = groups
            ws.group_key[g] = key
            groups += 1
        ws.gid[i] = g
    seeds = ws.seeds
    for r in range(n_roll):
        seeds[r] = _next(rng)
    idx = ws.roll_idx
    _draw_particles(belief, count, -1, 0, 1, n_roll, idx, rng, ws)
    best = -1e300
    nbest = 0
    for g in range(groups):
        v = _group_value(g, m, state, belief, match, idx, ws, rng, counters, C_ROLLOUTS)
        ws.group_value[g] = v
        if v > best + 1e-12:
            best = v
            nbest = 1
        elif v >= best - 1e-12:
            nbest += 1
    pick = _below(rng, nbest)
    chosen = -1
    for g in range(groups):
        if ws.group_value[g] >= best - 1e-12:
            if pick == 0:
                chosen = g
                break
            pick -= 1
    members = 0
    for i in range(m):
        if ws.gid[i] == chosen:
            ws.members[members] = ws.legal[i]
            members += 1
    return ws.members[_below(rng, members)]


@jit
def _advantage(state, know, belief, match, ws, a, split, counters):
    """After _choose took `a` at `state` (its groups still in ws.gid, its values in
    ws.group_value): the advantage of a's group over the continuation's mix there,
    Q(a) - sum_g cont(g) Q(g), added to the round's split row (Split). The
    continuation's probabilities are its own at the true state (it reads only what
    `me` knows). With SPLIT_FRESH the groups the mix holds are valued again on fresh
    particles and rollouts from the split's stream (split.rng): the values that chose
    `a` are biased upward by the maximum of their noise, fresh ones are not; with
    SPLIT_REUSE the choosing values are used as they are. A continuation that plays
    a's group surely has advantage 0 and costs no rollout."""
    rules, cfg = match.rules, match.cfg
    m = k.legal_actions(state, rules, ws.legal)
    if m == 1:
        return
    _probs_of(match.cont, state, rules, know, match.me, ws.legal, m, ws, ws.probs)
    groups = 0
    chosen = -1
    for i in range(m):
        groups = max(groups, ws.gid[i] + 1)
        if ws.legal[i] == a:
            chosen = ws.gid[i]
    mix = split.values   # per group: the continuation's probability of playing it
    for g in range(groups):
        mix[g] = 0.0
    for i in range(m):
        mix[ws.gid[i]] += ws.probs[i]
    row = _split_row(state)
    _record_strategy(split, row, ws.legal, ws.probs, m, rules[k.R_N])
    adv = 0.0
    if mix[chosen] < 1.0 - 1e-12:
        if cfg[G_SPLIT] == SPLIT_REUSE:
            for g in range(groups):
                adv += mix[g] * (ws.group_value[chosen] - ws.group_value[g])
        else:
            rng = split.rng
            n_roll = cfg[G_ROLLOUTS]
            for r in range(n_roll):
                ws.seeds[r] = _next(rng)
            idx = ws.roll_idx
            _draw_particles(belief, cfg[G_PARTICLES], -1, 0, 1, n_roll, idx, rng, ws)
            mine = _group_value(chosen, m, state, belief, match, idx, ws, rng, counters,
                                C_SPLIT_ROLLOUTS)
            for g in range(groups):
                if g != chosen and mix[g] > 0.0:
                    adv += mix[g] * (mine - _group_value(g, m, state, belief, match, idx,
                                                         ws, rng, counters,
                                                         C_SPLIT_ROLLOUTS))
    split.round[row] += adv
    split.round[SPLIT_TOTAL] += adv
    split.decisions[row] += 1
    split.decisions[SPLIT_TOTAL] += 1
    _record_choice(split, row, a, adv, rules[k.R_N])


# ===== workspace ==========================================================================
Workspace = namedtuple("Workspace", [
    "belief",                                        # the belief: particles and weights
    "recs",                                          # the round's observed steps
    "chance_a", "chance_p", "before", "legal", "legal_true", "legal2", "probs", "probs2",
    "scratch", "abst", "cand_state", "cand_know", "cand_w", "idx", "tmp_state",
    "tmp_know", "tmp_pend", "big", "big_idx",        # big: the regeneration's belief
    "wmask", "roll_idx", "side_idx", "seeds", "members", "roll_state", "roll_know",
    "codes", "group_key", "gid", "group_value"])


def _workspace(cfg, max_steps: int) -> Workspace:
    """Every array the kernels need for one seat `me` (one thread), allocated once."""
    p, r = int(cfg[G_PARTICLES]), int(cfg[G_ROLLOUTS])
    big = p * max(1, int(cfg[G_REGEN_FACTOR]))
    s, kk, nl = k.S_SIZE, ab.K_SIZE, k.MAX_LEGAL
    i64, f64 = np.int64, np.float64
    return Workspace(
        Belief(np.zeros((p, s), i64), np.zeros((p, kk), i64), np.zeros(big, i64),
               np.zeros(p, f64)),
        np.zeros((max_steps, T_SIZE), i64),
        np.zeros(k.MAX_CHANCE_OUTCOMES, i64), np.zeros(k.MAX_CHANCE_OUTCOMES, f64),
        np.zeros(s, i64), np.zeros(nl, i64), np.zeros(nl, i64), np.zeros(nl, i64),
        np.zeros(nl, f64), np.zeros(nl, f64), np.zeros((ab.SCRATCH_ROWS, nl), i64),
        np.zeros(nl, i64),
        np.zeros((k.NUM_CHARACTERS, s), i64), np.zeros((k.NUM_CHARACTERS, kk), i64),
        np.zeros(k.NUM_CHARACTERS, f64), np.zeros(big, i64), np.zeros((big, s), i64),
        np.zeros((big, kk), i64), np.zeros(big, i64),
        Belief(np.zeros((big, s), i64), np.zeros((big, kk), i64), np.zeros(big, i64),
               np.zeros(big, f64)), np.zeros(p, i64),
        np.zeros(p, f64), np.zeros(r, i64), np.zeros(r, i64), np.zeros(r, np.uint64),
        np.zeros(nl, i64), np.zeros(s, i64), np.zeros(kk, i64),
        np.zeros(k.MAX_POSITIONS, i64), np.zeros(nl, i64), np.zeros(nl, i64),
        np.zeros(nl, f64))


# ===== rounds =============================================================================
@jit
def _play_rounds(rounds, seed, match, ws, counters, split):
    """Play `rounds` rounds of `match` (`me` in seat match.me, the agent in the
    other); tallies in counters (C_*), and, when cfg[G_SPLIT] is set, each lookahead
    decision's advantage over the continuation in `split` (Split; its stream seeded
    from `seed` too, apart from the rounds' own, so the rounds are the same with or
    without it)."""
    rules, me = match.rules, match.me
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    split.rng[0] = np.uint64(seed) ^ SPLIT_SALT
    splitting = match.cfg[G_SPLIT] != SPLIT_OFF
    count = match.cfg[G_PARTICLES]
    belief = ws.belief
    for _ in range(rounds):
        state = k.initial_state(rules)
        know = ab.initial_knowledge(state, rules)
        _reset(belief, count, rules)
        nrec = 0
        lost = False
        while state[k.S_PHASE] != k.PH_TERMINAL:
            cur = k.current_player(state)
            searched = (match.cfg[G_SEARCH_KINDS] >> ka.decision_kind(state[k.S_PHASE])) & 1
            if cur == me and not lost and searched:
                a = _choose(state, know, belief, match, ws, rng, counters)
                if splitting:
                    _advantage(state, know, belief, match, ws, a, split, counters)
            else:
                m = k.legal_actions(state, rules, ws.legal_true)
                if cur == me:
                    _probs_of(match.cont, state, rules, know, cur, ws.legal_true, m, ws,
                              ws.probs)
                    if lost:
                        counters[C_LOST_DECISIONS] += 1
                else:
                    _probs_of(match.agent, state, rules, know, cur, ws.legal_true, m, ws,
                              ws.probs)
                a = _pick(ws.legal_true, ws.probs, m, rng)
            looker = state[k.S_ACTOR]
            hidden = cur != me and state[k.S_PHASE] == k.PH_WITCH_CHOICE
            _step(state, know, rules, a, ws.before)
            _sample_chance(state, know, rules, rng, ws)
            if lost or state[k.S_PHASE] == k.PH_TERMINAL:
                continue
            rec = ws.recs[nrec]
            _record(rec, -1 if hidden else a, cur, looker, state, rules, me)
            nrec += 1
            if not _filter_step(belief, count, rec, match, ws, rng, counters):
                counters[C_REGENERATIONS] += 1
                if not _regenerate(belief, nrec, match, ws, rng, counters):
                    counters[C_REGEN_FAILED] += 1
                    lost = True
        counters[C_ROUNDS] += 1
        if splitting:
            _close_split(split)
        winner = state[k.S_WINNER]
        if winner == me:
            counters[C_WINS] += 1
        elif winner >= 0:
            counters[C_LOSSES] += 1
        else:
            counters[C_DRAWS] += 1
            if state[k.S_EVENTS] & k.EV_TURN_CAP:
                counters[C_TURN_CAP] += 1


@jit
def _belief_after(history, match, ws, seed, counters):
    """Run the belief of seat match.me along a given history of core action ids (chance
    included), which must end at a decision. Particles and weights are left in
    ws.belief. Returns False if the belief could not be kept (every regeneration
    failed)."""
    rules, me = match.rules, match.me
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    count = match.cfg[G_PARTICLES]
    state = k.initial_state(rules)
    know = ab.initial_knowledge(state, rules)
    _reset(ws.belief, count, rules)
    nrec = 0
    h = 0
    while h < len(history):
        cur = k.current_player(state)
        looker = state[k.S_ACTOR]
        hidden = cur != me and state[k.S_PHASE] == k.PH_WITCH_CHOICE
        a = history[h]
        h += 1
        _step(state, know, rules, a, ws.before)
        while _is_chance(state) and h < len(history):
            _step(state, know, rules, history[h], ws.before)
            h += 1
        rec = ws.recs[nrec]
        _record(rec, -1 if hidden else a, cur, looker, state, rules, me)
        nrec += 1
        if not _filter_step(ws.belief, count, rec, match, ws, rng, counters):
            counters[C_REGENERATIONS] += 1
            if not _regenerate(ws.belief, nrec, match, ws, rng, counters):
                counters[C_REGEN_FAILED] += 1
                return False
    return True


@jit
def _decide(history, match, ws, seed, counters):
    """`me`'s action at the decision that ends `history` (core action ids, chance
    included), as in _play_rounds: the lookahead over the belief run along the history
    when the decision's kind is searched and the belief holds, else a draw from the
    continuation. Returns the action. (One call per decision: the belief is rebuilt from
    the start each time, so a caller need keep no state.)"""
    rules, me = match.rules, match.me
    state, know = ka.replay(rules, history)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    searched = (match.cfg[G_SEARCH_KINDS] >> ka.decision_kind(state[k.S_PHASE])) & 1
    if searched and _belief_after(history, match, ws, _next(rng), counters):
        return _choose(state, know, ws.belief, match, ws, rng, counters)
    m = k.legal_actions(state, rules, ws.legal_true)
    _probs_of(match.cont, state, rules, know, me, ws.legal_true, m, ws, ws.probs)
    return _pick(ws.legal_true, ws.probs, m, rng)
