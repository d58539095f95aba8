"""Lock a decision from the Browse tab and re-solve in the background.

The user picks action probabilities at an announcement or a response of an exact run.
The lock is written for every decision like this one: the same kind, seat, peeked card
or claim, strikes and turn (`lock_line`). A background thread solves the run's variant
again with that lock (solver.locks, DCFR to the run's own exploitability or 1e-3,
whichever is larger) into a temporary folder. The answer gives each seat's value, its
shift from the same solve without the lock, and the re-solved strategy at the decision
the user locked, next to the run's.
"""

from __future__ import annotations

import dataclasses
import itertools
import shutil
import tempfile
import threading
from pathlib import Path

from game_def import kernels as k
from solver.locks import LockError, LockSet, parse_locks

from .session import BadRequest


def lock_line(run, state, probs: dict) -> str:
    """The lock that plays `probs` (action string -> probability) at every decision like
    the one at `state`: an announcement (silent or a character) or a response."""
    if state.is_terminal() or state.is_chance_node():
        raise BadRequest("lock a decision: this situation has none")
    s = state.core_state
    phase = int(s[k.S_PHASE])
    seat = state.current_player()
    where = [f"seat={seat}", f"strikes={int(s[k.S_STRIKES + seat])}",
             f"turn={int(s[k.S_TURN]) + 1}"]
    legal = {state.action_to_string(seat, a) for a in state.legal_actions()}
    unknown = set(probs) - legal
    if unknown:
        raise BadRequest(f"not legal here: {', '.join(sorted(unknown))}")
    if phase == k.PH_AFTER_PEEK:
        from game_def.characters import NAMES

        peeked = NAMES[int(s[k.S_CARD + int(s[k.S_PEEK_POS])])]
        head = f"announce peeked={peeked} " + " ".join(where)
        keys = {t: ("silent" if t == "silent" else t.split()[1]) for t in probs}
    elif phase == k.PH_RESPOND:
        from game_def.characters import NAMES

        claim = NAMES[int(s[k.S_ANNOUNCED])]
        head = f"respond claim={claim} " + " ".join(where)
        keys = {t: t for t in probs}
    else:
        raise BadRequest("only announcements and responses can be locked from here: "
                         "turns and powers aim at positions (use robinwood solve --lock)")
    body = " ".join(f"{keys[t]}={float(p):g}" for t, p in probs.items())
    return f"{head}: {body}"


@dataclasses.dataclass
class RelockJob:
    """One background re-solve: its lock, state and result."""

    id: str
    lock: str
    out: Path
    state: str = "running"       # running | done | failed
    error: str | None = None
    summary: dict | None = None
    here: dict | None = None     # action string -> re-solved probability at the decision

    def view(self) -> dict:
        out = {"id": self.id, "lock": self.lock, "state": self.state, "error": self.error}
        if self.summary is not None:
            s = self.summary
            out.update(values=s["values"], value_shift=s["value_shift"],
                       exploitability=s["exploitability"], iterations=s["iterations"],
                       fixed=sum(r["fixed"] for r in s["locks"]), here=self.here)
        return out


class Relocker:
    """The explorer's re-solves, one thread each, kept for the server's life."""

    def __init__(self, run):
        self.run = run
        self.jobs: dict[str, RelockJob] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._root = Path(tempfile.mkdtemp(prefix="robinwood-relock-"))

    def start(self, state, probs: dict) -> RelockJob:
        if self.run.kind != "exact":
            raise BadRequest("re-solving with a lock needs an exact run (a reduced deck)")
        if not isinstance(probs, dict) or not probs:
            raise BadRequest("send probs: {action string: probability, ...}")
        text = lock_line(self.run, state, probs)
        try:
            locks = LockSet(parse_locks([text]))
        except LockError as e:
            raise BadRequest(str(e)) from None
        history = [int(a) for a in state.history()]
        with self._lock:
            job_id = str(next(self._ids))
            job = self.jobs[job_id] = RelockJob(job_id, text, self._root / f"run{job_id}")
        threading.Thread(target=self._solve, args=(job, locks, history),
                         daemon=True).start()
        return job

    def _solve(self, job: RelockJob, locks, history) -> None:
        from solver import load_strategy
        from solver.exact.cfr import algorithm
        from solver.exact.job import SolveConfig, solve

        try:
            target = max(float(self.run.metadata.get("exploitability") or 1e-3), 1e-3)
            summary = solve(SolveConfig(self.run.variant, algorithm("dcfr"), job.out,
                                        target_exploitability=target,
                                        max_iterations=5000, locks=locks))
            policy = load_strategy(job.out)
            state = policy.game.new_initial_state()
            for a in history:
                state.apply_action(a)
            probs = policy.action_probabilities(state)
            me = state.current_player()
            job.here = {state.action_to_string(me, a): float(probs.get(a, 0.0))
                        for a in state.legal_actions()}
            job.summary = summary
            job.state = "done"
        except Exception as e:  # the user's lock or the solve failed: say so
            job.error = f"{type(e).__name__}: {e}"
            job.state = "failed"

    def get(self, job_id: str) -> RelockJob | None:
        return self.jobs.get(job_id)

    def close(self) -> None:
        shutil.rmtree(self._root, ignore_errors=True)
