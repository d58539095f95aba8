"""A solve job: build the tree, iterate, measure exploitability, checkpoint, save.

Long jobs checkpoint atomically every few seconds, resume from the checkpoint after an
interruption (Ctrl-C writes one before exiting), and refuse up front a tree that would
not fit in memory, giving its measured size.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import shutil
import signal
import threading
import time
from pathlib import Path
from typing import Callable

import numpy as np

from game_def.errors import RobinWoodError
from game_def.variant import Variant

from solver.exact.best_response import BestResponder, player_values
from solver.exact.cfr import Algorithm, CFRSolver
from solver.exact._kernels import RULE_PCFR_PLUS
from solver.exact.robinwood_tree import (PEAK_BYTES_PER_NODE, PREDICTION_BYTES_PER_NODE,
                                         build_robinwood_tree, count_nodes)
from solver.exact.stored import save_strategy
from solver.jobs import (Interrupted, available_memory_bytes, package_version,
                         peak_memory_bytes, release_free_memory)
from solver.store import CONVERGENCE, METADATA, atomic_savez, atomic_write_bytes

CHECKPOINT = "checkpoint.npz"


class SolveError(RobinWoodError):
    """A solve job that cannot start (too large, mismatched checkpoint, ...)."""


@dataclasses.dataclass
class SolveConfig:
    variant: Variant
    algo: Algorithm
    out: Path
    target_exploitability: float | None = None
    max_iterations: int | None = None
    max_seconds: float | None = None
    eval_every_seconds: float = 2.0
    # Measure at multiples of this many iterations instead of every eval_every_seconds:
    # the stopping point (target exploitability) then depends on the iterations alone,
    # not on the machine's speed, so two runs stop at the same iteration (sweeps).
    eval_every_iterations: int | None = None
    checkpoint_seconds: float = 60.0
    seed: int = 0
    resume: bool = False
    max_memory_bytes: int | None = None
    symmetric: bool = True  # lossless position symmetry (solver.exact.symmetry)
    # Locked decisions, a solver.locks.LockSet: played as the locks say; the CFR family
    # solves the rest, and exploitability is the free decisions'. Used through its
    # `texts`, `needs_full_tree` and `apply` only: solver.locks is a higher layer.
    locks: object = None

    def __post_init__(self):
        if (self.target_exploitability is None and self.max_iterations is None
                and self.max_seconds is None):
            raise SolveError("give a stopping rule: --target-exploitability, "
                             "--iterations or --seconds")
        if self.target_exploitability is not None and self.target_exploitability <= 0:
            raise SolveError(f"--target-exploitability must be positive "
                             f"(got {self.target_exploitability})")
        if self.max_iterations is not None and self.max_iterations < 1:
            raise SolveError(f"--iterations must be at least 1 (got {self.max_iterations})")
        if self.eval_every_iterations is not None and self.eval_every_iterations < 1:
            raise SolveError(f"eval_every_iterations must be at least 1 (got "
                             f"{self.eval_every_iterations})")

    def settings(self) -> dict:
        settings = {"variant": str(self.variant), "algorithm": self.algo.to_json(),
                    "seed": self.seed, "symmetric": self.symmetric}
        if self.locks:  # absent without locks: older checkpoints still resume
            settings["locks"] = list(self.locks.texts)
        return settings


@dataclasses.dataclass
class Progress:
    iteration: int
    seconds: float
    exploitability: float
    value: float
    iterations_per_second: float


def check_fits(variant: Variant, max_memory_bytes: int | None = None,
               symmetric: bool = False, bytes_per_node: int = PEAK_BYTES_PER_NODE) -> int:
    """Count the tree's nodes, up to what memory allows; refuse if it cannot fit."""
    budget = max_memory_bytes or int(0.8 * available_memory_bytes())
    cap = budget // bytes_per_node
    start = time.perf_counter()
    nodes = count_nodes(variant, cap, symmetric)
    if nodes < 0:
        raise SolveError(
            f"the game tree of {variant} has more than {cap:,} nodes (counted in "
            f"{time.perf_counter() - start:.0f} s); at about {bytes_per_node} bytes a "
            f"node it needs more than the {budget / 1024**3:.1f} GiB allowed. Lower "
            f"max_turns or pick a smaller deck")
    return nodes


