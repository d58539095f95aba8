"""The sound default (docs/sound-play.md): every decision by its one-step expected value
under the seat's belief about the cards, at any table size.

- **Belief**: solver.knowledge's exact marginals of the seat's candidate masks, the
  deck's counts and the public claims, each claim weighted by a likelihood ratio:
  P_CLAIM_WEIGHT at two seats, P_CLAIM_WEIGHT_MANY beyond (`_claim_weight`), where the
  default bluffs only when forced and a claim is near proof; there a claim of the
  Trickster's likeliest lie also counts for the Trickster at its position, P_TRICKSTER_LIE
  of that weight (`_lie_share`: a peeked Trickster must lie), unless the claim was made
  over the public count.
- **Values**: a round's value for a seat from the lives (strikes left) at the table:
  its side wins with the share of the lives it holds (payoff +1 for a win, -1/(N-1)
  for a loss, -1 for a team's loss). A strike's value is the change it makes.
- **Responses**: challenge when the belief that the claim is false, q, exceeds the
  claim's break-even S_me / (S_me + S_claimant + W): S_me what the responder loses by a
  strike (a true claim), S_claimant what it gains by the claimant's (a false one), W
  what the claim's power costs it when it runs (it runs unless a false claim is caught;
  `_break_even` has the case of a strike that eliminates the responder). Below it, at
  two seats, when a claimant who made this claim from every other card would be false often
  enough to pay (the claim's own evidence taken out), challenge at the deterring rate
  G / (G + S): G what the claim's power is worth to the claimant, S its strike, so that
  a bluff gains it nothing on average (`_deterrence`). A claim whose power is worth
  nothing to its claimant (the Peasant) is challenged only when the seat knows it false:
  nobody gains by making it falsely, so the claim's evidence outweighs any share of the
  belief. A partner's claim is never challenged.
- **After a peek**: silent, the truth or another claim, whichever is worth most, each
  claim's chance of being challenged taken from the same rule as the other seats would
  apply it to what is public (and to what they saw, where they looked). Then, at two
  seats and where no other seat has looked at the card, each claim whose power is worth something gets
  the equilibrium bluff rate: r = b p / ((1 - b)(1 - p)) (p the public belief in that
  character there, b the least break-even of the other seats) over 1 + the sum of the
  r, the rate at which a challenge of that claim just breaks even when the card's own
  holders tell the truth only as often as they do not bluff; the rest stays on the
  chosen action (`_mix_bluffs`). A peeked Trickster lies in the same proportions. Two
  settings can narrow the bluffs (both off by default, docs/sound-play.md: each wins
  head to head and loses to the local best response): P_BLUFF_WORTH, the most the
  card's own best announcement may be worth, and P_BLUFF_EXPOSURE, the most of the
  claimed character's copies the other seats may be able to place (`_exposure`).
- **Turns and powers**: sure wins first; peek the card it knows least; unmask the
  likeliest cards of the target camp; shuffle with the Deputy the cards others have
  looked at; look with the Witch where its own knowledge is weakest.

Its settings are one small array (`P_*`, SOUND_DEFAULTS when it is a table's fallback).
"""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from solver.knowledge import kernels as ab

from ._helpers import _known, _spread
from ._league import (_add, _peek_winning_leader, _target, _unmask_wins,
                      _use_winning_leader)

SOUND = 30
P_CLAIM_WEIGHT = 0     # the likelihood ratio of a claim in the belief
P_TEMPO = 1            # what an extra turn (the Companion) is worth, payoff units
P_POWER_VALUE = 2      # what the Monk's, Witch's, Deputy's or Innkeeper's power is worth
P_BLUFF_CAUGHT = 3     # the least chance it gives a false claim of its own of being caught
P_DETER = 4            # the share of the deterring challenge rate it plays (0: never below
                       # the break-even)
