"""Equilibrium solvers for two-player Robin Wood rounds (docs/solver.md).

The solver reaches the game only through `FlatTree` (solver.tree); builders turn the
numba core (`robinwood_tree`) or any OpenSpiel game (`openspiel_tree`) into one.
"""

from .best_response import Exploitability, exploitability
from .cfr import ALGORITHMS, CFRSolver, algorithm
from .strategy_file import load_strategy
from .tree import FlatTree

__all__ = ["ALGORITHMS", "CFRSolver", "Exploitability", "FlatTree", "algorithm",
           "exploitability", "load_strategy"]
