"""Plain-Python twin of the information abstraction (docs/abstraction.md).

Written from the document, not from solver/mccfr/_abstraction.py: a player's knowledge is
rebuilt by reading that player's information-state string token by token, and the
state contributes only public facts (face-up cards, strikes, turns played, the phase
and the public fields of the pending decision). The integer encoding of the features
is the kernel's (docs/abstraction.md, "Per-position code"), so the two can be compared
value for value.

    glob, codes = features(state, player)          # state: a robin_wood state
    coarse = coarse_features(state, player)        # the coarse key's features
    classes = abstract_actions(state, player)      # legal action -> abstract index
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game_def import _core as k
from game_def.characters import NAMES

NUM_CHARACTERS = 10
FULL = (1 << NUM_CHARACTERS) - 1          # "could be anything": encoded as 0
FACE_UP = 1 << 10
OTHER_LOOKED = 1 << 11
CLAIM_SHIFT = 12                          # 4 bits: claimed character + 1 (0: none)
PEEKED = 1 << 16                          # this turn's peeked card
POWER = 1 << 17                           # the card whose power runs
PICKED = 1 << 18                          # the power's first pick
KIND_SHIFT = 20                           # abstract classes: (action kind, code)
TURN_EDGES = (2, 4, 8, 16)               # bucket b: turns played >= TURN_EDGES[b-1]

PARTIAL = 1 << 19                         # action code of a card known as one of two
CANDIDATES = (1 << NUM_CHARACTERS) - 1
MAX_LOOKED = 4

CHAR_ID = {name: i for i, name in enumerate(NAMES)}
WITCH, DEPUTY, MONK, TRAITOR = (CHAR_ID[c] for c in ("Witch", "Deputy", "Monk", "Traitor"))
ROBIN_CAMP = {CHAR_ID["Robin"], CHAR_ID["Companion"]}
SHERIFF_CAMP = {CHAR_ID["Sheriff"], CHAR_ID["Deputy"]}


def turn_bucket(turns_played: int) -> int:
    """How many bucket edges the number of turns played has reached."""
    return sum(1 for edge in TURN_EDGES if turns_played >= edge)


@dataclass
class View:
    """What one seat knows about the table, position by position."""

    cand: list[int]             # candidate characters (bit mask)
    looked: list[bool]          # the other seat looked at this card (or its pair)
    claim: list[int]            # last character claimed for the card there, -1 none

    def blind_exchange(self, a: int, b: int) -> None:
        """a and b were exchanged, or not, out of this seat's sight."""
        self.cand[a] = self.cand[b] = self.cand[a] | self.cand[b]
        self.looked[a] = self.looked[b] = self.looked[a] or self.looked[b]

    def moved(self, a: int, b: int) -> None:
        self.claim[a] = self.claim[b] = -1


@dataclass
class _Turn:
    """What the record has said so far about the turn in progress."""

    actor: int = -1
    peek: int = -1
    announced: int = -1
    challenged: bool = False
    power: int = -1
    power_pos: int = -1
    picks: list[int] = field(default_factory=list)


def initial_face_up(rules) -> list[int]:
    """Positions face up when the round starts (Traitors): part of the public variant."""
    n = int(rules[k.R_N])
    if rules[k.R_HAS_LAYOUT]:
        return [p for p in range(n) if rules[k.R_LAYOUT + p] == TRAITOR]
    return list(range(n - int(rules[k.R_COUNTS + TRAITOR]), n))


