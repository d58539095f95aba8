"""What each mechanic is worth (restricted play, Jaffe et al., AIIDE 2012): one seat is
forbidden a kind of move, the game is solved exactly with the restricted seat choosing
freely among what is left and the other seat free, and the restricted seat's loss of
game value is the mechanic's worth. A restriction that costs nothing is a finding.

Each restriction is written as a lock (solver.locks, docs/locks.md) for the restricted
seat whose actions are the ones forbidden: "announce seat=0: bluff=1" selects seat 0's
announcements and names its bluffs. Where only one action is left (never challenge:
pass; always tell the truth: announce the peeked card) the restricted game is the game
with the lock "respond seat=S: pass=1" (or "announce seat=S: truth=1"), and the value
equals that locked solve's (tests/test_restricted_play.py).

Values are brackets, not estimates: each solve runs DCFR to an exploitability target
and the game value lies in [lo, hi] (analysis.equilibrium); the loss's bracket is the
difference of the free and restricted brackets.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from game_def.characters import NAMES
from game_def.variant import Variant
from solver.exact.tree import FlatTree
from solver.locks import LockError, lock_decisions, parse_locks

from .equilibrium import Solved, solve
from .pruned_tree import applicable, forbid


@dataclasses.dataclass(frozen=True)
class Restriction:
    """A restriction: its name, what it forbids in words, and the lock naming the
    forbidden actions ({seat} filled in)."""

    name: str
    words: str
    lock: str

    def lock_for(self, seat: int) -> str:
        return self.lock.format(seat=seat)

    def forbid_lock(self, seat: int) -> str:
        """The same restriction as a forbid lock (solver.decisions), as Monte Carlo CFR
        and the table agents take it: `announce seat=0 forbid=bluff`."""
        head, _, tail = self.lock_for(seat).partition(":")
        names = [word.split("=")[0] for word in tail.split()]
        return f"{head.strip()} forbid={','.join(names)}"

    @property
    def positional(self) -> bool:
        """Whether it names positions (`use`): applied on the tree without the position
        symmetry, as locks that aim at positions are (docs/locks.md)."""
        return ": use" in self.lock


# The fixed list, in report order; never_claim_<card> follows for each announceable card.
RESTRICTIONS = (
    Restriction("never_bluff", "never announce a card other than the one peeked",
                "announce seat={seat}: bluff=1"),
    Restriction("always_truth", "always announce the card peeked (never bluff, never "
                "stay silent)", "announce seat={seat}: silent=0.5 bluff=0.5"),
    Restriction("never_silent", "never stay silent after a peek",
                "announce seat={seat}: silent=1"),
    Restriction("never_challenge", "never challenge a claim",
                "respond seat={seat}: challenge=1"),
    Restriction("never_announce_leader", "never announce Robin or the Sheriff",
                "announce seat={seat}: Robin=0.5 Sheriff=0.5"),
    Restriction("never_use_power", "never use a face-up card's power (always peek)",
                "turn seat={seat}: use=1"),
)


def restrictions_for(variant: Variant) -> tuple[Restriction, ...]:
    """The fixed list and, for each card the variant lets a player announce, never
    claiming it."""
    claims = tuple(Restriction(f"never_claim_{NAMES[c].lower()}",
                               f"never announce {NAMES[c]}",
                               f"announce seat={{seat}}: {NAMES[c]}=1")
                   for c in variant.announceable)
    return RESTRICTIONS + claims


def forbidden_slots(variant: Variant, tree: FlatTree, lock_text: str,
                    symmetric: bool) -> np.ndarray | None:
    """The action slots a restriction's lock names (where some action is left), or
    None when it selects no decision of the variant."""
    try:
        decided = lock_decisions(variant, tree, parse_locks([lock_text]), symmetric)
    except LockError as e:
        if "selects no decision" in str(e):
            return None
        raise
    slots = np.repeat(decided.locked, tree.infoset_num_actions) & (decided.probs > 0)
    slots = applicable(tree, slots)
    return slots if slots.any() else None


def restricted_value(variant: Variant, tree: FlatTree, restriction: Restriction,
                     seat: int, symmetric: bool, target: float) -> Solved | None:
    """The game solved with `seat` restricted (None: it restricts nothing here)."""
    slots = forbidden_slots(variant, tree, restriction.lock_for(seat), symmetric)
    if slots is None:
        return None
    return solve(forbid(tree, slots), target)


def restricted_play(variant: Variant, trees: dict, free: dict, targets=1e-4,
                    restrictions=None, seats=(0, 1), progress=None) -> pd.DataFrame:
    """One row per (restriction, seat): the seat's game value free and restricted, the
    value lost and its bracket [lost_lo, lost_hi], the restriction's lock.
    trees: {symmetric (bool): FlatTree}; free: {symmetric: Solved} of the free game on
    the same tree (positional restrictions use the tree without the symmetry);
    targets: the exploitability target, or {symmetric: target}."""
    if not isinstance(targets, dict):
        targets = {True: targets, False: targets}
    rows = []
    for r in restrictions or restrictions_for(variant):
        symmetric = not r.positional and True in trees
        tree, base = trees[symmetric], free[symmetric]
        for seat in seats:
            if progress is not None:
                progress(f"restricted play: seat {seat} {r.name}")
            solved = restricted_value(variant, tree, r, seat, symmetric,
                                      targets[symmetric])
            v, lo, hi = base.seat_value(seat)
            row = {"restriction": r.name, "seat": seat, "forbids": r.words,
                   "lock": r.lock_for(seat), "tree": "symmetric" if symmetric else "full",
                   "free_value": v}
            if solved is None:
                rows.append({**row, "restricted_value": np.nan, "value_lost": np.nan,
                             "lost_lo": np.nan, "lost_hi": np.nan,
                             "applies": False})
                continue
            rv, rlo, rhi = solved.seat_value(seat)
            rows.append({**row, "restricted_value": rv, "value_lost": v - rv,
                         "lost_lo": lo - rhi, "lost_hi": hi - rlo, "applies": True})
    return pd.DataFrame(rows)
