"""Information abstraction for the full game (numba kernels; docs/abstraction.md).

A player's situation is summarised by what they know now, not by the history that led
there. What a seat knows is the knowledge array of solver.knowledge (candidates per
position, the other seats' looks, the last claims, a team's signals), re-exported here
for the abstraction's users.

Beyond two seats (docs/abstraction.md, "Three and four players") both keys also hash
the *table features* (`_table_features`): every other seat's strikes in turn order from
the deciding seat, who announced (relative seat) and who has already been asked, and
the position codes carry the team's Innkeeper signal. Two-player keys are unchanged.

A decision has two keys (docs/abstraction.md, "Two levels"):
- the *fine* key hashes the seat, the decision being taken, the strikes (the seat's and,
  with two seats, the opponent's; beyond, the table features carry every other seat's),
  a turn bucket and the *sorted* list of per-position codes, so it is canonical under
  position relabelling (positions are exchangeable: docs/rules.md);
- the *coarse* key keeps only what decides most moves: the decision, strikes, the turn
  bucket, what the seat knows of the card in question, how many cards of each camp it
  has located, how many face-down cards another seat may know, whether the claim is
  still possible, and the *set* (not the multiset) of position classes it can act on.
Position actions are abstracted by their *action code* (the position code with a blind
pair's candidates reduced to the camps they may hold): all positions with the same
action code are one abstract action, and playing it picks one of them uniformly. Both
keys determine the abstract actions, so the two levels share them.

With *letters* (MCCFRConfig.coarse_actions="letters") the coarse key drops the class set:
its actions are a fixed alphabet per decision phase (`ALPHABET`), and each abstract
action maps to one letter (what kind of card it acts on: the character if known, else
whether another seat looked, the claim's camp or a blind pair's camps). A coarse entry
keeps a value per letter; the letters a decision lacks are masked.
"""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit
from solver.knowledge.kernels import (  # noqa: F401  (the knowledge array, re-exported)
    FULL_MASK, K_CAND, K_CLAIM, K_OTHER_LOOKED, K_SIGNAL, K_SIZE,
)
from solver.knowledge.kernels import exact as _exact
from solver.knowledge.kernels import initial_knowledge as _initial_knowledge  # noqa: F401
from solver.knowledge.kernels import observe as _observe  # noqa: F401

# ----- per-position code bits -----------------------------------------------------------
CODE_FACE_UP = 1 << 10
CODE_OTHER_LOOKED = 1 << 11
CODE_CLAIM_SHIFT = 12                     # 4 bits: claim + 1
ROLE_PEEKED = 1 << 16                     # the card peeked (announced) this turn
ROLE_POWER = 1 << 17                      # the card running the power (the Witch's own)
ROLE_PICKED = 1 << 18                     # the power's first pick
CODE_SIGNAL_SHIFT = 22                    # 4 bits: the team's signal + 1 (team mode)

# Turn buckets: turns played so far -> bucket (coarser as the round gets longer).
TURN_BUCKET_EDGES = np.array([2, 4, 8, 16], dtype=np.int64)
NUM_TURN_BUCKETS = len(TURN_BUCKET_EDGES) + 1

# Action code of a face-down card known only as one of two (after a blind exchange):
# the candidate bits are replaced by this flag and the camps the pair may hold.
ACTION_PARTIAL = 1 << 19
ACTION_PARTIAL_ROBIN_CAMP = 1              # the pair may hold Robin or a Companion
ACTION_PARTIAL_SHERIFF_CAMP = 2            # ... the Sheriff or a Deputy
ROBIN_CAMP_MASK = (1 << k.ROBIN) | (1 << k.COMPANION)
SHERIFF_CAMP_MASK = (1 << k.SHERIFF) | (1 << k.DEPUTY)
CODE_CANDIDATES = (1 << k.NUM_CHARACTERS) - 1

# Abstraction levels (the hash chains start from different constants).
FINE = 0
COARSE = 1
COARSE_FEATURES = 5                       # length of the coarse feature vector
GLOBALS = 6                               # globals hashed at every table size
TABLE_FEATURES = 5                        # globals added beyond two seats
MAX_LOOKED = 4                            # opponent-looked cards counted up to this

