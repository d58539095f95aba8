"""The transition core of Robin Wood: numba kernels over small fixed-size int64 arrays.

A round is two arrays: `rules` (the variant, constant during a round) and `state`
(everything that changes). Cloning a state is copying 70 integers. Every kernel here
is private; `game_def.core` wraps them behind a validating, typed API, and
`tests/naive.py` is the plain-Python twin they are checked against.

Action and chance ids, action strings and what each player observes are specified in
docs/game-interface.md; the rules in docs/rules.md (which restates RULES-MODEL.md).
"""

from __future__ import annotations

import numpy as np

from ._jit import jit

# ----- characters (ids of game_def.characters.Character) --------------------------------
ROBIN, COMPANION, SHERIFF, DEPUTY, PEASANT, TRICKSTER, MONK, WITCH, TRAITOR, INNKEEPER = range(10)
NUM_CHARACTERS = 10
UNDEALT = -1
MAX_POSITIONS = 16
MAX_PLAYERS = 4

# ----- rules array -----------------------------------------------------------------------
R_N = 0                # number of positions (cards)
R_PLAYERS = 1
R_TEAMS = 2
R_STRIKES = 3          # strikes that eliminate
R_MAX_TURNS = 4
R_FIRST = 5
R_RANDOM_ORDER = 6     # challenge_order == random
R_TRAITOR_REVEAL = 7   # traitor_strikes_on_reveal
R_HAS_LAYOUT = 8
R_COUNTS = 9                              # 10 counts per character
R_LAYOUT = R_COUNTS + NUM_CHARACTERS      # 16 character ids per position
R_SIZE = R_LAYOUT + MAX_POSITIONS

# ----- state array -----------------------------------------------------------------------
S_PHASE = 0
S_ACTOR = 1            # seat whose turn it is
S_TURN = 2             # turns played (the one that ends the round included)
S_PEEK_POS = 3         # position peeked this turn
S_ANNOUNCED = 4        # character announced this turn
S_RESPONDER = 5        # seat deciding challenge/pass
S_ASKED = 6            # bitmask of seats already asked this announcement
S_POWER = 7            # character whose power is running
S_POWER_POS = 8        # position of the card running the power (the Witch's own card)
S_PICK = 9             # first pick of a power (Deputy, Witch, Innkeeper), -1 if none yet
S_PICK2 = 10           # Deputy's second pick
S_DEAL_POS = 11        # position waiting for a lazy deal
S_RESUME_PHASE = 12    # phase and action to resume once the deal is made
S_RESUME_ACTION = 13
S_WINNER = 14          # -2 ongoing, -1 draw, else a winning seat (any member for teams)
S_EXTRA = 15           # Companion: the actor plays again when this turn ends
S_SEEN_SCOPE = 16      # identity made known by the last action: scope, position, card
S_SEEN_POS = 17
S_SEEN_CHAR = 18
S_EVENTS = 19          # EV_* bits of the last action
S_ENDER = 20           # seat whose turn ended the round
S_POOL = 21                                # undealt count per character
S_CARD = S_POOL + NUM_CHARACTERS           # card per position, UNDEALT if not drawn yet
S_FACEUP = S_CARD + MAX_POSITIONS          # 1 if face up
S_STRIKES = S_FACEUP + MAX_POSITIONS       # strikes per seat
S_SIZE = S_STRIKES + MAX_PLAYERS

# ----- phases ----------------------------------------------------------------------------
PH_TURN = 0            # peek or use
PH_AFTER_PEEK = 1      # silent or announce
PH_RESPOND = 2         # challenge or pass
PH_ORDER = 3           # chance: who reacts next (challenge_order=random)
PH_REVEAL = 4          # Robin/Sheriff unmasking
PH_PICK = 5            # Deputy, Monk, Witch, Innkeeper targets
PH_WITCH_CHOICE = 6    # keep or swap
PH_SHUFFLE = 7         # chance: the Deputy's blind shuffle
PH_NAME = 8            # Innkeeper names a character
PH_DEAL = 9            # chance: lazy deal of one face-down card
PH_TERMINAL = 10

