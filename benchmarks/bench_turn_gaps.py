"""Where a table's turn starts fall short of a one-step lookahead over its own play.

Plays self-play rounds with a Monte Carlo CFR run's strategy (its table with the default
fallback rules, as every command plays it). At each turn start with a choice it asks the
play-time searcher (docs/search.md; one-step lookahead over the belief, the strategy
itself as the continuation for both seats and as the opponent's model, no tilts) for
every action group's value, twice, on independent rollouts: the first set picks the best
group, the second values it and the strategy's own mix. Their difference is an unbiased
estimate of what a one-step improvement at that decision is worth (choosing on one set
and valuing on the same set would overstate it by the maximum of the noise). The gaps
are grouped by the strikes of the mover and its opponent, by the turn, and by whether
the Traitor lies face down somewhere (from the true deal: a label for the table, never
seen by either player), with 95% intervals.

This is the local best response's turn-start row (`robinwood leaks RUN --continuation
self`, docs/lbr.md) taken apart: the gaps are measured on the strategy's own path, so
their sum per round is not the LBR's gain, but their split says where the gain is.

    .venv/bin/python benchmarks/bench_turn_gaps.py runs/NAME [--rounds 80] [--seed 1]
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

import numpy as np

from bench_mccfr import _header, _write


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run")
    parser.add_argument("--rounds", type=int, default=80)
    parser.add_argument("--rollouts", type=int, default=48)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import game_def
    from game_def import kernels as k
    from solver.evaluation.tournament import Z95
    from solver.players.agents import AgentPolicy, load_table_agent
    from solver.search import kernels as ks
    from solver.search.searcher import SearchConfig, Searcher

    agent = load_table_agent(args.run)
    game = game_def.load_game(str(agent.variant))
    policy = AgentPolicy(game, agent)
    searcher = Searcher(agent, SearchConfig(kinds=("turn",), tilts=(),
                                            rollouts=args.rollouts, model_eps=0.0))
    rng = np.random.default_rng(args.seed)
    position_actions = 4 * int(game.rules[k.R_N])

    def group_values(history, seat):
        match = searcher.match(seat, searcher.blueprint)
        counters = np.zeros(ks.C_SIZE, dtype=np.int64)
        ws = searcher.workspace()
        ks.decide(history, match, ws, np.uint64(rng.integers(1 << 62)), counters)
        return ws if counters[ks.C_DECISIONS] else None

    gaps = defaultdict(list)
    for _ in range(args.rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            probs = policy.action_probabilities(state)
            actions = list(probs)
            if len(actions) > 1 and all(a < position_actions for a in actions) and \
                    state.core_state[k.S_PHASE] == k.PH_TURN:
                seat = state.current_player()
                history = np.array(state.history(), dtype=np.int64)
                first = group_values(history, seat)
                second = group_values(history, seat) if first is not None else None
                # a belief that could not be rebuilt plays the continuation: no values
                if second is not None:
                    groups = defaultdict(list)
                    for i in range(len(actions)):
                        groups[int(first.gid[i])].append(int(first.legal[i]))
                    chosen = max(groups, key=lambda g: first.group_value[g])
                    mix = sum(sum(probs[a] for a in groups[g]) * second.group_value[g]
                              for g in groups)
                    gap = float(second.group_value[chosen] - mix)
                    own, opp = state.strikes[seat], state.strikes[1 - seat]
                    turn = state.turns_played
                    hidden = any(c == "Traitor" and not up
                                 for c, up in zip(state.cards, state.face_up))
                    gaps["all"].append(gap)
                    gaps[f"strikes (own, opponent) = ({own}, {opp})"].append(gap)
                    gaps[f"turns played {'0-3' if turn < 4 else '4-7' if turn < 8 else '8-15' if turn < 16 else '16+'}"].append(gap)
                    gaps[f"Traitor face down: {'yes' if hidden else 'no'}, own strikes {own}"].append(gap)
            weights = np.array([probs[a] for a in actions])
            state.apply_action(int(rng.choice(actions, p=weights / weights.sum())))

    lines = _header(f"One-step improvement at turn starts of {Path(args.run).name} "
                    f"({args.rounds} self-play rounds, {args.rollouts} rollouts a group, "
                    f"seed {args.seed})")
    lines.append(f"{'situation':<44} {'decisions':>9} {'share':>6} "
                 f"{'gap a decision (95%)':>22} {'gap a round':>11}")
    total = len(gaps["all"])
    for name in ["all"] + sorted(g for g in gaps if g != "all"):
        g = np.array(gaps[name])
        half = Z95 * g.std(ddof=1) / np.sqrt(len(g)) if len(g) > 1 else float("nan")
        lines.append(f"{name:<44} {len(g):>9,} {len(g) / total:>6.1%} "
                     f"{g.mean():>+13.3f} ± {half:.3f} {g.sum() / args.rounds:>+11.3f}")
    _write(f"bench_turn_gaps_{Path(args.run).name}.txt", lines)


if __name__ == "__main__":
    main()
