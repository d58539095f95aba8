"""The league: scripted players (docs/bots.md) that measure a strategy from outside.

Why an opponent's seat-averaged payoff is a lower bound on exploitability. Write u_s(x, y)
for seat s's expected payoff when x plays seat 0 and y seat 1 (two players, zero-sum).
Against the agent's strategy sigma, an opponent tau earns, averaged over the seats,

    g(tau) = (u_0(tau, sigma) + u_1(sigma, tau)) / 2
          <= (max_x u_0(x, sigma) + max_y u_1(sigma, y)) / 2 = NashConv(sigma) / 2,

which is exploitability on the project's scale (solver.exact.best_response, OpenSpiel's
`exploitability`). The exploiter (solver.evaluation.exploiter) reports a gain "beyond what the
strategy wins against itself"; seat-averaged, that self-play term vanishes here:
(u_0(sigma, sigma) + u_1(sigma, sigma)) / 2 = 0 because u_1 = -u_0 on every round. So the
opponent's gain is simply its seat-averaged payoff, -1 times the agent's. Each gain is
an unbiased estimate of a lower bound on exploitability; the largest of them is not: it
was chosen for being large, so it overstates its opponent's gain (the winner's curse).
solver.evaluation.strength replays the chosen opponent on fresh rounds for the stated
bound.
"""

from __future__ import annotations

import math
from typing import Iterable

import pandas as pd

from game_def.variant import Variant

from solver.players.agents import Agent, AgentError, HELD_OUT_BOTS, LEAGUE_BOTS, load_agent
from solver.evaluation.tournament import Z95, head_to_head

LEAGUE: tuple[str, ...] = LEAGUE_BOTS
"""The league's players, as load_agent names (threshold_challenger at t=0.5)."""

HELD_OUT: tuple[str, ...] = HELD_OUT_BOTS
"""Scripted players held out for evaluation (docs/bots.md, "Held out"): written in styles
the league does not have, and refused as training opponents (MCCFRConfig), so that
beating them is not beating what was trained against."""


def play_league(agent: Agent, variant: Variant | None = None, rounds: int = 20_000,
                seed: int = 0, opponents: Iterable[Agent | str] | None = None,
                workers: int = 2) -> pd.DataFrame:
    """`agent` against every opponent (default: LEAGUE), `rounds` rounds in each seat.

    One row per opponent (indexed by its name): the agent's seat-averaged payoff
    `value` with its 95% interval (normal approximation per seat as in
    solver.evaluation.tournament, the two independent seats' variances combined), the agent's
    payoff in each seat, and the opponent's `gain` (= -value, see the module docstring)
    with its interval. `strongest` marks the opponent with the largest gain; the frame's
    attrs hold its name, gain and half-width (a selection maximum, biased upward).
    """
    variant = variant or agent.variant
    if variant is None:
        raise AgentError("a bot plays any variant: name one for the league")
    players = [load_agent(o) if isinstance(o, str) else o
               for o in (LEAGUE if opponents is None else opponents)]
    if not players:
        raise AgentError("the league needs at least one opponent")
    rows = []
    for opponent in players:
        match = head_to_head(variant, agent, opponent, rounds=rounds, seed=seed,
                             workers=workers)
        halves = [(hi - lo) / 2 for lo, hi in (s.value_interval() for s in match.seats)]
        half = math.sqrt(halves[0] ** 2 + halves[1] ** 2) / 2
        value = match.value
        rows.append({"opponent": opponent.name, "rounds_per_seat": rounds,
                     "value": value, "value_lo": value - half, "value_hi": value + half,
                     "seat0_value": match.seats[0].value, "seat1_value": match.seats[1].value,
                     "win_rate": (match.seats[0].wins + match.seats[1].wins) / (2 * rounds),
                     "gain": -value, "gain_lo": -value - half, "gain_hi": -value + half,
                     "turn_cap_rate": (match.seats[0].turn_cap_draws
                                       + match.seats[1].turn_cap_draws) / (2 * rounds)})
    frame = pd.DataFrame(rows).set_index("opponent")
    best = frame["gain"].idxmax()
    frame["strongest"] = frame.index == best
    frame.attrs.update(agent=agent.name, variant=str(variant), seed=seed, strongest=best,
                       gain=float(frame.loc[best, "gain"]),
                       half_width=float(frame.loc[best, "gain"] - frame.loc[best, "gain_lo"]),
                       z=Z95)
    return frame
