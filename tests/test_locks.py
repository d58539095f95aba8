"""Locked decisions (solver.locks): the lock language and its errors, the features locks
select on against a plain-Python twin that reads OpenSpiel strings, and locked exact
solves against independent best responses (OpenSpiel's) and the unlocked equilibrium."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner
from open_spiel.python.algorithms import best_response as os_best_response

import game_def
from game_def.characters import NAMES
from robinwood.cli import cli
from solver import load_strategy
from solver.exact.best_response import BestResponder, player_values
from solver.exact.cfr import CFRSolver, algorithm
from solver.exact.job import SolveConfig, solve
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.locks import (Lock, LockedDecisions, LockError, LockSet, infoset_features,
                          load_lock_file, lock_decisions, parse_locks)
from solver.decisions import kernels as kern

SMALL = "rspx:max_turns=3"
_STATE = re.compile(r"turn (\d+)/\d+ actor \d+ phase (\S+) strikes ([\d,]+) \| (.*)")


# ----- the language ---------------------------------------------------------------------
def test_a_lock_reads_its_selectors_and_actions():
    lock = Lock.parse("respond claim=monk seat=1 strikes=0 turn=2-3 faceup=Traitor: "
                      "pass=0.75, challenge=0.25")
    assert (lock.kind, lock.claim, lock.seat, lock.strikes, lock.turns, lock.faceup) == \
        ("respond", "Monk", 1, 0, (2, 3), "Traitor")
    assert lock.actions == (("pass", 0.75), ("challenge", 0.25))
    whole = Lock.parse("seat=1 play=Paranoid")
    assert whole.kind is None and whole.play == "paranoid" and whole.actions == ()
    assert Lock.parse("announce peeked=Robin: truth=0.9 silent=0.1").actions == \
        (("truth", 0.9), ("silent", 0.1))


@pytest.mark.parametrize("text, message", [
    ("respond claim=Monkk: pass=1", "unknown card 'Monkk'"),
    ("respond claim=Monk: pass=0.5", "sum to 0.5, not 1"),
    ("respond claim=Monk: pass=0.7 challenge=0.4", "sum to 1.1, not 1"),
    ("respnd claim=Monk: pass=1", "unknown decision kind 'respnd'"),
    ("respond claim=Monk", "says neither how to play"),
    ("respond claim=Monk: fold=1", "unknown action 'fold'"),
    ("respond colour=red: pass=1", "unknown selector 'colour'"),
    ("seat=one play=uniform", "seat='one'"),
    ("turn=3-2: peek=1", "ends before it starts"),
    ("seat=1 play=uniform: pass=1", "both play= and action probabilities"),
    ("respond: pass=1 pass=0", "names 'pass' twice"),
    ("respond: pass=2 challenge=-1", "between 0 and 1"),
    ("seat=1 play=gambler", "unknown player 'gambler'"),
    ("", "is empty"),
])
def test_bad_locks_name_the_problem(text, message):
    with pytest.raises(LockError, match=re.escape(message)):
        parse_locks([text])


def test_lock_files_hold_the_same_lines(tmp_path):
    path = tmp_path / "locks.toml"
    path.write_text('lock = ["respond claim=Monk: pass=1", "seat=1 play=uniform"]\n')
    assert [lock.text for lock in load_lock_file(path)] == \
        ["respond claim=Monk: pass=1", "seat=1 play=uniform"]
    path.write_text('locks = ["respond claim=Monk: pass=1"]\n')
    with pytest.raises(LockError, match="unknown key"):
        load_lock_file(path)
    path.write_text('lock = "x"\n')
    with pytest.raises(LockError, match="non-empty list of strings"):
        load_lock_file(path)
    with pytest.raises(LockError, match="does not exist"):
        load_lock_file(tmp_path / "none.toml")


# ----- what a lock selects ----------------------------------------------------------------
def _parse_state(state):
    turn, phase, strikes, cards = _STATE.match(str(state)).groups()
    dealt, faceup = {}, 0
    for item in cards.split():
        pos, card = item.split(":")
        if card != "(?)":
            dealt[int(pos)] = card.strip("()")
            if not card.startswith("("):
                faceup |= 1 << NAMES.index(card)
    return int(turn), phase, [int(x) for x in strikes.split(",")], dealt, faceup


def twin_features(spec: str) -> dict[str, tuple]:
    """Information-state string -> the features a lock selects on, from OpenSpiel's
    state and action strings alone."""
    game = game_def.load_game(spec)
    out = {}

    def visit(state, peeked, claim, power):
        if state.is_terminal():
            return
        if not state.is_chance_node():
            turn, phase, strikes, dealt, faceup = _parse_state(state)
            seat = state.current_player()
            kind = {"turn": 0, "after_peek": 1, "respond": 2}.get(phase, 3)
            row = (kind, seat,
                   NAMES.index(dealt[peeked]) if kind == 1 else -1,
                   NAMES.index(claim) if kind == 2 else -1,
                   NAMES.index(power) if kind == 3 else -1,
                   strikes[seat], turn + 1, faceup)
            key = state.information_state_string(seat)
            assert out.setdefault(key, row) == row, key
        branches = (state.chance_outcomes() if state.is_chance_node()
                    else [(a, 1.0) for a in state.legal_actions()])
        for action, _ in branches:
            text = state.action_to_string(state.current_player(), action)
            verb, _, rest = text.partition(" ")
            child = state.child(action)
            p, c, w = peeked, claim, power
            if verb == "peek":
                p = int(rest)
            elif verb == "announce":
                c = w = rest
            elif verb == "use":
                w = _parse_state(child)[3].get(int(rest), w)
            visit(child, p, c, w)

    visit(game.new_initial_state(), None, None, None)
    return out


@pytest.mark.parametrize("spec", ["rspx:max_turns=2", "rspmx:max_turns=2"])
def test_features_equal_the_twin(spec):
    tree = build_robinwood_tree(game_def.parse(spec))
    features = infoset_features(game_def.parse(spec), tree, symmetric=False)
    twin = twin_features(spec)
    assert len(twin) == tree.num_infosets
    for s in range(tree.num_infosets):
        assert tuple(features[s]) == twin[tree.key(s)], tree.key(s)


def test_a_lock_fixes_its_actions_and_says_where_it_applies():
    variant = game_def.parse(SMALL)
    tree = build_robinwood_tree(variant)
    locks = parse_locks(["announce peeked=Robin: truth=0.5 bluff=0.25 silent=0.25"])
    locked = lock_decisions(variant, tree, locks)
    assert locked.reports[0].fixed == locked.reports[0].selected > 0
    features = infoset_features(variant, tree, False)
    n = variant.num_positions
    from game_def.actions import player_action_to_string

    for s in np.flatnonzero(locked.locked):
        assert features[s, kern.F_PEEKED] == NAMES.index("Robin")
        off, m = tree.infoset_offset[s], tree.infoset_num_actions[s]
        texts = [player_action_to_string(n, int(a)) for a in tree.infoset_actions[off:off + m]]
        probs = dict(zip(texts, locked.probs[off:off + m]))
        assert probs["announce Robin"] == pytest.approx(0.5)
        assert probs["silent"] == pytest.approx(0.25)
        bluffs = [t for t in texts if t.startswith("announce") and t != "announce Robin"]
        assert sum(probs[t] for t in bluffs) == pytest.approx(0.25)
    with pytest.raises(LockError, match="selects no decision"):
        lock_decisions(variant, tree, parse_locks(["respond claim=Monk: pass=1"]))
    with pytest.raises(LockError, match="seats 0 to 1"):
        lock_decisions(variant, tree, parse_locks(["seat=2 play=uniform"]))


# ----- locked solves ------------------------------------------------------------------
def _converged(tree, iterations=2000):
    solver = CFRSolver(tree, "dcfr")
    solver.step(iterations)
    return solver.average_strategy()


@pytest.mark.parametrize("play", ["uniform", "paranoid"])
def test_a_locked_seat_meets_a_best_response_computed_by_openspiel(play, tmp_path):
    """Seat 1 wholly locked: the solve's seat 0 is a best response to it, and its value
    equals OpenSpiel's best response to the stored (locked) policy."""
    summary = solve(SolveConfig(game_def.parse(SMALL), algorithm("dcfr"), tmp_path,
                                max_iterations=1500,
                                locks=LockSet(parse_locks([f"seat=1 play={play}"]))))
    assert summary["symmetric"] is False  # a whole player: the full tree
    policy = load_strategy(tmp_path)
    game = policy.game
    br = os_best_response.BestResponsePolicy(game, 0, policy.to_tabular())
    assert br.value(game.new_initial_state()) == pytest.approx(summary["values"][0], abs=1e-6)
    assert summary["free_gains"][0] < 1e-6
    assert summary["locks"][0]["fixed"] > 0 and summary["unlocked"]["values"]
    assert summary["value_shift"][0] == pytest.approx(
        summary["values"][0] - summary["unlocked"]["values"][0])


