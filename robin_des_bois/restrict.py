"""Restricted players of Robin des Bois: a player forbidden one kind of action, for
measuring what each mechanic is worth (restricted play, Jaffe et al., AIIDE 2012).

The rule, exactly: at every decision, the restricted player sees the legal actions less
those of the forbidden kind, and chooses among them as the free player would (the
search evaluates only those; a scripted player's rules read only those). When every
legal action is of the forbidden kind (a player who took two cards and holds no run
owes a steal; a counter when nothing else is legal never happens, since `allow` is
always legal beside it), the restriction cannot apply and the free choice stands.
`Restricted.bound` counts the decisions at which it removed something.

A player spec names the player and, after a slash, the restriction:
`search/never_steal` is the search forbidden to steal (`make("search/never_steal")`).
"""

from __future__ import annotations

import copy
import dataclasses

from . import actions as A
from .players import make_player


@dataclasses.dataclass(frozen=True)
class Restriction:
    """A restriction: its name, the action kinds it forbids, and what it means."""

    name: str
    kinds: tuple[int, ...]
    words: str


# The fixed list, in report order; the action kinds are those of robin_des_bois.actions.
RESTRICTIONS: dict[str, Restriction] = {r.name: r for r in (
    Restriction("never_steal", (A.STEAL,),
                "never lay a set to steal (unless taking two left a steal as the only "
                "action)"),
    Restriction("never_counter", (A.COUNTER,),
                "never counter a counterable steal (always allow it)"),
    Restriction("never_take_two", (A.TAKE2,), "never take two cards (always take one)"),
    Restriction("never_stash", (A.STASH,),
                "never stash a run (score only by what it steals)"),
)}


class Restricted:
    """`inner` forbidden the action kinds `kinds` wherever another legal action exists
    (module docstring)."""

    def __init__(self, inner, restriction: Restriction):
        self.inner, self.restriction = inner, restriction
        self.name = f"{getattr(inner, 'name', 'player')}/{restriction.name}"
        self.bound = 0

    def __call__(self, view) -> int:
        kinds = view.layout.kind_of
        allowed = [a for a in view.legal if kinds[a] not in self.restriction.kinds]
        if not allowed or len(allowed) == len(view.legal):
            return self.inner(view)
        self.bound += 1
        narrowed = copy.copy(view)        # the same knowledge, fewer choices
        narrowed.legal = allowed
        return self.inner(narrowed)


class SpecError(ValueError):
    """A player spec that names no player or no restriction (one line)."""


def make(spec: str, seed: int = 0):
    """The player a spec names: `NAME` (players.make_player) or `NAME/RESTRICTION`."""
    name, _, restriction = spec.partition("/")
    player = make_player(name, seed=seed)
    if not restriction:
        return player
    if restriction not in RESTRICTIONS:
        raise SpecError(f"unknown restriction {restriction!r} in {spec!r}: use one of "
                        f"{', '.join(RESTRICTIONS)}")
    return Restricted(player, RESTRICTIONS[restriction])
