"""Balance of a solved strategy at any table size (2-4 players, teams): who wins from
which seat, who is eliminated first, how long a round lasts, how often players bluff
and challenge, weighted exactly by how often each situation is reached.

The two-player statistics (analysis.exact, analysis.statistics) break every rate down
by strikes, turn and card; they need "the opponent", which a table of three or four
does not have. This module answers the designer's balance questions for any player
count from the same lockstep walk of the numba core and the solved FlatTree: the i-th
legal action of a core state is the i-th child of its tree node. Every edge is taken
with its exact reach probability, so each figure is an expectation per round with no
sampling error. Two-player runs solved on the position-symmetric tree are walked on it.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from game_def import kernels as k
from game_def.kernels import jit
from game_def.core import rules_array
from game_def.variant import Variant
from solver.exact.best_response import check_strategy, player_values
from solver.exact.kernels import (expand, grow_1d, grow_2d, initially_mentioned,
                                  mentioned_after)
from solver.exact.tree import FlatTree
from solver.mccfr import kernels as mk
from solver.players import kernels as ka

# Expected counts per round, one slot each (the kernel's `totals`).
TOTALS = ("rounds", "announcements", "bluffs", "silent_peeks", "uses", "challenges",
          "challenges_right", "eliminations", "turn_cap_draws", "draws")
(_ROUNDS, _ANNOUNCE, _BLUFF, _SILENT, _USE, _CHALLENGE, _RIGHT, _ELIMINATIONS, _CAP,
 _DRAW) = range(len(TOTALS))


@jit
def _eliminated(state, rules):
    """How many seats have as many strikes as eliminate."""
    out = 0
    for s in range(rules[k.R_PLAYERS]):
        if state[k.S_STRIKES + s] >= rules[k.R_STRIKES]:
            out += 1
    return out


@jit
def _count_edge(state, rules, a, nxt, w, out_before, totals, first_out):
    """Add action `a` (state -> nxt, taken with weight w) to the per-round counts;
    `out_before`: seats eliminated in `state` (first_out counts the first elimination)."""
    n = rules[k.R_N]
    base = 4 * n
    phase = state[k.S_PHASE]
    if phase == k.PH_TURN and a >= n:
        totals[_USE] += w
    elif phase == k.PH_AFTER_PEEK:
        if a == base + k.A_SILENT:
            totals[_SILENT] += w
        else:
            totals[_ANNOUNCE] += w
            if state[k.S_CARD + state[k.S_PEEK_POS]] != a - base - k.A_ANNOUNCE:
                totals[_BLUFF] += w
    elif phase == k.PH_RESPOND and a == base + k.A_CHALLENGE:
        totals[_CHALLENGE] += w
    events = nxt[k.S_EVENTS]
    if events & k.EV_CHALLENGE_RIGHT:
        totals[_RIGHT] += w
    if events & k.EV_TURN_CAP:
        totals[_CAP] += w
    if events & k.EV_ELIMINATION:
        totals[_ELIMINATIONS] += w
        if out_before == 0:
            for s in range(rules[k.R_PLAYERS]):
                if nxt[k.S_STRIKES + s] >= rules[k.R_STRIKES]:
                    first_out[s] += w


@jit
def _count_end(state, rules, w, totals, side_wins, length):
    """Add a finished round (weight w): who won, a draw, its length."""
    totals[_ROUNDS] += w
    winner = state[k.S_WINNER]
    if winner < 0:
        totals[_DRAW] += w
    else:
        side_wins[winner % 2 if rules[k.R_TEAMS] else winner] += w
    length[state[k.S_TURN]] += w


@jit
def _walk(rules, symmetric, first_child, infoset, infoset_offset, strategy, totals,
          side_wins, first_out, length):
    """Add every edge's and every round end's reach-weighted counts.

    totals[TOTALS index]; side_wins[side] (a seat, or a team 0/1); first_out[seat]: the
    seat that is eliminated first; length[turns played]. Branches the profile never
    plays (reach 0) are skipped. `symmetric`: the tree is the two-player
    position-symmetric one, expanded as its builder does (solver.exact.kernels).
    """
    stack = np.empty((4096, k.S_SIZE), dtype=np.int64)
    node_of = np.empty(4096, dtype=np.int64)
    touched_of = np.empty(4096, dtype=np.int64)  # positions mentioned (symmetry)
    reach = np.empty(4096, dtype=np.float64)
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES + k.MAX_LEGAL, dtype=np.float64)
    n = rules[k.R_N]
    stack[0] = k.initial_state(rules)
    node_of[0] = 0
    touched_of[0] = initially_mentioned(stack[0], n)
    reach[0] = 1.0
    top = 1
    while top > 0:
        top -= 1
        state = stack[top].copy()
        node = node_of[top]
        touched = touched_of[top]
        r = reach[top]
        cur = k.current_player(state)
        if cur == k.TERMINAL_PLAYER:
            _count_end(state, rules, r, totals, side_wins, length)
            continue
        m = expand(state, rules, cur, symmetric, touched, actions, probs)
        if cur != k.CHANCE_PLAYER:
            off = infoset_offset[infoset[node]]
            for i in range(m):
                probs[i] = strategy[off + i]
        stack = grow_2d(stack, top + m)
        node_of = grow_1d(node_of, top + m)
        touched_of = grow_1d(touched_of, top + m)
        reach = grow_1d(reach, top + m)
        out_before = _eliminated(state, rules)
        f = first_child[node]
        for i in range(m):
            w = r * probs[i]
            if w == 0.0:
                continue
            a = actions[i]
            nxt = stack[top]
            nxt[:] = state
            k.apply_action(nxt, rules, a)
            _count_edge(state, rules, a, nxt, w, out_before, totals, first_out)
            node_of[top] = f + i
            touched_of[top] = mentioned_after(touched, cur, a, nxt, n)
            reach[top] = w
            top += 1


@dataclasses.dataclass(frozen=True)
class TableBalance:
    """What a strategy profile does at a table of any size, per round: exactly