P_BLUFF_SHARE = 5            # the share of the equilibrium bluff rate it plays after a peek
P_BLUFF_WORTH = 6      # the most a card's own best announcement may be worth for it to bluff
P_BLUFF_EXPOSURE = 7   # the most of a claim's copies the responder may place for a bluff of it
P_CLAIM_WEIGHT_MANY = 8  # the claim weight beyond two seats, where nobody bluffs by choice
P_TRICKSTER_LIE = 9    # beyond two seats, the Trickster's share of its likeliest lie
NUM_SOUND_PARAMS = 10
SOUND_DEFAULTS = np.array([ab.DEFAULT_CLAIM_WEIGHT, 0.2, 0.1, 0.75, 1.0, 1.0, 1e6, 1.0,
                           96.0, 0.5])


# ----- values ---------------------------------------------------------------------------
@jit
def _lives(state, rules, lives):
    """Strikes left per seat (0 once eliminated) into lives[:players]."""
    for s in range(rules[k.R_PLAYERS]):
        lives[s] = max(rules[k.R_STRIKES] - state[k.S_STRIKES + s], 0)


@jit
def _side(rules, a, b):
    """Are seats a and b on one side (the same seat, or partners in team mode)?"""
    return a == b or (rules[k.R_TEAMS] > 0 and a % 2 == b % 2)


@jit
def _side_lives(rules, lives, seat):
    """The lives `seat`'s side holds: its own, with its partner's in team mode."""
    total = 0.0
    for s in range(rules[k.R_PLAYERS]):
        if _side(rules, s, seat):
            total += lives[s]
    return total


@jit
def _value(rules, lives, seat):
    """`seat`'s value of the round when each side wins with the share of the table's
    lives it holds (module docstring)."""
    players = rules[k.R_PLAYERS]
    total = 0.0
    for s in range(players):
        total += lives[s]
    mine = _side_lives(rules, lives, seat)
    if total <= 0.0:
        return 0.0
    p = mine / total
    loss = 1.0 if rules[k.R_TEAMS] > 0 else 1.0 / (players - 1)
    return p - (1.0 - p) * loss


@jit
def _after_strike(rules, lives, seat, victim):
    """`seat`'s value once `victim` takes a strike."""
    lives[victim] -= 1
    v = _value(rules, lives, seat)
    lives[victim] += 1
    return v


@jit
def _lost(rules, seat):
    """`seat`'s payoff when another side completes an unmasking."""
    return -1.0 if rules[k.R_TEAMS] > 0 or rules[k.R_PLAYERS] == 2 else \
        -1.0 / (rules[k.R_PLAYERS] - 1)


@jit
def _camp_share(belief, p, leader):
    """P(the card at p is in the camp `leader`'s power unmasks)."""
    target = _target(leader)
    follower = k.COMPANION if target == k.ROBIN else k.DEPUTY
    return belief[p, target] + belief[p, follower]


@jit
def _my_unmasking(state, rules, belief, leader):
    """P(an unmasking by `leader`'s power, run now by the seat whose belief this is,
    finds every face-down card of the target camp without a miss): it reveals the cards
    it knows first, then guesses the likeliest ones (the product of the largest shares,
    as if independent)."""
    n = rules[k.R_N]
    target = _target(leader)
    follower = k.COMPANION if target == k.ROBIN else k.DEPUTY
    needed = rules[k.R_COUNTS + target] + rules[k.R_COUNTS + follower]
    shares = np.zeros(n, dtype=np.float64)
    for p in range(n):
        s = _camp_share(belief, p, leader)
        if state[k.S_FACEUP + p]:
            needed -= round(s)
        elif s >= 1.0 - 1e-12:
            needed -= 1
        else:
            shares[p] = s
    chance = 1.0
    for _ in range(max(needed, 0)):
        best = 0
        for p in range(n):
            if shares[p] > shares[best]:
                best = p
        chance *= shares[best]
        shares[best] = 0.0
    return chance


