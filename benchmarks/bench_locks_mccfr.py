"""Monte Carlo CFR with locks on the 12-card game: how much better does a strategy trained
against a locked opponent do against it than the unlocked strategy, on the same budget?

For each lock and each seat s, the lock is bound to seat s (solver.decisions.seat_locks)
and Monte Carlo CFR trains with it (seat 1-s free); the locked opponent is that run's
agent in seat s (its locked decisions as locked, its free ones as trained). The free seat
of the locked run and the unlocked run's same seat, trained for the same iterations from
the same seed, each meet the locked opponent for --rounds rounds; their values (+1 a
win) are reported per seat and seat-averaged with 95% intervals, and the gain is their
difference. Writes benchmarks/results/locks_mccfr.txt with the command, the date and the
load.

    .venv/bin/python benchmarks/bench_locks_mccfr.py [--variant standard] [--iterations 9600]
        [--lock 'play=paranoid' --lock 'respond: pass=1'] [--rounds 20000] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import tempfile
from pathlib import Path

from bench_mccfr import _header, _write

Z95 = 1.959964


def _train(variant, locks, iterations: int, seed: int, out: Path):
    from solver.mccfr.job import solve_mccfr
    from solver.mccfr.trainer import MCCFRConfig
    from solver.players.agents import load_table_agent

    config = MCCFRConfig(variant, locks=locks, seed=seed, chunks=8)
    summary = solve_mccfr(config, out, max_iterations=iterations)
    return load_table_agent(out), summary


def _value(variant, strategy, opponent, seat: int, rounds: int, seed: int):
    """Mean payoff of `strategy` in `seat` against `opponent` in the other, with the half
    width of its 95% interval."""
    from solver.evaluation.tournament import head_to_head

    result = head_to_head(variant, strategy, opponent, rounds, seed).seats[seat]
    lo, hi = result.value_interval()
    return result.value, (hi - lo) / 2


def main() -> None:
    import game_def
    from solver.decisions import parse_locks, seat_locks

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--iterations", type=int, default=9600,
                        help="traversals a seat for every run (the demo's budget)")
    parser.add_argument("--lock", action="append", default=None)
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    variant = game_def.parse(args.variant)
    texts = args.lock or ["play=paranoid", "respond: pass=1"]
    lines = _header(f"Monte Carlo CFR with locks on {variant}: {args.iterations:,} "
                    f"iterations a seat a run, {args.rounds:,} rounds a measurement, seed "
                    f"{args.seed}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        unlocked, summary = _train(variant, (), args.iterations, args.seed, tmp / "unlocked")
        lines.append(f"unlocked run: {summary['seconds']:.0f} s, "
                     f"{summary['infosets']:,} infosets")
        for text in texts:
            lines += ["", f"lock {text!r}",
                      "seat | locked run's seconds | trained against the lock | "
                      "unlocked | gain"]
            rows = []
            for locked_seat in (0, 1):
                locks = seat_locks(parse_locks([text]), locked_seat)
                agent, summary = _train(variant, locks, args.iterations, args.seed,
                                        tmp / f"{text}-{locked_seat}".replace(" ", "_"))
                free = 1 - locked_seat
                seed = args.seed + 17 + locked_seat
                mine = _value(variant, agent, agent, free, args.rounds, seed)
                base = _value(variant, unlocked, agent, free, args.rounds, seed)
                rows.append((mine, base))
                gain = mine[0] - base[0]
                half = math.hypot(mine[1], base[1])
                lines.append(f"{free} | {summary['seconds']:.0f} | {mine[0]:+.3f} ± "
                             f"{mine[1]:.3f} | {base[0]:+.3f} ± {base[1]:.3f} | "
                             f"{gain:+.3f} ± {half:.3f}")
            mine = sum(r[0][0] for r in rows) / 2
            base = sum(r[1][0] for r in rows) / 2
            mine_half = math.hypot(*(r[0][1] for r in rows)) / 2
            base_half = math.hypot(*(r[1][1] for r in rows)) / 2
            lines.append(f"seat-averaged | | {mine:+.3f} ± {mine_half:.3f} | {base:+.3f} ± "
                         f"{base_half:.3f} | {mine - base:+.3f} ± "
                         f"{math.hypot(mine_half, base_half):.3f}")
    _write("locks_mccfr.txt", lines)


if __name__ == "__main__":
    main()