# ----- letters: the coarse level's fixed alphabet (coarse_actions="letters") ------------
# A card letter says what kind of card an action acts on: a known character (face down
# 0-9, face up 10-19), an unknown card by (other looked, claim group) 20-27, a blind
# pair by (the camps it may hold, other looked) 28-35.
CARD_LETTERS = 36
LETTER_UNKNOWN = 2 * k.NUM_CHARACTERS
LETTER_PAIR = LETTER_UNKNOWN + 8
# Turn: peek letters, then use letters. Powers (reveal, pick): card letters, then card
# letters of the card in a role (peeked this turn, running the power, first pick).
POSITION_LETTERS = 2 * CARD_LETTERS
# Per phase: the first fixed-action code of its alphabet and the alphabet's size.
# Position phases put the fixed actions after the position letters.
_POSITION_PHASES = (k.PH_TURN, k.PH_REVEAL, k.PH_PICK)
PHASE_FIXED_LO = np.zeros(k.PH_TERMINAL + 1, dtype=np.int64)
ALPHABET = np.full(k.PH_TERMINAL + 1, k.NUM_FIXED_ACTIONS, dtype=np.int64)
for _ph in _POSITION_PHASES:
    ALPHABET[_ph] = POSITION_LETTERS + k.NUM_FIXED_ACTIONS
for _ph, _lo, _size in ((k.PH_AFTER_PEEK, k.A_SILENT, k.A_CHALLENGE - k.A_SILENT),
                        (k.PH_RESPOND, k.A_CHALLENGE, 2), (k.PH_WITCH_CHOICE, k.A_KEEP, 2),
                        (k.PH_NAME, k.A_NAME, k.NUM_FIXED_ACTIONS - k.A_NAME)):
    PHASE_FIXED_LO[_ph] = _lo
    ALPHABET[_ph] = _size
MAX_ALPHABET = int(ALPHABET.max())
# The most actions an entry has: abstract actions (at most the legal ones) or letters.
MAX_ABSTRACT = max(k.MAX_LEGAL, MAX_ALPHABET)


@jit
def _turn_bucket(turn):
    b = 0
    while b < len(TURN_BUCKET_EDGES) and turn >= TURN_BUCKET_EDGES[b]:
        b += 1
    return b


@jit
def _position_codes(state, rules, know, seat, codes):
    """Write each position's code, as `seat` sees it, into codes[:n]."""
    n = rules[k.R_N]
    phase = state[k.S_PHASE]
    for p in range(n):
        cand = know[K_CAND + seat * k.MAX_POSITIONS + p]
        c = 0 if cand == FULL_MASK else cand
        if state[k.S_FACEUP + p]:
            # Everybody sees it: who looked and what was claimed no longer matter.
            c |= CODE_FACE_UP
        elif cand & (cand - 1):
            # Not known exactly: what the other seats may know and the last claim matter.
            if know[K_OTHER_LOOKED + seat * k.MAX_POSITIONS + p]:
                c |= CODE_OTHER_LOOKED
            c |= (know[K_CLAIM + p] + 1) << CODE_CLAIM_SHIFT
            signal = know[K_SIGNAL + seat * k.MAX_POSITIONS + p]
            if signal >= 0:    # team mode only: what the partner's Innkeeper named
                c |= (signal + 1) << CODE_SIGNAL_SHIFT
        codes[p] = c
    if phase != k.PH_TURN:
        if state[k.S_PEEK_POS] >= 0:
            codes[state[k.S_PEEK_POS]] |= ROLE_PEEKED
        if state[k.S_POWER_POS] >= 0 and phase != k.PH_AFTER_PEEK and phase != k.PH_RESPOND:
            codes[state[k.S_POWER_POS]] |= ROLE_POWER
        if state[k.S_PICK] >= 0:
            codes[state[k.S_PICK]] |= ROLE_PICKED


@jit
def _mix(h, v):
    """One step of a 64-bit hash chain (splitmix64 finaliser over h ^ v)."""
    x = h ^ np.uint64(v & 0x7FFFFFFFFFFFFFFF) ^ (np.uint64((v >> 63) & 1) << np.uint64(63))
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@jit
def _globals_length(rules):
    """How many globals a key hashes: GLOBALS, plus the table features beyond two seats."""
    return GLOBALS if rules[k.R_PLAYERS] == 2 else GLOBALS + TABLE_FEATURES


