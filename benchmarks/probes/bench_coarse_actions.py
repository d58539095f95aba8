"""What the coarse level acts on, measured where the answer is exact: Monte Carlo CFR
with `coarse_actions="classes"`, `"letters"` (docs/abstraction.md, "Letters") and letters
with `fine_key="classes"` ("Fine key on classes") on reduced decks, the exact
exploitability of each table (projected onto the unabstracted tree) after the same
numbers of traversals, same seed, one worker; the ratios letters / classes and letters
with the classes fine key / letters are printed per checkpoint. Writes
benchmarks/probes/results/bench_coarse_actions.txt.

    .venv/bin/python benchmarks/probes/bench_coarse_actions.py rspx:max_turns=5 duel6:max_turns=2
"""

from __future__ import annotations

import argparse
import time

from _probe import _header, _write


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--batches", default="25,100,200",
                        help="comma-separated checkpoints, in batches of 200 traversals")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import game_def
    from solver.evaluation.abstraction_cost import project
    from solver.exact.best_response import exploitability
    from solver.exact.robinwood_tree import build_robinwood_tree
    from solver.mccfr.trainer import MCCFRConfig, MCCFRSolver
    from solver.players.agents import trained_agent

    checkpoints = [int(b) for b in args.batches.split(",")]
    lines = _header("Exact exploitability of Monte Carlo CFR tables by coarse actions "
                    f"(seed {args.seed}, one worker, 200 traversals a seat per batch)")
    lines.append(f"{'variant':<24} {'traversals':>10} {'classes':>9} {'letters':>9} "
                 f"{'ratio':>6} {'l+fine cl':>9} {'ratio':>6} {'entries c/l/l+f':>20} "
                 f"{'s c/l/l+f':>17}")
    modes = {"classes": dict(coarse_actions="classes"),
             "letters": dict(coarse_actions="letters"),
             "letters+fine classes": dict(coarse_actions="letters", fine_key="classes")}
    for spec in args.variants:
        variant = game_def.parse(spec)
        tree = build_robinwood_tree(variant, symmetric=False)
        rows = {}
        for mode, options in modes.items():
            solver = MCCFRSolver(MCCFRConfig(variant, workers=1, seed=args.seed, **options))
            solver.warm_up()
            done, spent = 0, 0.0
            for b in checkpoints:
                start = time.perf_counter()
                solver.run(b - done)
                spent += time.perf_counter() - start
                done = b
                agent = trained_agent(solver)
                value = exploitability(tree, project(agent, variant, tree)).exploitability
                rows[(mode, b)] = (value, solver.entries, spent)
        for b in checkpoints:
            c, l_, f = (rows[("classes", b)], rows[("letters", b)],
                        rows[("letters+fine classes", b)])
            lines.append(f"{spec:<24} {b * 200:>10,} {c[0]:>9.4f} {l_[0]:>9.4f} "
                         f"{l_[0] / c[0]:>6.2f} {f[0]:>9.4f} {f[0] / l_[0]:>6.2f} "
                         f"{c[1]:>6,}/{l_[1]:,}/{f[1]:<6,} "
                         f"{c[2]:>5.1f}/{l_[2]:.1f}/{f[2]:<5.1f}")
    _write("bench_coarse_actions.txt", lines)


if __name__ == "__main__":
    main()
