"""Restricted play (analysis.restricted_play): on a hand-sized deck, each value against
the hand computation; on rspmx:max_turns=3, against a locked solve run by hand with the
same lock through `robinwood solve`; the pruned tree (analysis.pruned_tree) against the
full tree with the forbidden actions played with probability 0.

Planted bugs these catch: a pruned node's children renumbered off by one (the value
test and FlatTree.validate), the restricted seat's value read for the other seat (hand
values: the signs differ), forbidding the actions a lock leaves instead of the ones it
names (never_bluff on the hand deck would cost 1/2, not 0), a bracket from one solve
only (the locked solve's value falls outside)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from analysis.equilibrium import solve
from analysis.pruned_tree import forbid
from analysis.restricted_play import (RESTRICTIONS, forbidden_slots, restricted_play,
                                      restrictions_for)
from game_def.actions import player_action_to_string
from robinwood.cli import cli
from solver.exact.best_response import expected_value
from solver.exact.robinwood_tree import build_robinwood_tree

HAND = "Robin+Peasant+Traitor:max_turns=1"


def _audit_rows(spec, names, seats=(0, 1), target=1e-6):
    variant = game_def.parse(spec)
    trees = {True: build_robinwood_tree(variant, symmetric=True),
             False: build_robinwood_tree(variant)}
    free = {k: solve(t, target) for k, t in trees.items()}
    chosen = [r for r in restrictions_for(variant) if r.name in names]
    rows = restricted_play(variant, trees, free, target, chosen, seats)
    return rows.set_index(["restriction", "seat"])


def test_restricted_play_on_a_hand_sized_deck_equals_the_hand_computation():
    """tests/test_locks.py's hand deck: seat 0 peeks Robin or the Peasant (1/2 each); a
    true Robin claim wins, a Robin bluff wins if passed and draws if challenged,
    silence and Peasant claims draw; value 1/2 (seat 1 challenges every Robin claim).
    - seat 1 never challenges: seat 0 claims Robin on every card, value 1: seat 1
      loses 1/2;
    - seat 0 never bluffs: it never needed to (a bluff is always challenged): costs 0;
    - seat 0 never announces a leader: it cannot claim even a true Robin, every round
      draws, value 0: seat 0 loses 1/2."""
    rows = _audit_rows(HAND, {"never_challenge", "never_bluff", "never_announce_leader"})
    assert rows.at[("never_challenge", 1), "value_lost"] == pytest.approx(0.5, abs=1e-4)
    assert rows.at[("never_challenge", 1), "restricted_value"] == pytest.approx(-1.0,
                                                                                abs=1e-4)
    assert rows.at[("never_bluff", 0), "value_lost"] == pytest.approx(0.0, abs=1e-4)
    assert rows.at[("never_announce_leader", 0), "value_lost"] == pytest.approx(0.5,
                                                                                abs=1e-4)
    for _, r in rows[rows["applies"]].iterrows():
        assert r["lost_lo"] - 1e-9 <= r["value_lost"] <= r["lost_hi"] + 1e-9
    # seat 0 never responds, seat 1 never announces: those restrictions do not apply
    assert not rows.at[("never_challenge", 0), "applies"]
    assert not rows.at[("never_bluff", 1), "applies"]


CASES = [("never_challenge", "respond seat=1: pass=1"),
         ("always_truth", "announce seat=0: truth=1")]


@pytest.mark.parametrize("spec, restriction, lock", [
    *[("rspx:max_turns=3", *case) for case in CASES],
    # the audited variant itself: about 50 s a case on 2 shared cores
    *[pytest.param("rspmx:max_turns=3", *case, marks=pytest.mark.slow) for case in CASES]])
def test_a_restriction_leaving_one_action_equals_the_locked_solve_by_hand(
        tmp_path, spec, restriction, lock):
    """Never challenging is the lock pass=1, always telling the truth the lock
    truth=1; `robinwood solve --lock` gives the same game value."""
    run = tmp_path / "run"
    result = CliRunner().invoke(cli, ["solve", "--variant", spec, "--algo", "dcfr",
                                      "--target-exploitability", "1e-5", "--lock", lock,
                                      "--out", str(run)])
    assert result.exit_code == 0, result.output
    by_hand = json.loads((run / "metadata.json").read_text())
    seat = int(lock.split("seat=")[1][0])
    locked_value = by_hand["values"][seat]
    rows = _audit_rows(spec, {restriction}, seats=(seat,), target=1e-5)
    row = rows.loc[(restriction, seat)]
    assert row["restricted_value"] == pytest.approx(locked_value, abs=3e-5)
    assert row["free_value"] - row["lost_hi"] - 1e-5 <= locked_value \
        <= row["free_value"] - row["lost_lo"] + 1e-5


@pytest.mark.parametrize("name", ["never_bluff", "never_use_power", "never_silent"])
def test_the_pruned_tree_values_any_strategy_as_the_full_tree_with_the_actions_at_zero(name):
    variant = game_def.parse("rspx:max_turns=3")   # a face-up card's power by turn 3
    tree = build_robinwood_tree(variant)
    r = next(x for x in RESTRICTIONS if x.name == name)
    slots = forbidden_slots(variant, tree, r.lock_for(0), symmetric=False)
    assert slots is not None and slots.any()
    pruned = forbid(tree, slots)
    assert pruned.num_infosets == tree.num_infosets
    rng = np.random.default_rng(0)
    weights = np.where(slots, 0.0, rng.random(tree.num_action_slots) + 0.1)
    sums = np.add.reduceat(weights, tree.infoset_offset.astype(np.int64))
    full = weights / np.repeat(sums, tree.infoset_num_actions)
    assert expected_value(pruned, full[~slots]) == pytest.approx(
        expected_value(tree, full), abs=1e-12)
    # no forbidden action is left at any of seat 0's decisions
    n = variant.num_positions
    for s in np.flatnonzero(pruned.infoset_player == 0)[:2000]:
        off, m = pruned.infoset_offset[s], pruned.infoset_num_actions[s]
        texts = [player_action_to_string(n, int(a))
                 for a in pruned.infoset_actions[off:off + m]]
        if name == "never_use_power":
            assert not any(t.startswith("use") for t in texts) or len(texts) == sum(
                t.startswith("use") for t in texts)
        if name == "never_silent":
            assert "silent" not in texts
