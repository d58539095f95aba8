"""Exact equilibria of small games: a flat game tree, the CFR family over it, exact best
responses and exploitability, the position symmetry, strategy files, and the solve job.

The algorithms see only `FlatTree` (solver.exact.tree); `robinwood_tree` builds one from
the numba core and `openspiel_tree` from any OpenSpiel game, which is how Kuhn and
Leduc poker check the solver against OpenSpiel (docs/solver.md).
"""

from solver.exact.best_response import BestResponder, Exploitability, exploitability
from solver.exact.cfr import ALGORITHMS, Algorithm, CFRSolver, algorithm
from solver.exact.job import SolveConfig, SolveError, solve
from solver.exact.openspiel_tree import build_from_openspiel
from solver.exact.robinwood_tree import build_robinwood_tree, count_nodes
from solver.exact.stored import StoredStrategy, save_strategy
from solver.exact.symmetry import PositionSymmetry
from solver.exact.tree import FlatTree

__all__ = ["ALGORITHMS", "Algorithm", "BestResponder", "CFRSolver", "Exploitability",
           "FlatTree", "PositionSymmetry", "SolveConfig", "SolveError", "StoredStrategy",
           "algorithm", "build_from_openspiel", "build_robinwood_tree", "count_nodes",
           "exploitability", "save_strategy", "solve"]
