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
                    --snapshot-minutes ...): each snapshot against every baseline bot in
                    both seats, plus exploiter gain; samples/s and table size against time.

    .venv/bin/python benchmarks/bench_mccfr.py speed [--seconds 20]
    .venv/bin/python benchmarks/bench_mccfr.py abstraction-cost [--mccfr-iterations 1000000]
    .venv/bin/python benchmarks/bench_mccfr.py learning-curve runs/standard-60min
        [--rounds 20000] [--exploiter-minutes 1] [--final-exploiter-minutes 8]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import numpy as np

import game_def

RESULTS = Path(__file__).resolve().parent / "results"


def _header(title: str) -> list[str]:
    return [title, f"machine: {platform.processor() or platform.machine()}, "
            f"{__import__('os').cpu_count()} cores, python {platform.python_version()}",
            f"date: {time.strftime('%Y-%m-%d %H:%M')}", ""]


def _write(name: str, lines: list[str]) -> None:
    RESULTS.mkdir(exist_ok=True)
    text = "\n".join(lines) + "\n"
    (RESULTS / name).write_text(text)
    print(text)


# ----- speed -----------------------------------------------------------------------------
def speed(args) -> None:
    import pyspiel
    from open_spiel.python.algorithms import external_sampling_mccfr as py_es

    from solver.mccfr import MCCFRConfig, MCCFRSolver

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

    ours = MCCFRSolver(MCCFRConfig(variant, batch_iterations=200, expand_p=1.0,
                                   max_branching=1 << 40, workers=1, weighting="none"))
    timed("ours (numba, abstraction, 1 worker, both seats)", ours.run_batch, 2 * 200)
    ours2 = MCCFRSolver(MCCFRConfig(variant, batch_iterations=200, expand_p=1.0,
                                    max_branching=1 << 40, workers=2, weighting="none"))
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
    from solver.abstraction_eval import exact_evaluation
    from solver.agents import bot, table_agent
    from solver.best_response import BestResponder
    from solver.cfr import CFRSolver, algorithm
    from solver.mccfr import MCCFRConfig, MCCFRSolver
    from solver.robinwood_tree import build_robinwood_tree

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
                ("MCCFR plain ES", MCCFRConfig(variant, batch_iterations=1000, expand_p=1.0,
                                                max_branching=1 << 40, workers=1)),
                ("MCCFR defaults", MCCFRConfig(variant, batch_iterations=1000, workers=1))):
            solver = MCCFRSolver(cfg)
            solver.warm_up()
            start = time.perf_counter()
            solver.run(args.mccfr_iterations // 1000)
            spent = time.perf_counter() - start
            arrays = [(t.keys[:t.entries], t.offset[:t.entries], t.nact[:t.entries],
                       t.average_strategy()) for t in solver.tables]
            cost = exact_evaluation(table_agent(label, variant, arrays), tree=tree)
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
              f"{args.mccfr_iterations:,} traversals per seat, one worker, abstracted; its "
              f"average strategy written back onto every infoset of the full tree and "
              f"best-responded exactly. uniform, heuristic: the bots, for scale."]
    _write("bench_mccfr_abstraction_cost.txt", lines)


