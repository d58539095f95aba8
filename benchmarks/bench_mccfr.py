"""Monte Carlo CFR benchmarks: speed against OpenSpiel, what the abstraction costs, and
the learning curve of a long run on the full game.

  speed             external-sampling traversals per second on a reduced deck: ours
                    (plain external sampling, one worker, over the abstraction) against
                    OpenSpiel's C++ pyspiel.ExternalSamplingMCCFRSolver and its Python
                    external_sampling_mccfr on the same game, same process.
  abstraction-cost  reduced decks: the exact solver (DCFR, lossless) and abstracted MCCFR
                    trained to near convergence; both strategies' exact exploitability on
                    the unabstracted tree, side by side, with the bots for scale.
  learning-curve    a run with snapshots (robinwood solve --algo mccfr
                    --snapshot-minutes ...): each snapshot, played as every command plays
                    it (its table with the default fallback rules), measured by
                    solver.evaluation.strength.measure (bots, league, local best
                    response, and an exploiter for the final strategy), the lower bound
                    on exploitability and self-play coverage against training time.

    .venv/bin/python benchmarks/bench_mccfr.py speed [--seconds 20]
    .venv/bin/python benchmarks/bench_mccfr.py abstraction-cost [--mccfr-iterations 1000000]
    .venv/bin/python benchmarks/bench_mccfr.py learning-curve runs/standard-60min
        [--rounds 20000] [--exploiter-minutes 0] [--final-exploiter-minutes 5]
        [--lbr-rounds 500] [--final-lbr-rounds 1000] [--lbr-continuations baiter,tempo]
        [--final-lbr-continuations baiter,tempo,self]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
import time
from pathlib import Path

import numpy as np

import game_def
from solver.evaluation.run_files import write_strength

RESULTS = Path(__file__).resolve().parent / "results"


def _command() -> str:
    return " ".join(shlex.quote(a) for a in [os.path.relpath(sys.executable),
                                             os.path.relpath(sys.argv[0])] + sys.argv[1:])


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _header(title: str) -> list[str]:
    """The first lines of a results file: what, the command, the machine, the date and
    the load average (1/5/15 min) at the start; `_write` adds the load at the end."""
    return [title, f"command: {_command()}",
            f"machine: {platform.processor() or platform.machine()}, "
            f"{os.cpu_count()} cores, python {platform.python_version()}",
            f"date: {time.strftime('%Y-%m-%d %H:%M %Z')}",
            f"load average at start: {_load()}", ""]


def _write(name: str, lines: list[str], results: Path = RESULTS) -> None:
    results.mkdir(exist_ok=True)
    text = "\n".join(lines + [f"load average at end: {_load()}"]) + "\n"
    (results / name).write_text(text)
    print(text)


def plain_es(variant, **kw):
    """Plain external sampling: every traverser action expanded, no pruning, the fine
    level played from its first update."""
    from solver.mccfr.trainer import MCCFRConfig

    return MCCFRConfig(variant, batch_iterations=200, max_branching=1 << 40,
                       prune_probability=0.0, levels="fine", fine_visits=1, **kw)


# ----- speed -----------------------------------------------------------------------------
def speed(args) -> None:
    import pyspiel
    from open_spiel.python.algorithms import external_sampling_mccfr as py_es

    from solver.mccfr.trainer import MCCFRConfig, MCCFRSolver

    variant = game_def.parse(args.variant)
    game = game_def.load_game(variant)
    lines = _header(f"External-sampling MCCFR traversals per second on {variant}")
    rates = {}

    def timed(name, step, per_call):
        step()  # warm-up (JIT, caches)
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            step()
            done += per_call
        spent = time.perf_counter() - start
        rates[name] = done / spent
        lines.append(f"{name:<58} {done:>9,} traversals in {spent:6.1f} s = "
                     f"{rates[name]:>12,.1f} /s")

    ours = MCCFRSolver(plain_es(variant, workers=1, weighting="none"))
    timed("ours (numba, abstraction, 1 worker, both seats)", ours.run_batch, 2 * 200)
    ours2 = MCCFRSolver(plain_es(variant, workers=2, weighting="none"))
    timed("ours (numba, abstraction, 2 workers, both seats)", ours2.run_batch, 2 * 200)
    cpp = pyspiel.ExternalSamplingMCCFRSolver(game, seed=0)
    # one C++ iteration traverses once for each player
    timed("OpenSpiel C++ ExternalSamplingMCCFRSolver", lambda: cpp.run_iteration(), 2)
    py = py_es.ExternalSamplingSolver(game, py_es.AverageType.SIMPLE)
    timed("OpenSpiel Python external_sampling_mccfr", py.iteration, 2)
    base = rates["ours (numba, abstraction, 1 worker, both seats)"]
    lines += ["", f"ours (1 worker) / C++:    {base / rates['OpenSpiel C++ ExternalSamplingMCCFRSolver']:,.1f}x",
              f"ours (1 worker) / Python: {base / rates['OpenSpiel Python external_sampling_mccfr']:,.1f}x",
              f"2 workers / 1 worker:     "
              f"{rates['ours (numba, abstraction, 2 workers, both seats)'] / base:.2f}x",
              "(OpenSpiel's solvers key perfect-recall information states, ours abstracted "
              "ones; a traversal samples the same way: chance and the opponent sampled, every "
              "traverser action expanded)"]
    _write(f"bench_mccfr_speed_{variant}.txt".replace(":", "_"), lines)


# ----- abstraction cost -------------------------------------------------------------------
def abstraction_cost(args) -> None:
    from solver.evaluation.abstraction_cost import exact_evaluation
    from solver.players.agents import bot, trained_agent
    from solver.exact.best_response import BestResponder
    from solver.exact.cfr import CFRSolver, algorithm
    from solver.mccfr.trainer import MCCFRConfig, MCCFRSolver
    from solver.exact.robinwood_tree import build_robinwood_tree

    lines = _header("What the abstraction costs: exact exploitability (NashConv/2, payoff "
                    "units) of each strategy on the unabstracted tree")
    rows = []
    for spec in args.variants:
        variant = game_def.parse(spec)
        tree = build_robinwood_tree(variant, symmetric=False)
        exact = CFRSolver(tree, algorithm("dcfr"))
        start = time.perf_counter()
        exact.step(args.exact_iterations)
        exact_seconds = time.perf_counter() - start
        exact_x = BestResponder(tree).evaluate(exact.average_strategy()).exploitability
        row = {"variant": spec, "infosets (exact)": tree.num_infosets,
               f"exact DCFR ({args.exact_iterations} it)": exact_x,
               "exact seconds": exact_seconds}
        for label, cfg in (
                ("coarse level", MCCFRConfig(variant, levels="coarse", workers=1)),
                ("fine level", MCCFRConfig(variant, fine_visits=1, workers=1)),
                ("defaults (coarse, then fine)", MCCFRConfig(variant, workers=1))):
            solver = MCCFRSolver(cfg)
            solver.warm_up()
            start = time.perf_counter()
            solver.run(args.mccfr_iterations // cfg.batch_iterations)
            spent = time.perf_counter() - start
            cost = exact_evaluation(trained_agent(solver, label), tree=tree)
            assert cost.inconsistent_infosets == 0
            row[label] = cost.exploitability
            row[f"{label} infosets"] = solver.entries
            row[f"{label} seconds"] = spent
        for name in ("uniform", "heuristic"):
            row[name] = exact_evaluation(bot(name), variant, tree).exploitability
        rows.append(row)
        print(row, flush=True)
    import pandas as pd

    frame = pd.DataFrame(rows).set_index("variant")
    frame.to_csv(RESULTS / "mccfr_abstraction_cost.csv")
    with pd.option_context("display.width", 200, "display.max_columns", 20,
                           "display.float_format", "{:.4g}".format):
        lines.append(frame.to_string())
    lines += ["", "exact DCFR: the lossless solver on the full tree. MCCFR: "
              f"{args.mccfr_iterations:,} probe-sampled traversals per seat, one worker; "
              "coarse level: the coarse key only; fine level: the fine key played from its "
              "first update (coarse entries exist but are soon overridden); defaults: "
              "fine entries once coarse and fine both have 200 updates. Each strategy is "
              "written back onto every infoset of the full tree and best-responded "
              "exactly. uniform, heuristic: the bots, for scale."]
    _write("bench_mccfr_abstraction_cost.txt", lines)


# ----- learning curve --------------------------------------------------------------------
def learning_curve(args) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from solver.players.agents import DEFAULT_FALLBACK, load_table_agent
    from solver.evaluation.strength import measure

    run = Path(args.run)
    continuations = tuple(filter(None, args.lbr_continuations.split(",")))
    final_continuations = tuple(filter(None, (args.final_lbr_continuations
                                              or args.lbr_continuations).split(",")))
    snaps = sorted((p for p in (run / "snapshots").glob("*s")),
                   key=lambda p: float(p.name[:-1]))
    points = [(float(p.name[:-1]), p) for p in snaps] + [
        (json.loads((run / "metadata.json").read_text())["seconds"], run)]
    rows, tables = [], {}
    for index, (seconds, path) in enumerate(points):
        final = index == len(points) - 1
        agent = load_table_agent(path, DEFAULT_FALLBACK)
        meta = json.loads((path / "metadata.json").read_text())
        minutes = args.final_exploiter_minutes if final else args.exploiter_minutes
        report = measure(agent, rounds=args.rounds, seed=11,
                         exploiter_seconds=minutes * 60 if minutes > 0 else None,
                         lbr_rounds=args.final_lbr_rounds if final else args.lbr_rounds,
                         lbr_continuations=final_continuations if final else continuations,
                         say=lambda text: print(f"  {text}", flush=True))
        table = report.table()
        tables[seconds / 60] = table
        best = report.strongest
        coverage = report.coverage["self-play"]
        row = {"minutes": seconds / 60, "iterations": meta["iterations"],
               "infosets": meta["infosets"], "table_gib": meta["table_bytes"] / 1024**3,
               # the stated bound: the strongest opponent replayed on fresh rounds
               # (the selection maximum beside it overstates; older CSVs hold only that)
               "bound": report.bound.gain, "bound +/-": report.bound.half_width,
               "strongest": best.name, "selection max": best.gain,
               "self-play learned": coverage.loc["all", "learned"],
               "self-play thin": coverage.loc["all", "thin"],
               "self-play unlearned": coverage.loc["all", "unlearned"]}
        for name, r in table.iterrows():
            row[f"payoff vs {name}"] = -r["gain"]
            row[f"payoff vs {name} lo"] = -r["gain_hi"]
        rows.append(row)
        print({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()},
              flush=True)
        if final:
            final_report = report
    frame = pd.DataFrame(rows)
    name = run.name
    frame.to_csv(RESULTS / f"mccfr_learning_curve_{name}.csv", index=False)
    strength = json.dumps(final_report.to_json(), indent=2)
    (RESULTS / f"mccfr_strength_final_{name}.json").write_text(strength)
    write_strength(run, final_report.to_json())      # what robinwood report reads
    lines = _header(f"Learning curve of {run}, played with the fallback rules "
                    f"{DEFAULT_FALLBACK} ({args.rounds:,} rounds per seat per opponent; "
                    f"local best response continuing as {', '.join(continuations)}, "
                    f"{args.lbr_rounds:,} rounds a seat, and as "
                    f"{', '.join(final_continuations)}, {args.final_lbr_rounds:,} rounds "
                    f"a seat, for the final strategy; exploiter "
                    f"{args.exploiter_minutes:g} min per seat, "
                    f"{args.final_exploiter_minutes:g} min for the final strategy)")
    with pd.option_context("display.width", 250, "display.max_columns", 60,
                           "display.float_format", "{:.3f}".format):
        lines.append(frame.T.to_string())
        lines += ["", "Final strategy, every opponent (gain = its seat-averaged payoff "
                  "against the strategy; 95% interval):",
                  final_report.table().to_string(), "",
                  "Final strategy, self-play coverage:",
                  final_report.coverage["self-play"].to_string()]
    _write(f"bench_mccfr_learning_curve_{name}.txt", lines)

    _plot_learning_curve(frame, name)


def _plot_learning_curve(frame, run_name: str) -> None:
    """The learning-curve figure of run `run_name` from its table
    (benchmarks/results/mccfr_learning_curve_<name>.csv)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(18, 4.5))
    ax = axes[0]
    opponents = [c[len("payoff vs "):] for c in frame.columns
                 if c.startswith("payoff vs ") and not c.endswith(" lo")]
    searchers = [o for o in opponents if o.startswith("local best response")
                 or o == "exploiter"]
    for i, name in enumerate(o for o in opponents if o not in searchers):
        ax.plot(frame.minutes, frame[f"payoff vs {name}"], marker="o", ms=3,
                color=plt.cm.tab20(i % 20), label=name)
    ax.axhline(0, color="grey", lw=1)
    ax.set(xlabel="training minutes", ylabel="strategy's seat-averaged payoff",
           title="payoff against each bot and league player")
    ax.legend(fontsize=7, ncol=1, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax = axes[1]
    # the bound is drawn wide and pale under the opponents' lines: it equals one of them
    # at every point, which would otherwise hide that one
    ax.errorbar(frame.minutes, frame["bound"], yerr=frame["bound +/-"], lw=7, alpha=0.25,
                color="k", capsize=4, label="bound (largest gain, 95%)", zorder=1)
    for i, name in enumerate(searchers):
        ax.plot(frame.minutes, -frame[f"payoff vs {name}"], ls="--", marker="o", ms=4,
                color=f"C{i + 4}", label=f"{name} gain", zorder=2)
    ax.axhline(0.10, color="C3", ls=":", lw=1, label="target 0.10")
    ax.axhline(0.05, color="C2", ls=":", lw=1, label="aim 0.05")
    ax.set(xlabel="training minutes", ylabel="max gain (95%)",
           title="lower bound on exploitability")
    ax.legend(fontsize=8)
    ax = axes[2]
    for name, color in (("learned", "C2"), ("thin", "C1"), ("unlearned", "C3")):
        ax.plot(frame.minutes, frame[f"self-play {name}"], marker="o", color=color,
                label=name)
    ax.set(xlabel="training minutes", ylabel="share of self-play decisions",
           title="coverage", ylim=(0, 1))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(RESULTS / f"mccfr_learning_curve_{run_name}.png", dpi=110)


def replot(args) -> None:
    import pandas as pd

    name = Path(args.run).name
    _plot_learning_curve(pd.read_csv(RESULTS / f"mccfr_learning_curve_{name}.csv"), name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("speed")
    p.add_argument("--variant", default="rspx:max_turns=4")
    p.add_argument("--seconds", type=float, default=20.0)
    p.set_defaults(func=speed)
    p = sub.add_parser("abstraction-cost")
    p.add_argument("--variants", nargs="+",
                   default=["rspx:max_turns=5", "rspmx:max_turns=3", "duel6:max_turns=2",
                            "duel7:max_turns=2"])
    p.add_argument("--exact-iterations", type=int, default=1000)
    p.add_argument("--mccfr-iterations", type=int, default=200_000)
    p.set_defaults(func=abstraction_cost)
    p = sub.add_parser("learning-curve")
    p.add_argument("run")
    p.add_argument("--rounds", type=int, default=20_000)
    p.add_argument("--exploiter-minutes", type=float, default=0.0)
    p.add_argument("--final-exploiter-minutes", type=float, default=5.0)
    p.add_argument("--lbr-rounds", type=int, default=500,
                   help="local best response rounds a seat at each snapshot (0: skip)")
    p.add_argument("--final-lbr-rounds", type=int, default=1000)
    p.add_argument("--lbr-continuations", default="baiter,tempo",
                   help="the LBR's continuations (the two strongest on the 37k table)")
    p.add_argument("--final-lbr-continuations", default="",
                   help="... for the final strategy (default: --lbr-continuations)")
    p.set_defaults(func=learning_curve)
    p = sub.add_parser("replot", help="redraw a run's learning-curve figure from its CSV")
    p.add_argument("run")
    p.set_defaults(func=replot)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