def _unlocked_reference(tree, config: SolveConfig) -> dict:
    """The same algorithm on the whole tree without locks, to the same stopping rule
    (exploitability measured at doubling iteration counts), for a locked solve's value
    shift; no checkpoints (it is a comparison, rerun whole if interrupted)."""
    solver = CFRSolver(tree, config.algo)
    responder = BestResponder(tree, solver)
    start = time.perf_counter()
    result, mark = None, 1
    while True:
        todo = mark - solver.iteration
        if config.max_iterations is not None:
            todo = min(todo, config.max_iterations - solver.iteration)
        solver.step(max(todo, 0))
        result = responder.evaluate_solver()
        spent = time.perf_counter() - start
        if ((config.target_exploitability is not None
             and result.exploitability <= config.target_exploitability)
                or (config.max_iterations is not None
                    and solver.iteration >= config.max_iterations)
                or (config.max_seconds is not None and spent >= config.max_seconds)):
            break
        mark *= 2
    return {"iterations": solver.iteration, "exploitability": result.exploitability,
            "values": list(result.values), "seconds": time.perf_counter() - start}


def _load_checkpoint(path: Path, config: SolveConfig) -> dict:
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        settings = json.loads(str(arrays.pop("settings")))
    except Exception as e:
        raise SolveError(f"checkpoint {path} is unreadable ({type(e).__name__}); delete it "
                         f"to start again") from None
    if settings["settings"] != config.settings():
        raise SolveError(f"checkpoint {path} is for {settings['settings']}, not "
                         f"{config.settings()}; use another --out or the same settings")
    return {"arrays": arrays, **settings}


def _write_checkpoint(path: Path, config: SolveConfig, solver: CFRSolver, elapsed: float,
                      history: list[Progress]) -> None:
    settings = {"settings": config.settings(), "iteration": solver.iteration,
                "elapsed": elapsed, "history": [dataclasses.asdict(h) for h in history]}
    atomic_savez(path, settings=np.array(json.dumps(settings)), **solver.arrays())