@jit
def _their_unmasking(state, rules, know, seat, belief, leader):
    """P(another seat's unmasking by `leader`'s power succeeds), as `seat` sees it: it
    needs every face-down card of the target camp at a position some other seat has
    looked at (the knowledge array's look marks); guesses are not counted."""
    chance = 1.0
    for p in range(rules[k.R_N]):
        if not state[k.S_FACEUP + p] and \
                know[ab.K_OTHER_LOOKED + seat * k.MAX_POSITIONS + p] == 0:
            chance *= 1.0 - _camp_share(belief, p, leader)
    return chance


@jit
def _power_gain(settings, state, rules, lives, seat, actor, power, unmask_chance):
    """What `power` running for `actor` is worth to `seat` (negative when it costs it):
    an unmasking succeeds with `unmask_chance` (a win for the actor's side) and otherwise
    costs the actor a strike; the Companion's extra turn and the other powers are
    worth their settings to the side that runs them."""
    now = _value(rules, lives, seat)
    sign = 1.0 if _side(rules, seat, actor) else -1.0
    if power == k.ROBIN or power == k.SHERIFF:
        win = 1.0 if sign > 0 else _lost(rules, seat)
        return (unmask_chance * (win - now)
                + (1.0 - unmask_chance) * (_after_strike(rules, lives, seat, actor) - now))
    if power == k.COMPANION:
        return sign * settings[P_TEMPO]
    if power == k.MONK or power == k.WITCH or power == k.DEPUTY or power == k.INNKEEPER:
        return sign * settings[P_POWER_VALUE]
    return 0.0


@jit
def _break_even(rules, lives, seat, claimant, power_cost):
    """The challenge break-even of `seat` against `claimant`'s claim (module docstring):
    the belief that it is false above which a challenge gains on average; 1 (never)
    when nothing can be gained. `power_cost` is W, what the claim's power costs `seat`
    when it runs. Challenging a true claim costs a strike and the power still runs, unless
    that strike puts `seat`'s side out, whose round is then lost whatever the power does:
    q > (S_me - (1 - kappa) W) / (S_me + S_claimant + kappa W), kappa 1 if `seat`'s
    side survives its strike, else 0 (docs/sound-play.md derives it). In teams a seat
    eliminated while its partner plays on still cares what the power does: there kappa
    is 1 (with 0, a Companion's extra turn, worth more than the seat's last strike,
    made every claim worth a challenge, true ones included)."""
    now = _value(rules, lives, seat)
    s_me = now - _after_strike(rules, lives, seat, seat)
    s_them = _after_strike(rules, lives, seat, claimant) - now
    kappa = 1.0 if _side_lives(rules, lives, seat) > 1 else 0.0
    total = s_me + s_them + kappa * power_cost
    if total <= 0.0:
        return 1.0
    return min(max((s_me - (1.0 - kappa) * power_cost) / total, 0.0), 1.0)


# ----- responses ---------------------------------------------------------------------------
@jit
def _claim_false(belief, pos, said):
    return 1.0 - belief[pos, said]


@jit
def _challenge(settings, state, rules, know, seat, belief, lives):
    """1.0 to challenge the claim on the table, else 0.0 (module docstring)."""
    claimant = state[k.S_ACTOR]
    if _side(rules, seat, claimant):
        return 0.0
    pos = state[k.S_PEEK_POS]
    said = state[k.S_ANNOUNCED]
    q = _claim_false(belief, pos, said)
    if q <= 0.0:
        return 0.0
    if q >= 1.0:
        return 1.0
    chance = 0.0
    if said == k.ROBIN or said == k.SHERIFF:
        chance = _their_unmasking(state, rules, know, seat, belief, said)
    cost = -_power_gain(settings, state, rules, lives, seat, claimant, said, chance)
    return _challenge_rate(settings, state, rules, lives, seat, claimant, said, chance,
                           q, _break_even(rules, lives, seat, claimant, cost))


