"""`python -m robin_des_bois balance` answers bad input as `robinwood` does: one line
naming the option, the problem and the fix, exit status 2, before any game is played;
`--players N` seats N players (validated against the rules' range) and
`--seat-player` names the player kind in every seat."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from robin_des_bois import __main__ as cli_module
from robin_des_bois import balance as B
from robin_des_bois.rules import MAX_PLAYERS, MIN_PLAYERS

PREFIX = "python -m robin_des_bois: error: "


@pytest.fixture
def played(monkeypatch):
    """The boxes the command played (balance is where every game starts): a bad input
    must leave this empty."""
    calls = []
    balance = B.balance

    def recording(params=None, *args, **kwargs):
        calls.append(dict(params) if params is not None else {})
        return balance(params, *args, **kwargs)

    monkeypatch.setattr(B, "balance", recording)
    return calls


def one_line_error(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert len(lines) == 1 and lines[0].startswith(PREFIX), result.output
    return lines[0]


def invoke(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(cli_module.cli, ["balance", *args])


@pytest.mark.parametrize("seats", ["9", "1", "0", "-3", "three", "2.5"])
def test_a_seat_count_out_of_range_is_one_line_naming_the_range(
        seats, tmp_path, monkeypatch, played):
    """Catches --players read as a player kind again (the old "unknown player '9'",
    exit 1) or as a bare int: the line must name the option and the range."""
    line = one_line_error(invoke(["--players", seats, "--out", "o"], tmp_path, monkeypatch))
    assert "'--players'" in line and f"from {MIN_PLAYERS} to {MAX_PLAYERS}" in line, line
    assert played == [] and not (tmp_path / "o").exists()


def test_the_old_spelling_of_the_player_kind_is_refused(tmp_path, monkeypatch, played):
    """--players is the number of seats now; a player kind there is not a number."""
    line = one_line_error(invoke(["--players", "thief"], tmp_path, monkeypatch))
    assert "'thief' is not a number of players" in line
    assert played == []


def test_an_unknown_player_kind_is_one_line_listing_the_kinds(tmp_path, monkeypatch,
                                                              played):
    """Catches the kind checked only inside balance() (a ClickException, exit 1)."""
    line = one_line_error(invoke(["--seat-player", "robin", "--out", "o"], tmp_path,
                                 monkeypatch))
    for needle in ("'--seat-player'", "unknown player kind 'robin'", "thief", "search"):
        assert needle in line, (needle, line)
    assert played == [] and not (tmp_path / "o").exists()


@pytest.mark.parametrize("out, needle", [
    ("/proc/x", "is under /proc"),
    ("afile", "is a file, not a folder"),
    ("afile/report", "which is a file, not a folder"),
])
def test_an_unwritable_out_is_refused_before_any_game(out, needle, tmp_path,
                                                      monkeypatch, played):
    """Catches --out taken as a bare click.Path: the report then failed with a
    FileNotFoundError/FileExistsError traceback after every game had been played."""
    (tmp_path / "afile").write_text("")
    line = one_line_error(invoke(["--games", "20", "--out", out], tmp_path, monkeypatch))
    assert "'--out'" in line and needle in line and "choose another --out" in line, line
    assert played == []


@pytest.mark.parametrize("option, value", [("--games", "1"), ("--sweep-games", "0"),
                                           ("--seed", "-1"), ("--seed", str(2**32))])
def test_counts_and_seeds_out_of_range_are_one_line(option, value, tmp_path, monkeypatch,
                                                    played):
    line = one_line_error(invoke([option, value], tmp_path, monkeypatch))
    assert f"'{option}'" in line
    assert played == []


def test_players_seats_that_many_and_drops_unplayable_effects(tmp_path, monkeypatch,
                                                              played):
    """Catches --players parsed but not passed on (every box of the report played at
    the default 3 seats), and an effect value the seat count cannot deal (3 colours
    for 4 hands of 9) stopping the report after its balance had been played."""
    monkeypatch.setattr(B, "EFFECT_GRID", {"colours": [3, 5]})
    monkeypatch.setattr(B, "SWEEP_GRID", {"copies": [2]})
    result = invoke(["--variant", "small", "--players", "4", "--seat-player", "random",
                     "--games", "40", "--sweep-games", "20", "--out", "o"], tmp_path,
                    monkeypatch)
    assert result.exit_code == 0, result.output
    assert played and all(box.get("players") == 4 for box in played), played
    assert not any(box.get("colours") == 3 for box in played)
    md = (tmp_path / "o" / "report.md").read_text()
    assert "4-player game" in md and "colours=3 not measured" in md


def test_the_real_command_exits_2_with_one_line(tmp_path):
    """Through the interpreter, as a user runs it: status 2, no traceback."""
    proc = subprocess.run([sys.executable, "-m", "robin_des_bois", "balance", "--players",
                           "9", "--out", str(tmp_path / "o")], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"{PREFIX}Invalid value for '--players': 9 players: Robin des Bois is played by "
        f"2 to 6 players; give a number from 2 to 6"]
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("args, needle", [
    (["--players", "2"], "'--players': players=2 is out of range: use 3..6"),
    (["--variant", "small", "--players", "6"], "the deck has 48 cards"),
    (["--variant", "castle"], "'--variant': unknown box 'castle'"),
    (["--variant", "box:colors=4"], "unknown option 'colors'"),
])
def test_a_variant_or_count_the_box_cannot_play_is_one_line(args, needle, tmp_path,
                                                            monkeypatch, played):
    line = one_line_error(invoke([*args, "--out", "o"], tmp_path, monkeypatch))
    assert needle in line, line
    assert played == [] and not (tmp_path / "o").exists()
