"""A locked exact solve against the unlocked one on the same tree: seconds to the same
exploitability (the free decisions' for the locked solve), with the one-off cost of
applying the locks (the feature walk and the locked tree) counted in, and the ratio.

Same variant, same algorithm, same process, unlocked first, after both have run on a
tiny tree (so neither pays for loading the kernels); exploitability measured every
--eval-every iterations (the measurements are not timed). Writes
benchmarks/results/locks_<variant>.txt with the command, the date and the load.

    .venv/bin/python benchmarks/bench_locks.py [--variant rspx:max_turns=6]
        [--lock 'respond claim=Robin: pass=1' ...] [--target 1e-3] [--eval-every 10]
"""

from __future__ import annotations

import argparse
import time

from bench_mccfr import _header, _write


def _to_target(tree, algo: str, target: float, every: int, limit: int):
    """(iteration seconds, iterations, exploitability) of one solve to `target`."""
    from solver.exact.best_response import BestResponder
    from solver.exact.cfr import CFRSolver

    solver = CFRSolver(tree, algo)
    responder = BestResponder(tree, solver)
    seconds = 0.0
    while True:
        start = time.perf_counter()
        solver.step(every)
        seconds += time.perf_counter() - start
        result = responder.evaluate_solver()
        if result.exploitability <= target or solver.iteration >= limit:
            return seconds, solver.iteration, result.exploitability


def main() -> None:
    import game_def
    from solver.exact.robinwood_tree import build_robinwood_tree
    from solver.locks import lock_decisions, parse_locks

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="rspx:max_turns=6")
    ap.add_argument("--lock", action="append", default=None)
    ap.add_argument("--algo", default="dcfr")
    ap.add_argument("--target", type=float, default=1e-3)
    ap.add_argument("--eval-every", type=int, default=10)
    ap.add_argument("--max-iterations", type=int, default=20000)
    args = ap.parse_args()
    texts = args.lock or ["respond claim=Robin: pass=1"]

    # Warm up: load or compile every kernel on a tiny tree first, so neither side of
    # the comparison pays for it.
    tiny = game_def.parse("rspx:max_turns=2")
    tiny_tree = build_robinwood_tree(tiny, symmetric=True)
    _to_target(tiny_tree, args.algo, args.target, 2, 4)
    _to_target(lock_decisions(tiny, tiny_tree, parse_locks(["respond: pass=1"]),
                              symmetric=True).solve_tree(), args.algo, args.target, 2, 4)
    variant = game_def.parse(args.variant)
    lines = _header(f"Locked against unlocked exact solve: {variant}, {args.algo} to "
                    f"exploitability {args.target:g}")
    start = time.perf_counter()
    tree = build_robinwood_tree(variant, symmetric=True)
    lines.append(f"tree: {tree.num_nodes:,} nodes, {tree.num_infosets:,} infosets "
                 f"(position-symmetric), built in {time.perf_counter() - start:.1f} s")
    plain, plain_its, plain_x = _to_target(tree, args.algo, args.target, args.eval_every,
                                           args.max_iterations)
    lines.append(f"unlocked: {plain:8.1f} s  {plain_its:6d} iterations  exploitability "
                 f"{plain_x:.3g}")
    start = time.perf_counter()
    locked = lock_decisions(variant, tree, parse_locks(texts), symmetric=True)
    solve_tree = locked.solve_tree()
    applying = time.perf_counter() - start
    seconds, its, x = _to_target(solve_tree, args.algo, args.target, args.eval_every,
                                 args.max_iterations)
    lines.append(f"locked:   {seconds:8.1f} s  {its:6d} iterations  exploitability "
                 f"{x:.3g} (free decisions); applying the locks {applying:.1f} s; "
                 f"{locked.num_locked:,} infosets locked by {'; '.join(texts)}")
    lines.append(f"ratio (locked with applying / unlocked): "
                 f"{(seconds + applying) / plain:.2f}x (target <= 1.5x)")
    _write(f"locks_{args.variant.replace(':', '_')}_{args.target:g}.txt", lines)


if __name__ == "__main__":
    main()
