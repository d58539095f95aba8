"""The random-play simulator: its kernels against exact expectations and a plain twin."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from game_def.simulate import next_round_starter, simulate, wilson_interval
from robinwood.cli import cli


def naive_next_starter(players: int, teams: bool, starter: int, winner: int, ender: int) -> int:
    """Twin of the match rule (docs/rules.md "The match"), written from the rulebook."""
    if winner == -1:
        return 1 - starter if players == 2 else (ender + 1) % players
    if teams:
        # The losing team starts, with the first of its players left of the round's ender.
        seat = (ender + 1) % 4
        while seat % 2 == winner % 2:
            seat = (seat + 1) % 4
        return seat
    if players == 2:
        return 1 - winner  # the loser starts
    return (ender + 1) % players


@pytest.mark.parametrize("spec", ["rspx", "rspx:players=3", "rspx:players=4",
                                  "team:players=4,teams=true"])
def test_match_starter_rule_matches_its_twin(spec):
    variant = game_def.parse(spec)
    seats = range(variant.players)
    for starter in seats:
        for winner in [-1, *seats]:
            for ender in seats:
                assert next_round_starter(variant, starter, winner, ender) == \
                    naive_next_starter(variant.players, variant.teams, starter, winner, ender)


def test_match_starter_examples_from_the_rulebook():
    two = game_def.parse("standard")
    assert next_round_starter(two, starter=0, winner=0, ender=0) == 1   # loser starts
    three = game_def.parse("standard:players=3")
    assert next_round_starter(three, starter=0, winner=1, ender=2) == 0  # left of the ender
    team = game_def.parse("team:players=4,teams=true")
    assert next_round_starter(team, starter=0, winner=0, ender=0) == 1   # losing team
    assert next_round_starter(team, starter=0, winner=1, ender=1) == 2


def exact_random_play(game) -> dict[int, float]:
    """P(winner) under uniformly random legal moves, by walking the whole tree."""
    @functools.lru_cache(maxsize=None)
    def walk(history: tuple[int, ...]) -> tuple[float, ...]:
        state = game.new_initial_state()
        for a in history:
            state.apply_action(a)
        out = np.zeros(game.num_players() + 1)
        if state.is_terminal():
            r = state.returns()
            best = int(np.argmax(r))
            out[best if r[best] > 0 else -1] = 1.0
            return tuple(out)
        if state.is_chance_node():
            branches = state.chance_outcomes()
        else:
            legal = state.legal_actions()
            branches = [(a, 1.0 / len(legal)) for a in legal]
        for a, p in branches:
            out += p * np.array(walk(history + (a,)))
        return tuple(out)

    probs = walk(())
    return {s: probs[s] for s in range(game.num_players())} | {-1: probs[-1]}


@pytest.mark.parametrize("spec", ["rspx:max_turns=2", "rspx:max_turns=2,first_player=1"])
def test_simulated_rates_agree_with_the_exact_tree(spec):
    game = game_def.load_game(spec)
    exact = exact_random_play(game)
    n = 200_000
    result = simulate(game.variant, n, seed=7)
    observed = {0: result.wins[0], 1: result.wins[1], -1: result.draws}
    for side, p in exact.items():
        sigma = np.sqrt(p * (1 - p) / n)
        assert abs(observed[side] / n - p) < 4.5 * sigma + 1e-9, (side, p, observed[side] / n)


def test_match_mode_agrees_with_the_round_probabilities():
    """P(seat 0 wins a match) from a Markov chain over (wins, starter), fed by the exact
    per-round probabilities for each starter, must match the simulated match rate."""
    variant = game_def.parse("rspx:max_turns=2")
    by_starter = {s: exact_random_play(game_def.load_game(variant.replace(first_player=s)))
                  for s in (0, 1)}

    value = {}
    for _ in range(200):  # value iteration; draws make the chain cyclic
        for w0 in (1, 0):
            for w1 in (1, 0):
                for s in (0, 1):
                    p = by_starter[s]
                    nxt = lambda a, b, st: 1.0 if a == 2 else 0.0 if b == 2 else value.get((a, b, st), 0.0)
                    value[(w0, w1, s)] = (p[0] * nxt(w0 + 1, w1, 1) + p[1] * nxt(w0, w1 + 1, 0)
                                          + p[-1] * nxt(w0, w1, 1 - s))
    exact = value[(0, 0, 0)]
    n = 100_000
    result = simulate(variant, n, seed=11, matches=True)
    sigma = np.sqrt(exact * (1 - exact) / n)
    assert abs(result.wins[0] / n - exact) < 4.5 * sigma
    assert result.rounds_played >= 2 * n


def test_simulation_is_reproducible_from_its_seed_whatever_the_chunking():
    variant = game_def.parse("standard:players=3")
    a = simulate(variant, 5000, seed=3)
    b = simulate(variant, 5000, seed=3, chunk=333)
    c = simulate(variant, 5000, seed=4)
    assert a.wins == b.wins and a.counters == b.counters
    assert np.array_equal(a.turn_histogram, b.turn_histogram)
    assert a.counters != c.counters


_COUNTED = ("steps", "peeks", "uses", "silent_peeks", "announcements", "bluffs",
            "challenges", "challenges_right", "challenges_wrong")


def exact_counters(spec: str) -> tuple[dict[str, float], dict[str, float]]:
    """E[count] and E[count^2] per round of each rule counter in _COUNTED under uniformly
    random legal moves, by walking the plain-Python twin's whole tree (tests/naive.py,
    written from the rules, not from the core): a bluff is an announcement of a
    character other than the peeked card, a challenge is right when it catches one."""
    try:
        from tests.naive import NaiveGame
    except ImportError:  # tests/ imported as a plain directory (no package)
        from naive import NaiveGame
    from game_def.characters import Character

    game = NaiveGame(spec)
    n, size = game.n, len(_COUNTED)
    first, second = np.zeros(size), np.zeros(size)
    stack = [(game.new_initial_state(), 1.0, np.zeros(size))]
    while stack:
        state, p, counts = stack.pop()
        if state.is_terminal():
            first += p * counts
            second += p * counts * counts
            continue
        if state.is_chance_node():
            branches = state.chance_outcomes()
        else:
            legal = state.legal_actions()
            branches = [(a, 1.0 / len(legal)) for a in legal]
        for a, q in branches:
            c = counts.copy()
            c[0] += 1                                       # steps: chance ones too
            phase = None if state.is_chance_node() else state.phase
            if phase == "turn":
                c[1 if a < n else 2] += 1                   # peek or use
            elif phase == "after_peek" and a == game.silent():
                c[3] += 1
            elif phase == "after_peek":
                c[4] += 1
                c[5] += state.card[state.peeked] != Character(a - game.announce(0))
            elif phase == "respond" and a == game.challenge():
                c[6] += 1
                c[7 if state.card[state.peeked] != state.announced else 8] += 1
            child = state.clone()
            child.apply_action(a)
            stack.append((child, p * q, c))
    return dict(zip(_COUNTED, first)), dict(zip(_COUNTED, second))


def test_rule_counters_agree_with_the_twins_exact_expectations():
    # Each counter's mean per round over 200,000 random rounds against its exact
    # expectation on the twin's tree (about 6,400 nodes), within 4.5 sigma of the exact
    # per-round variance. A counter that fires on the wrong action, misses chance steps
    # or calls a true claim a bluff is off by far more (E[bluffs] = 0.847 against
    # E[announcements] = 1.271; E[challenges right] = 0.424 against wrong 0.212).
    spec = "rspx:max_turns=2"
    mean, square = exact_counters(spec)
    n = 200_000
    counters = simulate(game_def.parse(spec), n, seed=5).counters
    for name in _COUNTED:
        sigma = np.sqrt((square[name] - mean[name] ** 2) / n)
        assert abs(counters[name] / n - mean[name]) < 4.5 * sigma, (name, counters[name] / n,
                                                                    mean[name])


def test_turn_cap_is_reported():
    r = simulate(game_def.parse("standard:max_turns=2"), 5000, seed=1)
    assert r.draws == r.counters["turn_cap_draws"] > 0
    assert r.round_length()["max"] == 2


def test_wilson_interval_contains_the_estimate():
    lo, hi = wilson_interval(30, 100)
    # Wilson (1927) for 30/100 at z = 1.96: [0.2189, 0.3958]
    assert (round(lo, 4), round(hi, 4)) == (0.2189, 0.3958)
    # the edges are exact: no rounding residue above 0 or below 1 (a sweep's figure
    # refused an interval whose lower end, 5e-20, lay above its estimate 0)
    for n in (1, 7, 4000, 10**6):
        assert wilson_interval(0, n)[0] == 0.0 and wilson_interval(n, n)[1] == 1.0
        for k in (0, 1, n // 3, n - 1, n):
            lo, hi = wilson_interval(k, n)
            assert lo <= k / n <= hi


def test_cli_simulate_json():
    out = CliRunner().invoke(cli, ["simulate", "--deck", "rspx", "--rounds", "2000",
                                   "--seed", "1", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["variant"] == "rspx"
    # the report is the simulator's, for that deck and seed (not another's, not rounded)
    def report(seed):
        out = json.loads(json.dumps(simulate(game_def.parse("rspx"), 2000, seed=seed).to_json()))
        out.pop("seconds")
        return out

    data.pop("seconds")
    assert data == report(1)
    assert data["rules_fired"] != report(2)["rules_fired"]


def test_cli_simulate_teams_matches_text():
    out = CliRunner().invoke(cli, ["simulate", "--players", "4", "--teams", "--matches",
                                   "300", "--seed", "2"])
    assert out.exit_code == 0, out.output
    assert "team 0+2" in out.output and "round length" in out.output


@pytest.mark.parametrize("args, message", [
    (["--deck", "rsp"], "unknown deck 'rsp'"),
    (["--players", "5"], "players must be 2, 3 or 4"),
    (["--players", "3", "--teams"], "team mode needs players=4"),
    (["--rounds", "0"], "0 is not in the range 1<=x<="),
    (["--deck", "Robin+Sherif+Traitor"], "did you mean Sheriff"),
])
def test_cli_bad_input_is_one_line_and_exit_2(args, message):
    out = CliRunner().invoke(cli, ["simulate", *args])
    assert out.exit_code == 2
    assert message in out.output
    assert out.output.strip().count("\n") == 0
    assert "Traceback" not in out.output
