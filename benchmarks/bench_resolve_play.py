"""The re-solver on the 12-card game: head-to-head against its blueprint, the one-step
searcher and scripted players, with its decision times (solver.search.resolver).

    .venv/bin/python benchmarks/bench_resolve_play.py runs/demo-standard \\
        [--opponents blueprint,searcher,mirror,...] [--rounds 20] [--seed 0]
        [--workers 2] [--out benchmarks/results/resolve_play.jsonl]

Each opponent plays `--rounds` rounds a seat; a JSON line per opponent (the re-solver's
seat-averaged payoff with its 95% interval, decision time median and 95th percentile,
the date and the machine's load) appends to --out.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os

from solver.evaluation.league import HELD_OUT, LEAGUE
from solver.players.agents import BOT_NAMES, bot, load_table_agent
from solver.search.resolve import ResolveConfig
from solver.search.resolver import Resolver, SearcherPlayer, play_resolver
from solver.search.searcher import SearchConfig, Searcher


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run")
    ap.add_argument("--opponents", default="blueprint,searcher," + ",".join(HELD_OUT))
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="benchmarks/results/resolve_play.jsonl")
    args = ap.parse_args()
    blueprint = load_table_agent(args.run)
    resolver = Resolver(blueprint, ResolveConfig(), seed=args.seed)
    for name in args.opponents.split(","):
        if name == "blueprint":
            opponent = blueprint
        elif name == "searcher":
            opponent = SearcherPlayer(Searcher(blueprint, SearchConfig()))
        elif name in BOT_NAMES or name in HELD_OUT or name in LEAGUE:
            opponent = bot(name)
        else:
            raise SystemExit(f"unknown opponent {name!r}")
        load = os.getloadavg()[0]
        match = play_resolver(resolver, opponent, rounds=args.rounds, seed=args.seed,
                              workers=args.workers)
        row = match.to_json()
        row.update(run=args.run, rounds_per_seat=args.rounds, held_out=name in HELD_OUT,
                   config=resolver.config.to_json(), load_before=load,
                   load_after=os.getloadavg()[0],
                   date=datetime.datetime.now(datetime.timezone.utc).isoformat(
                       timespec="seconds"),
                   command=f"benchmarks/bench_resolve_play.py {args.run} --opponents "
                           f"{name} --rounds {args.rounds} --seed {args.seed}")
        print(json.dumps({k: row[k] for k in ("opponent", "value", "half_width_95",
                                              "median_seconds", "p95_seconds")}),
              flush=True)
        with open(args.out, "a") as f:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