@jit
def _challenge_rate(settings, state, rules, lives, seat, claimant, said, chance, q, b):
    """How often `seat` challenges a claim it believes false with probability q (the
    claim's evidence counted) against its break-even b: always above b; below it, the
    deterring rate where a claimant who made this claim from every other card would be
    false more often than b (the prior q0, the claim's weight taken out of q: with
    weight w, p_w = w p0 / (w p0 + 1 - p0)), else never. A claim whose power is worth
    nothing to its claimant (the Peasant's) is never challenged short of proof: a false
    one gains its claimant nothing, so only a forced lie makes one, and a forced lie
    told there gains no more than one told on a claim held at its deterring rate."""
    if q < 1.0 and said != k.ROBIN and said != k.SHERIFF and _power_gain(
            settings, state, rules, lives, claimant, claimant, said, chance) <= 0.0:
        return 0.0
    if q > b:
        return 1.0
    if not _two_sides_of_one(rules):
        return 0.0
    w = _claim_weight(settings, rules)
    p = 1.0 - q
    prior_false = 1.0 - p / (p + w * (1.0 - p))
    if prior_false <= b:
        return 0.0
    return min(_deterrence(settings, state, rules, lives, claimant, said, chance), 1.0)


@jit
def _two_sides_of_one(rules):
    """Two seats, no teams: where the deterring rate and the equilibrium bluffs apply.
    With more seats a challenge's strike falls on the challenger alone while the
    deterrence it buys helps every other seat, and a bluff meets several challengers;
    measured at four players, the two lost to 7 of the 20 scripted and held-out
    players in some seat (docs/sound-play.md), so there the threshold rule alone
    answers claims and the default does not bluff by choice."""
    return rules[k.R_PLAYERS] == 2 and rules[k.R_TEAMS] == 0


@jit
def _claim_weight(settings, rules):
    """The likelihood ratio of a public claim in the belief: P_CLAIM_WEIGHT at two
    seats, where the default bluffs at its equilibrium rates; P_CLAIM_WEIGHT_MANY beyond,
    where it tells the truth but for a forced lie (`_two_sides_of_one`), so that a claim
    is near proof. With the two-seat weight there, the default challenged true claims
    of single-copy characters (a Monk, Witch or Innkeeper claim believed false about
    45% of the time, against a break-even of 37% in teams) and a team forbidden to
    challenge won 10-12 points more (docs/sound-play.md, "Beyond two seats")."""
    if _two_sides_of_one(rules):
        return settings[P_CLAIM_WEIGHT]
    return settings[P_CLAIM_WEIGHT_MANY]


@jit
def _lie_share(settings, rules, said):
    """The share of a claim's weight that also counts for the Trickster at its position
    when the claim is of `said` (the belief's liar[said]): 0 at two seats, where the
    claim weight already prices the bluffs of the equilibrium rates. Beyond, where the
    only lies are forced, a peeked Trickster lies as the default does: with the claim
    worth most to its maker among the followers and powers the deck holds (the
    Companion's extra turn at the default values: 72% of its lies in team self-play),
    which gets P_TRICKSTER_LIE; the other claims 0. With none, a Trickster's Companion
    lie placed a Companion copy at the Trickster, and a later true Companion claim was
    challenged with a precision of 1% in team self-play (docs/sound-play.md, "The
    Trickster's lie")."""
    if _two_sides_of_one(rules) or said == k.ROBIN or said == k.SHERIFF:
        return 0.0
    best = 0.0
    for c in range(k.NUM_CHARACTERS):
        if c != k.ROBIN and c != k.SHERIFF and rules[k.R_COUNTS + c] > 0:
            best = max(best, _claim_worth(settings, c))
    if best <= 0.0 or _claim_worth(settings, said) < best:
        return 0.0
    return settings[P_TRICKSTER_LIE]


@jit
def _claim_worth(settings, said):
    """What running the power of a follower or a non-leader character is worth to its
    maker, by the settings (`_power_gain` for the maker itself)."""
    if said == k.COMPANION:
        return settings[P_TEMPO]
    if said == k.MONK or said == k.WITCH or said == k.DEPUTY or said == k.INNKEEPER:
        return settings[P_POWER_VALUE]
    return 0.0


