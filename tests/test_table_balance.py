"""Balance at any table size (analysis.table_balance) against a plain-Python twin that
enumerates the OpenSpiel game with the stored policy and reads only action strings,
state strings and returns; and, for two players, against the two-player statistics."""

from __future__ import annotations

import re

import numpy as np
import pytest

import game_def
from analysis import profile_statistics_from_run
from analysis.table_balance import TOTALS, table_balance_from_run
from solver import load_strategy
from solver.exact.cfr import algorithm
from solver.exact.job import SolveConfig, solve
from solver.store import StrategyFileError

RSPX3 = "rspx:players=3,max_turns=2"
TEAM = "Robin+Sheriff+Peasant+Innkeeper+Traitor:players=4,teams=true,max_turns=1"
_STATE = re.compile(r"turn (\d+)/\d+ actor \d+ phase \S+ strikes ([\d,]+) \| (.*)")


def _parse(state) -> tuple[int, list[int], dict[int, str]]:
    """(turn, strikes per seat, dealt card per position) from the state's string."""
    turn, strikes, cards = _STATE.match(str(state)).groups()
    known = {}
    for item in cards.split():
        pos, card = item.split(":")
        if card != "(?)":  # "(Robin)": dealt face down; "Robin": face up
            known[int(pos)] = card.strip("()")
    return int(turn), [int(x) for x in strikes.split(",")], known


def twin_balance(variant, policy) -> dict:
    """Every figure of TableBalance by enumerating the game tree in Python."""
    game = game_def.load_game(str(variant))
    players, limit = variant.players, variant.strikes
    totals = dict.fromkeys(TOTALS, 0.0)
    values = np.zeros(players)
    wins = np.zeros(2 if variant.teams else players)
    first_out = np.zeros(players)
    length = np.zeros(variant.max_turns + 1)

    def visit(state, reach, peeked, announced, anyone_out):
        if state.is_terminal():
            returns = np.array(state.returns())
            totals["rounds"] += reach
            values[:] += reach * returns
            if not returns.any():
                totals["draws"] += reach
                totals["turn_cap_draws"] += reach  # the only draw: the turn cap
            else:
                winner = int(np.argmax(returns))
                wins[winner % 2 if variant.teams else winner] += reach
            length[_parse(state)[0]] += reach
            return
        if state.is_chance_node():
            branches = state.chance_outcomes()
        else:
            probs = policy.action_probabilities(state)
            branches = [(a, probs.get(a, 0.0)) for a in state.legal_actions()]
        _, strikes, known = _parse(state)
        for action, p in branches:
            w = reach * p
            if w == 0.0:
                continue
            text = state.action_to_string(state.current_player(), action)
            nxt_peek, nxt_said = peeked, announced
            if text.startswith("peek "):
                nxt_peek = int(text.split()[1])
            elif text.startswith("use "):
                totals["uses"] += w
            elif text == "silent":
                totals["silent_peeks"] += w
            elif text.startswith("announce "):
                nxt_said = text.split()[1]
                totals["announcements"] += w
                totals["bluffs"] += w * (known[peeked] != nxt_said)
            elif text == "challenge":
                totals["challenges"] += w
                totals["challenges_right"] += w * (known[peeked] != announced)
            child = state.child(action)
            after = _parse(child)[1]
            out_now = [s for s in range(players) if after[s] >= limit > strikes[s]]
            totals["eliminations"] += w * len(out_now)
            if out_now and not anyone_out:
                first_out[out_now] += w
            visit(child, w, nxt_peek, nxt_said,
                  anyone_out or any(x >= limit for x in after))

    visit(game.new_initial_state(), 1.0, None, None, False)
    return {"totals": totals, "values": values, "wins": wins, "first_out": first_out,
            "length": length}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    out = {}
    for spec, iterations in ((RSPX3, 120), (TEAM, 60)):
        run = tmp_path_factory.mktemp("run")
        solve(SolveConfig(game_def.parse(spec), algorithm("cfr+"), run,
                          max_iterations=iterations))
        out[spec] = run
    return out


@pytest.mark.parametrize("spec", [RSPX3, TEAM])
def test_balance_equals_the_twin(spec, runs):
    balance = table_balance_from_run(runs[spec])
    twin = twin_balance(game_def.parse(spec), load_strategy(runs[spec]))
    for name in TOTALS:
        assert balance.totals[name] == pytest.approx(twin["totals"][name], abs=1e-9), name
    assert np.allclose(balance.seat_values, twin["values"], atol=1e-9)
    assert np.allclose(balance.side_wins, twin["wins"], atol=1e-9)
    assert np.allclose(balance.first_out, twin["first_out"], atol=1e-9)
    assert np.allclose(balance.length, twin["length"], atol=1e-9)
    # Not vacuous: the strategy announces, bluffs and is challenged somewhere.
    assert balance.totals["announcements"] > 0.1 and balance.totals["challenges"] > 0.01


