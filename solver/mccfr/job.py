"""A Monte Carlo CFR job: batches until a time or iteration budget, progress, atomic
checkpoints, exact resume, and the strategy file (solver.mccfr.table_file).

Time budgets count training time only (summed over resumed sessions), so
`--minutes 60` means an hour of training however often the job was interrupted.
Ctrl-C finishes the batch in progress, writes a checkpoint and exits.
"""

from __future__ import annotations

import dataclasses
import json
import signal
import threading
import time
from pathlib import Path
from typing import Callable

import numpy as np

from solver.mccfr.trainer import MCCFRConfig, MCCFRError, MCCFRSolver
from solver.jobs import Interrupted, package_version, peak_memory_bytes
from solver.mccfr.table_file import save_table
from solver.store import CONVERGENCE, atomic_savez, atomic_write_bytes

CHECKPOINT = "checkpoint.npz"



@dataclasses.dataclass
class MCCFRProgress:
    iterations: int          # traversals per seat
    seconds: float           # training time so far
    infosets: int            # table entries, every seat
    table_bytes: int
    nodes_per_second: float  # over the last measurement interval
    iterations_per_second: float
    rss_bytes: int = 0       # the process's resident memory


def _config_json(config: MCCFRConfig) -> dict:
    return {"variant": str(config.variant), "seed": config.seed, **config.settings()}


def _load_checkpoint(path: Path, config: MCCFRConfig) -> tuple[MCCFRSolver, dict]:
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        info = json.loads(str(arrays.pop("info")))
    except Exception as e:
        raise MCCFRError(f"checkpoint {path} is unreadable ({type(e).__name__}); delete it "
                         f"to start again") from None
    info["config"].setdefault("sure_wins", False)   # checkpoints made before the rule
    info["config"].setdefault("league_opponents", [])  # ... before league opponents
    info["config"].setdefault("league_share", 0.0)
    info["config"].setdefault("coarse_actions", "classes")   # ... before letters
    info["config"].setdefault("shared_world", False)   # ... before shared worlds
    info["config"].setdefault("fine_key", "codes")   # ... before the classes fine key
    info["config"].setdefault("chunks", 1)   # ... before chunks: one unit per seat
    _refuse_other_chunks(path, info["config"], config)
    if info["config"] != _config_json(config):
        raise MCCFRError(f"checkpoint {path} is for {info['config']}, not "
                         f"{_config_json(config)}; use another --out or the same settings")
    return MCCFRSolver.from_state_arrays(config, arrays), info


def _refuse_other_chunks(path: Path, recorded: dict, config: MCCFRConfig) -> None:
    """A checkpoint that differs from `config` only in its chunk count names the fix
    (runs written before chunks existed read as chunks=1, the scheme they used)."""
    ours = _config_json(config)
    differ = {key for key in set(ours) | set(recorded) if ours.get(key) != recorded.get(key)}
    if differ == {"chunks"}:
        raise MCCFRError(f"checkpoint {path} was trained with {recorded['chunks']} chunk(s) "
                         f"per seat, not {config.chunks}; resume it with --chunks "
                         f"{recorded['chunks']}")


def _write_checkpoint(path: Path, config: MCCFRConfig, solver: MCCFRSolver, elapsed: float,
                      history: list[MCCFRProgress]) -> None:
    info = {"config": _config_json(config), "elapsed": elapsed,
            "history": [dataclasses.asdict(h) for h in history]}
    atomic_savez(path, info=np.array(json.dumps(info)), **solver.state_arrays())


class _StopFlag:
    """Turns Ctrl-C into a request honoured at the next batch boundary."""

    def __init__(self):
        self.requested = False
        self._previous = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum, frame):
        self.requested = True

    def __exit__(self, *exc):
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
        return False


