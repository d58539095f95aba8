"""The sound default's challenges in self-play, by claimed character: how often a
challenge catches a false claim (its precision, with a 95% interval) against the
break-even at the strikes where each challenge was made, and how well the seat's belief
that a claim is false matches how often such claims are (docs/sound-play.md, "The
Trickster's lie").

Every seat plays the sound default with the given options, through OpenSpiel, with one
seeded generator; at every response the responder's belief (solver.knowledge) is read
with the same claim weight and Trickster share the default uses at that table size.

    .venv/bin/python benchmarks/probes/bench_challenge_precision.py --variant team:players=4,teams=true --rounds 1000 --seed 5
    .venv/bin/python benchmarks/probes/bench_challenge_precision.py --variant team:players=4,teams=true --rounds 1000 --seed 5 --options trickster=0
"""

from __future__ import annotations

import argparse
import collections
import math

import numpy as np
import pandas as pd

import game_def
from game_def import kernels as k
from game_def.characters import NAMES
from solver.knowledge.beliefs import seat_belief
from solver.players.agents import AgentPolicy, load_agent
from solver.scripted import kernels as sk
from solver.scripted.sound import claim_break_even

from _probe import sample_action

BUCKETS = (0.0, 0.1, 0.3, 0.5, 0.9, 1.0 + 1e-9)


def _interval(hits: float, n: int) -> tuple[float, float]:
    if n == 0:
        return math.nan, math.nan
    p = hits / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return p - half, p + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="team:players=4,teams=true")
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--options", default="", help="sound options, e.g. trickster=0")
    args = parser.parse_args()
    variant = game_def.parse(args.variant)
    game = game_def.load_game(args.variant)
    agent = load_agent("sound" + (f":{args.options}" if args.options else ""))
    policy = AgentPolicy(game, agent)
    rules = np.asarray(game.rules)
    settings = np.ascontiguousarray(agent.params, dtype=np.float64)
    weight = float(sk.claim_weight(settings, rules))
    liar = sk.lie_shares(settings, rules)   # the Trickster's share of a claim of each
    rng = np.random.default_rng(args.seed)
    challenges = collections.defaultdict(list)      # said -> [(false, break-even)]
    beliefs = collections.defaultdict(lambda: [0, 0, 0.0])   # (said, bucket) -> n, false, q
    for _ in range(args.rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            action = sample_action(state, policy, rng)
            if state.is_chance_node():
                state.apply_action(action)
                continue
            seat = state.current_player()
            core = state.core_state
            if int(core[k.S_PHASE]) == k.PH_RESPOND:
                pos, said = int(core[k.S_PEEK_POS]), int(core[k.S_ANNOUNCED])
                false = int(core[k.S_CARD + pos]) != said
                q = 1.0 - seat_belief(state, seat, weight, trickster=liar)[pos, said]
                bucket = int(np.searchsorted(BUCKETS, q, side="right")) - 1
                row = beliefs[(said, bucket)]
                row[0] += 1
                row[1] += false
                row[2] += q
                if state.action_to_string(seat, action) == "challenge":
                    strikes = [int(core[k.S_STRIKES + s]) for s in range(variant.players)]
                    if max(strikes) < variant.strikes:
                        even = claim_break_even(variant, said, seat=seat,
                                                claimant=int(core[k.S_ACTOR]),
                                                strikes=strikes)
                    else:   # a seat already out: the Python break-even takes live seats
                        even = math.nan
                    challenges[said].append((false, even))
            state.apply_action(action)
    print(f"the sound default{' (' + args.options + ')' if args.options else ''} in every "
          f"seat of {args.variant}, {args.rounds} rounds, seed {args.seed}; claim weight "
          f"{weight:g}, the Trickster's share of each claim "
          f"{dict((NAMES[c], float(liar[c])) for c in range(len(NAMES)) if liar[c] > 0)}")
    rows = []
    for said, made in sorted(challenges.items()):
        hits = sum(f for f, _ in made)
        lo, hi = _interval(hits, len(made))
        evens = [e for _, e in made if not math.isnan(e)]
        even = float(np.mean(evens)) if evens else math.nan
        rows.append({"claim": NAMES[said], "challenges": len(made),
                     "precision": hits / len(made), "lo": lo, "hi": hi,
                     "break_even": even, "below_break_even": bool(hi < even)})
    print("\nchallenges by claim (break_even: at each challenge's strikes, averaged; NaN for "
          "the leaders, whose power's cost depends on the unmasking's chance)")
    print(pd.DataFrame(rows).set_index("claim").round(3).to_string())
    rows = []
    for (said, bucket), (n, false, q) in sorted(beliefs.items()):
        rows.append({"claim": NAMES[said], "belief false": f"[{BUCKETS[bucket]:.1f}, "
                     f"{min(BUCKETS[bucket + 1], 1.0):.1f})", "responses": n,
                     "mean belief": q / n, "false": false / n})
    print("\nthe responder's belief that the claim is false against how often it was")
    print(pd.DataFrame(rows).set_index(["claim", "belief false"]).round(3).to_string())


if __name__ == "__main__":
    main()
