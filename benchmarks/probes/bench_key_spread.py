"""How finely each abstraction level splits a table's turn starts, and how often training
met the entries it plays there.

Plays self-play rounds with a Monte Carlo CFR run's strategy (its table with the default
fallback rules, as every command plays it). At each turn start with a choice it computes
the decision's keys at every level the kernels offer (docs/abstraction.md): the coarse
key on letters, the class-set key (the coarse key on classes, which is also the fine
key of `--fine-key classes`), the fine key on position codes, and two sets of letters a
middle level could add to the letters key (the card letters a peek or use can act on;
only the unknown cards' and blind pairs' letters). Per strikes (mover, opponent) it
prints the decisions, the distinct keys of each level and their ratio: a level with
about as many keys as decisions cannot learn from visits, whatever the training length.
It also prints where the strategy's decision landed: on a fine or a coarse entry, and
that entry's training updates (below the fallback threshold, where the rules move,
below 5,000, or more).

    .venv/bin/python benchmarks/probes/bench_key_spread.py runs/NAME [--rounds 200] [--seed 0]
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from _probe import _header, _write


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import game_def
    from game_def import _core as k
    from solver.mccfr import kernels as ab
    from solver.players import kernels as ka
    from solver.players.agents import AgentPolicy, load_table_agent
    from solver.players.lookup import TableLookup

    agent = load_table_agent(args.run)
    game = game_def.load_game(str(agent.variant))
    policy = AgentPolicy(game, agent)
    lookup = TableLookup(agent, args.run)
    with np.load(Path(args.run) / "table.npz", allow_pickle=False) as data:
        levels = [data[f"seat{s}_level"] for s in (0, 1)]
    threshold = agent.fallback.turn_visits if agent.fallback else 0
    rng = np.random.default_rng(args.seed)
    card_letters = ab.CARD_LETTERS
    keys = defaultdict(lambda: defaultdict(set))
    landed = defaultdict(Counter)
    legal = np.zeros(k.MAX_LEGAL, np.int64)
    scratch = np.zeros((ab.SCRATCH_ROWS, k.MAX_LEGAL), np.int64)
    abst = np.zeros(k.MAX_LEGAL, np.int64)

    def level_keys(core, know, seat):
        m = k._legal_actions(core, game.rules, legal)
        fine, coarse, n, _ = ab.decision_keys(core, game.rules, know, seat, legal, m,
                                              scratch, abst, True, False)
        letters = frozenset(int(scratch[5, j]) for j in range(n))
        _, classes, _, _ = ab.decision_keys(core, game.rules, know, seat, legal, m,
                                            scratch, abst, False, False)
        unknown = frozenset(ell % card_letters for ell in letters if ell < 2 * card_letters
                            and ell % card_letters >= ab.LETTER_UNKNOWN)
        return {"letters (coarse)": coarse, "class set": classes, "codes (fine)": fine,
                "letters + letter set": (coarse, letters),
                "letters + unknown/pair set": (coarse, unknown)}

    decisions = Counter()
    for _ in range(args.rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            probs = policy.action_probabilities(state)
            actions = list(probs)
            if len(actions) > 1 and state.core_state[k.S_PHASE] == k.PH_TURN:
                seat = state.current_player()
                core, know = ka.replay(game.rules, np.array(state.history(), dtype=np.int64))
                group = f"({state.strikes[seat]}, {state.strikes[1 - seat]})"
                decisions[group] += 1
                for name, key in level_keys(core, know, seat).items():
                    keys[group][name].add(key)
                e = lookup.entry(state)
                if e < 0:
                    landed[group]["no entry"] += 1
                else:
                    visits = lookup.visit_count(state)
                    level = "fine" if levels[seat][e] == ab.FINE else "coarse"
                    band = (f"< {threshold:,} (rules)" if visits < threshold else
                            "< 5,000" if visits < 5000 else ">= 5,000")
                    landed[group][f"{level} {band}"] += 1
            weights = np.array([probs[a] for a in actions])
            state.apply_action(int(rng.choice(actions, p=weights / weights.sum())))

    lines = _header(f"Keys at the turn starts of {Path(args.run).name} ({args.rounds} "
                    f"self-play rounds, seed {args.seed})")
    names = list(next(iter(keys.values())))
    lines.append(f"{'strikes (own, opp.)':<20} {'decisions':>9}  " +
                 "  ".join(f"{name:>26}" for name in names))
    for group in sorted(decisions):
        d = decisions[group]
        lines.append(f"{group:<20} {d:>9,}  " + "  ".join(
            f"{len(keys[group][name]):>17,} ({len(keys[group][name]) / d:>4.0%})"
            for name in names))
    lines.append("")
    lines.append("Where the strategy's turn starts landed (entry level, its training updates):")
    for group in sorted(decisions):
        d = decisions[group]
        parts = ", ".join(f"{name} {count / d:.0%}" for name, count in
                          landed[group].most_common())
        lines.append(f"  {group}: {parts}")
    _write(f"bench_key_spread_{Path(args.run).name}.txt", lines)


if __name__ == "__main__":
    main()
