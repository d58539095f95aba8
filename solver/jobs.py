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
    results, so that either way gives the same ones."""
    if workers >= 2:
        threads = [threading.Thread(target=work, args=(s,)) for s in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    else:
        work(0)
        work(1)