def test_locking_the_equilibrium_keeps_its_values():
    variant = game_def.parse(SMALL)
    tree = build_robinwood_tree(variant)
    equilibrium = _converged(tree)
    exploit = BestResponder(tree).evaluate(equilibrium).exploitability
    features = infoset_features(variant, tree, False)
    responds = features[:, kern.F_KIND] == kern.KIND_RESPOND
    locked = LockedDecisions(tree, responds, equilibrium.copy(), ())
    strategy = locked.lift(_converged(locked.solve_tree()))
    np.testing.assert_allclose(strategy[np.repeat(responds, tree.infoset_num_actions)],
                               equilibrium[np.repeat(responds, tree.infoset_num_actions)])
    assert player_values(tree, strategy)[0] == pytest.approx(
        player_values(tree, equilibrium)[0], abs=2 * exploit + 1e-9)


def test_a_lock_moves_the_value_the_way_the_rules_say():
    """Seat 1 never challenges and seat 0 always announces Robin after a peek (a bluff
    when it is not Robin): seat 0 can then never be caught, so its value can only rise
    against an opponent that never challenges; computed both ways on the exact tree."""
    variant = game_def.parse(SMALL)
    tree = build_robinwood_tree(variant)
    locks = parse_locks(["respond seat=1: pass=1"])
    locked = lock_decisions(variant, tree, locks)
    strategy = locked.lift(_converged(locked.solve_tree()))
    unlocked = player_values(tree, _converged(tree))[0]
    value = player_values(tree, strategy)[0]
    # The never-challenging seat gives its opponent at least the equilibrium value.
    assert value >= unlocked - 1e-6
    # And exactly its best-response value against the locked responses: seat 1's free
    # decisions play their own best answer, seat 0's too (the locked game's equilibrium).
    responder = BestResponder(locked.solve_tree())
    result = responder.evaluate(locked.restrict(strategy))
    assert result.nash_conv < 1e-5