(`table_balance`) or from sampled self-play (`sampled_table_balance`, with the 95%
half-width of each seat's value; the other figures are sample means).

    seat_values[s]: seat s's expected payoff (zero-sum: +1 for a win; a loss is -1 for
    two sides, -1/(players-1) for each loser beyond); side_wins[side]: P(that seat, or
    team 0 = seats 0+2 / team 1 = seats 1+3, wins); first_out[s]: P(seat s is the first
    player eliminated); length[t]: P(the round lasts t turns); totals: expected counts
    per round (TOTALS).
    """

    variant: Variant
    seat_values: np.ndarray
    side_wins: np.ndarray
    first_out: np.ndarray
    length: np.ndarray
    totals: dict
    method: str = "exact (every deal, reach-weighted)"
    # sampled balance only: the rounds played and the 95% half-width of each seat's value
    rounds: int | None = None
    value_half_width: np.ndarray | None = None
    # sampled balance only: Ludii's Decisiveness and LeadChange read on strikes
    # (analysis.decisiveness's definitions, a side's strikes being its seats' together)
    decisiveness: float | None = None
    lead_changes: float | None = None

    @property
    def sides(self) -> list[str]:
        if self.variant.teams:
            return ["team 0+2", "team 1+3"]
        return [f"seat {s}" for s in range(self.variant.players)]

    def seats(self) -> pd.DataFrame:
        """One row per seat, in turn order from the seat that starts the round."""
        v = self.variant
        order = [(v.first_player + i) % v.players for i in range(v.players)]
        rows = []
        for position, seat in enumerate(order, start=1):
            side = seat % 2 if v.teams else seat
            row = {"seat": seat, "plays": position, "value": self.seat_values[seat]}
            if self.value_half_width is not None:
                row["value_95"] = self.value_half_width[seat]
            rows.append({**row, "wins": self.side_wins[side],
                         "first_eliminated": self.first_out[seat]})
        return pd.DataFrame(rows).set_index("seat")

    def rates(self) -> pd.Series:
        """The rates a designer compares across variants (NaN where nothing happens)."""
        t = self.totals

        def ratio(a, b):
            return t[a] / t[b] if t[b] > 0 else float("nan")

        turns = np.arange(len(self.length))
        return pd.Series({
            "bluff_rate": ratio("bluffs", "announcements"),
            "challenge_rate": ratio("challenges", "announcements"),
            "challenge_right_rate": ratio("challenges_right", "challenges"),
            "announcements_per_round": t["announcements"],
            "mean_turns": float((turns * self.length).sum()),
            "turn_cap_rate": t["turn_cap_draws"],
            "draw_rate": t["draws"],
            "nobody_eliminated": 1.0 - float(self.first_out.sum()),
        })

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table, by file-friendly name."""
        length = pd.DataFrame({"turns": np.arange(len(self.length)),
                               "probability": self.length}).set_index("turns")
        rates = self.rates().to_frame("value")
        rates.index.name = "metric"
        totals = pd.Series(self.totals).to_frame("per_round")
        totals.index.name = "count"
        return {"seats": self.seats(), "rates": rates,
                "round_length": length, "totals": totals}

    def export(self, directory, fmt: str = "csv") -> list:
        """Write every table to directory/<name>.csv (or .parquet); returns the paths."""
        from .statistics import export_tables

        return export_tables(self.tables(), directory, fmt)

    def to_json(self) -> dict:
        return {"variant": str(self.variant), "method": self.method,
                "sides": self.sides, "side_wins": self.side_wins.tolist(),
                "seat_values": self.seat_values.tolist(),
                "first_eliminated": self.first_out.tolist(),
                "length": self.length.tolist(), "totals": self.totals,
                "rates": {key: float(x) for key, x in self.rates().items()}}


