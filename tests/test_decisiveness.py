"""Decisiveness and lead changes (analysis.decisiveness) against a plain walk of the
OpenSpiel game: every history of uniform play, strikes read from each state, the
definitions applied to the whole path at its end. Planted bugs this catches: the turn
counted from 0 (shares of 0), the lead taken at the turn after (shares shifted), a
change not counted when the lead passes through a tie (strikes only grow, so it always
does)."""

from __future__ import annotations

import numpy as np
import pytest

import game_def
from analysis.decisiveness import decisiveness
from game_def import kernels as k
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.exact.tree import uniform_strategy



def _leader(core):
    a, b = core[k.S_STRIKES], core[k.S_STRIKES + 1]
    return 0 if a < b else 1 if b < a else -1


def _by_hand(state, reach, path, out):
    if state.is_terminal():
        ret = state.returns()[0]
        out["rounds"] += reach
        leaders = [lead for _, lead in path]
        strict = [lead for lead in leaders if lead >= 0]   # ties skipped
        out["changes"] += reach * sum(1 for x, y in zip(strict, strict[1:]) if x != y)
        if ret != 0:
            w = 0 if ret > 0 else 1
            out["won"] += reach
            if leaders and leaders[-1] == w:
                j = len(path) - 1
                while j > 0 and path[j - 1][1] == w:
                    j -= 1
                out["decided"] += reach * path[j][0] / path[-1][0]
            else:
                out["decided"] += reach
        return
    if state.is_chance_node():
        moves = state.chance_outcomes()
    else:
        legal = state.legal_actions()
        moves = [(a, 1 / len(legal)) for a in legal]
    turn = int(state._state[k.S_TURN]) + 1
    for action, p in moves:
        child = state.child(action)
        _by_hand(child, reach * p, path + [(turn, _leader(child._state))], out)


@pytest.mark.parametrize("spec", ["rspx:max_turns=2"])   # 6,382 nodes
def test_decisiveness_equals_a_plain_walk_of_the_game(spec):
    variant = game_def.parse(spec)
    tree = build_robinwood_tree(variant)
    got = decisiveness(variant, tree, uniform_strategy(tree))
    out = dict.fromkeys(("rounds", "changes", "won", "decided"), 0.0)
    _by_hand(game_def.load_game(spec).new_initial_state(), 1.0, [], out)
    assert out["rounds"] == pytest.approx(1.0)
    assert out["changes"] > 0   # some leads pass (through a tie) even in two turns
    assert got["decisiveness"] == pytest.approx(out["decided"] / out["won"], abs=1e-12)
    assert got["lead_changes"] == pytest.approx(out["changes"], abs=1e-12)
    assert 0 < got["decisiveness"] < 1
    assert np.isfinite(got["lead_changes"])
