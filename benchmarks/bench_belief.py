"""The sound default's belief with and without its shortcut for exchangeable positions.

The belief (solver.knowledge, docs/sound-play.md) is a dynamic programme over the
positions a seat cannot place. Positions with no constraint and no evidence (unknown,
unclaimed) are exchangeable: the kernel fills them at once by a multinomial instead of
one step each. This times both on the same decisions of random rounds, every seat's
belief at each, from Python (the call's overhead is in both), and checks that they
agree bit for bit (the default claim weight is an integer, so every sum is exact).
The ratio is the stepwise reference's time over the kernel's, measured in the same run.

    .venv/bin/python benchmarks/bench_belief.py [--variant standard] [--decisions 5000]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

import game_def
from game_def import kernels as k
from game_def.core import rules_array
from solver.knowledge import kernels as kb
from solver.players import kernels as ka

NO_LIAR = np.zeros(k.NUM_CHARACTERS)   # a claim says nothing of the Trickster (two seats)


def cases(variant, count: int, seed: int) -> list[tuple]:
    """(knowledge, seat) for every seat at `count` decisions of uniformly random rounds."""
    game = game_def.load_game(variant)
    rules = rules_array(variant)
    rng = random.Random(seed)
    out: list[tuple] = []
    decisions = 0
    while decisions < count:
        state = game.new_initial_state()
        while not state.is_terminal() and decisions < count:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                action = rng.choices(actions, probs)[0]
            else:
                _, know = ka.replay(rules, np.array(state.history(), dtype=np.int64))
                out += [(know, seat) for seat in range(game.num_players())]
                decisions += 1
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
    return out


def seconds_a_belief(kernel, rules, cases, weight: float, repeats: int) -> float:
    """The fastest of `repeats` passes over the cases, one belief's share of it."""
    out = np.empty((int(rules[k.R_N]), k.NUM_CHARACTERS))
    kernel(rules, cases[0][0], cases[0][1], weight, NO_LIAR, out)  # compile
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for know, seat in cases:
            kernel(rules, know, seat, weight, NO_LIAR, out)
        best = min(best, time.perf_counter() - start)
    return best / len(cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--decisions", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    variant = game_def.parse(args.variant)
    rules = rules_array(variant)
    data = cases(variant, args.decisions, args.seed)
    weight = float(kb.DEFAULT_CLAIM_WEIGHT)
    fast = np.empty((int(rules[k.R_N]), k.NUM_CHARACTERS))
    slow = np.empty_like(fast)
    for know, seat in data:
        kb.belief(rules, know, seat, weight, NO_LIAR, fast)
        kb.belief_stepwise(rules, know, seat, weight, NO_LIAR, slow)
        if not np.array_equal(fast, slow):
            raise SystemExit(f"the shortcut changed a belief (seat {seat}): "
                             f"{np.abs(fast - slow).max():.3g}")
    times = {name: seconds_a_belief(kernel, rules, data, weight, args.repeats)
             for name, kernel in (("stepwise", kb.belief_stepwise),
                                  ("exchangeable", kb.belief))}
    print(f"{args.variant}: {len(data):,} beliefs (every seat at {args.decisions:,} "
          f"decisions of random rounds, seed {args.seed}), bit-identical; "
          f"{platform.processor() or platform.machine()}, one thread, the fastest of "
          f"{args.repeats} passes")
    print(f"{'belief':<14} {'µs a belief':>12} {'x stepwise':>11}")
    for name, seconds in times.items():
        print(f"{name:<14} {seconds * 1e6:>12.2f} {seconds / times['stepwise']:>11.2f}")
    print(f"speedup: {times['stepwise'] / times['exchangeable']:.2f}x "
          f"(each call from Python: its overhead is in both rows)")


if __name__ == "__main__":
    main()
