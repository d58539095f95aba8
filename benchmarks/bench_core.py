"""Random-playout steps per second: numba core vs OpenSpiel wrapper vs plain-Python twin.

All three play uniformly random legal moves (chance by its probabilities) on the same
variant, in the same run, and the ratios are printed against the twin.

    .venv/bin/python benchmarks/bench_core.py [--variant standard] [--seconds 3]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

import game_def
from game_def.simulate import simulate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from naive import NaiveGame  # noqa: E402  (the twin lives with the tests)


def steps_per_second_core(variant, seconds: float) -> float:
    simulate(variant, 100, seed=0)  # compile / load the cache outside the timing
    rounds, steps, spent = 2_000, 0, 0.0
    while spent < seconds:
        result = simulate(variant, rounds, seed=1)
        steps += result.counters["steps"]
        spent += result.seconds
        rounds *= 2
    return steps / spent


def _play(new_state, rng: random.Random, seconds: float) -> float:
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r, acc = rng.random(), 0.0
                for action, p in outcomes:
                    acc += p
                    if r < acc:
                        break
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    variant = game_def.parse(args.variant)
    game = game_def.load_game(variant)
    twin = NaiveGame(variant)

    rates = {
        "numba core (simulate kernel)": steps_per_second_core(variant, args.seconds),
        "OpenSpiel wrapper (pyspiel.State)": _play(game.new_initial_state, random.Random(1),
                                                   args.seconds),
        "plain-Python twin (tests/naive.py)": _play(twin.new_initial_state, random.Random(1),
                                                    args.seconds),
    }
    reference = rates["plain-Python twin (tests/naive.py)"]
    print(f"random playouts of {variant}, {args.seconds:.0f} s each, "
          f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"{'implementation':<36} {'steps/s':>14} {'x twin':>9}")
    for name, rate in rates.items():
        print(f"{name:<36} {rate:>14,.0f} {rate / reference:>9.1f}")


if __name__ == "__main__":
    main()
