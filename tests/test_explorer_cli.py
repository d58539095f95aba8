"""`robinwood play` driven through its input (two players, three, and teams), and
`robinwood explore`/`play` on bad run directories and bad seats (one line, exit 2)."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from click.testing import CliRunner

import game_def
from robinwood.cli import cli

from explorer_runs import (TABLE3, TEAM, exact_run, longer_run, mccfr_run,  # noqa: F401
                           table3_run, team_run)


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def one_line_error(result, *words):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("robinwood: error:"), result.output
    for w in words:
        assert w in lines[0], lines[0]


def test_play_a_round_in_the_terminal_with_its_review(longer_run):  # noqa: F811
    result = invoke("play", longer_run, "--seed", "2", input="1\n" * 200)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Round over. Every card revealed:" in out and "Review: your decisions" in out
    assert "EV cost" in out and "total EV given away this round" in out
    # the round printed at the end replays to its end with game_def.play
    actions = re.search(r"^  actions: (.*)$", out, re.M).group(1).split(", ")
    state = game_def.play(game_def.load_game("rspx:max_turns=4"), *actions)
    assert state.is_terminal()
    # every one of the human's decisions is reviewed: the player always took move 1
    assert out.count("    you chose ") == out.count("your move")


def test_a_match_in_the_terminal_goes_to_its_end(longer_run):  # noqa: F811
    result = invoke("play", longer_run, "--match", "--seat", "1", "--seed", "4",
                    input="2\n" * 400)
    assert result.exit_code == 0, result.output
    assert re.search(r"You won the match|The AI won the match|The match is drawn",
                     result.output)
    assert result.output.count("Round over.") >= 2


def test_illegal_moves_in_the_terminal_are_refused_and_the_game_goes_on(longer_run):  # noqa: F811
    result = invoke("play", longer_run, "--seed", "1", input="99\nfly\npeek 0\n" + "1\n" * 200)
    assert result.exit_code == 0, result.output
    assert "choose 1 to 3" in result.output
    assert "'fly' is not legal here" in result.output
    assert "Review:" in result.output


def test_play_an_mccfr_run_shows_its_training_visits(mccfr_run):  # noqa: F811
    result = invoke("play", mccfr_run, "--seed", "3", input="1\n" * 200)
    assert result.exit_code == 0, result.output
    assert "training visits here: " in result.output and "EV cost" not in result.output
    assert "training visits here: n/a" not in result.output   # the trainer records them


@pytest.mark.parametrize("command", ["explore", "play"])
def test_missing_or_damaged_run_directories_are_one_line(tmp_path, exact_run, command):  # noqa: F811
    one_line_error(invoke(command, tmp_path / "nowhere"), "nowhere", "robinwood solve")
    empty = tmp_path / "empty"
    empty.mkdir()
    one_line_error(invoke(command, empty), "metadata.json is missing")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "metadata.json").write_text("{oops")
    one_line_error(invoke(command, bad), "corrupt")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "metadata.json").write_bytes((exact_run / "metadata.json").read_bytes())
    (broken / "strategy.npz").write_bytes(b"not a zip")
    one_line_error(invoke(command, broken), "strategy.npz is corrupt")


def test_explore_serves_and_refuses_a_taken_port(exact_run):  # noqa: F811
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        one_line_error(invoke("explore", exact_run, "--port", port), str(port), "--port")
    exe = [sys.executable, "-m", "robinwood", "explore", str(exact_run), "--port", str(port)]
    server = subprocess.Popen(exe, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/run") as r:
                    assert b"duel6:max_turns=2" in r.read()
                break
            except OSError:
                assert server.poll() is None, server.stderr.read()
                assert time.time() < deadline, "the explorer did not start"
                time.sleep(0.3)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as r:
            assert b"strategy explorer" in r.read()
    finally:
        server.terminate()
        server.wait(10)


def test_play_with_search_in_the_terminal(mccfr_run, exact_run):  # noqa: F811
    result = invoke("play", mccfr_run, "--search", "--seed", "4", input="1\n" * 200)
    assert result.exit_code == 0, result.output
    assert "with play-time search" in result.output and "Round over." in result.output
    one_line_error(invoke("play", exact_run, "--search"), "exact strategy", "--search")


def replayed(out: str, variant: str):
    """The state the round printed last ('  actions: ...') replays to."""
    actions = re.findall(r"^  actions: (.*)$", out, re.M)[-1].split(", ")
    return game_def.play(game_def.load_game(variant), *actions)


def test_play_at_three_seats_in_the_terminal(table3_run):  # noqa: F811
    result = invoke("play", table3_run, "--seat", "2", "--seed", "5", input="1\n" * 200)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "you in seat 2 of 3, the strategy in every other seat" in out
    # the board lists the three seats by who sits there
    assert re.search(r"^AI 0 \S+   AI 1 \S+   You \S+", out, re.M), out
    assert "Round over. Every card revealed:" in out
    assert "EVs and reach are two-player only" in out and "EV cost" not in out
    state = replayed(out, TABLE3)
    assert state.is_terminal()
    # who won, and the tally: one round, won by one seat or drawn
    returns = state.returns()
    winner = max(range(3), key=lambda s: returns[s]) if any(returns) else None
    names = {0: "AI 0", 1: "AI 1", 2: "You"}
    tally = re.search(r"^Tally after 1 round: (.*)$", out, re.M).group(1)
    wins = dict(re.findall(r"(AI 0|AI 1|You): (\d)", tally))
    assert {names[s]: int(wins[names[s]]) for s in range(3)} == {
        names[s]: int(s == winner) for s in range(3)}
    assert tally.endswith(f"draws: {int(winner is None)}")
    # every one of the human's decisions is reviewed
    assert out.count("    you chose ") == out.count("your move")


def test_a_team_match_in_the_terminal_goes_to_its_end(team_run):  # noqa: F811
    result = invoke("play", team_run, "--seat", "1", "--match", "--seed", "2",
                    input="1\n" * 600)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "you in seat 1 of 4, the strategy in every other seat (your partner in seat 3 " \
           "too)" in out
    assert "[team 1+3]" in out and "Partner" in out
    tallies = re.findall(r"^Tally after (\d+) rounds?: You and Partner: (\d) · "
                         r"AI 0 and AI 2: (\d) · draws: (\d+)$", out, re.M)
    assert len(tallies) >= 2 and int(tallies[-1][0]) == len(tallies)
    for rounds, mine, theirs, draws in tallies:
        assert int(mine) + int(theirs) + int(draws) == int(rounds)
    last = tallies[-1]
    assert re.search(r"^(Your team|AI 0 and AI 2) won the match$|^The match is drawn$",
                     out, re.M)
    assert max(int(last[1]), int(last[2])) == 2 or int(last[0]) == 20
    assert replayed(out, TEAM).is_terminal()


def test_a_seat_outside_the_table_is_one_line(exact_run, table3_run, team_run):  # noqa: F811
    one_line_error(invoke("play", table3_run, "--seat", "3"), "--seat", "give 0 to 2",
                   "rspx:players=3")
    one_line_error(invoke("play", team_run, "--seat", "4"), "--seat", "give 0 to 3")
    one_line_error(invoke("play", exact_run, "--seat", "2"), "--seat", "give 0 to 1")
    one_line_error(invoke("play", table3_run, "--seat", "-1"), "give 0 to 2")
    one_line_error(invoke("play", table3_run, "--seat", "one"), "--seat")
    one_line_error(invoke("play", team_run, "--search"), "--search", "two-player only")
