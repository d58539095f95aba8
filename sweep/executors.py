"""Where the variants' jobs run: a local process pool (default) or a Ray cluster.

Both call `on_result(task, result)` in the driver as each job ends, in whatever order
they end; the driver alone writes to disk. The local pool starts a job only when its
cores and its memory estimate fit beside the jobs already running (plan.Task), so two
solves that each need most of the machine's memory never run at once. On Ray every job
is a task with that CPU and memory request, and Ray's scheduler does the same.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import signal
from typing import Callable

from game_def.errors import RobinWoodError

from .plan import Task

OnResult = Callable[[Task, dict], None]


class ExecutorError(RobinWoodError):
    """An executor that cannot run the sweep (Ray missing, cluster too small...)."""


class Stopped(RobinWoodError):
    """The caller's stop event was set: the local pool ran no more jobs (those finished
    were recorded, those in flight are lost), as after Ctrl-C."""


def _die_with_parent(parent: int) -> None:
    """Worker start-up: ask Linux to kill this worker when the driver dies (kill -9
    included), so no orphan keeps computing; elsewhere a worker finishes its job."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the driver died before prctl took effect
        os._exit(1)


def _crashed(error: BaseException) -> dict:
    return {"status": "failed", "error": f"the worker process died ({type(error).__name__}); "
            f"out of memory? lower the memory each job needs or give it more",
            "wall_seconds": None}


def run_local(tasks: list[Task], fn, on_result: OnResult, workers: int,
              memory_budget: int, stop=None) -> None:
    """Run the tasks on `workers` processes, never more memory estimates at once than
    memory_budget (a task bigger than the budget runs alone). `stop` (a
    threading.Event, or None): once set, raise Stopped within half a second, as
    Ctrl-C would; how a sweep run in a background thread is called off (the audit's band
    search beside its sections: robinwood.audit_command)."""
    pending = sorted(tasks, key=lambda t: -t.memory_bytes)  # big ones first, small fill in
    context = multiprocessing.get_context("spawn")  # no fork of a threaded driver

    def new_pool():
        return cf.ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                      initializer=_die_with_parent,
                                      initargs=(os.getpid(),))

    pool = new_pool()
    running: dict[cf.Future, Task] = {}
    finished = False
    try:
        while pending or running:
            cpus = sum(min(t.cpus, workers) for t in running.values())
            memory = sum(t.memory_bytes for t in running.values())
            for task in list(pending):
                if cpus >= workers:
                    break
                need = min(task.cpus, workers)
                if cpus + need <= workers and (memory + task.memory_bytes <= memory_budget
                                               or not running):
                    pending.remove(task)
                    running[pool.submit(fn, task.to_json())] = task
                    cpus += need
                    memory += task.memory_bytes
            done, _ = cf.wait(running, timeout=None if stop is None else 0.5,
                              return_when=cf.FIRST_COMPLETED)
            if stop is not None and stop.is_set():
                raise Stopped("the sweep was called off")
            broken = False
            for future in done:
                task = running.pop(future)
                try:
                    result = future.result()
                except cf.process.BrokenProcessPool as e:
                    result, broken = _crashed(e), True
                on_result(task, result)
            if broken:  # every job in flight died with the pool: record them, go on
                for future, task in list(running.items()):
                    on_result(task, _crashed(cf.process.BrokenProcessPool()))
                running.clear()
                pool.shutdown(wait=False, cancel_futures=True)
                pool = new_pool()
        finished = True
    finally:
        # Interrupted (Ctrl-C): do not wait for the jobs in flight; they are lost.
        pool.shutdown(wait=finished, cancel_futures=True)


def ray_module():
    try:
        import ray
    except ImportError:
        raise ExecutorError("--executor ray needs Ray: pip install 'robinwood[ray]' "
                            "(or pip install ray)") from None
    return ray


def connect(address: str | None = None):
    """Join the Ray cluster at `address` (or RAY_ADDRESS); start a local one if neither
    is given. An already initialised Ray (a notebook, the tests) is used as it is."""
    ray = ray_module()
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        _check_reachable(address)
        try:
            ray.init(address=address, log_to_driver=False, include_dashboard=False)
        except ConnectionError as e:
            raise ExecutorError(f"cannot reach the Ray cluster at {address}: "
                                f"{' '.join(str(e).split())[:200]}; start it with "
                                f"`ray start --head` or check --address") from None
    return ray


def _check_reachable(address: str | None) -> None:
    """Fail in seconds, not after Ray's long retries, when nothing listens at a
    host:port address (ray://host:port too; 'auto' and None are left to Ray)."""
    import socket

    if not address or address == "auto":
        return
    target = address.split("://", 1)[-1]
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise ExecutorError(f"Ray address {address!r} is not host:port (e.g. "
                            f"127.0.0.1:6379, printed by `ray start --head`)")
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as e:
        raise ExecutorError(f"cannot reach the Ray cluster at {address} ({e.strerror or e}); "
                            f"start it with `ray start --head` or check --address") from None


def run_ray(tasks: list[Task], fn, on_result: OnResult, address: str | None = None) -> None:
    """Each task a Ray task with num_cpus and memory requests; results as they end."""
    ray = connect(address)
    if not tasks:
        return
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    biggest_memory = max((n["Resources"].get("memory", 0) for n in nodes), default=0)
    biggest_cpus = max((n["Resources"].get("CPU", 0) for n in nodes), default=0)
    for task in tasks:
        if task.memory_bytes > biggest_memory or task.cpus > biggest_cpus:
            raise ExecutorError(
                f"variant {task.key} needs {task.cpus} CPU and "
                f"{task.memory_bytes / 1024**3:.1f} GiB, more than any node of the Ray "
                f"cluster offers ({biggest_cpus:g} CPU, {biggest_memory / 1024**3:.1f} "
                f"GiB); add a bigger node or lower the sweep's memory needs")
    remote = ray.remote(fn)
    refs = {}
    for task in tasks:
        ref = remote.options(num_cpus=task.cpus, memory=task.memory_bytes,
                             max_retries=0, name=f"sweep:{task.key}").remote(task.to_json())
        refs[ref] = task
    while refs:
        done, _ = ray.wait(list(refs), num_returns=1)
        for ref in done:
            task = refs.pop(ref)
            try:
                result = ray.get(ref)
            except Exception as e:  # the worker died: a crash, out of memory, a lost node
                result = {"status": "failed", "wall_seconds": None,
                          "error": f"Ray task failed: {type(e).__name__}: "
                                   f"{' '.join(str(e).split())[:300]}"}
            on_result(task, result)