def table_balance(variant: Variant, tree: FlatTree, strategy: np.ndarray,
                  symmetric: bool = False) -> TableBalance:
    """Exact balance of `strategy` (every seat follows it) on the tree of `variant` it
    was solved on (`symmetric`: the two-player position-symmetric tree)."""
    check_strategy(tree, strategy)
    if tree.num_players != variant.players:
        raise ValueError(f"the tree has {tree.num_players} players, the variant "
                         f"{variant.players}")
    totals = np.zeros(len(TOTALS))
    side_wins = np.zeros(2 if variant.teams else variant.players)
    first_out = np.zeros(variant.players)
    length = np.zeros(variant.max_turns + 1)
    _walk(rules_array(variant), symmetric, tree.first_child, tree.infoset, tree.infoset_offset,
          strategy, totals, side_wins, first_out, length)
    if not abs(totals[_ROUNDS] - 1.0) < 1e-9:
        raise ValueError(f"the walk reached rounds of total probability "
                         f"{totals[_ROUNDS]:.12g}, not 1: is it the tree of {variant}?")
    return TableBalance(variant, np.array(player_values(tree, strategy)), side_wins,
                        first_out, length, dict(zip(TOTALS, totals.tolist())))


def table_balance_from_run(run_dir, rounds: int = 20_000, seed: int = 0) -> TableBalance:
    """Balance of the strategy `robinwood solve` stored in run_dir (any player count):
    exact for a tabular run, from `rounds` rounds of seeded self-play for a Monte Carlo
    CFR run; a missing, corrupt or mismatched strategy is a one-line StrategyFileError."""
    from solver.store import StrategyFileError, read_metadata

    if read_metadata(run_dir).get("kind") == "mccfr":
        from solver.players.agents import load_table_agent

        return sampled_table_balance(load_table_agent(run_dir), rounds, seed)
    from solver.exact.stored import load_exact_run

    variant, tree, strategy, symmetric = load_exact_run(run_dir)
    try:
        return table_balance(variant, tree, strategy, symmetric)
    except ValueError as e:
        raise StrategyFileError(f"the strategy in {run_dir} is not a valid strategy: "
                                f"{e}") from None


@jit
def _side_leader(state, rules):
    """The strike leader: the side (a seat, or a team, whose strikes are its two
    seats' together) with strictly fewer strikes than every other side; -1 when none."""
    sides = 2 if rules[k.R_TEAMS] else rules[k.R_PLAYERS]
    best, leader = 1 << 30, -1
    for side in range(sides):
        strikes = 0
        for s in range(side, rules[k.R_PLAYERS], sides):
            strikes += state[k.S_STRIKES + s]
        if strikes < best:
            best, leader = strikes, side
        elif strikes == best:
            leader = -1
    return leader


