"""Decisions a second of the sound default against the fallback players it replaced.

The sound default (docs/sound-play.md) computes a seat's belief (an exact dynamic
programme over the positions it cannot place) at every decision, where the baiter and
the claim counter read the knowledge array only. This measures what that costs: the
same decisions, taken from random rounds of the variant, are answered by each player
through `solver.players.kernels.replay_probs` (the kernel call the OpenSpiel policy
wrapper makes), which replays the history before it decides; the uniform player's rate
is that replay alone, so `decide µs` is each player's time a decision less the replay.
Ratios are against the baiter, measured in the same run.

    .venv/bin/python benchmarks/bench_sound.py [--variant standard] [--decisions 20000]
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
from solver.mccfr import kernels as ab
from solver.players import kernels as ka
from solver.players.agents import bot

PLAYERS = ("uniform", "baiter", "claim_counter", "sound")


def decisions(variant, count: int, seed: int) -> list[tuple]:
    """(state, knowledge, seat, legal, m) at `count` decisions of uniformly random
    rounds, each replayed by the core once."""
    game = game_def.load_game(variant)
    rules = rules_array(variant)
    rng = random.Random(seed)
    out: list[tuple] = []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                action = rng.choices(actions, probs)[0]
            else:
                core, know = ka.replay(rules, np.array(state.history(), dtype=np.int64))
                legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
                m = k.legal_actions(core, rules, legal)
                out.append((core, know, state.current_player(), legal, m))
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
    return out


def seconds_a_decision(player, rules, cases, repeats: int) -> float:
    """The fastest of `repeats` passes over the cases, a decision's share of it."""
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    out = np.empty(k.MAX_LEGAL)
    core, know, seat, legal, m = cases[0]
    ka.agent_probs(player, core, rules, know, seat, legal, m, scratch, abst, out)  # compile
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for core, know, seat, legal, m in cases:
            ka.agent_probs(player, core, rules, know, seat, legal, m, scratch, abst, out)
        best = min(best, time.perf_counter() - start)
    return best / len(cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--decisions", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    variant = game_def.parse(args.variant)
    rules = rules_array(variant)
    cases = decisions(variant, args.decisions, args.seed)
    times = {name: seconds_a_decision(bot(name).player(0), rules, cases, args.repeats)
             for name in PLAYERS}
    print(f"{args.variant}: {len(cases):,} decisions of random rounds (seed "
          f"{args.seed}), {platform.processor() or platform.machine()}, one thread, the "
          f"fastest of {args.repeats} passes")
    print(f"{'player':<14} {'decisions/s':>12} {'µs a decision':>14} {'x baiter':>9}")
    for name in PLAYERS:
        print(f"{name:<14} {1 / times[name]:>12,.0f} {times[name] * 1e6:>14.2f} "
              f"{times[name] / times['baiter']:>9.2f}")
    print("(each call from Python: the call's own overhead is in every row; the uniform "
          "player's row is about that overhead)")


if __name__ == "__main__":
    main()
