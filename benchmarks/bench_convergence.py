"""Exploitability against iterations and seconds for CFR, CFR+, linear CFR, DCFR and PCFR+.

All five run on the same flat tree of one variant, in one process; the exploitability
(NashConv / 2, exact, in player 0's payoff units) of each average strategy is evaluated
at log-spaced checkpoints. Evaluation time is not counted in the seconds axis. Writes a
two-panel log-log figure and the numbers to benchmarks/results/convergence_<variant>.png
and .csv, and checks the target "the best of DCFR/PCFR+ has at most a third of CFR+'s
exploitability at the last iteration (1000 by default)".

    .venv/bin/python benchmarks/bench_convergence.py [--variant rspx:max_turns=4]
        [--iterations 1000] [--checkpoints 25] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import csv
import platform
import re
import resource
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import game_def  # noqa: E402
from solver.exact.best_response import BestResponder  # noqa: E402
from solver.exact.cfr import ALGORITHMS, CFRSolver  # noqa: E402
from solver.exact.robinwood_tree import build_robinwood_tree  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
STYLE = {  # algorithm -> (label, colour, marker)
    "cfr": ("CFR", "tab:gray", "o"),
    "cfr+": ("CFR+", "tab:blue", "s"),
    "lcfr": ("linear CFR", "tab:green", "^"),
    "dcfr": ("DCFR (1.5, 0, 2)", "tab:red", "D"),
    "pcfr+": ("PCFR+", "tab:purple", "v"),
}


def checkpoints(iterations: int, count: int) -> list[int]:
    """About `count` log-spaced iteration numbers from 1 to `iterations` (both included)."""
    points = np.unique(np.round(np.geomspace(1, iterations, count)).astype(int))
    return [int(p) for p in points]


def run(tree, responder: BestResponder, algo: str, marks: list[int]) -> list[dict]:
    solver = CFRSolver(tree, algo)
    rows, solve_seconds = [], 0.0
    for mark in marks:
        start = time.perf_counter()
        solver.step(mark - solver.iteration)
        solve_seconds += time.perf_counter() - start
        start = time.perf_counter()
        result = responder.evaluate(solver.average_strategy())
        eval_seconds = time.perf_counter() - start
        # The last iterate too (not plotted): shows how much of the average's error is
        # the weight still on early iterations.
        last = responder.evaluate(solver.current.copy())
        rows.append({"algorithm": algo, "iteration": mark, "seconds": solve_seconds,
                     "exploitability": result.exploitability,
                     "nash_conv": result.nash_conv, "value": result.value,
                     "eval_seconds": eval_seconds,
                     "last_iterate_exploitability": last.exploitability})
    return rows


def plot(rows: list[dict], variant: str, path: Path, iterations: int) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.2))
    for algo, (label, colour, marker) in STYLE.items():
        mine = [r for r in rows if r["algorithm"] == algo]
        if not mine:
            continue
        its = [r["iteration"] for r in mine]
        secs = [r["seconds"] for r in mine]
        expl = [r["exploitability"] for r in mine]
        for ax, x in zip(axes, (its, secs)):
            ax.loglog(x, expl, color=colour, marker=marker, markersize=4, linewidth=1.6,
                      label=label)
    axes[0].set_xlabel("iterations")
    axes[1].set_xlabel("solver seconds (exploitability evaluation excluded)")
    for ax in axes:
        ax.set_ylabel("exploitability of the average strategy (NashConv / 2)")
        ax.grid(True, which="major", alpha=0.5)
        ax.grid(True, which="minor", alpha=0.15)
        ax.legend(loc="lower left")
    axes[0].set_title("against iterations")
    axes[1].set_title("against wall-clock time")
    fig.suptitle(f"CFR-family convergence on {variant} ({iterations} iterations, "
                 f"alternating updates)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="rspx:max_turns=4")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--checkpoints", type=int, default=25,
                        help="number of log-spaced checkpoints (default 25)")
    parser.add_argument("--algorithms", default=",".join(ALGORITHMS),
                        help=f"comma-separated subset of {','.join(ALGORITHMS)}")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    variant = game_def.parse(args.variant)
    algos = [a.strip() for a in args.algorithms.split(",") if a.strip()]
    marks = checkpoints(args.iterations, args.checkpoints)

    start = time.perf_counter()
    tree = build_robinwood_tree(variant)
    build_seconds = time.perf_counter() - start
    responder = BestResponder(tree)
    CFRSolver(tree, "cfr").step(1)  # load the compiled kernels outside the timing
    responder.evaluate(CFRSolver(tree, "cfr").average_strategy())

    print(f"convergence on {variant}: {tree.num_nodes:,} nodes, {tree.num_infosets:,} "
          f"infosets, {tree.num_action_slots:,} action slots (tree built in "
          f"{build_seconds:.2f} s); {args.iterations} iterations, {len(marks)} checkpoints; "
          f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    rows: list[dict] = []
    for algo in algos:
        rows += run(tree, responder, algo, marks)

    args.out.mkdir(parents=True, exist_ok=True)
    stem = "convergence_" + re.sub(r"[^A-Za-z0-9._=+-]+", "_", str(variant))
    csv_path, png_path = args.out / f"{stem}.csv", args.out / f"{stem}.png"
    with open(csv_path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["variant", *rows[0]])
        writer.writeheader()
        for row in rows:
            writer.writerow({"variant": str(variant), **row})
    plot(rows, str(variant), png_path, args.iterations)

    # Table: exploitability at the decades and the last iteration, and solver time.
    shown = [m for m in marks if m in (1, 10, 100, 1000, 10000)]
    if marks[-1] not in shown:
        shown.append(marks[-1])
    by = {(r["algorithm"], r["iteration"]): r for r in rows}
    header = f"{'algorithm':<18}" + "".join(f"{'it ' + str(m):>12}" for m in shown)
    print("\nexploitability of the average strategy (player 0's payoff units)")
    print(header + f"{'solve s':>10}{'s/it':>10}{'eval s':>9}{'last iterate':>14}")
    for algo in algos:
        last = by[(algo, marks[-1])]
        evals = sum(r["eval_seconds"] for r in rows if r["algorithm"] == algo)
        print(f"{STYLE.get(algo, (algo,))[0]:<18}"
              + "".join(f"{by[(algo, m)]['exploitability']:>12.3e}" for m in shown)
              + f"{last['seconds']:>10.2f}{last['seconds'] / marks[-1]:>10.4f}{evals:>9.2f}"
              + f"{last['last_iterate_exploitability']:>14.3e}")
    print(f"(solve s: solver time to {marks[-1]} iterations; eval s: time spent on the "
          f"average's exploitability at the checkpoints; last iterate: exploitability of the "
          f"current strategy at {marks[-1]})")

    # Empirical order of convergence over the last decade of checkpoints.
    lo = max((m for m in marks if m <= marks[-1] / 10), default=marks[0])
    if lo < marks[-1]:
        slopes = []
        for algo in algos:
            a, b = by[(algo, lo)]["exploitability"], by[(algo, marks[-1])]["exploitability"]
            if a > 0 and b > 0:
                slopes.append(f"{algo} {np.log(b / a) / np.log(marks[-1] / lo):+.2f}")
        print(f"log-log slope of exploitability vs iterations, it {lo} -> {marks[-1]}: "
              + ", ".join(slopes))

    # Oddities: rises between consecutive checkpoints (the average need not be monotone).
    for algo in algos:
        expl = [by[(algo, m)]["exploitability"] for m in marks]
        rises = [(marks[i], marks[i + 1], expl[i], expl[i + 1])
                 for i in range(len(expl) - 1) if expl[i + 1] > expl[i] * (1 + 1e-9)]
        if rises:
            worst = max(rises, key=lambda r: r[3] / r[2])
            print(f"note: {algo} exploitability rose at {len(rises)} of {len(marks) - 1} "
                  f"checkpoint steps (largest: {worst[2]:.3e} at it {worst[0]} -> "
                  f"{worst[3]:.3e} at it {worst[1]})")
    exact = []
    for algo in algos:
        hit = next((m for m in marks
                    if by[(algo, m)]["last_iterate_exploitability"] < 1e-12), None)
        exact.append(f"{algo} {'it ' + str(hit) if hit else 'never'}")
    print("first checkpoint where the last iterate is an exact equilibrium "
          "(exploitability < 1e-12): " + ", ".join(exact))
    values = {algo: by[(algo, marks[-1])]["value"] for algo in algos}
    print("game value estimate (player 0) at the last iteration: "
          + ", ".join(f"{a} {v:+.6f}" for a, v in values.items()))

    if {"cfr+", "dcfr", "pcfr+"} <= set(algos):
        base = by[("cfr+", marks[-1])]["exploitability"]
        best_algo = min(("dcfr", "pcfr+"), key=lambda a: by[(a, marks[-1])]["exploitability"])
        best = by[(best_algo, marks[-1])]["exploitability"]
        met = best <= base / 3
        print(f"\ntarget: best of DCFR/PCFR+ <= CFR+ / 3 at {marks[-1]} iterations: "
              f"{best_algo} {best:.3e} vs CFR+ {base:.3e} (ratio {best / base:.3f}, needs "
              f"<= 0.333) -> {'MET' if met else 'NOT MET'}")
    print(f"peak memory (maxrss): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f}"
          f" MiB")
    print(f"wrote {png_path.relative_to(Path.cwd()) if png_path.is_relative_to(Path.cwd()) else png_path}"
          f" and {csv_path.name}")


if __name__ == "__main__":
    main()
