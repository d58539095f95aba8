"""Monte Carlo CFR, scripted players and play-based strength at three and four seats
and in teams (docs/nplayer.md, "Monte Carlo CFR"; docs/abstraction.md, "Three and four
players").

The abstraction's twin for these tables is in tests/test_nplayer_abstraction.py; here:
payoffs against the game's returns, the trainer (reproducible from a seed, workers and
resume giving identical tables, bad input refused), the scripted players in scenario
states driven through action strings, and the play kernel against OpenSpiel's own
random play.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import game_def
from game_def.core import rules_array
from solver import load_strategy
from solver.mccfr import kernels as mk
from solver.mccfr.job import solve_mccfr
from solver.mccfr.trainer import MCCFRConfig, MCCFRError, MCCFRSolver
from solver.players.agents import AgentPolicy, bot, trained_agent
from solver.evaluation.table_play import (TABLE_OPPONENTS, SeatResult, TablePlay,
                                          play_side, seat_groups, table_play)

THREE = game_def.parse("standard:players=3")
FOUR = game_def.parse("standard:players=4")
TEAMS = game_def.parse("team:players=4,teams=true")
TABLES = (THREE, FOUR, TEAMS)


def _random_terminals(variant, rounds, seed):
    game = game_def.load_game(variant)
    rng = np.random.default_rng(seed)
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                legal = state.legal_actions()
                state.apply_action(int(legal[rng.integers(len(legal))]))
        yield game, state


@pytest.mark.parametrize("variant", TABLES, ids=str)
def test_training_payoff_is_the_games_return_and_partners_share_it(variant):
    """The payoff the trainer backs up equals OpenSpiel's returns for every seat; the
    returns sum to zero; in team mode the two seats of a team get the same payoff."""
    winners = set()
    for game, state in _random_terminals(variant, 200, seed=3):
        returns = state.returns()
        for seat in range(variant.players):
            assert mk.payoff(state.core_state, game.rules, seat) == pytest.approx(
                returns[seat]), state.history_str()
        assert sum(returns) == pytest.approx(0.0)
        if variant.teams:
            assert returns[0] == returns[2] and returns[1] == returns[3]
        winners.add(int(np.argmax(returns)) if max(returns) > 0 else -1)
    assert len(winners - {-1}) >= 2    # rounds were won by different seats


def _tables_equal(a, b):
    for ta, tb in zip(a.tables, b.tables, strict=True):
        assert ta.entries == tb.entries > 0
        for name in ("keys", "offset", "nact", "visits", "level"):
            assert np.array_equal(getattr(ta, name)[:ta.entries],
                                  getattr(tb, name)[:tb.entries]), name
        assert np.array_equal(ta.regret[:ta.action_slots], tb.regret[:tb.action_slots])
        assert np.array_equal(ta.ssum[:ta.action_slots], tb.ssum[:tb.action_slots])


@pytest.mark.parametrize("variant", TABLES, ids=str)
def test_one_table_per_seat_identical_over_workers_and_resume(variant):
    """Two workers, one worker, and one worker resumed from its state arrays give the
    same tables for every seat; another seed gives other tables; every seat learns."""
    cfg = dict(batch_iterations=20, fine_visits=5)
    a = MCCFRSolver(MCCFRConfig(variant, workers=2, **cfg))
    a.run(2)
    assert len(a.tables) == variant.players
    b = MCCFRSolver(MCCFRConfig(variant, workers=1, **cfg))
    b.run(1)
    b = MCCFRSolver.from_state_arrays(MCCFRConfig(variant, workers=1, **cfg),
                                      b.state_arrays())
    b.run(1)
    _tables_equal(a, b)
    counters = a.counters()
    assert counters["overflow"] == counters["mismatch"] == 0
    c = MCCFRSolver(MCCFRConfig(variant, workers=2, seed=1, **cfg))
    c.run(2)
    assert not np.array_equal(c.tables[1].keys[:50], a.tables[1].keys[:50])
    # every seat's average strategy has been summed somewhere (the next seat's rule)
    for table in a.tables:
        assert table.ssum[:table.action_slots].sum() > 0


def test_three_player_job_resumes_to_the_uninterrupted_run_and_loads_as_a_policy(tmp_path):
    cfg = MCCFRConfig(THREE, batch_iterations=20, seed=7)
    solve_mccfr(cfg, tmp_path / "whole", max_iterations=80)
    solve_mccfr(cfg, tmp_path / "split", max_iterations=40)
    solve_mccfr(cfg, tmp_path / "split", max_iterations=80, resume=True)
    whole = np.load(tmp_path / "whole" / "table.npz")
    split = np.load(tmp_path / "split" / "table.npz")
    assert sorted(whole.files) == sorted(split.files)
    assert any(name.startswith("seat2") for name in whole.files)
    for name in whole.files:
        assert np.array_equal(whole[name], split[name]), name
    meta = json.loads((tmp_path / "whole" / "metadata.json").read_text())
    assert meta["iterations"] == 80 and meta["variant"] == str(THREE)
    policy = load_strategy(tmp_path / "whole")
    game = game_def.load_game(THREE)
    state = game.new_initial_state()
    seen = set()
    rng = np.random.default_rng(0)
    while not state.is_terminal():   # a policy for every seat, over legal actions
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        seen.add(state.current_player())
        probs = policy.action_probabilities(state)
        assert set(probs) == set(state.legal_actions())
        assert sum(probs.values()) == pytest.approx(1.0)
        state.apply_action(max(probs, key=probs.get))
    assert len(seen) >= 2


def test_locks_and_held_out_opponents_are_refused_beyond_two_seats():
    with pytest.raises(MCCFRError, match="locks need a two-player round"):
        MCCFRConfig(THREE, locks=("respond claim=Monk: pass=1",))
    with pytest.raises(MCCFRError, match="held out"):
        MCCFRConfig(THREE, league_opponents=("mirror",), league_share=0.5)
    with pytest.raises(MCCFRError, match="unknown league opponent 'bob'"):
        MCCFRConfig(THREE, league_opponents=("bob",), league_share=0.5)


@pytest.mark.parametrize("text", ["rspmx:players=3", "rspmx:players=4"])
def test_training_against_honest_copies_learns_to_beat_them(text):
    """A share of traversals with copies of the honest bot in every other seat (it never
    bluffs and never challenges) teaches the strategy what self-play cannot: the same
    budget and seed, trained against honest copies, wins a larger share of rounds
    against them than self-play's strategy does, with 95% confidence."""
    variant = game_def.parse(text)
    shares = {}
    for league in ((), ("honest",)):
        solver = MCCFRSolver(MCCFRConfig(variant, batch_iterations=200, workers=1, seed=2,
                                         league_opponents=league,
                                         league_share=0.5 if league else 0.0))
        solver.run(2)
        play = table_play(variant, trained_agent(solver), opponents=("honest",),
                          rounds=1000, seed=1)
        shares[league] = play.summary().loc["honest"]
    assert shares[("honest",)]["low"] > shares[()]["high"], shares
    assert shares[("honest",)]["low"] > 1 / variant.players


