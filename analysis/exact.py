"""What a solved strategy does, weighted exactly by how often each situation is reached.

Walks the game (numba core) and its solved FlatTree in lockstep: the i-th legal action
of a core state is the i-th child of its tree node, so the strategy's probabilities and
the game's meaning (which card was peeked, what was announced, who won) meet without
storing anything per node. Every table is exact, not sampled.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from game_def import _core as k
from game_def._jit import jit
from game_def.characters import NAMES, Character
from game_def.core import rules_array
from game_def.variant import Variant
from solver.best_response import check_strategy
from solver.robinwood_tree import _expand, _grow_2d, _grow_i8, _initially_mentioned, _mentioned_after
from solver.tree import FlatTree

SILENT = k.NUM_CHARACTERS  # column of the announcement matrix for a silent peek


@jit
def _walk(rules, symmetric, first_child, infoset, infoset_offset, strategy, announce,
          challenge, outcome, length, traitor_hits):
    """Accumulate reach-weighted counts over the whole tree.

    announce[seat, peeked card, announced character or SILENT]
    challenge[announced character, claim true (1) or not (0), challenged (1) or not (0)]
    outcome[winner seat or 2 for a draw], length[turns played], traitor_hits[seat]
    """
    stack = np.empty((4096, k.S_SIZE), dtype=np.int64)
    meta = np.empty((4096, 2), dtype=np.int64)  # node id, positions mentioned
    reach = np.empty(4096, dtype=np.float64)
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    n_pos = rules[k.R_N]
    stack[0] = k._initial_state(rules)
    meta[0, 0] = 0
    meta[0, 1] = _initially_mentioned(stack[0], n_pos)
    reach[0] = 1.0
    top = 1
    while top > 0:
        top -= 1
        state = stack[top].copy()
        node = meta[top, 0]
        touched = meta[top, 1]
        r = reach[top]
        cur = k._current_player(state)
        if cur == k.TERMINAL_PLAYER:
            w = state[k.S_WINNER]
            outcome[w if w >= 0 else 2] += r
            length[state[k.S_TURN]] += r
            continue
        m = _expand(state, rules, cur, symmetric, touched, actions, probs)
        if cur != k.CHANCE_PLAYER:
            off = infoset_offset[infoset[node]]
            for i in range(m):
                probs[i] = strategy[off + i]
        phase = state[k.S_PHASE]
        if phase == k.PH_AFTER_PEEK:
            seat = state[k.S_ACTOR]
            card = state[k.S_CARD + state[k.S_PEEK_POS]]
            base = 4 * n_pos
            for i in range(m):
                a = actions[i]
                col = SILENT if a == base + k.A_SILENT else a - base - k.A_ANNOUNCE
                announce[seat, card, col] += r * probs[i]
        elif phase == k.PH_RESPOND:
            said = state[k.S_ANNOUNCED]
            true = 1 if state[k.S_CARD + state[k.S_PEEK_POS]] == said else 0
            base = 4 * n_pos
            for i in range(m):
                did = 1 if actions[i] == base + k.A_CHALLENGE else 0
                challenge[said, true, did] += r * probs[i]
        stack = _grow_2d(stack, top + m)
        meta = _grow_2d(meta, top + m)
        reach = _grow_i8(reach, top + m)
        f = first_child[node]
        for i in range(m):
            a = actions[i]
            nxt = stack[top]
            nxt[:] = state
            k._apply_action(nxt, rules, a)
            if nxt[k.S_EVENTS] & k.EV_TRAITOR_HIT and phase == k.PH_TURN:
                traitor_hits[state[k.S_ACTOR]] += r * probs[i]
            meta[top, 0] = f + i
            meta[top, 1] = _mentioned_after(touched, cur, a, nxt, n_pos)
            reach[top] = r * probs[i]
            top += 1


@dataclasses.dataclass
class ProfileStatistics:
    """Exact reach-weighted statistics of a strategy profile (both seats follow it).

    Masses are probabilities per round: e.g. announce_mass[seat, k, c] is the probability
    that, in a round, `seat` peeks a card k and announces c (summed over all the times
    that can happen in one round, so it is an expected count).
    """

    variant: Variant
    announce_mass: np.ndarray     # [seat, peeked card, announced character or SILENT]
    challenge_mass: np.ndarray    # [announced character, claim true?, challenged?]
    outcome: np.ndarray           # [P(seat 0 wins), P(seat 1 wins), P(draw)]
    length: np.ndarray            # P(round lasts t turns), t = 0..max_turns
    traitor_hits: np.ndarray      # expected Traitor peeks per round, per seat

    # ----- tables ------------------------------------------------------------------
    def announcement_matrix(self, seat: int | None = None) -> pd.DataFrame:
        """P(action | peeked card): rows are peeked cards, columns `silent` and the
        announced characters; truth is the diagonal, bluffs are off it. `reach` is the
        expected number of such peeks per round."""
        mass = self.announce_mass.sum(axis=0) if seat is None else self.announce_mass[seat]
        rows = [c for c in Character if self.variant.counts[c] and c != Character.TRAITOR]
        cols = [SILENT] + [int(c) for c in self.variant.announceable]
        sub = mass[np.ix_([int(c) for c in rows], cols)]
        totals = sub.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            probs = np.where(totals[:, None] > 0, sub / np.where(totals > 0, totals, 1)[:, None],
                             np.nan)
        frame = pd.DataFrame(probs, index=pd.Index([c.label for c in rows], name="peeked"),
                             columns=["silent"] + [NAMES[c] for c in cols[1:]])
        frame["reach"] = totals
        return frame

    def bluff_rates(self) -> pd.DataFrame:
        """Per announced character: how often it is announced per round, and the
        probability that the announcement is a bluff."""
        mass = self.announce_mass.sum(axis=0)
        rows = []
        for c in self.variant.announceable:
            total = mass[:, int(c)].sum()
            true = mass[int(c), int(c)]
            rows.append({"announced": c.label, "announcements_per_round": total,
                         "bluff_rate": (total - true) / total if total > 0 else np.nan})
        return pd.DataFrame(rows).set_index("announced")

    def challenge_rates(self) -> pd.DataFrame:
        """Per announced character: P(challenged | announced) and, among challenges,
        P(the challenger was right, i.e. it was a bluff)."""
        rows = []
        for c in self.variant.announceable:
            m = self.challenge_mass[int(c)]
            offered = m.sum()
            challenged = m[:, 1].sum()
            rows.append({
                "announced": c.label,
                "responses_per_round": offered,
                "challenge_rate": challenged / offered if offered > 0 else np.nan,
                "challenge_right_rate": m[0, 1] / challenged if challenged > 0 else np.nan,
            })
        return pd.DataFrame(rows).set_index("announced")

    def outcomes(self) -> pd.DataFrame:
        """Win/draw split, expected round length and how often the turn cap ends it."""
        turns = np.arange(len(self.length))
        return pd.DataFrame([{
            "seat0_wins": self.outcome[0], "seat1_wins": self.outcome[1],
            "draws": self.outcome[2], "seat0_value": self.outcome[0] - self.outcome[1],
            "mean_turns": float((turns * self.length).sum()),
            "turn_cap_rate": float(self.outcome[2]),
        }])

    def round_length(self) -> pd.Series:
        return pd.Series(self.length, index=pd.Index(range(len(self.length)), name="turns"),
                         name="probability")


def profile_statistics(variant: Variant, tree: FlatTree, strategy: np.ndarray,
                       symmetric: bool = False) -> ProfileStatistics:
    """Exact statistics of `strategy` (both seats) on the tree it was solved on."""
    if variant.players != 2:
        raise ValueError("exact statistics need a two-player variant")
    check_strategy(tree, strategy)
    c = k.NUM_CHARACTERS
    announce = np.zeros((2, c, c + 1))
    challenge = np.zeros((c, 2, 2))
    outcome = np.zeros(3)
    length = np.zeros(variant.max_turns + 1)
    traitor = np.zeros(2)
    _walk(rules_array(variant), symmetric, tree.first_child, tree.infoset,
          tree.infoset_offset, strategy, announce, challenge, outcome, length, traitor)
    return ProfileStatistics(variant, announce, challenge, outcome, length, traitor)


def profile_statistics_from_run(run_dir) -> ProfileStatistics:
    """Exact statistics of the strategy stored by `robinwood solve` in run_dir."""
    import game_def
    from solver.robinwood_tree import build_robinwood_tree
    from solver.strategy_file import StoredStrategy, StrategyFileError

    stored = StoredStrategy(run_dir)
    variant = game_def.parse(stored.metadata["variant"])
    symmetric = bool(stored.metadata.get("symmetric"))
    tree = build_robinwood_tree(variant, symmetric=symmetric)
    if tree.num_action_slots != len(stored.strategy):
        raise StrategyFileError(f"the strategy in {run_dir} has {len(stored.strategy)} "
                                f"action slots but the tree of {variant} has "
                                f"{tree.num_action_slots}: was it made by another version?")
    return profile_statistics(variant, tree, stored.strategy, symmetric)
