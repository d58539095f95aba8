"""Letters: the coarse level's fixed alphabet (MCCFRConfig.coarse_actions="letters",
docs/abstraction.md, "Letters").

- The kernel's letters agree with a plain-Python twin (tests/naive_abstraction.py) that
  reads information-state strings only; the coarse key under letters is exactly the
  globals and the coarse features (one key per distinct pair, fewer keys than classes).
- A table agent reads a coarse entry on letters as documented: renormalised over the
  letters present, each letter's share split evenly among its legal actions.
- Monte Carlo CFR on letters converges on a reduced deck (exact exploitability), is
  reproducible whatever the worker count and resumes exactly; the setting travels from
  the CLI to the table file and to every player that loads it.
"""

from __future__ import annotations

import dataclasses
import json
import pprint

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from game_def import _core as k
from robinwood.cli import cli
from solver.evaluation.abstraction_cost import project
from solver.evaluation.exploiter import exploit
from solver.exact.best_response import exploitability
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.mccfr import _abstraction as ab
from solver.mccfr.trainer import MCCFRConfig, MCCFRError, MCCFRSolver
from solver.players import _kernels as ka
from solver.players.agents import load_table_agent, table_agent, trained_agent

try:
    from tests import naive_abstraction as naive
    from tests.test_abstraction import MIXED, decisions, kernel_coarse_features
except ImportError:  # tests/ is not a package: pytest puts it on sys.path
    import naive_abstraction as naive
    from test_abstraction import MIXED, decisions, kernel_coarse_features

RSPX5 = game_def.parse("rspx:max_turns=5")


def kernel_letters(core, rules, know, seat, letters=True):
    """(fine key, coarse key, alphabet size, {legal action: letter}) from the kernel."""
    legal = np.zeros(k.MAX_LEGAL, np.int64)
    m = k._legal_actions(core, rules, legal)
    scratch = np.zeros((ab.SCRATCH_ROWS, k.MAX_LEGAL), np.int64)
    abst = np.full(k.MAX_LEGAL, -1, np.int64)
    fine, coarse, count, width = ab._decision_keys(core, rules, know, seat, legal, m,
                                                   scratch, abst, letters, False)
    return (int(fine), int(coarse), int(width),
            {int(legal[i]): int(scratch[5, abst[i]]) for i in range(m)})


@pytest.mark.parametrize("spec, rounds", [
    ("standard:max_turns=12", 300),      # Deputies (blind shuffles), Witch, Monk, Companion
    ("duel8:max_turns=8", 400),          # Witch keep/swap, Trickster
    ("rspmx:max_turns=8", 400),          # Monk flips
    (MIXED, 400),                        # two Deputies, Witch and Monk in a small deck
])
def test_letters_agree_with_the_twin_and_the_key_is_the_coarse_features(spec, rounds):
    game = game_def.load_game(spec)
    rng = np.random.default_rng(11)
    by_features = {}       # (globals, coarse features) -> letter key
    by_key = {}
    checked = 0
    for _ in range(rounds):
        for state, know in decisions(game, rng):
            seat = state.current_player()
            _, key, width, letters = kernel_letters(state.core_state, game.rules, know, seat)
            twin = naive.letters(state, seat)
            phase = naive.board(state, seat).phase
            assert (letters, width) == (twin, naive.alphabet(phase)), pprint.pformat(dict(
                kernel=letters, twin=twin, width=width, phase=phase,
                record=state.information_state_string(seat)))
            assert all(0 <= v < width for v in letters.values())
            glob, _ = naive.features(state, seat)
            features = (glob, naive.coarse_features(state, seat))
            assert features[1] == kernel_coarse_features(state, know, seat)
            assert by_features.setdefault(features, key) == key
            assert by_key.setdefault(key, features) == features, "two situations, one key"
            checked += 1
    assert checked > 2 * rounds


def test_letters_share_keys_far_more_than_classes():
    game = game_def.load_game("standard:max_turns=20")
    rng = np.random.default_rng(3)
    keys = {}   # (phase, letters) -> coarse keys met
    for _ in range(300):
        for state, know in decisions(game, rng):
            seat = state.current_player()
            phase = int(state.core_state[k.S_PHASE])
            for letters in (True, False):
                keys.setdefault((phase, letters), set()).add(
                    kernel_letters(state.core_state, game.rules, know, seat, letters)[1])
    counts = {key: len(v) for key, v in keys.items()}
    # measured (seed 3, 300 random rounds): turn starts 324 letter keys against 800
    # class keys, reveals 150 against 239, picks 170 against 289; the decisions without
    # position actions keep theirs (after a peek 693, responses 460, Witch choice 58)
    assert counts[(k.PH_TURN, True)] < 0.5 * counts[(k.PH_TURN, False)], counts
    for phase in (k.PH_REVEAL, k.PH_PICK):
        assert counts[(phase, True)] < 0.8 * counts[(phase, False)], counts
    for phase in (k.PH_AFTER_PEEK, k.PH_RESPOND, k.PH_WITCH_CHOICE):
        assert counts[(phase, True)] == counts[(phase, False)], counts