@jit
def _table_features(state, rules, seat, out):
    """What a decision beyond two seats adds to the globals, in out[:TABLE_FEATURES],
    every seat named by its distance from `seat` in turn order (1: the next seat):
    0-2 the strikes of the seats 1, 2, 3 after it (-1 past the table: the strikes
      that eliminate are the table's constant, so an eliminated seat reads as such);
    3 the seat that announced the claim being answered (respond), else -1;
    4 the seats already asked about it, as a bit mask (respond: who may still
      challenge before this seat, and in which order), else -1."""
    players = rules[k.R_PLAYERS]
    for r in range(1, 4):
        out[r - 1] = state[k.S_STRIKES + (seat + r) % players] if r < players else -1
    out[3] = -1
    out[4] = -1
    if state[k.S_PHASE] == k.PH_RESPOND:
        out[3] = (state[k.S_ACTOR] - seat) % players
        asked = state[k.S_ASKED]
        rel = 0
        for s in range(players):
            if asked & (1 << s):
                rel |= 1 << ((s - seat) % players)
        out[4] = rel


@jit
def _global_features(state, rules, seat, out):
    """The non-positional part of a decision's key: `_globals_length(rules)` integers
    (the opponent's strikes at out[3] with two seats; beyond, -1 there and the table
    features after the six)."""
    phase = state[k.S_PHASE]
    two = rules[k.R_PLAYERS] == 2
    out[0] = seat
    out[1] = phase
    out[2] = state[k.S_STRIKES + seat]
    out[3] = state[k.S_STRIKES + 1 - seat] if two else -1
    out[4] = _turn_bucket(state[k.S_TURN])
    if not two:
        _table_features(state, rules, seat, out[GLOBALS:])
    detail = -1
    if phase == k.PH_RESPOND:
        detail = state[k.S_ANNOUNCED]
    elif phase == k.PH_REVEAL or phase == k.PH_PICK or phase == k.PH_WITCH_CHOICE:
        detail = state[k.S_POWER]
    out[5] = detail


@jit
def _features(state, rules, know, seat, codes, sorted_codes, glob):
    """Canonical features of `seat`'s decision: globals and the sorted position codes."""
    n = rules[k.R_N]
    _position_codes(state, rules, know, seat, codes)
    for p in range(n):
        sorted_codes[p] = codes[p]
    # insertion sort: n <= 16
    for i in range(1, n):
        v = sorted_codes[i]
        j = i - 1
        while j >= 0 and sorted_codes[j] > v:
            sorted_codes[j + 1] = sorted_codes[j]
            j -= 1
        sorted_codes[j + 1] = v
    _global_features(state, rules, seat, glob)


@jit
def _key_of(sorted_codes, n, glob, nglob):
    h = np.uint64(0x243F6A8885A308D3)
    for i in range(nglob):
        h = _mix(h, glob[i])
    for i in range(n):
        h = _mix(h, sorted_codes[i])
    key = np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF))
    return key


@jit
def _claim_group(claim):
    """Claims as actions see them: none 0, Robin's camp 1, the Sheriff's camp 2, any
    other character 3."""
    if claim < 0:
        return 0
    if k.in_camp(claim, k.ROBIN):
        return 1
    if k.in_camp(claim, k.SHERIFF):
        return 2
    return 3


@jit
def _action_code(code):
    """The position code with a claim reduced to its camp (_claim_group) and a blind
    pair's candidate mask reduced to the camps it may hold."""
    claim = ((code >> CODE_CLAIM_SHIFT) & 15) - 1
    code = (code & ~(15 << CODE_CLAIM_SHIFT)) | (_claim_group(claim) << CODE_CLAIM_SHIFT)
    cand = code & CODE_CANDIDATES
    if cand == 0 or (cand & (cand - 1)) == 0:
        return code
    camps = 0
    if cand & ROBIN_CAMP_MASK:
        camps |= ACTION_PARTIAL_ROBIN_CAMP
    if cand & SHERIFF_CAMP_MASK:
        camps |= ACTION_PARTIAL_SHERIFF_CAMP
    return (code & ~CODE_CANDIDATES) | ACTION_PARTIAL | camps


