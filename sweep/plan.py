"""Which method solves each variant, and what it needs (memory, cores), decided before
anything runs so the scheduler can keep two big solves apart.

Exact when the counted tree (solver.exact.robinwood_tree.count_nodes, position-symmetric
for two players, as the solve job builds it) fits the memory budget at the job's bytes a
node; otherwise Monte Carlo CFR at any table size (its table cap is what it needs; an
error when the exact method was asked for). Random play only when asked for, labelled
as such. Another game (sweep.games) chooses its own method: Robin des Bois plays every
variant.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import zlib

import numpy as np

from game_def.variant import Variant

from .games import DEFAULT_GAME
from .grid import GridError, Point, SolveSettings, SweepSpec

GiB = 1024**3
PROCESS_BYTES = 512 * 1024**2  # a worker's Python, numba and OpenSpiel before any tree


@dataclasses.dataclass(frozen=True)
class Task:
    """One variant's job, as plain data (it travels to process-pool and Ray workers)."""

    index: int
    key: str                 # the variant string
    slug: str                # its run directory name
    label: str               # the grid options that vary
    options: dict            # option -> value text (varying options)
    method: str              # exact | mccfr | random
    nodes: int | None        # counted tree nodes (exact), None otherwise
    memory_bytes: int        # what the job needs at its peak (estimate)
    cpus: int
    seed: int
    settings: dict           # SolveSettings.to_json()
    variant: str = ""        # the variant string (key adds the lock's name, if any)
    lock_lines: tuple = ()   # locked decisions (solver.locks), one line each
    game: str = DEFAULT_GAME  # the game (sweep.games), which runs the method

    @property
    def variant_text(self) -> str:
        return self.variant or self.key

    @property
    def fingerprint(self) -> str:
        """Everything that decides this variant's row: a finished row with another
        fingerprint is solved again."""
        parts = [self.key, self.method, self.seed, self.settings]
        if self.lock_lines:  # absent without locks: earlier rows keep their fingerprint
            parts.append(list(self.lock_lines))
        if self.game != DEFAULT_GAME:  # likewise: Robin Wood rows keep theirs
            parts.append(self.game)
        text = json.dumps(parts, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "Task":
        data = dict(data)
        data["lock_lines"] = tuple(data.get("lock_lines", ()))
        return cls(**data)


def variant_seed(sweep_seed: int, key: str) -> int:
    """A variant's own seed, from the sweep's seed and the variant string (not its grid
    position, so adding values to a grid keeps the other variants' rows)."""
    return int(np.random.SeedSequence([sweep_seed, zlib.crc32(key.encode())])
               .generate_state(1, dtype=np.uint32)[0])


def _two_player(v: Variant) -> bool:
    return v.players == 2 and not v.teams


def exact_bytes_per_node(v: Variant) -> int:
    """What the exact solve job (solver.exact.job) counts a node at, for this variant."""
    from solver.exact.robinwood_tree import PEAK_BYTES_PER_NODE

    return PEAK_BYTES_PER_NODE + (0 if _two_player(v) else 8 * v.players)


def _needs_full_tree(point: Point) -> bool:
    """A lock playing a scripted player is solved without the position symmetry."""
    if not point.lock_lines:
        return False
    from solver.locks import LockSet, parse_locks

    return LockSet(parse_locks(point.lock_lines)).needs_full_tree


def precheck(point: Point, settings: SolveSettings) -> None:
    """The checks that need no tree counting (so a bad grid fails at once)."""
    v = point.variant
    if not _two_player(v) and settings.method == "mccfr" and point.lock_lines:
        raise GridError(f"{point.key}: locked decisions of {v.players} players are solved "
                        f"exactly (Monte Carlo CFR locks two-player rounds); use method "
                        f"exact or auto on a tree that fits")


def choose(point: Point, settings: SolveSettings, memory_budget: int,
           count=None) -> tuple[str, int | None, int]:
    """(method, counted nodes or None, bytes needed) for one variant; GridError when
    the variant cannot be solved as asked within the budget."""
    count = count or _count_uncached
    v, method = point.variant, settings.method
    precheck(point, settings)
    if point.lock_lines and method == "random":
        raise GridError(f"{point.key}: random play has no decisions to lock; use method "
                        f"exact, mccfr or auto")
    if method == "random":
        return "random", None, PROCESS_BYTES
    mccfr_bytes = int(settings.mccfr_table_gb * GiB) + PROCESS_BYTES
    if method in ("auto", "exact"):
        per_node = exact_bytes_per_node(v)
        cap = max(1, (memory_budget - PROCESS_BYTES) // per_node)
        symmetric = v.layout is None and _two_player(v) and not _needs_full_tree(point)
        nodes = count(v, cap, symmetric)
        if nodes >= 0:
            return "exact", nodes, nodes * per_node + PROCESS_BYTES
        if method == "exact":
            raise GridError(f"variant {v} cannot be solved exactly: its tree has more "
                            f"than {cap:,} nodes, more than the "
                            f"{memory_budget / GiB:.1f} GiB memory budget holds; use "
                            f"method auto (Monte Carlo CFR where the tree does not fit), raise "
                            f"--memory-gb or lower max_turns")
        if not _two_player(v) and point.lock_lines:
            raise GridError(f"{point.key}: locked decisions of {v.players} players "
                            f"are solved exactly, and its tree has more than {cap:,} "
                            f"nodes; lower max_turns or raise --memory-gb")
    if mccfr_bytes > memory_budget:
        raise GridError(f"variant {v} needs Monte Carlo CFR with a "
                        f"{settings.mccfr_table_gb:g} GiB table, more than the "
                        f"{memory_budget / GiB:.1f} GiB memory budget; lower "
                        f"--mccfr-table-gb or raise --memory-gb")
    return "mccfr", None, mccfr_bytes


def _count_uncached(variant: Variant, cap: int, symmetric: bool) -> int:
    from solver.exact.robinwood_tree import count_nodes

    return count_nodes(variant, cap, symmetric)


def cached_count(cache: dict):
    """count_nodes with a memory: cache maps a variant to {"nodes": n} (its exact size)
    or {"more_than": cap} (counting stopped there), so a rerun does not count again."""
    from solver.exact.robinwood_tree import count_nodes

    def count(variant: Variant, cap: int, symmetric: bool) -> int:
        key = f"{variant}|symmetric={symmetric}"
        known = cache.get(key, {})
        if "nodes" in known:
            return known["nodes"] if known["nodes"] <= cap else -1
        if "more_than" in known and known["more_than"] >= cap:
            return -1
        nodes = count_nodes(variant, cap, symmetric)
        cache[key] = {"nodes": nodes} if nodes >= 0 else {"more_than": cap}
        return nodes

    return count


def plan(spec: SweepSpec, memory_budget: int, cache: dict | None = None) -> list[Task]:
    """Every grid point as a Task, its method chosen by the game (Robin Wood: choose).
    `cache` (see cached_count) is updated in place."""
    settings = spec.settings
    game = spec.game
    count = cached_count({} if cache is None else cache)
    tasks = []
    points = spec.points()
    if game.name == DEFAULT_GAME:
        for point in points:
            precheck(point, settings)
    for point in points:
        method, nodes, need = game.choose(point, settings, memory_budget, count)
        cpus = settings.mccfr_workers if method == "mccfr" else 1
        tasks.append(Task(point.index, point.key, point.slug, point.label, point.options,
                          method, nodes, int(need), cpus,
                          variant_seed(spec.seed, point.key), settings.to_json(),
                          str(point.variant), tuple(point.lock_lines), game.name))
    return tasks
