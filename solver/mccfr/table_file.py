"""Monte Carlo CFR table files: table.npz (each seat's entries, their average strategy
and training visits) beside the run's metadata.json.

Format 2 holds two abstraction levels (fine and coarse entries, docs/abstraction.md);
format 1 files (one level) are refused with a line saying to train again. Only the
entries a player uses are written: coarse entries with an update and fine entries with
at least `fine_visits` (a fine key missing from the file falls back to its coarse key,
as in training).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np

import game_def
from game_def.variant import Variant
from solver.store import (FORMAT_VERSION, METADATA, StrategyFileError, atomic_savez,
                          atomic_write_bytes, read_metadata)

TABLE = "table.npz"
TABLE_FORMAT_VERSION = 2   # 2: two abstraction levels


@dataclasses.dataclass
class StoredTable:
    """A table file's contents: per seat, every seat of the table (keys, offset, nact,
    probabilities), the visits of each entry, and the updates after which an entry
    counts as learned."""
    metadata: dict
    variant: Variant
    seats: list
    visits: list
    min_visits: int
    sure_wins: bool     # the trainer took sure wins by rule (False for older runs)
    coarse_letters: bool = False   # coarse entries act on letters (coarse_actions)
    fine_classes: bool = False     # position decisions' fine key is the class set (fine_key)
    locks: tuple = ()              # the run's locked decisions, their one-line texts


def save_table(out: Path, solver, metadata: dict) -> None:
    """Write the average strategy of a trainer (solver.mccfr.trainer.MCCFRSolver) to
    table.npz and metadata.json, each atomically."""
    arrays = {}
    for seat, table in enumerate(solver.tables):
        for name, values in table.strategy_arrays(solver.fine_visits).items():
            arrays[f"seat{seat}_{name}"] = values.astype(np.int8) if name == "nact" else values
    atomic_savez(out / TABLE, **arrays)
    atomic_write_bytes(out / METADATA, json.dumps(
        {"format_version": FORMAT_VERSION, "kind": "mccfr",
         "table_format": TABLE_FORMAT_VERSION, **metadata}, indent=2).encode())


def read_table(run_dir) -> StoredTable:
    """The table file in run_dir, checked for consistency; StrategyFileError otherwise."""
    run_dir = Path(run_dir)
    meta = read_metadata(run_dir)
    if meta.get("kind") != "mccfr":
        raise StrategyFileError(f"{run_dir} holds an exact strategy, not a Monte Carlo CFR "
                                f"table: load it with solver.load_strategy")
    if meta.get("table_format", 1) != TABLE_FORMAT_VERSION:
        raise StrategyFileError(
            f"{run_dir} holds a Monte Carlo CFR table of format "
            f"{meta.get('table_format', 1)} (one abstraction level); this version reads "
            f"format {TABLE_FORMAT_VERSION} (fine and coarse levels): train it again with "
            f"robinwood solve --algo mccfr")
    variant = game_def.parse(meta["variant"])
    try:
        with np.load(run_dir / TABLE, allow_pickle=False) as data:
            seats = [(data[f"seat{s}_keys"], data[f"seat{s}_offset"], data[f"seat{s}_nact"],
                      data[f"seat{s}_strategy"]) for s in range(variant.players)]
            visits = [data[f"seat{s}_visits"] for s in range(variant.players)]
    except Exception as e:
        raise StrategyFileError(f"{run_dir / TABLE} is missing or corrupt "
                                f"({type(e).__name__}); train again or restore it") from None
    for keys, offset, nact, probs in seats:
        if not (len(keys) == len(offset) == len(nact)) or (
                len(keys) and int(offset[-1]) + int(nact[-1]) > len(probs)):
            raise StrategyFileError(f"{run_dir / TABLE} is inconsistent (array "
                                    f"lengths disagree); train again or restore it")
    for (keys, *_), v in zip(seats, visits):
        if len(v) != len(keys):
            raise StrategyFileError(f"{run_dir / TABLE} is inconsistent (visit counts "
                                    f"do not match the entries); train again or restore it")
    algorithm = meta.get("algorithm", {})
    return StoredTable(meta, variant, seats, visits,
                       int(algorithm.get("fine_visits", 1)),
                       bool(algorithm.get("sure_wins", False)),
                       algorithm.get("coarse_actions", "classes") == "letters",
                       algorithm.get("fine_key", "codes") == "classes",
                       tuple(algorithm.get("locks", ())))
