"""What a strategy does, measured by sampled self-play: for Monte Carlo CFR tables (whose
game is too big for the exact walk) and for any agent, bots included.

Both seats follow the agent for `rounds` rounds, played in numba without Python per
step. Every round feeds the recorder shared with the exact analysis (analysis._counts)
with weight 1 along its sampled path: at each decision the agent's probabilities over
the legal actions, on each edge taken (chance too), and at the end. Counts are totals
over the rounds, so ProfileStatistics adds 95% intervals to its tables.

Reproducible from `seed`: the rounds are split into two halves, each played on its own
thread with its own random stream and counts, then added.
"""

from __future__ import annotations

import os
import threading

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit
from game_def.core import rules_array
from solver.mccfr import kernels as ab
from solver.players import kernels as ka

from ._counts import Counts, _record_decision, _record_terminal, _record_transition, counts_for
from .statistics import ProfileStatistics

__all__ = ["profile_statistics_sampled"]


@jit
def _self_play(rules, rounds, seed, seats, counts):
    """Play `rounds` rounds with both seats following the agent (`seats`: its player in
    each seat, solver.players.kernels.Seats); record every decision, edge and end into
    `counts` with weight 1."""
    np.random.seed(seed)
    actions = np.empty(max(k.MAX_LEGAL, k.MAX_CHANCE_OUTCOMES), dtype=np.int64)
    probs = np.empty(max(k.MAX_LEGAL, k.MAX_CHANCE_OUTCOMES), dtype=np.float64)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    before = np.empty(k.S_SIZE, dtype=np.int64)
    for _ in range(rounds):
        state = k.initial_state(rules)
        know = ab.initial_knowledge(state, rules)
        while True:
            cur = k.current_player(state)
            if cur == k.TERMINAL_PLAYER:
                break
            if cur == k.CHANCE_PLAYER:
                m = k.chance_outcomes(state, rules, actions, probs)
            else:
                m = k.legal_actions(state, rules, actions)
                ka.seat_probs(seats, state, rules, know, cur, actions, m, scratch, abst,
                              probs)
                _record_decision(counts, state, rules, actions, probs, m, 1.0)
            a = ka.draw(actions, probs, m)
            before[:] = state
            k.apply_action(state, rules, a)
            ab.observe(know, before, a, state, rules)
            _record_transition(counts, rules, before, a, state, 1.0)
        _record_terminal(counts, state, 1.0)


def _resolve(run_dir_or_agent, variant):
    """(agent, variant) from an Agent, a bot spec or a Monte Carlo CFR run directory."""
    import game_def
    from solver.players.agents import Agent, AgentError, load_agent

    if isinstance(run_dir_or_agent, Agent):
        agent = run_dir_or_agent
    elif isinstance(run_dir_or_agent, (str, os.PathLike)):
        agent = load_agent(os.fspath(run_dir_or_agent))
    else:
        raise AgentError(f"expected a run directory, a bot name or an Agent, got "
                         f"{type(run_dir_or_agent).__name__}")
    if isinstance(variant, str):
        variant = game_def.parse(variant)
    if variant is None:
        variant = agent.variant
        if variant is None:
            raise AgentError(f"{agent.name} plays any variant: pass variant=")
    elif agent.variant is not None and agent.variant != variant:
        raise AgentError(f"agent {agent.name} was trained on {agent.variant}, not {variant}")
    if variant.players != 2 or variant.teams:
        raise AgentError(f"sampled statistics are for two-player rounds (got {variant})")
    return agent, variant


def profile_statistics_sampled(run_dir_or_agent, rounds: int = 100_000, seed: int = 0,
                               variant=None) -> ProfileStatistics:
    """Statistics of `rounds` self-play rounds of an agent, both seats following it.

    run_dir_or_agent: a Monte Carlo CFR run directory, a bot spec (`heuristic`,
    `heuristic:bluff=0.2`) or a solver.players.agents.Agent. variant: a Variant or its string;
    required for bots, checked against a table's training variant otherwise.
    Same arguments, same counts (two threads, each with its own seeded stream).
    """
    from solver.players.agents import AgentError

    agent, variant = _resolve(run_dir_or_agent, variant)
    if int(rounds) != rounds or rounds < 1:
        raise AgentError(f"rounds must be a positive whole number, got {rounds}")
    rounds = int(rounds)
    rules = rules_array(variant)
    seats = agent.seats()
    halves = (rounds - rounds // 2, rounds // 2)
    seeds = np.random.SeedSequence(seed).generate_state(2, dtype=np.uint32)
    parts = [counts_for(variant), counts_for(variant)]
    errors = []

    def play(i: int) -> None:
        try:
            if halves[i]:
                _self_play(rules, halves[i], int(seeds[i]), seats, parts[i])
        except BaseException as e:  # re-raised in the caller's thread
            errors.append(e)

    threads = [threading.Thread(target=play, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    counts = Counts(*(a + b for a, b in zip(*parts)))
    return ProfileStatistics(variant, counts, rounds_sampled=rounds)
