"""Random games of Robin des Bois per second: the numba core (robin_des_bois.simulate)
against the plain-Python OpenSpiel game (uniform legal moves, chance by its odds), in
the same run, per player count, with their ratio.

    .venv/bin/python benchmarks/bench_robin_des_bois.py [--players 2,3,4] [--seconds 3]

Writes benchmarks/results/robin_des_bois.txt (command, date, load average).
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel

import robin_des_bois
from bench_mccfr import _header, _write


def python_games_per_second(params: dict, seconds: float, seed: int = 0) -> tuple[float, int]:
    game = pyspiel.load_game("robin_des_bois", params)
    rng = random.Random(seed)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                o = state.chance_outcomes()
                state.apply_action(rng.choices([c for c, _ in o], [p for _, p in o])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        games += 1
    return games / (time.perf_counter() - start), games


def core_games_per_second(params: dict, seconds: float, seed: int = 0):
    robin_des_bois.simulate(params, 10, seed)          # compile or load the cache first
    games = 1000
    while True:
        result = robin_des_bois.simulate(params, games, seed)
        if result.seconds >= seconds:
            return result
        games = int(games * min(10.0, 1.2 * seconds / max(result.seconds, 1e-6)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3,4",
                        help="player counts, comma-separated (other parameters: defaults)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="at least this long per measurement")
    args = parser.parse_args()
    lines = _header("Robin des Bois: random games per second, numba core against the "
                    "plain-Python OpenSpiel game (default box contents)")
    lines.append(f"{'players':>7} {'core games/s':>13} {'python games/s':>15} "
                 f"{'ratio':>7} {'core games':>11} {'python games':>13} {'turns/game':>10}")
    for players in [int(p) for p in args.players.split(",")]:
        params = {"players": players}
        result = core_games_per_second(params, args.seconds)
        py_rate, py_games = python_games_per_second(params, args.seconds)
        core_rate = result.games_per_second
        lines.append(f"{players:>7} {core_rate:>13,.0f} {py_rate:>15,.1f} "
                     f"{core_rate / py_rate:>7.0f} {result.games:>11,} {py_games:>13,} "
                     f"{result.game_length()['mean_turns']:>10.1f}")
        print(lines[-1], flush=True)
    lines.append("")
    lines.append("core: robin_des_bois.simulate (one thread, compile excluded); python: "
                 "pyspiel.load_game('robin_des_bois') with random.Random, same policy")
    _write("robin_des_bois.txt", lines)


if __name__ == "__main__":
    main()