def view_from_record(record: str, player: int, rules, hidden_step_pending: bool) -> View:
    """`player`'s knowledge after the events of their information-state string.

    hidden_step_pending: the round is waiting on the step the player cannot see that
    follows the last recorded event (the Deputy's shuffle, the other seat's keep/swap),
    so that step has not happened yet.
    """
    n = int(rules[k.R_N])
    view = View([FULL] * n, [False] * n, [-1] * n)
    for p in initial_face_up(rules):
        view.cand[p] = 1 << TRAITOR
    tokens = record.split("; ")
    assert tokens[0] == f"P{player}", record
    tokens = tokens[1:]
    turn = _Turn()
    pending = None              # a blind exchange that happens after the last token seen

    def settle():
        nonlocal pending
        if pending is not None:
            a, b, actor_looked = pending
            view.blind_exchange(a, b)
            if actor_looked:            # the Witch looked at both cards she held
                view.looked[a] = view.looked[b] = True
            view.moved(a, b)
            pending = None

    for i, token in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if "=" in token:                        # an identity this player now knows
            pos, name = token.split("=")
            pos, char = int(pos), CHAR_ID[name]
            view.cand[pos] = 1 << char
            if turn.challenged and pos == turn.peek and char == turn.announced:
                turn.power, turn.power_pos = char, pos      # a true claim: power runs
            continue
        settle()
        if token.startswith("fastest"):
            continue
        seat, text = token.split(":")
        seat = int(seat)
        verb, _, arg = text.partition(" ")
        if verb in ("peek", "use"):
            turn = _Turn(actor=seat)
        if verb == "peek":
            turn.peek = int(arg)
            # Someone else's peek is private unless the card was a Traitor.
            if seat != player and nxt != f"{arg}={NAMES[TRAITOR]}":
                view.looked[turn.peek] = True
        elif verb == "use":
            pos = int(arg)
            turn.power, turn.power_pos = view.cand[pos].bit_length() - 1, pos
        elif verb == "announce":
            turn.announced = CHAR_ID[arg]
            view.claim[turn.peek] = turn.announced
        elif verb == "challenge":
            turn.challenged = True
        elif verb == "pass":
            turn.power, turn.power_pos = turn.announced, turn.peek
        elif verb == "pick":
            pos = int(arg)
            turn.picks.append(pos)
            if turn.power == DEPUTY and len(turn.picks) == 2:
                pending = (turn.picks[0], pos, False)       # the blind shuffle
            elif turn.power == WITCH and seat != player:
                view.looked[pos] = True                     # she looks at her pick
                pending = (turn.power_pos, pos, True)       # then keeps or swaps, unseen
        elif verb in ("keep", "swap"):                      # our own Witch's choice
            a, b = turn.power_pos, turn.picks[0]
            if verb == "swap":
                view.cand[a], view.cand[b] = view.cand[b], view.cand[a]
                view.looked[a], view.looked[b] = view.looked[b], view.looked[a]
            view.moved(a, b)
        elif verb in ("reveal", "silent", "name"):
            pass
        else:
            raise ValueError(f"unknown token {token!r} in {record!r}")
    if not hidden_step_pending:
        settle()
    return view