# ----- players ---------------------------------------------------------------------------
CHANCE_PLAYER = -1
TERMINAL_PLAYER = -4
ONGOING = -2
DRAW = -1

# ----- who sees what (docs/game-interface.md) ---------------------------------------------
SCOPE_NONE = 0
SCOPE_ACTOR = 1
SCOPE_ALL = 2
SCOPE_TEAM = 3

# ----- events of the last applied action (bits) -------------------------------------------
EV_TRAITOR_HIT = 1
EV_CHALLENGE_RIGHT = 2     # the challenger caught a lie
EV_CHALLENGE_WRONG = 4     # the claim was true
EV_UNMASK_WIN = 8
EV_UNMASK_MISTAKE = 16
EV_ELIMINATION = 32
EV_TURN_CAP = 64
EVENT_NAMES = ("traitor_hit", "challenge_right", "challenge_wrong", "unmask_win",
               "unmask_mistake", "elimination", "turn_cap")

# ----- action ids (offsets; n = number of positions) ---------------------------------------
A_SILENT = 0           # + 4n
A_ANNOUNCE = 1         # + 4n + c
A_CHALLENGE = 11       # + 4n
A_PASS = 12
A_KEEP = 13
A_SWAP = 14
A_NAME = 15            # + 4n + c
NUM_FIXED_ACTIONS = 25  # num_distinct_actions = 4n + 25
C_SHUFFLE_KEEP = 10
C_SHUFFLE_SWAP = 11
C_FASTEST = 12         # + seat
MAX_CHANCE_OUTCOMES = 16
MAX_LEGAL = 4 * MAX_POSITIONS + NUM_FIXED_ACTIONS


# ===== setup ===========================================================================
@jit
def _initial_state(rules):
    """A new round: lazy deal (Traitors face up at the last positions) or fixed layout."""
    state = np.zeros(S_SIZE, dtype=np.int64)
    n = rules[R_N]
    state[S_PHASE] = PH_TURN
    state[S_ACTOR] = rules[R_FIRST]
    state[S_PEEK_POS] = -1
    state[S_ANNOUNCED] = -1
    state[S_RESPONDER] = -1
    state[S_POWER] = -1
    state[S_POWER_POS] = -1
    state[S_PICK] = -1
    state[S_PICK2] = -1
    state[S_DEAL_POS] = -1
    state[S_WINNER] = ONGOING
    state[S_ENDER] = -1
    for p in range(MAX_POSITIONS):
        state[S_CARD + p] = UNDEALT
    if rules[R_HAS_LAYOUT]:
        for p in range(n):
            c = rules[R_LAYOUT + p]
            state[S_CARD + p] = c
            if c == TRAITOR:
                state[S_FACEUP + p] = 1
    else:
        traitors = rules[R_COUNTS + TRAITOR]
        for c in range(NUM_CHARACTERS):
            state[S_POOL + c] = rules[R_COUNTS + c]
        state[S_POOL + TRAITOR] = 0
        for p in range(n - traitors, n):
            state[S_CARD + p] = TRAITOR
            state[S_FACEUP + p] = 1
    return state


# ===== small queries ===================================================================
@jit
def _current_player(state):
    phase = state[S_PHASE]
    if phase == PH_TERMINAL:
        return TERMINAL_PLAYER
    if phase == PH_DEAL or phase == PH_SHUFFLE or phase == PH_ORDER:
        return CHANCE_PLAYER
    if phase == PH_RESPOND:
        return state[S_RESPONDER]
    return state[S_ACTOR]


@jit
def _is_live(state, rules, seat):
    return state[S_STRIKES + seat] < rules[R_STRIKES]


@jit
def _side(rules, seat):
    """The side a seat plays for: its team in team mode, itself otherwise."""
    if rules[R_TEAMS]:
        return seat % 2
    return seat


@jit
def _in_camp(card, leader):
    """Is `card` in the camp led by `leader` (ROBIN or SHERIFF)?"""
    if leader == ROBIN:
        return card == ROBIN or card == COMPANION
    return card == SHERIFF or card == DEPUTY


