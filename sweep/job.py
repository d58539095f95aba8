"""One variant's job, run by a worker (a process-pool process or a Ray task): solve by
the planned method (the game's: sweep.robin_wood, sweep.treasure), measure, and hand
back the metric rows and the run directory's files.

The job solves in a private temporary folder and returns the files as bytes, so the
driver alone writes into sweeps/<name>/ (atomically) and a Ray worker on another
machine needs no shared disk. The resumable state (checkpoint.npz) is left out: a
finished variant is never resumed, only skipped.
"""

from __future__ import annotations

import shutil
import tempfile
import time
import traceback
from pathlib import Path

from .catalogue import game_named
from .plan import Task

LEFT_OUT = ("checkpoint.npz",)




def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or "no message"
    return f"{type(error).__name__}: {text}"[:400]


def _ray_resources() -> dict | None:
    """The CPU and memory Ray assigned to this task (None outside a Ray worker)."""
    import sys

    ray = sys.modules.get("ray")
    if ray is None or not ray.is_initialized():
        return None
    try:
        return dict(ray.get_runtime_context().get_assigned_resources())
    except Exception:  # not in a task (a driver that imported ray)
        return None


def run_task(task_json: dict) -> dict:
    """Solve and measure one variant; never raises for the variant's own failures: a
    failure comes back as status 'failed' with a one-line error."""
    task = Task.from_json(task_json)
    start = time.perf_counter()
    scratch = Path(tempfile.mkdtemp(prefix=f"robinwood-sweep-{task.slug[:40]}-"))
    try:
        out = scratch / task.slug
        measured = game_named(task.game).methods[task.method](task, out)
        files = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
                 if p.is_file() and p.name not in LEFT_OUT}
        return {"status": "done", "files": files, "wall_seconds": time.perf_counter() - start,
                "ray_resources": _ray_resources(), **measured}
    except Exception as e:  # the variant's failure, recorded; the sweep goes on
        return {"status": "failed", "error": _one_line(e), "traceback": traceback.format_exc(),
                "wall_seconds": time.perf_counter() - start}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
