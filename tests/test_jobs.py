"""solver.jobs.in_both_seats: a seat that fails fails the call, at once and with its own
exception, on two threads as on one; Ctrl-C ends a two-thread call promptly; and a
public evaluation whose seat fails raises instead of reporting 0 for that seat."""

from __future__ import annotations

import os
import signal
import threading
import time
import traceback

import pytest

import game_def
from solver.evaluation import tournament
from solver.jobs import in_both_seats
from solver.players.agents import bot

LONG = 30.0      # how long the seat that does not fail would run
PROMPT = 5.0     # the call must end well before that


class Planted(Exception):
    pass


@pytest.fixture
def release():
    """Set at the end of a test, so that a slow seat left running stops."""
    event = threading.Event()
    yield event
    event.set()


def _slow(release: threading.Event) -> None:
    end = time.monotonic() + LONG
    while time.monotonic() < end and not release.is_set():
        time.sleep(0.02)


def _fail_here(seat: int) -> None:
    raise Planted(f"seat {seat}")


@pytest.mark.parametrize("bad", [0, 1])
def test_a_failing_seat_fails_the_call_at_once_with_its_traceback(bad, release):
    def work(seat: int) -> None:
        if seat == bad:
            time.sleep(0.05)
            _fail_here(seat)
        _slow(release)

    start = time.monotonic()
    with pytest.raises(Planted, match=f"seat {bad}") as info:
        in_both_seats(work, workers=2)
    assert time.monotonic() - start < PROMPT
    frames = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
    assert "_fail_here" in frames and "work" in frames   # the seat's own traceback


def test_the_first_failure_wins_when_both_seats_fail():
    def work(seat: int) -> None:
        time.sleep(0.3 if seat == 0 else 0.0)
        _fail_here(seat)

    with pytest.raises(Planted, match="seat 1"):
        in_both_seats(work, workers=2)


def test_a_keyboard_interrupt_inside_a_seat_propagates(release):
    def work(seat: int) -> None:
        if seat == 1:
            raise KeyboardInterrupt
        _slow(release)

    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        in_both_seats(work, workers=2)
    assert time.monotonic() - start < PROMPT


def test_ctrl_c_in_the_main_thread_ends_a_two_thread_call_promptly(release):
    assert threading.current_thread() is threading.main_thread()
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            in_both_seats(lambda seat: _slow(release), workers=2)
    finally:
        timer.cancel()
    assert time.monotonic() - start < PROMPT


_SCRIPT = """
import sys, time
from solver.jobs import in_both_seats

def work(seat):
    if seat == 1 and sys.argv[1] == "fail":
        time.sleep(0.2)
        raise RuntimeError("planted failure in seat 1")
    end = time.monotonic() + %r
    while time.monotonic() < end:
        time.sleep(0.02)

print("started", flush=True)
in_both_seats(work, workers=2)
print("returned", flush=True)
""" % LONG


@pytest.mark.parametrize("how", ["ctrl-c", "fail"])
def test_the_process_ends_promptly_after_ctrl_c_or_a_failed_seat(how):
    """The whole command, not only the call: a seat still running must not hold up the
    interpreter's exit, and the exit status and message say what happened."""
    import subprocess
    import sys
    from pathlib import Path

    proc = subprocess.Popen([sys.executable, "-c", _SCRIPT, how],
                            cwd=Path(__file__).resolve().parents[1],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "started"
        start = time.monotonic()
        if how == "ctrl-c":
            time.sleep(0.3)
            proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=2 * PROMPT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the process was still running {2 * PROMPT} s after the {how}")
        assert time.monotonic() - start < 2 * PROMPT   # starting Python is not counted
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode != 0 and "returned" not in out
    assert ("KeyboardInterrupt" if how == "ctrl-c" else "planted failure in seat 1") in err


def test_both_seats_run_and_the_call_waits_for_them():
    done = []

    def work(seat: int) -> None:
        time.sleep(0.2 if seat == 0 else 0.0)
        done.append(seat)

    in_both_seats(work, workers=2)
    assert sorted(done) == [0, 1]


@pytest.mark.parametrize("bad", [0, 1])
def test_the_serial_path_raises_too(bad):
    ran = []

    def work(seat: int) -> None:
        ran.append(seat)
        if seat == bad:
            _fail_here(seat)

    with pytest.raises(Planted, match=f"seat {bad}"):
        in_both_seats(work, workers=1)
    assert ran == list(range(bad + 1))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_tournament_whose_seat_fails_raises_instead_of_reporting(monkeypatch, workers):
    """head_to_head seats the agents in each seat's work: planting a failure there for
    seat 1 must fail the tournament, not give seat 1 a 0 +/- 0 result."""
    seated = tournament.seated

    def failing(a, b, seat):
        if seat == 1:
            raise Planted("seat 1 could not be seated")
        return seated(a, b, seat)

    monkeypatch.setattr(tournament, "seated", failing)
    variant = game_def.parse("rspx:max_turns=3")
    with pytest.raises(Planted, match="seat 1"):
        tournament.head_to_head(variant, bot("honest"), bot("counter"), rounds=50,
                                workers=workers)