@jit
def _camp_unmasked(state, rules, leader):
    """Are all of the camp's cards (those the deck holds) face up?"""
    follower = COMPANION if leader == ROBIN else DEPUTY
    total = rules[R_COUNTS + leader] + rules[R_COUNTS + follower]
    up = 0
    for p in range(rules[R_N]):
        if state[S_FACEUP + p] and _in_camp(state[S_CARD + p], leader):
            up += 1
    return up == total


# ===== round ends ======================================================================
@jit
def _finish(state, winner):
    """End the round. A win ends the turn in progress, which then counts as played (the
    turn cap's draw comes from _end_turn, which has counted it already)."""
    if winner != DRAW:
        state[S_TURN] += 1
    state[S_PHASE] = PH_TERMINAL
    state[S_WINNER] = winner
    state[S_ENDER] = state[S_ACTOR]


@jit
def _strike(state, rules, seat):
    """One strike on `seat`; returns True if an elimination ended the round."""
    state[S_STRIKES + seat] += 1
    if state[S_STRIKES + seat] != rules[R_STRIKES]:
        return False
    state[S_EVENTS] |= EV_ELIMINATION
    # A strike that eliminates the last opponent (team) ends the round at once.
    sides = 0
    survivor = -1
    for s in range(rules[R_PLAYERS]):
        if _is_live(state, rules, s):
            sides |= 1 << _side(rules, s)
            survivor = s
    if sides & (sides - 1) == 0:  # a single side is left
        _finish(state, survivor)
        return True
    return False


@jit
def _next_live(state, rules, seat):
    players = rules[R_PLAYERS]
    for k in range(1, players + 1):
        s = (seat + k) % players
        if _is_live(state, rules, s):
            return s
    return seat


@jit
def _end_turn(state, rules):
    """Close the current turn: count it, apply the turn cap, pick who plays next."""
    state[S_TURN] += 1
    actor = state[S_ACTOR]
    if state[S_TURN] >= rules[R_MAX_TURNS]:
        state[S_EVENTS] |= EV_TURN_CAP
        _finish(state, DRAW)
        return
    if state[S_EXTRA] and _is_live(state, rules, actor):
        nxt = actor
    else:
        nxt = _next_live(state, rules, actor)
    state[S_ACTOR] = nxt
    state[S_PHASE] = PH_TURN
    state[S_PEEK_POS] = -1
    state[S_ANNOUNCED] = -1
    state[S_RESPONDER] = -1
    state[S_ASKED] = 0
    state[S_POWER] = -1
    state[S_POWER_POS] = -1
    state[S_PICK] = -1
    state[S_PICK2] = -1
    state[S_EXTRA] = 0


@jit
def _see(state, scope, pos):
    state[S_SEEN_SCOPE] = scope
    state[S_SEEN_POS] = pos
    state[S_SEEN_CHAR] = state[S_CARD + pos]


@jit
def _needs_deal(state, pos, action):
    """Pause for a lazy deal if `pos` is undealt; `action` resumes once it is dealt."""
    if state[S_CARD + pos] != UNDEALT:
        return False
    state[S_RESUME_PHASE] = state[S_PHASE]
    state[S_RESUME_ACTION] = action
    state[S_DEAL_POS] = pos
    state[S_PHASE] = PH_DEAL
    return True


# ===== powers ==========================================================================
@jit
def _run_power(state, rules, character, pos):
    """Run `character`'s power for the actor, the card at `pos` acting as it."""
    state[S_POWER] = character
    state[S_POWER_POS] = pos
    state[S_PICK] = -1
    if character == ROBIN or character == SHERIFF:
        target = SHERIFF if character == ROBIN else ROBIN
        if _camp_unmasked(state, rules, target):
            state[S_EVENTS] |= EV_UNMASK_WIN
            _finish(state, state[S_ACTOR])
        else:
            state[S_PHASE] = PH_REVEAL
    elif character == COMPANION:
        state[S_EXTRA] = 1
        _end_turn(state, rules)
    elif character == DEPUTY or character == MONK or character == WITCH:
        state[S_PHASE] = PH_PICK
    elif character == INNKEEPER and _is_live(state, rules, (state[S_ACTOR] + 2) % 4):
        state[S_PHASE] = PH_PICK
    else:
        # Peasant, Trickster (face-up use), Innkeeper without a live partner: nothing.
        _end_turn(state, rules)


