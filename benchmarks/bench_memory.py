"""Peak memory of a whole exact solve, per tree node: what PEAK_BYTES_PER_NODE must cover.

Warms the kernels on a tiny tree, records the process's resident memory (the baseline:
interpreter, numpy, numba, compiled kernels), then runs `solver.exact.solve` (count,
build, iterate, measure exploitability, checkpoint, save) and reports
(peak RSS - baseline) / nodes.

    .venv/bin/python benchmarks/bench_memory.py [--variant rspx:max_turns=7]
        [--iterations 10] [--algo dcfr]
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

import game_def
from solver.exact import algorithm
from solver.exact.job import SolveConfig, solve
from solver.exact.robinwood_tree import PEAK_BYTES_PER_NODE


def rss_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise OSError("no VmRSS in /proc/self/status")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="rspx:max_turns=7")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--algo", default="dcfr")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        solve(SolveConfig(game_def.parse("rspx:max_turns=2"), algorithm(args.algo),
                          Path(tmp) / "warm", max_iterations=2))
        baseline = rss_bytes()
        peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        start = time.perf_counter()
        phases = []

        def on_phase(text: str) -> None:
            peak_now = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
            phases.append((text, rss_bytes(), peak_now))

        summary = solve(SolveConfig(game_def.parse(args.variant), algorithm(args.algo),
                                    Path(tmp) / "run", max_iterations=args.iterations,
                                    eval_every_iterations=max(1, args.iterations // 2)),
                        on_phase=on_phase,
                        on_progress=lambda p: on_phase(f"measured at iteration {p.iteration}"))
        wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    nodes = summary["tree"]["nodes"]
    print("phase (RSS and peak so far over the baseline, bytes a node, when it starts)")
    for text, now, peak_now in phases:
        print(f"  {text:<60} {(now - baseline) / nodes:7.1f} {(peak_now - baseline) / nodes:7.1f}")
    print(f"{args.variant} ({'symmetric' if summary['symmetric'] else 'full'} tree): "
          f"{nodes:,} nodes, {summary['tree']['infosets']:,} infosets, "
          f"{summary['tree']['action_slots']:,} action slots")
    print(f"{args.algo}, {summary['iterations']} iterations, {wall:.1f} s wall "
          f"(build {summary['tree_build_seconds']:.1f} s)")
    print(f"baseline RSS {baseline / 2**20:,.0f} MiB (peak before: "
          f"{peak_before / 2**20:,.0f} MiB); peak RSS {peak / 2**20:,.0f} MiB")
    print(f"peak over baseline: {(peak - baseline) / nodes:.1f} bytes a node "
          f"(PEAK_BYTES_PER_NODE = {PEAK_BYTES_PER_NODE})")


if __name__ == "__main__":
    main()
