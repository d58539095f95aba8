"""Decisions as the mover sees them, and locks on them: the lock language (which
decisions to fix and how they are played), its compiled form for the kernels, and the
kernel that plays a locked decision.

    from solver.decisions import parse_locks, compile_locks
    rules = compile_locks(parse_locks(["respond claim=Monk: pass=1", "seat=1 play=paranoid"]))

Below Monte Carlo CFR and the table agents in the layering, so that training and play
honour locks the same way; exact trees apply them in solver.locks.
"""

from .language import PLAYER_NAMES, Lock, LockError, load_lock_file, parse_locks
from .rules import check_locks, compile_locks, no_locks, seat_locks

__all__ = ["Lock", "LockError", "PLAYER_NAMES", "check_locks", "compile_locks",
           "load_lock_file", "no_locks", "parse_locks", "seat_locks"]