def _letter_table(variant):
    """A coarse-only table on letters over every decision of variant's exact tree, each
    entry's letter probabilities (l + 1) / sum over its alphabet: a known answer."""
    rules = game_def.core.rules_array(variant)
    entries = {}
    stack = [game_def.load_game(variant).new_initial_state()]
    visited = []
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack += [state.child(a) for a, _ in state.chance_outcomes()]
            continue
        _, know = ka._replay(rules, np.array(state.history(), dtype=np.int64))
        seat = state.current_player()
        _, coarse, width, _ = kernel_letters(state.core_state, rules, know, seat)
        entries.setdefault(seat, {})[coarse] = width
        visited.append(state)
        stack += [state.child(a) for a in state.legal_actions()]
    seats = []
    for seat in (0, 1):
        keys = np.array(sorted(entries[seat]), dtype=np.int64)
        nact = np.array([entries[seat][key] for key in keys], dtype=np.int64)
        offset = np.concatenate(([0], np.cumsum(nact)[:-1]))
        probs = np.concatenate([(np.arange(w) + 1.0) / (w * (w + 1) / 2) for w in nact])
        seats.append((keys, offset, nact, probs.astype(np.float32)))
    return seats, visited


def test_a_letter_entry_is_renormalised_over_present_letters_and_split_evenly():
    variant = game_def.parse("rspx:max_turns=3")
    seats, visited = _letter_table(variant)
    agent = table_agent("letters", variant, seats, coarse_letters=True)
    rules = game_def.core.rules_array(variant)
    actions = np.zeros(k.MAX_LEGAL, np.int64)
    probs = np.zeros(k.MAX_LEGAL, np.float64)
    for state in visited[::7]:
        seat = state.current_player()
        m, e = ka._replay_probs(rules, np.array(state.history(), dtype=np.int64),
                                agent.player(seat), actions, probs)
        assert e >= 0
        letters = naive.letters(state, seat)
        present = set(letters.values())
        mass = sum(ell + 1.0 for ell in present)
        for i in range(m):
            ell = letters[int(actions[i])]
            share = sum(1 for v in letters.values() if v == ell)
            assert probs[i] == pytest.approx((ell + 1.0) / mass / share, rel=1e-5)


@pytest.fixture(scope="module")
def rspx5_tree():
    return build_robinwood_tree(RSPX5, symmetric=False)


def test_mccfr_on_letters_converges_on_a_reduced_deck(rspx5_tree):
    # Measured (seed 0, 40,000 traversals a seat): letters 0.0305, classes 0.0416.
    solver = MCCFRSolver(MCCFRConfig(RSPX5, workers=1, seed=0, coarse_actions="letters"))
    solver.run(200)
    assert solver.counters()["mismatch"] == 0
    agent = trained_agent(solver)
    assert agent.params[ka.P_COARSE_LETTERS] == 1
    value = exploitability(rspx5_tree, project(agent, RSPX5, rspx5_tree)).exploitability
    assert value < 0.05, value


def _arrays(solver):
    """Per seat, the table's keys, regrets and average sums as one array of bytes."""
    return [np.concatenate([t.keys[:t.entries].view(np.uint8),
                            t.regret[:t.action_slots].view(np.uint8),
                            t.ssum[:t.action_slots].view(np.uint8)]) for t in solver.tables]


def assert_reproducible_resumable_and_distinct(config, **other):
    """Three batches of `config` give the same tables with 1 and 2 workers and after a
    resume, and different ones with `other` settings; returns the resumed solver."""
    runs = {}
    for workers in (1, 2):
        solver = MCCFRSolver(dataclasses.replace(config, workers=workers))
        solver.run(3)
        runs[workers] = _arrays(solver)
    half = MCCFRSolver(config)
    half.run(1)
    resumed = MCCFRSolver.from_state_arrays(config, half.state_arrays())
    resumed.run(2)
    changed = MCCFRSolver(dataclasses.replace(config, **other))
    changed.run(3)
    for seat in (0, 1):
        assert np.array_equal(runs[1][seat], runs[2][seat])
        assert np.array_equal(runs[1][seat], _arrays(resumed)[seat])
        assert not np.array_equal(runs[1][seat], _arrays(changed)[seat])
    return resumed


