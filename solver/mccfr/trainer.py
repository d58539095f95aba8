"""Monte Carlo CFR for rounds of any deck and table size, over the information abstraction.

`MCCFRSolver` owns one table per seat (two, three or four; a team game's four seats
each learn their own, on their team's payoff) and runs batches of sampled traversals on
the numba kernels of solver.mccfr._traversal (no Python in the loop). Between batches it
discounts (linear or DCFR weighting), grows the tables within a memory cap and refreshes
each table's snapshot, the policy every other seat reads of it during the next batch.
Everything that defines the run (tables, random states, batch count) is in
`state_arrays()`, so a checkpoint resumes bit-exactly.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

from game_def.core import rules_array
from game_def.errors import RobinWoodError
from game_def.variant import Variant

from solver.decisions import Lock, check_locks, compile_locks, parse_locks
from solver.jobs import in_both_seats, in_workers
from solver.mccfr import _chunks, _league_play, _settings, _table, _traversal
from solver.mccfr._abstraction import COARSE, FINE
from solver.scripted import (BASIC_KINDS, FALLBACK_RULE_KINDS, HELD_OUT_KINDS, LEAGUE_KINDS,
                             scripted_params)

# Who a traversal may meet instead of the other seats' tables: the league players, the
# baseline bots and the fallback rules (at three or four players, copies of one of them
# fill every other seat). The held-out players never.
TRAINING_OPPONENTS = {**LEAGUE_KINDS, **BASIC_KINDS, **FALLBACK_RULE_KINDS}
TRAINING_OPPONENT_NAMES = tuple(TRAINING_OPPONENTS)

WEIGHTINGS = ("none", "linear", "discounted")
LEVELS = ("coarse", "fine")
COARSE_ACTIONS = ("classes", "letters")
FINE_KEYS = ("codes", "classes")
# keys, level, offset, nact, visits, ready + about two slots (load <= 1/2)
BYTES_PER_ENTRY = 8 + 1 + 8 + 8 + 8 + 1 + 8 * 2
BYTES_PER_ACTION = 8 + 8 + 4      # regret, ssum (float64), snap (float32)
MAX_CHUNKS = 256


class MCCFRError(RobinWoodError):
    """A Monte Carlo CFR run cannot be set up as asked."""


@dataclasses.dataclass(frozen=True)
class MCCFRConfig:
    """What defines a Monte Carlo CFR run (everything here is recorded with it).

    batch_iterations: traversals per seat between two snapshots of the tables (the
    policies a traversal reads of the other seats) and between two discounts. Results
    depend on it, not on `workers`.
    chunks: work units each seat's batch is cut into (docs/mccfr.md, "Workers"): a
    chunk reads the tables as they were at the batch start plus its own updates, and
    the chunks' updates are merged in chunk order after the batch, so that `workers`
    threads (any number) give the same tables. 1: one unit per seat, the scheme of
    earlier versions (bit-identical tables) and the default; 8 lets more workers share
    a batch, and converged no worse (docs/mccfr.md, "Workers").
    workers: threads that run the chunks (seats * chunks units per batch); tables do
    not depend on it.
    max_branching: every traverser action is expanded while the expanded branchings
    on the path multiply to at most this; beyond, one action is followed and the
    others are probed (docs/mccfr.md).
    exploration: uniform share of the action followed at a probe decision.
    prune_below / prune_probability: regret-based pruning of actions played with
    probability 0 whose regret is below prune_below.
    levels: "fine" plays a decision's fine entry once it has `fine_visits` updates
    and the coarse entry before that; "coarse" keeps only the coarse level.
    coarse_actions: what a coarse entry acts on: "classes", the decision's abstract
    actions (its key then hashes their set); "letters", a fixed alphabet per decision
    phase (what kind of card an action acts on), so the key needs no set and far fewer
    situations share far more visits (docs/abstraction.md, "Letters").
    sure_wins: every seat takes a sure win (a located camp unmasked, solver.knowledge.
    _sure_win) by rule instead of learning it; exact, and it prunes those subtrees.
    league_opponents / league_share: that share of traversals meets one of these league
    players or baseline bots (solver.scripted, drawn uniformly; TRAINING_OPPONENTS)
    instead of the other seats' tables, which it plays in every other seat (at three or
    four players: copies of it; in team mode the other team's two seats, the partner
    playing its own table), so that the regrets answer
    the league as well as self-play (docs/mccfr.md, "League opponents"); () and 0.0
    (the default): self-play alone.
    fine_key: what a fine entry is keyed by: "codes", everything the seat knows (the
    sorted position codes); "classes" (with coarse_actions="letters"), at a decision
    with position actions (turn, reveal, pick) the set of position classes it can act
    on instead, a level between the letters and the codes that situations reach often
    enough to learn apart (docs/abstraction.md, "Fine key on classes"); announcements
    and responses keep the codes.
    locks: locked decisions (solver.decisions: Lock objects or their one-line texts, in
    order): every decision a lock selects is played as locked, by either seat, in
    every traversal, and no table learns it, so the free decisions learn the best
    answer to the locked play (docs/locks.md, "Monte Carlo CFR"). () : none.
    shared_world: each traversal deals the hidden cards once, at its start (the lazy
    deal's law), so that every action value it estimates, followed or probed, faces
    the same cards and their differences (the regrets) carry less noise
    (docs/mccfr.md, "Shared worlds"); False: a card is dealt when first seen, and
    each probe and expanded branch draws its own.
    """

    variant: Variant
    weighting: str = "linear"
    alpha: float = 1.5          # DCFR weighting exponents (weighting="discounted")
    beta: float = 0.0
    gamma: float = 2.0
    max_branching: int = 16
    exploration: float = 0.1
    prune_below: float = -2.0
    prune_probability: float = 0.0   # off: pruning slowed convergence (docs/mccfr.md)
    levels: str = "fine"
    coarse_actions: str = "classes"
    fine_key: str = "codes"
    fine_visits: int = 200
    sure_wins: bool = True
    league_opponents: tuple = ()
    league_share: float = 0.0
    shared_world: bool = False
    locks: tuple = ()
    batch_iterations: int = 200
    chunks: int = 1
    workers: int = 2
    seed: int = 0
    max_table_bytes: int = 8 * 1024**3

    def __post_init__(self):
        if self.weighting not in WEIGHTINGS:
            raise MCCFRError(f"unknown weighting {self.weighting!r}: choose one of "
                             f"{', '.join(WEIGHTINGS)}")
        if self.levels not in LEVELS:
            raise MCCFRError(f"unknown abstraction levels {self.levels!r}: choose one of "
                             f"{', '.join(LEVELS)}")
        if self.coarse_actions not in COARSE_ACTIONS:
            raise MCCFRError(f"unknown coarse actions {self.coarse_actions!r}: choose one "
                             f"of {', '.join(COARSE_ACTIONS)}")
        if self.fine_key not in FINE_KEYS:
            raise MCCFRError(f"unknown fine key {self.fine_key!r}: choose one of "
                             f"{', '.join(FINE_KEYS)}")
        if self.fine_key == "classes" and self.coarse_actions != "letters":
            raise MCCFRError("fine_key='classes' refines letters: with coarse_actions="
                             "'classes' the coarse key already hashes the class set; add "
                             "--coarse-actions letters or keep --fine-key codes")
        if not _is_count(self.workers):
            raise MCCFRError(f"workers must be an integer of at least 1, got "
                             f"{self.workers!r}")
        if not _is_count(self.chunks) or self.chunks > MAX_CHUNKS:
            raise MCCFRError(f"chunks must be an integer from 1 to {MAX_CHUNKS}, got "
                             f"{self.chunks!r}")
        if self.batch_iterations < 1:
            raise MCCFRError(f"batch_iterations must be at least 1, got "
                             f"{self.batch_iterations}")
        if self.max_branching < 1:
            raise MCCFRError(f"max_branching must be at least 1, got {self.max_branching}")
        if not 0 <= self.exploration <= 1:
            raise MCCFRError(f"exploration must be in [0, 1], got {self.exploration}")
        if not 0 <= self.prune_probability < 1:
            raise MCCFRError(f"prune_probability must be in [0, 1), got "
                             f"{self.prune_probability}")
        if self.prune_below > 0:
            raise MCCFRError(f"prune_below must be a regret <= 0, got {self.prune_below}")
        if self.fine_visits < 1:
            raise MCCFRError(f"fine_visits must be at least 1, got {self.fine_visits}")
        if isinstance(self.league_opponents, str):
            raise MCCFRError("league_opponents is a tuple of names, not a string")
        object.__setattr__(self, "league_opponents", tuple(self.league_opponents))
        held = [name for name in self.league_opponents if name in HELD_OUT_KINDS]
        if held:
            raise MCCFRError(f"{held[0]} is held out for evaluation: training may not meet "
                             f"it; choose from {', '.join(TRAINING_OPPONENT_NAMES)}")
        unknown = [name for name in self.league_opponents if name not in TRAINING_OPPONENTS]
        if unknown:
            raise MCCFRError(f"unknown league opponent {unknown[0]!r}: choose from "
                             f"{', '.join(TRAINING_OPPONENT_NAMES)}")
        if len(set(self.league_opponents)) != len(self.league_opponents):
            raise MCCFRError(f"league opponents repeat a name: "
                             f"{','.join(self.league_opponents)}")
        if not 0 <= self.league_share < 1:  # nan fails too
            raise MCCFRError(f"league_share must be in [0, 1), got {self.league_share}")
        if bool(self.league_opponents) != (self.league_share > 0):
            raise MCCFRError("league opponents and a league share go together: give both "
                             "(for example --league-opponents tempo,baiter --league-share "
                             "0.2) or neither")
        if isinstance(self.locks, (str, Lock)):
            raise MCCFRError("locks is a tuple of locks, not one lock")
        locks = parse_locks(self.locks)
        check_locks(locks, self.variant)
        if self.variant.players != 2 and any(not lock.forbid for lock in locks):
            # the selectors read a two-seat situation where they fix probabilities;
            # a forbid lock only restricts its seat's own choices, at any table size
            raise MCCFRError(f"locks need a two-player round (got players="
                             f"{self.variant.players}); train 3-4 players and teams "
                             f"without --lock, or with forbid= locks only (locks of "
                             f"3-4 players are solved exactly)")
        object.__setattr__(self, "locks", locks)
        if self.max_table_bytes < 64 * 1024**2:
            raise MCCFRError(f"max_table_bytes must be at least 64 MiB, got "
                             f"{self.max_table_bytes}")

    def settings(self) -> dict:
        return {"name": "mccfr", "sampling": "probe", "weighting": self.weighting,
                "alpha": self.alpha, "beta": self.beta, "gamma": self.gamma,
                "max_branching": self.max_branching, "exploration": self.exploration,
                "prune_below": self.prune_below,
                "prune_probability": self.prune_probability, "levels": self.levels,
                "coarse_actions": self.coarse_actions, "fine_key": self.fine_key,
                "fine_visits": self.fine_visits, "sure_wins": self.sure_wins,
                "league_opponents": list(self.league_opponents),
                "league_share": self.league_share,
                "shared_world": self.shared_world,
                "batch_iterations": self.batch_iterations, "chunks": self.chunks,
                # recorded only when there are locks: runs from before them still resume
                **({"locks": [lock.text for lock in self.locks]} if self.locks else {})}

    def settings_array(self) -> np.ndarray:
        """The kernels' view of the settings (solver.mccfr._settings CFG_*)."""
        cfg = np.zeros(_settings.CFG_SIZE)
        cfg[_settings.CFG_EXPLORATION] = self.exploration
        cfg[_settings.CFG_MAX_BRANCHING] = self.max_branching
        cfg[_settings.CFG_PRUNE_BELOW] = self.prune_below
        cfg[_settings.CFG_PRUNE_PROBABILITY] = self.prune_probability
        cfg[_settings.CFG_FINE_VISITS] = self.fine_visits if self.levels == "fine" else -1
        cfg[_settings.CFG_SURE_WINS] = 1.0 if self.sure_wins else 0.0
        cfg[_settings.CFG_LEAGUE_SHARE] = self.league_share
        cfg[_settings.CFG_COARSE_LETTERS] = 1.0 if self.coarse_actions == "letters" else 0.0
        cfg[_settings.CFG_SHARED_WORLD] = 1.0 if self.shared_world else 0.0
        cfg[_settings.CFG_FINE_CLASSES] = 1.0 if self.fine_key == "classes" else 0.0
        return cfg

    def lock_rules(self):
        """The kernels' view of the locks (solver.decisions.LockRules)."""
        return compile_locks(self.locks)

    def league(self) -> "_league_play.League":
        """The kernels' view of the league opponents."""
        if not self.league_opponents:
            return _league_play.no_league()
        rows = [scripted_params(name) for name in self.league_opponents]
        params = np.zeros((len(rows), max(len(row) for row in rows)))
        for i, row in enumerate(rows):   # one width: each reads only its own slots
            params[i, :len(row)] = row
        return _league_play.League(
            np.array([TRAINING_OPPONENTS[name] for name in self.league_opponents],
                     dtype=np.int64), params)


def _is_count(value) -> bool:
    """An integer of at least 1 (not a bool, not a float)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 1


def _slot_count(entries: int) -> int:
    """Open-addressing slots for `entries`: a power of two, load at most 1/2."""
    return 1 << max(4, int(2 * entries - 1).bit_length())


class SeatTable:
    """One seat's entries: open-addressing index plus flat per-action arrays."""

    ENTRY_ARRAYS = {"keys": np.int64, "level": np.int8, "offset": np.int64,
                    "nact": np.int64, "visits": np.int64, "ready": np.int8}
    ACTION_ARRAYS = {"regret": np.float64, "ssum": np.float64, "snap": np.float32}

    def __init__(self, entries: int = 1 << 14, actions: int = 1 << 17):
        self.slots = np.full(_slot_count(entries), -1, dtype=np.int64)
        for name, dtype in self.ENTRY_ARRAYS.items():
            setattr(self, name, np.zeros(entries, dtype=dtype))
        for name, dtype in self.ACTION_ARRAYS.items():
            setattr(self, name, np.zeros(actions, dtype=dtype))
        self.meta = np.zeros(_table.M_SIZE, dtype=np.int64)
        self.meta[_table.M_SLOT_CAPACITY] = actions

    def kernel_view(self) -> _table.Table:
        """The arrays as the kernels' Table (rebuilt after growth)."""
        return _table.Table(*(getattr(self, name) for name in _table.Table._fields))

    @property
    def entries(self) -> int:
        return int(self.meta[_table.M_ENTRIES])

    @property
    def action_slots(self) -> int:
        return int(self.meta[_table.M_USED])

    @property
    def nbytes(self) -> int:
        return sum(getattr(self, name).nbytes for name in _table.Table._fields)

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
                for name in self.ENTRY_ARRAYS:
                    old = getattr(self, name)
                    new = np.zeros(new_e, dtype=old.dtype)
                    new[:len(old)] = old
                    setattr(self, name, new)
                self.slots = np.full(_slot_count(new_e), -1, dtype=np.int64)
                _table._rehash(self.keys, self.entries, self.slots)
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
                for name in self.ACTION_ARRAYS:
                    old = getattr(self, name)
                    new = np.zeros(new_a, dtype=old.dtype)
                    new[:len(old)] = old
                    setattr(self, name, new)
                self.meta[_table.M_SLOT_CAPACITY] = new_a
            else:
                ok = False
        return ok

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """The used part of every array (what a checkpoint needs)."""
        e, a = self.entries, self.action_slots
        out = {f"{prefix}{name}": getattr(self, name)[:e] for name in self.ENTRY_ARRAYS
               if name != "ready"}
        out.update({f"{prefix}regret": self.regret[:a], f"{prefix}ssum": self.ssum[:a],
                    f"{prefix}meta": self.meta,
                    f"{prefix}capacity": np.array([len(self.keys), len(self.regret)])})
        return out

    @classmethod
    def from_arrays(cls, data, prefix: str) -> "SeatTable":
        cap_e, cap_a = (int(x) for x in data[f"{prefix}capacity"])
        table = cls(cap_e, cap_a)
        meta = np.array(data[f"{prefix}meta"], dtype=np.int64)
        e, a = int(meta[_table.M_ENTRIES]), int(meta[_table.M_USED])
        for name in cls.ENTRY_ARRAYS:
            if name != "ready":
                getattr(table, name)[:e] = data[f"{prefix}{name}"]
        table.regret[:a] = data[f"{prefix}regret"]
        table.ssum[:a] = data[f"{prefix}ssum"]
        table.meta[:] = meta
        _table._rehash(table.keys, e, table.slots)
        return table

    @classmethod
    def from_strategy(cls, keys, offset, nact, probs, visits, weight: float) -> "SeatTable":
        """A table warm-started from a strategy (Brown and Sandholm 2016, "Strategy-based
        warm starting for regret minimization"): every entry of the strategy, with
        regrets and average sums `weight` times its probabilities, so that regret
        matching plays the strategy until updates say otherwise, and its visits (fine
        entries stay playable). A strategy file does not record levels: the entries are
        marked coarse (lookups go by key; only `level_counts` sees the difference)."""
        e = len(keys)
        a = int(np.sum(nact))
        table = cls(max(2 * e, 1 << 14), max(2 * a, 1 << 17))
        table.keys[:e] = keys
        table.level[:e] = COARSE
        table.nact[:e] = nact
        table.offset[:e] = np.concatenate(([0], np.cumsum(nact)[:-1])) if e else []
        table.visits[:e] = visits[:e] if len(visits) >= e else 0
        # action slot j of entry i sits at offset[i] + j in the strategy, at
        # table.offset[i] + j here
        src = np.arange(a) + np.repeat(np.asarray(offset[:e]) - table.offset[:e], nact[:e])
        table.regret[:a] = weight * probs[src]
        table.ssum[:a] = weight * probs[src]
        table.meta[_table.M_ENTRIES] = e
        table.meta[_table.M_USED] = a
        _table._rehash(table.keys, e, table.slots)
        return table

    def average_strategy(self) -> np.ndarray:
        """Normalised average strategy per action slot (the current strategy where an
        entry has no average yet)."""
        out = np.empty(self.action_slots, dtype=np.float32)
        _table._normalise_average(self.kernel_view(), self.entries, self.action_slots, out)
        return out

    def strategy_arrays(self, fine_visits: int | None) -> dict[str, np.ndarray]:
        """What a player of this table needs, repacked: the playable entries' keys,
        offsets, action counts, average strategies, visit counts and levels."""
        keep = np.flatnonzero(self.playable(fine_visits))
        strategy = self.average_strategy()
        nact = self.nact[keep]
        offset = np.zeros(len(keep), dtype=np.int64)
        offset[1:] = np.cumsum(nact)[:-1]
        width = int(nact.max()) if len(keep) else 1
        slots = self.offset[keep][:, None] + np.arange(width)[None, :]
        used = np.arange(width)[None, :] < nact[:, None]
        return {"keys": self.keys[keep], "offset": offset, "nact": nact,
                "strategy": strategy[slots[used]], "visits": self.visits[keep],
                "level": self.level[keep]}

    def playable(self, fine_visits: int | None) -> np.ndarray:
        """Entries a player of this table uses: every coarse entry with an update, and
        the fine entries with at least `fine_visits` (none when None)."""
        e = self.entries
        coarse = (self.level[:e] == COARSE) & (self.visits[:e] > 0)
        if fine_visits is None:
            return coarse
        return coarse | ((self.level[:e] == FINE) & (self.visits[:e] >= fine_visits))


class ChunkBuffer:
    """One work unit's private overlay of the tables (_chunks.Chunk; docs/mccfr.md,
    "Workers"): `mine`, the traverser's entries it touched; `theirs`, the average sums
    it gives the next seat's entries ((seat + 1) mod N, whose decisions it averages).
    Kept between batches (emptied at each) and doubled when a traversal is about to
    start with more than half of it used."""

    def __init__(self, entries: int = 1 << 12, actions: int = 1 << 15):
        self.mine = SeatTable(entries, actions)
        self.theirs = SeatTable(entries, actions)
        self.origin = np.zeros(entries, dtype=np.int64)
        self.start_visits = np.zeros(entries, dtype=np.int64)
        self.start = np.zeros(actions, dtype=np.float64)
        self.counts = np.zeros(_chunks.C_SIZE, dtype=np.int64)

    def kernel_view(self) -> "_chunks.Chunk":
        """The arrays as the kernels' Chunk (rebuilt after growth)."""
        return _chunks.Chunk(self.mine.kernel_view(), self.theirs.kernel_view(),
                             self.origin, self.start_visits, self.start, self.counts)

    def _grow(self) -> None:
        """Double whatever is more than half used (contents kept)."""
        unlimited = 1 << 62
        for t in (self.mine, self.theirs):
            t.grow_if_needed(t.entries, t.action_slots, unlimited)
        for name, size in (("origin", len(self.mine.keys)),
                           ("start_visits", len(self.mine.keys)),
                           ("start", len(self.mine.regret))):
            old = getattr(self, name)
            if len(old) < size:
                new = np.zeros(size, dtype=old.dtype)
                new[:len(old)] = old
                setattr(self, name, new)

    def run(self, seat: int, iterations: int, first: bool, solver: "MCCFRSolver",
            rng: np.ndarray, tables: tuple) -> int:
        """Empty the chunk and run its `iterations` traversals for `seat` on `rng`
        (`first`: the seat's first chunk; `tables`: every seat's kernel view, indexed by
        seat); returns the nodes visited. Training's own
        rule only: the exploiters' own-reach averages (CFG_OWN_AVERAGE) are not merged."""
        if solver.cfg[_settings.CFG_OWN_AVERAGE] > 0:
            raise MCCFRError("chunks merge only the average sums given to the next "
                             "seat; train own-average exploiters on the per-seat worker "
                             "(solver.evaluation.exploiter)")
        _chunks._clear_chunk(self.kernel_view(), first)
        nodes = 0
        while iterations > 0:
            done, visited = _traversal._run_chunk(seat, iterations, solver.cfg,
                                                  solver.rules, rng, tables, solver.league,
                                                  solver.locks, self.kernel_view())
            nodes += visited
            iterations -= done
            if iterations > 0:
                self._grow()
        return nodes


def chunk_sizes(iterations: int, chunks: int) -> list[int]:
    """A seat's traversals per chunk: `iterations` cut into `chunks` nearly equal parts
    (the first ones one larger), whatever the number of workers."""
    base, extra = divmod(iterations, chunks)
    return [base + (1 if c < extra else 0) for c in range(chunks)]


def chunk_streams(seat_stream: np.ndarray, seat: int, chunks: int) -> list[np.ndarray]:
    """Each chunk's random stream for a batch: the first chunk continues the seat's own
    stream (in place, so one chunk draws what one worker per seat drew); chunk c >= 1
    gets a state hashed (SeedSequence) from the seat stream's state at the batch start,
    the seat and c, so that nothing but the checkpointed seat streams is needed."""
    state = int(seat_stream[0])
    return [seat_stream] + [
        np.random.SeedSequence([state, seat, c]).generate_state(1, dtype=np.uint64)
        for c in range(1, chunks)]


class MCCFRSolver:
    """Batches of sampled CFR traversals over the abstraction, every seat's in each batch."""

    # Room kept free before a batch: far more than one batch has ever inserted is not
    # needed, because an insert that does not fit is skipped and counted (M_OVERFLOW).
    RESERVE_ENTRIES = 1 << 18
    RESERVE_ACTIONS = 1 << 21

    def __init__(self, config: MCCFRConfig):
        self.config = config
        self.rules = rules_array(config.variant)
        self.cfg = config.settings_array()
        self.league = config.league()
        self.locks = config.lock_rules()
        self.seats = config.variant.players
        self.tables = [SeatTable() for _ in range(self.seats)]
        seeds = np.random.SeedSequence(config.seed).generate_state(self.seats,
                                                                   dtype=np.uint64)
        self.rngs = [np.array([s], dtype=np.uint64) for s in seeds]
        self.batches = 0
        self.nodes = 0
        self.table_full = False
        # per seat, its chunks' overlays (work buffers, not part of the run's state)
        self.chunk_buffers = [[ChunkBuffer() for _ in range(config.chunks)]
                              for _ in range(self.seats)]

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

    @property
    def fine_visits(self) -> int | None:
        return self.config.fine_visits if self.config.levels == "fine" else None

    def counters(self) -> dict[str, int]:
        names = {"overflow": _table.M_OVERFLOW, "mismatch": _table.M_MISMATCH,
                 "depth_cut": _table.M_DEEP, "pruned": _table.M_PRUNED,
                 "probes": _table.M_PROBES}
        return {name: int(sum(t.meta[i] for t in self.tables)) for name, i in names.items()}

    def average_strategy(self) -> tuple[list, list]:
        """Per seat (every seat of the table), (keys, offset, nact, average strategy) of
        the entries a player uses, and each entry's updates: what the run's table file
        holds (solver.players.agents.trained_agent plays it)."""
        seats = [t.strategy_arrays(self.fine_visits) for t in self.tables]
        return ([(a["keys"], a["offset"], a["nact"], a["strategy"]) for a in seats],
                [a["visits"] for a in seats])

    def level_counts(self) -> dict[str, int]:
        """Entries per level, every seat, and how many of the fine ones are played."""
        out = {"coarse": 0, "fine": 0, "fine_ready": 0}
        for t in self.tables:
            e = t.entries
            out["coarse"] += int((t.level[:e] == COARSE).sum())
            fine = t.level[:e] == FINE
            out["fine"] += int(fine.sum())
            out["fine_ready"] += int((fine & (t.visits[:e] >= self.config.fine_visits)).sum())
        return out

    def warm_up(self) -> None:
        """Compile (or load) every kernel a batch uses without changing the run, so that
        time budgets measure training, not compilation."""
        scratch = [SeatTable(16, 256) for _ in range(self.seats)]
        views = [t.kernel_view() for t in scratch]
        _table._refresh_snapshot(views[0], 1)
        if self.seats == 2:
            _traversal._run_worker(0, 1, self.cfg, self.rules, self.rngs[0].copy(),
                                   views[0], views[1], self.league, self.locks)
        buffer = ChunkBuffer(16, 256)
        buffer.run(0, 1, True, self, self.rngs[0].copy(), tuple(views))
        _chunks._merge_mine(views[0], buffer.kernel_view())
        _chunks._merge_theirs(views[1], buffer.kernel_view())
        _table._discount(views[0], 1.0, 1.0, 1.0)
        out = np.empty(max(scratch[0].action_slots, 1), dtype=np.float32)
        _table._normalise_average(views[0], scratch[0].entries, scratch[0].action_slots, out)

    def _in_every_seat(self, work: Callable[[int], None]) -> None:
        """Run work(seat) for every seat, on up to `workers` threads (the kernels release
        the GIL); two seats: work(0) and work(1) as always."""
        if self.seats == 2:
            in_both_seats(work, self.config.workers)
        else:
            in_workers(work, self.seats, self.config.workers)

    def run_batch(self) -> None:
        """One batch: `_prepare` the tables, then every seat's chunks of traversals on
        the workers (`_traverse_chunks`) and their merge, each seat's table in chunk
        order (`_merge_chunks`)."""
        views = self._prepare()
        self.nodes += self._traverse_chunks(views)
        self._merge_chunks(views)
        self.batches += 1

    def _prepare(self) -> list:
        """The previous batch's weighting, table growth and the snapshot, each seat's
        table in its own thread; returns the tables' kernel views for the batch."""
        cfg = self.config
        budget = cfg.max_table_bytes // self.seats
        factors = self._weights()
        full = [False] * self.seats

        def prepare(seat: int) -> None:
            t = self.tables[seat]
            if factors is not None:
                _table._discount(t.kernel_view(), *factors)
            if not t.grow_if_needed(self.RESERVE_ENTRIES, self.RESERVE_ACTIONS, budget):
                full[seat] = True
            _table._refresh_snapshot(t.kernel_view(), cfg.fine_visits)

        self._in_every_seat(prepare)
        self.table_full = self.table_full or any(full)
        return [t.kernel_view() for t in self.tables]

    def _traverse_chunks(self, views: list) -> int:
        """Every chunk of every seat on `workers` threads; returns the nodes visited.
        A chunk reads the tables (not written during this phase) and writes only its
        own buffer, so which thread runs which chunk, and when, changes nothing."""
        cfg = self.config
        sizes = chunk_sizes(cfg.batch_iterations, cfg.chunks)
        seats = range(self.seats)
        streams = [chunk_streams(self.rngs[seat], seat, cfg.chunks) for seat in seats]
        # seat-major within a chunk index: the seats' first chunks start first
        units = [(seat, c) for c in range(cfg.chunks) for seat in seats]
        nodes = [0] * len(units)
        tables = tuple(views)

        def traverse(unit: int) -> None:
            seat, c = units[unit]
            nodes[unit] = self.chunk_buffers[seat][c].run(
                seat, sizes[c], c == 0, self, streams[seat][c], tables)

        in_workers(traverse, len(units), cfg.workers)
        return sum(nodes)

    def _merge_chunks(self, views: list) -> None:
        """Each seat's table takes its own chunks' regrets, visits and new entries, then
        the average sums of the chunks of the seat before it (whose traversals average
        this seat's decisions; with two seats, the other seat), in chunk order (the
        tables in parallel: no array is written by two)."""
        def merge(seat: int) -> None:
            for buffer in self.chunk_buffers[seat]:
                _chunks._merge_mine(views[seat], buffer.kernel_view())
            for buffer in self.chunk_buffers[(seat - 1) % self.seats]:
                _chunks._merge_theirs(views[seat], buffer.kernel_view())

        self._in_every_seat(merge)

    def _weights(self):
        """Discount factors owed for the batches done so far (applied before the next
        batch), or None."""
        cfg = self.config
        t = float(self.batches)
        if cfg.weighting == "none" or self.batches == 0:
            return None
        if cfg.weighting == "linear":
            return t / (t + 1.0), t / (t + 1.0), t / (t + 1.0)
        return (t ** cfg.alpha / (t ** cfg.alpha + 1.0), t ** cfg.beta / (t ** cfg.beta + 1.0),
                (t / (t + 1.0)) ** cfg.gamma)

    def run(self, batches: int, on_batch: Callable[["MCCFRSolver"], None] | None = None):
        for _ in range(batches):
            self.run_batch()
            if on_batch is not None:
                on_batch(self)

    # ----- checkpoints ---------------------------------------------------------------
    def state_arrays(self) -> dict[str, np.ndarray]:
        out = {"batches": np.array([self.batches]), "nodes": np.array([self.nodes])}
        for seat, rng in enumerate(self.rngs):
            out[f"rng{seat}"] = rng.copy()
        for seat, t in enumerate(self.tables):
            out.update(t.arrays(f"seat{seat}_"))
        return out

    @classmethod
    def from_state_arrays(cls, config: MCCFRConfig, data) -> "MCCFRSolver":
        solver = cls(config)
        solver.batches = int(data["batches"][0])
        solver.nodes = int(data["nodes"][0])
        seats = range(solver.seats)
        solver.rngs = [np.array(data[f"rng{s}"], dtype=np.uint64) for s in seats]
        solver.tables = [SeatTable.from_arrays(data, f"seat{s}_") for s in seats]
        return solver