@jit
def _liar(settings, rules):
    """The belief's liar array: `_lie_share` of every claimed character."""
    liar = np.zeros(k.NUM_CHARACTERS, dtype=np.float64)
    for c in range(k.NUM_CHARACTERS):
        liar[c] = _lie_share(settings, rules, c)
    return liar


@jit
def _deterrence(settings, state, rules, lives, claimant, said, chance):
    """The challenge rate at which a false claim of `said` gains `claimant` nothing on
    average: its power is worth G to it when it runs, a caught bluff costs it its
    strike S, so (1 - c) G = c S and c = G / (G + S), times P_DETER; 0 when the power
    is worth nothing to it."""
    gain = _power_gain(settings, state, rules, lives, claimant, claimant, said, chance)
    if gain <= 0.0:
        return 0.0
    strike = _value(rules, lives, claimant) - _after_strike(rules, lives, claimant,
                                                            claimant)
    return settings[P_DETER] * gain / (gain + strike)


# ----- after a peek ----------------------------------------------------------------------------
@jit
def _caught(settings, state, rules, know, seat, public, lives, pos, said, truth, my_chance):
    """The chance that a claim of `said` at `pos` by `seat` is challenged, as the other
    seats would decide by the sound rule (`_challenge_rate`, the likeliest challenger's):
    a seat that has looked at the card (the look mark says some other seat has) knows
    whether it is true; the others weigh the public belief by the claim. A false claim
    is caught at least P_BLUFF_CAUGHT of the time."""
    weight = _claim_weight(settings, rules)
    false = said != truth
    if know[ab.K_OTHER_LOOKED + seat * k.MAX_POSITIONS + pos]:
        return 1.0 if false else 0.0
    prior = public[pos, said]
    trickster = 0.0    # P(the Trickster there), when the claim is evidence for it too
    share = _lie_share(settings, rules, said)
    if share > 0.0 and not ab.over_count(state, rules, know, pos, said):
        trickster = public[pos, k.TRICKSTER]
    q = 0.0
    if prior < 1.0:
        held = prior * weight
        q = 1.0 - held / (held + trickster * weight * share
                          + max(1.0 - prior - trickster, 0.0))
    caught = 0.0
    for other in range(rules[k.R_PLAYERS]):
        if _side(rules, other, seat) or lives[other] <= 0:
            continue
        cost = -_power_gain(settings, state, rules, lives, other, seat, said, my_chance)
        b = _break_even(rules, lives, other, seat, cost)
        caught = max(caught, _challenge_rate(settings, state, rules, lives, other, seat,
                                             said, my_chance, q, b))
    if false:
        caught = max(caught, settings[P_BLUFF_CAUGHT])
    return caught


@jit
def _announce_values(settings, state, rules, know, seat, belief, public, lives, legal, m,
                     values):
    """values[i]: the worth of legal[i] after a peek, silent being 0 (module docstring);
    `public` is the public belief (what a seat that has not looked knows)."""
    n = rules[k.R_N]
    base = 4 * n
    pos = state[k.S_PEEK_POS]
    truth = _known(know, seat, pos)    # the card it has just peeked
    now = _value(rules, lives, seat)
    for i in range(m):
        code = legal[i] - base
        values[i] = 0.0
        if code < k.A_ANNOUNCE or code >= k.A_CHALLENGE:
            continue   # silent
        said = code - k.A_ANNOUNCE
        chance = 0.0
        if said == k.ROBIN or said == k.SHERIFF:
            chance = 1.0 if _unmask_wins(rules, know, seat, said) else \
                _my_unmasking(state, rules, belief, said)
        gain = _power_gain(settings, state, rules, lives, seat, seat, said, chance)
        caught = _caught(settings, state, rules, know, seat, public, lives, pos, said,
                         truth, chance)
        if said == truth:   # a challenger pays a strike, and the power runs anyway
            punish = 0.0
            for other in range(rules[k.R_PLAYERS]):
                if not _side(rules, other, seat) and lives[other] > 0:
                    punish = max(punish, _after_strike(rules, lives, seat, other) - now)
            values[i] = gain + caught * punish
        else:
            values[i] = (1.0 - caught) * gain - caught * (
                now - _after_strike(rules, lives, seat, seat))


