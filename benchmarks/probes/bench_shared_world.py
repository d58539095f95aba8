"""Shared worlds, measured where the answer is exact: Monte Carlo CFR with the lazy
deal and with `shared_world=True` (each traversal deals the hidden cards at its start,
so all its action values face one world; docs/mccfr.md, "Shared worlds") on reduced
decks, the exact exploitability of each table (projected onto the unabstracted tree)
after the same numbers of traversals, for several seeds, one worker. Prints each seed's
values, their means and the ratio shared / lazy of the means. Writes
benchmarks/probes/results/bench_shared_world.txt.

    .venv/bin/python benchmarks/probes/bench_shared_world.py rspx:max_turns=5 duel6:max_turns=2
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from _probe import _header, _write


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--batches", default="25,100,200",
                        help="comma-separated checkpoints, in batches of 200 traversals")
    parser.add_argument("--seeds", default="0,1,2,3", help="comma-separated seeds")
    parser.add_argument("--coarse-actions", default="letters",
                        choices=("classes", "letters"))
    args = parser.parse_args()

    import game_def
    from solver.evaluation.abstraction_cost import project
    from solver.exact.best_response import exploitability
    from solver.exact.robinwood_tree import build_robinwood_tree
    from solver.mccfr.trainer import MCCFRConfig, MCCFRSolver
    from solver.players.agents import trained_agent

    checkpoints = [int(b) for b in args.batches.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    lines = _header("Exact exploitability of Monte Carlo CFR tables, lazy deal against "
                    f"shared worlds (coarse actions {args.coarse_actions}, seeds "
                    f"{args.seeds}, one worker, 200 traversals a seat per batch)")
    lines.append(f"{'variant':<20} {'traversals':>10} {'deal':>11} "
                 f"{'each seed':>34} {'mean':>8} {'ratio':>6} {'seconds':>8}")
    for spec in args.variants:
        variant = game_def.parse(spec)
        tree = build_robinwood_tree(variant, symmetric=False)
        rows = {}
        for shared in (False, True):
            for seed in seeds:
                solver = MCCFRSolver(MCCFRConfig(variant, workers=1, seed=seed,
                                                 coarse_actions=args.coarse_actions,
                                                 shared_world=shared))
                solver.warm_up()
                done, spent = 0, 0.0
                for b in checkpoints:
                    start = time.perf_counter()
                    solver.run(b - done)
                    spent += time.perf_counter() - start
                    done = b
                    agent = trained_agent(solver)
                    value = exploitability(tree, project(agent, variant,
                                                         tree)).exploitability
                    rows[(shared, seed, b)] = (value, spent)
        for b in checkpoints:
            means = {}
            for shared in (False, True):
                values = [rows[(shared, s, b)][0] for s in seeds]
                means[shared] = float(np.mean(values))
                seconds = sum(rows[(shared, s, b)][1] for s in seeds) / len(seeds)
                ratio = f"{means[True] / means[False]:>6.2f}" if shared else " " * 6
                lines.append(f"{spec:<20} {b * 200:>10,} "
                             f"{'shared' if shared else 'lazy':>11} "
                             f"{' '.join(f'{v:.4f}' for v in values):>34} "
                             f"{means[shared]:>8.4f} {ratio} {seconds:>8.1f}")
    _write("bench_shared_world.txt", lines)


if __name__ == "__main__":
    main()