def solve_mccfr(config: MCCFRConfig, out: Path, *, max_seconds: float | None = None,
                max_iterations: int | None = None, resume: bool = False,
                checkpoint_seconds: float = 300.0, report_seconds: float = 10.0,
                snapshot_seconds: tuple[float, ...] = (),
                on_progress: Callable[[MCCFRProgress], None] | None = None,
                on_phase: Callable[[str], None] | None = None) -> dict:
    """Train until the budget is spent; returns the summary written to metadata.json.

    snapshot_seconds: training times at which the average strategy is also saved to
    out/snapshots/<seconds>s/ (each loadable like a run), for learning curves.
    """
    say = on_phase or (lambda text: None)
    if max_seconds is None and max_iterations is None:
        raise MCCFRError("give a budget: --minutes (or --seconds) or --iterations")
    out = Path(out)
    checkpoint = out / CHECKPOINT
    if checkpoint.exists() and not resume:
        raise MCCFRError(f"{out} already holds a checkpoint; add --resume to continue it "
                         f"or choose another --out")
    if resume and not checkpoint.exists():
        raise MCCFRError(f"nothing to resume: {checkpoint} does not exist")
    out.mkdir(parents=True, exist_ok=True)
    wall_start = time.perf_counter()
    history: list[MCCFRProgress] = []
    elapsed = 0.0
    if resume:
        solver, info = _load_checkpoint(checkpoint, config)
        elapsed = info["elapsed"]
        history = [MCCFRProgress(**h) for h in info["history"]]
        say(f"resumed at {solver.iterations:,} iterations ({elapsed:.0f} s trained)")
    else:
        solver = MCCFRSolver(config)
    say(f"Monte Carlo CFR (probe sampling, {config.levels} levels, {config.weighting} "
        f"weighting, "
        f"{config.workers} worker{'s' if config.workers > 1 else ''}, {config.chunks} "
        f"chunk{'s' if config.chunks > 1 else ''} a seat) on {config.variant}")

    def done() -> bool:
        if max_iterations is not None and solver.iterations >= max_iterations:
            return True
        return max_seconds is not None and elapsed >= max_seconds

    def measure(nodes_before: int, seconds_before: float) -> None:
        span = max(elapsed - seconds_before, 1e-9)
        p = MCCFRProgress(solver.iterations, elapsed, solver.entries, solver.table_bytes,
                          (solver.nodes - nodes_before) / span,
                          solver.iterations / elapsed if elapsed > 0 else 0.0,
                          _resident_bytes())
        history.append(p)
        if on_progress:
            on_progress(p)

    say("compiling kernels (cached after the first run)")
    solver.warm_up()
    pending_snapshots = sorted(s for s in snapshot_seconds if s > elapsed)
    last_checkpoint = time.perf_counter()
    mark_nodes, mark_seconds = solver.nodes, elapsed
    with _StopFlag() as stop:
        while not done():
            t = time.perf_counter()
            solver.run_batch()
            elapsed += time.perf_counter() - t
            if elapsed - mark_seconds >= report_seconds or done():
                measure(mark_nodes, mark_seconds)
                mark_nodes, mark_seconds = solver.nodes, elapsed
            while pending_snapshots and elapsed >= pending_snapshots[0]:
                at = pending_snapshots.pop(0)
                save_table(out / "snapshots" / f"{at:.0f}s", solver,
                           _summary(config, solver, elapsed, wall_start, max_seconds,
                                    max_iterations))
            if stop.requested:
                _write_checkpoint(checkpoint, config, solver, elapsed, history)
                raise Interrupted(checkpoint, solver.iterations)
            if time.perf_counter() - last_checkpoint >= checkpoint_seconds:
                _write_checkpoint(checkpoint, config, solver, elapsed, history)
                last_checkpoint = time.perf_counter()
    if not history or history[-1].iterations != solver.iterations:
        measure(mark_nodes, mark_seconds)
    _write_checkpoint(checkpoint, config, solver, elapsed, history)
    summary = _summary(config, solver, elapsed, wall_start, max_seconds, max_iterations)
    save_table(out, solver, summary)
    lines = ["iterations,seconds,infosets,table_bytes,nodes_per_second,rss_bytes"] + [
        f"{h.iterations},{h.seconds:.3f},{h.infosets},{h.table_bytes},"
        f"{h.nodes_per_second:.0f},{h.rss_bytes}" for h in history]
    atomic_write_bytes(out / CONVERGENCE, ("\n".join(lines) + "\n").encode())
    summary["out"] = str(out)
    return summary


def _resident_bytes() -> int:
    """Resident memory of this process now (Linux /proc; 0 elsewhere)."""
    try:
        import os

        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _summary(config, solver, elapsed, wall_start, max_seconds, max_iterations) -> dict:
    return {
        "variant": str(config.variant),
        "algorithm": config.settings(),
        "iterations": solver.iterations,
        "seconds": elapsed,
        "wall_seconds": time.perf_counter() - wall_start,
        "workers": config.workers,
        "nodes_visited": solver.nodes,
        "infosets": solver.entries,
        "infosets_per_seat": [t.entries for t in solver.tables],
        "action_slots": sum(t.action_slots for t in solver.tables),
        "table_bytes": solver.table_bytes,
        "max_table_bytes": config.max_table_bytes,
        "table_full": solver.table_full,
        "counters": solver.counters(),
        "levels": solver.level_counts(),
        "peak_memory_bytes": peak_memory_bytes(),
        "seed": config.seed,
        "package_version": package_version(),
        "stopping_rule": {"max_seconds": max_seconds, "max_iterations": max_iterations},
    }
