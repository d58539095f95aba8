"""Plain-Python twin of the information abstraction (docs/abstraction.md).

Written from the documents, not from solver/mccfr/_abstraction.py, and reading nothing
of the core's state: a player's knowledge, this turn's peek, claim, power and picks are
rebuilt by reading that player's information-state string token by token
(docs/game-interface.md, "Information state strings"); the public facts of the moment
(phase, turn, strikes, face-up cards, the announcement and the power running) come from
the player's observation string ("Observation strings"); the deck from the variant.
It imports nothing private of game_def and nothing of solver. The integer encoding of
the features is the kernel's (docs/abstraction.md, "The fine key"), so the two can be
compared value for value.

Any table size (docs/abstraction.md, "Three and four players"): the look mark means some
other seat looked, a team's Innkeeper signal rides on the position codes (bits 22-25),
and beyond two seats the globals are eleven (the table features follow the six).

    glob, codes = features(state, player)          # state: a robin_wood state
    coarse = coarse_features(state, player)        # the coarse key's features
    classes = abstract_actions(state, player)      # legal action -> abstract index
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
SIGNAL_SHIFT = 22                         # 4 bits: the team's Innkeeper signal + 1 (0: none)
TURN_EDGES = (2, 4, 8, 16)               # bucket b: turns played >= TURN_EDGES[b-1]
# phase ids of the decisions (docs/abstraction.md, "The fine key": core phase id)
PHASES = {"turn": 0, "after_peek": 1, "respond": 2, "reveal": 4, "pick": 5,
          "witch_choice": 6, "name": 8}

PARTIAL = 1 << 19                         # action code of a card known as one of two
CANDIDATES = (1 << NUM_CHARACTERS) - 1
MAX_LOOKED = 4

CHAR_ID = {name: i for i, name in enumerate(NAMES)}
WITCH, DEPUTY, MONK, TRAITOR, INNKEEPER = (
    CHAR_ID[c] for c in ("Witch", "Deputy", "Monk", "Traitor", "Innkeeper"))
ROBIN_CAMP = {CHAR_ID["Robin"], CHAR_ID["Companion"]}
SHERIFF_CAMP = {CHAR_ID["Sheriff"], CHAR_ID["Deputy"]}


def turn_bucket(turns_played: int) -> int:
    """How many bucket edges the number of turns played has reached."""
    return sum(1 for edge in TURN_EDGES if turns_played >= edge)


@dataclass
class View:
    """What one seat knows about the table, position by position."""

    cand: list[int]             # candidate characters (bit mask)
    looked: list[bool]          # another seat looked at this card (or its pair)
    claim: list[int]            # last character claimed for the card there, -1 none
    signal: list[int] = None    # the team's Innkeeper signal for the card there, -1 none

    def __post_init__(self):
        if self.signal is None:
            self.signal = [-1] * len(self.cand)

    def blind_exchange(self, a: int, b: int) -> None:
        """a and b were exchanged, or not, out of this seat's sight."""
        self.cand[a] = self.cand[b] = self.cand[a] | self.cand[b]
        self.looked[a] = self.looked[b] = self.looked[a] or self.looked[b]
        self.signal[a] = self.signal[b] = -1      # which card was named is lost

    def swap(self, a: int, b: int) -> None:
        """a and b were exchanged in this seat's sight (its own Witch's swap)."""
        for field_ in (self.cand, self.looked, self.signal):
            field_[a], field_[b] = field_[b], field_[a]

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


def initial_face_up(variant) -> list[int]:
    """Positions face up when the round starts (Traitors): part of the public variant
    (docs/rules.md, "Deal": the lazy deal puts the Traitors face up at the last positions)."""
    n = variant.num_positions
    if variant.layout:
        return [p for p in range(n) if int(variant.layout[p]) == TRAITOR]
    return list(range(n - int(variant.counts[TRAITOR]), n))


@dataclass
class Board:
    """The public facts of the moment, read from a player's observation string:
    "P<p> | turn <t>/<max> actor <a> phase <name> strikes <s0>,<s1>[,..] | <pos>:<name or
    ?> ... [| peeked <p>] [| announced <name>] [| power <name>] [| responder <r>] [| hand ..]"
    """

    phase: str
    turns: int
    strikes: list[int]          # one entry per seat
    face_up: list[bool]
    announced: int              # the character announced, -1 none
    power: int                  # the power running, -1 none
    actor: int = -1             # whose turn it is
    responder: int = -1         # who is asked to challenge now, -1 none


