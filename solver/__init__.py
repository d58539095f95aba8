"""Solvers for two-player Robin Wood rounds, in four packages whose imports run one way
(docs/architecture.md):

- `solver.exact`: exact equilibria over a flat tree (CFR family, best response);
- `solver.mccfr`: Monte Carlo CFR over the information abstraction, for the 12-card game;
- `solver.players`: bots, league players and table agents;
- `solver.evaluation`: tournaments, exploiters, local best response, abstraction cost.

`load_strategy` reads any run directory as an OpenSpiel policy.
"""

from solver.exact import CFRSolver, Exploitability, FlatTree, algorithm, exploitability
from solver.exact.cfr import ALGORITHMS
from solver.strategies import load_strategy

__all__ = ["ALGORITHMS", "CFRSolver", "Exploitability", "FlatTree", "algorithm",
           "exploitability", "load_strategy"]
