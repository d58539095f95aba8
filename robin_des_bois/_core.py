"""The numba core of Robin des Bois: random play over flat int64 arrays.

Private: `robin_des_bois.core` (a stepped, validating state) and
`robin_des_bois.simulation` (batches of random games) are the typed Python API. The
plain-Python OpenSpiel game (`state.py`) is the reference: the same phases, the same
action ids (built by `actions.ActionLayout`, copied into the rules array), the same
chance outcomes (card ids), in the same order. `tests/test_robin_des_bois_core.py`
drives both with the same moves and compares them at every step.

A game is two arrays: `rules` (the box contents and the action layout; index `R_*`) and
`state` (index `S_*`). Card blocks are sized for the largest box (`MAX_TYPES` card ids),
so every offset is a constant.

Every kernel lives in this one file, compiled with this package's `_jit.jit` (cached on
disk under a digest of the package's sources). The helpers and the per-move kernels
`_legal` and `_apply` are compiled with `_jit.inline_jit`, inlined into the loops that
call them (the simulator's, the search's rollouts); `_legal_actions` and
`_apply_action` are the same two compiled once as kernels of their own, for callers
outside a loop (CoreState, the search's per-candidate move).
"""

from __future__ import annotations

import numpy as np

from ._jit import inline_jit, jit
from .rules import DISPLAY_SIZE, MAX_GOLD_CARDS, MAX_PLAYERS, MAX_VALUES, COLOUR_LETTERS

MAX_COLOURS = len(COLOUR_LETTERS)
MAX_TYPES = MAX_COLOURS * MAX_VALUES
MAX_COLOUR_SETS = (MAX_COLOURS + 2) * (MAX_COLOURS + 1) * MAX_COLOURS // 6

# ----- action kinds (actions.py) ----------------------------------------------------------
K_TAKE1, K_TAKE2, K_END, K_STASH, K_STEAL, K_ROB, K_COUNTER, K_ALLOW, K_LOSE, K_DISCARD = \
    range(10)
NUM_KINDS = 10

# ----- phases (state.py) --------------------------------------------------------------------
DEAL, TAKE, ACT, TARGET, COUNTER, LOSE, DISCARD, REFILL, OVER = range(9)
CHANCE_PLAYER = -1      # pyspiel.PlayerId.CHANCE
TERMINAL_PLAYER = -4    # pyspiel.PlayerId.TERMINAL

# ----- rules array -------------------------------------------------------------------------
R_PLAYERS = 0
R_COLOURS = 1
R_VALUES = 2
R_COPIES = 3
R_HAND_SIZE = 4
R_HAND_LIMIT = 5
R_TYPES = 6
R_NUM_GOLD = 7
R_NUM_SETS = 8                              # colour sets of a steal
R_END_DISPLAY = 9                           # 1: the game ends once the display is taken
R_OFFSETS = 10                              # NUM_KINDS + 1 offsets of the action blocks
R_GOLD = R_OFFSETS + NUM_KINDS + 1          # gold values, highest first
R_SETS = R_GOLD + MAX_GOLD_CARDS            # 3 colours per set, in ActionLayout order
R_SIZE = R_SETS + 3 * MAX_COLOUR_SETS

# ----- state array -------------------------------------------------------------------------
S_PHASE = 0
S_TURN = 1
S_DEALT = 2
S_TOOK_TWO = 3
S_ACTED = 4
S_SET = 5               # 3 cards of the steal under way (-1: none)
S_VICTIM = 8
S_TARGET = 9
S_MARIANNE = 10
S_GOLD_TAKEN = 11
S_PILE_NUMBER = 12
S_PILE_TOTAL = 13
S_DISCARD_TOTAL = 14
S_DISPLAY_TOTAL = 15
S_HAND_TOTAL = 16                           # per player
S_OPEN_TOTAL = S_HAND_TOTAL + MAX_PLAYERS   # per player: stealable treasures
S_GOLD = S_OPEN_TOTAL + MAX_PLAYERS         # per player: gold value
S_PILE = S_GOLD + MAX_PLAYERS               # counts per card id
S_DISCARD = S_PILE + MAX_TYPES
S_DISPLAY = S_DISCARD + MAX_TYPES
S_HANDS = S_DISPLAY + MAX_TYPES             # MAX_PLAYERS blocks of MAX_TYPES
S_OPEN = S_HANDS + MAX_PLAYERS * MAX_TYPES
S_SAFE = S_OPEN + MAX_PLAYERS * MAX_TYPES
S_SIZE = S_SAFE + MAX_PLAYERS * MAX_TYPES