@pytest.mark.parametrize("variant", TABLES, ids=str)
def test_league_players_take_every_other_seat_but_a_partners(variant):
    """In a league traversal the league player plays every seat but the traverser's own,
    and in team mode also not the partner opposite, who plays its own table as in play."""
    rules = rules_array(variant)
    for seat in range(variant.players):
        league = {cur for cur in range(variant.players) if mk.league_seat(rules, cur, seat)}
        others = set(range(variant.players)) - {seat}
        if variant.teams:
            assert league == {(seat + 1) % 4, (seat + 3) % 4}
        else:
            assert league == others


def test_team_training_against_an_honest_pair_learns_to_beat_it():
    """Team mode: half the traversals against an honest pair (the partner on its own
    table) beat an honest pair with 95% confidence, where self-play's strategy, with the
    same budget and seed, wins less."""
    variant = game_def.parse("rspmx:players=4,teams=true")
    shares = {}
    for league in ((), ("honest",)):
        solver = MCCFRSolver(MCCFRConfig(variant, batch_iterations=200, workers=1, seed=2,
                                         league_opponents=league,
                                         league_share=0.5 if league else 0.0))
        solver.run(2)
        play = table_play(variant, trained_agent(solver), opponents=("honest",),
                          rounds=1000, seed=1)
        shares[league] = play.summary().loc["honest"]
    assert shares[("honest",)]["low"] > shares[()]["high"], shares
    assert shares[("honest",)]["low"] > 0.5


def _named(game, state, agent):
    policy = AgentPolicy(game, agent)
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert sum(probs.values()) == pytest.approx(1.0)
    return {state.action_to_string(state.current_player(), a): p
            for a, p in probs.items() if p > 0}


