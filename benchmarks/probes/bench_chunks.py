"""Batch chunks, measured where the answer is exact: Monte Carlo CFR with one chunk per
seat (the scheme of one worker per seat, bit-identical to it) and with C chunks (each
chunk reads the tables frozen at the batch start plus its own updates; docs/mccfr.md,
"Workers") on reduced decks, the exact exploitability of each table (projected onto the
unabstracted tree) after the same numbers of traversals, for several seeds, one worker
(the chunk count, not the workers, defines the tables). Prints each seed's values, their
means and the ratio C chunks / 1 chunk of the means. Writes
benchmarks/probes/results/bench_chunks.txt.

    .venv/bin/python benchmarks/probes/bench_chunks.py rspx:max_turns=5 --chunks 8,16
"""

from __future__ import annotations

import argparse

import numpy as np

from _probe import _header, _write


def _curve(variant, tree, chunks: int, seed: int, checkpoints: list[int]) -> list[float]:
    """Exact exploitability after each checkpoint (in batches) of one run."""
    from solver.evaluation.abstraction_cost import project
    from solver.exact.best_response import exploitability
    from solver.mccfr.trainer import MCCFRConfig, MCCFRSolver
    from solver.players.agents import trained_agent

    solver = MCCFRSolver(MCCFRConfig(variant, workers=1, seed=seed, chunks=chunks))
    done, out = 0, []
    for b in checkpoints:
        solver.run(b - done)
        done = b
        out.append(exploitability(tree, project(trained_agent(solver), variant,
                                                tree)).exploitability)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--chunks", default="8", help="comma-separated chunk counts")
    parser.add_argument("--batches", default="25,100,200",
                        help="comma-separated checkpoints, in batches of 200 traversals")
    parser.add_argument("--seeds", default="0,1,2,3", help="comma-separated seeds")
    args = parser.parse_args()

    import game_def
    from solver.exact.robinwood_tree import build_robinwood_tree

    checkpoints = [int(b) for b in args.batches.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    counts = [1] + [int(c) for c in args.chunks.split(",")]
    lines = _header("Exact exploitability of Monte Carlo CFR tables, one chunk per seat "
                    f"against {args.chunks} (defaults otherwise, seeds {args.seeds}, one "
                    f"worker, 200 traversals a seat per batch)")
    lines.append(f"{'variant':<20} {'traversals':>10} {'chunks':>6} "
                 f"{'each seed':>34} {'mean':>8} {'ratio':>6}")
    for spec in args.variants:
        variant = game_def.parse(spec)
        tree = build_robinwood_tree(variant, symmetric=False)
        curves = {(c, s): _curve(variant, tree, c, s, checkpoints)
                  for c in counts for s in seeds}
        for i, b in enumerate(checkpoints):
            base = float(np.mean([curves[(1, s)][i] for s in seeds]))
            for c in counts:
                values = [curves[(c, s)][i] for s in seeds]
                mean = float(np.mean(values))
                ratio = f"{mean / base:>6.2f}" if c > 1 else " " * 6
                lines.append(f"{spec:<20} {b * 200:>10,} {c:>6} "
                             f"{' '.join(f'{v:.4f}' for v in values):>34} {mean:>8.4f} "
                             f"{ratio}")
    _write("bench_chunks.txt", lines)


if __name__ == "__main__":
    main()
