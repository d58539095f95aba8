"""Strength of the Robin des Bois players, seat-rotated (robin_des_bois/tournament.py):
every scripted player against every other, and the Monte Carlo search against each
scripted player, at every player count of the box played (default: the published box,
3 to 6 players; `--variant small --players 2,3` the reduced box).

The candidate sits in each seat in turn against copies of the opponent; its win share (a
tie counts 1/number tied) per seat and seat-averaged, with 95% normal intervals, against
the fair share 1/players. BEATS: the seat-averaged interval lies above the fair share;
loses: below it; even?: it contains it.

    .venv/bin/python benchmarks/bench_robin_des_bois_players.py [--variant box]
        [--players 3,4,5,6] [--scripted-games 3:40,4:30,5:24,6:20]
        [--search-games 3:40,4:24,5:16,6:12] [--samples 32]

Writes benchmarks/results/robin_des_bois_players.txt (command, date, load average) for
the published box, robin_des_bois_players_<variant>.txt for another, and the search's
seat-averaged shares as robin_des_bois_strength.json (read by the balance report, which
cites them in its first paragraph).
"""

from __future__ import annotations

import argparse
import json
import time

from bench_mccfr import RESULTS, _header, _write
from robin_des_bois.rules import parse_variant
from robin_des_bois.players import SCRIPTED
from robin_des_bois.tournament import format_row, seat_rotated


def _per_count(text: str) -> dict[int, int]:
    return {int(a): int(b) for a, b in (item.split(":") for item in text.split(","))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="box",
                        help="the box played (robin_des_bois.rules.parse_variant: box, "
                             "small, box:gold_order=low, ...); --players sets the count")
    parser.add_argument("--players", default="3,4,5,6")
    parser.add_argument("--scripted-games", default="3:40,4:30,5:24,6:20",
                        help="games per seat of scripted matches, per player count")
    parser.add_argument("--search-games", default="3:40,4:24,5:16,6:12",
                        help="games per seat of search matches, per player count")
    parser.add_argument("--samples", type=int, default=32,
                        help="search budget: determinizations per decision (each plays "
                             "every legal action and a greedy rollout)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    scripted_games, search_games = _per_count(args.scripted_games), _per_count(args.search_games)
    variant = parse_variant(args.variant)
    counts = [int(p) for p in args.players.split(",")]
    for n in counts:                     # every count playable before any game
        variant.replace(players=n)
    lines = _header(f"Robin des Bois players, seat-rotated win shares (a tie counts "
                    f"1/number tied) with 95% normal intervals; variant {variant} "
                    f"({variant.num_cards} treasure cards)")
    lines.append(f"search budget: samples={args.samples} determinizations per decision, "
                 f"each playing every legal action then a greedy rollout")
    verdicts = []
    strength = {"variant": str(variant), "samples": args.samples,
                "command": lines[1].removeprefix("command: "), "date": lines[3][6:],
                "load_at_start": lines[4].removeprefix("load average at start: "),
                "counts": {}}
    for players in counts:
        params = variant.replace(players=players).to_params()
        fair = 1 / players
        lines += ["", f"== {players} players: fair share {fair:.3f}; scripted "
                      f"{scripted_games[players]} games per seat, search "
                      f"{search_games[players]} games per seat =="]
        for cand in SCRIPTED:
            for opp in SCRIPTED:
                if cand == opp:
                    continue
                r = seat_rotated(cand, opp, players, scripted_games[players], args.seed,
                                 params=params)
                lines.append(format_row(r) + f"  ({r.seconds:.0f} s)")
                print(lines[-1], flush=True)
        lines.append("")
        all_beaten = True
        worst = None
        for opp in SCRIPTED:
            r = seat_rotated("search", opp, players, search_games[players], args.seed,
                             samples=args.samples, params=params)
            lines.append(format_row(r) + f"  ({r.seconds:.0f} s, "
                         f"{r.seconds / (players * r.games_per_seat) * 1000:.0f} ms/game)")
            print(lines[-1], flush=True)
            mean, _, lo, hi = r.seat_average()
            strength["counts"].setdefault(str(players), {})[opp] = {
                "share": mean, "lo": lo, "hi": hi, "fair": fair,
                "games_per_seat": r.games_per_seat, "beats": r.beats(),
                "beats_every_seat": r.beats_every_seat()}
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
    suffix = "" if str(variant) == "box" else "_" + str(variant).replace(":", "_")
    _write(f"robin_des_bois_players{suffix}.txt", lines)
    (RESULTS / f"robin_des_bois_strength{suffix}.json").write_text(
        json.dumps(strength, indent=1) + "\n")


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"total {time.perf_counter() - start:.0f} s")
