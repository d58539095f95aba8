"""What each seat of a two-player round knows, as a small array kept beside the core
state (docs/abstraction.md, "Knowledge: what is tracked"), and the decisions that
surely win from it (sure wins). Kernels only: their interface is
`solver.knowledge.kernels`. The abstraction (solver.mccfr), the scripted players
(solver.scripted), table agents, search and the local best response all read it.
"""
