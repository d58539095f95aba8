"""Exact exploitability of a weak blueprint, of its one-step searcher's limit and of
its depth-limited re-solver, on a reduced deck (solver.evaluation.resolve_exact).

The blueprint is the 12-card game's abstraction (MCCFRConfig's defaults) trained for a
small budget (--traversals a seat, one worker, --seed); the re-solver runs at every
public state of the round (exact ranges, exact horizon values) with ResolveConfig's
defaults, then with each --variant-config given as key=value pairs. The exact best
response gives each strategy's exploitability; the ratio re-solver / blueprint is the
measure. Results (JSON lines) append to --out.

    .venv/bin/python benchmarks/bench_resolve_exact.py rspx:max_turns=5 \\
        [--traversals 2000] [--seed 0] [--config gadget=resolve ...]
        [--out benchmarks/results/resolve_exact.jsonl]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import time

from game_def.variant import Variant
from solver.evaluation.resolve_exact import compare
from solver.exact import build_robinwood_tree
from solver.mccfr.trainer import MCCFRConfig, MCCFRSolver
from solver.players.agents import trained_agent
from solver.search.resolve import ResolveConfig


def _config(text: str) -> ResolveConfig:
    kwargs = {}
    for pair in filter(None, text.split(",")):
        key, _, value = pair.partition("=")
        default = getattr(ResolveConfig(), key)
        kwargs[key] = type(default)(value) if not isinstance(default, tuple) else eval(value)
    return ResolveConfig(**kwargs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant")
    ap.add_argument("--traversals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--config", action="append", default=[],
                    help="ResolveConfig fields as key=value,key=value (repeatable)")
    ap.add_argument("--out", default="benchmarks/results/resolve_exact.jsonl")
    args = ap.parse_args()
    variant = Variant.parse(args.variant)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    trainer = MCCFRSolver(MCCFRConfig(variant, workers=1, seed=args.seed,
                                      batch_iterations=100))
    trainer.run(max(1, args.traversals // 100))
    blueprint = trained_agent(trainer)
    trained = time.perf_counter() - start
    tree = build_robinwood_tree(variant)
    for text in [""] + args.config:
        config = _config(text)
        t = time.perf_counter()
        row = compare(blueprint, config, tree)
        row.update(traversals=trainer.iterations, seed=args.seed, train_seconds=trained,
                   total_seconds=time.perf_counter() - t,
                   ratio=row["resolver"] / row["blueprint"],
                   date=datetime.datetime.now(datetime.timezone.utc).isoformat(
                       timespec="seconds"),
                   load_before=load, load_after=os.getloadavg()[0],
                   command=f"benchmarks/bench_resolve_exact.py {args.variant} "
                           f"--traversals {args.traversals} --seed {args.seed}"
                           + (f" --config {text}" if text else ""))
        print(json.dumps(row), flush=True)
        with open(args.out, "a") as f:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
