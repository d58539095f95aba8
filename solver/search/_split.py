"""Where the local best response's gain comes from, by decision: the accumulators the
search kernels (solver.search._kernels, `_advantage`) fill when cfg[G_SPLIT] is set,
apart from them so that each module keeps one job. docs/lbr.md, "Where the gain comes
from, by decision", explains the method."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from solver.players import kernels as ka

# how the advantages are valued (cfg[G_SPLIT])
SPLIT_OFF = 0
SPLIT_FRESH = 1    # fresh particles and rollouts from the split's own stream: unbiased
SPLIT_REUSE = 2    # the values that chose the action: biased upward by the max of the
                   # noise (kept to measure that bias, docs/lbr.md)

# Where the gain comes from (cfg[G_SPLIT]): at each lookahead decision, the advantage of
# the action taken over the continuation's mix there, Q(a) - sum_b cont(b) Q(b) (the
# performance-difference lemma: summed along the round, its expectation is the
# lookahead's payoff minus the continuation's alone). Rows are decision kind x sub-key,
# kind * SPLIT_SUBKEYS + sub (`_split_row`; sub: the card peeked after a peek, the
# claimed character at a response, the character whose power runs; 0 at a turn start),
# and SPLIT_TOTAL their sum. `round` sums a round's advantages per row; at the round's
# end it is added to `sums` and its square to `squares` (for an interval over rounds);
# `decisions` counts the lookahead decisions per row. `values` (the continuation's probability of each
# group) and `rng` (the split's own splitmix64 stream, so that the rounds' own draws
# are untouched) are scratch.
# What the lookahead played there (`choices`, `choice_gain`, `strategy_mass`; rows x
# CHOICE_LABELS, `_choice_label`): how often it took each kind of action, the
# advantages summed where it did, and the continuation's own probability of that kind
# of action summed over the same decisions, so that a leak reads as "after peeking a
# Deputy it announced Companion where the continuation tells the truth".
Split = namedtuple("Split", ["sums", "squares", "decisions", "round", "values", "rng",
                             "choices", "choice_gain", "strategy_mass"])
SPLIT_SUBKEYS = k.NUM_CHARACTERS
SPLIT_TOTAL = ka.NUM_DECISION_KINDS * SPLIT_SUBKEYS
SPLIT_SIZE = SPLIT_TOTAL + 1
SPLIT_SALT = np.uint64(0x9E6C63D0676A9A99)   # the split stream: seed ^ SPLIT_SALT
# an action's label in the choice split: its position kind (peek, use, reveal, pick),
# then the fixed actions by code (silent, announce c, challenge, pass, keep, swap,
# name c)
CHOICE_PEEK, CHOICE_USE, CHOICE_REVEAL, CHOICE_PICK = 0, 1, 2, 3
CHOICE_FIXED = 4
CHOICE_LABELS = CHOICE_FIXED + k.NUM_FIXED_ACTIONS


@jit
def _split_row(state):
    """The split row of the decision at `state` (Split)."""
    ph = state[k.S_PHASE]
    kind = ka.decision_kind(ph)
    sub = 0
    if ph == k.PH_AFTER_PEEK:
        sub = state[k.S_CARD + state[k.S_PEEK_POS]]
    elif ph == k.PH_RESPOND:
        sub = state[k.S_ANNOUNCED]
    elif kind == ka.DK_POWER:
        sub = state[k.S_POWER]
    return kind * SPLIT_SUBKEYS + sub


@jit
def _choice_label(action, n):
    """The label of core action id `action` on an n-card table (CHOICE_*)."""
    if action < 4 * n:
        return action // n
    return CHOICE_FIXED + action - 4 * n


@jit
def _record_strategy(split, row, legal, probs, m, n):
    """Add the continuation's probabilities `probs` of legal[:m], by label, at a
    decision of split row `row` (before anything reuses the arrays)."""
    for i in range(m):
        split.strategy_mass[row, _choice_label(legal[i], n)] += probs[i]


@jit
def _record_choice(split, row, a, adv, n):
    """Count the lookahead's action `a` at a decision of split row `row`, with its
    advantage `adv`."""
    label = _choice_label(a, n)
    split.choices[row, label] += 1
    split.choice_gain[row, label] += adv


@jit
def _close_split(split):
    """A round has ended: its per-row sums go into the split's sums and squares."""
    for row in range(SPLIT_SIZE):
        x = split.round[row]
        split.sums[row] += x
        split.squares[row] += x * x
        split.round[row] = 0.0


def _split() -> Split:
    """Zeroed split accumulators (Split) for one seat."""
    return Split(np.zeros(SPLIT_SIZE), np.zeros(SPLIT_SIZE), np.zeros(SPLIT_SIZE, np.int64),
                 np.zeros(SPLIT_SIZE), np.zeros(k.MAX_LEGAL), np.zeros(1, np.uint64),
                 np.zeros((SPLIT_SIZE, CHOICE_LABELS), np.int64),
                 np.zeros((SPLIT_SIZE, CHOICE_LABELS)),
                 np.zeros((SPLIT_SIZE, CHOICE_LABELS)))
