"""What the local best response's by-decision split costs (docs/lbr.md, "Where the gain
comes from, by decision").

`split="fresh"` values the continuation's groups again, on particles and rollouts of
their own, at every lookahead decision; `split="off"` skips it and plays the same rounds
(the split never changes them). `robinwood exploit` therefore splits only the held-out
replay of its strongest opponent (`--lbr-split replay`). This trains a small Monte Carlo
CFR table of the printed deck (or reads --run), then times both on the same rounds, one
thread, CPU seconds, alternating so that a change of load hits both, for each
continuation; the ratio is fresh's time over off's, measured in the same run.

    .venv/bin/python benchmarks/bench_lbr_split.py [--run DIR] [--rounds 4] [--repeats 2]
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

import game_def
from solver.evaluation.lbr import local_best_response
from solver.mccfr.job import solve_mccfr
from solver.mccfr.trainer import MCCFRConfig
from solver.players.agents import load_table_agent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", default=None,
                        help="a Monte Carlo CFR run to measure (default: train 200 "
                             "traversals a seat of the printed deck)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds a seat a run")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--continuations", default="self,baiter")
    args = parser.parse_args()
    run = args.run
    if run is None:
        run = Path(tempfile.mkdtemp(prefix="bench-lbr-split-"))
        solve_mccfr(MCCFRConfig(game_def.parse("standard"), workers=1, seed=0), run,
                    max_iterations=200)
    agent = load_table_agent(run)
    print(f"# {platform.node()} {platform.processor() or platform.machine()}, "
          f"load {os.getloadavg()[0]:.1f}, table {run}, {args.rounds} rounds a seat, one "
          f"thread, CPU seconds")
    local_best_response(agent, rounds=1, seed=1, continuation="self", split="fresh",
                        workers=1, self_play_rounds=1)   # compile outside the timings
    for continuation in args.continuations.split(","):
        times = {"off": [], "fresh": []}
        for _ in range(args.repeats):
            for split in ("off", "fresh"):
                start = time.process_time()
                report = local_best_response(agent, rounds=args.rounds, seed=3,
                                             continuation=continuation, split=split,
                                             workers=1, self_play_rounds=1)
                times[split].append(time.process_time() - start)
                counters = report.to_json()["counters"]
        off, fresh = min(times["off"]), min(times["fresh"])
        print(f"{continuation:8s} off {off:6.2f} s  fresh {fresh:6.2f} s  "
              f"fresh/off {fresh / off:.2f}x  (rollouts {counters['rollouts']:,}, split "
              f"rollouts {counters['split_rollouts']:,}; every time: {times})")


if __name__ == "__main__":
    main()