def test_team_balance_reads_sides_and_partners_share_values(runs):
    balance = table_balance_from_run(runs[TEAM])
    assert balance.sides == ["team 0+2", "team 1+3"]
    assert balance.seat_values[0] == pytest.approx(balance.seat_values[2], abs=1e-12)
    assert balance.seat_values[1] == pytest.approx(balance.seat_values[3], abs=1e-12)
    seats = balance.seats()
    assert list(seats.index) == [0, 1, 2, 3] and list(seats["plays"]) == [1, 2, 3, 4]


def test_two_player_balance_equals_the_two_player_statistics(tmp_path):
    """On a position-symmetric two-player run, the same figures as analysis.exact's."""
    solve(SolveConfig(game_def.parse("rspx:max_turns=3"), algorithm("dcfr"), tmp_path,
                      max_iterations=50))
    balance = table_balance_from_run(tmp_path)
    stats = profile_statistics_from_run(tmp_path)
    outcomes = stats.outcomes().iloc[0]
    assert balance.seat_values[0] == pytest.approx(outcomes["seat0_value"], abs=1e-9)
    assert balance.side_wins[0] == pytest.approx(outcomes["seat0_wins"], abs=1e-9)
    assert balance.rates()["turn_cap_rate"] == pytest.approx(outcomes["turn_cap_rate"],
                                                              abs=1e-9)
    for metric in ("bluff_rate", "challenge_rate", "challenge_right_rate"):
        table = stats.bluff_rates() if metric == "bluff_rate" else stats.challenge_rates()
        assert balance.rates()[metric] == pytest.approx(table.loc["all"][metric], abs=1e-9)
    assert np.allclose(balance.length, stats.length / stats.length.sum(), atol=1e-9)


def test_a_strategy_of_another_tree_is_one_line(tmp_path, runs):
    import json
    import shutil

    run = tmp_path / "run"
    shutil.copytree(runs[RSPX3], run)
    meta = json.loads((run / "metadata.json").read_text())
    meta["variant"] = "rspx:players=3,max_turns=3"
    (run / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(StrategyFileError, match="action slots"):
        table_balance_from_run(run)


def test_stats_prints_the_balance_of_a_three_player_run(runs):
    import json

    from click.testing import CliRunner

    from robinwood.cli import cli

    text = CliRunner().invoke(cli, ["stats", str(runs[RSPX3])])
    assert text.exit_code == 0, text.output
    assert "first_eliminated" in text.output and "bluff_rate" in text.output
    data = json.loads(CliRunner().invoke(cli, ["stats", str(runs[RSPX3]), "--json"]).output)
    balance = table_balance_from_run(runs[RSPX3])
    assert data["side_wins"] == pytest.approx(balance.side_wins.tolist(), abs=1e-12)
    assert data["sides"] == ["seat 0", "seat 1", "seat 2"]


def test_the_report_of_a_three_player_run_reads_its_balance(runs, tmp_path):
    from click.testing import CliRunner

    from robinwood.cli import cli
    from analysis.pages import ReportError
    from analysis.report import write_report

    result = CliRunner().invoke(cli, ["report", str(runs[RSPX3]), "--out",
                                      str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    index = tmp_path / "report" / "index.html"
    text = (tmp_path / "report" / "report.md").read_text()
    balance = table_balance_from_run(runs[RSPX3])
    assert index.exists() and "NashConv" in text and "Seats (in turn order" in text
    assert f"seat 1 {balance.side_wins[1]:.1%}" in text
    assert (tmp_path / "report" / "tables" / "seats.csv").exists()
    assert (tmp_path / "report" / "seat_values.png").exists()
    # the library call a notebook makes writes the same page as the command line
    index = write_report(runs[RSPX3], tmp_path / "r3")
    assert (tmp_path / "r3" / "report.md").read_text().split("generated")[1].split(
        "\n", 1)[1] == text.split("generated")[1].split("\n", 1)[1]
    with pytest.raises(ReportError, match="the same table"):   # 3 seats beside teams
        write_report(runs[RSPX3], tmp_path / "r2", compare_dir=runs[TEAM])


def test_two_team_runs_compare_side_by_side(runs, tmp_path):
    from click.testing import CliRunner

    from analysis.table_report import compare_tables
    from robinwood.cli import cli

    other = tmp_path / "other"
    solve(SolveConfig(game_def.parse(TEAM), algorithm("cfr+"), other, max_iterations=5))
    result = CliRunner().invoke(cli, ["report", str(runs[TEAM]), "--compare", str(other),
                                      "--out", str(tmp_path / "rep")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "Compared with other" in text and "delta = other minus this run" in text
    a, b = table_balance_from_run(runs[TEAM]), table_balance_from_run(other)
    seats = compare_tables(a, b, ("this run", "other"))["compare_seats"]
    assert np.allclose(seats["value (delta)"], b.seat_values - a.seat_values)
    mismatch = CliRunner().invoke(cli, ["report", str(runs[TEAM]), "--compare",
                                        str(runs[RSPX3]), "--out", str(tmp_path / "bad")])
    assert mismatch.exit_code == 2 and "the same table" in mismatch.output
