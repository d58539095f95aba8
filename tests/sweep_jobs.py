"""Job functions for the sweep tests, importable by spawned pool workers (the tests
folder is on their sys.path): the real job, slowed down or made to fail on purpose."""

from __future__ import annotations

import time

from sweep.job import run_task

FAILING = "rspx:strikes=1,max_turns=3,traitor_strikes_on_reveal=true"


def failing_job(task_json: dict) -> dict:
    """The real job, except that one variant raises inside the job, as a bug would."""
    if task_json["key"] == FAILING:
        def explode():
            raise RuntimeError("deliberate failure for the test\nsecond line")
        from sweep import robin_wood

        saved = robin_wood.METHODS[task_json["method"]]
        robin_wood.METHODS[task_json["method"]] = lambda task, out: explode()
        try:
            return run_task(task_json)
        finally:
            robin_wood.METHODS[task_json["method"]] = saved
    return run_task(task_json)


def slow_job(task_json: dict) -> dict:
    """The real job after a pause, so a driver can be killed with a variant in flight."""
    time.sleep(1.5)
    return run_task(task_json)


def timed_job(task_json: dict) -> dict:
    """No solve: hold the worker 0.4 s and say when, for scheduling tests."""
    import os

    start = time.monotonic()
    time.sleep(0.4)
    return {"status": "done", "start": start, "end": time.monotonic(), "pid": os.getpid()}