@jit
def _coarse_features(state, rules, know, seat, out):
    """The coarse key's features (besides the globals and the class set), in
    out[:COARSE_FEATURES]; each decision keeps only those that bear on it:

    0 focus (after peek, respond): what the seat knows of this turn's peeked card, its
      character + 1 (0: not known exactly), whether another seat looked at it, and its
      last claim + 1, packed
    1, 2 located (turn, after peek, powers): face-up or exactly known cards of Robin's
      camp, of the Sheriff's camp (what an unmasking needs)
    3 others looked (turn, after peek, respond): face-down cards not known exactly
      that carry the other-looked mark, at most MAX_LOOKED (what the other seats may
      know)
    4 claim left (respond): copies of the announced character not located at another
      position, at most 2 (0: the claim is impossible)
    """
    n = rules[k.R_N]
    phase = state[k.S_PHASE]
    base = seat * k.MAX_POSITIONS
    located_r = 0
    located_s = 0
    looked = 0
    for p in range(n):
        c = _exact(know[K_CAND + base + p])
        if c >= 0:
            if k.in_camp(c, k.ROBIN):
                located_r += 1
            elif k.in_camp(c, k.SHERIFF):
                located_s += 1
        elif not state[k.S_FACEUP + p] and know[K_OTHER_LOOKED + base + p]:
            looked += 1
    for i in range(COARSE_FEATURES):
        out[i] = -1
    pos = state[k.S_PEEK_POS]
    if (phase == k.PH_AFTER_PEEK or phase == k.PH_RESPOND) and pos >= 0:
        c = _exact(know[K_CAND + base + pos])
        out[0] = ((c + 1) | (know[K_OTHER_LOOKED + base + pos] << 4)
                  | ((know[K_CLAIM + pos] + 1) << 5))
    if phase != k.PH_RESPOND:
        out[1] = located_r
        out[2] = located_s
    if phase == k.PH_TURN or phase == k.PH_AFTER_PEEK or phase == k.PH_RESPOND:
        out[3] = min(looked, MAX_LOOKED)
    if phase == k.PH_RESPOND:
        said = state[k.S_ANNOUNCED]
        elsewhere = 0
        for p in range(n):
            if p != pos and _exact(know[K_CAND + base + p]) == said:
                elsewhere += 1
        out[4] = min(rules[k.R_COUNTS + said] - elsewhere, 2)


@jit
def _class_order(c):
    """Sort key of a packed class `code | kind << 20`: kind first, then the code (a
    team's signal bits 22-25 lie above the kind's; without them the packed order)."""
    kind = (c >> 20) & 3
    return (kind << 26) | (c & ~(3 << 20))


@jit
def _classes(state, rules, codes, legal, m, cls, abstract_of):
    """Abstract action of each legal action (into abstract_of[:m]); returns their count.

    Position actions (peek/use/reveal/pick) are numbered by the rank of their distinct
    (action kind, action code) among those of this decision; the other actions follow
    in the core's order. cls[:m] keeps each position action's (kind, action code), -1
    for the others.
    """
    n = rules[k.R_N]
    base = 4 * n
    for i in range(m):
        a = legal[i]
        cls[i] = _action_code(codes[a % n]) | ((a // n) << 20) if a < base else -1
    distinct = 0
    for i in range(m):
        if cls[i] < 0:
            continue
        rank = 0
        for j in range(m):
            if cls[j] >= 0 and _class_order(cls[j]) < _class_order(cls[i]):
                seen_before = False
                for q in range(j):
                    if cls[q] == cls[j]:
                        seen_before = True
                        break
                if not seen_before:
                    rank += 1
        abstract_of[i] = rank
        if rank + 1 > distinct:
            distinct = rank + 1
    nxt = distinct
    for i in range(m):
        if cls[i] < 0:
            abstract_of[i] = nxt
            nxt += 1
    return nxt


@jit
def _coarse_key(state, rules, know, seat, glob, cls, m, count, coarse):
    """Hash of the coarse features, the globals and the sorted set of position classes
    (cls[:m] from _classes; reordered in place)."""
    _coarse_features(state, rules, know, seat, coarse)
    h = np.uint64(0x13198A2E03707344)
    for i in range(_globals_length(rules)):
        h = _mix(h, glob[i])
    for i in range(COARSE_FEATURES):
        h = _mix(h, coarse[i])
    h = _mix(h, count)
    # the distinct position classes, in increasing order
    for i in range(1, m):
        v = cls[i]
        j = i - 1
        while j >= 0 and cls[j] > v:
            cls[j + 1] = cls[j]
            j -= 1
        cls[j + 1] = v
    last = -1
    for i in range(m):
        if cls[i] >= 0 and cls[i] != last:
            h = _mix(h, cls[i])
            last = cls[i]
    return np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF))


@jit
def _card_letter(code):
    """What kind of card a position code is, in CARD_LETTERS letters: a known character
    (face up or down), an unknown card by whether another seat looked and the claim's
    camp, a blind pair by the camps it may hold and whether another seat looked."""
    cand = code & CODE_CANDIDATES
    looked = 1 if code & CODE_OTHER_LOOKED else 0
    if cand != 0 and (cand & (cand - 1)) == 0:
        c = 0
        while (cand >> c) != 1:
            c += 1
        return c + (k.NUM_CHARACTERS if code & CODE_FACE_UP else 0)
    if cand == 0:
        claim = ((code >> CODE_CLAIM_SHIFT) & 15) - 1
        return LETTER_UNKNOWN + 4 * looked + _claim_group(claim)
    camps = 0
    if cand & ROBIN_CAMP_MASK:
        camps |= ACTION_PARTIAL_ROBIN_CAMP
    if cand & SHERIFF_CAMP_MASK:
        camps |= ACTION_PARTIAL_SHERIFF_CAMP
    return LETTER_PAIR + 2 * camps + looked


