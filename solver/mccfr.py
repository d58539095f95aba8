"""Monte Carlo CFR for two-player rounds of any deck, over the information abstraction.

`MCCFRSolver` owns two seat tables and runs batches of sampled traversals on the numba
kernels of solver._mccfr (no Python in the loop). Between batches it discounts
(linear or DCFR weighting), grows the tables within a memory cap and refreshes the
snapshot each seat's opponent reads. Everything that defines the run (tables, random
states, batch count) is in `state_arrays()`, so a checkpoint resumes bit-exactly.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Callable

import numpy as np

from game_def.core import rules_array
from game_def.errors import RobinWoodError
from game_def.variant import Variant

from . import _mccfr as kern

SAMPLINGS = {"external": kern.EXTERNAL, "outcome": kern.OUTCOME}
WEIGHTINGS = ("none", "linear", "discounted")
BYTES_PER_ENTRY = 8 * 3 + 8 * 2   # keys, offset, nact + about two slots (load <= 1/2)
BYTES_PER_ACTION = 4 * 3          # regret, ssum, snap as float32


class MCCFRError(RobinWoodError):
    """A Monte Carlo CFR run cannot be set up as asked."""


@dataclasses.dataclass(frozen=True)
class MCCFRConfig:
    """What defines a Monte Carlo CFR run (everything here is recorded with it).

    batch_iterations: traversals per seat between two snapshots of the opponent's
    policy (and between two discounts). Results depend on it, not on `workers`.
    """

    variant: Variant
    sampling: str = "external"
    weighting: str = "linear"
    alpha: float = 1.5          # DCFR weighting exponents (weighting="discounted")
    beta: float = 0.0
    gamma: float = 2.0
    epsilon: float = 0.6        # exploration of sampled traverser actions
    expand_p: float = 0.3       # external sampling: chance to expand a traverser decision
    max_branching: int = 64     # ... while expanded branchings on the path multiply to <= this
    batch_iterations: int = 1000
    workers: int = 2
    seed: int = 0
    max_table_bytes: int = 8 * 1024**3

    def __post_init__(self):
        if self.variant.players != 2 or self.variant.teams:
            raise MCCFRError(f"Monte Carlo CFR solves two-player rounds (got "
                             f"players={self.variant.players}"
                             f"{', teams' if self.variant.teams else ''}); "
                             f"use `robinwood simulate` for 3-4 players")
        if self.sampling not in SAMPLINGS:
            raise MCCFRError(f"unknown sampling {self.sampling!r}: choose one of "
                             f"{', '.join(SAMPLINGS)}")
        if self.weighting not in WEIGHTINGS:
            raise MCCFRError(f"unknown weighting {self.weighting!r}: choose one of "
                             f"{', '.join(WEIGHTINGS)}")
        if self.workers not in (1, 2):
            raise MCCFRError(f"workers must be 1 or 2 (one per seat), got {self.workers}")
        if self.batch_iterations < 1:
            raise MCCFRError(f"batch_iterations must be at least 1, got "
                             f"{self.batch_iterations}")
        if not 0 < self.epsilon <= 1:
            raise MCCFRError(f"epsilon must be in (0, 1], got {self.epsilon}")
        if self.max_table_bytes < 64 * 1024**2:
            raise MCCFRError(f"max_table_bytes must be at least 64 MiB, got "
                             f"{self.max_table_bytes}")

    def settings(self) -> dict:
        return {"name": "mccfr", "sampling": self.sampling, "weighting": self.weighting,
                "alpha": self.alpha, "beta": self.beta, "gamma": self.gamma,
                "epsilon": self.epsilon, "expand_p": self.expand_p,
                "max_branching": self.max_branching,
                "batch_iterations": self.batch_iterations}


def _slot_count(entries: int) -> int:
    """Open-addressing slots for `entries`: a power of two, load at most 1/2."""
    return 1 << max(4, int(2 * entries - 1).bit_length())


class SeatTable:
    """One seat's entries: open-addressing index plus flat per-action arrays."""

    ARRAYS = ("slots", "keys", "offset", "nact", "regret", "ssum", "snap", "meta")

    def __init__(self, entries: int = 1 << 14, actions: int = 1 << 17):
        self.slots = np.full(_slot_count(entries), -1, dtype=np.int64)
        self.keys = np.zeros(entries, dtype=np.int64)
        self.offset = np.zeros(entries, dtype=np.int64)
        self.nact = np.zeros(entries, dtype=np.int64)
        self.regret = np.zeros(actions, dtype=np.float32)
        self.ssum = np.zeros(actions, dtype=np.float32)
        self.snap = np.zeros(actions, dtype=np.float32)
        self.meta = np.zeros(kern.M_SIZE, dtype=np.int64)
        self.meta[kern.M_SLOT_CAPACITY] = actions

    @property
    def entries(self) -> int:
        return int(self.meta[kern.M_ENTRIES])

    @property
    def action_slots(self) -> int:
        return int(self.meta[kern.M_USED])

    @property
    def nbytes(self) -> int:
        return sum(getattr(self, name).nbytes for name in self.ARRAYS)

    def grow_if_needed(self, reserve_entries: int, reserve_actions: int,
                       budget_bytes: int) -> bool:
        """Make room for the next batch (doubling, or what the budget still allows);
        returns False once the budget leaves no room for the reserve."""
        ok = True
        need_e = self.entries + reserve_entries
        if need_e > len(self.keys):
            room = (budget_bytes - self.nbytes) // BYTES_PER_ENTRY
            new_e = len(self.keys)
            while new_e < need_e:
                new_e *= 2
            new_e = min(new_e, len(self.keys) + max(room, 0))
            if new_e >= need_e:
                for name in ("keys", "offset", "nact"):
                    old = getattr(self, name)
                    new = np.zeros(new_e, dtype=old.dtype)
                    new[:len(old)] = old
                    setattr(self, name, new)
                self.slots = np.full(_slot_count(new_e), -1, dtype=np.int64)
                kern._rehash(self.keys, self.entries, self.slots)
            else:
                ok = False
        need_a = self.action_slots + reserve_actions
        if need_a > len(self.regret):
            room = (budget_bytes - self.nbytes) // BYTES_PER_ACTION
            new_a = len(self.regret)
            while new_a < need_a:
                new_a *= 2
            new_a = min(new_a, len(self.regret) + max(room, 0))
            if new_a >= need_a:
                for name in ("regret", "ssum", "snap"):
                    old = getattr(self, name)
                    new = np.zeros(new_a, dtype=old.dtype)
                    new[:len(old)] = old
                    setattr(self, name, new)
                self.meta[kern.M_SLOT_CAPACITY] = new_a
            else:
                ok = False
        return ok

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """The used part of every array (what a checkpoint or strategy file needs)."""
        e, a = self.entries, self.action_slots
        return {f"{prefix}keys": self.keys[:e], f"{prefix}offset": self.offset[:e],
                f"{prefix}nact": self.nact[:e], f"{prefix}regret": self.regret[:a],
                f"{prefix}ssum": self.ssum[:a], f"{prefix}meta": self.meta,
                f"{prefix}capacity": np.array([len(self.keys), len(self.regret)])}

    @classmethod
    def from_arrays(cls, data, prefix: str) -> "SeatTable":
        cap_e, cap_a = (int(x) for x in data[f"{prefix}capacity"])
        table = cls(cap_e, cap_a)
        meta = np.array(data[f"{prefix}meta"], dtype=np.int64)
        e, a = int(meta[kern.M_ENTRIES]), int(meta[kern.M_USED])
        table.keys[:e] = data[f"{prefix}keys"]
        table.offset[:e] = data[f"{prefix}offset"]
        table.nact[:e] = data[f"{prefix}nact"]
        table.regret[:a] = data[f"{prefix}regret"]
        table.ssum[:a] = data[f"{prefix}ssum"]
        table.meta[:] = meta
        kern._rehash(table.keys, e, table.slots)
        return table

    def average_strategy(self) -> np.ndarray:
        """Normalised average strategy per action slot (the current strategy where an
        entry has no average yet)."""
        e, a = self.entries, self.action_slots
        out = np.empty(a, dtype=np.float32)
        _normalise(self.offset[:e], self.nact[:e], self.ssum[:a], self.regret[:a], out)
        return out