@contextlib.contextmanager
def _ctrl_c_raises():
    """SIGINT raises KeyboardInterrupt during the job, even when the process inherited
    it ignored (a job started in the background from a script): Python installs its
    handler only if SIGINT was not ignored at start-up."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def solve(config: SolveConfig,
          on_progress: Callable[[Progress], None] | None = None,
          on_phase: Callable[[str], None] | None = None) -> dict:
    """Run the job to its stopping rule; return the summary written to metadata.json.
    Ctrl-C (SIGINT) writes a checkpoint and raises Interrupted."""
    with _ctrl_c_raises():
        return _solve(config, on_progress, on_phase)


def _solve(config: SolveConfig, on_progress, on_phase) -> dict:
    say = on_phase or (lambda text: None)
    out = config.out
    checkpoint = out / CHECKPOINT
    if checkpoint.exists() and not config.resume:
        raise SolveError(f"{out} already holds a checkpoint; add --resume to continue it "
                         f"or choose another --out")
    if config.resume and not checkpoint.exists():
        raise SolveError(f"nothing to resume: {checkpoint} does not exist")
    wall_start = time.perf_counter()
    restored = _load_checkpoint(checkpoint, config) if config.resume else None

    say(f"counting the game tree of {config.variant}")
    # The position symmetry is a two-player reduction (solver.exact.symmetry).
    symmetric = (config.symmetric and config.variant.layout is None
                 and config.variant.players == 2
                 # locks on positions or whole players need the full tree (solver.locks)
                 and not (config.locks and config.locks.needs_full_tree))
    per_node = PEAK_BYTES_PER_NODE + (PREDICTION_BYTES_PER_NODE
                                      if config.algo.rule == RULE_PCFR_PLUS else 0)
    if config.variant.players > 2:
        per_node += 8 * config.variant.players  # every player's payoff (FlatTree.payoffs)
    nodes = check_fits(config.variant, config.max_memory_bytes, symmetric, per_node)
    say("building the game tree" + (" (position-symmetric)" if symmetric else ""))
    t0 = time.perf_counter()
    tree = build_robinwood_tree(config.variant, symmetric=symmetric, num_nodes=nodes,
                                max_nodes=max(nodes, 1))
    build_seconds = time.perf_counter() - t0
    keys_dir = out / ".keys"
    tree.infoset_key.spill(keys_dir)  # back from disk when the strategy file is written
    release_free_memory()
    say(f"tree: {tree.num_nodes:,} nodes, {tree.num_infosets:,} infosets "
        f"({build_seconds:.1f} s)")
    locked = None
    solve_tree = tree
    if config.locks:
        say("applying the locks")
        locked = config.locks.apply(config.variant, tree, symmetric)
        solve_tree = locked.solve_tree()
        say(f"locked {locked.num_locked:,} of {tree.num_infosets:,} infosets")
    solver = CFRSolver(solve_tree, config.algo)
    responder = BestResponder(solve_tree, solver)  # borrows the solver's arrays
    release_free_memory()  # the schedule's scratch
    history: list[Progress] = []
    elapsed = 0.0
    if restored:
        solver.restore(restored["iteration"], restored["arrays"])
        elapsed = restored["elapsed"]
        history = [Progress(**h) for h in restored["history"]]
        say(f"resumed at iteration {solver.iteration}")

    last_gains: tuple = ()

    def measure() -> Progress:
        nonlocal last_gains
        result = responder.evaluate_solver()
        last_gains = result.gains
        rate = solver.iteration / elapsed if elapsed > 0 else 0.0
        p = Progress(solver.iteration, elapsed, result.exploitability, result.value, rate)
        history.append(p)
        if on_progress:
            on_progress(p)
        return p

    def done(p: Progress | None) -> bool:
        if p is not None and config.target_exploitability is not None \
                and p.exploitability <= config.target_exploitability:
            return True
        if config.max_iterations is not None and solver.iteration >= config.max_iterations:
            return True
        return config.max_seconds is not None and elapsed >= config.max_seconds

    last = history[-1] if history else None
    last_checkpoint = time.perf_counter()

    def checkpoint_if_due() -> None:
        # On the wall clock, independent of the measurements: a long --eval-every (or
        # eval_every_iterations) still leaves a checkpoint every checkpoint_seconds.
        nonlocal last_checkpoint
        if time.perf_counter() - last_checkpoint >= config.checkpoint_seconds:
            _write_checkpoint(checkpoint, config, solver, elapsed, history)
            last_checkpoint = time.perf_counter()

    chunk = 1
    try:
        while not done(last):
            eval_start = elapsed
            while True:  # at least one chunk between measurements
                todo = chunk
                if config.max_iterations is not None:
                    todo = min(todo, config.max_iterations - solver.iteration)
                every = config.eval_every_iterations
                if every is not None:
                    todo = min(todo, every - solver.iteration % every)
                t = time.perf_counter()
                solver.step(todo)
                spent = time.perf_counter() - t
                elapsed += spent
                # Aim for chunks of about a quarter second between checks.
                chunk = max(1, min(chunk * 2, int(todo * 0.25 / max(spent, 1e-6)) or 1))
                if every is not None:
                    due = solver.iteration % every == 0
                else:
                    due = elapsed - eval_start >= config.eval_every_seconds
                if (due
                        or (config.max_seconds is not None and elapsed >= config.max_seconds)
                        or (config.max_iterations is not None
                            and solver.iteration >= config.max_iterations)):
                    break
                checkpoint_if_due()
            last = measure()
            checkpoint_if_due()
    except KeyboardInterrupt:
        _write_checkpoint(checkpoint, config, solver, elapsed, history)
        raise Interrupted(checkpoint, solver.iteration) from None

    if not history:
        measure()
    final_gains = last_gains
    _write_checkpoint(checkpoint, config, solver, elapsed, history)
    final = history[-1]
    summary = {
        "variant": str(config.variant),
        "algorithm": config.algo.to_json(),
        "iterations": solver.iteration,
        "exploitability": final.exploitability,
        "value": final.value,
        "players": config.variant.players,
        "nash_conv": final.exploitability * config.variant.players,
        "seconds": elapsed,
        "wall_seconds": time.perf_counter() - wall_start,
        "tree_build_seconds": build_seconds,
        "peak_memory_bytes": peak_memory_bytes(),
        "seed": config.seed,
        "symmetric": symmetric,
        "package_version": package_version(),
        "stopping_rule": {"target_exploitability": config.target_exploitability,
                          "max_iterations": config.max_iterations,
                          "max_seconds": config.max_seconds},
    }
    average = solver.average_strategy(out=solver.current)  # done iterating: reuse it
    del responder, solver  # their per-node and per-slot arrays, before the file is written
    # Each seat's value, in seat order (a reach pass: only needed beyond two players).
    summary["values"] = ([final.value, -final.value] if config.variant.players == 2
                         else list(player_values(solve_tree, average)))
    if locked is not None:
        average = locked.lift(average)
        del solve_tree
        summary["locks"] = [r.to_json() for r in locked.reports]
        summary["locked_infosets"] = locked.num_locked
        summary["free_gains"] = list(final_gains)
        say("solving the game without locks, for the value shift")
        reference = _unlocked_reference(tree, config)
        summary["unlocked"] = reference
        summary["value_shift"] = [v - u for v, u in zip(summary["values"],
                                                        reference["values"])]
    save_strategy(out, tree, average, summary)
    shutil.rmtree(keys_dir, ignore_errors=True)
    lines = ["iteration,seconds,exploitability,value"] + [
        f"{h.iteration},{h.seconds:.6f},{h.exploitability:.12g},{h.value:.12g}"
        for h in history]
    atomic_write_bytes(out / CONVERGENCE, ("\n".join(lines) + "\n").encode())
    summary["out"] = str(out)
    summary["tree"] = json.loads((out / METADATA).read_text())["tree"]
    return summary
