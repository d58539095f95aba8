"""Monte Carlo CFR on W workers (docs/mccfr.md, "Workers"): a batch is cut into chunks
that read the tables frozen at the batch start and are merged in chunk order, so the
tables are bit-identical whatever the number of workers, resume exactly, and one chunk
per seat is the scheme of one worker per seat."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from robinwood.cli import cli
from solver.mccfr.job import solve_mccfr
from solver.mccfr import kernels as kern
from solver.mccfr.trainer import MCCFRConfig, MCCFRError, MCCFRSolver, chunk_sizes

RSPX4 = game_def.parse("rspx:max_turns=4")
TABLE_ARRAYS = ("slots", "keys", "level", "offset", "nact", "visits", "regret", "ssum")


def _arrays(solver: MCCFRSolver) -> list[dict[str, np.ndarray]]:
    """Every table array of both seats (the used part), and the random streams."""
    out = []
    for seat, t in enumerate(solver.tables):
        e, a = t.entries, t.action_slots
        arrays = {name: getattr(t, name)[:e] for name in ("keys", "level", "offset", "nact",
                                                         "visits")}
        arrays.update(slots=t.slots, regret=t.regret[:a], ssum=t.ssum[:a], meta=t.meta,
                      rng=solver.rngs[seat])
        out.append(arrays)
    return out


def _assert_identical(a: MCCFRSolver, b: MCCFRSolver) -> None:
    for seat, (x, y) in enumerate(zip(_arrays(a), _arrays(b))):
        assert x["keys"].size > 0
        for name in x:
            assert np.array_equal(x[name], y[name]), (seat, name)
            # bit for bit, not merely equal (0.0 and -0.0, NaN payloads)
            assert x[name].tobytes() == y[name].tobytes(), (seat, name)


def _run(config: MCCFRConfig, batches: int) -> MCCFRSolver:
    solver = MCCFRSolver(config)
    solver.run(batches)
    return solver


CONFIGS = {
    "plain": MCCFRConfig(RSPX4, batch_iterations=60, chunks=6, seed=2, fine_visits=5),
    "league, shared world, letters": MCCFRConfig(
        RSPX4, batch_iterations=60, chunks=5, seed=4, fine_visits=5,
        league_opponents=("tempo", "baiter"), league_share=0.3, shared_world=True,
        coarse_actions="letters"),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_one_two_and_four_workers_give_bit_identical_tables(name):
    config = CONFIGS[name]
    runs = {w: _run(dataclasses.replace(config, workers=w), 4) for w in (1, 2, 4)}
    assert runs[1].counters()["overflow"] == 0
    assert runs[1].counters()["mismatch"] == 0
    _assert_identical(runs[1], runs[2])
    _assert_identical(runs[1], runs[4])
    assert runs[1].nodes == runs[2].nodes == runs[4].nodes


def test_four_workers_repeated_do_not_depend_on_thread_timing():
    # Many small chunks on more threads than cores: the order in which chunks finish
    # varies from run to run, the tables must not.
    config = MCCFRConfig(RSPX4, batch_iterations=48, chunks=16, seed=9, workers=4,
                         fine_visits=5, shared_world=True)
    reference = _run(dataclasses.replace(config, workers=1), 3)
    for _ in range(4):
        _assert_identical(reference, _run(config, 3))


def test_resume_from_a_checkpoint_equals_an_uninterrupted_run():
    config = dataclasses.replace(CONFIGS["league, shared world, letters"], workers=4)
    whole = _run(config, 4)
    half = _run(dataclasses.replace(config, workers=2), 2)
    resumed = MCCFRSolver.from_state_arrays(config, half.state_arrays())
    resumed.run(2)
    _assert_identical(whole, resumed)


def _per_seat_worker_run(config: MCCFRConfig, batches: int) -> MCCFRSolver:
    """The scheme before chunks: each seat's batch by one worker writing the tables
    directly (kern.run_worker, which the exploiter still uses), seat 0 then seat 1."""
    solver = MCCFRSolver(config)
    for _ in range(batches):
        views = solver._prepare()
        for seat in (0, 1):
            solver.nodes += kern.run_worker(seat, config.batch_iterations, solver.cfg,
                                            solver.rules, solver.rngs[seat], views[seat],
                                            views[1 - seat], solver.league, solver.locks)
        solver.batches += 1
    return solver


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_one_chunk_per_seat_is_the_per_seat_worker_scheme(name):
    config = dataclasses.replace(CONFIGS[name], chunks=1)
    _assert_identical(_per_seat_worker_run(config, 4), _run(config, 4))


def test_more_chunks_change_the_tables():
    # The chunk count is part of the run (recorded in its settings): a test that the
    # merge is not a no-op, and that chunks do read a frozen table.
    config = CONFIGS["plain"]
    one = _arrays(_run(dataclasses.replace(config, chunks=1), 3))
    six = _arrays(_run(config, 3))
    assert not np.array_equal(one[0]["regret"][:50], six[0]["regret"][:50])


def test_chunk_sizes_cover_the_batch_whatever_the_workers():
    assert chunk_sizes(200, 8) == [25] * 8
    assert chunk_sizes(10, 4) == [3, 3, 2, 2]
    assert sum(chunk_sizes(7, 16)) == 7


@pytest.mark.parametrize("field, value", [("workers", 0), ("workers", -1), ("workers", 1.5),
                                          ("workers", True), ("chunks", 0),
                                          ("chunks", 2.0), ("chunks", 10**6)])
def test_bad_counts_are_refused(field, value):
    with pytest.raises(MCCFRError, match=field):
        MCCFRConfig(RSPX4, **{field: value})


def _drop_chunks_from_checkpoint(path) -> None:
    """Rewrite a checkpoint as the code before chunks wrote it (no "chunks" setting)."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    info = json.loads(str(arrays.pop("info")))
    del info["config"]["chunks"]
    np.savez(path, info=np.array(json.dumps(info)), **arrays)


