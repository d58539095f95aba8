"""A seat's belief about the cards, from Python: the probability of each character at
each position given what the seat has observed in a round (docs/sound-play.md, "The
belief"; the kernel is solver.knowledge._belief)."""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.errors import RobinWoodError
from game_def.kernels import jit

from ._belief import DEFAULT_CLAIM_WEIGHT, _belief, _belief_stepwise
from ._kernels import _initial_knowledge, _observe


@jit
def _knowledge_after(rules, history):
    """The knowledge array after the action ids of `history` (chance included)."""
    state = k.initial_state(rules)
    know = _initial_knowledge(state, rules)
    for a in history:
        before = state.copy()
        k.apply_action(state, rules, a)
        _observe(know, before, a, state, rules)
    return know


def seat_belief(state, seat: int, claim_weight: float = DEFAULT_CLAIM_WEIGHT, *,
                trickster=0.0, stepwise: bool = False) -> np.ndarray:
    """[position, character] probabilities `seat` gives the cards of the robin_wood state
    `state` (an OpenSpiel state of game_def's game), each unchallenged claim weighted by
    the likelihood ratio `claim_weight` (at least 1); `trickster` (0 to 1: one share, or
    one per character) is the share of that weight a claim of each character also gives
    the Trickster at its position, a forced liar's card, unless the claim was made over
    the public count (0: none). stepwise: by the reference
    dynamic programme that fills every position one by one, which the kernel's shortcut
    for exchangeable positions must match bit for bit at integer weights."""
    rules = state.get_game().rules
    players = int(rules[k.R_PLAYERS])
    if not 0 <= seat < players:
        raise RobinWoodError(f"seat {seat} is not a seat of this {players}-player game: give "
                             f"0 to {players - 1}")
    if not claim_weight >= 1.0:   # nan fails too
        raise RobinWoodError(f"claim_weight={claim_weight!r} must be a likelihood ratio of "
                             f"at least 1")
    liar = np.array(trickster, dtype=np.float64).reshape(-1)   # one share, or one a character
    if liar.size == 1:
        liar = np.full(k.NUM_CHARACTERS, liar[0])
    if liar.size != k.NUM_CHARACTERS or not np.all((liar >= 0.0) & (liar <= 1.0)):  # nan too
        raise RobinWoodError(f"trickster={trickster!r} must be a share between 0 and 1, or "
                             f"{k.NUM_CHARACTERS} of them (one per character)")
    know = _knowledge_after(rules, np.asarray(state.history(), dtype=np.int64))
    out = np.zeros((int(rules[k.R_N]), k.NUM_CHARACTERS))
    (_belief_stepwise if stepwise else _belief)(rules, know, seat, float(claim_weight),
                                                    liar, out)
    return out
