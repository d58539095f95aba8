"""The sound default alone (no table) against every scripted player the project has:
at two seats its seat-averaged payoff a round against each, at three or four seats and
in teams its win share (a draw counting 1/N) in every seat against copies of each, with
95% intervals (docs/sound-play.md, "Measured").

    .venv/bin/python benchmarks/probes/bench_sound_alone.py --variant standard --rounds 5000 --seed 11
    .venv/bin/python benchmarks/probes/bench_sound_alone.py --variant standard:players=4 --rounds 300 --seed 13
"""

from __future__ import annotations

import argparse
import math

import pandas as pd

import game_def
from solver.evaluation.table_play import table_play
from solver.evaluation.tournament import head_to_head
from solver.players.agents import BOTS, HELD_OUT_BOTS, LEAGUE_BOTS, bot

OPPONENTS = (*BOTS, *LEAGUE_BOTS, *HELD_OUT_BOTS, "claim_counter")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--rounds", type=int, default=5000, help="rounds a seat")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    variant = game_def.parse(args.variant)
    print(f"the sound default alone on {variant}, {args.rounds:,} rounds a seat, seed "
          f"{args.seed}")
    if variant.players == 2 and not variant.teams:
        for name in OPPONENTS:
            r = head_to_head(variant, bot("sound"), bot(name), rounds=args.rounds,
                             seed=args.seed)
            halves = [(hi - lo) / 2 for lo, hi in (s.value_interval() for s in r.seats)]
            half = math.hypot(*halves) / 2
            print(f"{name:22s} {r.value:+.3f} ± {half:.3f}", flush=True)
        return
    summary = table_play(variant, bot("sound"), opponents=OPPONENTS, rounds=args.rounds,
                         seed=args.seed).summary()
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(summary[["win_share", "low", "high", "worst_seat_low", "fair_share",
                       "beats_fair_share", "beats_fair_share_in_every_seat"]].round(3))
    print("above the fair share in every seat against all:",
          bool(summary["beats_fair_share_in_every_seat"].all()))


if __name__ == "__main__":
    main()