def board(state, player: int) -> Board:
    parts = state.observation_string(player).split(" | ")
    assert parts[0] == f"P{player}", parts
    head = parts[1].split()
    assert head[0::2] == ["turn", "actor", "phase", "strikes"], head
    cells = parts[2].split()
    face_up = [cell.split(":")[1] != "?" for cell in cells]
    extra = dict(part.split(" ", 1) for part in parts[3:])
    return Board(phase=head[5], turns=int(head[1].split("/")[0]),
                 strikes=[int(x) for x in head[7].split(",")], face_up=face_up,
                 announced=CHAR_ID[extra["announced"]] if "announced" in extra else -1,
                 power=CHAR_ID[extra["power"]] if "power" in extra else -1,
                 actor=int(head[3]),
                 responder=int(extra["responder"]) if "responder" in extra else -1)


def view_from_record(record: str, player: int, variant,
                     hidden_step_pending: bool) -> tuple[View, _Turn]:
    """`player`'s knowledge after the events of their information-state string, and
    what the record says of the turn in progress.

    hidden_step_pending: the round is waiting on the step the player cannot see that
    follows the last recorded event (the Deputy's shuffle, another seat's keep/swap),
    so that step has not happened yet.

    Any table size: another seat's peek marks the card as looked at (some other seat may
    know it); another seat's Witch exchange is blind; a shuffle is blind for everybody;
    the Innkeeper's `pick`/`name`, which only the actor's team sees, sets the signal.
    """
    n = variant.num_positions
    view = View([FULL] * n, [False] * n, [-1] * n)
    for p in initial_face_up(variant):
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
                view.swap(a, b)
            view.moved(a, b)
        elif verb == "name":        # the Innkeeper's signal: seen by the actor's team only
            assert turn.power == INNKEEPER and turn.picks, (token, record)
            view.signal[turn.picks[0]] = CHAR_ID[arg]
        elif verb in ("reveal", "silent"):
            pass
        else:
            raise ValueError(f"unknown token {token!r} in {record!r}")
    if not hidden_step_pending:
        settle()
    return view, turn


def _read(state, player: int):
    """(variant, board, view, turn) of `player` at `state`: everything the twin uses."""
    variant = state.get_game().variant
    now = board(state, player)
    assert len(now.strikes) == variant.players, now
    # another seat's keep/swap (and a shuffle) follow the last token this seat sees
    view, turn = view_from_record(state.information_state_string(player), player, variant,
                                  now.phase in ("shuffle", "witch_choice"))
    return variant, now, view, turn


