"""Play-time search (solver.search) checked where answers are known: tilted blueprints
against a plain-Python twin read from action strings, a searcher that searches nothing
plays its blueprint's exact value, a searcher whose model is its real opponent gains
between 0 and that opponent's exact exploitability, the OpenSpiel bot's legality and
reproducibility, and bad input."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from robinwood.cli import cli
from solver.evaluation.abstraction_cost import exact_evaluation, exact_match_value
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.mccfr import MCCFRConfig, MCCFRSolver
from solver.players import kernels as ka
from solver.players import trained_agent
from solver.players.agents import AgentError, AgentPolicy, bot
from solver.search import SearchConfig, Searcher, play_search, search_action
from solver.search.bot import SearchBot
from solver.search.searcher import TILT_ACTIONS

RSPX3 = game_def.parse("rspx:max_turns=3")
FAST = dict(particles=48, rollouts=12)


@pytest.fixture(scope="module")
def blueprint():
    """A weak Monte Carlo CFR table on rspx:max_turns=3 (300 traversals a seat): far
    from equilibrium, so there is something for a search to find."""
    trainer = MCCFRSolver(MCCFRConfig(RSPX3, batch_iterations=100, workers=1, seed=4))
    trainer.run(3)
    return trained_agent(trainer)


@pytest.fixture(scope="module")
def tree():
    return build_robinwood_tree(RSPX3, symmetric=False)


# ----- tilts: the biased continuations -------------------------------------------------
def _tilted(agent, action, factor):
    params = agent.params.copy()
    params[ka.P_TILT_ACTION] = TILT_ACTIONS[action]
    params[ka.P_TILT_FACTOR] = factor
    return dataclasses.replace(agent, name=agent.name + "~", params=params)


@pytest.mark.parametrize("action", ["challenge", "announce", "silent", "pass"])
def test_a_tilt_multiplies_one_action_and_renormalises(blueprint, action):
    """Twin: the untilted policy's probabilities, the tilted action found by its
    OpenSpiel action string, multiplied by the factor and renormalised."""
    game = game_def.load_game(RSPX3)
    plain = AgentPolicy(game, blueprint)
    tilted = AgentPolicy(game, _tilted(blueprint, action, 7.0))
    rng = np.random.default_rng(0)
    hits = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            p = plain.action_probabilities(state)
            q = tilted.action_probabilities(state)
            w = {a: v * (7.0 if state.action_to_string(state.current_player(), a)
                         .split(" ")[0] == action else 1.0) for a, v in p.items()}
            total = sum(w.values())
            for a in p:
                assert q[a] == pytest.approx(w[a] / total, abs=1e-12)
            hits += any(w[a] != p[a] for a in p)
            actions = list(p)
            state.apply_action(int(rng.choice(actions, p=[p[a] for a in actions])))
    assert hits > 10   # the twin met the tilted action, so the comparison meant something


# ----- a searcher that searches nothing is its blueprint --------------------------------
def test_searching_no_decision_plays_the_blueprint(blueprint, tree):
    exact = (exact_match_value(blueprint, bot("honest"), RSPX3, tree)
             - exact_match_value(bot("honest"), blueprint, RSPX3, tree)) / 2
    result = play_search(Searcher(blueprint, SearchConfig(kinds=(), **FAST)), bot("honest"),
                         rounds=3000, seed=1)
    assert result.seats[0].counters["decisions"] == 0
    assert abs(result.value - exact) < 1.5 * result.half_width, (exact, result.to_json())


# ----- with its real opponent as the model, the search is a legitimate best response ----
def test_with_the_true_model_its_gain_lies_between_zero_and_the_exploitability(blueprint,
                                                                               tree):
    """A searcher facing its own blueprint models it exactly: its seat-averaged payoff
    (the blueprint's self-play value is 0 by symmetry of the seats' average) is a gain of
    a strategy that acts on its own information only, so at most the blueprint's exact
    exploitability; a lookahead that looks finds a good part of it. A search that read
    hidden cards would beat the bound; one that ignored its rollouts would gain ~0."""
    exact = exact_evaluation(blueprint, RSPX3, tree=tree).exploitability
    config = SearchConfig(model_eps=0.0, tilts=(), kinds=("turn", "after_peek", "respond",
                                                          "power"), **FAST)
    result = play_search(Searcher(blueprint, config), blueprint, rounds=1500, seed=2)
    lo, hi = result.value - result.half_width, result.value + result.half_width
    assert hi <= exact + result.half_width, (exact, result.to_json())
    assert lo > 0.25 * exact, (exact, result.to_json())


def test_same_seed_same_result_on_one_thread_or_two(blueprint):
    searcher = Searcher(blueprint, SearchConfig(**FAST))
    one = play_search(searcher, bot("counter"), rounds=60, seed=5, workers=1).to_json()
    two = play_search(searcher, bot("counter"), rounds=60, seed=5, workers=2).to_json()
    for data in (one, two):
        for seat in data["seats"]:
            seat.pop("seconds")
    assert one == two


# ----- the OpenSpiel bot -------------------------------------------------------------------
def _play(game, bots, seed):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state.history(), state.returns()


def test_the_openspiel_bot_plays_legal_reproducible_rounds(blueprint):
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    game = game_def.load_game(RSPX3)
    searcher = Searcher(blueprint, SearchConfig(**FAST))
    for seed in range(4):
        seat = seed % 2
        bots = {seat: SearchBot(game, seat, searcher, seed=seed),
                1 - seat: UniformRandomBot(1 - seat, np.random.RandomState(seed))}
        first = _play(game, bots, seed)
        bots[1 - seat] = UniformRandomBot(1 - seat, np.random.RandomState(seed))
        assert _play(game, bots, seed) == first


def test_search_action_reads_only_the_seats_information(blueprint):
    """Two histories that differ only in a card the deciding seat has not seen give the
    same action for the same seed."""
    game = game_def.load_game(RSPX3)
    searcher = Searcher(blueprint, SearchConfig(**FAST))
    rng = np.random.default_rng(7)
    compared = 0
    for _ in range(30):
        state = game.new_initial_state()
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        if state.is_terminal():
            continue
        seat = state.current_player()
        # the first decision: the deal is hidden from both, so any deal gives seat the
        # same information; compare two different deals
        other = game.new_initial_state()
        while other.is_chance_node():
            actions, probs = zip(*other.chance_outcomes())
            other.apply_action(int(rng.choice(actions, p=probs)))
        if other.information_state_string(seat) != state.information_state_string(seat):
            continue
        assert search_action(searcher, state.history(), 11) == \
            search_action(searcher, other.history(), 11)
        compared += 1
    assert compared > 10


# ----- bad input ---------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, words", [
    (dict(particles=0), "particles"), (dict(rollouts=True), "rollouts"),
    (dict(model_eps=float("nan")), "model_eps"), (dict(tilts=(("raise", 2.0),)), "tilt"),
    (dict(tilts=(("challenge", 0.0),)), "factor"), (dict(kinds=("turn", "turn")), "kinds"),
    (dict(kinds=("respnd",)), "kinds")])
def test_bad_settings_get_one_clear_error(kwargs, words):
    with pytest.raises(AgentError, match=words):
        SearchConfig(**kwargs)


def test_a_bot_is_no_blueprint():
    with pytest.raises(AgentError, match="search needs a Monte Carlo CFR table"):
        Searcher(bot("honest"))


def test_the_cli_searches_and_writes_search_json(tmp_path):
    out = tmp_path / "run"
    runner = CliRunner()
    result = runner.invoke(cli, ["solve", "--variant", str(RSPX3), "--algo", "mccfr",
                                 "--iterations", "200", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["search", str(out), "honest", "counter", "--rounds", "40",
                                 "--particles", "32", "--rollouts", "8"])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "search.json").read_text())
    assert [r["opponent"] for r in data["opponents"]] == ["honest", "counter"]
    assert "counter" in result.output and "blueprint" in result.output
    bad = runner.invoke(cli, ["search", str(out), "--kinds", "turn,nope"])
    assert bad.exit_code == 2 and "kinds" in bad.output and "Traceback" not in bad.output