@jit
def _mix_bluffs(settings, state, rules, know, seat, belief, public, lives, legal, m, truth,
                w, values):
    """Move the equilibrium bluff rate onto each claim but the truth and the leaders
    whose power is worth something to `seat` (module docstring). A claim of X at a card
    that is X with public belief p is false with probability (1 - p) beta / ((1 - p)
    beta + p t) when every other card bluffs X at rate beta and an X tells the truth at
    rate t; that equals b, the least break-even of the other seats, at beta = r t with
    r = b p / ((1 - b)(1 - p)). With t = 1 - the sum of the betas (a card bluffs as
    often as it does not tell the truth), t = 1 / (1 + sum r) and beta = r / (1 + sum r),
    times P_BLUFF_SHARE. Only where no other seat has looked at the card (one that has would
    know the lie); the rest stays on w's choice. A peeked Trickster, which must lie,
    lies in the proportions of the rates, so that its lies do not all fall on the one
    claim least likely to be challenged (which a reader of the strategy would then
    challenge). `values` are the legal actions' worths (`_announce_values`): no bluff
    when w's choice is worth more than P_BLUFF_WORTH, and none of a claim whose
    `_exposure` is above P_BLUFF_EXPOSURE (the Trickster's forced lie keeps the first)."""
    pos = state[k.S_PEEK_POS]
    if (know[ab.K_OTHER_LOOKED + seat * k.MAX_POSITIONS + pos]
            or settings[P_BLUFF_SHARE] <= 0.0 or not _two_sides_of_one(rules)):
        return
    base = 4 * rules[k.R_N]
    if truth != k.TRICKSTER:
        chosen_worth = -1e300
        for i in range(m):
            if w[i] > 0.0:
                chosen_worth = max(chosen_worth, values[i])
        if chosen_worth > settings[P_BLUFF_WORTH] + 1e-9:
            return
    rates = np.zeros(m, dtype=np.float64)
    total = 0.0
    for i in range(m):
        code = legal[i] - base
        if code < k.A_ANNOUNCE or code >= k.A_CHALLENGE:
            continue
        said = code - k.A_ANNOUNCE
        if said == truth or said == k.ROBIN or said == k.SHERIFF:
            continue
        gain = _power_gain(settings, state, rules, lives, seat, seat, said, 0.0)
        p = public[pos, said]
        if gain <= 0.0 or p <= 0.0 or p >= 1.0:
            continue
        if _exposure(state, rules, know, seat, belief, pos, said) > \
                settings[P_BLUFF_EXPOSURE] + 1e-9:
            continue
        b = 1.0
        for other in range(rules[k.R_PLAYERS]):
            if _side(rules, other, seat) or lives[other] <= 0:
                continue
            cost = -_power_gain(settings, state, rules, lives, other, seat, said, 0.0)
            b = min(b, _break_even(rules, lives, other, seat, cost))
        if b >= 1.0:
            continue
        rates[i] = settings[P_BLUFF_SHARE] * b * p / ((1.0 - b) * (1.0 - p))
        total += rates[i]
    if total <= 0.0:
        return
    if truth == k.TRICKSTER:   # a forced lie: the bluffs' own mix, so no claim carries it
        for i in range(m):
            w[i] = rates[i]
        return
    truth_rate = 1.0 / (1.0 + total)
    chosen = 0.0
    for i in range(m):
        chosen += w[i]
    for i in range(m):
        w[i] = w[i] / chosen * truth_rate + rates[i] * truth_rate


@jit
def _exposure(state, rules, know, seat, belief, pos, said):
    """The share of the copies of `said` that the other seats can place away from `pos`,
    as `seat` expects it: its belief of `said` summed over the face-up cards and the
    cards some other seat has looked at. A bluff of a character whose copies the
    responder has located is one it knows false."""
    copies = rules[k.R_COUNTS + said]
    if copies <= 0:
        return 1.0
    located = 0.0
    for p in range(rules[k.R_N]):
        if p != pos and (state[k.S_FACEUP + p]
                         or know[ab.K_OTHER_LOOKED + seat * k.MAX_POSITIONS + p]):
            located += belief[p, said]
    return located / copies


