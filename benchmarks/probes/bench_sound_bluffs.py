"""The sound default's bluffs, and two ways of cutting them (docs/sound-play.md, "Its
bluffs lose head to head"): how often each bluff is challenged in self-play, the
variants head to head, and what the local best response gains against each.

    .venv/bin/python benchmarks/probes/bench_sound_bluffs.py catch --rounds 300
    .venv/bin/python benchmarks/probes/bench_sound_bluffs.py pairs --rounds 3000 --seed 21
    .venv/bin/python benchmarks/probes/bench_sound_bluffs.py lbr --rounds 400 --seed 3 \
        --variants "default,exposure gate,both gates"

The variants are the sound default's options (solver.players.agents.SOUND_OPTIONS):
`bluff_share=0` never bluffs by choice; `bluff_worth=0` bluffs only from a card whose
own best announcement is worth nothing; `bluff_exposure=0.1` drops a bluff of a
character whose copies the responder can place; `deter` scales the deterring rate.
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict

import numpy as np

import game_def
from game_def import kernels as k
from game_def.characters import Character
from solver.evaluation.lbr import local_best_response
from solver.evaluation.tournament import head_to_head
from solver.players.agents import AgentPolicy, bot

DEFAULT = {}
NO_BLUFF = {"bluff_share": 0.0}
NO_BLUFF_NO_DETER = {"bluff_share": 0.0, "deter": 0.0}
GATED = {"bluff_worth": 0.0, "bluff_exposure": 0.1}
VARIANTS = {"default": DEFAULT, "no bluff": NO_BLUFF,
            "no bluff or deterring": NO_BLUFF_NO_DETER,
            "worth gate": {"bluff_worth": 0.0}, "exposure gate": {"bluff_exposure": 0.1},
            "both gates": GATED, "both gates at half deterring": {**GATED, "deter": 0.5},
            "both gates without deterring": {**GATED, "deter": 0.0}}
PAIRS = (("worth gate", "default"), ("worth gate", "no bluff"),
         ("exposure gate", "default"), ("exposure gate", "no bluff"),
         ("both gates", "default"), ("both gates", "no bluff"),
         ("both gates", "no bluff or deterring"),
         ("both gates without deterring", "default"),
         ("both gates without deterring", "no bluff or deterring"),
         ("no bluff", "default"))


def catch(rounds: int, seed: int) -> None:
    """Self-play of the default: each claim's bluffs a round, the share challenged and
    the share challenged surely (the responder's belief above its break-even), and its
    true claims a round and the share challenged."""
    game = game_def.load_game("standard")
    policy = AgentPolicy(game, bot("sound"))
    rng = np.random.default_rng(seed)
    n = int(game.rules[k.R_N])
    challenge = 4 * n + k.A_CHALLENGE
    rows = defaultdict(lambda: np.zeros(5))   # bluffs, caught, surely, truths, challenged
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                pick = rng.choice(len(outcomes), p=[p for _, p in outcomes])
                state.apply_action(outcomes[pick][0])
                continue
            probs = policy.action_probabilities(state)
            core = state.core_state
            if core[k.S_PHASE] == k.PH_AFTER_PEEK and \
                    core[k.S_CARD + int(core[k.S_PEEK_POS])] != k.TRICKSTER:
                truth = int(core[k.S_CARD + int(core[k.S_PEEK_POS])])
                for action, p in probs.items():
                    code = action - 4 * n
                    if p <= 0 or not k.A_ANNOUNCE <= code < k.A_CHALLENGE:
                        continue
                    said = code - k.A_ANNOUNCE
                    claimed = state.clone()
                    claimed.apply_action(action)
                    if claimed.core_state[k.S_PHASE] != k.PH_RESPOND:
                        continue
                    pc = policy.action_probabilities(claimed).get(challenge, 0.0)
                    row = rows[said]
                    if said != truth:
                        row[:3] += (p, p * pc, p * (pc >= 0.999))
                    else:
                        row[3:] += (p, p * pc)
            actions = list(probs)
            state.apply_action(actions[rng.choice(len(actions),
                                                  p=[probs[a] for a in actions])])
    print(f"the default's self-play, {rounds:,} rounds, seed {seed}")
    print(f"{'claim':10s} {'bluffs/round':>12s} {'challenged':>10s} {'surely':>7s} "
          f"{'truths/round':>12s} {'challenged':>10s}")
    for said, (bluffs, caught, surely, truths, challenged) in sorted(rows.items()):
        print(f"{Character(said).label:10s} {bluffs / rounds:12.3f} "
              f"{caught / max(bluffs, 1e-12):10.3f} {surely / max(bluffs, 1e-12):7.3f} "
              f"{truths / rounds:12.3f} {challenged / max(truths, 1e-12):10.3f}")


def pairs(rounds: int, seed: int) -> None:
    """Each pair head to head: the first's payoff a round, seat-averaged, with its 95%
    half-width."""
    variant = game_def.parse("standard")
    print(f"head to head on standard, {rounds:,} rounds a seat, seed {seed}")
    for a, b in PAIRS:
        r = head_to_head(variant, bot("sound", **VARIANTS[a]), bot("sound", **VARIANTS[b]),
                         rounds=rounds, seed=seed)
        halves = [(hi - lo) / 2 for lo, hi in (s.value_interval() for s in r.seats)]
        print(f"{a:28s} against {b:22s} {r.value:+.3f} ± {math.hypot(*halves) / 2:.3f}",
              flush=True)


def lbr(rounds: int, seed: int, names) -> None:
    """The local best response continuing as the variant itself against each."""
    print(f"local best response (self) on standard, {rounds:,} rounds a seat, seed {seed}")
    for name in names:
        r = local_best_response(bot("sound", **VARIANTS[name]), variant="standard",
                                rounds=rounds, seed=seed, continuation="self", split="off")
        print(f"{name:28s} {r.gain:+.3f} ± {r.half_width:.3f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("catch", "pairs", "lbr"))
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help="lbr: the variants to play, comma-separated (names above)")
    args = parser.parse_args()
    if args.what == "lbr":
        names = [name.strip() for name in args.variants.split(",")]
        unknown = [name for name in names if name not in VARIANTS]
        if unknown:
            parser.error(f"unknown variant(s) {', '.join(unknown)}: choose among "
                         f"{', '.join(VARIANTS)}")
        lbr(args.rounds, args.seed, names)
    else:
        {"catch": catch, "pairs": pairs}[args.what](args.rounds, args.seed)


if __name__ == "__main__":
    main()
