"""`robinwood sweep`: plan the grid, skip finished variants, run the rest on the chosen
executor with a progress bar, record each as it ends, then write the table and report."""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

import pandas as pd

from .executors import ExecutorError, run_local, run_ray
from .grid import GridError, SweepSpec
from .plan import GiB, Task, plan
from .store import SweepStore, tidy_table, variants_table

EXECUTORS = ("process", "ray")


@dataclasses.dataclass
class SweepResult:
    root: Path
    table: pd.DataFrame          # tidy: one row per variant and metric
    variants: pd.DataFrame       # one row per variant: method, cost, status
    tasks: list[Task]
    skipped: int                 # finished earlier, not run again
    ran: int
    failed: int
    report: Path | None

    @property
    def table_path(self) -> Path:
        return self.root / "table.csv"


def default_memory_budget() -> int:
    """80% of the memory available now (as the solve job allows itself)."""
    from solver.exact.job import available_memory_bytes

    return int(0.8 * available_memory_bytes())


def default_workers() -> int:
    return max(1, len(__import__("os").sched_getaffinity(0)))


def write_table(root: Path, table: pd.DataFrame) -> list[Path]:
    """table.csv always; table.parquet too when pyarrow is installed."""
    from solver.store import atomic_write_bytes

    paths = [root / "table.csv"]
    atomic_write_bytes(paths[0], table.to_csv(index=False).encode())
    try:
        import io

        import pyarrow  # noqa: F401
    except ImportError:
        return paths
    buffer = io.BytesIO()
    table.to_parquet(buffer, index=False)
    atomic_write_bytes(root / "table.parquet", buffer.getvalue())
    return paths + [root / "table.parquet"]


def run_sweep(spec: SweepSpec, out: str | Path | None = None, *, executor: str = "process",
              workers: int | None = None, memory_budget: int | None = None,
              address: str | None = None, progress: bool = True, report: bool = True,
              job=None, say=None, stop=None) -> SweepResult:
    """Solve every variant of the grid not finished earlier; return the table.

    job: the function run per variant (default sweep.job.run_task; tests pass one that
    fails on purpose). say: where one-line messages go (default stderr). stop: a
    threading.Event that calls the sweep off once set (the process executor raises
    sweep.executors.Stopped; finished variants are kept, as after Ctrl-C); the Ray
    executor refuses one.
    """
    from tqdm import tqdm

    from .job import run_task

    if executor not in EXECUTORS:
        raise ExecutorError(f"unknown executor {executor!r}; choose one of "
                            f"{', '.join(EXECUTORS)}")
    if workers is not None and workers < 1:
        raise GridError(f"--workers must be at least 1 (got {workers})")
    job = job or run_task
    if executor == "ray" and stop is not None:
        raise ExecutorError("a sweep on Ray cannot be called off by an event: run it "
                            "with the process executor, or cancel it from Ray")
    if executor == "ray":  # before counting trees: a missing Ray or cluster fails at once
        import os

        from .executors import _check_reachable, ray_module

        ray_module()
        _check_reachable(address or os.environ.get("RAY_ADDRESS"))
    say = say or (lambda text: print(f"robinwood: {text}", file=sys.stderr))
    root = Path(out) if out is not None else Path("sweeps") / spec.name
    budget = memory_budget or default_memory_budget()
    workers = workers or default_workers()
    store = SweepStore(root)
    spec_json = spec.to_json()
    cache = store.read_plan_cache()
    tasks = plan(spec, budget, cache)  # GridError on a bad grid, before anything runs
    store.prepare(spec_json)
    store.write_plan_cache(cache)
    todo = [t for t in tasks if not store.finished(t)]
    skipped = len(tasks) - len(todo)
    methods = pd.Series([t.method for t in tasks]).value_counts().to_dict()
    say(f"sweep {spec.name}: {len(tasks)} variants ("
        + ", ".join(f"{n} {m}" for m, n in methods.items()) + f"), {skipped} finished "
        f"earlier; {executor} executor"
        + (f", {workers} workers, {budget / GiB:.1f} GiB" if executor == "process" else ""))
    failed = 0
    bar = tqdm(total=len(todo), unit="variant", file=sys.stderr, disable=not progress or None,
               desc=f"sweep {spec.name}", dynamic_ncols=True)

    def on_result(task: Task, result: dict) -> None:
        nonlocal failed
        store.commit(task, result)
        if result["status"] != "done":
            failed += 1
            bar.write(f"robinwood: {task.key} failed: {result['error']}", file=sys.stderr)
        bar.set_postfix_str(f"failed {failed}" if failed else "")
        bar.update(1)

    started = time.perf_counter()
    try:
        if executor == "ray":
            run_ray(todo, job, on_result, address)
        else:
            run_local(todo, job, on_result, workers, budget, stop)
    finally:
        bar.close()
    pairs = store.records(tasks)
    table = tidy_table(spec.name, [name for name, _ in spec.axes if name in spec.varying],
                       pairs)
    variants = variants_table(pairs)
    write_table(root, table)
    variants.to_csv(root / "variants.csv", index=False)
    page = None
    if report:
        from .report import write_sweep_report

        page = write_sweep_report(spec, root, table, variants)
    say(f"sweep {spec.name}: {len(todo) - failed} solved, {failed} failed, {skipped} "
        f"skipped in {time.perf_counter() - started:.1f} s -> {root / 'table.csv'}"
        + (f", {page}" if page else ""))
    return SweepResult(root, table, variants, tasks, skipped, len(todo), failed, page)
