"""The exact solver's kernel interface: how kernels elsewhere walk a Robin Wood tree the
way the tree builder does.

The exact analysis (analysis.exact, analysis.values) and the abstraction's exact cost
(solver.evaluation.abstraction_cost) replay the builder's node order in their own
kernels: they must expand a node into the same edges (`expand`), track the same
"mentioned positions" for the position symmetry (`initially_mentioned`,
`mentioned_after`) and grow their buffers the same way (`grow_1d`, `grow_2d`).
Re-exported from the private kernels of `robinwood_tree`.
"""

from .robinwood_tree import (  # noqa: F401  (re-exported kernels)
    _expand as expand,
    _grow_2d as grow_2d,
    _grow_i8 as grow_1d,
    _initially_mentioned as initially_mentioned,
    _mentioned_after as mentioned_after,
)
