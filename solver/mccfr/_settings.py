"""A run's settings as the kernels read them: one float64 array indexed by `CFG_*`
(filled by solver.mccfr.MCCFRConfig.settings_array).

One array, so that every kernel takes a run's settings in one argument whatever they
grow to; its layout is defined here once, apart from the policies, the traversal and the
trainer, which all read it.
"""

CFG_EXPLORATION = 0       # uniform share of the followed action at a probe decision
CFG_MAX_BRANCHING = 1     # expand every action while the expanded branchings multiply to <=
CFG_PRUNE_BELOW = 2       # regret below which a zero-probability action may be skipped
CFG_PRUNE_PROBABILITY = 3
CFG_FINE_VISITS = 4       # updates after which a fine entry is played (< 0: coarse only)
CFG_OWN_AVERAGE = 5       # 1: average strategy at the traverser's own decisions, weighted
                          # by its reach (exploiters: the fixed side learns nothing);
                          # 0: at the next seat's, (seat + 1) mod N (external sampling's)
CFG_SURE_WINS = 6         # 1: every seat takes a sure win (solver.knowledge._sure_win) by rule
CFG_LEAGUE_SHARE = 7      # share of traversals whose other seats a league player plays
CFG_COARSE_LETTERS = 8    # 1: coarse entries act on the phase's letters (docs/abstraction.md)
CFG_SHARED_WORLD = 9      # 1: a traversal deals its hidden cards at its start, so all
#                           its action values face one world (_deal_world, _run_worker)
CFG_FINE_CLASSES = 10    # 1 (with letters): a position decision's fine key is its
#                           class-set key (docs/abstraction.md, "Fine key on classes")
CFG_SIZE = 11
