"""The league: scripted players that measure a strategy from outside (numba kernels),
move where a table has not learned (table agents' fallback rules, solver.players) and
can be opponents in training (solver.mccfr, `league_share`).

Each player reads only what its seat can know: the knowledge array of solver.knowledge
(through the same helpers as the baseline bots of solver.players), the public core fields (face-up cards, strikes, the announcement, the peeked position,
the power running) and, at its own after-peek decision only, the card it has just
peeked, exactly as the baseline bots do. The players are described in docs/bots.md.

Kinds start at FIRST_KIND so that they never collide with the kinds of solver.players
(bots, tables), whose `agent_probs` hands every kind from FIRST_KIND on to `_league_probs`.
"""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from solver.knowledge import kernels as ab
from solver.scripted._helpers import _known, _spread

FIRST_KIND = 10
TRUTHFUL_CHALLENGER = 10   # the truth; challenges every Robin or Sheriff claim
SILENT = 11                # never announces; challenges claims it knows are false
COUNTER = 12               # card counter: announces only a winning unmasking
LEADER_BLUFFER = 13        # always claims Robin or the Sheriff
THRESHOLD_CHALLENGER = 14  # the truth; challenges when P(claim false) > t
BAITER = 15                # the truth, Peasants included; challenges all but known truths
TEMPO = 16                 # claims the Companion (extra turn) on every peek
# Held out for evaluation (solver.evaluation.league.HELD_OUT): training never meets them.
MIRROR = 17                # the truth; once behind on strikes, challenges all but known truths
CAREFUL = 18               # the truth except unsure leaders; challenges impossible claims
LATE_BLUFFER = 19          # the truth until its first strike, then always Robin or Sheriff
PEEK_HOARDER = 20          # silent except a leader once it has located a target card
PROPORTIONAL = 21          # the truth; challenges with probability P(claim false)
FIRST_HELD_OUT_KIND = 17
# Fallback rules (the default fallback beyond two seats before the sound default,
# docs/nplayer.md); loadable by name, not a training opponent nor one of the measuring
# league.
CLAIM_COUNTER = 22         # the baiter's claims; challenges claims it rules out or over-counted
# Held out too, numbered after the fallback rules (a kind is never renumbered), so the
# held-out kinds are 17-21 and 23-25: tell them by membership (solver.scripted.HELD_OUT_KINDS).
PROVER = 23                # the truth, Peasants too; challenges only claims it proves false
DISRUPTOR = 24             # the prover's claims; its powers move what other seats have seen
UNMASKER = 25              # peeks the least-known card; claims a leader only when sure
LAST_KIND = 25             # the last league or held-out kind (CLAIM_COUNTER among them)

P_THRESHOLD = 0            # threshold_challenger: challenge when P(false) is above this
NUM_LEAGUE_PARAMS = 1      # parameters a league player reads (a longer row may be passed)


# ----- what the seat knows ------------------------------------------------------------
@jit
def _mask(know, seat, pos):
    """The set of characters `seat` holds possible at `pos` (a bit per character)."""
    return know[ab.K_CAND + seat * k.MAX_POSITIONS + pos]


@jit
def _target(leader):
    """The leader of the camp that `leader`'s power unmasks."""
    return k.SHERIFF if leader == k.ROBIN else k.ROBIN


@jit
def _camp_unlocated(rules, know, seat, leader):
    """How many cards of `leader`'s camp `seat` cannot place (face up or down)."""
    follower = k.COMPANION if leader == k.ROBIN else k.DEPUTY
    left = rules[k.R_COUNTS + leader] + rules[k.R_COUNTS + follower]
    for p in range(rules[k.R_N]):
        c = _known(know, seat, p)
        if c >= 0 and k.in_camp(c, leader):
            left -= 1
    return left