@jit
def _best(values, legal, m, prefer, w):
    """Weight 1 on the legal actions of the largest value (within 1e-9), only `prefer`
    among them if it is one."""
    top = -1e300
    for i in range(m):
        top = max(top, values[i])
    for i in range(m):
        if values[i] >= top - 1e-9 and legal[i] == prefer:
            w[i] = 1.0
            return
    for i in range(m):
        if values[i] >= top - 1e-9:
            w[i] = 1.0


# ----- turns and powers ------------------------------------------------------------------------
@jit
def _uncertainty(belief, p):
    """1 - the largest probability of any character at p (0 for a card it knows)."""
    top = 0.0
    for c in range(k.NUM_CHARACTERS):
        top = max(top, belief[p, c])
    return 1.0 - top


@jit
def _peek_least_known(state, rules, know, seat, belief, legal, m, w):
    """Peek at the face-down card it knows least, among those that cannot be a Traitor
    when there are such; ties evenly."""
    n = rules[k.R_N]
    best = -1.0
    safe = False
    for i in range(m):
        a = legal[i]
        if a < n and belief[a, k.TRAITOR] == 0.0 and _known(know, seat, a) < 0:
            safe = True
    for i in range(m):
        a = legal[i]
        if a < n and (not safe or belief[a, k.TRAITOR] == 0.0):
            best = max(best, _uncertainty(belief, a))
    for i in range(m):
        a = legal[i]
        if a < n and (not safe or belief[a, k.TRAITOR] == 0.0) and \
                _uncertainty(belief, a) >= best - 1e-12 and best > 0.0:
            w[i] = 1.0


@jit
def _turn(settings, state, rules, know, seat, belief, lives, legal, m, w):
    n = rules[k.R_N]
    if _use_winning_leader(state, rules, know, seat, legal, m, w):
        return
    if _peek_winning_leader(state, rules, know, seat, legal, m, w):
        return
    # a face-up leader whose unmasking is worth more than a turn (no challenge)
    best = settings[P_TEMPO]
    for i in range(m):
        a = legal[i]
        if n <= a < 2 * n:
            c = state[k.S_CARD + a - n]
            if c == k.ROBIN or c == k.SHERIFF:
                gain = _power_gain(settings, state, rules, lives, seat, seat, c,
                                   _my_unmasking(state, rules, belief, c))
                best = max(best, gain)
    for i in range(m):
        a = legal[i]
        if n <= a < 2 * n:
            c = state[k.S_CARD + a - n]
            if (c == k.ROBIN or c == k.SHERIFF) and _power_gain(
                    settings, state, rules, lives, seat, seat, c,
                    _my_unmasking(state, rules, belief, c)) >= best > settings[P_TEMPO]:
                w[i] = 1.0
    if w.sum() > 0:
        return
    _peek_least_known(state, rules, know, seat, belief, legal, m, w)
    if w.sum() == 0:   # nothing left to learn: any face-down card but a Traitor
        for i in range(m):
            if legal[i] < n and _known(know, seat, legal[i]) != k.TRAITOR:
                w[i] = 1.0


@jit
def _reveal(state, rules, belief, legal, m, w):
    """Reveal the likeliest card of the target camp (a known one first)."""
    n = rules[k.R_N]
    leader = state[k.S_POWER]
    best = -1.0
    for i in range(m):
        best = max(best, _camp_share(belief, legal[i] - 2 * n, leader))
    for i in range(m):
        if _camp_share(belief, legal[i] - 2 * n, leader) >= best - 1e-12:
            w[i] = 1.0


