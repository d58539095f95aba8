"""What one of the sound default's true claims is worth to the seat that makes it, against
staying silent, and how the rounds end either way (docs/sound-play.md, "Still losing
beyond two seats").

The default plays every seat through OpenSpiel. Each time it is about to announce the
character it has just peeked, `--claim`, the round is forked: in one branch it makes the
claim, in the other it stays silent. Each branch is played out `--rollouts` times by the
default in every seat (the cards nobody has seen are dealt afresh in each). The output
gives the claimant's payoff, claim minus silent, with a 95% interval over the forks, and
how each branch's rounds ended for the claimant: won; lost to another seat's Robin or
Sheriff claim (the last leader announced before a win); lost otherwise; or a draw.

    .venv/bin/python benchmarks/probes/bench_claim_fork.py --variant standard:players=3 --claim Deputy --forks 100 --rollouts 40 --seed 7
"""

from __future__ import annotations

import argparse
import collections

import numpy as np

import game_def
from game_def import kernels as k
from game_def.characters import NAMES
from solver.players.agents import AgentPolicy, load_agent

from _probe import sample_action


def _play_out(state, policy, rng, seat: int) -> tuple[float, str]:
    """The payoff of `seat` at the end of the round, and how it ended for it."""
    leader = None
    while not state.is_terminal():
        action = sample_action(state, policy, rng)
        if not state.is_chance_node():
            text = state.action_to_string(state.current_player(), action)
            if text in ("announce Robin", "announce Sheriff"):
                leader = (state.current_player(), text.split()[1])
        state.apply_action(action)
    returns = state.returns()
    if returns[seat] > 0:
        return returns[seat], "won"
    if max(returns) <= 0:
        return returns[seat], "draw"
    if leader is not None and leader[0] != seat and returns[leader[0]] > 0:
        return returns[seat], f"lost to another's {leader[1]} claim"
    return returns[seat], "lost otherwise"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="standard:players=3")
    parser.add_argument("--claim", default="Deputy", choices=NAMES)
    parser.add_argument("--forks", type=int, default=100, help="claims forked")
    parser.add_argument("--rollouts", type=int, default=40, help="play-outs a branch")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    game = game_def.load_game(args.variant)
    policy = AgentPolicy(game, load_agent("sound"))
    rng = np.random.default_rng(args.seed)
    claimed = NAMES.index(args.claim)
    gains = []
    endings = {"claim": collections.Counter(), "silent": collections.Counter()}
    while len(gains) < args.forks:
        state = game.new_initial_state()
        while not state.is_terminal() and len(gains) < args.forks:
            action = sample_action(state, policy, rng)
            if not state.is_chance_node():
                seat = state.current_player()
                core = state.core_state
                if (state.action_to_string(seat, action) == f"announce {args.claim}"
                        and int(core[k.S_CARD + int(core[k.S_PEEK_POS])]) == claimed):
                    silent = next(b for b in state.legal_actions()
                                  if state.action_to_string(seat, b) == "silent")
                    value = {}
                    for branch, first in (("claim", action), ("silent", silent)):
                        payoffs = []
                        for _ in range(args.rollouts):
                            fork = state.clone()
                            fork.apply_action(first)
                            payoff, how = _play_out(fork, policy, rng, seat)
                            payoffs.append(payoff)
                            endings[branch][how] += 1
                        value[branch] = float(np.mean(payoffs))
                    gains.append(value["claim"] - value["silent"])
            state.apply_action(action)
    gains = np.array(gains)
    half = 1.96 * gains.std(ddof=1) / np.sqrt(len(gains))
    print(f"the sound default in every seat of {args.variant}, seed {args.seed}: {len(gains)} "
          f"true {args.claim} claims forked, {args.rollouts} play-outs a branch")
    print(f"the claimant's payoff, claim minus silent: {gains.mean():+.4f} +- {half:.4f} "
          f"(95%, over the forks)")
    total = args.forks * args.rollouts
    for branch, counts in endings.items():
        shares = ", ".join(f"{how} {n / total:.3f}" for how, n in sorted(counts.items()))
        print(f"{branch:6s}: {shares}")


if __name__ == "__main__":
    main()