@pytest.mark.parametrize("variant", TABLES, ids=str)
def test_bots_play_as_documented_at_every_table(variant):
    """docs/bots.md: honest announces what it peeked, is silent on a Peasant and never
    challenges; paranoid challenges every announcement; in every seat that answers."""
    game = game_def.load_game(variant)
    honest, paranoid = bot("honest"), bot("paranoid")
    peeked = game_def.play(game, "peek 0", "deal Robin")
    assert _named(game, peeked, honest) == {"announce Robin": 1.0}
    peasant = game_def.play(game, "peek 0", "deal Peasant")
    assert _named(game, peasant, honest) == {"silent": 1.0}
    claim = game_def.play(game, "peek 0", "deal Peasant", "announce Robin")
    first = claim.current_player()
    assert first != 0
    assert _named(game, claim, honest) == {"pass": 1.0}
    assert _named(game, claim, paranoid) == {"challenge": 1.0}
    later = game_def.play(game, "peek 0", "deal Peasant", "announce Robin", "pass")
    assert later.current_player() not in (0, first)    # the next seat is asked
    assert _named(game, later, paranoid) == {"challenge": 1.0}


def test_a_bot_against_copies_of_itself_splits_the_rounds_exactly():
    """The same seed with the strategy in each seat in turn plays the same rounds, so
    the seats' shares of a bot against copies of itself sum to 1 exactly."""
    for variant in TABLES:
        shares = [play_side(variant, bot("heuristic"), bot("heuristic"), seats, 400,
                            seed=11).share for seats in seat_groups(variant)]
        assert sum(shares) == pytest.approx(1.0)
        assert all(0.0 < s < 1.0 for s in shares)


def test_the_play_kernel_plays_openspiels_game():
    """Uniform bots in the numba play loop win each seat as often as OpenSpiel's own
    random play of the same variant (two samples' difference within 4 sigma)."""
    rounds = 3000
    wins = np.zeros(THREE.players)
    draws = 0
    for _, state in _random_terminals(THREE, rounds, seed=5):
        returns = state.returns()
        if max(returns) > 0:
            wins[int(np.argmax(returns))] += 1
        else:
            draws += 1
    for seat in range(THREE.players):
        ours = play_side(THREE, bot("uniform"), bot("uniform"), (seat,), rounds, seed=9)
        p_os = (wins[seat] + draws / 3) / rounds
        sigma = math.sqrt(ours.variance / rounds + ours.variance / rounds)
        assert abs(ours.share - p_os) < 4 * sigma, (seat, ours.share, p_os)


def test_shares_and_intervals_are_the_documented_arithmetic():
    r = SeatResult("x", (0,), rounds=10, wins=4, draws=3, fair=1 / 3)
    assert r.share == pytest.approx((4 + 1) / 10)
    outcomes = [1.0] * 4 + [1 / 3] * 3 + [0.0] * 3
    assert r.variance == pytest.approx(np.var(outcomes))
    assert r.half_width == pytest.approx(1.959963984540054 * np.std(outcomes) / math.sqrt(10))
    other = SeatResult("x", (1,), rounds=10, wins=1, draws=0, fair=1 / 3)
    play = TablePlay(THREE, "s", (r, other))
    row = play.summary().loc["x"]
    assert row["win_share"] == pytest.approx((0.5 + 0.1) / 2)
    half = 1.959963984540054 * math.sqrt(r.variance / 10 + other.variance / 10) / 2
    assert row["low"] == pytest.approx(row["win_share"] - half)
    assert row["worst_seat"] == "1"
    assert not row["beats_fair_share_in_every_seat"]


def test_a_short_table_beats_random_players_in_every_seat():
    """A strategy trained for a minute-scale budget at three seats beats copies of the
    uniform player above the fair share 1/3 in every seat (the 95% lower bound)."""
    solver = MCCFRSolver(MCCFRConfig(THREE, batch_iterations=200, workers=2, seed=2))
    solver.run(3)
    agent = trained_agent(solver)
    play = table_play(THREE, agent, opponents=("uniform",), rounds=1000, seed=1)
    row = play.summary().loc["uniform"]
    assert row["beats_fair_share_in_every_seat"], play.rows()