# The most legal moves: `end`, every stash and every steal (ACT) bounds the other phases.
MAX_LEGAL = 1 + MAX_COLOURS * (MAX_VALUES - 2) + MAX_VALUES * MAX_COLOUR_SETS

# ----- rule counters, tallied by _apply_action (simulation.COUNTERS) ---------------------
(C_TAKE_ONE, C_TAKE_TWO, C_STASHES, C_GOLD, C_STEALS, C_UNSTOPPABLE, C_COUNTERABLE,
 C_COUNTERS, C_ALLOWS, C_THEFTS, C_SAFE_TRIPLES, C_DISCARDS, C_SECOND_PILES, C_MOVES,
 C_CHANCE) = range(15)
COUNTER_NAMES = ("take_one", "take_two", "stashes", "gold_taken", "steals", "unstoppable",
                 "counterable", "counters", "allows", "thefts", "safe_triples",
                 "hand_limit_discards", "second_piles", "moves", "chance_events")
NUM_COUNTERS = len(COUNTER_NAMES)


def rules_array(rules, layout) -> np.ndarray:
    """The rules array of a validated `Rules` and its `ActionLayout` (not a kernel)."""
    a = np.zeros(R_SIZE, dtype=np.int64)
    a[R_PLAYERS] = rules.players
    a[R_COLOURS] = rules.colours
    a[R_VALUES] = rules.values
    a[R_COPIES] = rules.copies
    a[R_HAND_SIZE] = rules.hand_size
    a[R_HAND_LIMIT] = rules.hand_limit
    a[R_TYPES] = rules.num_types
    a[R_NUM_GOLD] = len(rules.gold)
    a[R_NUM_SETS] = len(layout.colour_sets)
    a[R_END_DISPLAY] = int(rules.ends_with_display)
    a[R_OFFSETS:R_OFFSETS + NUM_KINDS + 1] = layout.offsets
    a[R_GOLD:R_GOLD + len(rules.gold)] = rules.gold
    for i, s in enumerate(layout.colour_sets):
        a[R_SETS + 3 * i:R_SETS + 3 * i + 3] = s
    return a


# ===== setup and queries ===================================================================
@jit
def _initial_state(rules):
    s = np.zeros(S_SIZE, dtype=np.int64)
    t = rules[R_TYPES]
    for c in range(t):
        s[S_PILE + c] = rules[R_COPIES]
    s[S_PILE_TOTAL] = t * rules[R_COPIES]
    s[S_PHASE] = DEAL
    s[S_SET] = s[S_SET + 1] = s[S_SET + 2] = -1
    s[S_VICTIM] = s[S_TARGET] = s[S_MARIANNE] = -1
    s[S_PILE_NUMBER] = 1
    return s


@inline_jit
def _current_player(s):
    ph = s[S_PHASE]
    if ph == OVER:
        return TERMINAL_PLAYER
    if ph == DEAL or ph == REFILL:
        return CHANCE_PLAYER
    if ph == COUNTER:
        return s[S_VICTIM]
    return s[S_TURN]


@jit
def _scores(s, rules, out):
    """Treasure values (face up and safe) plus gold, per player, into out[:players]."""
    n, t, v = rules[R_PLAYERS], rules[R_TYPES], rules[R_VALUES]
    for p in range(n):
        total = s[S_GOLD + p]
        base = p * MAX_TYPES
        for c in range(t):
            total += (c % v + 1) * (s[S_OPEN + base + c] + s[S_SAFE + base + c])
        out[p] = total


