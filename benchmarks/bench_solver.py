"""CFR+ on one variant: our numba flat-tree solver against OpenSpiel's C++ (and Python)
CFR+, both timed over the same iterations.

Same variant, same process, one contender after the other (ours first, so the peak
memory printed after it is ours alone; maxrss only grows):

  ours     solver.exact.cfr.CFRSolver(build_robinwood_tree(variant), "cfr+", threads=t)
  C++      pyspiel.CFRPlusSolver(pyspiel.convert_to_cached_tree(game))   (one thread)
  Python   open_spiel.python.algorithms.cfr.CFRPlusSolver(game)   (with --python; the
           Python solver walks states with state.child(), as it is meant to be used)

All three do alternating updates with regret matching+ and linear averaging.

Why the same iterations: our walks skip the subtrees neither player reaches and the
updates skip the infosets no walk touched, so our later iterations are cheaper than our
early ones. Timing ours over thousands of iterations and C++ over a few dozen compares
different work. Here every contender starts from a fresh solver and is timed over
iterations 2 .. N+1 (--iterations N, default 50: about half a minute of C++); the first
iteration is timed apart, since it warms caches (C++: it fills its cached tree). The
headline ratio is per CPU second of this process (time.process_time(): all threads of
the process, so ours on two threads is charged both), with the wall-clock ratio beside
it. Ours runs once per --threads value (default 2 and 1: the one-thread row gives the
one thread against one thread ratio) and --repeats times each (fresh solver each time;
the medians are reported), on the tree as built and on the position-symmetric tree.
One-off costs (tree build, cached-tree conversion, solver construction) are printed
apart. The Python solver's construction and first iteration take minutes on
rspx:max_turns=4: they are capped by --python-cap (SIGALRM); it is timed over
iterations 2 .. P+1 (--python-iterations P, default 1) against ours over the same.

    .venv/bin/python benchmarks/bench_solver.py [--variant rspx:max_turns=4]
        [--iterations 50] [--threads 2 1] [--repeats 5] [--python]
        [--python-iterations 1] [--python-cap 1800]
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import os
import platform
import resource
import shlex
import signal
import statistics
import subprocess
import sys
import time

import pyspiel

import game_def
from solver.exact.cfr import CFRSolver
from solver.exact.robinwood_tree import build_robinwood_tree


def maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=os.path.dirname(os.path.abspath(__file__)))
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True,
                               cwd=os.path.dirname(os.path.abspath(__file__)))
        return out.stdout.strip() + (" (work tree has edits)" if dirty.stdout.strip() else "")
    except OSError:
        return "?"


@dataclasses.dataclass
class Run:
    """One contender from a fresh solver: its first iteration, then per-iteration
    (wall, cpu) seconds of iterations 2, 3, ..."""
    first_wall: float
    first_cpu: float
    walls: list[float]
    cpus: list[float]

    def wall(self, n: int) -> float:
        return sum(self.walls[:n])

    def cpu(self, n: int) -> float:
        return sum(self.cpus[:n])


@dataclasses.dataclass
class Contender:
    name: str
    setup: list[tuple[str, float]]          # one-off costs, wall seconds
    runs: list[Run] = dataclasses.field(default_factory=list)
    maxrss_after: float = 0.0
    load_before: str = ""
    note: str = ""

    @property
    def iterations(self) -> int:
        return min((len(r.walls) for r in self.runs), default=0)

    def wall(self, n: int) -> float:
        """Median over the runs of the wall seconds of iterations 2 .. n+1."""
        return statistics.median(r.wall(n) for r in self.runs)

    def cpu(self, n: int) -> float:
        return statistics.median(r.cpu(n) for r in self.runs)

    def first_wall(self) -> float:
        return statistics.median(r.first_wall for r in self.runs)

    def first_cpu(self) -> float:
        return statistics.median(r.first_cpu for r in self.runs)


def time_iterations(step, n: int) -> Run:
    """step() once (the first iteration), then n more, each timed on both clocks."""
    w, c = time.perf_counter(), time.process_time()
    step()
    first_wall, first_cpu = time.perf_counter() - w, time.process_time() - c
    walls, cpus = [], []
    for _ in range(n):
        w, c = time.perf_counter(), time.process_time()
        step()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return Run(first_wall, first_cpu, walls, cpus)


def clock(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def bench_ours(variant, n: int, threads: list[int], repeats: int,
               symmetric: bool = False) -> tuple[list[Contender], object]:
    build_tree = lambda: build_robinwood_tree(variant, symmetric=symmetric)  # noqa: E731
    _, first_build = clock(build_tree)  # loads compiled kernels
    tree, build = clock(build_tree)
    # A throwaway solver's first iterations load the kernels of each thread count, so
    # no timed run below pays for that.
    for t in threads:
        CFRSolver(tree, "cfr+", threads=t).step(2)
    label = "ours, symmetric tree" if symmetric else "ours"
    out = []
    for t in threads:
        c = Contender(f"{label}, {t} thread{'s' if t > 1 else ''}", [],
                      load_before=load())
        if not out:
            c.setup = [("tree build, first (incl. loading cached numba code)", first_build),
                       ("tree build, warm", build)]
        for _ in range(repeats):
            solver, construct = clock(lambda: CFRSolver(tree, "cfr+", threads=t))
            c.runs.append(time_iterations(lambda: solver.step(1), n))
        c.setup.append(("solver construction", construct))
        c.maxrss_after = maxrss_mib()
        out.append(c)
    return out, tree


def bench_cpp(game, n: int) -> Contender:
    c = Contender("OpenSpiel C++ CFRPlusSolver, 1 thread", [], load_before=load())
    cached, convert = clock(lambda: pyspiel.convert_to_cached_tree(game))
    solver, construct = clock(lambda: pyspiel.CFRPlusSolver(cached))
    c.setup = [("convert_to_cached_tree", convert),
               ("CFRPlusSolver construction (tabular policy: walks all states)", construct)]
    c.runs.append(time_iterations(solver.evaluate_and_update_policy, n))
    c.maxrss_after = maxrss_mib()
    c.note = "its first iteration fills the cached tree"
    return c


class _Cap(Exception):
    pass


def bench_python(game, n: int, cap: float) -> Contender:
    from open_spiel.python.algorithms import cfr

    c = Contender("OpenSpiel Python cfr.CFRPlusSolver", [], load_before=load())

    def on_alarm(signum, frame):
        raise _Cap()

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, cap)
    start = time.perf_counter()
    stage = "construction"
    try:
        solver = cfr.CFRPlusSolver(game)
        c.setup.append(("CFRPlusSolver construction (tabular policy + infoset walk)",
                        time.perf_counter() - start))
        stage = "iterations"
        signal.setitimer(signal.ITIMER_REAL, 0)
        c.runs.append(time_iterations(solver.evaluate_and_update_policy, n))
    except _Cap:
        spent = time.perf_counter() - start
        c.note = f"stopped by --python-cap {cap:.0f} s during {stage} after {spent:.0f} s"
        if stage == "construction":
            c.setup.append(("CFRPlusSolver construction (unfinished)", spent))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    c.maxrss_after = maxrss_mib()
    return c


def ratio_line(label: str, ours: Contender, other: Contender, n: int) -> str:
    cpu = other.cpu(n) / ours.cpu(n)
    wall = other.wall(n) / ours.wall(n)
    return (f"  {label:<52} {cpu:>9,.1f}x per CPU second   {wall:>9,.1f}x wall   "
            f"(ours {ours.cpu(n):.4f} CPU s, {ours.wall(n):.4f} wall s)")


def span(n: int) -> str:
    return "iteration 2" if n == 1 else f"iterations 2 .. {n + 1}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="rspx:max_turns=4")
    parser.add_argument("--iterations", type=int, default=50,
                        help="timed iterations per contender after its first (the same "
                             "iterations, 2 .. N+1, for all); default 50")
    parser.add_argument("--threads", type=int, nargs="+", default=[2, 1],
                        help="thread counts for ours, the first one leads; default 2 1")
    parser.add_argument("--repeats", type=int, default=5,
                        help="fresh-solver runs of ours per thread count (medians "
                             "reported); default 5")
    parser.add_argument("--python", action="store_true",
                        help="also time OpenSpiel's Python CFRPlusSolver (minutes)")
    parser.add_argument("--python-iterations", type=int, default=1,
                        help="iterations of the Python solver timed after its first; "
                             "default 1")
    parser.add_argument("--python-cap", type=float, default=1800.0,
                        help="cap in seconds on the Python solver's construction plus "
                             "iterations; default 1800")
    parser.add_argument("--skip-python", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.iterations < 1 or args.repeats < 1 or min(args.threads) < 1:
        parser.error("--iterations, --repeats and --threads must be at least 1")
    n = args.iterations
    env = (f"PYTHONPATH={shlex.quote(os.environ['PYTHONPATH'])} "
           if os.environ.get("PYTHONPATH") else "")
    command = env + " ".join(shlex.quote(a) for a in [os.path.relpath(sys.executable),
                                                      os.path.relpath(sys.argv[0])]
                             + sys.argv[1:])
    started, load_start = now(), load()
    variant = game_def.parse(args.variant)
    game = game_def.load_game(variant)

    ours, tree = bench_ours(variant, n, args.threads, args.repeats)
    ours_sym, sym_tree = bench_ours(variant, n, args.threads, args.repeats, symmetric=True)
    cpp = bench_cpp(game, n)
    contenders = ours + ours_sym + [cpp]
    py = None
    if args.python:
        py = bench_python(game, args.python_iterations, args.python_cap)
        contenders.append(py)
    ended, load_end = now(), load()

    print(f"command: {command}")
    print(f"date:    {started} to {ended}, commit {commit()}")
    print(f"load:    {load_start} at start, {load_end} at end (1/5/15-min load averages, "
          f"{os.cpu_count()} CPUs; other jobs may share them)")
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}, OpenSpiel "
          f"{getattr(pyspiel, '__version__', '?')}")
    print(f"\nCFR+ on {variant}: every contender from a fresh solver, timed over the same "
          f"{n} iterations ({span(n)}); ours {args.repeats} runs each (medians)")
    print(f"tree: {tree.num_nodes:,} nodes, {tree.num_infosets:,} infosets, "
          f"{tree.num_action_slots:,} action slots, {tree.nbytes / 2**20:,.1f} MiB of arrays")
    print(f"position-symmetric tree (the same game, lossless; solver.exact.symmetry): "
          f"{sym_tree.num_nodes:,} nodes, {sym_tree.num_infosets:,} infosets")

    lead, lead1 = ours[0], next((c for c in ours if c.name.endswith(" 1 thread")), None)
    print(f"\nHEADLINE: ours against {cpp.name}, both over {span(n)}")
    print(f"  reference: C++ {cpp.cpu(n):.3f} CPU s, {cpp.wall(n):.3f} wall s "
          f"({cpp.cpu(n) / n:.4f} CPU s an iteration)")
    print(ratio_line(f"{lead.name} / C++", lead, cpp, n))
    if lead1 is not None and lead1 is not lead:
        print(ratio_line(f"{lead1.name} / C++ (one thread against one)", lead1, cpp, n))
    print(ratio_line(f"{ours_sym[0].name} / C++ (same game)", ours_sym[0], cpp, n))
    if py is not None and py.iterations:
        m = py.iterations
        print(f"  against {py.name}, both over {span(m)}: Python {py.cpu(m):.3f} CPU s, "
              f"{py.wall(m):.3f} wall s")
        print(ratio_line(f"{lead.name} / Python", lead, py, m))
    elif py is not None:
        print(f"  Python: not measured ({py.note})")

    print("\none-off costs (wall seconds)")
    for c in contenders:
        for label, secs in c.setup:
            print(f"  {c.name:<38} {label:<62} {secs:>9.3f}")

    print(f"\ntimed iterations (medians of the runs; first = iteration 1, apart)")
    print(f"{'implementation':<38} {'its':>4} {'wall s':>9} {'cpu s':>9} {'wall s/it':>10} "
          f"{'cpu s/it':>10} {'cpu/wall':>8} {'first wall':>10} {'first cpu':>10} "
          f"{'load before':>16} {'maxrss after':>13}")
    for c in contenders:
        m = c.iterations
        if not m:
            print(f"{c.name:<38} {'-':>4}  ({c.note})")
            continue
        w, u = c.wall(m), c.cpu(m)
        print(f"{c.name:<38} {m:>4} {w:>9.3f} {u:>9.3f} {w / m:>10.5f} {u / m:>10.5f} "
              f"{u / w:>8.2f} {c.first_wall():>10.4f} {c.first_cpu():>10.4f} "
              f"{c.load_before:>16} {c.maxrss_after:>9,.0f} MiB")
    print("(cpu = this process's CPU seconds, all its threads; cpu/wall near the thread "
          "count means the threads had the cores. maxrss is the process peak so far: "
          "ours alone, then + C++, then + Python)")
    for c in ours + ours_sym:
        if len(c.runs) > 1:
            spread = ", ".join(f"{r.cpu(n):.3f}" for r in c.runs)
            print(f"  {c.name}: cpu s of each run: {spread}")
    if n >= 10:
        k = max(1, n // 10)
        print(f"\nours' iterations get cheaper as regrets settle (median cpu s/it, first and "
              f"last {k} of the {n}):")
        for c in ours + ours_sym:
            head = statistics.median(statistics.mean(r.cpus[:k]) for r in c.runs)
            tail = statistics.median(statistics.mean(r.cpus[n - k:n]) for r in c.runs)
            print(f"  {c.name:<38} {head:.5f} -> {tail:.5f}")
    print(f"\nincluding the first iteration (iterations 1 .. {n + 1}; C++'s first fills "
          f"its cached tree):")
    for c in [lead] + ([lead1] if lead1 is not None and lead1 is not lead else []):
        cpu = (cpp.cpu(n) + cpp.first_cpu()) / (c.cpu(n) + c.first_cpu())
        wall = (cpp.wall(n) + cpp.first_wall()) / (c.wall(n) + c.first_wall())
        print(f"  {c.name + ' / C++':<52} {cpu:>9,.1f}x per CPU second   "
              f"{wall:>9,.1f}x wall")


if __name__ == "__main__":
    main()