@jit
def _unmask_wins(rules, know, seat, leader):
    """Would `leader`'s power, run by `seat` now, surely win? (Its target camp is fully
    located, so its reveals never miss.) Only for a leader the deck holds. The same test
    as the sure wins of training (solver.mccfr.kernels.target_located)."""
    return ab.target_located(rules, know, seat, leader)


@jit
def _over_claimed(rules, know, seat, pos, said):
    """Is a claim of `said` at `pos` one too many? True when the copies `seat` has
    located away from `pos`, plus the other positions that may hold `said` whose last
    public claim was `said`, already make up every copy the deck holds: then some claim
    of `said` is false. Claims are public (the knowledge array keeps each position's
    last one), so this is card counting over what everybody said as well as saw."""
    held = 0
    for p in range(rules[k.R_N]):
        if p == pos:
            continue
        c = _known(know, seat, p)
        if c == said:
            held += 1
        elif c < 0 and know[ab.K_CLAIM + p] == said and (_mask(know, seat, p) >> said) & 1:
            held += 1
    return held >= rules[k.R_COUNTS + said]


@jit
def _p_claim_true(rules, know, seat, pos, said):
    """P(the card at `pos` is `said`) by card counting: 0 if `seat` has ruled it out or
    has located every copy elsewhere, 1 if it knows it there, else the copies it has not
    located shared evenly among the positions it cannot place that may hold one."""
    mask = _mask(know, seat, pos)
    if not (mask >> said) & 1:
        return 0.0
    if mask == 1 << said:
        return 1.0
    left = rules[k.R_COUNTS + said]
    open_places = 0
    for p in range(rules[k.R_N]):
        c = _known(know, seat, p)
        if c == said:
            left -= 1
        elif c < 0 and (_mask(know, seat, p) >> said) & 1:
            open_places += 1
    if left <= 0:
        return 0.0
    return min(1.0, left / open_places)


# ----- weights over legal[:m] ---------------------------------------------------------
@jit
def _add(w, legal, m, action, weight):
    """Add `weight` to `action` if it is legal; return whether it is."""
    for i in range(m):
        if legal[i] == action:
            w[i] += weight
            return True
    return False


@jit
def _peek_unknown(state, rules, know, seat, legal, m, w):
    """Peek at a card it cannot place that cannot be a Traitor (every Traitor located
    elsewhere, or ruled out there); else any card it cannot place; else a known card
    other than a Traitor; else any face-down card."""
    n = rules[k.R_N]
    for i in range(m):
        a = legal[i]
        if (a < n and _known(know, seat, a) < 0
                and _p_claim_true(rules, know, seat, a, k.TRAITOR) == 0.0):
            w[i] = 1.0
    if w.sum() == 0:
        for i in range(m):
            a = legal[i]
            if a < n and _known(know, seat, a) < 0:
                w[i] = 1.0
    if w.sum() == 0:
        for i in range(m):
            a = legal[i]
            if a < n and _known(know, seat, a) != k.TRAITOR:
                w[i] = 1.0
    if w.sum() == 0:
        for i in range(m):
            if legal[i] < n:
                w[i] = 1.0


@jit
def _use_winning_leader(state, rules, know, seat, legal, m, w):
    """Use a face-up Robin or Sheriff whose target camp is fully located (no challenge:
    a sure win). Returns whether there is one."""
    n = rules[k.R_N]
    for i in range(m):
        a = legal[i]
        if n <= a < 2 * n:
            c = state[k.S_CARD + a - n]   # face up: public
            if (c == k.ROBIN or c == k.SHERIFF) and _unmask_wins(rules, know, seat, c):
                w[i] = 1.0
    return w.sum() > 0


@jit
def _peek_winning_leader(state, rules, know, seat, legal, m, w):
    """Peek at a face-down Robin or Sheriff it knows, whose target camp is fully located
    (it then announces it and wins, challenged or not). Returns whether there is one."""
    n = rules[k.R_N]
    for i in range(m):
        a = legal[i]
        if a < n:
            c = _known(know, seat, a)
            if (c == k.ROBIN or c == k.SHERIFF) and _unmask_wins(rules, know, seat, c):
                w[i] = 1.0
    return w.sum() > 0