@jit
def _utilities(scores, n, out):
    """Zero-sum ranking utility (state.utilities, I22) of scores[:n] into out[:n]."""
    best = scores[0]
    for p in range(1, n):
        if scores[p] > best:
            best = scores[p]
    k = 0
    for p in range(n):
        if scores[p] == best:
            k += 1
    if k == n:
        for p in range(n):
            out[p] = 0.0
        return
    win = (n - k) / (k * (n - 1))
    lose = -1.0 / (n - 1)
    for p in range(n):
        out[p] = win if scores[p] == best else lose


@jit
def _returns(s, rules, out):
    n = rules[R_PLAYERS]
    if s[S_PHASE] != OVER:
        for p in range(n):
            out[p] = 0.0
        return
    scores = np.empty(MAX_PLAYERS, dtype=np.int64)
    _scores(s, rules, scores)
    _utilities(scores, n, out)


@jit
def _chance_outcomes(s, rules, cards, probs):
    """Card ids left in the pile (ascending) and their probabilities; returns the count."""
    total = s[S_PILE_TOTAL]
    k = 0
    for c in range(rules[R_TYPES]):
        m = s[S_PILE + c]
        if m:
            cards[k] = c
            probs[k] = m / total
            k += 1
    return k


# ===== legality =============================================================================
@inline_jit
def _has_victim(s, rules):
    """Someone the player on turn may rob (I12, I14)."""
    turn, marianne = s[S_TURN], s[S_MARIANNE]
    for p in range(rules[R_PLAYERS]):
        if p != turn and p != marianne and s[S_OPEN_TOTAL + p] > 0:
            return True
    return False


@inline_jit
def _has_stash(s, rules, hand):
    v = rules[R_VALUES]
    for colour in range(rules[R_COLOURS]):
        for low in range(v - 2):
            c = hand + colour * v + low
            if s[c] and s[c + 1] and s[c + 2]:
                return True
    return False


@inline_jit
def _has_value_set(s, rules, hand):
    """Three cards of one value (any colours) in the hand."""
    v, cols = rules[R_VALUES], rules[R_COLOURS]
    for value in range(v):
        total = 0
        for col in range(cols):
            total += s[hand + col * v + value]
        if total >= 3:
            return True
    return False


@inline_jit
def _run_through(s, rules, hand, card):
    """A run of three of the hand's cards through `card` (card id) in its colour."""
    v = rules[R_VALUES]
    value = card % v
    first = card - value                       # the colour's value-1 card
    for low in range(max(0, value - 2), min(value, v - 3) + 1):
        c = hand + first + low
        if s[c] and s[c + 1] and s[c + 2]:
            return True
    return False


@inline_jit
def _value_count(s, rules, hand, card):
    """Cards of the hand with `card`'s value, any colour."""
    v = rules[R_VALUES]
    total = 0
    for col in range(rules[R_COLOURS]):
        total += s[hand + col * v + card % v]
    return total


@inline_jit
def _can_act(s, rules, hand):
    if _has_stash(s, rules, hand):
        return True
    return _has_victim(s, rules) and _has_value_set(s, rules, hand)