def features(state, player: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(global features, sorted position codes) of `player`'s view of a two-player state."""
    game = state.get_game()
    rules = game.rules
    assert int(rules[k.R_PLAYERS]) == 2 and not rules[k.R_TEAMS], "two players only"
    core = state.core_state
    phase = int(core[k.S_PHASE])
    hidden_pending = phase in (k.PH_SHUFFLE, k.PH_WITCH_CHOICE)
    view = view_from_record(state.information_state_string(player), player, rules,
                            hidden_pending)
    codes = position_codes(state, view)
    strikes = state.strikes
    if phase == k.PH_RESPOND:
        detail = int(core[k.S_ANNOUNCED])
    elif phase in (k.PH_REVEAL, k.PH_PICK, k.PH_WITCH_CHOICE):
        detail = int(core[k.S_POWER])
    else:
        detail = -1
    glob = (player, phase, strikes[player], strikes[1 - player],
            turn_bucket(state.turns_played), detail)
    return glob, tuple(sorted(codes))


def position_codes(state, view: View) -> list[int]:
    """Unsorted code of each position for a seat's view (docs/abstraction.md)."""
    core = state.core_state
    phase = int(core[k.S_PHASE])
    codes = []
    for p, up in enumerate(state.face_up):
        known = bin(view.cand[p]).count("1") == 1
        c = 0 if view.cand[p] == FULL else view.cand[p]
        if up:
            c |= FACE_UP                    # public: looks and claims no longer matter
        elif not known:                     # what the opponent may know, and has claimed
            c |= OTHER_LOOKED if view.looked[p] else 0
            c |= (view.claim[p] + 1) << CLAIM_SHIFT
        codes.append(c)
    roles = [(k.S_PEEK_POS, PEEKED), (k.S_PICK, PICKED)]
    if phase not in (k.PH_TURN, k.PH_AFTER_PEEK, k.PH_RESPOND):
        roles.append((k.S_POWER_POS, POWER))
    if phase != k.PH_TURN:
        for f, bit in roles:
            if core[f] >= 0:
                codes[int(core[f])] |= bit
    return codes


def abstract_actions(state, player: int) -> dict[int, int]:
    """Legal action -> abstract action: position actions by the rank of their distinct
    (kind, action code), then the other actions one each, in id order."""
    n = int(state.get_game().rules[k.R_N])
    rules = state.get_game().rules
    core = state.core_state
    hidden_pending = int(core[k.S_PHASE]) in (k.PH_SHUFFLE, k.PH_WITCH_CHOICE)
    view = view_from_record(state.information_state_string(player), player, rules,
                            hidden_pending)
    codes = [action_code(c) for c in position_codes(state, view)]
    legal = state.legal_actions()
    classes = sorted({(a // n, codes[a % n]) for a in legal if a < 4 * n})
    out = {a: classes.index((a // n, codes[a % n])) for a in legal if a < 4 * n}
    rest = [a for a in legal if a >= 4 * n]
    for j, a in enumerate(sorted(rest)):
        out[a] = len(classes) + j
    return out


def action_code(code: int) -> int:
    """A position code as actions see it (docs/abstraction.md, "Abstract actions"): a
    claim only by its camp (none, Robin's, the Sheriff's, another character), and a
    card known as one of two by the camps the pair may hold."""
    claim = ((code >> CLAIM_SHIFT) & 15) - 1
    group = (0 if claim < 0 else 1 if claim in ROBIN_CAMP else 2 if claim in SHERIFF_CAMP
             else 3)
    code = (code & ~(15 << CLAIM_SHIFT)) | (group << CLAIM_SHIFT)
    cand = code & CANDIDATES
    if bin(cand).count("1") <= 1:
        return code
    chars = {c for c in range(NUM_CHARACTERS) if cand >> c & 1}
    camps = (1 if chars & ROBIN_CAMP else 0) | (2 if chars & SHERIFF_CAMP else 0)
    return (code & ~CANDIDATES) | PARTIAL | camps


def coarse_features(state, player: int) -> tuple[int, ...]:
    """The coarse key's features of `player`'s decision (docs/abstraction.md, "The coarse
    key"): focus, located cards of each camp, opponent-looked cards, claim left; -1
    where the decision does not use one."""
    rules = state.get_game().rules
    core = state.core_state
    phase = int(core[k.S_PHASE])
    view = view_from_record(state.information_state_string(player), player, rules,
                            phase in (k.PH_SHUFFLE, k.PH_WITCH_CHOICE))

    def exact(p):
        cand = view.cand[p]
        return cand.bit_length() - 1 if bin(cand).count("1") == 1 else -1

    n = len(view.cand)
    known = [exact(p) for p in range(n)]
    located_r = sum(1 for c in known if c in ROBIN_CAMP)
    located_s = sum(1 for c in known if c in SHERIFF_CAMP)
    looked = sum(1 for p in range(n) if known[p] < 0 and not state.face_up[p]
                 and view.looked[p])
    out = [-1] * 5
    pos = int(core[k.S_PEEK_POS])
    if phase in (k.PH_AFTER_PEEK, k.PH_RESPOND) and pos >= 0:
        out[0] = (known[pos] + 1) | (int(view.looked[pos]) << 4) | (
            (view.claim[pos] + 1) << 5)
    if phase != k.PH_RESPOND:
        out[1], out[2] = located_r, located_s
    if phase in (k.PH_TURN, k.PH_AFTER_PEEK, k.PH_RESPOND):
        out[3] = min(looked, MAX_LOOKED)
    if phase == k.PH_RESPOND:
        said = int(core[k.S_ANNOUNCED])
        elsewhere = sum(1 for p in range(n) if p != pos and known[p] == said)
        out[4] = min(int(rules[k.R_COUNTS + said]) - elsewhere, 2)
    return tuple(out)