@jit
def _letter(phase, action, code, n):
    """The letter of core action `action` (position code `code` for a position action)
    in the alphabet of `phase` (ALPHABET[phase] letters)."""
    if action < 4 * n:
        c = _card_letter(code)
        if phase == k.PH_TURN:
            return (action // n) * CARD_LETTERS + c       # peek, then use
        if code & (ROLE_PEEKED | ROLE_POWER | ROLE_PICKED):
            return CARD_LETTERS + c
        return c
    fixed = action - 4 * n
    if phase == k.PH_TURN or phase == k.PH_REVEAL or phase == k.PH_PICK:
        return POSITION_LETTERS + fixed
    return fixed - PHASE_FIXED_LO[phase]


@jit
def _letters(state, rules, codes, legal, m, abstract_of, count, letter_of, size):
    """Letter (letter_of[:count]) and number of legal actions (size[:count]) of each
    abstract action; returns the phase's alphabet size."""
    n = rules[k.R_N]
    phase = state[k.S_PHASE]
    for j in range(count):
        size[j] = 0
    for i in range(m):
        j = abstract_of[i]
        a = legal[i]
        size[j] += 1
        letter_of[j] = _letter(phase, a, codes[a % n] if a < 4 * n else 0, n)
    return ALPHABET[phase]


@jit
def _letter_key(glob, nglob, coarse):
    """The coarse key of a decision under letters: the globals and the coarse features
    (the alphabet follows from the phase)."""
    h = np.uint64(0x452821E638D01377)
    for i in range(nglob):
        h = _mix(h, glob[i])
    for i in range(COARSE_FEATURES):
        h = _mix(h, coarse[i])
    return np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF))


@jit
def _decision_keys(state, rules, know, seat, legal, m, scratch, abstract_of, letters,
                   fine_classes):
    """Fine key, coarse key, number of abstract actions and number of coarse actions of
    `seat`'s decision.

    `legal[:m]` are the core's legal actions; abstract_of[i] gets the abstract index of
    legal[i]. scratch: int64 array of shape (SCRATCH_ROWS, k.MAX_LEGAL) (codes, sorted
    codes, globals, classes, coarse features, then each abstract action's coarse action
    and its number of legal actions). `letters`: the coarse level's actions are the
    phase's letters (scratch[5] maps abstract actions to them); otherwise they are the
    abstract actions themselves (scratch[5] is the identity). `fine_classes` (with
    letters only): at a decision with position actions the fine key is the class-set
    key (_coarse_key: the globals, the coarse features and the set of position
    classes), a level between the letters and the position codes (docs/abstraction.md,
    "Fine key on classes"); other decisions keep the codes.
    """
    n = rules[k.R_N]
    codes = scratch[0]
    sorted_codes = scratch[1]
    glob = scratch[2]
    cls = scratch[3]
    _features(state, rules, know, seat, codes, sorted_codes, glob)
    count = _classes(state, rules, codes, legal, m, cls, abstract_of)
    nglob = _globals_length(rules)
    fine = _mix(np.uint64(_key_of(sorted_codes, n, glob, nglob)), count)
    fine_key = np.int64(fine & np.uint64(0x7FFFFFFFFFFFFFFF))
    if letters:
        width = _letters(state, rules, codes, legal, m, abstract_of, count, scratch[5],
                         scratch[6])
        positional = False
        for i in range(m):
            if cls[i] >= 0:
                positional = True
        if fine_classes and positional:
            # also writes the coarse features into scratch[4]
            fine_key = _coarse_key(state, rules, know, seat, glob, cls, m, count, scratch[4])
        else:
            _coarse_features(state, rules, know, seat, scratch[4])
        coarse_key = _letter_key(glob, nglob, scratch[4])
        return fine_key, coarse_key, count, width
    coarse_key = _coarse_key(state, rules, know, seat, glob, cls, m, count, scratch[4])
    for j in range(count):
        scratch[5, j] = j
        scratch[6, j] = 0
    for i in range(m):
        scratch[6, abstract_of[i]] += 1
    return fine_key, coarse_key, count, count


SCRATCH_ROWS = 7