@jit
def _popcount(x):
    """How many bits of x are set."""
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@jit
def _peek_least_known(state, rules, know, seat, legal, m, w):
    """The unmasker's peek: among the face-down cards it cannot place (those that cannot
    be a Traitor, if any), the ones with the most candidate characters, evenly; if it
    can place every face-down card, as _peek_unknown."""
    n = rules[k.R_N]
    safe = False
    for i in range(m):
        a = legal[i]
        if (a < n and _known(know, seat, a) < 0
                and _p_claim_true(rules, know, seat, a, k.TRAITOR) == 0.0):
            safe = True
    most = 0.0
    for i in range(m):
        a = legal[i]
        if a < n and _known(know, seat, a) < 0 and (
                not safe or _p_claim_true(rules, know, seat, a, k.TRAITOR) == 0.0):
            w[i] = _popcount(_mask(know, seat, a))
            most = max(most, w[i])
    for i in range(m):
        w[i] = 1.0 if most > 0 and w[i] == most else 0.0
    if w.sum() == 0:
        _peek_unknown(state, rules, know, seat, legal, m, w)


@jit
def _truth(card, base, legal, m, w):
    """The honest bot's announcement: the truth, silent on a Peasant; the Trickster
    forces a lie: Robin or the Sheriff, evenly."""
    if card == k.TRICKSTER:
        _add(w, legal, m, base + k.A_ANNOUNCE + k.ROBIN, 0.5)
        _add(w, legal, m, base + k.A_ANNOUNCE + k.SHERIFF, 0.5)
    elif card == k.PEASANT:
        _add(w, legal, m, base + k.A_SILENT, 1.0)
    else:
        _add(w, legal, m, base + k.A_ANNOUNCE + card, 1.0)


@jit
def _winning_claims(rules, know, seat, base, legal, m, w):
    """Claim every leader whose unmasking would surely win, evenly; returns whether any."""
    found = False
    for leader in (k.ROBIN, k.SHERIFF):
        if _unmask_wins(rules, know, seat, leader):
            found |= _add(w, legal, m, base + k.A_ANNOUNCE + leader, 1.0)
    return found


@jit
def _counting_lie(rules, know, seat, base, legal, m, w):
    """The counter's forced lie on the Trickster: a leader whose unmasking would surely
    win if not challenged; else the Peasant (no power, so nothing to go wrong); else
    Robin or the Sheriff, evenly."""
    if _winning_claims(rules, know, seat, base, legal, m, w):
        return
    if _add(w, legal, m, base + k.A_ANNOUNCE + k.PEASANT, 1.0):
        return
    _add(w, legal, m, base + k.A_ANNOUNCE + k.ROBIN, 0.5)
    _add(w, legal, m, base + k.A_ANNOUNCE + k.SHERIFF, 0.5)


@jit
def _behind(state, rules, seat):
    """Has `seat` more strikes than every other seat (public)?"""
    own = state[k.S_STRIKES + seat]
    for s in range(rules[k.R_PLAYERS]):
        if s != seat and state[k.S_STRIKES + s] >= own:
            return False
    return True


@jit
def _target_card_located(state, rules, know, seat, leader):
    """Has `seat` located a face-down card of `leader`'s target camp?"""
    target = _target(leader)
    for p in range(rules[k.R_N]):
        if not state[k.S_FACEUP + p]:
            c = _known(know, seat, p)
            if c >= 0 and k.in_camp(c, target):
                return True
    return False


@jit
def _peek_hoarded_leader(state, rules, know, seat, legal, m, w):
    """Peek at a face-down Robin or Sheriff it has located, one of whose target camp's
    face-down cards it has also located (it then announces it). Returns whether any."""
    n = rules[k.R_N]
    for i in range(m):
        a = legal[i]
        if a < n:
            c = _known(know, seat, a)
            if ((c == k.ROBIN or c == k.SHERIFF)
                    and _target_card_located(state, rules, know, seat, c)):
                w[i] = 1.0
    return w.sum() > 0


