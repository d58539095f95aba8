"""Monte Carlo CFR, agents, tournaments and exploiters, checked against exact answers
on decks small enough for the exact solver."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from open_spiel.python.algorithms import exploitability as os_exploitability

import game_def
from robinwood.cli import cli
from solver import load_strategy
from solver.evaluation.abstraction_cost import exact_evaluation, exact_match_value, project
from solver.exact.best_response import expected_value
from solver.players.agents import AgentError, AgentPolicy, bot, load_agent, table_agent, trained_agent
from solver.evaluation.exploiter import exploit
from solver.mccfr.trainer import MCCFRConfig, MCCFRError, MCCFRSolver
from solver.mccfr.job import solve_mccfr
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.exact.job import solve
from solver.exact.cfr import algorithm
from solver.exact.job import SolveConfig
from solver.evaluation.tournament import head_to_head

RSPX2 = game_def.parse("rspx:max_turns=2")
RSPX4 = game_def.parse("rspx:max_turns=4")


def _agent(solver: MCCFRSolver, variant) -> object:
    assert solver.config.variant == variant
    return trained_agent(solver)


def _plain_es(variant, **kw) -> MCCFRConfig:
    """Plain external sampling (every traverser action expanded, no pruning), one
    worker, the fine level played from its first update (on reduced decks the fine
    key loses little: docs/abstraction.md)."""
    return MCCFRConfig(variant, batch_iterations=100, max_branching=1 << 40, workers=1,
                       prune_probability=0.0, levels="fine", fine_visits=1, **kw)


CLEAN = {"overflow": 0, "mismatch": 0, "depth_cut": 0}


@pytest.fixture(scope="module")
def rspx4_tree():
    """The exact (non-symmetric) tree of rspx:max_turns=4: exact match values."""
    return build_robinwood_tree(RSPX4, symmetric=False)


def _within(sample: float, half_width_95: float, exact: float) -> bool:
    """A sampled value agrees with the exact one within 4.5 sigma (2.3 half-widths)."""
    return abs(sample - exact) <= 2.3 * half_width_95 + 1e-12


def _clean(solver) -> dict:
    return {name: solver.counters()[name] for name in CLEAN}


@pytest.fixture(scope="module")
def exact_rspx2(tmp_path_factory):
    out = tmp_path_factory.mktemp("exact")
    cfg = SolveConfig(variant=RSPX2, algo=algorithm("dcfr"), out=out,
                      target_exploitability=1e-6, max_iterations=2000)
    return solve(cfg)


def test_mccfr_converges_towards_the_exact_value(exact_rspx2):
    solver = MCCFRSolver(_plain_es(RSPX2, weighting="linear"))
    early = None
    for batches in (5, 195):
        solver.run(batches)
        cost = exact_evaluation(_agent(solver, RSPX2))
        assert cost.inconsistent_infosets == 0
        early = early or cost.exploitability
    # 20,000 traversals per seat: within 0.01 of equilibrium, and far better than at 500.
    # Measured on these settings, seeds 0-3: 0.0075, 0.0031, 0.0041, 0.0032 after 20,000
    # (0.213, 0.140, 0.167, 0.087 after 500: at least 27 times better); this seed is 0.
    assert cost.exploitability < 0.01, cost
    assert cost.exploitability < early / 15
    assert abs(cost.value - exact_rspx2["value"]) < 0.02
    assert _clean(solver) == CLEAN
    assert solver.counters()["probes"] == 0      # nothing was left to probe


def test_probe_sampling_with_both_levels_learns_on_rspx4():
    # The defaults (probe sampling past 16 expanded branchings, no pruning, fine level
    # after 200 updates). Measured with these settings after 40,000 traversals per seat,
    # seeds 0-4: exploitability 0.0275, 0.0345, 0.0354, 0.0290, 0.0405 and value +0.299,
    # +0.294, +0.297, +0.296, +0.294 (the exact equilibrium's exploitability is 0,
    # uniform play's 0.76): the bound is 1.6 times the worst seed.
    solver = MCCFRSolver(MCCFRConfig(RSPX4, workers=1, seed=3))
    solver.run(200)                                 # 40,000 traversals per seat
    cost = exact_evaluation(_agent(solver, RSPX4))
    assert cost.exploitability < 0.065, cost
    assert abs(cost.value - 1 / 3) < 0.05         # the game value is +1/3 for seat 0
    counters = solver.counters()
    assert counters["probes"] > 0 and counters["pruned"] == 0
    assert _clean(solver) == CLEAN
    assert solver.level_counts()["fine_ready"] > 0
    pruning = MCCFRSolver(MCCFRConfig(RSPX4, workers=1, seed=3, prune_probability=0.9))
    pruning.run(5)
    assert pruning.counters()["pruned"] > 0


def test_the_projection_agrees_with_openspiel_exploitability():
    solver = MCCFRSolver(_plain_es(RSPX2))
    solver.run(3)
    agent = _agent(solver, RSPX2)
    game = game_def.load_game(RSPX2)
    ours = exact_evaluation(agent).exploitability
    theirs = os_exploitability.exploitability(game, AgentPolicy(game, agent))
    assert ours == pytest.approx(theirs, abs=1e-9)


def test_two_workers_one_worker_and_resume_give_identical_tables():
    variant = game_def.parse("duel8:max_turns=5")
    for levels in ("fine", "coarse"):
        cfg = dict(batch_iterations=40, levels=levels, fine_visits=5)
        a = MCCFRSolver(MCCFRConfig(variant, workers=2, **cfg))
        a.run(4)
        b = MCCFRSolver(MCCFRConfig(variant, workers=1, **cfg))
        b.run(2)
        b = MCCFRSolver.from_state_arrays(MCCFRConfig(variant, workers=1, **cfg),
                                          b.state_arrays())
        b.run(2)
        for ta, tb in zip(a.tables, b.tables):
            assert ta.entries == tb.entries > 0
            for name in ("keys", "offset", "nact", "visits", "level"):
                assert np.array_equal(getattr(ta, name)[:ta.entries],
                                      getattr(tb, name)[:tb.entries])
            assert np.array_equal(ta.regret[:ta.action_slots], tb.regret[:tb.action_slots])
            assert np.array_equal(ta.ssum[:ta.action_slots], tb.ssum[:tb.action_slots])
        c = MCCFRSolver(MCCFRConfig(variant, workers=2, seed=1, **cfg))
        c.run(4)
        assert not np.array_equal(c.tables[0].regret[:100], a.tables[0].regret[:100])


def test_checkpoint_resume_through_the_job_equals_an_uninterrupted_run(tmp_path):
    cfg = MCCFRConfig(RSPX4, batch_iterations=50, seed=7)
    solve_mccfr(cfg, tmp_path / "whole", max_iterations=400)
    solve_mccfr(cfg, tmp_path / "split", max_iterations=200)
    solve_mccfr(cfg, tmp_path / "split", max_iterations=400, resume=True)
    whole = np.load(tmp_path / "whole" / "table.npz")
    split = np.load(tmp_path / "split" / "table.npz")
    assert sorted(whole.files) == sorted(split.files)
    for name in whole.files:
        assert np.array_equal(whole[name], split[name]), name
    meta = json.loads((tmp_path / "split" / "metadata.json").read_text())
    assert meta["iterations"] == 400 and meta["kind"] == "mccfr"
    with pytest.raises(MCCFRError, match="--resume"):
        solve_mccfr(cfg, tmp_path / "whole", max_iterations=10)
    with pytest.raises(MCCFRError, match="not"):
        solve_mccfr(MCCFRConfig(RSPX4, batch_iterations=50, seed=8), tmp_path / "whole",
                    max_iterations=800, resume=True)


def test_tournament_agrees_with_exact_values_within_its_interval(rspx4_tree):
    tree = rspx4_tree
    a, b = bot("heuristic"), bot("honest")
    exact_a_first = exact_match_value(a, b, RSPX4, tree)
    exact_b_first = exact_match_value(b, a, RSPX4, tree)
    result = head_to_head(RSPX4, a, b, rounds=20_000, seed=5)
    lo, hi = result.seats[0].value_interval()
    assert lo <= exact_a_first <= hi
    lo, hi = result.seats[1].value_interval()
    assert lo <= -exact_b_first <= hi
    # and the same seed reproduces it
    again = head_to_head(RSPX4, a, b, rounds=20_000, seed=5)
    assert again.to_json() == result.to_json()


def test_bots_play_as_documented():
    game = game_def.load_game(RSPX4)
    honest, paranoid = AgentPolicy(game, bot("honest")), AgentPolicy(game, bot("paranoid"))
    heuristic = AgentPolicy(game, bot("heuristic", bluff=0.0))
    peeked = game_def.play(game, "peek 0", "deal Robin")
    assert _named(game, peeked, honest) == {"announce Robin": 1.0}
    peasant = game_def.play(game, "peek 0", "deal Peasant")
    assert _named(game, peasant, honest) == {"silent": 1.0}
    claim = game_def.play(game, "peek 0", "deal Peasant", "announce Robin")
    assert _named(game, claim, honest) == {"pass": 1.0}
    assert _named(game, claim, paranoid) == {"challenge": 1.0}
    # seat 1 peeked position 1 (Robin) earlier: a Robin claim elsewhere is a lie
    seen = game_def.play(game, "peek 0", "deal Peasant", "silent", "peek 1", "deal Robin",
                         "silent", "peek 2", "deal Sheriff", "announce Robin")
    assert _named(game, seen, heuristic) == {"challenge": 1.0}
    bluffer = AgentPolicy(game, bot("heuristic", bluff=0.5))
    assert _named(game, peasant, bluffer) == {"silent": 0.5, "announce Robin": 0.25,
                                               "announce Sheriff": 0.25}


def _named(game, state, policy):
    probs = policy.action_probabilities(state)
    assert sum(probs.values()) == pytest.approx(1.0)
    assert set(probs) == set(state.legal_actions())
    return {state.action_to_string(state.current_player(), a): p
            for a, p in probs.items() if p > 0}


def test_load_strategy_reads_an_mccfr_run_as_an_openspiel_policy(tmp_path):
    solve_mccfr(MCCFRConfig(RSPX4, batch_iterations=50), tmp_path, max_iterations=200)
    policy = load_strategy(tmp_path)
    state = game_def.play(policy.game, "peek 2", "deal Sheriff")
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert sum(probs.values()) == pytest.approx(1.0)
    assert (policy.table_decisions, policy.unlearned) == (1, 0)
    # a table without entries answers uniformly, and says so
    nothing = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
               np.zeros(1, np.float32))
    empty = AgentPolicy(policy.game, table_agent("empty", RSPX4, [nothing, nothing]))
    probs = empty.action_probabilities(state)
    assert list(probs.values()) == pytest.approx([1.0 / len(probs)] * len(probs))
    assert (empty.table_decisions, empty.unlearned) == (1, 1)
    with pytest.raises(Exception, match="trained for"):
        load_strategy(tmp_path, game=game_def.load_game("rspx:max_turns=5"))
    (tmp_path / "table.npz").write_bytes(b"not a table")
    with pytest.raises(Exception, match="corrupt"):
        load_strategy(tmp_path)


def test_exploiter_finds_the_holes_of_a_weak_strategy():
    # a strategy trained for a few hundred traversals is far from equilibrium: the
    # exploiter's gain must be positive and no more than the exact exploitability
    solver = MCCFRSolver(_plain_es(RSPX2))
    solver.run(2)
    agent = _agent(solver, RSPX2)
    exact = exact_evaluation(agent).exploitability
    report = exploit(agent, iterations=4000, rounds=20_000, seed=1, batch=200)
    assert report.gain > 0.02
    assert report.gain <= exact + 3 * report.half_width


def test_bad_agent_and_config_input_gets_one_clear_error():
    with pytest.raises(AgentError, match="neither a bot"):
        load_agent("grumpy")
    with pytest.raises(AgentError, match="not a number"):
        load_agent("heuristic:bluff=lots")
    with pytest.raises(MCCFRError, match="two-player"):   # lock selectors read two seats
        MCCFRConfig(game_def.parse("standard:players=3"),
                    locks=("respond claim=Monk: pass=1",))
    with pytest.raises(MCCFRError, match="held out"):
        MCCFRConfig(RSPX2, league_opponents=("careful",), league_share=0.5)
    with pytest.raises(MCCFRError, match="levels"):
        MCCFRConfig(RSPX2, levels="psychic")
    runner = CliRunner()
    result = runner.invoke(cli, ["solve", "--deck", "rspx", "--algo", "mccfr", "--out",
                                 "/tmp/never-written"])
    assert result.exit_code == 2 and "budget" in result.output
    assert "Traceback" not in result.output


def test_cli_trains_and_plays_a_tournament(tmp_path, rspx4_tree):
    runner = CliRunner()
    out = tmp_path / "run"
    result = runner.invoke(cli, ["solve", "--variant", "rspx:max_turns=4", "--algo", "mccfr",
                                 "--iterations", "1000", "--workers", "1", "--out", str(out),
                                 "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["iterations"] >= 1000 and summary["infosets"] > 0
    result = runner.invoke(cli, ["tournament", str(out), "honest", "--rounds", "2000",
                                 "--json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)
    # the trained table's value against honest in each seat, exactly, on the full tree
    trained, honest = load_agent(str(out)), bot("honest")
    exact = (exact_match_value(trained, honest, RSPX4, rspx4_tree),
             -exact_match_value(honest, trained, RSPX4, rspx4_tree))
    for seat, row in enumerate(table["seats"]):
        assert row["seat"] == seat
        assert _within(row["value"], (row["value_hi"] - row["value_lo"]) / 2, exact[seat]), (
            row, exact)
        assert row["value"] == pytest.approx(row["win_rate"] - row["loss_rate"])
    result = runner.invoke(cli, ["tournament", "honest", "paranoid"])
    assert result.exit_code == 2 and "variant" in result.output


def test_bots_are_openspiel_bots(rspx4_tree):
    import pyspiel

    from solver.players.agents import agent_bot

    # Rounds through pyspiel.evaluate_bots: seat 0's mean payoff must be the exact
    # value of heuristic against honest, +0.128 (exact_match_value); a bot playing
    # uniformly instead in seat 0 or 1 (exact -0.431, +0.747) misses it by far more
    # than the 4.5 sigma allowed (about 0.14 at 1,000 rounds).
    exact = exact_match_value(bot("heuristic"), bot("honest"), RSPX4, rspx4_tree)
    game = game_def.load_game(RSPX4)
    rounds = 1000
    payoffs = np.zeros(rounds)
    for seed in range(rounds):
        bots = [agent_bot(game, 0, bot("heuristic"), seed), agent_bot(game, 1, bot("honest"),
                                                                       seed + rounds)]
        payoffs[seed] = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)[0]
    half_width = 1.96 * payoffs.std() / math.sqrt(rounds)
    assert _within(payoffs.mean(), half_width, exact), (payoffs.mean(), exact)
    assert set(payoffs) <= {-1.0, 0.0, 1.0}


def test_cli_exploit_reports_every_opponent_and_the_strongest_held_out(tmp_path,
                                                                       rspx4_tree):
    solve_mccfr(MCCFRConfig(RSPX4, batch_iterations=50), tmp_path, max_iterations=100)
    result = CliRunner().invoke(cli, ["exploit", str(tmp_path), "--iterations", "500",
                                      "--rounds", "2000", "--lbr-rounds", "300", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert json.loads((tmp_path / "strength.json").read_text()) == report
    # the strategy measured is the run's as every command plays it: its table, and the
    # sound default at every claim and response and where it has not learned
    assert report["fallback"] == {"player": "sound", "visits": "all", "turn_visits": 1000}
    gains = {o["opponent"]: o["gain"] for o in report["opponents"]}
    assert {"uniform", "honest", "paranoid", "heuristic", "exploiter",
            "local best response (baiter)", "local best response (tempo)",
            "local best response (self)"} <= set(gains)
    assert len(gains) >= 10                      # the league's players too
    # the strongest is chosen on these rounds; the stated bound is its gain replayed on
    # as many fresh rounds from another seed (the largest gain itself overstates)
    assert gains[report["strongest"]] == max(gains.values()) == report["selection_gain"]
    holdout = report["holdout"]
    assert report["bound_method"] == "held-out"
    assert report["exploitability_lower_bound"] == holdout["gain"]
    assert holdout["opponent"] == report["strongest"]
    assert holdout["rounds"] == (300 if holdout["method"] == "local best response" else 2000)
    assert holdout["seed"] >= 2**31
    assert report["simultaneous"]["candidates"] == len(gains)
    # 100 traversals a seat leave a weak strategy: somebody beats it clearly
    assert report["exploitability_lower_bound"] > 0.05
    # Each baseline bot's reported gain is its exact gain on the full tree,
    # (v(bot first) - v(strategy first)) / 2, within the reported interval's 4.5 sigma
    # (the league's gains are checked so in test_league.py); every gain, the maximum
    # included, is at most the exact exploitability.
    strategy = load_agent(str(tmp_path))
    exploitability = exact_evaluation(strategy, tree=rspx4_tree).exploitability
    assert holdout["gain_lo"] <= exploitability
    tree = rspx4_tree
    mine = project(strategy, RSPX4, tree)
    seat = np.repeat(tree.infoset_player, tree.infoset_num_actions)
    for row in report["opponents"]:
        half_width = (row["gain_hi"] - row["gain_lo"]) / 2
        assert row["gain"] <= exploitability + 2.3 * half_width, (row, exploitability)
        if row["method"] == "bot":
            other = project(load_agent(row["opponent"]), RSPX4, tree)
            exact = (expected_value(tree, np.where(seat == 0, other, mine))
                     - expected_value(tree, np.where(seat == 0, mine, other))) / 2
            assert _within(row["gain"], half_width, exact), (row, exact)
    selfplay = {row["decision"]: row for row in report["coverage"]["self-play"]}
    assert selfplay["all"]["decisions"] > 0
    result = CliRunner().invoke(cli, ["exploit", str(tmp_path), "--minutes", "-1"])
    assert result.exit_code == 2 and "--minutes" in result.output
    result = CliRunner().invoke(cli, ["exploit", str(tmp_path), "--holdout-rounds", "0"])
    assert result.exit_code == 2 and "--holdout-rounds" in result.output


def test_coverage_counts_each_decision_by_the_entry_it_lands_on():
    """Coverage on a table built so that the answer is known: an entry for the fine key
    of every decision of the exact tree, trained (visits at the threshold) for turn
    decisions, thin (one fewer) after a peek, and none for respond decisions. Every
    table decision of a tournament must then land in exactly its class."""
    from game_def import _core as k
    from decision_keys import decisions_with_fine_keys

    entries = [{}, {}]                    # seat -> fine key -> (phase, abstract actions)
    for state, fine, count in decisions_with_fine_keys(RSPX2):
        entries[state.current_player()][fine] = (int(state.core_state[k.S_PHASE]), count)
    threshold = 10
    tables, visits = [], []
    for seat in (0, 1):
        kept = [(key, n, threshold if phase == k.PH_TURN else threshold - 1)
                for key, (phase, n) in entries[seat].items() if phase != k.PH_RESPOND]
        nact = np.array([n for _, n, _ in kept], dtype=np.int64)
        offset = np.concatenate([[0], np.cumsum(nact)[:-1]]).astype(np.int64)
        probs = np.concatenate([np.full(n, 1.0 / n) for n in nact]).astype(np.float32)
        tables.append((np.array([key for key, _, _ in kept]), offset, nact, probs))
        visits.append(np.array([v for _, _, v in kept]))
    built = table_agent("built", RSPX2, tables, visits, threshold)
    result = head_to_head(RSPX2, built, bot("uniform"), rounds=3000, seed=4)
    cov = result.coverage_table(0)
    assert cov.loc["turn", "learned"] == 1.0
    assert cov.loc["after peek", "thin"] == 1.0
    assert cov.loc["respond", "unlearned"] == 1.0
    assert cov.loc["turn", "decisions"] > 3000 and cov.loc["respond", "decisions"] > 100
    assert result.coverage[1].sum() == 0            # the bot has no table
