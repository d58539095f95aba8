"""The audit's band search runs beside its sections (robinwood.audit_command,
common.background): it starts before the sections end, its frame reaches the page, and
it is called off when the sections fail; a sweep's local pool stops on its event
(sweep.executors.run_local)."""

from __future__ import annotations

import importlib
import threading
import time

import pandas as pd
import pytest
from click.testing import CliRunner

from common.background import Background
from robinwood.cli import cli

SPEC = "Robin+Peasant+Traitor:max_turns=1"


def test_a_background_job_gives_its_value_or_raises_its_error_in_the_caller():
    """Planted bugs: result() returning before the job ends (None), or swallowing the
    job's exception."""
    def slow_sum(a, b, stop):
        time.sleep(0.2)
        return a + b

    assert Background(slow_sum, 2, 3).result() == 5

    def broken(stop):
        raise ValueError("the job's own error")

    with pytest.raises(ValueError, match="the job's own error"):
        Background(broken).result()


def test_cancel_sets_the_event_the_job_watches():
    """Planted bug: cancel() joining without setting the event (the job would run its
    full 10 s and cancel return only at its timeout)."""
    seen = {}

    def waits(stop):
        seen["stopped"] = stop.wait(10)

    job = Background(waits)
    start = time.perf_counter()
    job.cancel(timeout=5)
    assert seen == {"stopped": True} and time.perf_counter() - start < 2


def test_a_set_stop_event_ends_the_local_pool_and_keeps_what_finished():
    """Planted bug: run_local ignoring the event (all eight jobs run, and no Stopped)."""
    from sweep.executors import Stopped, run_local
    from sweep.plan import Task
    from sweep_jobs import timed_job

    tasks = [Task(i, f"v{i}", f"v{i}", "", {}, "exact", None, 1, 1, 0, {})
             for i in range(8)]
    ended = {}
    stop = threading.Event()

    def on_result(task, result):
        ended[task.index] = result
        stop.set()   # called off once the first job has ended

    with pytest.raises(Stopped):
        run_local(tasks, timed_job, on_result, workers=1, memory_budget=1 << 40,
                  stop=stop)
    assert len(ended) == 1
    assert all(r["status"] == "done" for r in ended.values())


@pytest.fixture
def fake_band(monkeypatch):
    """sweep.band.band_search replaced by one that notes when it started and whether it
    was called off, and returns a one-row frame."""
    calls = {}

    def search(variant, target, out, *, workers, pairs, say, stop, settings, seed):
        calls["started"] = time.perf_counter()
        calls["stopped"] = stop.wait(1.5)
        return pd.DataFrame({"kind": ["single"]}, index=["a variant"])

    monkeypatch.setattr(importlib.import_module("sweep.band"), "band_search", search)
    return calls


def test_the_band_search_starts_before_the_sections_end_and_reaches_the_page(
        fake_band, monkeypatch, tmp_path):
    """Planted bug: the band search run after the sections (its start after theirs
    ended), or its frame not handed to the page."""
    sections = {}

    def sections_run(variant, **kwargs):
        time.sleep(0.5)
        sections["ended"] = time.perf_counter()
        return "the audit"

    written = {}

    def write(result, out, found):
        written.update(result=result, found=found)
        return tmp_path / "index.html"

    monkeypatch.setattr(importlib.import_module("analysis.audit"), "audit", sections_run)
    monkeypatch.setattr(importlib.import_module("analysis.audit_page"), "write_audit", write)
    result = CliRunner().invoke(cli, ["audit", SPEC, "--out", str(tmp_path / "page"),
                                      "--target", "starter_edge in [0,0.1]"])
    assert result.exit_code == 0, result.output
    assert fake_band["started"] < sections["ended"]
    assert fake_band["stopped"] is False
    assert written["result"] == "the audit"
    assert written["found"][0] == "starter_edge in [0, 0.1]"
    assert list(written["found"][1].index) == ["a variant"]


def test_the_band_search_is_called_off_when_the_sections_fail(fake_band, monkeypatch,
                                                               tmp_path):
    """Planted bug: no cancel() on the sections' error (the search would go on alone;
    here `stopped` stays False)."""
    from analysis.audit import AuditError

    def fails(variant, **kwargs):
        time.sleep(0.2)
        raise AuditError("the sections failed on purpose")

    monkeypatch.setattr(importlib.import_module("analysis.audit"), "audit", fails)
    result = CliRunner().invoke(cli, ["audit", SPEC, "--out", str(tmp_path / "page"),
                                      "--target", "starter_edge in [0,0.1]"])
    assert result.exit_code != 0
    assert "the sections failed on purpose" in result.output
    assert fake_band["stopped"] is True


@pytest.fixture
def settings_seen(monkeypatch, tmp_path):
    """band_search replaced by one that keeps its settings and seed; the page writer
    and both audits replaced by stubs."""
    seen = {}

    def search(variant, target, out, *, workers, pairs, say, stop, settings, seed):
        seen.update(settings=settings, seed=seed)
        return pd.DataFrame({"kind": ["single"]}, index=["a variant"])

    monkeypatch.setattr(importlib.import_module("sweep.band"), "band_search", search)
    monkeypatch.setattr(importlib.import_module("analysis.audit"), "audit",
                        lambda variant, **kwargs: "exact audit")
    monkeypatch.setattr(importlib.import_module("analysis.audit_sampled"), "sampled_audit",
                        lambda variant, work, settings, **kwargs: "sampled audit")
    monkeypatch.setattr(importlib.import_module("analysis.audit_page"), "write_audit",
                        lambda result, out, found: tmp_path / "index.html")
    return seen


def test_a_sampled_audit_searches_the_band_by_monte_carlo_cfr_at_its_own_budget(
        settings_seen, tmp_path):
    """Planted bugs: the sampled band search refused, or run at the sweep's defaults
    (60 s of training a variant, not reproducible), or by the exact solver."""
    result = CliRunner().invoke(cli, ["audit", SPEC, "--method", "sampled", "--target",
                                      "starter_edge in [-0.02,0.02]", "--iterations",
                                      "1234", "--rounds", "5678", "--seed", "7",
                                      "--out", str(tmp_path / "page"),
                                      "--work", str(tmp_path / "work")])
    assert result.exit_code == 0, result.output
    s = settings_seen["settings"]
    assert (s.method, s.mccfr_iterations, s.mccfr_seconds, s.rounds) == (
        "mccfr", 1234, None, 5678)
    assert settings_seen["seed"] == 7


def test_an_exact_audit_searches_the_band_at_the_sweeps_defaults(settings_seen, tmp_path):
    result = CliRunner().invoke(cli, ["audit", SPEC, "--target", "starter_edge in [0,1]",
                                      "--out", str(tmp_path / "page")])
    assert result.exit_code == 0, result.output
    assert settings_seen["settings"] is None