@inline_jit
def _legal(s, rules, out):
    """Legal player actions, ascending, into `out`; returns the count (0 at chance nodes
    and at the end)."""
    ph = s[S_PHASE]
    t, v, cols = rules[R_TYPES], rules[R_VALUES], rules[R_COLOURS]
    off = R_OFFSETS
    k = 0
    if ph == TAKE:
        player = s[S_TURN]
        hand = S_HANDS + player * MAX_TYPES
        # the display's (at most three) cards, ascending, with repeats: d0 <= d1 <= d2
        d0 = d1 = d2 = -1
        n = 0
        for c in range(t):
            for _ in range(s[S_DISPLAY + c]):
                if n == 0:
                    d0 = c
                elif n == 1:
                    d1 = c
                else:
                    d2 = c
                n += 1
            if s[S_DISPLAY + c]:
                out[k] = rules[off + K_TAKE1] + c
                k += 1
        if n >= 2:
            # I4: taking two obliges an action. What the hand can do already is worked
            # out once; a pair adds only the runs and sets through its two cards.
            stash0 = _has_stash(s, rules, hand)
            victim = _has_victim(s, rules)
            set0 = victim and _has_value_set(s, rules, hand)
            base_ok = stash0 or set0
            last_a = last_b = -1
            for j in range(3):
                if j == 0:
                    a, b = d0, d1
                elif j == 1:
                    a, b = d0, d2
                else:
                    a, b = d1, d2
                if b < 0 or (a == last_a and b == last_b):
                    continue
                last_a, last_b = a, b
                ok = base_ok
                if not ok:
                    s[hand + a] += 1
                    s[hand + b] += 1
                    ok = _run_through(s, rules, hand, a) or _run_through(s, rules, hand, b)
                    if not ok and victim:
                        ok = (_value_count(s, rules, hand, a) >= 3
                              or _value_count(s, rules, hand, b) >= 3)
                    s[hand + a] -= 1
                    s[hand + b] -= 1
                if ok:
                    out[k] = rules[off + K_TAKE2] + a * t - a * (a - 1) // 2 + (b - a)
                    k += 1
    elif ph == ACT:
        player = s[S_TURN]
        hand = S_HANDS + player * MAX_TYPES
        if s[S_ACTED] or not s[S_TOOK_TWO]:
            out[k] = rules[off + K_END]
            k += 1
        first = rules[off + K_STASH]
        for colour in range(cols):
            # slide along the colour: a run ends at every third card held in a row
            c = hand + colour * v
            a = s[c] > 0
            b = s[c + 1] > 0
            for low in range(v - 2):
                held = s[c + low + 2] > 0
                if a & b & held:
                    out[k] = first + colour * (v - 2) + low
                    k += 1
                a = b
                b = held
        if _has_victim(s, rules):
            nsets = rules[R_NUM_SETS]
            for value in range(v):
                total = 0
                for col in range(cols):
                    total += s[hand + col * v + value]
                if total < 3:
                    continue
                base = hand + value             # s[base + col * v]: that colour's count
                for i in range(nsets):
                    a0 = rules[R_SETS + 3 * i]
                    a1 = rules[R_SETS + 3 * i + 1]
                    a2 = rules[R_SETS + 3 * i + 2]
                    # the set needs each colour's count in the hand >= its count in it
                    if a0 == a1 and a1 == a2:
                        ok = s[base + a0 * v] >= 3
                    elif a0 == a1:
                        ok = s[base + a0 * v] >= 2 and s[base + a2 * v] >= 1
                    elif a1 == a2:
                        ok = s[base + a0 * v] >= 1 and s[base + a1 * v] >= 2
                    else:
                        ok = (s[base + a0 * v] >= 1 and s[base + a1 * v] >= 1
                              and s[base + a2 * v] >= 1)
                    if ok:
                        out[k] = rules[off + K_STEAL] + value * nsets + i
                        k += 1
    elif ph == TARGET:
        turn, marianne = s[S_TURN], s[S_MARIANNE]
        for p in range(rules[R_PLAYERS]):
            if p == turn or p == marianne or s[S_OPEN_TOTAL + p] == 0:
                continue
            base = S_OPEN + p * MAX_TYPES
            for c in range(t):
                if s[base + c]:
                    out[k] = rules[off + K_ROB] + p * t + c
                    k += 1
    elif ph == COUNTER:
        hand = S_HANDS + s[S_VICTIM] * MAX_TYPES
        value = s[S_SET] % v
        for col in range(cols):
            c = col * v + value
            if s[hand + c]:
                out[k] = rules[off + K_COUNTER] + c
                k += 1
        out[k] = rules[off + K_ALLOW]
        k += 1
    elif ph == LOSE:
        # the set's cards are ascending: distinct ones once each
        for j in range(3):
            c = s[S_SET + j]
            if j == 0 or c != s[S_SET + j - 1]:
                out[k] = rules[off + K_LOSE] + c
                k += 1
    elif ph == DISCARD:
        hand = S_HANDS + s[S_TURN] * MAX_TYPES
        for c in range(t):
            if s[hand + c]:
                out[k] = rules[off + K_DISCARD] + c
                k += 1
    return k


