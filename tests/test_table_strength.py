"""Scripted players for any table size (solver.players.table_players) in scenario states
driven through action strings, for 3 and 4 players and teams; and the exact strength
measurement (solver.evaluation.table_strength) against OpenSpiel's expected payoffs and
against the exact balance walk."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import expected_game_score

import game_def
from analysis.table_balance import table_balance
from robinwood.cli import cli
from solver import load_strategy
from solver.evaluation.table_strength import (mixed, project_player, table_strength,
                                              win_probabilities)
from solver.exact.cfr import CFRSolver
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.players.table_players import TABLE_PLAYERS, table_player_probs

RSPX3 = "rspx:players=3,max_turns=2"
TEAM = "Robin+Sheriff+Peasant+Innkeeper+Traitor:players=4,teams=true,max_turns=1"


def decide(name, state):
    me = state.current_player()
    texts = [state.action_to_string(me, a) for a in state.legal_actions()]
    probs = table_player_probs(name, state.information_state_string(me), texts)
    return dict(zip(texts, probs))


@pytest.mark.parametrize("spec", ["rspx:players=3", "rspx:players=4", TEAM])
def test_players_announce_bluff_and_challenge_as_written(spec):
    game = game_def.load_game(spec)
    peeked = game_def.play(game, "peek 0", "deal Sheriff")
    assert decide("honest", peeked)["announce Sheriff"] == 1.0
    assert decide("paranoid", peeked)["announce Sheriff"] == 1.0
    assert decide("bluffer", peeked)["announce Robin"] == 1.0
    claimed = game_def.play(peeked, "announce Robin")  # a bluff: seat 1 responds
    assert decide("honest", claimed)["pass"] == 1.0
    assert decide("paranoid", claimed)["challenge"] == 1.0
    assert decide("doubter", claimed)["challenge"] == 1.0
    quiet = game_def.play(game, "peek 0", "deal Peasant", "announce Peasant")
    assert decide("doubter", quiet)["pass"] == 1.0
    assert decide("paranoid", quiet)["challenge"] == 1.0
    # The uniform player spreads evenly; a turn start peeks only unseen cards.
    start = game.new_initial_state()
    probs = decide("uniform", start)
    assert np.allclose(list(probs.values()), 1 / len(probs))
    turn = decide("honest", start)
    assert all(p == 0 for t, p in turn.items() if not t.startswith("peek"))


@pytest.mark.parametrize("spec", ["rspx:players=3", "rspx:players=4", TEAM])
def test_players_read_the_peeked_card_and_the_claim_from_their_information(spec):
    """Over random rounds, every after-peek and respond decision of the honest and the
    doubter players, made from the information-state string alone, equals the rule
    applied to the true state: honest announces the card actually at the position it
    just peeked (silent when that cannot be announced), the doubter challenges exactly
    the Robin and Sheriff claims actually made. Planted bugs caught: `_peeked` reading
    the seat's first peek instead of its last, and `_claim` the first announcement
    heard instead of the last."""
    game = game_def.load_game(spec)
    rng = np.random.default_rng(5)
    checked = {"after_peek": 0, "respond": 0}
    for _ in range(60):
        state = game.new_initial_state()
        peeked_at, claim = {}, None
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            me = state.current_player()
            texts = [state.action_to_string(me, a) for a in state.legal_actions()]
            if "silent" in texts:
                card = state.cards[peeked_at[me]]
                truth = f"announce {card}"
                assert decide("honest", state) == {
                    t: float(t == (truth if truth in texts else "silent")) for t in texts}
                checked["after_peek"] += 1
            if "challenge" in texts:
                leader = claim in ("Robin", "Sheriff")
                assert decide("doubter", state)["challenge"] == float(leader)
                checked["respond"] += 1
            action = state.legal_actions()[rng.integers(len(texts))]
            text = state.action_to_string(me, action)
            if text.startswith("peek "):
                peeked_at[me] = int(text.split()[1])
            elif text.startswith("announce "):
                claim = text.split()[1]
            state.apply_action(action)
    assert min(checked.values()) > 50


@pytest.mark.parametrize("spec", [RSPX3, TEAM])
def test_every_projected_player_is_a_legal_strategy(spec):
    variant = game_def.parse(spec)
    tree = build_robinwood_tree(variant)
    for name in TABLE_PLAYERS:
        strategy = project_player(name, tree, variant.num_positions)
        sums = np.add.reduceat(strategy, tree.infoset_offset.astype(np.int64))
        assert np.allclose(sums, 1.0) and (strategy >= 0).all(), name


class _Scripted(os_policy.Policy):
    def __init__(self, game, name):
        super().__init__(game, list(range(game.num_players())))
        self.name = name

    def action_probabilities(self, state, player_id=None):
        me = state.current_player()
        texts = [state.action_to_string(me, a) for a in state.legal_actions()]
        probs = table_player_probs(self.name, state.information_state_string(me), texts)
        return dict(zip(state.legal_actions(), probs))


@pytest.mark.parametrize("spec", [RSPX3, TEAM])
def test_strength_values_equal_openspiel_and_wins_equal_the_balance_walk(spec):
    variant = game_def.parse(spec)
    tree = build_robinwood_tree(variant)
    solver = CFRSolver(tree, "cfr+")
    solver.step(50)
    strategy = solver.average_strategy()
    result = table_strength(variant, tree, strategy, opponents=("bluffer", "paranoid"))
    game = game_def.load_game(spec)
    for name in ("bluffer", "paranoid"):
        theirs = project_player(name, tree, variant.num_positions)
        for seats in ([(0, 2), (1, 3)] if variant.teams else [(s,) for s in range(3)]):
            profile = mixed(tree, strategy, theirs, seats)
            # the win probabilities against an independent walk (analysis.table_balance)
            balance = table_balance(variant, tree, profile)
            side = seats[0] % 2 if variant.teams else seats[0]
            assert win_probabilities(tree, profile)[seats[0]] == pytest.approx(
                balance.side_wins[side], abs=1e-12)
            row = result.rows[(result.rows["opponent"] == name)
                              & (result.rows["seat"] == "+".join(map(str, seats)))]
            # a draw (the turn cap) counts 1/N of a win, as by play
            draws = balance.rates()["turn_cap_rate"]
            assert row["win_share"].iloc[0] == pytest.approx(
                balance.side_wins[side] + result.fair_share * draws, abs=1e-12)
            assert row["draws"].iloc[0] == pytest.approx(draws, abs=1e-12)
    # The scripted player's values in OpenSpiel against itself equal the projection's.
    scripted = _Scripted(game, "bluffer")
    values = expected_game_score.policy_value(game.new_initial_state(),
                                              [scripted] * game.num_players())
    from solver.exact.best_response import player_values

    projected = project_player("bluffer", tree, variant.num_positions)
    assert np.allclose(values, player_values(tree, projected), atol=1e-9)


def test_exploit_measures_a_three_player_run_and_the_report_shows_it(tmp_path):
    run = tmp_path / "run"
    assert CliRunner().invoke(cli, ["solve", "--variant", RSPX3, "--algo", "cfr+",
                                    "--iterations", "50", "--out", str(run)]).exit_code == 0
    result = CliRunner().invoke(cli, ["exploit", str(run), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output[result.output.index("{"):])
    assert data["fair_share"] == pytest.approx(1 / 3)
    assert {r["opponent"] for r in data["rows"]} == set(TABLE_PLAYERS)
    assert json.loads((run / "table_strength.json").read_text()) == data
    report = CliRunner().invoke(cli, ["report", str(run), "--out", str(tmp_path / "rep")])
    assert report.exit_code == 0, report.output
    assert "Against scripted players" in (tmp_path / "rep" / "report.md").read_text()
    assert load_strategy(run).game.num_players() == 3


def test_exact_win_shares_count_a_draw_as_the_fair_share_and_sum_to_one():
    """Fails on the old convention (a draw as 0): this tree draws at the turn cap, so
    the seats' self-play shares would sum to less than 1."""
    variant = game_def.parse(RSPX3)
    tree = build_robinwood_tree(variant)
    solver = CFRSolver(tree, "cfr+")
    solver.step(20)
    result = table_strength(variant, tree, solver.average_strategy(),
                            opponents=("uniform",))
    rows = result.rows
    assert (rows["draws"] > 0.01).all()
    assert rows["self_play_share"].sum() == pytest.approx(1.0, abs=1e-12)
    assert np.allclose(rows["win_share"], rows["wins"] + rows["draws"] / 3, atol=1e-12)


def test_table_strength_files_say_how_they_count_a_draw(tmp_path):
    from solver.evaluation.run_files import (DRAWS, OLD_EXACT_DRAWS, OLD_PLAY_DRAWS,
                                             read_table_strength, read_table_strength_data,
                                             write_table_strength)

    summary = {"uniform": {"win_share": 0.4, "fair_share": 1 / 3}}
    write_table_strength(tmp_path, {"variant": RSPX3, "summary": summary})
    assert json.loads((tmp_path / "table_strength.json").read_text())["draws"] == DRAWS
    assert read_table_strength(tmp_path)["draws"].tolist() == [DRAWS]
    # files written before the field: exact counted a draw as 0, by play as 1/N
    (tmp_path / "table_strength.json").write_text(json.dumps({"summary": summary}))
    assert read_table_strength_data(tmp_path)["draws"] == OLD_EXACT_DRAWS
    assert "counts 0" in read_table_strength(tmp_path)["draws"].iloc[0]
    (tmp_path / "table_strength.json").write_text(json.dumps({"summary": summary,
                                                              "method": "play"}))
    assert read_table_strength(tmp_path)["draws"].iloc[0] == OLD_PLAY_DRAWS
