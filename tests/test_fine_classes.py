"""The fine key on classes (MCCFRConfig.fine_key="classes", docs/abstraction.md, "Fine key
on classes"): at a decision with position actions the fine entry is keyed by the globals,
the coarse features and the set of position classes, the level between the letters and
the position codes; other decisions keep the codes. Checked against the plain-Python twin
(tests/naive_abstraction.py, which reads information-state strings only), through
training, the table file, every loader and the exploiter."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from game_def import _core as k
from robinwood.cli import cli
from solver.evaluation.exploiter import exploit
from solver.mccfr import _abstraction as ab
from solver.mccfr.trainer import MCCFRConfig, MCCFRError, MCCFRSolver
from solver.players import _kernels as ka
from solver.players.agents import load_table_agent, trained_agent

try:
    from tests import naive_abstraction as naive
    from tests.test_abstraction import MIXED, decisions
    from tests.test_coarse_letters import assert_reproducible_resumable_and_distinct
except ImportError:  # tests/ is not a package: pytest puts it on sys.path
    import naive_abstraction as naive
    from test_abstraction import MIXED, decisions
    from test_coarse_letters import assert_reproducible_resumable_and_distinct

STANDARD12 = game_def.parse("standard:max_turns=12")


def kernel_keys(core, rules, know, seat, fine_classes):
    """(fine key, coarse key, abstract actions) of the decision, letters on."""
    legal = np.zeros(k.MAX_LEGAL, np.int64)
    m = k._legal_actions(core, rules, legal)
    scratch = np.zeros((ab.SCRATCH_ROWS, k.MAX_LEGAL), np.int64)
    abst = np.full(k.MAX_LEGAL, -1, np.int64)
    fine, coarse, count, _ = ab._decision_keys(core, rules, know, seat, legal, m, scratch,
                                               abst, True, fine_classes)
    return int(fine), int(coarse), int(count)


def twin_classes(state, seat):
    """What the classes fine key must tell apart, from the twin: globals, coarse
    features, the number of abstract actions and the set of (kind, action code) of the
    position actions; None at a decision without position actions."""
    variant = state.get_game().variant
    n = variant.num_positions
    glob, sorted_codes = naive.features(state, seat)
    # the twin's codes by position (features() returns them sorted)
    abstract = naive.abstract_actions(state, seat)
    positional = [a for a in abstract if a < 4 * n]
    if not positional:
        return None
    variant_, now, view, turn = naive._read(state, seat)
    codes = [naive.action_code(c) for c in naive.position_codes(now, view, turn)]
    classes = frozenset((a // n, codes[a % n]) for a in positional)
    return (glob, naive.coarse_features(state, seat), len(set(abstract.values())), classes)


@pytest.mark.parametrize("spec, rounds", [
    ("standard:max_turns=12", 200),      # Deputies (blind shuffles), Witch, Monk, Companion
    ("duel8:max_turns=8", 300),          # Witch keep/swap, Trickster
    (MIXED, 300),                        # two Deputies, Witch and Monk in a small deck
])
def test_the_classes_fine_key_is_the_twins_class_set_and_nothing_else(spec, rounds):
    game = game_def.load_game(spec)
    rng = np.random.default_rng(23)
    key_of_twin, twin_of_key = {}, {}
    positional = claims = 0
    for _ in range(rounds):
        for state, know in decisions(game, rng):
            seat = state.current_player()
            fine, coarse, count = kernel_keys(state.core_state, game.rules, know, seat, True)
            codes_fine, codes_coarse, _ = kernel_keys(state.core_state, game.rules, know,
                                                      seat, False)
            assert coarse == codes_coarse          # the letters level does not move
            twin = twin_classes(state, seat)
            if twin is None:                       # announcements, responses: the codes
                assert fine == codes_fine
                claims += 1
                continue
            positional += 1
            # same twin view, same key; same key, same twin view
            assert key_of_twin.setdefault(twin, fine) == fine, state
            assert twin_of_key.setdefault(fine, twin) == twin, state
    assert positional > rounds and claims > rounds
    # a level between the two: fewer fine keys than the codes would make at these
    # decisions, more than one per letters key
    assert len(twin_of_key) > 1


def test_the_classes_fine_key_merges_codes_that_differ_only_in_details():
    game = game_def.load_game("standard:max_turns=12")
    rng = np.random.default_rng(5)
    codes_keys, classes_keys, coarse_keys = set(), set(), set()
    for _ in range(150):
        for state, know in decisions(game, rng):
            seat = state.current_player()
            if twin_classes(state, seat) is None:
                continue
            fine, coarse, _ = kernel_keys(state.core_state, game.rules, know, seat, True)
            codes_fine, _, _ = kernel_keys(state.core_state, game.rules, know, seat, False)
            codes_keys.add(codes_fine)
            classes_keys.add(fine)
            coarse_keys.add(coarse)
    assert len(coarse_keys) < len(classes_keys) < len(codes_keys)


def test_fine_key_settings_are_checked():
    with pytest.raises(MCCFRError, match="unknown fine key 'cards'.*codes, classes"):
        MCCFRConfig(STANDARD12, coarse_actions="letters", fine_key="cards")
    with pytest.raises(MCCFRError, match="refines letters.*--coarse-actions letters"):
        MCCFRConfig(STANDARD12, fine_key="classes")


def test_training_on_the_classes_fine_key_is_reproducible_resumes_and_is_played():
    config = MCCFRConfig(STANDARD12, batch_iterations=40, seed=5, coarse_actions="letters",
                         fine_key="classes", fine_visits=5)
    resumed = assert_reproducible_resumable_and_distinct(config, fine_key="codes")
    assert resumed.counters()["mismatch"] == 0
    # The agent reads the fine entries the trainer made: in self-play some decisions
    # land on a fine entry; the same table read with the codes key finds none of them.
    agent = trained_agent(resumed)
    assert agent.params[ka.P_FINE_CLASSES] == 1
    misread = dataclasses.replace(agent, params=agent.params.copy())
    misread.params[ka.P_FINE_CLASSES] = 0
    levels = [t.level[:t.entries] for t in resumed.tables]
    keys = [t.keys[:t.entries] for t in resumed.tables]
    fine_hits = {True: 0, False: 0}
    game = game_def.load_game(str(STANDARD12))
    rng = np.random.default_rng(2)
    actions = np.zeros(k.MAX_LEGAL, np.int64)
    probs = np.zeros(k.MAX_LEGAL, np.float64)
    for _ in range(60):
        for state, _know in decisions(game, rng):
            seat = state.current_player()
            history = np.array(state.history(), dtype=np.int64)
            for right, reader in ((True, agent), (False, misread)):
                _, e = ka._replay_probs(game.rules, history, reader.player(seat), actions,
                                        probs)
                if e >= 0:
                    key = reader.tables[seat][1][e]
                    level = levels[seat][np.flatnonzero(keys[seat] == key)[0]]
                    fine_hits[right] += level == ab.FINE and twin_classes(state, seat) is not None
    assert fine_hits[True] > 0 and fine_hits[False] == 0


def test_cli_records_the_fine_key_and_every_loader_plays_it(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--algo", "mccfr",
        "--iterations", "400", "--coarse-actions", "letters", "--fine-key", "classes",
        "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["algorithm"]["fine_key"] == "classes"
    agent = load_table_agent(out)
    assert agent.params[ka.P_FINE_CLASSES] == 1
    report = exploit(agent, iterations=400, rounds=2000, batch=200, workers=1)
    assert np.isfinite(report.gain)
    result = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--algo", "mccfr",
        "--iterations", "200", "--fine-key", "classes", "--out", str(tmp_path / "bad")])
    assert result.exit_code != 0 and "--coarse-actions letters" in result.output
    assert "Traceback" not in result.output