@jit
def _bluff_leader(rules, know, seat, card, base, legal, m, w):
    """leader_bluffer's claim: the leader whose target camp has fewer cards it cannot
    place; a tie: the peeked leader if it is one, else both evenly."""
    robin = _camp_unlocated(rules, know, seat, k.SHERIFF)
    sheriff = _camp_unlocated(rules, know, seat, k.ROBIN)
    if robin < sheriff or (robin == sheriff and card == k.ROBIN):
        ok = _add(w, legal, m, base + k.A_ANNOUNCE + k.ROBIN, 1.0)
    elif sheriff < robin or card == k.SHERIFF:
        ok = _add(w, legal, m, base + k.A_ANNOUNCE + k.SHERIFF, 1.0)
    else:
        ok = _add(w, legal, m, base + k.A_ANNOUNCE + k.ROBIN, 0.5)
        ok |= _add(w, legal, m, base + k.A_ANNOUNCE + k.SHERIFF, 0.5)
    if not ok:   # a deck without that leader: the other one
        _add(w, legal, m, base + k.A_ANNOUNCE + k.ROBIN, 1.0)
        _add(w, legal, m, base + k.A_ANNOUNCE + k.SHERIFF, 1.0)


@jit
def _after_peek(kind, params, state, rules, know, seat, legal, m, w):
    n = rules[k.R_N]
    base = 4 * n
    card = state[k.S_CARD + state[k.S_PEEK_POS]]   # the card it has just peeked
    leader = card == k.ROBIN or card == k.SHERIFF
    if (kind == TRUTHFUL_CHALLENGER or kind == THRESHOLD_CHALLENGER or kind == MIRROR
            or kind == PROPORTIONAL):
        _truth(card, base, legal, m, w)
    elif kind == CAREFUL or kind == UNMASKER:
        if card == k.TRICKSTER:
            _counting_lie(rules, know, seat, base, legal, m, w)
        elif leader and not _unmask_wins(rules, know, seat, card):
            _add(w, legal, m, base + k.A_SILENT, 1.0)
        else:
            _truth(card, base, legal, m, w)
    elif kind == LATE_BLUFFER:
        if state[k.S_STRIKES + seat] == 0:
            _truth(card, base, legal, m, w)
        else:
            _bluff_leader(rules, know, seat, card, base, legal, m, w)
    elif kind == PEEK_HOARDER:
        if leader and _target_card_located(state, rules, know, seat, card):
            _add(w, legal, m, base + k.A_ANNOUNCE + card, 1.0)
        elif not _add(w, legal, m, base + k.A_SILENT, 1.0):   # only the Trickster
            _truth(card, base, legal, m, w)
    elif kind == SILENT:
        if not _add(w, legal, m, base + k.A_SILENT, 1.0):   # only the Trickster
            _truth(card, base, legal, m, w)
    elif kind == COUNTER:
        if card == k.TRICKSTER:
            _counting_lie(rules, know, seat, base, legal, m, w)
        elif leader and _unmask_wins(rules, know, seat, card):
            _add(w, legal, m, base + k.A_ANNOUNCE + card, 1.0)
        else:
            _add(w, legal, m, base + k.A_SILENT, 1.0)
    elif kind == LEADER_BLUFFER:
        _bluff_leader(rules, know, seat, card, base, legal, m, w)
    elif kind == BAITER or kind == CLAIM_COUNTER or kind == PROVER or kind == DISRUPTOR:
        if card == k.TRICKSTER:
            _counting_lie(rules, know, seat, base, legal, m, w)
        elif leader and not _unmask_wins(rules, know, seat, card):
            _add(w, legal, m, base + k.A_SILENT, 1.0)
        else:
            _add(w, legal, m, base + k.A_ANNOUNCE + card, 1.0)   # Peasant included
    elif kind == TEMPO:
        # a sure unmasking if it has one; else the Companion (play again: another peek),
        # the Witch (a private look) in a deck without Companions, else the truth
        if leader and _unmask_wins(rules, know, seat, card):
            _add(w, legal, m, base + k.A_ANNOUNCE + card, 1.0)
        elif not _add(w, legal, m, base + k.A_ANNOUNCE + k.COMPANION, 1.0):
            if not _add(w, legal, m, base + k.A_ANNOUNCE + k.WITCH, 1.0):
                _truth(card, base, legal, m, w)


