"""Random games of Robin des Bois per second: the numba core (robin_des_bois.simulate)
against its plain twin, the plain-Python OpenSpiel game (uniform legal moves, chance by
its odds; the reference measured in the same run), per player count, with their ratio
and the target of at least 10,000 random games a second in the core.

    .venv/bin/python benchmarks/bench_robin_des_bois.py [--variant box]
        [--players 3,4,5,6] [--seconds 3]

Writes benchmarks/results/robin_des_bois.txt for the published box (the default),
robin_des_bois_<variant>.txt for another (command, date, load average).
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel

import robin_des_bois
from bench_mccfr import _header, _write
from robin_des_bois.rules import parse_variant

TARGET = 10_000


def python_games_per_second(params: dict, seconds: float, seed: int = 0
                            ) -> tuple[float, int, float]:
    """(games per wall second, games, games per CPU second of this process)."""
    game = pyspiel.load_game("robin_des_bois", params)
    rng = random.Random(seed)
    games = 0
    cpu = time.process_time()
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
    return (games / (time.perf_counter() - start), games,
            games / (time.process_time() - cpu))


def core_games_per_second(params: dict, seconds: float, seed: int = 0):
    """(SimulationResult, games per CPU second of this process)."""
    robin_des_bois.simulate(params, 10, seed)          # compile or load the cache first
    games = 1000
    while True:
        cpu = time.process_time()
        result = robin_des_bois.simulate(params, games, seed)
        cpu = time.process_time() - cpu
        if result.seconds >= seconds:
            return result, games / cpu
        games = int(games * min(10.0, 1.2 * seconds / max(result.seconds, 1e-6)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="box",
                        help="the box (robin_des_bois.rules.parse_variant): box, small, ...")
    parser.add_argument("--players", default="3,4,5,6",
                        help="player counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="at least this long per measurement")
    args = parser.parse_args()
    variant = parse_variant(args.variant)
    counts = [int(p) for p in args.players.split(",")]
    for n in counts:
        variant.replace(players=n)
    lines = _header(f"Robin des Bois: random games per second, numba core against its "
                    f"plain twin, the plain-Python OpenSpiel game; variant {variant} "
                    f"({variant.num_cards} treasure cards)")
    lines.append("games/s: per wall-clock second; games/cpu-s: per CPU second of this "
                 "process (one thread), which the other jobs on a loaded machine do not "
                 "take away")
    lines.append(f"{'players':>7} {'core games/s':>13} {'core games/cpu-s':>17} "
                 f"{'python games/s':>15} {'python games/cpu-s':>19} {'ratio':>7} "
                 f"{'core games':>11} {'python games':>13} {'turns/game':>10}")
    rates = {}
    for players in counts:
        params = variant.replace(players=players).to_params()
        result, core_cpu_rate = core_games_per_second(params, args.seconds)
        py_rate, py_games, py_cpu_rate = python_games_per_second(params, args.seconds)
        core_rate = result.games_per_second
        rates[players] = (core_rate, core_cpu_rate)
        lines.append(f"{players:>7} {core_rate:>13,.0f} {core_cpu_rate:>17,.0f} "
                     f"{py_rate:>15,.1f} {py_cpu_rate:>19,.1f} "
                     f"{core_cpu_rate / py_cpu_rate:>7.0f} {result.games:>11,} "
                     f"{py_games:>13,} {result.game_length()['mean_turns']:>10.1f}")
        print(lines[-1], flush=True)
    lines.append("")
    lines.append("core: robin_des_bois.simulate (one thread, compile excluded); python: "
                 "pyspiel.load_game('robin_des_bois') with random.Random, same policy")
    lines.append("ratio: core over python, both per CPU second (the reference measured "
                 "in the same run)")
    for i, what in ((0, "wall-clock second"), (1, "CPU second")):
        slowest = min(rates, key=lambda n: rates[n][i])
        rate = rates[slowest][i]
        lines.append(f"target, at least {TARGET:,} random games a {what} in the core at "
                     f"every player count: {'MET' if rate >= TARGET else 'NOT MET'} "
                     f"(slowest {rate:,.0f} at {slowest} players)")
    suffix = "" if str(variant) == "box" else "_" + str(variant).replace(":", "_")
    _write(f"robin_des_bois{suffix}.txt", lines)


if __name__ == "__main__":
    main()
