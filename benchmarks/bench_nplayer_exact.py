"""Exact CFR beyond two players: the NashConv (the sum over players of each one's
best-response gain, exact) the CFR family reaches on small 3- and 4-player trees, by
iteration, and the seconds it took. CFR carries no guarantee of reaching a Nash
equilibrium beyond two players (docs/nplayer.md), so this measures what it does reach.

Writes benchmarks/results/nplayer_exact.txt with the command, the date and the load.

    .venv/bin/python benchmarks/bench_nplayer_exact.py [--iterations 1000]
        [--variants "rspx:players=3,max_turns=2" ...] [--algos cfr cfr+ dcfr pcfr+]
"""

from __future__ import annotations

import argparse
import time

from bench_mccfr import _header, _write

TEAM = "Robin+Sheriff+Peasant+Innkeeper+Traitor:players=4,teams=true"
DEFAULT_VARIANTS = ["rspx:players=3,max_turns=2", "rspx:players=3,max_turns=4",
                    "rspx:players=4,max_turns=2", "rspx:players=4,max_turns=4",
                    f"{TEAM},max_turns=1", f"{TEAM},max_turns=2"]
CHECKPOINTS = (10, 100, 1000, 10000)


def main() -> None:
    import game_def
    from solver.exact.best_response import BestResponder
    from solver.exact.cfr import CFRSolver
    from solver.exact.robinwood_tree import build_robinwood_tree

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--variants", nargs="+", default=DEFAULT_VARIANTS)
    ap.add_argument("--algos", nargs="+", default=["cfr", "cfr+", "dcfr", "pcfr+"])
    args = ap.parse_args()

    lines = _header("Exact CFR family on 3-4 player trees: NashConv by iteration")
    marks = [c for c in CHECKPOINTS if c < args.iterations] + [args.iterations]
    lines.append(f"{'variant':<74} {'nodes':>8} {'algo':<6} "
                 + " ".join(f"{f'it {m}':>10}" for m in marks) + f" {'seconds':>8}")
    for spec in args.variants:
        variant = game_def.parse(spec)
        tree = build_robinwood_tree(variant)
        responder = BestResponder(tree)
        for algo in args.algos:
            solver = CFRSolver(tree, algo)
            figures, done, seconds = [], 0, 0.0
            for mark in marks:
                start = time.perf_counter()
                solver.step(mark - done)
                seconds += time.perf_counter() - start
                done = mark
                result = responder.evaluate(solver.average_strategy())
                figures.append(result.exploitability * variant.players)  # NashConv
            lines.append(f"{spec:<74} {tree.num_nodes:>8,} {algo:<6} "
                         + " ".join(f"{f:>10.3g}" for f in figures) + f" {seconds:>8.1f}")
            print(lines[-1], flush=True)
    lines.append("")
    lines.append("NashConv = players x exploitability (solver.exact.best_response: the mean "
                 "best-response gain); seconds: iterations only, not the evaluations.")
    _write("nplayer_exact.txt", lines)


if __name__ == "__main__":
    main()