def test_a_checkpoint_from_before_chunks_resumes_as_one_chunk_or_names_the_fix(tmp_path):
    one = MCCFRConfig(RSPX4, batch_iterations=50, seed=7, chunks=1)
    solve_mccfr(one, tmp_path / "whole", max_iterations=200)
    solve_mccfr(one, tmp_path / "old", max_iterations=100)
    _drop_chunks_from_checkpoint(tmp_path / "old" / "checkpoint.npz")
    with pytest.raises(MCCFRError, match=r"trained with 1 chunk\(s\) per seat, not 4; "
                                         r"resume it with --chunks 1$"):
        solve_mccfr(dataclasses.replace(one, chunks=4), tmp_path / "old",
                    max_iterations=200, resume=True)
    solve_mccfr(dataclasses.replace(one, workers=4), tmp_path / "old", max_iterations=200,
                resume=True)
    whole = np.load(tmp_path / "whole" / "table.npz")
    resumed = np.load(tmp_path / "old" / "table.npz")
    assert sorted(whole.files) == sorted(resumed.files)
    for name in whole.files:
        assert np.array_equal(whole[name], resumed[name]), name


@pytest.mark.parametrize("value, needle", [("0", "0 is not in the range 1<=x<=1024"),
                                           ("-2", "-2 is not in the range"),
                                           ("1.5", "'1.5' is not a valid integer"),
                                           ("two", "'two' is not a valid integer")])
def test_cli_refuses_bad_worker_counts_in_one_line(tmp_path, value, needle):
    result = CliRunner().invoke(cli, ["solve", "--variant", "rspx:max_turns=3", "--algo",
                                      "mccfr", "--iterations", "200", "--workers", value,
                                      "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert needle in result.output and "--workers" in result.output
    assert "Traceback" not in result.output


def test_cli_trains_on_four_workers_and_records_the_chunks(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["solve", "--variant", "rspx:max_turns=3", "--algo",
                                      "mccfr", "--iterations", "200", "--workers", "4",
                                      "--chunks", "3", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["workers"] == 4 and summary["algorithm"]["chunks"] == 3
    assert summary["iterations"] == 200 and summary["infosets"] > 0
