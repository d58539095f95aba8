"""Strength of the Robin des Bois players, seat-rotated (robin_des_bois/tournament.py):
every scripted player against every other, and the Monte Carlo search against each
scripted player, for 2 and 3 players (default box contents otherwise).

The candidate sits in each seat in turn against copies of the opponent; its win share (a
tie counts 1/number tied) per seat and seat-averaged, with 95% normal intervals, against
the fair share 1/players. BEATS: the seat-averaged interval lies above the fair share;
loses: below it; even?: it contains it.

    .venv/bin/python benchmarks/bench_robin_des_bois_players.py [--players 2,3]
        [--scripted-games 2:500,3:400] [--search-games 2:300,3:200] [--samples 32]

Writes benchmarks/results/robin_des_bois_players.txt (command, date, load average).
"""

from __future__ import annotations

import argparse
import time

from bench_mccfr import _header, _write
from robin_des_bois.players import SCRIPTED
from robin_des_bois.tournament import format_row, seat_rotated


def _per_count(text: str) -> dict[int, int]:
    return {int(a): int(b) for a, b in (item.split(":") for item in text.split(","))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3")
    parser.add_argument("--scripted-games", default="2:500,3:400",
                        help="games per seat of scripted matches, per player count")
    parser.add_argument("--search-games", default="2:300,3:200",
                        help="games per seat of search matches, per player count")
    parser.add_argument("--samples", type=int, default=32,
                        help="search budget: determinizations per decision (each plays "
                             "every legal action and a greedy rollout)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    scripted_games, search_games = _per_count(args.scripted_games), _per_count(args.search_games)
    lines = _header("Robin des Bois players, seat-rotated win shares (a tie counts "
                    "1/number tied) with 95% normal intervals; default box contents")
    lines.append(f"search budget: samples={args.samples} determinizations per decision, "
                 f"each playing every legal action then a greedy rollout")
    verdicts = []
    for players in [int(p) for p in args.players.split(",")]:
        fair = 1 / players
        lines += ["", f"== {players} players: fair share {fair:.3f}; scripted "
                      f"{scripted_games[players]} games per seat, search "
                      f"{search_games[players]} games per seat =="]
        for cand in SCRIPTED:
            for opp in SCRIPTED:
                if cand == opp:
                    continue
                r = seat_rotated(cand, opp, players, scripted_games[players], args.seed)
                lines.append(format_row(r) + f"  ({r.seconds:.0f} s)")
                print(lines[-1], flush=True)
        lines.append("")
        all_beaten = True
        worst = None
        for opp in SCRIPTED:
            r = seat_rotated("search", opp, players, search_games[players], args.seed,
                             samples=args.samples)
            lines.append(format_row(r) + f"  ({r.seconds:.0f} s, "
                         f"{r.seconds / (players * r.games_per_seat) * 1000:.0f} ms/game)")
            print(lines[-1], flush=True)
            mean, _, lo, _ = r.seat_average()
            all_beaten &= r.beats()
            gap = lo - fair
            if worst is None or gap < worst[1]:
                worst = (opp, gap, r.beats_every_seat())
        verdicts.append(
            f"{players} players: search beats every scripted player seat-averaged with "
            f"95% confidence: {'YES' if all_beaten else 'NO'}; smallest margin (lower "
            f"bound - fair share) {worst[1]:+.3f} against {worst[0]}"
            f"{'' if worst[2] else ' (not every single seat significant there)'}")
    lines += ["", "Target:"] + verdicts + [""]
    _write("robin_des_bois_players.txt", lines)


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"total {time.perf_counter() - start:.0f} s")