def _normalise(offset, nact, ssum, regret, out):
    kern._normalise_average(offset, nact, ssum, regret, out)


class MCCFRSolver:
    """Batches of sampled CFR traversals over the abstraction, both seats per batch."""

    # Room kept free before a batch: far more than one batch has ever inserted is not
    # needed, because an insert that does not fit is skipped and counted (M_OVERFLOW).
    RESERVE_ENTRIES = 1 << 18
    RESERVE_ACTIONS = 1 << 21

    def __init__(self, config: MCCFRConfig):
        self.config = config
        self.rules = rules_array(config.variant)
        self.tables = [SeatTable(), SeatTable()]
        seeds = np.random.SeedSequence(config.seed).generate_state(2, dtype=np.uint64)
        self.rngs = [np.array([s], dtype=np.uint64) for s in seeds]
        self.batches = 0
        self.nodes = 0
        self.table_full = False

    @property
    def iterations(self) -> int:
        """Traversals per seat so far."""
        return self.batches * self.config.batch_iterations

    @property
    def table_bytes(self) -> int:
        return sum(t.nbytes for t in self.tables)

    @property
    def entries(self) -> int:
        return sum(t.entries for t in self.tables)

    def counters(self) -> dict[str, int]:
        names = {"overflow": kern.M_OVERFLOW, "mismatch": kern.M_MISMATCH,
                 "depth_cut": kern.M_DEEP}
        return {name: int(sum(t.meta[i] for t in self.tables)) for name, i in names.items()}

    def warm_up(self) -> None:
        """Compile (or load) every kernel a batch uses without changing the run, so that
        time budgets measure training, not compilation."""
        cfg = self.config
        own, opp = self.tables
        kern._run_worker(0, SAMPLINGS[cfg.sampling], 0, cfg.epsilon, cfg.expand_p,
                         cfg.max_branching, self.rules, self.rngs[0].copy(), own.slots,
                         own.keys, own.offset, own.nact, own.meta.copy(), own.regret, own.ssum,
                         opp.slots, opp.keys, opp.offset, opp.nact, opp.meta.copy(), opp.snap,
                         opp.ssum)
        meta = own.meta.copy()
        kern._discount(meta, own.regret, own.ssum, 1.0, 1.0, 1.0)
        kern._refresh_snapshot(meta, own.offset, own.nact, own.regret, own.snap.copy())

    def run_batch(self) -> None:
        """One batch: both seats traverse `batch_iterations` times, then weighting."""
        cfg = self.config
        budget = cfg.max_table_bytes // 2
        for t in self.tables:
            if not t.grow_if_needed(self.RESERVE_ENTRIES, self.RESERVE_ACTIONS, budget):
                self.table_full = True
        for t in self.tables:
            kern._refresh_snapshot(t.meta, t.offset, t.nact, t.regret, t.snap)
        nodes = [0, 0]

        def work(seat: int) -> None:
            # External sampling writes the opponent's average-strategy sums, outcome
            # sampling its own: either way no array is written by both workers.
            own, opp = self.tables[seat], self.tables[1 - seat]
            nodes[seat] = kern._run_worker(
                seat, SAMPLINGS[cfg.sampling], cfg.batch_iterations, cfg.epsilon,
                cfg.expand_p, cfg.max_branching, self.rules,
                self.rngs[seat], own.slots, own.keys, own.offset, own.nact, own.meta,
                own.regret, own.ssum, opp.slots, opp.keys, opp.offset, opp.nact, opp.meta,
                opp.snap, opp.ssum)

        if cfg.workers == 2:
            threads = [threading.Thread(target=work, args=(s,)) for s in (0, 1)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
        else:
            work(0)
            work(1)
        self.nodes += nodes[0] + nodes[1]
        self.batches += 1
        self._weigh()

    def _weigh(self) -> None:
        cfg = self.config
        t = float(self.batches)
        if cfg.weighting == "none":
            return
        if cfg.weighting == "linear":
            pos = neg = avg = t / (t + 1.0)
        else:
            pos = t ** cfg.alpha / (t ** cfg.alpha + 1.0)
            neg = t ** cfg.beta / (t ** cfg.beta + 1.0)
            avg = (t / (t + 1.0)) ** cfg.gamma
        for table in self.tables:
            kern._discount(table.meta, table.regret, table.ssum, pos, neg, avg)

    def run(self, batches: int, on_batch: Callable[["MCCFRSolver"], None] | None = None):
        for _ in range(batches):
            self.run_batch()
            if on_batch is not None:
                on_batch(self)

    # ----- checkpoints ---------------------------------------------------------------
    def state_arrays(self) -> dict[str, np.ndarray]:
        out = {"batches": np.array([self.batches]), "nodes": np.array([self.nodes]),
               "rng0": self.rngs[0].copy(), "rng1": self.rngs[1].copy()}
        for seat, t in enumerate(self.tables):
            out.update(t.arrays(f"seat{seat}_"))
        return out

    @classmethod
    def from_state_arrays(cls, config: MCCFRConfig, data) -> "MCCFRSolver":
        solver = cls(config)
        solver.batches = int(data["batches"][0])
        solver.nodes = int(data["nodes"][0])
        solver.rngs = [np.array(data["rng0"], dtype=np.uint64),
                       np.array(data["rng1"], dtype=np.uint64)]
        solver.tables = [SeatTable.from_arrays(data, f"seat{s}_") for s in (0, 1)]
        return solver