@jit
def _challenge_probability(kind, params, state, rules, know, seat):
    pos = state[k.S_PEEK_POS]
    said = state[k.S_ANNOUNCED]
    p_true = _p_claim_true(rules, know, seat, pos, said)
    knows_false = not (_mask(know, seat, pos) >> said) & 1
    if kind == TRUTHFUL_CHALLENGER:
        return 1.0 if said == k.ROBIN or said == k.SHERIFF or knows_false else 0.0
    if kind == SILENT or kind == LEADER_BLUFFER:
        return 1.0 if knows_false else 0.0
    if (kind == COUNTER or kind == TEMPO or kind == CAREFUL or kind == PEEK_HOARDER
            or kind == PROVER or kind == DISRUPTOR or kind == UNMASKER):
        return 1.0 if p_true == 0.0 else 0.0
    if kind == MIRROR:
        if _behind(state, rules, seat):
            return 0.0 if p_true == 1.0 else 1.0
        return 1.0 if knows_false else 0.0
    if kind == LATE_BLUFFER:
        return 1.0 if knows_false else 0.0
    if kind == PROPORTIONAL:
        return 1.0 - p_true
    if kind == CLAIM_COUNTER:
        return 1.0 if p_true == 0.0 or _over_claimed(rules, know, seat, pos, said) else 0.0
    if kind == THRESHOLD_CHALLENGER:
        return 1.0 if 1.0 - p_true > params[P_THRESHOLD] else 0.0
    # BAITER
    return 0.0 if p_true == 1.0 else 1.0


@jit
def _reveal(state, rules, know, seat, legal, m, w):
    """Reveal cards known to be in the target camp; else cards it cannot place that may
    be in it; else any card it cannot place; else any."""
    n = rules[k.R_N]
    target = _target(state[k.S_POWER])
    follower = k.COMPANION if target == k.ROBIN else k.DEPUTY
    camp_bits = (1 << target) | (1 << follower)
    for i in range(m):
        c = _known(know, seat, legal[i] - 2 * n)
        if c >= 0 and k.in_camp(c, target):
            w[i] = 1.0
    if w.sum() == 0:
        for i in range(m):
            p = legal[i] - 2 * n
            if _known(know, seat, p) < 0 and _mask(know, seat, p) & camp_bits:
                w[i] = 1.0
    if w.sum() == 0:
        for i in range(m):
            if _known(know, seat, legal[i] - 2 * n) < 0:
                w[i] = 1.0


@jit
def _pick(state, rules, know, seat, legal, m, w):
    """The Monk flips, the Witch looks at, a face-down card it cannot place; the Deputy's
    blind shuffle and the Innkeeper pick uniformly (w left empty)."""
    n = rules[k.R_N]
    power = state[k.S_POWER]
    if power == k.MONK or power == k.WITCH:
        for i in range(m):
            p = legal[i] - 3 * n
            if not state[k.S_FACEUP + p] and _known(know, seat, p) < 0:
                w[i] = 1.0


@jit
def _looked(know, seat, pos):
    """Has another seat looked at the card at `pos` since it last moved (as `seat` knows)?"""
    return know[ab.K_OTHER_LOOKED + seat * k.MAX_POSITIONS + pos] != 0


