"""Locked decisions: fix how chosen decisions are played (a rule of thumb, a named
player, uniform play) and solve the rest, as poker solvers' node locking does.

    from solver.locks import Lock, parse_locks
    locks = parse_locks(["respond claim=Monk: pass=1", "seat=1 play=uniform"])
    robinwood solve --deck rspmx --max-turns 3 --lock 'respond claim=Monk: pass=1' ...

The grammar is in solver.decisions.language; how a locked exact solve works, in
solver.locks.exact and docs/locks.md.
"""

from .exact import (LockedDecisions, LockReport, LockSet, infoset_features, lock_decisions,
                    lock_of_decision)
from solver.decisions import Lock, LockError, load_lock_file, parse_locks

__all__ = ["Lock", "LockError", "LockReport", "LockSet", "LockedDecisions", "infoset_features",
           "load_lock_file", "lock_decisions", "lock_of_decision", "parse_locks"]
