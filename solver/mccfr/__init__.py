"""Monte Carlo CFR for the printed game: the information abstraction, the sampling
kernels, the trainer, its table files and the training job (docs/mccfr.md,
docs/abstraction.md). `TreeMCCFR` runs the same sampling scheme over a FlatTree, which is
how Kuhn and Leduc poker check it against OpenSpiel's external sampling.
"""

from solver.mccfr.job import MCCFRProgress, solve_mccfr
from solver.mccfr.table_file import StoredTable, read_table, save_table
from solver.mccfr.trainer import MCCFRConfig, MCCFRError, MCCFRSolver, SeatTable
from solver.mccfr.tree import TreeMCCFR

__all__ = ["MCCFRConfig", "MCCFRError", "MCCFRProgress", "MCCFRSolver", "SeatTable",
           "StoredTable", "TreeMCCFR", "read_table", "save_table", "solve_mccfr"]