@jit
def _disrupt(state, rules, know, seat, legal, m, w):
    """The disruptor's picks. The Deputy and the Witch: a position another seat has
    looked at, a face-down one it cannot place first, then another face-down one, then
    a face-up one; with none left, a face-down card it cannot place. The Monk: a face-up
    card of a camp (flipped face down), else as _pick. The Innkeeper: uniform."""
    n = rules[k.R_N]
    power = state[k.S_POWER]
    if power == k.DEPUTY or power == k.WITCH:
        for tier in range(3):
            for i in range(m):
                p = legal[i] - 3 * n
                down = not state[k.S_FACEUP + p]
                if _looked(know, seat, p) and (
                        tier == 2 or (down and (tier == 1 or _known(know, seat, p) < 0))):
                    w[i] = 1.0
            if w.sum() > 0:
                return
        for i in range(m):
            p = legal[i] - 3 * n
            if not state[k.S_FACEUP + p] and _known(know, seat, p) < 0:
                w[i] = 1.0
    elif power == k.MONK:
        for i in range(m):
            p = legal[i] - 3 * n
            c = _known(know, seat, p)
            if state[k.S_FACEUP + p] and c >= 0 and (k.in_camp(c, k.ROBIN)
                                                     or k.in_camp(c, k.SHERIFF)):
                w[i] = 1.0
        if w.sum() == 0:
            _pick(state, rules, know, seat, legal, m, w)


@jit
def _league_probs(kind, params, state, rules, know, seat, legal, m, out):
    """Probabilities of the legal actions legal[:m] for the league player `kind` in
    `seat`, written into out[:m] (docs/bots.md)."""
    n = rules[k.R_N]
    phase = state[k.S_PHASE]
    w = np.zeros(m, dtype=np.float64)
    if phase == k.PH_TURN:
        if (kind == COUNTER or kind == BAITER or kind == TEMPO or kind == CLAIM_COUNTER
                or kind == PROVER or kind == DISRUPTOR or kind == UNMASKER):
            if not _use_winning_leader(state, rules, know, seat, legal, m, w):
                if not _peek_winning_leader(state, rules, know, seat, legal, m, w):
                    if kind == UNMASKER:
                        _peek_least_known(state, rules, know, seat, legal, m, w)
                    else:
                        _peek_unknown(state, rules, know, seat, legal, m, w)
        elif kind == PEEK_HOARDER:
            if not _peek_hoarded_leader(state, rules, know, seat, legal, m, w):
                _peek_unknown(state, rules, know, seat, legal, m, w)
        else:
            _peek_unknown(state, rules, know, seat, legal, m, w)
        if w.sum() == 0:
            # nothing face down: every camp is face up, so a leader wins if used
            _use_winning_leader(state, rules, know, seat, legal, m, w)
    elif phase == k.PH_AFTER_PEEK:
        _after_peek(kind, params, state, rules, know, seat, legal, m, w)
    elif phase == k.PH_RESPOND:
        challenge = _challenge_probability(kind, params, state, rules, know, seat)
        base = 4 * n
        for i in range(m):
            w[i] = challenge if legal[i] == base + k.A_CHALLENGE else 1.0 - challenge
    elif phase == k.PH_REVEAL:
        _reveal(state, rules, know, seat, legal, m, w)
    elif phase == k.PH_PICK:
        if kind == DISRUPTOR:
            _disrupt(state, rules, know, seat, legal, m, w)
        else:
            _pick(state, rules, know, seat, legal, m, w)
    elif phase == k.PH_WITCH_CHOICE:
        # the disruptor swaps a card others have seen away from where they saw it
        if kind == DISRUPTOR and _looked(know, seat, state[k.S_PICK]):
            _add(w, legal, m, 4 * n + k.A_SWAP, 1.0)
        else:
            _add(w, legal, m, 4 * n + k.A_KEEP, 1.0)
    # PH_NAME (team mode only): uniform
    _spread(out, legal, m, w)
