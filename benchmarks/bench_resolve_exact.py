"""Exact exploitability of a weak blueprint, of its one-step searcher's limit and of
its depth-limited re-solver, on a reduced deck (solver.evaluation.resolve_exact).

The blueprint is what a user trains with `robinwood solve --algo mccfr --iterations N
--seed S` (MCCFRConfig's defaults: the 12-card game's abstraction, batches of 200
traversals a seat; --traversals a seat, a multiple of 200, --seed), or the table of a
run directory given with --run, loaded as `robinwood` loads it (with its default fallback
rules where the table has not learned); the re-solver runs at every
public state of the round (exact ranges, exact horizon values) with ResolveConfig's
defaults, then with each --variant-config given as key=value pairs. The exact best
response gives each strategy's exploitability; the ratio re-solver / blueprint is the
measure. Results (JSON lines) append to --out.

    .venv/bin/python benchmarks/bench_resolve_exact.py rspx:max_turns=3 \\
        [--traversals 400] [--seed 0] [--run RUN_DIR] [--config gadget=resolve ...]
        [--out benchmarks/results/resolve_exact.jsonl]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import tempfile
import time
from pathlib import Path

from game_def.variant import Variant
from solver.evaluation.resolve_exact import compare
from solver.exact import build_robinwood_tree
from solver.mccfr.job import solve_mccfr
from solver.mccfr.trainer import MCCFRConfig
from solver.players.agents import load_table_agent, parse_fallback
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
    ap.add_argument("--traversals", type=int, default=400,
                    help="traversals a seat of the blueprint (a multiple of 200)")
    ap.add_argument("--batch-iterations", type=int, default=200,
                    help="the trainer's batch (MCCFRConfig.batch_iterations; --traversals "
                         "a multiple of it)")
    ap.add_argument("--fallback", default="auto",
                    help="the blueprint's rules where its table has not learned, as "
                         "robinwood's --fallback (auto, none, a league player)")
    ap.add_argument("--run", default=None,
                    help="a Monte Carlo CFR run directory of the variant: its table is the "
                         "blueprint (instead of training one)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--config", action="append", default=[],
                    help="ResolveConfig fields as key=value,key=value (repeatable)")
    ap.add_argument("--out", default="benchmarks/results/resolve_exact.jsonl")
    args = ap.parse_args()
    variant = Variant.parse(args.variant)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    fallback = parse_fallback(args.fallback)
    if args.run is not None:
        blueprint = load_table_agent(args.run, fallback)
        if blueprint.variant != variant:
            raise SystemExit(f"{args.run} holds a table of {blueprint.variant}, not {variant}")
        traversals = int(blueprint.metadata["iterations"])
        source = f" --run {args.run}"
    else:  # as `robinwood solve --algo mccfr --iterations N --seed S`, loaded as a user
        batch = args.batch_iterations    # loads it (its default fallback rules included)
        if args.traversals % batch:
            raise SystemExit(f"--traversals {args.traversals} is not a multiple of {batch}")
        with tempfile.TemporaryDirectory() as run:
            solve_mccfr(MCCFRConfig(variant, seed=args.seed, batch_iterations=batch),
                        Path(run), max_iterations=args.traversals)
            blueprint = load_table_agent(run, fallback)
        traversals = args.traversals
        source = (f" --traversals {args.traversals} --seed {args.seed}"
                  + (f" --batch-iterations {batch}" if batch != 200 else ""))
    source += f" --fallback {args.fallback}" if args.fallback != "auto" else ""
    trained = time.perf_counter() - start
    tree = build_robinwood_tree(variant)
    for text in [""] + args.config:
        config = _config(text)
        t = time.perf_counter()
        row = compare(blueprint, config, tree)
        row.update(traversals=traversals, seed=args.seed, train_seconds=trained,
                   total_seconds=time.perf_counter() - t,
                   ratio=row["resolver"] / row["blueprint"],
                   date=datetime.datetime.now(datetime.timezone.utc).isoformat(
                       timespec="seconds"),
                   load_before=load, load_after=os.getloadavg()[0],
                   command=f"benchmarks/bench_resolve_exact.py {args.variant}{source}"
                           + (f" --config {text}" if text else ""))
        print(json.dumps(row), flush=True)
        with open(args.out, "a") as f:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
