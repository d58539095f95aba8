"""Exact reach-weighted statistics against a brute-force walk of OpenSpiel states."""

from __future__ import annotations

import numpy as np
import pytest

import game_def
from analysis import profile_statistics, profile_statistics_from_run
from game_def.characters import Character
from solver.exact.cfr import CFRSolver, algorithm
from solver.exact.policy import StrategyPolicy
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.exact.job import SolveConfig, solve
from solver.exact.symmetry import PositionSymmetry
from solver.strategies import load_strategy

SILENT = len(Character)


def brute_force(game, policy):
    """The same masses, by recursion over pyspiel states and the policy (slow, obvious)."""
    c = len(Character)
    announce = np.zeros((2, c, c + 1))
    challenge = np.zeros((c, 2, 2))
    outcome = np.zeros(3)

    def last(state, verb):
        for step in reversed(state.full_history()):
            if step.player < 0:
                continue  # chance
            text = state.action_to_string(step.player, step.action)
            if text.startswith(verb):
                return text.split(" ", 1)[1]
        raise AssertionError(verb)

    def walk(state, reach):
        if state.is_terminal():
            r = state.returns()
            outcome[0 if r[0] > 0 else 1 if r[1] > 0 else 2] += reach
            return
        if state.is_chance_node():
            for a, p in state.chance_outcomes():
                walk(state.child(a), reach * p)
            return
        probs = policy.action_probabilities(state)
        words = [state.action_to_string(a) for a in state.legal_actions()]
        if "challenge" in words:
            said = Character[last(state, "announce ").upper()]
            pos = int(last(state, "peek ").split()[0])
            true = int(state.cards[pos] == said.label)
            for a in state.legal_actions():
                challenge[said, true, int(state.action_to_string(a) == "challenge")] += \
                    reach * probs[a]
        elif any(w.startswith("announce") for w in words):
            pos = int(last(state, "peek ").split()[0])
            card = Character[state.cards[pos].upper()]
            seat = state.current_player()
            for a in state.legal_actions():
                w = state.action_to_string(a)
                col = SILENT if w == "silent" else Character[w.split()[1].upper()]
                announce[seat, card, col] += reach * probs[a]
        for a in state.legal_actions():
            if probs[a] > 0:
                walk(state.child(a), reach * probs[a])

    walk(game.new_initial_state(), 1.0)
    return announce, challenge, outcome


@pytest.mark.parametrize("spec, symmetric", [
    ("rspx:max_turns=2", False),
    ("rspx:max_turns=2", True),
    ("Robin+Trickster+Sheriff+Traitor:max_turns=2", True),
])
def test_masses_equal_a_brute_force_walk(spec, symmetric):
    variant = game_def.parse(spec)
    game = game_def.load_game(variant)
    tree = build_robinwood_tree(variant, symmetric=symmetric)
    solver = CFRSolver(tree, "dcfr")
    solver.step(40)
    strategy = solver.average_strategy()
    stats = profile_statistics(variant, tree, strategy, symmetric)
    policy = StrategyPolicy.from_tree(game, tree, strategy,
                                      PositionSymmetry(variant) if symmetric else None)
    announce, challenge, outcome = brute_force(game, policy)
    np.testing.assert_allclose(stats.announce_mass, announce, atol=1e-12)
    np.testing.assert_allclose(stats.challenge_mass, challenge, atol=1e-12)
    np.testing.assert_allclose(stats.outcome, outcome, atol=1e-12)


def test_tables_are_distributions_and_agree_with_the_solver(tmp_path):
    summary = solve(SolveConfig(game_def.parse("rspx:max_turns=3"), algorithm("pcfr+"),
                                tmp_path, max_iterations=300))
    stats = profile_statistics_from_run(tmp_path)
    matrix = stats.announcement_matrix()
    probs = matrix.drop(columns="reach")
    reached = matrix["reach"] > 0
    np.testing.assert_allclose(probs[reached].sum(axis=1), 1.0, atol=1e-12)
    assert stats.outcome.sum() == pytest.approx(1.0)
    assert stats.length.sum() == pytest.approx(1.0)
    assert stats.outcomes()["seat0_value"][0] == pytest.approx(summary["value"], abs=1e-12)
    # The rates, per announced character, against the brute-force walk of the stored
    # strategy as an OpenSpiel policy: P(challenge | announced) and P(the peeked card
    # is another character | announced).
    announce, challenge, _ = brute_force(game_def.load_game(summary["variant"]),
                                         load_strategy(tmp_path))
    rates = stats.challenge_rates()
    bluffs = stats.bluff_rates()
    compared = 0
    for c in game_def.parse(summary["variant"]).announceable:
        offered = challenge[c].sum()
        if offered > 0:
            assert rates.loc[c.label, "challenge_rate"] == pytest.approx(
                challenge[c, :, 1].sum() / offered, abs=1e-9)
        said = announce[:, :, c].sum()
        if said > 0:
            assert bluffs.loc[c.label, "bluff_rate"] == pytest.approx(
                1 - announce[:, c, c].sum() / said, abs=1e-9)
            compared += 0 < bluffs.loc[c.label, "bluff_rate"] < 1
    assert compared >= 2          # rates strictly between 0 and 1 were compared
    assert rates.loc["all", "challenge_rate"] == pytest.approx(
        challenge[..., 1].sum() / challenge.sum(), abs=1e-9)
    # The Trickster is never announced and the Traitor is never peeked silently here.
    assert "Trickster" not in matrix.columns and "Traitor" not in matrix.index


def test_a_hand_checked_case_peeking_the_peasant_on_a_forced_deal():
    """Fixed deal, one turn, uniform strategy: seat 0 peeks one of the 3 face-down
    positions (the Traitor is face up and cannot be used), each with probability 1/3,
    then says nothing or announces Robin, Sheriff or Peasant, each 1/4."""
    variant = game_def.parse("rspx:layout=Robin+Sheriff+Peasant+Traitor,max_turns=1")
    tree = build_robinwood_tree(variant)
    from solver.exact.tree import uniform_strategy
    stats = profile_statistics(variant, tree, uniform_strategy(tree))
    # Seat 0's first move: peek 0, 1 or 2 (the Traitor is face up and cannot be used),
    # each 1/3; after a peek: silent or one of 3 announcements, each 1/4.
    peasant_row = stats.announce_mass[0, Character.PEASANT]
    assert peasant_row[SILENT] == pytest.approx(1 / 3 * 1 / 4)
    assert peasant_row[Character.ROBIN] == pytest.approx(1 / 12)
    assert stats.announce_mass[0].sum() == pytest.approx(1.0)


def test_cli_stats_prints_the_tables_and_json(tmp_path):
    import json

    from click.testing import CliRunner

    from robinwood.cli import cli

    solve(SolveConfig(game_def.parse("rspx:max_turns=2"), algorithm("dcfr"), tmp_path,
                      max_iterations=50))
    text = CliRunner().invoke(cli, ["stats", str(tmp_path)])
    assert text.exit_code == 0, text.output
    assert "announcement matrix" in text.output and "challenge_rate" in text.output
    data = CliRunner().invoke(cli, ["stats", str(tmp_path), "--json"])
    tables = json.loads(data.output)
    assert tables["variant"] == "rspx:max_turns=2"
    outcomes = next(v for k, v in tables.items() if k.startswith("outcomes"))
    assert abs(outcomes["0"]["seat0_wins"] + outcomes["0"]["seat1_wins"]
               + outcomes["0"]["draws"] - 1) < 1e-9
    missing = CliRunner().invoke(cli, ["stats", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "metadata.json is missing" in missing.output
