"""Monte Carlo CFR on W workers: traversals per second of the same run (same seed,
chunks and iterations) on one worker and on two, on the 12-card deck, and the ratio
measured in this process; also checks that both left bit-identical tables (docs/mccfr.md,
"Workers"). A reference row runs the per-seat scheme (one chunk per seat) on one and two
workers. Writes benchmarks/results/mccfr_workers.txt with the command, the date
(`date -u`) and the load average before and after.

    .venv/bin/python benchmarks/bench_mccfr_workers.py [--batches 10] [--chunks 8]
"""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import time

import numpy as np

from bench_mccfr import _header, _write


def _timed(config, batches: int, repeats: int):
    """Best of `repeats` runs of `batches` batches: (seconds, solver of the last run)."""
    from solver.mccfr.trainer import MCCFRSolver

    best = float("inf")
    for _ in range(repeats):
        solver = MCCFRSolver(config)
        solver.warm_up()
        start = time.perf_counter()
        solver.run(batches)
        best = min(best, time.perf_counter() - start)
    return best, solver


def _same_tables(a, b) -> bool:
    """Every used table array of both seats equal bit for bit."""
    for ta, tb in zip(a.tables, b.tables):
        e, n = ta.entries, ta.action_slots
        if (e, n) != (tb.entries, tb.action_slots):
            return False
        for name in ("keys", "level", "offset", "nact", "visits"):
            if getattr(ta, name)[:e].tobytes() != getattr(tb, name)[:e].tobytes():
                return False
        for name in ("regret", "ssum"):
            if getattr(ta, name)[:n].tobytes() != getattr(tb, name)[:n].tobytes():
                return False
        if not np.array_equal(ta.slots, tb.slots):
            return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--batches", type=int, default=10,
                        help="batches of 200 traversals a seat per run")
    parser.add_argument("--chunks", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=2, help="best of this many runs")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import game_def
    from solver.mccfr.trainer import MCCFRConfig

    date = subprocess.run(["date", "-u"], capture_output=True, text=True).stdout.strip()
    variant = game_def.parse(args.variant)
    base = MCCFRConfig(variant, seed=args.seed)
    lines = _header(f"Monte Carlo CFR traversals per second on 1 and 2 workers, "
                    f"{args.variant}, {args.batches} batches of {base.batch_iterations} "
                    f"traversals a seat, seed {args.seed}, best of {args.repeats}")
    lines.insert(4, f"date -u: {date}")
    lines.append(f"{'chunks':>6} {'workers':>7} {'seconds':>8} {'traversals/s':>12} "
                 f"{'ratio':>6} {'tables':>16}")
    for chunks in (args.chunks, 1):
        runs = {}
        for workers in (1, 2):
            config = dataclasses.replace(base, chunks=chunks, workers=workers)
            runs[workers] = _timed(config, args.batches, args.repeats)
        traversals = variant.players * args.batches * base.batch_iterations
        same = _same_tables(runs[1][1], runs[2][1])
        for workers in (1, 2):
            seconds = runs[workers][0]
            ratio = runs[1][0] / seconds
            lines.append(f"{chunks:>6} {workers:>7} {seconds:>8.2f} "
                         f"{traversals / seconds:>12,.0f} {ratio:>6.2f} "
                         f"{'identical' if same else 'DIFFERENT':>16}")
    lines.append("")
    lines.append("ratio: one worker's seconds over these workers' (same run, same process); "
                 "the chunks=1 rows are the per-seat scheme (two units a batch)")
    _write("mccfr_workers.txt", lines)


if __name__ == "__main__":
    main()
