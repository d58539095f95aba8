"""What a table's fallback rules are worth (docs/mccfr.md, "Where the table has not
learned"): one Monte Carlo CFR run played with each fallback setting, against every bot
and league player and against the local best response.

For each setting (a --fallback value of the CLI: `none`, a league player, or
`player:visits=N,turn_visits=M`) it prints the strategy's seat-averaged payoff against
each of the eleven players, the worst of them with its 95% interval, and the gain of the
local best response with each continuation asked for, with its interval; the same seeds
for every setting, so the rows differ by the setting only. Writes benchmarks/probes/results/bench_fallback_<run>[_<continuations>].txt
(the suffix when the continuations are other than the heuristic bot alone).

    .venv/bin/python benchmarks/probes/bench_fallback.py runs/standard-sure-37k \\
        --rounds 4000 --lbr-rounds 1000 --lbr-continuations heuristic,baiter --seed 1 \\
        none baiter counter ...
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from _probe import _header, _write


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("settings", nargs="+", help="--fallback values, e.g. none baiter")
    parser.add_argument("--rounds", type=int, default=4000, help="rounds a seat per player")
    parser.add_argument("--lbr-rounds", type=int, default=1000,
                        help="local best response rounds a seat (0 skips it)")
    parser.add_argument("--lbr-continuations", default="heuristic",
                        help="comma-separated: one local best response per continuation")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from solver.evaluation.lbr import local_best_response
    from solver.evaluation.league import play_league
    from solver.players.agents import BOT_NAMES, load_table_agent, parse_fallback

    fallbacks = [parse_fallback(text) for text in args.settings]   # every input first
    continuations = [c.strip() for c in args.lbr_continuations.split(",") if c.strip()]
    lines = _header(f"fallback rules on {args.run} ({args.rounds:,} rounds a seat per "
                    f"player, local best response {args.lbr_rounds:,} rounds a seat, "
                    f"seed {args.seed})")
    lbr_heads = [f"local best response ({c}) gain [95%]" for c in continuations]
    lines.append("| fallback | " + " | ".join(BOT_NAMES) + " | worst [95%] | " +
                 " | ".join(lbr_heads) + " | seconds |")
    lines.append("|---|" + "---:|" * len(BOT_NAMES) + "---|" + "---|" * len(lbr_heads) +
                 "---:|")
    for text, fallback in zip(args.settings, fallbacks):
        start = time.perf_counter()
        agent = load_table_agent(args.run, fallback)
        frame = play_league(agent, rounds=args.rounds, seed=args.seed,
                            opponents=list(BOT_NAMES))
        worst = frame["value"].idxmin()
        row = frame.loc[worst]
        cells = [f"{frame.loc[name, 'value']:+.3f}" for name in BOT_NAMES]
        lbr = []
        for continuation in continuations:
            if not args.lbr_rounds:
                lbr.append("-")
                continue
            report = local_best_response(agent, rounds=args.lbr_rounds, seed=args.seed,
                                         continuation=continuation)
            lo, hi = report.interval
            lbr.append(f"{report.gain:+.3f} [{lo:+.3f}, {hi:+.3f}]")
        lines.append(f"| `{text}` | " + " | ".join(cells) +
                     f" | {worst} {row['value']:+.3f} [{row['value_lo']:+.3f}, "
                     f"{row['value_hi']:+.3f}] | " + " | ".join(lbr) +
                     f" | {time.perf_counter() - start:.0f} |")
        print(lines[-1], flush=True)
    suffix = "" if continuations == ["heuristic"] else "_" + "_".join(continuations)
    _write(f"bench_fallback_{args.run.name}{suffix}.txt", lines)


if __name__ == "__main__":
    main()
