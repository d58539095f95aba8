"""The lock language: which decisions to fix, and how they are played.

A lock is one line, the same on the command line (`--lock`), in a TOML file
(`--lock-file`, a list `lock = ["...", ...]`) and in Python (`Lock.parse`):

    [KIND] [key=value ...] : action=probability ...     fixed action probabilities
    [KIND] [key=value ...] play=NAME                     played as a named player
    [KIND] [key=value ...] forbid=ACTION[,ACTION...]     never played (restricted play)

KIND is the decision kind: `turn` (peek or use), `announce` (after a peek: silent or an
announcement), `respond` (challenge or pass) or `power` (unmasking, picks, the Witch's
keep or swap, the Innkeeper's naming); none means every kind. The selectors, each
optional, read only what the mover knows:

    seat=S          the mover's seat (0-based)
    peeked=CARD     announce decisions: the card the mover just peeked
    claim=CARD      respond decisions: the character announced
    power=CARD      power decisions: the character whose power is running
    strikes=N       the mover's own strikes
    turn=T, turn=A-B    the turn (1 is the round's first), or a range of turns
    faceup=CARD     a card of that character lies face up

Actions name a class of the decision's legal actions: the verbs of the action strings
(`peek`, `use`, `reveal`, `pick`, `silent`, `announce`, `challenge`, `pass`, `keep`,
`swap`, `name`), `truth` and `bluff` (announcing the peeked card, or another), or a
character (announcing it, or naming it at the Innkeeper's power). The probabilities must
sum to 1. A class gets its probability spread evenly over the legal actions it matches
that no earlier class of the same lock matched; where a class matches no legal action,
its share goes to the others in proportion, and where none matches, the lock does not
apply to that decision (counted). NAME is `uniform` or a scripted player (PLAYER_NAMES:
the baseline bots and the league of solver.scripted).
When two locks select one decision, the later one holds.

A forbid lock fixes nothing: it takes the classes it names out of the legal actions of
the decisions it selects, and the mover chooses freely among the rest (restricted play,
Jaffe et al. 2012; analysis.audit_sampled). Where it would leave no action it does not
apply. Forbids are applied before any other lock. Monte Carlo CFR learns the restricted
seat's strategy over what is left and the table agents play the same restriction; exact
solves prune the tree instead (analysis.pruned_tree), so exact solves refuse forbid locks.

Examples: `respond claim=Monk: pass=1` (nobody challenges the Monk), `announce
peeked=Robin: truth=0.9 silent=0.1`, `seat=1 play=paranoid`, `seat=1 play=uniform`,
`announce seat=0 forbid=bluff` (seat 0 never bluffs, but may stay silent).
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

from game_def.characters import NAMES
from game_def.errors import RobinWoodError
from solver.scripted import BASIC_NAMES, LEAGUE_NAMES

KINDS = ("turn", "announce", "respond", "power")
VERBS = ("peek", "use", "reveal", "pick", "silent", "announce", "challenge", "pass",
         "keep", "swap", "name")
CARD_SELECTORS = ("peeked", "claim", "power", "faceup")
# whom a whole decision set may be played as: uniform play, the baseline bots and the
# league players (solver.scripted)
PLAYER_NAMES = BASIC_NAMES + LEAGUE_NAMES + ("sound",)
SELECTORS = ("seat", "strikes", "turn") + CARD_SELECTORS


class LockError(RobinWoodError):
    """A lock that cannot be read or that selects nothing: the message names the
    problem and the fix."""


def _card(text: str, where: str) -> str:
    for name in NAMES:
        if name.lower() == text.lower():
            return name
    close = difflib.get_close_matches(text.capitalize(), NAMES, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise LockError(f"unknown card {text!r} in {where}{hint}: the characters are "
                    f"{', '.join(NAMES)}")


def _int(text: str, what: str, where: str, low: int = 0) -> int:
    try:
        value = int(text)
    except ValueError:
        raise LockError(f"{what}={text!r} in {where} is not a whole number") from None
    if value < low:
        raise LockError(f"{what}={value} in {where} must be at least {low}")
    return value


@dataclasses.dataclass(frozen=True)
class Lock:
    """One lock: selectors (None: any) and either `actions` (class -> probability, in
    order) or `play` (a player's name)."""

    kind: str | None = None
    seat: int | None = None
    peeked: str | None = None
    claim: str | None = None
    power: str | None = None
    strikes: int | None = None
    turns: tuple[int, int] | None = None   # first and last turn, 1-based, inclusive
    faceup: str | None = None
    actions: tuple[tuple[str, float], ...] = ()
    play: str | None = None
    forbid: tuple[str, ...] = ()
    text: str = ""

    # ----- reading ------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> "Lock":
        """A lock from its one-line form (the module docstring's grammar)."""
        where = f"lock {text!r}"
        head, colon, tail = text.partition(":")
        fields: dict = {"text": " ".join(text.split())}
        words = head.split()
        if not words and not colon:
            raise LockError(f"{where} is empty: write for example 'respond claim=Monk: "
                            f"pass=1' or 'seat=1 play=uniform'")
        if words and "=" not in words[0]:
            kind = words.pop(0).lower()
            if kind not in KINDS:
                raise LockError(f"unknown decision kind {kind!r} in {where}: choose one "
                                f"of {', '.join(KINDS)} (or none, for every kind)")
            fields["kind"] = kind
        for word in words:
            key, eq, value = word.partition("=")
            key = key.lower()
            if not eq or not value:
                raise LockError(f"{word!r} in {where} is not key=value")
            if key == "play":
                fields["play"] = value.lower()
            elif key == "forbid":
                fields["forbid"] = tuple(_action_name(name, where)
                                         for name in value.split(",") if name)
                if len(set(fields["forbid"])) != len(fields["forbid"]):
                    raise LockError(f"{where} forbids an action twice")
            elif key == "seat":
                fields["seat"] = _int(value, key, where)
            elif key == "strikes":
                fields["strikes"] = _int(value, key, where)
            elif key == "turn":
                first, dash, last = value.partition("-")
                a = _int(first, "turn", where, 1)
                b = _int(last, "turn", where, 1) if dash else a
                if b < a:
                    raise LockError(f"turn={value} in {where} ends before it starts")
                fields["turns"] = (a, b)
            elif key in CARD_SELECTORS:
                fields[key] = _card(value, where)
            else:
                raise LockError(f"unknown selector {key!r} in {where}: choose among "
                                f"{', '.join(SELECTORS)}, or play=NAME")
        ways = ("play" in fields) + ("forbid" in fields) + bool(colon)
        if ways > 1:
            given = " and ".join(name for name, there in (
                ("play=", "play" in fields), ("forbid=", "forbid" in fields),
                ("action probabilities", bool(colon))) if there)
            raise LockError(f"{where} gives both {given}: choose one")
        if colon:
            fields["actions"] = _actions(tail, where)
        elif ways == 0:
            raise LockError(f"{where} says neither how to play (': action=probability "
                            f"...'), whom to play as (play=NAME) nor what to forbid "
                            f"(forbid=ACTION)")
        return cls(**fields)

    def for_seat(self, seat: int) -> "Lock":
        """This lock on `seat` alone (its text says so, so that it reads back the same
        from a run's metadata)."""
        if self.seat == seat:
            return self
        if self.seat is not None:
            raise LockError(f"lock {self.text!r} is for seat {self.seat}, not {seat}")
        head, colon, tail = self.text.partition(":")
        words = head.split()
        at = 1 if words and "=" not in words[0] else 0
        words.insert(at, f"seat={seat}")
        return Lock.parse(" ".join(words) + colon + tail)

    def check_play(self) -> None:
        """The named player exists."""
        if self.play is not None and self.play not in PLAYER_NAMES:
            raise LockError(f"unknown player {self.play!r} in lock {self.text!r}: choose "
                            f"one of {', '.join(PLAYER_NAMES)}")

    def __str__(self) -> str:
        return self.text


def _action_name(key: str, where: str) -> str:
    """An action class as the language spells it (a verb, truth, bluff, a character)."""
    low = key.lower()
    if low in VERBS or low in ("truth", "bluff"):
        return low
    names = {n.lower(): n for n in NAMES}
    if low in names:
        return names[low]
    raise LockError(f"unknown action {key!r} in {where}: choose among "
                    f"{', '.join(VERBS)}, truth, bluff or a character")


def _actions(text: str, where: str) -> tuple[tuple[str, float], ...]:
    out = []
    for word in text.replace(",", " ").split():
        key, eq, value = word.partition("=")
        if not eq:
            raise LockError(f"{word!r} in {where} is not action=probability")
        key = _action_name(key, where)
        try:
            p = float(value)
        except ValueError:
            raise LockError(f"{word!r} in {where}: {value!r} is not a probability") from None
        if not 0.0 <= p <= 1.0 or math.isnan(p):
            raise LockError(f"{word!r} in {where}: a probability is between 0 and 1")
        if any(key == k for k, _ in out):
            raise LockError(f"{where} names {key!r} twice")
        out.append((key, p))
    if not out:
        raise LockError(f"{where} gives no action after ':'; write for example "
                        f"'pass=1'")
    total = sum(p for _, p in out)
    if abs(total - 1.0) > 1e-9:
        raise LockError(f"the probabilities in {where} sum to {total:g}, not 1: add the "
                        f"missing share to another action")
    return tuple(out)


def parse_locks(texts) -> tuple[Lock, ...]:
    """Locks from their one-line forms, every one checked."""
    locks = tuple(t if isinstance(t, Lock) else Lock.parse(t) for t in texts)
    for lock in locks:
        lock.check_play()
    return locks


def load_lock_file(path) -> tuple[Lock, ...]:
    """Locks from a TOML file holding `lock = ["...", ...]`."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LockError(f"lock file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as e:
        raise LockError(f"lock file {path} cannot be read: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise LockError(f"lock file {path} is not valid TOML: {e}") from None
    unknown = set(data) - {"lock"}
    if unknown:
        raise LockError(f"lock file {path} has unknown key(s) {', '.join(sorted(unknown))}: "
                        f"it holds lock = [\"...\", ...]")
    texts = data.get("lock", [])
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts) or not texts:
        raise LockError(f"lock file {path}: lock must be a non-empty list of strings, "
                        f"for example lock = [\"respond claim=Monk: pass=1\"]")
    return parse_locks(texts)