@jit
def _next_responder(state, rules):
    """Offer the challenge to the next live opponent, or run the power if none is left."""
    players = rules[R_PLAYERS]
    actor = state[S_ACTOR]
    first = -1
    remaining = 0
    for k in range(1, players):
        s = (actor + k) % players
        if _is_live(state, rules, s) and not (state[S_ASKED] >> s) & 1:
            if first < 0:
                first = s
            remaining += 1
    if remaining == 0:
        _run_power(state, rules, state[S_ANNOUNCED], state[S_PEEK_POS])
    elif rules[R_RANDOM_ORDER] and remaining > 1:
        state[S_PHASE] = PH_ORDER
    else:
        _ask(state, first)


@jit
def _ask(state, seat):
    state[S_RESPONDER] = seat
    state[S_ASKED] |= 1 << seat
    state[S_PHASE] = PH_RESPOND


@jit
def _resolve_peek(state, rules, pos):
    state[S_PEEK_POS] = pos
    if state[S_CARD + pos] == TRAITOR:
        # The Traitor goes face up for good and costs the peeker a strike.
        state[S_FACEUP + pos] = 1
        _see(state, SCOPE_ALL, pos)
        state[S_EVENTS] |= EV_TRAITOR_HIT
        if not _strike(state, rules, state[S_ACTOR]):
            _end_turn(state, rules)
    else:
        _see(state, SCOPE_ACTOR, pos)
        state[S_PHASE] = PH_AFTER_PEEK


@jit
def _resolve_challenge(state, rules):
    pos = state[S_PEEK_POS]
    state[S_FACEUP + pos] = 1
    _see(state, SCOPE_ALL, pos)
    announced = state[S_ANNOUNCED]
    if state[S_CARD + pos] == announced:
        state[S_EVENTS] |= EV_CHALLENGE_WRONG
        if not _strike(state, rules, state[S_RESPONDER]):
            _run_power(state, rules, announced, pos)
    else:
        state[S_EVENTS] |= EV_CHALLENGE_RIGHT
        if not _strike(state, rules, state[S_ACTOR]):
            _end_turn(state, rules)


@jit
def _resolve_reveal(state, rules, pos):
    state[S_FACEUP + pos] = 1
    _see(state, SCOPE_ALL, pos)
    card = state[S_CARD + pos]
    target = SHERIFF if state[S_POWER] == ROBIN else ROBIN
    if _in_camp(card, target):
        if _camp_unmasked(state, rules, target):
            state[S_EVENTS] |= EV_UNMASK_WIN
            _finish(state, state[S_ACTOR])
        return
    state[S_EVENTS] |= EV_UNMASK_MISTAKE
    actor = state[S_ACTOR]
    if _strike(state, rules, actor):
        return
    if card == TRAITOR and rules[R_TRAITOR_REVEAL] and _is_live(state, rules, actor):
        state[S_EVENTS] |= EV_TRAITOR_HIT
        if _strike(state, rules, actor):
            return
    _end_turn(state, rules)


@jit
def _resolve_pick(state, rules, pos, action):
    power = state[S_POWER]
    if power == DEPUTY:
        if state[S_PICK] < 0:
            state[S_PICK] = pos
        else:
            state[S_PICK2] = pos
            state[S_PHASE] = PH_SHUFFLE
    elif power == MONK:
        if state[S_FACEUP + pos]:
            state[S_FACEUP + pos] = 0
        else:
            if _needs_deal(state, pos, action):
                return
            state[S_FACEUP + pos] = 1
            _see(state, SCOPE_ALL, pos)
        _end_turn(state, rules)
    elif power == WITCH:
        if _needs_deal(state, pos, action):
            return
        state[S_PICK] = pos
        _see(state, SCOPE_ACTOR, pos)
        state[S_PHASE] = PH_WITCH_CHOICE
    else:  # INNKEEPER
        state[S_PICK] = pos
        state[S_PHASE] = PH_NAME


