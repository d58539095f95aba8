"""League opponents in Monte Carlo CFR training (MCCFRConfig.league_opponents,
docs/mccfr.md, "League opponents"): a share of traversals meets a league player
instead of the opponent's table. Checked by exact values on rspx:max_turns=4."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from robinwood.cli import cli
from solver.evaluation.abstraction_cost import exact_match_value, project
from solver.exact.best_response import exploitability
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.mccfr import kernels as mc
from solver.mccfr.trainer import MCCFRConfig, MCCFRError, MCCFRSolver
from solver.players.agents import bot, trained_agent

RSPX4 = game_def.parse("rspx:max_turns=4")


@pytest.fixture(scope="module")
def rspx4_tree():
    return build_robinwood_tree(RSPX4, symmetric=False)


def _gain(tree, agent, opponent) -> float:
    """`agent`'s exact seat-averaged payoff against `opponent`."""
    return (exact_match_value(agent, opponent, RSPX4, tree)
            - exact_match_value(opponent, agent, RSPX4, tree)) / 2


@pytest.mark.parametrize("name", ["leader_bluffer", "truthful_challenger"])
def test_a_table_trained_against_a_league_player_best_responds_to_it(rspx4_tree, name):
    # 20,000 traversals per seat, 95% of them against `name`. Measured (seed 0): the
    # league-trained table gains 1.000 against leader_bluffer and 0.333 against the
    # truthful challenger, their exact best-response values (1.0 and 1/3); the
    # self-play table of the same length gains 0.746 and 0.143.
    opponent = bot(name)
    best = exploitability(rspx4_tree, project(opponent, RSPX4, rspx4_tree)).exploitability
    gains = {}
    for share in (0.0, 0.95):
        league = dict(league_opponents=(name,), league_share=share) if share else {}
        solver = MCCFRSolver(MCCFRConfig(RSPX4, workers=1, seed=0, **league))
        solver.run(100)
        gains[share] = _gain(rspx4_tree, trained_agent(solver), opponent)
    assert gains[0.95] <= best + 1e-9
    assert gains[0.95] >= 0.95 * best, (gains, best)
    assert gains[0.95] > gains[0.0] + 0.1, gains


def test_league_traversals_leave_the_opponents_average_strategy_alone():
    config = MCCFRConfig(RSPX4, workers=1, batch_iterations=50,
                         league_opponents=("silent",), league_share=0.5)
    solver = MCCFRSolver(config)
    solver.run(1)
    solver.cfg[mc.CFG_LEAGUE_SHARE] = 1.0      # every traversal meets the league
    solver.tables[0].ssum[:] = 0.0
    solver.tables[1].ssum[:] = 0.0
    solver.run(2)
    for t in solver.tables:
        assert not t.ssum[:t.action_slots].any()        # nobody's average moved
        assert t.regret[:t.action_slots].any()           # but the traversers learned


def test_league_runs_are_reproducible_and_resume_exactly():
    config = dict(batch_iterations=40, league_opponents=("tempo", "baiter"),
                  league_share=0.3)
    variant = game_def.parse("duel8:max_turns=5")
    a = MCCFRSolver(MCCFRConfig(variant, workers=2, **config))
    a.run(4)
    b = MCCFRSolver(MCCFRConfig(variant, workers=1, **config))
    b.run(2)
    b = MCCFRSolver.from_state_arrays(MCCFRConfig(variant, workers=1, **config),
                                      b.state_arrays())
    b.run(2)
    plain = MCCFRSolver(MCCFRConfig(variant, workers=1, batch_iterations=40))
    plain.run(4)
    for ta, tb, tp in zip(a.tables, b.tables, plain.tables):
        assert ta.entries == tb.entries > 0
        assert np.array_equal(ta.regret[:ta.action_slots], tb.regret[:tb.action_slots])
        assert np.array_equal(ta.ssum[:ta.action_slots], tb.ssum[:tb.action_slots])
        assert not (ta.entries == tp.entries and np.array_equal(
            ta.regret[:ta.action_slots], tp.regret[:tp.action_slots]))


@pytest.mark.parametrize("kwargs, match", [
    (dict(league_opponents=("tempo",)), "go together"),
    (dict(league_share=0.2), "go together"),
    (dict(league_opponents=("bogus",), league_share=0.2), "unknown league opponent 'bogus'"),
    (dict(league_opponents=("tempo", "tempo"), league_share=0.2), "repeat"),
    (dict(league_opponents=("tempo",), league_share=1.0), r"\[0, 1\)"),
    (dict(league_opponents="tempo", league_share=0.2), "tuple of names"),
])
def test_bad_league_settings_get_one_clear_error(kwargs, match):
    with pytest.raises(MCCFRError, match=match):
        MCCFRConfig(RSPX4, **kwargs)


def test_cli_trains_against_league_opponents_and_records_them(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--algo", "mccfr",
        "--iterations", "200", "--league-opponents", "tempo, silent",
        "--league-share", "0.25", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["algorithm"]["league_opponents"] == ["tempo", "silent"]
    assert meta["algorithm"]["league_share"] == 0.25
    result = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--iterations", "5",
        "--league-share", "0.25", "--out", str(tmp_path / "exact")])
    assert result.exit_code == 2 and "--league-share" in result.output
