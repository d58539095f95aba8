"""Sweep executors: an 8-variant sweep's wall time on 1 and 2 local workers and on a local
Ray instance (2 CPUs), and each executor's overhead per task.

    nice -n 15 .venv/bin/python benchmarks/bench_sweep.py [--base rspx:max_turns=5]

Every variant is solved exactly (DCFR to exploitability 1e-3; the default grid's eight
trees are all the same size), so the ratio 1 worker / 2 workers is what the pool gains
from the second core. The three runs must give the same table (checked). Overhead: the
marginal wall time per no-op task (T(2n) - T(n)) / n, start-up excluded, for the process
pool (2 workers) and for Ray (2 CPUs).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GRID = "first_player=0,1 traitor_strikes_on_reveal=false,true challenge_order=clockwise,random"


def noop_job(task_json: dict) -> dict:
    """No solve: what an executor costs per task."""
    return {"status": "done"}


def load() -> str:
    return "load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def sweep_seconds(spec, out: Path, **kwargs) -> tuple[float, bytes, float]:
    """(sweep wall seconds, table.csv, sum of the variants' own wall seconds)."""
    from sweep import run_sweep

    start = time.perf_counter()
    result = run_sweep(spec, out, progress=False, report=False, say=lambda t: None, **kwargs)
    seconds = time.perf_counter() - start
    assert result.failed == 0 and result.ran == len(result.tasks)
    return seconds, (out / "table.csv").read_bytes(), result.variants["wall_seconds"].sum()


def overhead(executor: str, n: int) -> tuple[float, float, float]:
    """(wall for 2 no-op tasks: start-up, wall for n, seconds per task beyond start-up);
    each the best of two tries (the machine is shared)."""
    from sweep.executors import run_local, run_ray
    from sweep.plan import Task

    def tasks(count):
        return [Task(i, f"v{i}", f"v{i}", "", {}, "exact", None, 64 * 1024**2, 1, 0, {})
                for i in range(count)]

    walls = []
    for count in (2, n):
        best = float("inf")
        for _ in range(2):
            start = time.perf_counter()
            if executor == "ray":
                run_ray(tasks(count), noop_job, lambda t, r: None)
            else:
                run_local(tasks(count), noop_job, lambda t, r: None, workers=2,
                          memory_budget=8 * 1024**3)
            best = min(best, time.perf_counter() - start)
        walls.append(best)
    return walls[0], walls[1], (walls[1] - walls[0]) / (n - 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default="rspx:max_turns=5")
    parser.add_argument("--grid", default=GRID)
    parser.add_argument("--tasks", type=int, default=500, help="no-op tasks for overhead")
    args = parser.parse_args()

    import ray

    from sweep import spec_from_text

    spec = spec_from_text(args.grid, args.base, "bench")
    n = len(spec.points())
    print(f"sweep: {n} variants, base {args.base}, grid {args.grid!r}; machine: "
          f"{os.cpu_count()} cores (shared with other jobs)")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # A first run compiles nothing new but warms the disk cache of numba's kernels.
        sweep_seconds(spec, tmp / "warm", workers=2)
        print(f"(sum of the variants' own wall times shows contention: with 2 at once on "
              f"a free 2-core machine it stays as with 1)")
        print(load())
        one, table1, own1 = sweep_seconds(spec, tmp / "w1", workers=1)
        print(f"process pool, 1 worker:  {one:7.1f} s   variants' own {own1:6.1f} s; {load()}")
        two, table2, own2 = sweep_seconds(spec, tmp / "w2", workers=2)
        print(f"process pool, 2 workers: {two:7.1f} s   variants' own {own2:6.1f} s; "
              f"{load()}; speed-up {one / two:.2f}x (target >= 1.8x)")
        start = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        ray_start = time.perf_counter() - start
        on_ray, table3, own3 = sweep_seconds(spec, tmp / "ray", executor="ray")
        print(f"local Ray, 2 CPUs:       {on_ray:7.1f} s   variants' own {own3:6.1f} s; "
              f"{load()}; speed-up {one / on_ray:.2f}x (ray.init {ray_start:.1f} s not "
              f"counted)")
        print(f"same table on all three: {table1 == table2 == table3}")
        print(f"jobs in flight on average (variants' own / wall): 1 worker "
              f"{own1 / one:.2f}, 2 workers {own2 / two:.2f}, Ray {own3 / on_ray:.2f}; a "
              f"variant's own time with 2 at once / alone: {own2 / own1:.2f}x (1.0 on two "
              f"free cores)")
        pool = overhead("process", args.tasks)
        rayo = overhead("ray", args.tasks)
        ray.shutdown()
    print(f"overhead: {args.tasks} no-op tasks against 2 (start-up), best of two; {load()}")
    print(f"  process pool (2 workers): {1e3 * pool[2]:6.2f} ms a task, start-up "
          f"{pool[0]:.2f} s")
    print(f"  local Ray (2 CPUs):       {1e3 * rayo[2]:6.2f} ms a task, start-up "
          f"{rayo[0]:.2f} s (ray.init not counted)")
    print(f"  Ray / pool per task: {rayo[2] / pool[2]:.2f}x")


if __name__ == "__main__":
    main()