# ----- learning curve --------------------------------------------------------------------
def learning_curve(args) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from solver.agents import BOTS, bot, load_table_agent
    from solver.exploiter import exploit
    from solver.tournament import head_to_head

    run = Path(args.run)
    snaps = sorted((p for p in (run / "snapshots").glob("*s")),
                   key=lambda p: float(p.name[:-1]))
    points = [(float(p.name[:-1]), p) for p in snaps] + [
        (json.loads((run / "metadata.json").read_text())["seconds"], run)]
    rows = []
    for index, (seconds, path) in enumerate(points):
        final = index == len(points) - 1
        agent = load_table_agent(path)
        meta = json.loads((path / "metadata.json").read_text())
        row = {"minutes": seconds / 60, "iterations": meta["iterations"],
               "infosets": meta["infosets"], "table_gib": meta["table_bytes"] / 1024**3}
        for name in BOTS:
            result = head_to_head(agent.variant, agent, bot(name), rounds=args.rounds,
                                  seed=11)
            for s in result.seats:
                row[f"win vs {name} seat {s.seat}"] = s.win_rate
                row[f"turn cap vs {name} seat {s.seat}"] = s.turn_cap_draws / s.rounds
        self_play = head_to_head(agent.variant, agent, agent, rounds=args.rounds, seed=12)
        row["self-play turn-cap rate"] = np.mean([s.turn_cap_draws / s.rounds
                                                  for s in self_play.seats])
        row["self-play seat 0 value"] = self_play.seats[0].value
        minutes = args.final_exploiter_minutes if final else args.exploiter_minutes
        if minutes > 0:
            report = exploit(agent, seconds=minutes * 60, rounds=args.rounds, seed=13)
            row["exploiter minutes"] = minutes
            row["exploiter gain"] = report.gain
            row["exploiter gain +/-"] = report.half_width
            row["exploiter traversals per seat"] = int(np.mean([s.iterations
                                                                for s in report.seats]))
        rows.append(row)
        print({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()},
              flush=True)
    frame = pd.DataFrame(rows)
    frame.to_csv(RESULTS / "mccfr_learning_curve.csv", index=False)
    lines = _header(f"Learning curve of {run} ({args.rounds:,} rounds per seat per bot; "
                    f"exploiter {args.exploiter_minutes:g} min per seat, "
                    f"{args.final_exploiter_minutes:g} min for the final strategy)")
    with pd.option_context("display.width", 250, "display.max_columns", 60,
                           "display.float_format", "{:.3f}".format):
        lines.append(frame.T.to_string())
    _write("bench_mccfr_learning_curve.txt", lines)

    curve = pd.read_csv(run / "convergence.csv")
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    ax = axes[0]
    ax.plot(curve.seconds / 60, curve.nodes_per_second / 1e3)
    ax.set(xlabel="training minutes", ylabel="thousand nodes / s", title="sampling speed")
    ax = axes[1]
    ax.plot(curve.seconds / 60, curve.table_bytes / 1024**3, label="table GiB")
    ax2 = ax.twinx()
    ax2.plot(curve.seconds / 60, curve.infosets / 1e6, color="C1", label="infosets (M)")
    ax.set(xlabel="training minutes", ylabel="GiB", title="table size")
    ax2.set_ylabel("million infosets")
    ax = axes[2]
    for name in BOTS:
        ax.plot(frame.minutes, (frame[f"win vs {name} seat 0"] + frame[f"win vs {name} seat 1"])
                / 2, marker="o", label=f"vs {name}")
    if "exploiter gain" in frame:
        ax.plot(frame.minutes, frame["exploiter gain"], marker="s", color="k",
                label="exploiter gain")
    ax.axhline(0.6, color="grey", ls=":", lw=1)
    ax.set(xlabel="training minutes", ylabel="win rate (mean of seats) / gain",
           title="strength")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(RESULTS / "mccfr_learning_curve.png", dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("speed")
    p.add_argument("--variant", default="rspx:max_turns=4")
    p.add_argument("--seconds", type=float, default=20.0)
    p.set_defaults(func=speed)
    p = sub.add_parser("abstraction-cost")
    p.add_argument("--variants", nargs="+",
                   default=["rspx:max_turns=4", "rspx:max_turns=5", "rspmx:max_turns=4",
                            "duel6:max_turns=2"])
    p.add_argument("--exact-iterations", type=int, default=1000)
    p.add_argument("--mccfr-iterations", type=int, default=1_000_000)
    p.set_defaults(func=abstraction_cost)
    p = sub.add_parser("learning-curve")
    p.add_argument("run")
    p.add_argument("--rounds", type=int, default=20_000)
    p.add_argument("--exploiter-minutes", type=float, default=1.0)
    p.add_argument("--final-exploiter-minutes", type=float, default=8.0)
    p.set_defaults(func=learning_curve)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
