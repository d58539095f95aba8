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
    results, so that either way gives the same ones.

    A seat that raises fails the call: on two threads the first exception of either
    seat is raised here, with its traceback, as soon as it happens, without waiting for
    the other seat (which is a daemon thread: nothing can stop it mid-kernel, but it
    neither holds up the caller nor the interpreter's exit; its results are then not
    to be read). The caller waits in short timed waits, so that Ctrl-C is honoured at
    once in the main thread: a KeyboardInterrupt ends the call, and a SIGINT handler
    (the Monte Carlo CFR job's stop flag) runs while the seats carry on. The serial path
    raises a seat's exception as it is."""
    if workers < 2:
        work(0)
        work(1)
        return
    failures: list[BaseException] = []
    finished = threading.Event()   # set when a seat fails or both are done
    lock = threading.Lock()
    running = [2]

    def seat(s: int) -> None:
        try:
            work(s)
        except BaseException as exc:   # noqa: BLE001 (KeyboardInterrupt, SystemExit too)
            with lock:
                failures.append(exc)
            finished.set()
            return
        with lock:
            running[0] -= 1
            if running[0] == 0:
                finished.set()

    threads = [threading.Thread(target=seat, args=(s,), daemon=True,
                                name=f"seat-{s}") for s in (0, 1)]
    for t in threads:
        t.start()
    while not finished.wait(0.1):
        pass
    if failures:
        exc = failures[0]
        raise exc
    for t in threads:   # both seats returned: their threads are ending
        t.join()
