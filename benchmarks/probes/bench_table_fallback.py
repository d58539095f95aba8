"""What a table's fallback rules are worth beyond two seats (docs/nplayer.md, "Where the
table has not learned, beyond two seats"): one Monte Carlo CFR run of 3-4 players or
teams played with each fallback setting, in every seat (pair) against copies of every
scripted player, by play (solver.evaluation.table_play).

For each setting (a --fallback value of the CLI: `none`, a league player, or
`player:visits=N,turn_visits=M`) it prints the strategy's seat-averaged share of rounds
won against each of the eleven scripted players, and how many it beats with 95%
confidence seat-averaged and in every seat; then the same for the held-out players; then
each fallback player's rules alone in the strategy's seat (`rules:NAME`), the reference
that says what the table adds. The same seeds for every setting, so rows differ by the
setting only. Choosing a setting from these rows picks the best of several noisy ones:
measure the chosen one again on fresh seeds (`robinwood exploit RUN --seed S`). Writes
benchmarks/probes/results/bench_table_fallback_<run>.txt.

    .venv/bin/python benchmarks/probes/bench_table_fallback.py runs/standard-4p-league-60min \\
        --rounds 300 --seed 5 baiter:turn_visits=1000 none claim_counter:turn_visits=1000
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
    parser.add_argument("--rounds", type=int, default=300, help="rounds a seat per player")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()

    from solver.evaluation.table_play import TABLE_OPPONENTS, table_play
    from solver.players.agents import bot, default_fallback, load_table_agent, parse_fallback
    from solver.scripted import HELD_OUT_NAMES

    fallbacks = [parse_fallback(text) for text in args.settings]   # every input first
    variant = load_table_agent(args.run, None).variant
    lines = _header(f"fallback rules on {args.run} ({variant}; {args.rounds:,} rounds a seat "
                    f"per player, seed {args.seed}; share of rounds won, fair share "
                    f"{0.5 if variant.teams else 1 / variant.players:.3f})")
    for title, opponents, seed in (("scripted players", TABLE_OPPONENTS, args.seed),
                                   ("held-out players", HELD_OUT_NAMES, args.seed + 1)):
        lines += ["", f"### {title}", "",
                  "| fallback | " + " | ".join(opponents) + " | beaten | in every seat | "
                  "seconds |",
                  "|---|" + "---:|" * len(opponents) + "---:|---:|---:|"]
        rows = [(text, lambda f=fallback: load_table_agent(args.run, f))
                for text, fallback in zip(args.settings, fallbacks)]
        players = dict.fromkeys(default_fallback(variant).player if isinstance(f, str)
                                else f.player for f in fallbacks if f is not None)
        rows += [(f"rules:{name}", lambda name=name: bot(name)) for name in players]
        for text, make in rows:
            start = time.perf_counter()
            result = table_play(variant, make(), opponents=opponents, rounds=args.rounds,
                                seed=seed)
            table = result.summary()
            cells = [f"{table.loc[name, 'win_share']:.3f}" for name in opponents]
            lines.append(f"| `{text}` | " + " | ".join(cells) +
                         f" | {int(table['beats_fair_share'].sum())} | "
                         f"{int(table['beats_fair_share_in_every_seat'].sum())} | "
                         f"{time.perf_counter() - start:.0f} |")
            print(lines[-1], flush=True)
    _write(f"bench_table_fallback_{args.run.name}.txt", lines)


if __name__ == "__main__":
    main()