def test_sampled_balance_of_random_players_matches_the_random_simulator():
    """Self-play balance of the uniform bot (analysis.table_balance, sampled) against
    game_def.simulate's random rounds of the same variant: wins per side, mean length
    and bluff rate agree within 4 sigma; the seat values sum to zero."""
    from analysis.table_balance import sampled_table_balance
    from game_def.simulate import simulate

    for variant in (THREE, TEAMS):
        rounds = 4000
        ours = sampled_table_balance(bot("uniform"), rounds, seed=3, variant=variant)
        theirs = simulate(variant, rounds, seed=4)
        assert ours.seat_values.sum() == pytest.approx(0.0, abs=1e-9)
        for side, wins in enumerate(theirs.wins):
            p = (ours.side_wins[side] + wins / rounds) / 2
            sigma = math.sqrt(2 * p * (1 - p) / rounds)
            assert abs(ours.side_wins[side] - wins / rounds) < 4 * sigma, (variant, side)
        hist = theirs.turn_histogram
        turns = np.arange(len(hist))
        mean = (hist * turns).sum() / hist.sum()
        spread = math.sqrt((hist * (turns - mean) ** 2).sum() / hist.sum())
        assert abs(ours.rates()["mean_turns"] - mean) < 4 * spread * math.sqrt(2 / rounds)
        rate = ours.rates()["bluff_rate"]
        assert 0.5 < rate < 1.0    # uniform announcements are mostly bluffs


def test_exploit_stats_and_report_at_three_seats(tmp_path):
    """The CLI on a three-player Monte Carlo CFR run: exploit writes table_strength.json
    by play, stats and the report give the sampled balance, labelled as such."""
    from click.testing import CliRunner

    from robinwood.cli import cli

    run = tmp_path / "run"
    runner = CliRunner()
    result = runner.invoke(cli, ["solve", "--variant", "standard:players=3", "--algo",
                                 "mccfr", "--iterations", "200", "--out", str(run)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["exploit", str(run), "--rounds", "200"])
    assert result.exit_code == 0, result.output
    assert "fair share 0.3333" in result.output and "Traceback" not in result.output
    data = json.loads((run / "table_strength.json").read_text())
    assert data["method"] == "play" and data["rounds"] == 200
    assert set(data["summary"]) == set(TABLE_OPPONENTS)
    assert len(data["rows"]) == 3 * len(data["summary"])
    from solver.scripted import HELD_OUT_NAMES

    assert set(data["held_out"]["summary"]) == set(HELD_OUT_NAMES)   # reported apart
    assert len(data["held_out"]["rows"]) == 3 * len(HELD_OUT_NAMES)
    assert "held-out players (never training opponents)" in result.output
    result = runner.invoke(cli, ["exploit", str(run), "--iterations", "10"])
    assert result.exit_code == 2 and "two-player" in result.output
    result = runner.invoke(cli, ["stats", str(run)])
    assert result.exit_code == 0, result.output
    assert "sampled self-play (20,000 rounds" in result.output
    result = runner.invoke(cli, ["report", str(run), "--out", str(tmp_path / "report"),
                                 "--rounds", "2000"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "report" / "report.md").read_text()
    assert "sampled self-play (2,000 rounds" in text
    assert "by play, 95% intervals" in text and "| honest |" in text
    assert "Against held-out players" in text and "| mirror |" in text


@pytest.mark.parametrize("variant", TABLES, ids=str)
def test_league_players_read_their_own_seat_at_every_table(variant):
    """docs/bots.md through action strings at 3-4 seats and in teams: the truthful
    challenger challenges every Robin claim; the silent player passes a claim it cannot
    rule out but challenges one it knows is false (it peeked the card itself); the
    leader bluffer claims a leader on a Peasant."""
    game = game_def.load_game(variant)
    claim = game_def.play(game, "peek 0", "deal Peasant", "announce Robin")
    assert _named(game, claim, bot("truthful_challenger")) == {"challenge": 1.0}
    assert _named(game, claim, bot("silent")) == {"pass": 1.0}
    bluffed = _named(game, game_def.play(game, "peek 0", "deal Peasant"),
                     bot("leader_bluffer"))
    assert set(bluffed) <= {"announce Robin", "announce Sheriff"}
    # seat 1 peeks position 3 (a Peasant) on its turn; seat 0's later Robin claim there
    # is a lie seat 1 knows, and only seat 1
    moves = ["peek 0", "deal Monk", "silent", "peek 3", "deal Peasant", "silent"]
    for pos, card in list(zip((5, 6), ("Deputy", "Companion")))[:variant.players - 2]:
        moves += [f"peek {pos}", f"deal {card}", "silent"]   # seats 2, 3 stay silent
    state = game_def.play(game, *moves, "peek 3", "announce Robin")
    assert state.current_player() != 0
    while state.current_player() != 1:   # the seats asked before seat 1 pass
        state = game_def.play(state, "pass")
    assert _named(game, state, bot("silent")) == {"challenge": 1.0}
    assert _named(game, state, bot("honest")) == {"pass": 1.0}
