"""What every long job shares: the interruption it reports, the memory it may use and
has used, and the package version it records in its files."""

from __future__ import annotations

import resource
import threading
from pathlib import Path
from typing import Callable


class Interrupted(Exception):
    """The job was interrupted; a checkpoint was written."""

    def __init__(self, checkpoint: Path, iteration: int):
        super().__init__(f"interrupted at iteration {iteration}; checkpoint written to "
                         f"{checkpoint}; continue with --resume")
        self.checkpoint = checkpoint
        self.iteration = iteration


def available_memory_bytes() -> int:
    """Memory the kernel says is available now (MemAvailable; 8 GiB if unknown)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 8 * 1024**3


def peak_memory_bytes() -> int:
    """This process's peak resident memory so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB


def release_free_memory() -> None:
    """Hand memory freed by the allocator back to the system (glibc's malloc_trim).

    A tree build frees its growing buffers and hash tables; glibc keeps much of that in
    the process's heap (its mmap threshold rises after large frees), which would count
    in the peak of the solve that follows. No-op where there is no glibc."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def package_version() -> str:
    """The installed robinwood version, recorded in every run's metadata."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("robinwood")
    except PackageNotFoundError:
        return "unknown"


def in_both_seats(work: Callable[[int], None], workers: int) -> None:
    """Run work(0) and work(1): on two threads when `workers` >= 2 (the numba kernels
    release the GIL), else one after the other. Each seat's work must write only its own
    results, so that either way gives the same ones. `in_workers` says how failures and
    Ctrl-C are handled."""
    in_workers(work, 2, min(workers, 2))


def in_workers(work: Callable[[int], None], count: int, workers: int) -> None:
    """Run work(0), ..., work(count - 1): on min(workers, count) threads when that is
    at least 2 (the numba kernels release the GIL), each thread taking the next unit
    not yet started, else one after the other in order. Each unit must write only its
    own results, so that any number of threads gives the same ones.

    A unit that raises fails the call: on threads the first exception is raised here,
    with its traceback, as soon as it happens, without waiting for the other units
    (their threads are daemons: nothing can stop one mid-kernel, but they neither hold
    up the caller nor the interpreter's exit; their results are then not to be read,
    and no further unit is started). The caller waits in short timed waits, so that
    Ctrl-C is honoured at once in the main thread: a KeyboardInterrupt ends the call,
    and a SIGINT handler (the Monte Carlo CFR job's stop flag) runs while the units
    carry on. The serial path raises a unit's exception as it is."""
    threads_wanted = min(workers, count)
    if threads_wanted < 2:
        for unit in range(count):
            work(unit)
        return
    failures: list[BaseException] = []
    finished = threading.Event()   # set when a unit fails or all are done
    lock = threading.Lock()
    state = {"next": 0, "running": threads_wanted}

    def take() -> int:
        with lock:
            if failures or state["next"] >= count:
                return -1
            state["next"] += 1
            return state["next"] - 1

    def worker() -> None:
        try:
            unit = take()
            while unit >= 0:
                work(unit)
                unit = take()
        except BaseException as exc:   # noqa: BLE001 (KeyboardInterrupt, SystemExit too)
            with lock:
                failures.append(exc)
            finished.set()
            return
        with lock:
            state["running"] -= 1
            if state["running"] == 0:
                finished.set()

    threads = [threading.Thread(target=worker, daemon=True, name=f"worker-{i}")
               for i in range(threads_wanted)]
    for t in threads:
        t.start()
    while not finished.wait(0.1):
        pass
    if failures:
        raise failures[0]
    for t in threads:   # every unit returned: their threads are ending
        t.join()
