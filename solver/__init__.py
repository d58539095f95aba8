"""Solvers and players for Robin Wood rounds of 2-4 players and teams, in subpackages
whose imports run one way (docs/architecture.md):

- `solver.exact`: exact equilibria over a flat tree (CFR family, best response,
  exploitability at two seats and NashConv beyond), the solve job;
- `solver.locks`: exact solves with chosen decisions locked;
- `solver.knowledge`: what each seat knows after every action, and sure wins;
- `solver.scripted`: the baseline bots', league players' and held-out players' rules;
- `solver.decisions`: what the mover knows of a decision, the lock language;
- `solver.mccfr`: Monte Carlo CFR over the information abstraction, one table a seat;
- `solver.players`: agents (bots, league players, table agents with their fallback);
- `solver.search`: play-time search and depth-limited re-solving;
- `solver.evaluation`: tournaments, the league, exploiters, the local best response,
  strength at every table size, and the measurement files of a run directory.

`load_strategy` reads any run directory as an OpenSpiel policy.
"""

from solver.exact import CFRSolver, Exploitability, FlatTree, algorithm, exploitability
from solver.exact.cfr import ALGORITHMS
from solver.strategies import load_strategy

__all__ = ["ALGORITHMS", "CFRSolver", "Exploitability", "FlatTree", "algorithm",
           "exploitability", "load_strategy"]