def test_cli_locks_round_trip_through_the_run(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["solve", "--variant", "rspmx:max_turns=2", "--algo",
                                      "dcfr", "--iterations", "200", "--lock",
                                      "respond claim=Monk: pass=1", "--out", str(out),
                                      "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output[result.output.index("{"):])
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["locks"] == summary["locks"]
    assert meta["locks"][0]["text"] == "respond claim=Monk: pass=1"
    policy = load_strategy(out)
    game = policy.game
    from explorer.run import load_run

    explored = load_run(out, values=False)
    assert explored.describe()["locks"] == ["respond claim=Monk: pass=1"]
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(400):  # random rounds: at every response to a Monk claim, pass is sure
        state = game.new_initial_state()
        claim = None
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [o for o, _ in state.chance_outcomes()]
                state.apply_action(int(rng.choice(outcomes)))
                continue
            monk = " phase respond " in str(state) and claim == "announce Monk"
            if monk:
                probs = policy.action_probabilities(state)
                passes = [a for a in probs if state.action_to_string(a) == "pass"]
                assert probs[passes[0]] == pytest.approx(1.0)
                seen += 1
            # The explorer marks exactly those decisions as locked.
            assert explored.decision(state).locked_by == (
                "respond claim=Monk: pass=1" if monk else None)
            action = int(rng.choice(state.legal_actions()))
            text = state.action_to_string(action)
            claim = text if text.startswith("announce") else claim
            state.apply_action(action)
    assert seen > 0
    from analysis.report import write_report

    write_report(out, tmp_path / "report")
    text = (tmp_path / "report" / "report.md").read_text()
    assert "Some decisions are locked (`respond claim=Monk: pass=1`)" in text
    assert "Locked decisions" in text


def test_a_lock_on_a_hand_sized_deck_does_what_the_hand_computation_says():
    """Robin, Peasant and the face-up Traitor, one turn. Seat 0 peeks one of the two
    face-down cards (Robin or the Peasant, 1/2 each) and may announce. A true Robin claim
    wins (+1) challenged or not; a Robin claim on the Peasant wins if passed and draws
    (0) if challenged; silence and Peasant claims draw. So seat 1 always challenges a
    Robin claim, and seat 0 wins exactly when it peeked Robin: value 1/2. Locked so
    that nobody challenges Robin, seat 0 claims Robin on every card: value 1, and its
    strategy after peeking the Peasant is the bluff, with probability 1."""
    variant = game_def.parse("Robin+Peasant+Traitor:max_turns=1")
    tree = build_robinwood_tree(variant)
    assert player_values(tree, _converged(tree))[0] == pytest.approx(0.5, abs=1e-6)
    locked = lock_decisions(variant, tree, parse_locks(["respond claim=Robin: pass=1"]))
    assert locked.num_locked == 2  # seat 1's responses to a Robin claim after each peek
    strategy = locked.lift(_converged(locked.solve_tree()))
    assert player_values(tree, strategy)[0] == pytest.approx(1.0, abs=1e-6)
    from game_def.actions import player_action_to_string

    features = infoset_features(variant, tree, False)
    peasant = np.flatnonzero(features[:, kern.F_PEEKED] == NAMES.index("Peasant"))
    assert len(peasant) == 2  # after peeking position 0 or 1
    for s in peasant:
        off, m = tree.infoset_offset[s], tree.infoset_num_actions[s]
        texts = [player_action_to_string(variant.num_positions, int(a))
                 for a in tree.infoset_actions[off:off + m]]
        assert strategy[off + texts.index("announce Robin")] == pytest.approx(1.0, abs=1e-6)


def test_locks_on_positions_are_applied_to_the_full_tree_and_stay_even_there(tmp_path):
    """`peek=1` spreads over the real positions: on the position-symmetric tree one
    action stands for several, so such locks go to the full tree (the job does so
    itself, and lock_decisions refuses the symmetric tree for them)."""
    variant = game_def.parse("rspx:max_turns=2")
    sym = build_robinwood_tree(variant, symmetric=True)
    with pytest.raises(LockError, match="without the position symmetry"):
        lock_decisions(variant, sym, parse_locks(["turn seat=0 turn=1: peek=1"]), True)
    summary = solve(SolveConfig(variant, algorithm("dcfr"), tmp_path, max_iterations=20,
                                locks=LockSet(parse_locks(["turn seat=0 turn=1: peek=1"]))))
    assert summary["symmetric"] is False
    policy = load_strategy(tmp_path)
    root = policy.game.new_initial_state()
    probs = policy.action_probabilities(root)
    peeks = [p for a, p in probs.items() if root.action_to_string(a).startswith("peek")]
    assert len(peeks) == 3 and np.allclose(peeks, 1 / 3)
    # Character locks stay on the symmetric tree.
    assert not LockSet(parse_locks(["respond claim=Robin: pass=1"])).needs_full_tree


def test_cli_takes_locks_from_a_file_and_the_command_line_together(tmp_path):
    path = tmp_path / "locks.toml"
    path.write_text('lock = ["announce peeked=Robin: truth=1"]\n')
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["solve", "--variant", "rspmx:max_turns=2", "--algo",
                                      "dcfr", "--iterations", "30", "--lock",
                                      "respond claim=Monk: pass=1", "--lock-file", str(path),
                                      "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output[result.output.index("{"):])
    assert [r["text"] for r in summary["locks"]] == ["respond claim=Monk: pass=1",
                                                     "announce peeked=Robin: truth=1"]
    bad = CliRunner().invoke(cli, ["solve", "--variant", "rspmx:max_turns=2", "--iterations",
                                   "30", "--lock-file", str(tmp_path / "none.toml"),
                                   "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "does not exist" in bad.output
    assert "Traceback" not in bad.output