@jit
def _pick(state, rules, know, seat, belief, legal, m, w):
    """The power's target (module docstring): the Deputy the cards others have looked
    at (those it cannot place first), the Witch the card it knows least (one others have
    looked at first), the Monk a card it cannot place, most likely in a camp, face up;
    the Innkeeper the card it knows of the most use (a leader, then a camp card)."""
    n = rules[k.R_N]
    power = state[k.S_POWER]
    score = np.full(m, -1.0)
    for i in range(m):
        p = legal[i] - 3 * n
        looked = know[ab.K_OTHER_LOOKED + seat * k.MAX_POSITIONS + p] > 0
        unknown = _known(know, seat, p) < 0
        if power == k.DEPUTY:
            score[i] = 2.0 * looked + unknown + 0.1 * _uncertainty(belief, p)
        elif power == k.WITCH:
            score[i] = _uncertainty(belief, p) + 0.5 * looked if unknown else 0.0
        elif power == k.MONK:
            if not state[k.S_FACEUP + p] and unknown:
                score[i] = (_camp_share(belief, p, k.ROBIN)
                            + _camp_share(belief, p, k.SHERIFF))
        elif power == k.INNKEEPER:
            c = _known(know, seat, p)
            if c >= 0 and not state[k.S_FACEUP + p]:
                score[i] = 3.0 if c == k.ROBIN or c == k.SHERIFF else (
                    2.0 if c == k.COMPANION or c == k.DEPUTY else 1.0)
    best = score.max()
    if best < 0.0:
        return   # uniform
    for i in range(m):
        if score[i] >= best - 1e-12:
            w[i] = 1.0


@jit
def _name(state, rules, know, seat, legal, m, w):
    """The Innkeeper names the character it knows at its pick (else uniformly)."""
    c = _known(know, seat, state[k.S_PICK])
    if c >= 0:
        _add(w, legal, m, 4 * rules[k.R_N] + k.A_NAME + c, 1.0)


@jit
def _sound_probs(settings, state, rules, know, seat, legal, m, out):
    """Probabilities of the legal actions legal[:m] for the sound default in `seat`,
    written into out[:m] (module docstring); `settings` is indexed by P_*."""
    n = rules[k.R_N]
    phase = state[k.S_PHASE]
    w = np.zeros(m, dtype=np.float64)
    belief = np.empty((n, k.NUM_CHARACTERS), dtype=np.float64)
    weight = _claim_weight(settings, rules)
    liar = _liar(settings, rules)
    ab.belief(rules, know, seat, weight, liar, belief)
    lives = np.zeros(k.MAX_PLAYERS, dtype=np.float64)
    _lives(state, rules, lives)
    if phase == k.PH_TURN:
        _turn(settings, state, rules, know, seat, belief, lives, legal, m, w)
    elif phase == k.PH_AFTER_PEEK:
        values = np.zeros(m, dtype=np.float64)
        public = np.empty((n, k.NUM_CHARACTERS), dtype=np.float64)
        ab.public_belief(rules, state, know, weight, liar, public)
        _announce_values(settings, state, rules, know, seat, belief, public, lives, legal,
                         m, values)
        truth = _known(know, seat, state[k.S_PEEK_POS])
        _best(values, legal, m, 4 * n + k.A_ANNOUNCE + truth, w)
        _mix_bluffs(settings, state, rules, know, seat, belief, public, lives, legal, m,
                    truth, w, values)
    elif phase == k.PH_RESPOND:
        challenge = _challenge(settings, state, rules, know, seat, belief, lives)
        for i in range(m):
            w[i] = challenge if legal[i] == 4 * n + k.A_CHALLENGE else 1.0 - challenge
    elif phase == k.PH_REVEAL:
        _reveal(state, rules, belief, legal, m, w)
    elif phase == k.PH_PICK:
        _pick(state, rules, know, seat, belief, legal, m, w)
    elif phase == k.PH_WITCH_CHOICE:
        _add(w, legal, m, 4 * n + k.A_KEEP, 1.0)
    elif phase == k.PH_NAME:
        _name(state, rules, know, seat, legal, m, w)
    _spread(out, legal, m, w)
