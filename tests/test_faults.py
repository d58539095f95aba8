"""Faults: a job killed with SIGKILL (no chance to write anything) and resumed from its
last checkpoint ends with the same strategy as a run that was never interrupted, and an
exact job started with SIGINT ignored (as a background job from a script) still stops
on Ctrl-C with a checkpoint."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from robinwood.cli import cli

ROOT = Path(__file__).resolve().parents[1]


def start(args, out: Path, **popen):
    return subprocess.Popen([sys.executable, "-m", "robinwood", *args, "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"}, **popen)


def kill_after_first_checkpoint(proc, out: Path, timeout: float = 240.0) -> None:
    """SIGKILL the job once its first checkpoint is on disk (and before it finished)."""
    deadline = time.monotonic() + timeout
    while not (out / "checkpoint.npz").exists():
        assert proc.poll() is None, f"the job ended first: {proc.stderr.read()}"
        assert time.monotonic() < deadline, "no checkpoint written in time"
        time.sleep(0.05)
    proc.kill()
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert not (out / "metadata.json").exists(), "the job finished before it was killed"


def arrays(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


def assert_same_arrays(a: Path, b: Path, skip=()) -> None:
    x, y = arrays(a), arrays(b)
    assert x.keys() == y.keys()
    for name in x:
        if name not in skip:
            assert np.array_equal(x[name], y[name]), name


def resume(args, out: Path):
    result = CliRunner().invoke(cli, [*args, "--out", str(out), "--resume", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output[result.output.index("{"):])


def uninterrupted(args, out: Path):
    result = CliRunner().invoke(cli, [*args, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output[result.output.index("{"):])


@pytest.mark.parametrize("variant", ["rspx:max_turns=3",
                                     "rspx:players=3,max_turns=3"])  # one table a seat
def test_mccfr_killed_and_resumed_gives_the_uninterrupted_table(tmp_path, variant):
    args = ["solve", "--variant", variant, "--algo", "mccfr", "--iterations",
            "20000", "--workers", "2", "--seed", "7", "--checkpoint-every", "0.2"]
    proc = start(args, tmp_path / "killed")
    kill_after_first_checkpoint(proc, tmp_path / "killed")
    resumed = resume(args, tmp_path / "killed")
    whole = uninterrupted(args, tmp_path / "whole")
    assert resumed["iterations"] == whole["iterations"] == 20000
    assert resumed["infosets"] == whole["infosets"]
    assert_same_arrays(tmp_path / "killed" / "table.npz", tmp_path / "whole" / "table.npz")


@pytest.mark.parametrize("variant, iterations, extra", [
    ("rspx:max_turns=3", 60000, []),
    ("rspx:players=3,max_turns=2", 20000, []),                          # three players
    ("rspmx:max_turns=2", 15000, ["--lock", "respond claim=Monk: pass=1"]),  # locks
])
def test_exact_job_with_a_long_eval_every_checkpoints_on_time_and_resumes(
        variant, iterations, extra, tmp_path):
    """With --eval-every far longer than the run, checkpoints still come every
    --checkpoint-every seconds; kill -9 then --resume equals the uninterrupted run, for
    two players, three, and with locks."""
    args = ["solve", "--variant", variant, "--algo", "dcfr", "--iterations",
            str(iterations), "--eval-every", "100000", "--checkpoint-every", "0.2", *extra]
    proc = start(args, tmp_path / "killed")
    kill_after_first_checkpoint(proc, tmp_path / "killed")
    with np.load(tmp_path / "killed" / "checkpoint.npz") as data:
        done = json.loads(str(data["settings"]))["iteration"]
    assert 0 < done < iterations
    resumed = resume(args, tmp_path / "killed")
    whole = uninterrupted(args, tmp_path / "whole")
    assert resumed["iterations"] == whole["iterations"] == iterations
    assert resumed["exploitability"] == whole["exploitability"]
    # trie_token: the tree builder saves slots of a np.empty buffer it never writes
    # (solver/exact/robinwood_tree.py), so two builds of one tree differ there; every
    # array the strategy is made of must match.
    assert_same_arrays(tmp_path / "killed" / "strategy.npz",
                       tmp_path / "whole" / "strategy.npz", skip=("trie_token",))


def test_exact_job_stops_on_sigint_even_when_started_with_it_ignored(tmp_path):
    """A job launched in the background from a script inherits SIGINT ignored; the job
    installs its handler anyway, so `kill -INT` checkpoints and exits with 130."""
    out = tmp_path / "run"
    proc = start(["solve", "--variant", "rspx:max_turns=3", "--algo", "cfr+",
                  "--iterations", "100000000", "--checkpoint-every", "1000"], out,
                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if "tree:" in line:
            break
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    try:
        _, stderr = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the job ignored SIGINT")
    stderr = "".join(seen) + stderr
    assert proc.returncode == 130, stderr
    assert "interrupted at iteration" in stderr and "--resume" in stderr
    assert (out / "checkpoint.npz").exists()