def features(state, player: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(global features, sorted position codes) of `player`'s view of a state: six
    globals with two seats, eleven beyond (docs/abstraction.md, "Three and four
    players": the opponent's strikes become -1 and the table features follow)."""
    variant, now, view, turn = _read(state, player)
    codes = position_codes(now, view, turn)
    if now.phase == "respond":
        detail = now.announced
    elif now.phase in ("reveal", "pick", "witch_choice"):
        detail = now.power
    else:
        detail = -1
    two = variant.players == 2
    glob = (player, PHASES[now.phase], now.strikes[player],
            now.strikes[1 - player] if two else -1, turn_bucket(now.turns), detail)
    if not two:
        glob += table_features(state, player, now)
    return glob, tuple(sorted(codes))


def table_features(state, player: int, now: Board | None = None) -> tuple[int, ...]:
    """The five table features beyond two seats, every seat named by its distance from
    `player` in turn order (1: the next seat): the strikes of the seats 1, 2, 3 after it
    (-1 past the table); at a response, the announcer's distance and the mask of the
    distances of the seats asked about this announcement so far, the responder
    included (else -1, -1). Who was asked: the seats that passed since the announcement
    in `player`'s record, and the responder of the observation string."""
    if now is None:
        now = board(state, player)
    players = len(now.strikes)
    out = [now.strikes[(player + r) % players] if r < players else -1 for r in (1, 2, 3)]
    if now.phase != "respond":
        return tuple(out + [-1, -1])
    tokens = state.information_state_string(player).split("; ")[1:]
    last = max(i for i, t in enumerate(tokens)
               if t.startswith(f"{now.actor}:announce "))
    asked = {now.responder}
    for t in tokens[last + 1:]:
        seat, _, text = t.partition(":")
        if text == "pass":
            asked.add(int(seat))
    assert now.actor not in asked and now.responder >= 0, (tokens, now)
    mask = sum(1 << ((s - player) % players) for s in asked)
    return tuple(out + [(now.actor - player) % players, mask])


def position_codes(now: Board, view: View, turn: _Turn) -> list[int]:
    """Unsorted code of each position for a seat's view (docs/abstraction.md): the
    roles are this turn's peek, the power's card and its first pick, from the record."""
    codes = []
    for p, up in enumerate(now.face_up):
        known = bin(view.cand[p]).count("1") == 1
        c = 0 if view.cand[p] == FULL else view.cand[p]
        if up:
            c |= FACE_UP                    # public: looks and claims no longer matter
        elif not known:                     # what others may know, have claimed, signalled
            c |= OTHER_LOOKED if view.looked[p] else 0
            c |= (view.claim[p] + 1) << CLAIM_SHIFT
            c |= (view.signal[p] + 1) << SIGNAL_SHIFT
        codes.append(c)
    if now.phase != "turn":
        roles = [(turn.peek, PEEKED), (turn.picks[0] if turn.picks else -1, PICKED)]
        if now.phase not in ("after_peek", "respond"):
            roles.append((turn.power_pos, POWER))
        for pos, bit in roles:
            if pos >= 0:
                codes[pos] |= bit
    return codes


def abstract_actions(state, player: int) -> dict[int, int]:
    """Legal action -> abstract action: position actions by the rank of their distinct
    (kind, action code), then the other actions one each, in id order."""
    variant, now, view, turn = _read(state, player)
    n = variant.num_positions
    codes = [action_code(c) for c in position_codes(now, view, turn)]
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
    where the decision does not use one. Beyond two seats "the opponent looked" reads
    "another seat looked" (the view's look mark already means that)."""
    variant, now, view, turn = _read(state, player)
    phase = now.phase

    def exact(p):
        cand = view.cand[p]
        return cand.bit_length() - 1 if bin(cand).count("1") == 1 else -1

    n = len(view.cand)
    known = [exact(p) for p in range(n)]
    located_r = sum(1 for c in known if c in ROBIN_CAMP)
    located_s = sum(1 for c in known if c in SHERIFF_CAMP)
    looked = sum(1 for p in range(n) if known[p] < 0 and not now.face_up[p]
                 and view.looked[p])
    out = [-1] * 5
    pos = turn.peek
    if phase in ("after_peek", "respond") and pos >= 0:
        out[0] = (known[pos] + 1) | (int(view.looked[pos]) << 4) | (
            (view.claim[pos] + 1) << 5)
    if phase != "respond":
        out[1], out[2] = located_r, located_s
    if phase in ("turn", "after_peek", "respond"):
        out[3] = min(looked, MAX_LOOKED)
    if phase == "respond":
        said = now.announced
        elsewhere = sum(1 for p in range(n) if p != pos and known[p] == said)
        out[4] = min(int(variant.counts[said]) - elsewhere, 2)
    return tuple(out)


# ----- letters: the coarse level's fixed alphabet (docs/abstraction.md, "Letters") ------
POSITION_PHASES = ("turn", "reveal", "pick")
CARD_LETTERS = 36
NUM_FIXED = 25                            # the core's fixed actions (silent ... name)
# fixed-action phases: (first fixed code, alphabet size)
FIXED_ALPHABETS = {"after_peek": (0, 11), "respond": (11, 2), "witch_choice": (13, 2),
                   "name": (15, 10)}


def card_letter(code: int) -> int:
    """What kind of card a position code is: a known character face down (0-9) or up
    (10-19); an unknown card by (other looked, claim camp) 20-27; a blind pair by (the
    camps it may hold, other looked) 28-35."""
    cand = code & CANDIDATES
    looked = 1 if code & OTHER_LOOKED else 0
    if bin(cand).count("1") == 1:
        return cand.bit_length() - 1 + (NUM_CHARACTERS if code & FACE_UP else 0)
    if cand == 0:
        claim = ((code >> CLAIM_SHIFT) & 15) - 1
        group = (0 if claim < 0 else 1 if claim in ROBIN_CAMP else 2 if claim in SHERIFF_CAMP
                 else 3)
        return 20 + 4 * looked + group
    chars = {c for c in range(NUM_CHARACTERS) if cand >> c & 1}
    camps = (1 if chars & ROBIN_CAMP else 0) | (2 if chars & SHERIFF_CAMP else 0)
    return 28 + 2 * camps + looked


def alphabet(phase: str) -> int:
    if phase in POSITION_PHASES:
        return 2 * CARD_LETTERS + NUM_FIXED
    return FIXED_ALPHABETS.get(phase, (0, NUM_FIXED))[1]


def letters(state, player: int) -> dict[int, int]:
    """Legal action -> its letter in the phase's alphabet: at a turn, peek letters then
    use letters; at a power, card letters, then those of a card in a role (peeked this
    turn, running the power, first pick); fixed actions after the position letters, or
    from the phase's first fixed code in a phase without position actions."""
    variant, now, view, turn = _read(state, player)
    n = variant.num_positions
    codes = position_codes(now, view, turn)
    out = {}
    for a in state.legal_actions():
        if a < 4 * n:
            c = card_letter(codes[a % n])
            if now.phase == "turn":
                out[a] = (a // n) * CARD_LETTERS + c
            else:
                role = codes[a % n] & (PEEKED | POWER | PICKED)
                out[a] = c + (CARD_LETTERS if role else 0)
        elif now.phase in POSITION_PHASES:
            out[a] = 2 * CARD_LETTERS + (a - 4 * n)
        else:
            out[a] = a - 4 * n - FIXED_ALPHABETS.get(now.phase, (0, NUM_FIXED))[0]
    return out