def test_letters_are_reproducible_and_resume_exactly():
    variant = game_def.parse("standard:max_turns=12")
    config = MCCFRConfig(variant, batch_iterations=40, seed=5, coarse_actions="letters")
    assert_reproducible_resumable_and_distinct(config, coarse_actions="classes")


def test_unknown_coarse_actions_are_refused():
    with pytest.raises(MCCFRError, match="unknown coarse actions 'words'.*classes, letters"):
        MCCFRConfig(RSPX5, coarse_actions="words")


def test_cli_records_letters_and_every_loader_plays_them(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--algo", "mccfr",
        "--iterations", "400", "--coarse-actions", "letters", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["algorithm"]["coarse_actions"] == "letters"
    agent = load_table_agent(out)
    assert agent.params[ka.P_COARSE_LETTERS] == 1
    # the trained exploiter reads and warm-starts from the same letters
    report = exploit(agent, iterations=400, rounds=2000, batch=200, workers=1)
    assert np.isfinite(report.gain)
    result = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--iterations", "5",
        "--coarse-actions", "letters", "--out", str(tmp_path / "exact")])
    assert result.exit_code == 2 and "--coarse-actions" in result.output


# ----- the training kernels' letter policy and update, against plain Python ------------
def naive_spread(weights, positive, letter_of, size):
    """Coarse policy over abstract actions: the letters present renormalised (regret
    matching when `positive`), each split by its abstract actions' legal actions."""
    present = sorted(set(letter_of))
    w = {ell: (max(weights[ell], 0.0) if positive else weights[ell]) for ell in present}
    total = sum(w.values())
    members = {ell: sum(s for l2, s in zip(letter_of, size) if l2 == ell) for ell in present}
    return [(w[ell] / total if total > 0 else 1 / len(present)) * s / members[ell]
            for ell, s in zip(letter_of, size)]


def naive_update(regret, vals, sig, letter_of, size):
    """Per-letter regret increments: size-weighted mean value of a letter's actions minus
    the policy's value; NaN values (pruned) take no part, absent letters no update."""
    out = list(regret)
    value = sum(p * v for p, v in zip(sig, vals) if not np.isnan(v))
    for ell in set(letter_of):
        pairs = [(s, v) for l2, s, v in zip(letter_of, size, vals)
                 if l2 == ell and not np.isnan(v)]
        if pairs:
            out[ell] += sum(s * v for s, v in pairs) / sum(s for s, _ in pairs) - value
    return out


def test_letter_kernels_agree_with_plain_python():
    from solver.mccfr import kernels as kern
    from solver.mccfr._traversal import _update_letters
    rng = np.random.default_rng(0)
    buf = np.zeros(2 * ab.MAX_ABSTRACT)
    for trial in range(200):
        width = int(rng.integers(2, ab.MAX_ABSTRACT + 1))
        n = int(rng.integers(1, 12))
        letter_of = np.zeros(k.MAX_LEGAL, np.int64)
        size = np.ones(k.MAX_LEGAL, np.int64)
        letter_of[:n] = rng.integers(0, width, n)
        size[:n] = rng.integers(1, 4, n)
        letters = kern.Letters(width, letter_of, size, buf)
        weights = rng.normal(size=width) if trial % 3 else -np.abs(rng.normal(size=width))
        for positive in (True, False):
            w = weights if positive else np.abs(weights)
            out = np.zeros(k.MAX_LEGAL)
            kern.spread(w, 0, positive, letters, n, out)
            assert np.allclose(out[:n], naive_spread(w, positive, letter_of[:n], size[:n]))
            assert out[:n].sum() == pytest.approx(1.0)
        # the update, on a one-entry table
        vals = rng.normal(size=k.MAX_LEGAL)
        vals[:n][rng.random(n) < 0.2] = np.nan
        sig = np.zeros(k.MAX_LEGAL)
        kern.spread(weights, 0, True, letters, n, sig)
        table = kern.Table(np.zeros(2, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int8),
                           np.zeros(1, np.int64), np.array([width]), np.zeros(1, np.int64),
                           np.zeros(1, np.int8), weights.copy(), np.zeros(width),
                           np.zeros(width, np.float32), np.zeros(kern.M_SIZE, np.int64))
        _update_letters(table, 0, n, vals, sig, letters)
        expected = naive_update(weights, vals[:n], sig[:n], letter_of[:n], size[:n])
        assert np.allclose(table.regret, expected)
        assert table.visits[0] == 1