@jit
def _put_back_face_down(state, a, b, exchange):
    if exchange:
        tmp = state[S_CARD + a]
        state[S_CARD + a] = state[S_CARD + b]
        state[S_CARD + b] = tmp
    state[S_FACEUP + a] = 0
    state[S_FACEUP + b] = 0


# ===== apply ===========================================================================
@jit
def _apply_player_action(state, rules, action):
    n = rules[R_N]
    phase = state[S_PHASE]
    base = 4 * n
    if phase == PH_TURN:
        if action < n:
            if not _needs_deal(state, action, action):
                _resolve_peek(state, rules, action)
        else:
            pos = action - n
            _run_power(state, rules, state[S_CARD + pos], pos)
    elif phase == PH_AFTER_PEEK:
        if action == base + A_SILENT:
            _end_turn(state, rules)
        else:
            state[S_ANNOUNCED] = action - base - A_ANNOUNCE
            state[S_ASKED] = 0
            _next_responder(state, rules)
    elif phase == PH_RESPOND:
        if action == base + A_CHALLENGE:
            _resolve_challenge(state, rules)
        else:
            _next_responder(state, rules)
    elif phase == PH_REVEAL:
        pos = action - 2 * n
        if not _needs_deal(state, pos, action):
            _resolve_reveal(state, rules, pos)
    elif phase == PH_PICK:
        _resolve_pick(state, rules, action - 3 * n, action)
    elif phase == PH_WITCH_CHOICE:
        _put_back_face_down(state, state[S_POWER_POS], state[S_PICK],
                            action == base + A_SWAP)
        _end_turn(state, rules)
    elif phase == PH_NAME:
        _end_turn(state, rules)


@jit
def _apply_action(state, rules, action):
    """Apply a legal action (player or chance) in place."""
    state[S_SEEN_SCOPE] = SCOPE_NONE
    state[S_EVENTS] = 0
    phase = state[S_PHASE]
    if phase == PH_DEAL:
        pos = state[S_DEAL_POS]
        state[S_CARD + pos] = action
        state[S_POOL + action] -= 1
        state[S_DEAL_POS] = -1
        state[S_PHASE] = state[S_RESUME_PHASE]
        _apply_player_action(state, rules, state[S_RESUME_ACTION])
    elif phase == PH_SHUFFLE:
        _put_back_face_down(state, state[S_PICK], state[S_PICK2], action == C_SHUFFLE_SWAP)
        _end_turn(state, rules)
    elif phase == PH_ORDER:
        _ask(state, action - C_FASTEST)
    else:
        _apply_player_action(state, rules, action)


@jit
def _action_scope(state, rules, action):
    """Who observes `action` itself (before it is applied): SCOPE_* constant."""
    phase = state[S_PHASE]
    if phase == PH_DEAL or phase == PH_SHUFFLE:
        return SCOPE_NONE
    if phase == PH_WITCH_CHOICE:
        return SCOPE_ACTOR
    if phase == PH_NAME or (phase == PH_PICK and state[S_POWER] == INNKEEPER):
        return SCOPE_TEAM
    return SCOPE_ALL


