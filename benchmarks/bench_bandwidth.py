"""This machine's memory bandwidth (a STREAM-like triad) and the exact CFR passes against it.

1. Triad a[i] = b[i] + s * c[i] over three float64 arrays far larger than the caches, on
   one thread and on two (each thread a half; the project's nogil kernels), best of
   --repeats. STREAM counts 24 bytes an element (two reads, one write; the write's
   read-for-ownership is not counted), and so do we.
2. CFR+ on a FlatTree (default: the unsymmetrised rspx:max_turns=4 tree the solver
   benchmark uses, and the symmetric rspx:max_turns=7 tree, 32 M nodes, far past the
   caches): seconds an iteration on one and on two threads, and the bytes an iteration
   must at least move: every array each pass streams, counted once per pass (node arrays
   per node, slot arrays per slot; see `bytes_per_iteration`). Bytes / seconds against
   the triad says how close the passes are to the memory bound.

    .venv/bin/python benchmarks/bench_bandwidth.py [--mib 768] [--repeats 5]
        [--variant rspx:max_turns=4 --variant rspx:max_turns=7:sym] [--seconds 10]
"""

from __future__ import annotations

import argparse
import threading
import time

import numpy as np

import game_def
from game_def.kernels import jit
from solver.exact.cfr import CFRSolver
from solver.exact.robinwood_tree import build_robinwood_tree


@jit
def _triad(a, b, c, s, lo, hi):
    for i in range(lo, hi):
        a[i] = b[i] + s * c[i]


def triad_gbs(n: int, threads: int, repeats: int) -> float:
    a, b, c = np.zeros(n), np.ones(n), np.full(n, 2.0)
    _triad(a, b, c, 3.0, 0, n)  # compile, touch every page
    best = float("inf")
    for _ in range(repeats):
        bounds = np.linspace(0, n, threads + 1).astype(np.int64)
        workers = [threading.Thread(target=_triad, args=(a, b, c, 3.0, int(bounds[i]),
                                                         int(bounds[i + 1])))
                   for i in range(threads)]
        start = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        best = min(best, time.perf_counter() - start)
    assert a[n // 2] == 7.0
    return 24 * n / best / 1e9


def bytes_per_iteration(tree, predictive: bool = False) -> int:
    """Bytes an iteration of solver.exact.cfr must move at least: both players' passes
    each stream the node arrays they read down and up and the per-slot arrays they touch;
    each update streams its player's half of the slot arrays. (Random reads of the
    current strategy at decisions are counted once per pass, as if cached.)"""
    n, slots, sets = tree.num_nodes, tree.num_action_slots, tree.num_infosets
    node_in = (tree.kind.itemsize + tree.first_child.itemsize + tree.num_children.itemsize
               + tree.player.itemsize + tree.infoset.itemsize)
    down = n * (node_in + tree.edge_prob.itemsize + 2 * 8 + 2 * 8) + slots * 8 + sets * 4
    up = (n * (node_in + tree.edge_prob.itemsize + tree.payoff.itemsize + 8 + 2 * 8)
          + slots * (8 + 2 * 8 + 2 * 8) + sets * 4)
    per_slot_update = 2 * 8 + 2 * 8 + 8 + 2 * 8 + (8 if predictive else 0)  # regret,
    # instant, current (write), strategy sum (discounted rules; counted always)
    update = slots * per_slot_update / 2 + sets * 5 / 2
    return int(2 * (down + up + update))


def time_iterations(solver: CFRSolver, seconds: float) -> float:
    solver.step(2)
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        solver.step()
        count += 1
    return (time.perf_counter() - start) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=768, help="triad arrays, all three")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--variant", action="append",
                        help="VARIANT or VARIANT:sym (position-symmetric tree); default "
                             "rspx:max_turns=4 and rspx:max_turns=7:sym")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    n = args.mib * 2**20 // 24
    triad = {t: triad_gbs(n, t, args.repeats) for t in (1, 2)}
    print(f"triad over 3 x {n * 8 / 2**20:,.0f} MiB float64 arrays (24 bytes an element), "
          f"best of {args.repeats}:")
    for t, gbs in triad.items():
        print(f"  {t} thread{'s' if t > 1 else ''}: {gbs:6.2f} GB/s")
    for spec in args.variant or ["rspx:max_turns=4", "rspx:max_turns=7:sym"]:
        symmetric = spec.endswith(":sym")
        name = spec[:-4] if symmetric else spec
        tree = build_robinwood_tree(game_def.parse(name), symmetric=symmetric)
        need = bytes_per_iteration(tree)
        print(f"\nCFR+ on {name}{' (position-symmetric)' if symmetric else ''}: "
              f"{tree.num_nodes:,} nodes, {tree.num_action_slots:,} action slots; at "
              f"least {need / 2**20:,.0f} MiB moved an iteration "
              f"({need / tree.num_nodes:.0f} bytes a node)")
        for t in (1, 2):
            solver = CFRSolver(tree, "cfr+", threads=t)
            secs = time_iterations(solver, args.seconds)
            gbs = need / secs / 1e9
            print(f"  {t} thread{'s' if t > 1 else ''}: {secs:.4f} s an iteration, "
                  f"{secs / tree.num_nodes * 1e9:5.1f} ns a node, {gbs:5.2f} GB/s = "
                  f"{gbs / triad[t]:4.0%} of the {t}-thread triad")
            del solver


if __name__ == "__main__":
    main()
