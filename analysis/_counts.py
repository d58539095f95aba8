"""The one recorder of what a strategy profile does, shared by exact and sampled analysis.

Three numba kernels add weighted counts into a `Counts` (a named tuple of float64
arrays): `_record_decision` at every decision node (with the strategy's probabilities
over the legal actions), `_record_transition` on every edge taken (player or chance),
`_record_terminal` at the end of a round. The exact walk (analysis.exact) calls them
with exact reach probabilities over the whole tree; sampled self-play calls them with
weight 1 along each sampled round. Either way a count divided by the total weight of
rounds is an expected number of occurrences per round.

Two-player rounds only: "opponent" below is the other seat.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

SILENT = k.NUM_CHARACTERS   # column of `announce` for a silent peek
PEEK, USE = 0, 1            # turn choices
ANNOUNCED, FACE_UP = 0, 1   # how a power came to run
BY_PEEK, BY_REVEAL = 0, 1   # how a Traitor cost a strike
MISTAKE, WIN = 0, 1         # how an unmasking ended
BY_UNMASK, BY_ELIMINATION, BY_TURN_CAP = 0, 1, 2  # how a round ended
DRAW_COLUMN = 2             # `outcome` row of a drawn round


class Counts(NamedTuple):
    """Weighted counts, summed over rounds. Axes (all indices 0-based):

    announce[seat, own strikes, opponent strikes, turn, peeked card, announced or SILENT]
        after a peek (Traitor peeks excluded: they end the turn, see traitor_hits)
    challenge[responder, responder strikes, announcer strikes, turn, announced,
              claim true (1) or not (0), challenged (1) or passed (0)]
    turn_choice[seat, PEEK or USE]            what a turn starts with
    power_runs[seat, character, ANNOUNCED or FACE_UP]
        a power that actually ran (an announcement unchallenged, or challenged and true)
    unmask[seat, 0 Robin / 1 Sheriff, MISTAKE or WIN]   how each unmasking ended
    reveals[seat, 0 Robin / 1 Sheriff, camp card found (1) or not (0)]  single reveals
    traitor_hits[seat, BY_PEEK or BY_REVEAL]  strikes the Traitor cost
    witch[seat, 0 keep / 1 swap]              the Witch's choice
    outcome[winner seat or DRAW_COLUMN, BY_UNMASK / BY_ELIMINATION / BY_TURN_CAP]
    length[turns played]
    strikes_end[seat, strikes at the end of the round]
    rounds[0]                                 total weight of rounds recorded
    """

    announce: np.ndarray
    challenge: np.ndarray
    turn_choice: np.ndarray
    power_runs: np.ndarray
    unmask: np.ndarray
    reveals: np.ndarray
    traitor_hits: np.ndarray
    witch: np.ndarray
    outcome: np.ndarray
    length: np.ndarray
    strikes_end: np.ndarray
    rounds: np.ndarray


def new_counts(strikes: int, max_turns: int) -> Counts:
    """Zeroed counts for a two-player variant with these `strikes` and `max_turns`."""
    c, s, t = k.NUM_CHARACTERS, strikes, max_turns
    return Counts(
        announce=np.zeros((2, s, s, t, c, c + 1)),
        challenge=np.zeros((2, s, s, t, c, 2, 2)),
        turn_choice=np.zeros((2, 2)),
        power_runs=np.zeros((2, c, 2)),
        unmask=np.zeros((2, 2, 2)),
        reveals=np.zeros((2, 2, 2)),
        traitor_hits=np.zeros((2, 2)),
        witch=np.zeros((2, 2)),
        outcome=np.zeros((3, 3)),
        length=np.zeros(t + 1),
        strikes_end=np.zeros((2, s + 1)),
        rounds=np.zeros(1),
    )


def counts_for(variant) -> Counts:
    """Zeroed counts shaped for `variant` (two players)."""
    if variant.players != 2:
        raise ValueError(f"strategy statistics need a two-player variant (got players="
                         f"{variant.players})")
    return new_counts(variant.strikes, variant.max_turns)


@jit
def _record_decision(counts, state, rules, actions, probs, m, weight):
    """A decision node reached with probability `weight`, where the mover plays
    actions[i] with probability probs[i] (i < m; the core's legal-action order, or the
    symmetric tree's compacted order: only the action ids matter here)."""
    phase = state[k.S_PHASE]
    n = rules[k.R_N]
    base = 4 * n
    if phase == k.PH_TURN:
        seat = state[k.S_ACTOR]
        for i in range(m):
            counts.turn_choice[seat, PEEK if actions[i] < n else USE] += weight * probs[i]
    elif phase == k.PH_AFTER_PEEK:
        seat = state[k.S_ACTOR]
        own = state[k.S_STRIKES + seat]
        opp = state[k.S_STRIKES + 1 - seat]
        turn = state[k.S_TURN]
        card = state[k.S_CARD + state[k.S_PEEK_POS]]
        for i in range(m):
            a = actions[i]
            col = SILENT if a == base + k.A_SILENT else a - base - k.A_ANNOUNCE
            counts.announce[seat, own, opp, turn, card, col] += weight * probs[i]
    elif phase == k.PH_RESPOND:
        seat = state[k.S_RESPONDER]
        actor = state[k.S_ACTOR]
        said = state[k.S_ANNOUNCED]
        true = 1 if state[k.S_CARD + state[k.S_PEEK_POS]] == said else 0
        own = state[k.S_STRIKES + seat]
        other = state[k.S_STRIKES + actor]
        turn = state[k.S_TURN]
        for i in range(m):
            did = 1 if actions[i] == base + k.A_CHALLENGE else 0
            counts.challenge[seat, own, other, turn, said, true, did] += weight * probs[i]
    elif phase == k.PH_WITCH_CHOICE:
        seat = state[k.S_ACTOR]
        for i in range(m):
            counts.witch[seat, 1 if actions[i] == base + k.A_SWAP else 0] += \
                weight * probs[i]


@jit
def _record_transition(counts, rules, before, action, after, weight):
    """The edge `before` --action--> `after` (player or chance) taken with probability
    `weight`; reads the events the core wrote into `after`."""
    n = rules[k.R_N]
    base = 4 * n
    phase = before[k.S_PHASE]
    actor = before[k.S_ACTOR]
    events = after[k.S_EVENTS]
    # Which phase the action really resolves: a lazy deal resumes the paused one.
    acting = before[k.S_RESUME_PHASE] if phase == k.PH_DEAL else phase
    if acting == k.PH_TURN and events & k.EV_TRAITOR_HIT:
        counts.traitor_hits[actor, BY_PEEK] += weight
    if phase == k.PH_TURN and n <= action < 2 * n:
        counts.power_runs[actor, before[k.S_CARD + action - n], FACE_UP] += weight
    if phase == k.PH_RESPOND:
        ran = False
        if action == base + k.A_PASS:
            ran = after[k.S_PHASE] != k.PH_RESPOND and after[k.S_PHASE] != k.PH_ORDER
        elif events & k.EV_CHALLENGE_WRONG:
            # The challenger's strike may end the round before the power runs.
            ended_by_strike = (after[k.S_PHASE] == k.PH_TERMINAL
                               and not events & k.EV_UNMASK_WIN)
            ran = not ended_by_strike
        if ran:
            counts.power_runs[actor, before[k.S_ANNOUNCED], ANNOUNCED] += weight
    if acting == k.PH_REVEAL:
        leader = 0 if before[k.S_POWER] == k.ROBIN else 1
        found = 0 if events & k.EV_UNMASK_MISTAKE else 1
        counts.reveals[actor, leader, found] += weight
        if events & k.EV_UNMASK_MISTAKE:
            counts.unmask[actor, leader, MISTAKE] += weight
        if events & k.EV_TRAITOR_HIT:
            counts.traitor_hits[actor, BY_REVEAL] += weight
    if events & k.EV_UNMASK_WIN:
        # A win at once (the camp was already face up) or by the last reveal.
        power = after[k.S_POWER]
        counts.unmask[actor, 0 if power == k.ROBIN else 1, WIN] += weight


@jit
def _record_terminal(counts, state, weight):
    """A finished round reached with probability `weight`."""
    w = state[k.S_WINNER]
    events = state[k.S_EVENTS]
    if events & k.EV_TURN_CAP:
        cause = BY_TURN_CAP
    elif events & k.EV_UNMASK_WIN:
        cause = BY_UNMASK
    else:
        cause = BY_ELIMINATION
    counts.outcome[w if w >= 0 else DRAW_COLUMN, cause] += weight
    counts.length[state[k.S_TURN]] += weight
    for seat in range(2):
        counts.strikes_end[seat, state[k.S_STRIKES + seat]] += weight
    counts.rounds[0] += weight
