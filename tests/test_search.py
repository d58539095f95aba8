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
    # chunks=1: the blueprint the measured splits below were taken on (docs/mccfr.md,
    # "Workers"; the default of 8 chunks trains another weak table)
    trainer = MCCFRSolver(MCCFRConfig(RSPX3, batch_iterations=100, workers=1, seed=4,
                                      chunks=1))
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

        def fresh():
            return {seat: SearchBot(game, seat, searcher, seed=seed),
                    1 - seat: UniformRandomBot(1 - seat, np.random.RandomState(seed))}

        first = _play(game, fresh(), seed)
        assert _play(game, fresh(), seed) == first


def _deal(game, rng):
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    return state


def _opening_and_after_peek(game, search_bot, rounds, deal_seed):
    """Seat 0's first two decisions in `rounds` rounds, one bot throughout: the opening
    (a turn: peek a position) and the decision after the peek. Returns the actions and,
    for each decision after a peek, its state."""
    rng = np.random.default_rng(deal_seed)
    actions, after_peek = [], []
    for _ in range(rounds):
        state = _deal(game, rng)
        opening = search_bot.step(state)
        state.apply_action(opening)
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        assert state.current_player() == 0 and \
            state.action_to_string(0, opening).startswith("peek")
        after_peek.append(state.clone())
        actions.append((opening, search_bot.step(state)))
    return actions, after_peek


def _assert_follows(chosen, expected, what):
    """`chosen`: one action a decision; `expected`: each decision's {action: probability}.
    Each action's count lies within 4.5 standard errors of its expected count (a sum of
    independent Bernoulli draws)."""
    names = sorted({a for probs in expected for a in probs})
    observed = {a: sum(c == a for c in chosen) for a in names}
    mean = {a: sum(p.get(a, 0.0) for p in expected) for a in names}
    var = {a: sum(p.get(a, 0.0) * (1 - p.get(a, 0.0)) for p in expected) for a in names}
    mixed = [a for a in names if var[a] > 1.0]
    assert len(mixed) >= 2, (what, mean)   # the blueprint does mix here
    for a in names:
        assert abs(observed[a] - mean[a]) <= 4.5 * np.sqrt(var[a]) + 1e-9, \
            (what, observed, mean)


def test_the_openspiel_bot_mixes_where_it_plays_its_blueprint(blueprint):
    """Over 400 rounds with one bot, seat 0's decisions that the searcher leaves to its
    blueprint follow the blueprint's probabilities: the decision after a peek (not a
    searched kind by default), and the opening when no kind is searched. A bot whose
    draws repeat from round to round plays one action at each situation instead."""
    game = game_def.load_game(RSPX3)
    policy = AgentPolicy(game, blueprint)
    bot0 = SearchBot(game, 0, Searcher(blueprint, SearchConfig(**FAST)), seed=3)
    actions, states = _opening_and_after_peek(game, bot0, 400, deal_seed=8)
    _assert_follows([a for _, a in actions],
                    [policy.action_probabilities(s) for s in states], "after peek")

    bot0 = SearchBot(game, 0, Searcher(blueprint, SearchConfig(kinds=(), **FAST)), seed=3)
    rng = np.random.default_rng(9)
    chosen, expected = [], []
    for _ in range(400):
        state = _deal(game, rng)
        expected.append(policy.action_probabilities(state))
        chosen.append(bot0.step(state))
    _assert_follows(chosen, expected, "opening")


def test_the_openspiel_bot_replays_its_sequence_from_its_seed(blueprint):
    """A fresh bot with the same seed replays a sequence of rounds; another seed plays
    another; within a sequence the rounds differ."""
    game = game_def.load_game(RSPX3)
    searcher = Searcher(blueprint, SearchConfig(**FAST))

    def sequence(seed):
        return _opening_and_after_peek(game, SearchBot(game, 0, searcher, seed=seed), 60,
                                       deal_seed=5)[0]

    first = sequence(11)
    assert sequence(11) == first
    assert sequence(12) != first
    assert len({opening for opening, _ in first}) > 1


def _walk(game, moves):
    """The state reached by `moves`, each an OpenSpiel action string (a chance outcome
    at chance nodes, else a legal action of the player to move)."""
    state = game.new_initial_state()
    for move in moves:
        player = state.current_player()
        actions = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                   else state.legal_actions())
        named = {state.action_to_string(player, a): a for a in actions}
        assert move in named, (move, list(named))
        state.apply_action(named[move])
    return state


def test_search_action_reads_the_seats_information_and_nothing_else(blueprint):
    """Seat 0 peeks position 0 and stays silent. (1) Whether that card is Robin or the
    Peasant is hidden from seat 1 (its information state is the same), so seat 1's
    searched turn must be the same action for every seed: a searcher that read seat 0's
    card would score its peeks on different particles and choose differently. (2) Seat 1
    then peeks position 1 and sees Robin or the Peasant: its searched announcement must
    follow what it saw (the measured split: announce Robin in 26 of 30 seeds having seen
    Robin, in none having seen the Peasant); a searcher blind to its own peek would score
    the same particles and choose the same in both."""
    game = game_def.load_game(RSPX3)
    searcher = Searcher(blueprint, SearchConfig(kinds=("turn", "after_peek"), **FAST))
    seeds = range(30)

    hidden = [_walk(game, ["peek 0", f"deal {card}", "silent"])
              for card in ("Robin", "Peasant")]
    assert hidden[0].history() != hidden[1].history()
    assert hidden[0].information_state_string(1) == hidden[1].information_state_string(1)
    turns = [[search_action(searcher, s.history(), seed) for seed in seeds] for s in hidden]
    assert turns[0] == turns[1]
    assert len(set(turns[0])) > 1   # the seed matters, so equal lists are no coincidence

    seen = [_walk(game, ["peek 0", "deal Sheriff", "silent", "peek 1", f"deal {card}"])
            for card in ("Robin", "Peasant")]
    assert seen[0].information_state_string(1) != seen[1].information_state_string(1)
    claims = [[s.action_to_string(1, search_action(searcher, s.history(), seed))
               for seed in seeds] for s in seen]
    robin = [c.count("announce Robin") for c in claims]
    assert robin[0] > 20 and robin[1] < 5, claims


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
