"""CFR+ iterations per second: our numba flat-tree solver vs OpenSpiel's C++ and Python CFR+.

Same variant, same process, one contender after the other (ours first, so the peak
memory printed after it is ours alone; maxrss only grows):

  ours     solver.exact.cfr.CFRSolver(build_robinwood_tree(variant), "cfr+")
  C++      pyspiel.CFRPlusSolver(pyspiel.convert_to_cached_tree(game))
  Python   open_spiel.python.algorithms.cfr.CFRPlusSolver(game)   (the game itself: the
           Python solver walks states with state.child(), as it is meant to be used)

All three do alternating updates with regret matching+ and linear averaging. One-off
costs (tree build, cached-tree conversion, solver construction, and a first iteration
that warms caches) are timed and printed separately; the per-iteration rate is measured
over further iterations for up to --seconds per contender (at least one). The Python
solver's construction and first iteration can take minutes on rspx:max_turns=4: they are
capped by --python-cap (SIGALRM); on a cap, the partial time is reported as a bound.

    .venv/bin/python benchmarks/bench_solver.py [--variant rspx:max_turns=4]
        [--seconds 20] [--python-cap 1800] [--skip-python]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import resource
import signal
import time

import pyspiel

import game_def
from solver.exact.cfr import CFRSolver
from solver.exact.robinwood_tree import build_robinwood_tree

TARGET_CPP, TARGET_PY = 100.0, 1000.0


def maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


@dataclasses.dataclass
class Result:
    name: str
    setup: list[tuple[str, float]]          # one-off costs, seconds
    first_iteration: float | None = None    # seconds (warms caches; not in the rate)
    iterations: int = 0                     # timed iterations after the first
    seconds: float = 0.0                    # wall-clock seconds of those
    cpu_seconds: float = 0.0                # process CPU seconds of those
    first_cpu: float | None = None
    maxrss_after: float = 0.0
    note: str = ""

    @property
    def rate(self) -> float | None:
        """Iterations per wall-clock second, steady state (after the first iteration);
        if only the first iteration ran, its own rate."""
        if self.iterations:
            return self.iterations / self.seconds
        if self.first_iteration:
            return 1.0 / self.first_iteration
        return None

    @property
    def cpu_rate(self) -> float | None:
        """The same per CPU second of this process (less sensitive to a shared machine)."""
        if self.iterations:
            return self.iterations / self.cpu_seconds
        if self.first_cpu:
            return 1.0 / self.first_cpu
        return None


def timed_iterations(step, seconds: float) -> tuple[int, float, float]:
    """Run step() at least once and until `seconds` have passed; (count, wall, cpu)."""
    n, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        step()
        n += 1
        spent = time.perf_counter() - start
        if spent >= seconds:
            return n, spent, time.process_time() - cpu


def clock(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def clock_cpu(fn) -> tuple[float, float]:
    """(wall, cpu) seconds of fn()."""
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - start, time.process_time() - cpu


def bench_ours(variant, seconds: float, symmetric: bool = False) -> tuple[Result, object]:
    build_tree = lambda: build_robinwood_tree(variant, symmetric=symmetric)  # noqa: E731
    _, first_build = clock(build_tree)  # loads compiled kernels
    tree, build = clock(build_tree)
    solver, construct = clock(lambda: CFRSolver(tree, "cfr+"))
    first, first_cpu = clock_cpu(lambda: solver.step(1))
    n, spent, cpu = timed_iterations(lambda: solver.step(1), seconds)
    name = "ours: position-symmetric tree" if symmetric else "ours: numba flat-tree CFR+"
    r = Result(name,
               [("tree build, first (incl. loading cached numba code)", first_build),
                ("tree build, warm", build), ("solver construction", construct)],
               first, n, spent, cpu, first_cpu, maxrss_mib())
    return r, tree


def bench_cpp(game, seconds: float) -> Result:
    cached, convert = clock(lambda: pyspiel.convert_to_cached_tree(game))
    solver, construct = clock(lambda: pyspiel.CFRPlusSolver(cached))
    first, first_cpu = clock_cpu(solver.evaluate_and_update_policy)
    n, spent, cpu = timed_iterations(solver.evaluate_and_update_policy, seconds)
    return Result("OpenSpiel C++ CFRPlusSolver, cached tree",
                  [("convert_to_cached_tree", convert), ("CFRPlusSolver construction "
                   "(tabular policy: walks all states)", construct)],
                  first, n, spent, cpu, first_cpu, maxrss_mib(),
                  "first iteration fills the cached tree")


class _Cap(Exception):
    pass


def bench_python(game, seconds: float, cap: float) -> Result:
    from open_spiel.python.algorithms import cfr

    r = Result("OpenSpiel Python cfr.CFRPlusSolver", [])

    def on_alarm(signum, frame):
        raise _Cap()

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, cap)
    start = time.perf_counter()
    stage = "construction"
    try:
        solver = cfr.CFRPlusSolver(game)
        r.setup.append(("CFRPlusSolver construction (tabular policy + infoset walk)",
                        time.perf_counter() - start))
        stage = "first iteration"
        r.first_iteration, r.first_cpu = clock_cpu(solver.evaluate_and_update_policy)
        signal.setitimer(signal.ITIMER_REAL, 0)
        r.iterations, r.seconds, r.cpu_seconds = timed_iterations(
            solver.evaluate_and_update_policy, seconds)
    except _Cap:
        spent = time.perf_counter() - start
        r.note = (f"stopped by --python-cap {cap:.0f} s during {stage} after {spent:.0f} s "
                  f"in all")
        if stage == "construction":
            r.setup.append(("CFRPlusSolver construction (unfinished)", spent))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    r.maxrss_after = maxrss_mib()
    return r


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="rspx:max_turns=4")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="timed seconds per contender after its first iteration "
                             "(at least one iteration runs); default 20")
    parser.add_argument("--python-cap", type=float, default=1800.0,
                        help="cap in seconds on the Python solver's construction plus "
                             "first iteration; default 1800")
    parser.add_argument("--skip-python", action="store_true")
    args = parser.parse_args()
    variant = game_def.parse(args.variant)
    game = game_def.load_game(variant)

    ours, tree = bench_ours(variant, args.seconds)
    ours_sym, sym_tree = bench_ours(variant, args.seconds, symmetric=True)
    results = [ours, bench_cpp(game, args.seconds)]
    if not args.skip_python:
        results.append(bench_python(game, args.seconds, args.python_cap))
    results.insert(1, ours_sym)

    print(f"CFR+ on {variant}, up to {args.seconds:g} s of timed iterations per contender, "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
          f"{platform.python_version()}, OpenSpiel {getattr(pyspiel, '__version__', '?')}")
    print(f"tree: {tree.num_nodes:,} nodes, {tree.num_infosets:,} infosets, "
          f"{tree.num_action_slots:,} action slots, {tree.nbytes / 2**20:,.1f} MiB of arrays")

    print("\none-off costs (wall seconds)")
    for r in results:
        for label, secs in r.setup:
            print(f"  {r.name:<42} {label:<58} {secs:>9.3f}")
        if r.first_iteration is not None:
            label = "first iteration" + (f" ({r.note})" if r.note and r.iterations else "")
            print(f"  {r.name:<42} {label:<58} {r.first_iteration:>9.3f}")

    print("\nsteady state (iterations after the first)")
    print(f"{'implementation':<42} {'its':>5} {'wall s':>8} {'wall s/it':>10} {'its/s':>9} "
          f"{'cpu s/it':>10} {'its/cpu-s':>10} {'maxrss after':>13}")
    for r in results:
        its = r.iterations if r.iterations else (1 if r.first_iteration else 0)
        secs = r.seconds if r.iterations else (r.first_iteration or 0.0)
        rate, cpu = r.rate, r.cpu_rate
        cells = (f"{1 / rate:>10.4f} {rate:>9.3f} {1 / cpu:>10.4f} {cpu:>10.3f}" if rate
                 else f"{'-':>10} {'-':>9} {'-':>10} {'-':>10}")
        print(f"{r.name:<42} {its:>5} {secs:>8.2f} {cells} {r.maxrss_after:>9,.0f} MiB")
        if r.note and not r.iterations:
            print(f"  ({r.note}" + ("; the rate shown is the first iteration's)"
                                     if r.first_iteration else ")"))
    print("(maxrss is the process peak so far: ours alone, then + C++, then + Python; "
          "cpu = this process's CPU time, which a busy shared machine inflates less)")

    print(f"position-symmetric tree (the same game, lossless; solver.exact.symmetry): "
          f"{sym_tree.num_nodes:,} nodes, {sym_tree.num_infosets:,} infosets")
    results.remove(ours_sym)
    print()
    if results[1].rate:
        print(f"ours on the symmetric tree / C++ cached tree: "
              f"{ours_sym.rate / results[1].rate:,.1f}x wall (iterations of the same game)")
    for r, target in zip(results[1:], (TARGET_CPP, TARGET_PY)):
        label = "C++ cached tree" if r is results[1] else "Python"
        if r.rate:
            wall, cpu = ours.rate / r.rate, ours.cpu_rate / r.cpu_rate
            how = "" if r.iterations else " (vs its first iteration only)"
            verdict = ("MET" if min(wall, cpu) >= target else
                       "NOT MET" if max(wall, cpu) < target else "MET on one clock only")
            print(f"ours / {label:<16} {wall:>9,.1f}x wall, {cpu:>9,.1f}x cpu   "
                  f"target >= {target:,.0f}x: {verdict}{how}")
        else:
            # No iteration finished within the cap: its time is a lower bound.
            bound = None
            if "first iteration" in r.note:
                bound = ours.rate * (args.python_cap - sum(s for _, s in r.setup))
            print(f"ours / {label:<16} "
                  + (f"> {bound:,.0f}x wall (lower bound)" if bound else "not measured")
                  + f"   target >= {target:,.0f}x: "
                  + ("MET" if bound and bound >= target else "UNKNOWN"))


if __name__ == "__main__":
    main()