# ===== transitions ==========================================================================
@inline_jit
def _kind(rules, action):
    kind = 0
    while action >= rules[R_OFFSETS + kind + 1]:
        kind += 1
    return kind


@inline_jit
def _put_in_stash(s, rules, player, card, counters):
    """A treasure enters a stash face up; three face-up of one colour turn face down (I10)."""
    v = rules[R_VALUES]
    base = S_OPEN + player * MAX_TYPES
    s[base + card] += 1
    s[S_OPEN_TOTAL + player] += 1
    row = (card // v) * v
    total = 0
    for c in range(row, row + v):
        total += s[base + c]
    if total >= 3:
        safe = S_SAFE + player * MAX_TYPES
        moved = 0
        for c in range(row, row + v):
            while s[base + c] and moved < 3:
                s[base + c] -= 1
                s[safe + c] += 1
                moved += 1
        s[S_OPEN_TOTAL + player] -= 3
        counters[C_SAFE_TRIPLES] += 1


@inline_jit
def _continue_refill(s, rules, counters):
    """After a card is turned or a turn ends: keep refilling, end, or pass on (I18, I19)."""
    t = rules[R_TYPES]
    if s[S_DISPLAY_TOTAL] < DISPLAY_SIZE and s[S_PILE_TOTAL] == 0 and s[S_PILE_NUMBER] == 1:
        for c in range(t):
            s[S_PILE + c] = s[S_DISCARD + c]
            s[S_DISCARD + c] = 0
        s[S_PILE_TOTAL] = s[S_DISCARD_TOTAL]
        s[S_DISCARD_TOTAL] = 0
        s[S_PILE_NUMBER] = 2
        counters[C_SECOND_PILES] += 1
    if s[S_PILE_NUMBER] == 2 and s[S_PILE_TOTAL] == 0:
        # I19: over now (end=pile), or once the display is taken (end=display)
        if rules[R_END_DISPLAY] == 0 or s[S_DISPLAY_TOTAL] == 0:
            s[S_PHASE] = OVER
            return
    elif s[S_DISPLAY_TOTAL] < DISPLAY_SIZE:
        s[S_PHASE] = REFILL
        return
    s[S_TURN] = (s[S_TURN] + 1) % rules[R_PLAYERS]
    s[S_PHASE] = TAKE
    s[S_TOOK_TWO] = 0
    s[S_ACTED] = 0


@inline_jit
def _apply_chance(s, rules, card, counters):
    s[S_PILE + card] -= 1
    s[S_PILE_TOTAL] -= 1
    n, h = rules[R_PLAYERS], rules[R_HAND_SIZE]
    if s[S_PHASE] == DEAL and s[S_DEALT] < n * h:
        owner = s[S_DEALT] // h
        s[S_HANDS + owner * MAX_TYPES + card] += 1
        s[S_HAND_TOTAL + owner] += 1
        s[S_DEALT] += 1
        return
    s[S_DISPLAY + card] += 1
    s[S_DISPLAY_TOTAL] += 1
    s[S_DEALT] += 1
    if s[S_PHASE] == DEAL:
        if s[S_DEALT] == n * h + DISPLAY_SIZE:
            s[S_PHASE] = TAKE
        return
    _continue_refill(s, rules, counters)


@inline_jit
def _to_discard(s, player, card):
    s[S_HANDS + player * MAX_TYPES + card] -= 1
    s[S_HAND_TOTAL + player] -= 1
    s[S_DISCARD + card] += 1
    s[S_DISCARD_TOTAL] += 1


@inline_jit
def _end_steal(s):
    s[S_SET] = s[S_SET + 1] = s[S_SET + 2] = -1
    s[S_VICTIM] = s[S_TARGET] = -1
    s[S_ACTED] = 1
    s[S_PHASE] = ACT


@inline_jit
def _succeed(s, rules, counters):
    thief, victim, card = s[S_TURN], s[S_VICTIM], s[S_TARGET]
    for j in range(3):
        _to_discard(s, thief, s[S_SET + j])
    s[S_OPEN + victim * MAX_TYPES + card] -= 1
    s[S_OPEN_TOTAL + victim] -= 1
    _put_in_stash(s, rules, thief, card, counters)
    s[S_MARIANNE] = victim                                  # I14
    counters[C_THEFTS] += 1
    _end_steal(s)


@inline_jit
def _apply_move(s, rules, action, counters):
    mover = _current_player(s)
    kind = _kind(rules, action)
    i = action - rules[R_OFFSETS + kind]
    t, v = rules[R_TYPES], rules[R_VALUES]
    hand = S_HANDS + mover * MAX_TYPES
    counters[C_MOVES] += 1
    if kind == K_TAKE1:
        s[S_DISPLAY + i] -= 1
        s[S_DISPLAY_TOTAL] -= 1
        s[hand + i] += 1
        s[S_HAND_TOTAL + mover] += 1
        s[S_TOOK_TWO] = 0
        s[S_PHASE] = ACT
        counters[C_TAKE_ONE] += 1
    elif kind == K_TAKE2:
        a = 0
        while i >= t - a:
            i -= t - a
            a += 1
        b = a + i
        s[S_DISPLAY + a] -= 1
        s[S_DISPLAY + b] -= 1
        s[S_DISPLAY_TOTAL] -= 2
        s[hand + a] += 1
        s[hand + b] += 1
        s[S_HAND_TOTAL + mover] += 2
        s[S_TOOK_TWO] = 1
        s[S_PHASE] = ACT
        counters[C_TAKE_TWO] += 1
    elif kind == K_STASH:
        colour = i // (v - 2)
        c = colour * v + i % (v - 2)
        _to_discard(s, mover, c)
        _to_discard(s, mover, c + 1)
        s[hand + c + 2] -= 1
        s[S_HAND_TOTAL + mover] -= 1
        _put_in_stash(s, rules, mover, c + 2, counters)     # I6: keep the highest
        if s[S_GOLD_TAKEN] < rules[R_NUM_GOLD]:            # I8, I9: the best gold card
            s[S_GOLD + mover] += rules[R_GOLD + s[S_GOLD_TAKEN]]
            s[S_GOLD_TAKEN] += 1
            counters[C_GOLD] += 1
        s[S_ACTED] = 1
        counters[C_STASHES] += 1
    elif kind == K_STEAL:
        nsets = rules[R_NUM_SETS]
        value = i // nsets
        j = i % nsets
        for m in range(3):
            s[S_SET + m] = rules[R_SETS + 3 * j + m] * v + value
        s[S_PHASE] = TARGET
        counters[C_STEALS] += 1
    elif kind == K_ROB:
        s[S_VICTIM] = i // t
        s[S_TARGET] = i % t
        a0, a1, a2 = s[S_SET] // v, s[S_SET + 1] // v, s[S_SET + 2] // v
        if a0 != a1 and a1 != a2 and a0 != a2:
            counters[C_UNSTOPPABLE] += 1
            _succeed(s, rules, counters)                    # I11: unstoppable
        else:
            counters[C_COUNTERABLE] += 1
            s[S_PHASE] = COUNTER                            # I13: the victim may counter
    elif kind == K_ALLOW:
        counters[C_ALLOWS] += 1
        _succeed(s, rules, counters)
    elif kind == K_COUNTER:
        counters[C_COUNTERS] += 1
        s[S_PHASE] = LOSE                                   # I15
    elif kind == K_LOSE:
        _to_discard(s, mover, i)                            # I16
        _end_steal(s)
    elif kind == K_END:
        if s[S_HAND_TOTAL + mover] > rules[R_HAND_LIMIT]:
            s[S_PHASE] = DISCARD
        else:
            s[S_PHASE] = REFILL
            _continue_refill(s, rules, counters)
    elif kind == K_DISCARD:
        _to_discard(s, mover, i)
        counters[C_DISCARDS] += 1
        if s[S_HAND_TOTAL + mover] <= rules[R_HAND_LIMIT]:
            _continue_refill(s, rules, counters)


@inline_jit
def _apply(s, rules, action, counters):
    """Apply a chance outcome (a card id) or a player action; counters tally rules."""
    ph = s[S_PHASE]
    if ph == DEAL or ph == REFILL:
        counters[C_CHANCE] += 1
        _apply_chance(s, rules, action, counters)
    else:
        _apply_move(s, rules, action, counters)


@jit
def _legal_actions(s, rules, out):
    """`_legal` as a kernel of its own (CoreState, the players)."""
    return _legal(s, rules, out)


@jit
def _apply_action(s, rules, action, counters):
    """`_apply` as a kernel of its own (CoreState, the players)."""
    _apply(s, rules, action, counters)


# ===== random play ==========================================================================
@jit
def _seed(seed):
    np.random.seed(seed)


@inline_jit
def _random_step(s, rules, actions, counters):
    """One move: a card drawn with the pile's odds, or a uniformly random legal action."""
    ph = s[S_PHASE]
    if ph == DEAL or ph == REFILL:
        r = np.random.randint(s[S_PILE_TOTAL])
        c = 0
        while r >= s[S_PILE + c]:
            r -= s[S_PILE + c]
            c += 1
        a = c
    else:
        k = _legal(s, rules, actions)
        a = actions[np.random.randint(k)]
    _apply(s, rules, a, counters)
    return a


@jit
def _simulate(rules, games, counters, wins, shared, all_tied, return_sum, score_sum,
              spread_sum, margin_sum, turn_hist):
    """Play `games` random games; add per-seat tallies into the arrays given.

    wins[p]: p alone had the best score; shared[p]: p tied for best with some but not all;
    all_tied[0]: games where everyone tied; return_sum/score_sum per seat; spread_sum[0]:
    best minus worst score; margin_sum[0]: best minus second best (0 on a tie);
    turn_hist[turns] (turns = takes, the last one included)."""
    n = rules[R_PLAYERS]
    actions = np.empty(MAX_LEGAL, dtype=np.int64)
    scores = np.empty(MAX_PLAYERS, dtype=np.int64)
    utils = np.empty(MAX_PLAYERS, dtype=np.float64)
    for _ in range(games):
        s = _initial_state(rules)
        turns_before = counters[C_TAKE_ONE] + counters[C_TAKE_TWO]
        while s[S_PHASE] != OVER:
            _random_step(s, rules, actions, counters)
        turns = counters[C_TAKE_ONE] + counters[C_TAKE_TWO] - turns_before
        if turns >= turn_hist.shape[0]:
            turns = turn_hist.shape[0] - 1
        turn_hist[turns] += 1
        _scores(s, rules, scores)
        _utilities(scores, n, utils)
        best, worst = scores[0], scores[0]
        for p in range(1, n):
            best = max(best, scores[p])
            worst = min(worst, scores[p])
        k = 0
        second = worst
        for p in range(n):
            if scores[p] == best:
                k += 1
            elif scores[p] > second:
                second = scores[p]
        for p in range(n):
            return_sum[p] += utils[p]
            score_sum[p] += scores[p]
            if scores[p] == best:
                if k == 1:
                    wins[p] += 1
                elif k < n:
                    shared[p] += 1
        if k == n:
            all_tied[0] += 1
        spread_sum[0] += best - worst
        margin_sum[0] += best - second if k == 1 else 0

