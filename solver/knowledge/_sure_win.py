"""Sure wins: decisions where one legal action wins the round whatever anyone does next.

Robin's power unmasks the Sheriff's camp and the Sheriff's unmasks Robin's (docs/rules.md,
"Powers"): when a seat has located every card of the target camp (it knows each one's
position, face up or down), running that power reveals only camp cards and wins. The
power runs, for sure, in three ways:
- `use` a face-up Robin or Sheriff (a used card is never challenged);
- having peeked Robin or the Sheriff, `announce` it: unchallenged, the power runs;
  challenged, the claim is true, the challenger takes a strike and the power runs;
- `peek` a face-down Robin or Sheriff it has located (it then announces it, as above);
and during the unmasking, `reveal` a located card of the target camp.

A win is the best payoff a seat can get, so taking it is optimal in every strategy of
every player (a sure win's value is the game's maximum): training and table agents play
it with probability 1 instead of learning it, which is exact, not an approximation.
The seat's knowledge is the abstraction's (`K_CAND`: the characters each position may
hold, after blind shuffles and swaps); nothing here reads a hidden card.
"""

from __future__ import annotations

from game_def import kernels as k
from game_def.kernels import jit

from ._kernels import K_CAND, _exact


@jit
def _located(know, seat, pos):
    """The character `seat` knows at `pos`, or -1 (several candidates)."""
    return _exact(know[K_CAND + seat * k.MAX_POSITIONS + pos])


@jit
def _target_located(rules, know, seat, leader):
    """Has `seat` located every card of the camp that `leader`'s power unmasks?
    (False for a leader the deck does not hold: it cannot be used or peeked.)"""
    if rules[k.R_COUNTS + leader] == 0:
        return False
    target = k.SHERIFF if leader == k.ROBIN else k.ROBIN
    follower = k.COMPANION if target == k.ROBIN else k.DEPUTY
    left = rules[k.R_COUNTS + target] + rules[k.R_COUNTS + follower]
    for p in range(rules[k.R_N]):
        c = _located(know, seat, p)
        if c >= 0 and k.in_camp(c, target):
            left -= 1
    return left == 0


@jit
def _sure_win(state, rules, know, seat, legal, m):
    """Index into legal[:m] of an action with which `seat` surely wins, or -1.

    Order of preference: a `use`, a truthful leader `announce` or a located `reveal`
    (each wins at once or within the power), then a `peek` of a located leader."""
    n = rules[k.R_N]
    phase = state[k.S_PHASE]
    if phase == k.PH_TURN:
        peek = -1
        for i in range(m):
            a = legal[i]
            if n <= a < 2 * n:
                c = state[k.S_CARD + a - n]          # face up: public
                if (c == k.ROBIN or c == k.SHERIFF) and _target_located(rules, know, seat, c):
                    return i
            elif a < n and peek < 0:
                c = _located(know, seat, a)
                if (c == k.ROBIN or c == k.SHERIFF) and _target_located(rules, know, seat, c):
                    peek = i
        return peek
    if phase == k.PH_AFTER_PEEK:
        c = _located(know, seat, state[k.S_PEEK_POS])   # the card it has just peeked
        if (c == k.ROBIN or c == k.SHERIFF) and _target_located(rules, know, seat, c):
            for i in range(m):
                if legal[i] == 4 * n + k.A_ANNOUNCE + c:
                    return i
        return -1
    if phase == k.PH_REVEAL:
        leader = state[k.S_POWER]
        if not _target_located(rules, know, seat, leader):
            return -1
        target = k.SHERIFF if leader == k.ROBIN else k.ROBIN
        for i in range(m):
            a = legal[i]
            if 2 * n <= a < 3 * n:
                c = _located(know, seat, a - 2 * n)
                if c >= 0 and k.in_camp(c, target):
                    return i
        return -1
    return -1
