"""Every bad value a user can type on the command line gets one line naming the option,
the value and what is accepted, and exit status 2, before any work is done."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from robinwood.cli import cli

SOLVE = ["solve", "--deck", "rspx", "--max-turns", "2"]
MCCFR = ["solve", "--deck", "rspx", "--max-turns", "2", "--algo", "mccfr"]

# (arguments, substrings of the one error line)
BAD = [
    # counts far past what the kernels can count (numba overflow before)
    (["tournament", "honest", "paranoid", "--deck", "rspx", "--rounds",
      "99999999999999999999"], ["'--rounds'", "99999999999999999999", "1<=x<=1000000000000"]),
    (["simulate", "--deck", "rspx", "--rounds", "99999999999999999999"],
     ["'--rounds'", "99999999999999999999", "1<=x<="]),
    (["simulate", "--deck", "rspx", "--matches", "0"], ["'--matches'", "0", "1<=x<="]),
    (["league", "honest", "--deck", "rspx", "--rounds", "-4"], ["'--rounds'", "-4"]),
    # seeds: the generators take 32 bits
    (["simulate", "--deck", "rspx", "--seed", "-1"], ["'--seed'", "-1", "0<=x<=4294967295"]),
    (["simulate", "--deck", "rspx", "--seed", str(2**32)], ["'--seed'", str(2**32)]),
    # memory that follows from the options: refused up front
    (["simulate", "--deck", "rspx", "--max-turns", "1000000000", "--rounds", "10"],
     ["max_turns", "1000000000", "at most 1000"]),
    (["simulate", "--deck", "rspx", "--strikes", "99999999999999999999"],
     ["strikes", "99999999999999999999", "at most 9"]),
    # negative or non-finite budgets and limits
    (SOLVE + ["--iterations", "2", "--max-memory-gb", "-1", "--out", "o"],
     ["'--max-memory-gb'", "-1.0", "x>0"]),
    (MCCFR + ["--seconds", "1", "--max-table-gb", "-1", "--out", "o"],
     ["'--max-table-gb'", "-1.0", "x>=0.0625"]),
    (SOLVE + ["--seconds", "-1", "--out", "o"], ["'--seconds'", "-1.0", "0<x<=10000000"]),
    (MCCFR + ["--minutes", "-1", "--out", "o"], ["'--minutes'", "-1.0", "0<x<=100000"]),
    (MCCFR + ["--minutes", "1e40", "--out", "o"], ["'--minutes'", "1e+40", "0<x<=100000"]),
    (SOLVE + ["--seconds", "nan", "--out", "o"], ["'--seconds'", "'nan'", "finite",
                                                  "0<x<=10000000"]),
    (SOLVE + ["--target-exploitability", "inf", "--out", "o"],
     ["'--target-exploitability'", "'inf'", "finite"]),
    (SOLVE + ["--iterations", "2", "--checkpoint-every", "0", "--out", "o"],
     ["'--checkpoint-every'", "0<x<=10000000"]),
    (SOLVE + ["--iterations", "2", "--eval-every", "-1", "--out", "o"],
     ["'--eval-every'", "-1.0", "0<=x<=10000000"]),
    (SOLVE + ["--iterations", "2", "--alpha", "nan", "--out", "o"], ["'--alpha'", "'nan'"]),
    (MCCFR + ["--seconds", "1", "--snapshot-minutes", "5,-1", "--out", "o"],
     ["--snapshot-minutes", "'5,-1'", "positive minutes"]),
    (["exploit", "nowhere", "--minutes", "-1"], ["'--minutes'", "-1.0", "0<x<=100000"]),
    (["exploit", "nowhere", "--iterations", "-5"], ["'--iterations'", "-5", "1<=x<="]),
    (["exploit", "nowhere", "--iterations", "5", "--minutes", "1"],
     ["--minutes or --iterations"]),
    (["exploit", "nowhere", "--lbr-continuations", "heuristic,grumpy"],
     ["'--lbr-continuations'", "grumpy", "baiter"]),
    (["exploit", "nowhere", "--fallback", "grumpy"], ["'--fallback'", "'grumpy'", "baiter"]),
    (["search", "nowhere", "--fallback", "counter:visits=-3"], ["'--fallback'", "visits=-3",
                                                                "whole number"]),
    (["sweep", "--grid", "deck=rspx", "--workers", "0"], ["'--workers'", "0", "1<=x<=1024"]),
    (["sweep", "--grid", "deck=rspx", "--memory-gb", "-2"], ["'--memory-gb'", "-2.0"]),
    (["sweep", "--grid", "deck=rspx", "--mccfr-iterations", "300"],
     ["--mccfr-iterations", "300", "batch of 200"]),
    (["report", "nowhere", "--rounds", "0"], ["'--rounds'", "0"]),
    # variants that must not silently become the printed game
    (["simulate", "--variant", ":max_turns=3"], ["':max_turns=3'", "names no deck",
                                                 "standard:max_turns=3"]),
    (["simulate", "--variant", ""], ["'--variant'", "empty"]),
    (["simulate", "--deck", ""], ["'--deck'", "empty", "standard", "rspx"]),
    (["simulate", "--deck", "rspx", "--layout", ""], ["'--layout'", "empty"]),
    (["simulate", "--deck", "rspx", "--challenge-order", " "], ["'--challenge-order'",
                                                                "clockwise or random"]),
    (["simulate", "--variant", "rspx:players=2,players=3"],
     ["'players'", "given twice", "rspx:players=2,players=3"]),
    # a layout that does not deal the deck: names the deck's cards and the difference
    (["simulate", "--layout", "Robin+Robin+Peasant+Traitor", "--deck", "rspx"],
     ["'Robin+Robin+Peasant+Traitor'", "Robin, Sheriff, Peasant, Traitor",
      "Robin 2 times (the deck has 1)", "Sheriff 0 times (the deck has 1)"]),
    # options of the other solver family
    (SOLVE + ["--algo", "dcfr", "--minutes", "1", "--out", "o"],
     ["--minutes is for --algo mccfr", "--seconds"]),
    (SOLVE + ["--iterations", "5", "--workers", "1", "--out", "o"],
     ["--workers is for --algo mccfr"]),
    (MCCFR + ["--iterations", "200", "--target-exploitability", "0.1", "--out", "o"],
     ["--target-exploitability is for the exact solvers"]),
    (MCCFR + ["--iterations", "200", "--no-symmetry", "--out", "o"],
     ["--symmetry/--no-symmetry is for the exact solvers"]),
    (SOLVE + ["--seconds", "1", "--minutes", "1", "--out", "o"], ["--seconds or --minutes"]),
    # agents: bot options in range, once each; no empty name
    (["tournament", "heuristic:bluff=2", "honest", "--deck", "rspx"],
     ["bluff=2.0", "heuristic", "probability in [0, 1]"]),
    (["tournament", "threshold_challenger:t=nan", "honest", "--deck", "rspx"],
     ["t=nan", "probability"]),
    (["tournament", "heuristic:bluff=0.3,bluff=0.5", "honest", "--deck", "rspx"],
     ["'bluff'", "given twice", "'heuristic:bluff=0.3,bluff=0.5'"]),
    (["tournament", "", "honest", "--deck", "rspx"], ["empty agent name", "honest"]),
    # Monte Carlo CFR runs whole batches: an iteration count it cannot run is refused
    (MCCFR + ["--iterations", "100", "--out", "o"],
     ["--iterations", "100", "batch of 200", "give 200"]),
    (MCCFR + ["--iterations", "1100", "--out", "o"],
     ["--iterations", "1100", "batch of 200", "give 1,000 or 1,200"]),
]


def run(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(cli, args)


def one_line_error(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit), result.exception
    assert len(lines) == 1 and lines[0].startswith("robinwood: error: "), result.output
    return lines[0]


@pytest.mark.parametrize("args,needles", BAD, ids=[" ".join(a)[:60] for a, _ in BAD])
def test_bad_input_is_one_line_and_exit_2(args, needles, tmp_path, monkeypatch):
    line = one_line_error(run(args, tmp_path, monkeypatch))
    for needle in needles:
        assert needle in line, (needle, line)
    assert not (tmp_path / "o").exists()  # refused before any work


def test_mccfr_iterations_a_multiple_of_the_batch_run_exactly(tmp_path, monkeypatch):
    result = run(MCCFR + ["--iterations", "400", "--out", "o", "--json"], tmp_path,
                 monkeypatch)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output[result.output.index("{"):])["iterations"] == 400


def test_report_checks_compare_before_any_work(tmp_path, monkeypatch):
    """--compare naming nothing fails at once, before the first run is analysed."""
    monkeypatch.chdir(tmp_path)
    calls = []
    import analysis.report

    monkeypatch.setattr(analysis.report, "write_report", lambda *a, **k: calls.append(a))
    solved = CliRunner().invoke(cli, SOLVE + ["--iterations", "2", "--out", "run"])
    assert solved.exit_code == 0, solved.output
    line = one_line_error(CliRunner().invoke(cli, ["report", "run", "--compare",
                                                   str(tmp_path / "missing")]))
    assert "--compare" in line and "missing" in line and "metadata.json" in line
    assert calls == []


def test_report_on_an_interrupted_run_says_resume(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    solved = CliRunner().invoke(cli, SOLVE + ["--iterations", "2", "--out", "run"])
    assert solved.exit_code == 0, solved.output
    (tmp_path / "run" / "metadata.json").unlink()  # what Ctrl-C leaves: a checkpoint only
    for command in (["report", "run"], ["stats", "run"]):
        line = one_line_error(CliRunner().invoke(cli, command))
        assert "interrupted" in line and "--resume" in line, line
        assert "rspx:max_turns=2 with dcfr" in line, line
        assert "--out run --resume" in line, line


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_run_files_respect_the_umask(umask, tmp_path, monkeypatch):
    """Atomic writes give files 0666 less the umask, not tempfile's 0600."""
    from solver.store import atomic_savez, atomic_write_bytes
    import numpy as np

    old = os.umask(umask)
    try:
        atomic_write_bytes(tmp_path / "a.json", b"{}")
        atomic_savez(tmp_path / "b.npz", x=np.zeros(3))
    finally:
        os.umask(old)
    for name in ("a.json", "b.npz"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~umask, name


def test_a_solve_writes_its_files_with_the_umask(tmp_path, monkeypatch):
    old = os.umask(0o022)
    try:
        result = run(SOLVE + ["--iterations", "2", "--out", "o"], tmp_path, monkeypatch)
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    files = [p for p in Path(tmp_path / "o").iterdir() if p.is_file()]
    assert {p.name for p in files} >= {"metadata.json", "strategy.npz", "checkpoint.npz"}
    for p in files:
        assert stat.S_IMODE(p.stat().st_mode) == 0o644, p


# ----- paths a command writes: checked before any work --------------------------------
# Each writing command, with OUT where its output folder goes; the jobs behind them are
# replaced by recorders, so a refusal is seen to come before any work.
WRITERS = {
    "solve": SOLVE + ["--iterations", "2", "--out", "OUT"],
    "solve-mccfr": MCCFR + ["--iterations", "200", "--out", "OUT"],
    "report": ["report", "RUN", "--out", "OUT"],
    "sweep": ["sweep", "--grid", "strikes=1,2", "--base", "rspx:max_turns=2", "--out", "OUT"],
}


@pytest.fixture
def no_work(monkeypatch):
    """The work behind every writing command, replaced by a recorder that refuses."""
    import analysis.report
    import solver.exact.job
    import solver.mccfr.job
    import solver.players.agents
    import sweep.run

    calls = []

    def recorder(name):
        def record(*args, **kwargs):
            calls.append(name)
            raise RuntimeError(f"{name} started")
        return record

    for module, name in ((solver.exact.job, "solve"), (solver.mccfr.job, "solve_mccfr"),
                         (analysis.report, "write_report"), (sweep.run, "run_sweep"),
                         (solver.players.agents, "load_table_agent")):
        monkeypatch.setattr(module, name, recorder(name))
    return calls


def read_only(monkeypatch, root: Path, errno_code: int = 30) -> None:
    """Make `root` behave as a read-only file system (errno 30, EROFS) or a folder
    without write permission (13, EACCES) for anything creating a file in it: root
    passes permission bits, and no read-only file system can be mounted in a test."""
    import tempfile

    real = tempfile.mkstemp

    def mkstemp(*args, dir=None, **kwargs):
        if dir is not None and Path(os.path.abspath(dir)).is_relative_to(root):
            raise OSError(errno_code, os.strerror(errno_code), dir)
        return real(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    if errno_code == 13:
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if mode & os.W_OK
                            and Path(os.path.abspath(path)).is_relative_to(root)
                            else real_access(path, mode, **kw))


def bad_out(kind, tmp_path, monkeypatch):
    """A path that cannot be written as an output folder, and what the error says."""
    (tmp_path / "file").write_text("")
    if kind == "proc":
        return "/proc/robinwood-out", ["'/proc/robinwood-out'", "/proc"]
    if kind == "sys":
        return "/sys/robinwood-out", ["'/sys/robinwood-out'", "/sys"]
    if kind == "through-file":
        return "file/out", ["'file/out'", "'file'", "which is a file"]
    if kind == "file":
        return "file", ["'file'", "is a file, not a folder"]
    (tmp_path / "ro").mkdir()
    read_only(monkeypatch, tmp_path / "ro", 30 if kind == "read-only-fs" else 13)
    if kind == "read-only-fs":
        return "ro/a/out", ["'ro'", "read-only file system"]
    return "ro/out", ["'ro'", "not writable", "permission denied"]


def listing(root: Path) -> set:
    return {p.relative_to(root) for p in root.rglob("*")}


@pytest.mark.parametrize("kind", ["proc", "sys", "through-file", "file", "read-only-fs",
                                  "no-permission"])
@pytest.mark.parametrize("command", list(WRITERS))
def test_an_output_folder_that_cannot_be_written_is_refused_first(
        command, kind, tmp_path, monkeypatch, no_work):
    """One line naming --out, the path and the problem, exit 2, before any work (the
    old code failed late with FileNotFoundError or FileExistsError tracebacks)."""
    monkeypatch.chdir(tmp_path)
    out, needles = bad_out(kind, tmp_path, monkeypatch)
    fake_run(tmp_path / "run")
    before = listing(tmp_path)
    args = [out if a == "OUT" else str(tmp_path / "run") if a == "RUN" else a
            for a in WRITERS[command]]
    result = CliRunner().invoke(cli, args)
    assert "Traceback" not in result.output
    line = one_line_error(result)
    for needle in ["'--out'", "choose another --out", *needles]:
        assert needle in line, (needle, line)
    assert no_work == []
    assert listing(tmp_path) == before  # nothing created, the check's probe removed


@pytest.mark.parametrize("command,writes", [("exploit", "strength.json"),
                                            ("search", "search.json")])
@pytest.mark.parametrize("kind", ["proc", "folder", "read-only-fs", "no-permission"])
def test_a_run_folder_the_results_cannot_be_written_to_is_refused_first(
        command, writes, kind, tmp_path, monkeypatch, no_work):
    """exploit and search write their results into RUN_DIR: checked before the table
    is loaded (the old code found out after the whole measurement)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run").mkdir()
    if kind == "proc":
        run_dir, needles = "/proc/self", ["/proc"]
    elif kind == "folder":
        (tmp_path / "run" / writes).mkdir()
        run_dir, needles = "run", [f"'run/{writes}' is a folder, not a file"]
    else:
        read_only(monkeypatch, tmp_path / "run", 30 if kind == "read-only-fs" else 13)
        run_dir, needles = "run", ["'run'", "read-only file system" if kind ==
                                   "read-only-fs" else "permission denied"]
    before = listing(tmp_path)
    result = CliRunner().invoke(cli, [command, run_dir])
    assert "Traceback" not in result.output
    line = one_line_error(result)
    for needle in ["'RUN_DIR'", f"RUN_DIR/{writes}", "choose another RUN_DIR", *needles]:
        assert needle in line, (needle, line)
    assert no_work == []
    assert listing(tmp_path) == before


def fake_run(path: Path) -> None:
    """A folder read_metadata takes for a finished run (report checks it first)."""
    from solver.store import FORMAT_VERSION

    path.mkdir(parents=True)
    (path / "metadata.json").write_text(json.dumps(
        {"variant": "rspx:max_turns=2", "format_version": FORMAT_VERSION}))


def test_reports_default_folder_is_checked_first(tmp_path, monkeypatch, no_work):
    """Without --out, report writes reports/<name of RUN_DIR>: checked as well."""
    monkeypatch.chdir(tmp_path)
    fake_run(tmp_path / "runs" / "base")
    (tmp_path / "reports").write_text("")
    line = one_line_error(CliRunner().invoke(cli, ["report", "runs/base"]))
    for needle in ["'--out'", "'reports/base'", "'reports'", "which is a file",
                   "default output folder", "choose another --out"]:
        assert needle in line, (needle, line)
    assert no_work == []


def test_sweeps_default_folder_is_checked_first(tmp_path, monkeypatch, no_work):
    """Without --out, sweep writes sweeps/<name>: checked as well, naming --name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sweeps").write_text("")
    line = one_line_error(CliRunner().invoke(cli, [
        "sweep", "--grid", "strikes=1,2", "--base", "rspx:max_turns=2", "--name", "t"]))
    for needle in ["'--out'", "'sweeps/t'", "'sweeps'", "which is a file",
                   "choose another --name, or give --out"]:
        assert needle in line, (needle, line)
    assert no_work == []


def test_a_writable_output_folder_passes_the_check(tmp_path, monkeypatch):
    """The check lets a good --out through, and leaves nothing of its own behind."""
    from common.paths import write_problem

    monkeypatch.chdir(tmp_path)
    (tmp_path / "run").mkdir()
    for path in ("new/deep/out", "run", str(tmp_path / "x"), "."):
        assert write_problem(path) is None, path
    assert write_problem("run/strength.json", folder=False) is None
    assert listing(tmp_path) == {Path("run")}


def test_a_write_failing_late_is_one_line_not_a_traceback(tmp_path, monkeypatch):
    """An OSError after the checks (a full disk, say) ends with one line and a non-zero
    status, not a traceback."""
    import errno

    import solver.exact.job

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "out/strategy.npz")

    monkeypatch.setattr(solver.exact.job, "solve", full)
    result = run(SOLVE + ["--iterations", "2", "--out", "out"], tmp_path, monkeypatch)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines == ["robinwood: error: No space left on device: 'out/strategy.npz'"]
