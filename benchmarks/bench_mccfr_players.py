"""Monte Carlo CFR speed by table size: nodes a second of the default trainer (probe
sampling, fine levels) on the printed decks at 2, 3 and 4 players and in teams, on one
worker and on two, measured in this process; the ratio column is each row's nodes a
second over the two-player row's on the same workers, and "2w/1w" two workers' over
one worker's for the same table. `--chunks N` cuts each seat's batch into N work units
(MCCFRConfig.chunks: three seats split unevenly over two workers at one unit a seat).
Writes benchmarks/results/mccfr_players.txt (mccfr_players_chunks<N>.txt with --chunks)
with the command, the date and the load average before and after.

    .venv/bin/python benchmarks/bench_mccfr_players.py [--batches 5] [--chunks 2]
        [--variant standard --variant standard:players=3]
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from bench_mccfr import _header, _write

VARIANTS = ("standard", "standard:players=3", "standard:players=4",
            "team:players=4,teams=true")


def _rate(config, batches: int, repeats: int) -> float:
    """Best nodes a second over `repeats` runs of `batches` batches (after warm-up)."""
    from solver.mccfr.trainer import MCCFRSolver

    best = 0.0
    for _ in range(repeats):
        solver = MCCFRSolver(config)
        solver.warm_up()
        before = solver.nodes
        start = time.perf_counter()
        solver.run(batches)
        best = max(best, (solver.nodes - before) / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=5,
                        help="batches of 200 traversals a seat per run")
    parser.add_argument("--repeats", type=int, default=2, help="best of this many runs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chunks", type=int, default=1,
                        help="work units a seat per batch (MCCFRConfig.chunks)")
    parser.add_argument("--variant", action="append", default=None,
                        help="a variant to measure (repeatable; default the four tables); "
                             "the first is the ratios' reference")
    args = parser.parse_args()
    variants = tuple(args.variant or VARIANTS)

    import game_def
    from solver.mccfr.trainer import MCCFRConfig

    lines = _header(f"Monte Carlo CFR nodes a second by table size, {args.batches} batches "
                    f"of 200 traversals a seat in {args.chunks} work unit(s) a seat, seed "
                    f"{args.seed}, best of {args.repeats}")
    lines.append(f"{'variant':<28} {'workers':>7} {'nodes/s':>11} {'vs 2 players':>12} "
                 f"{'2w/1w':>6}")
    rates = {}
    for text in variants:
        base = MCCFRConfig(game_def.parse(text), seed=args.seed, chunks=args.chunks)
        for workers in (1, 2):
            rates[text, workers] = _rate(dataclasses.replace(base, workers=workers),
                                         args.batches, args.repeats)
    for text in variants:
        for workers in (1, 2):
            rate = rates[text, workers]
            lines.append(f"{text:<28} {workers:>7} {rate:>11,.0f} "
                         f"{rate / rates[variants[0], workers]:>12.2f} "
                         f"{rates[text, 2] / rates[text, 1] if workers == 2 else 1.0:>6.2f}")
    lines.append("")
    lines.append("nodes: states the traversals visit (chance and decisions), as the "
                 "trainer's progress line counts them")
    _write("mccfr_players.txt" if args.chunks == 1 else
           f"mccfr_players_chunks{args.chunks}.txt", lines)


if __name__ == "__main__":
    main()