@jit
def _sample(rules, rounds, seed, players, totals, side_wins, first_out, length, values,
            squares, lead):
    """`rounds` rounds of self-play, seat s moved by players[s], counted as `_walk`
    counts (each round weight 1); values[s]/squares[s]: sums of seat s's payoff and of
    its square. lead: [rounds won, sum over them of the share of turns gone when the
    winner took the strike lead it kept (1 when it does not lead at the end), lead
    changes] (analysis.decisiveness's definitions, read on sides)."""
    np.random.seed(seed)
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    chance_p = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    probs = np.empty(k.MAX_LEGAL, dtype=np.float64)
    scratch = np.empty((mk.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    nxt = np.empty(k.S_SIZE, dtype=np.int64)
    for _ in range(rounds):
        state = k.initial_state(rules)
        know = mk.initial_knowledge(state, rules)
        # the strike leader, the turn it took the lead (1 is the first), lead changes,
        # the turn of the last move, the last side to lead
        leader, since, changes, last, before = _side_leader(state, rules), 1, 0, 1, -1
        while state[k.S_PHASE] != k.PH_TERMINAL:
            a = ka.table_move(players, state, rules, know, legal, chance_p, probs, scratch,
                              abst)
            nxt[:] = state
            k.apply_action(nxt, rules, a)
            _count_edge(state, rules, a, nxt, 1.0, _eliminated(state, rules), totals,
                        first_out)
            now = _side_leader(nxt, rules)
            if now != leader:
                since = state[k.S_TURN] + 1
            if now >= 0 and before >= 0 and now != before:
                changes += 1
            if now >= 0:
                before = now
            last = state[k.S_TURN] + 1
            leader = now
            mk.observe(know, state, a, nxt, rules)
            state[:] = nxt
        _count_end(state, rules, 1.0, totals, side_wins, length)
        lead[2] += changes
        winner = state[k.S_WINNER]
        if winner >= 0:
            side = winner % 2 if rules[k.R_TEAMS] else winner
            lead[0] += 1.0
            lead[1] += since / last if leader == side else 1.0
        for s in range(rules[k.R_PLAYERS]):
            v = mk.payoff(state, rules, s)
            values[s] += v
            squares[s] += v * v


def sampled_table_balance(agent, rounds: int = 20_000, seed: int = 0,
                          variant: Variant | None = None) -> TableBalance:
    """Balance of `agent` (a solver.players Agent: a Monte Carlo CFR table, or a bot
    on the `variant` given) playing every seat, from `rounds` rounds of seeded self-play
    in the numba core: each figure is a sample mean; seat values carry their 95%
    half-width."""
    if agent.variant is not None and variant is not None and agent.variant != variant:
        raise ValueError(f"{agent.name} was trained on {agent.variant}, not {variant}")
    variant = agent.variant or variant
    if variant is None:
        raise ValueError(f"{agent.name} has no variant: give the variant to play")
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    totals = np.zeros(len(TOTALS))
    side_wins = np.zeros(2 if variant.teams else variant.players)
    first_out = np.zeros(variant.players)
    length = np.zeros(variant.max_turns + 1)
    values = np.zeros(variant.players)
    squares = np.zeros(variant.players)
    players = tuple(agent.player(s) for s in range(variant.players))
    lead = np.zeros(3)
    _sample(rules_array(variant), rounds, seed, players, totals, side_wins, first_out,
            length, values, squares, lead)
    mean = values / rounds
    spread = np.sqrt(np.maximum(squares / rounds - mean ** 2, 0.0))
    half = 1.959963984540054 * spread / np.sqrt(rounds)
    scale = 1.0 / rounds
    return TableBalance(variant, mean, side_wins * scale, first_out * scale,
                        length * scale, {key: x * scale for key, x in
                                         zip(TOTALS, totals.tolist())},
                        method=f"sampled self-play ({rounds:,} rounds, seed {seed}; "
                               f"seat values with 95% intervals)",
                        rounds=rounds, value_half_width=half,
                        decisiveness=float(lead[1] / lead[0]) if lead[0] else float("nan"),
                        lead_changes=float(lead[2] / rounds))