# ===== legal actions and chance ========================================================
@jit
def _legal_actions(state, rules, out):
    """Write the legal player actions, increasing, into `out`; return how many."""
    n = rules[R_N]
    base = 4 * n
    phase = state[S_PHASE]
    k = 0
    if phase == PH_TURN:
        for p in range(n):
            if not state[S_FACEUP + p]:
                out[k] = p
                k += 1
        for p in range(n):
            if state[S_FACEUP + p] and state[S_CARD + p] != TRAITOR:
                out[k] = n + p
                k += 1
    elif phase == PH_AFTER_PEEK:
        if state[S_CARD + state[S_PEEK_POS]] != TRICKSTER:
            out[k] = base + A_SILENT
            k += 1
        for c in range(NUM_CHARACTERS):
            if rules[R_COUNTS + c] > 0 and c != TRICKSTER and c != TRAITOR:
                out[k] = base + A_ANNOUNCE + c
                k += 1
    elif phase == PH_RESPOND:
        out[0] = base + A_CHALLENGE
        out[1] = base + A_PASS
        k = 2
    elif phase == PH_REVEAL:
        for p in range(n):
            if not state[S_FACEUP + p]:
                out[k] = 2 * n + p
                k += 1
    elif phase == PH_PICK:
        power = state[S_POWER]
        for p in range(n):
            if power == DEPUTY and p == state[S_PICK]:
                continue
            if power == WITCH and p == state[S_POWER_POS]:
                continue
            out[k] = 3 * n + p
            k += 1
    elif phase == PH_WITCH_CHOICE:
        out[0] = base + A_KEEP
        out[1] = base + A_SWAP
        k = 2
    elif phase == PH_NAME:
        for c in range(NUM_CHARACTERS):
            if rules[R_COUNTS + c] > 0:
                out[k] = base + A_NAME + c
                k += 1
    return k


@jit
def _chance_outcomes(state, rules, actions, probs):
    """Write the chance outcomes, increasing, and their probabilities; return how many."""
    phase = state[S_PHASE]
    k = 0
    if phase == PH_DEAL:
        total = 0
        for c in range(NUM_CHARACTERS):
            total += state[S_POOL + c]
        for c in range(NUM_CHARACTERS):
            if state[S_POOL + c] > 0:
                actions[k] = c
                probs[k] = state[S_POOL + c] / total
                k += 1
    elif phase == PH_SHUFFLE:
        actions[0] = C_SHUFFLE_KEEP
        actions[1] = C_SHUFFLE_SWAP
        probs[0] = 0.5
        probs[1] = 0.5
        k = 2
    elif phase == PH_ORDER:
        players = rules[R_PLAYERS]
        for s in range(players):
            if (s != state[S_ACTOR] and _is_live(state, rules, s)
                    and not (state[S_ASKED] >> s) & 1):
                actions[k] = C_FASTEST + s
                k += 1
        for i in range(k):
            probs[i] = 1.0 / k
    return k


@jit
def _returns(state, rules, out):
    """Payoffs (constant-sum, zero-sum): docs/rules.md "Payoffs"."""
    players = rules[R_PLAYERS]
    winner = state[S_WINNER]
    for s in range(players):
        out[s] = 0.0
    if winner < 0:
        return
    if rules[R_TEAMS]:
        for s in range(players):
            out[s] = 1.0 if s % 2 == winner % 2 else -1.0
    else:
        for s in range(players):
            out[s] = 1.0 if s == winner else -1.0 / (players - 1)


# ===== random play =====================================================================
@jit
def _sample_chance(state, rules, actions, probs):
    k = _chance_outcomes(state, rules, actions, probs)
    r = np.random.random()
    acc = 0.0
    for i in range(k):
        acc += probs[i]
        if r < acc:
            return actions[i]
    return actions[k - 1]


@jit
def _random_step(state, rules, actions, probs):
    """One uniformly random legal move (chance by its probabilities); returns the action."""
    if state[S_PHASE] == PH_DEAL or state[S_PHASE] == PH_SHUFFLE or state[S_PHASE] == PH_ORDER:
        a = _sample_chance(state, rules, actions, probs)
    else:
        k = _legal_actions(state, rules, actions)
        a = actions[np.random.randint(k)]
    _apply_action(state, rules, a)
    return a


@jit
def _random_playout(state, rules):
    """Play uniformly random legal moves to the end of the round; return steps taken."""
    actions = np.empty(MAX_LEGAL, dtype=np.int64)
    probs = np.empty(MAX_CHANCE_OUTCOMES, dtype=np.float64)
    steps = 0
    while state[S_PHASE] != PH_TERMINAL:
        _random_step(state, rules, actions, probs)
        steps += 1
    return steps


@jit
def _seed(seed):
    np.random.seed(seed)
