"""This machine's memory bandwidth (a STREAM-like triad) and the exact CFR passes against it.

1. Triad a[i] = b[i] + s * c[i] over three float64 arrays far larger than the caches, on
   one thread and on two (each thread a half; the project's nogil kernels), best of
   --repeats. STREAM counts 24 bytes an element (two reads, one write; the write's
   read-for-ownership is not counted), and so do we.
2. CFR+ on a FlatTree (default: the unsymmetrised rspx:max_turns=4 tree the solver
   benchmark uses, and the symmetric rspx:max_turns=7 tree, 32 M nodes, far past the
   caches): seconds an iteration on one and on two threads after --seconds of
   iterating, and the bytes that iteration touches at least once: the walks skip every
   subtree nobody reaches, so this is counted from the reaches of the solver's strategy
   then (`bytes_walked`; what passes streaming every array would move,
   `bytes_full_passes`, is printed for comparison). Bytes / seconds against the triad
   says how close the walks are to the streaming bound (they read scattered lines, so
   they are bound by latency rather than by bandwidth).

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
from solver.exact import _kernels as kern
from solver.exact.cfr import CFRSolver
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.exact.tree import _ranges


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


def bytes_full_passes(tree) -> int:
    """Bytes an iteration would move if every pass streamed every array once (what the
    kernels before the depth-first walk did: 338 bytes a node on rspx:max_turns=4)."""
    n, slots, sets = tree.num_nodes, tree.num_action_slots, tree.num_infosets
    node_in = (tree.kind.itemsize + tree.first_child.itemsize + tree.num_children.itemsize
               + tree.player.itemsize + tree.infoset.itemsize)
    down = n * (node_in + tree.edge_prob.itemsize + 2 * 8 + 2 * 8) + slots * 8 + sets * 4
    up = (n * (node_in + tree.edge_prob.itemsize + tree.payoff.itemsize + 8 + 2 * 8)
          + slots * (8 + 2 * 8 + 2 * 8) + sets * 4)
    update = slots * (2 * 8 + 2 * 8 + 8 + 2 * 8) / 2 + sets * 5 / 2
    return int(2 * (down + up + update))


def bytes_walked(tree, solver: CFRSolver) -> tuple[int, float]:
    """Bytes the next CFR+ iteration's walks and updates touch, each at least once, and
    the share of non-terminal nodes they enter; from the reaches of the solver's current
    strategy (exact for player 0's pass; player 1's runs against player 0's updated
    strategy, one update later). Counted in the arrays' own widths, per entered node
    (kind, first child, child count; at decisions infoset, player, slot offset), per
    child of an entered node (kind; edge probability, current strategy or payoff), per
    slot of the player's entered decisions (this pass's regret where the others reach
    it, strategy sum where the player does), per own infoset in the update (its id and
    mark) and per slot of the touched ones (regret, this pass's regret, current). Random
    reads bring whole 64-byte lines, so the memory traffic is larger than this."""
    n = tree.num_nodes
    state = solver._state._replace(reach_own=np.empty(n), reach_value=np.empty(n))
    everything = np.array([[0, n]], dtype=np.int64)
    inner = tree.kind != kern.TERMINAL
    total, entered_share = 0, 0.0
    for p in (0, 1):
        kern._start_pass(state)
        kern._reach_down(solver._tree, state, p, everything)
        ro, rx = state.reach_own, state.reach_value
        entered = np.flatnonzero(inner & ((ro != 0.0) | (rx != 0.0)))
        entered_share += len(entered) / inner.sum() / 2
        decision = tree.kind[entered] == kern.DECISION
        kids = tree.num_children[entered].astype(np.int64)
        child = _ranges(tree.first_child[entered].astype(np.int64), kids)
        child_kind = tree.kind[child]
        total += len(entered) * 6 + int(decision.sum()) * 9
        total += len(child) * 1
        total += int((np.repeat(~decision, kids)).sum()) * 8  # chance children's edges
        total += int((np.repeat(decision, kids)).sum()) * 8  # current strategy
        total += int((child_kind == kern.TERMINAL).sum()) * 4  # payoffs
        mine = entered[decision & (tree.player[entered] == p)]
        k_mine = tree.num_children[mine].astype(np.int64)
        total += int(k_mine[rx[mine] != 0.0].sum()) * 16 + int(k_mine[ro[mine] != 0.0].sum()) * 16
        touched = np.unique(tree.infoset[mine[rx[mine] != 0.0]])
        own = int((tree.infoset_player == p).sum())
        total += own * 5 + len(touched) * 5 + int(tree.infoset_num_actions[touched].sum()) * 40
    return total, entered_share


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
        full = bytes_full_passes(tree)
        print(f"\nCFR+ on {name}{' (position-symmetric)' if symmetric else ''}: "
              f"{tree.num_nodes:,} nodes, {tree.num_action_slots:,} action slots; passes "
              f"streaming every array would move {full / tree.num_nodes:.0f} bytes a node "
              f"an iteration")
        for t in (1, 2):
            solver = CFRSolver(tree, "cfr+", threads=t)
            secs = time_iterations(solver, args.seconds)
            need, share = bytes_walked(tree, solver)
            gbs = need / secs / 1e9
            print(f"  {t} thread{'s' if t > 1 else ''}: {secs:.4f} s an iteration "
                  f"(iteration {solver.iteration}), {secs / tree.num_nodes * 1e9:5.1f} ns a "
                  f"node; the walks enter {share:.1%} of the non-terminal nodes and touch "
                  f"{need / tree.num_nodes:.0f} bytes a node: {gbs:5.2f} GB/s = "
                  f"{gbs / triad[t]:4.0%} of the {t}-thread triad")
            del solver

if __name__ == "__main__":
    main()
