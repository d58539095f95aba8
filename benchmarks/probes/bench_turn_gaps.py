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
seen by either player), with 95% intervals. A second table takes the one-strike-each
turn starts apart by card letter (docs/abstraction.md, "Letters": what kind of card a
peek or use acts on): how often each letter is on offer, the share of the strategy's
play it gets, how often the lookahead picks it, and its mean value against the
strategy's mix where it is on offer.

This is the local best response's turn-start row (`robinwood leaks RUN --continuation
self`, docs/lbr.md) taken apart: the gaps are measured on the strategy's own path, so
their sum per round is not the LBR's gain, but their split says where the gain is.

    .venv/bin/python benchmarks/probes/bench_turn_gaps.py runs/NAME [--rounds 80] [--seed 1]
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from _probe import _header, _write


@dataclass
class TurnStart:
    """One self-play turn start with a choice, valued twice by the lookahead.

    `round` counts the self-play rounds from 0; `groups` maps a group id to its position actions, `probs` is the strategy's mix over
    all legal actions, `first` and `second` are the group values of two independent sets
    of rollouts (index by group id), `chosen` the best group on the first set, `mix` the
    strategy's mix valued on the second, and `letters` each action's card letter.
    """

    round: int
    seat: int
    strikes: tuple[int, int]
    turn: int
    traitor_hidden: bool
    groups: dict[int, list[int]]
    probs: dict[int, float]
    first: np.ndarray
    second: np.ndarray
    chosen: int
    mix: float
    letters: dict[int, str]

    @property
    def gap(self) -> float:
        """What choosing the first set's best group is worth over the mix, on the second."""
        return float(self.second[self.chosen] - self.mix)


def turn_starts(run: str, rounds: int, rollouts: int, seed: int):
    """Yield a `TurnStart` for every turn start with a choice in `rounds` self-play rounds
    of RUN's strategy (its table with the default fallback rules)."""
    import game_def
    from game_def import kernels as k
    from game_def.characters import NAMES
    from solver.mccfr import kernels as ab
    from solver.players import kernels as ka
    from solver.players.agents import AgentPolicy, load_table_agent
    from solver.search import kernels as ks
    from solver.search.searcher import SearchConfig, Searcher

    agent = load_table_agent(run)
    game = game_def.load_game(str(agent.variant))
    policy = AgentPolicy(game, agent)
    searcher = Searcher(agent, SearchConfig(kinds=("turn",), tilts=(),
                                            rollouts=rollouts, model_eps=0.0))
    rng = np.random.default_rng(seed)
    position_actions = 4 * int(game.rules[k.R_N])

    def group_values(history, seat):
        match = searcher.match(seat, searcher.blueprint)
        counters = np.zeros(ks.C_SIZE, dtype=np.int64)
        ws = searcher.workspace()
        ks.decide(history, match, ws, np.uint64(rng.integers(1 << 62)), counters)
        return ws if counters[ks.C_DECISIONS] else None

    card_letters = ab.CARD_LETTERS
    claims = ("no claim", "a Robin-camp claim", "a Sheriff-camp claim", "another claim")

    def letter_name(ell):
        kind, c = ("peek", ell) if ell < card_letters else ("use", ell - card_letters)
        unknown = ab.LETTER_UNKNOWN
        if c < unknown // 2:
            return f"{kind} a known {NAMES[c]} (face down)"
        if c < unknown:
            return f"{kind} a face-up {NAMES[c - unknown // 2]}"
        if c < unknown + 8:
            u = c - unknown
            return (f"{kind} an unknown card, {'looked at' if u // 4 else 'unseen'} by the "
                    f"opponent, {claims[u % 4]}")
        p = c - unknown - 8
        camps = ("neither camp", "Robin's camp", "the Sheriff's camp", "either camp")[p // 2]
        return f"{kind} a blind pair that may hold {camps}, {'looked' if p % 2 else 'unseen'}"

    def letters_of(history, seat):
        core, know = ka.replay(game.rules, history)
        legal = np.zeros(k.MAX_LEGAL, np.int64)
        m = k.legal_actions(core, game.rules, legal)
        scratch = np.zeros((ab.SCRATCH_ROWS, k.MAX_LEGAL), np.int64)
        abst = np.zeros(k.MAX_LEGAL, np.int64)
        ab.decision_keys(core, game.rules, know, seat, legal, m, scratch, abst, True, False)
        return {int(legal[i]): letter_name(int(scratch[5, abst[i]])) for i in range(m)}

    for round_index in range(rounds):
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
                    yield TurnStart(
                        round=round_index, seat=seat,
                        strikes=(int(state.strikes[seat]), int(state.strikes[1 - seat])),
                        turn=int(state.turns_played),
                        traitor_hidden=any(c == "Traitor" and not up
                                           for c, up in zip(state.cards, state.face_up)),
                        groups=dict(groups), probs=dict(probs),
                        first=np.array(first.group_value, dtype=float),
                        second=np.array(second.group_value, dtype=float),
                        chosen=int(chosen), mix=float(mix),
                        letters=letters_of(history, seat))
            weights = np.array([probs[a] for a in actions])
            state.apply_action(int(rng.choice(actions, p=weights / weights.sum())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run")
    parser.add_argument("--rounds", type=int, default=80)
    parser.add_argument("--rollouts", type=int, default=48)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from solver.evaluation.tournament import Z95

    # per letter at one strike each: decisions offering it, the strategy's mass on it,
    # the lookahead's picks, and its groups' value minus the mix (sum, count)
    by_letter = defaultdict(lambda: np.zeros(5))
    sudden_death = 0
    gaps = defaultdict(list)
    for d in turn_starts(args.run, args.rounds, args.rollouts, args.seed):
        own, opp = d.strikes
        turn = d.turn
        gaps["all"].append(d.gap)
        gaps[f"strikes (own, opponent) = ({own}, {opp})"].append(d.gap)
        gaps[f"turns played {'0-3' if turn < 4 else '4-7' if turn < 8 else '8-15' if turn < 16 else '16+'}"].append(d.gap)
        gaps[f"Traitor face down: {'yes' if d.traitor_hidden else 'no'}, own strikes {own}"].append(d.gap)
        if own == 1 and opp == 1:
            sudden_death += 1
            offered = set()
            for g, members in d.groups.items():
                name = d.letters[members[0]]
                row = by_letter[name]
                if name not in offered:
                    row[0] += 1
                    offered.add(name)
                row[1] += sum(d.probs[a] for a in members)
                row[2] += g == d.chosen
                row[3] += d.second[g] - d.mix
                row[4] += 1

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
    lines.append("")
    lines.append(f"One strike each, by card letter ({sudden_death:,} decisions): offered = "
                 f"share of decisions with it, played = the strategy's mean probability")
    lines.append(f"{'letter':<72} {'offered':>7} {'played':>7} {'picked':>7} "
                 f"{'value - mix':>11}")
    for name, row in sorted(by_letter.items(), key=lambda item: -item[1][0]):
        lines.append(f"{name:<72} {row[0] / sudden_death:>7.0%} "
                     f"{row[1] / sudden_death:>7.1%} {row[2] / sudden_death:>7.1%} "
                     f"{row[3] / row[4]:>+11.3f}")
    _write(f"bench_turn_gaps_{Path(args.run).name}.txt", lines)


if __name__ == "__main__":
    main()
