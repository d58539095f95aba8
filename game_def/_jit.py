"""The one place where numba options are set (STYLE: never sprinkled)."""

import numba

# cache=True: compiled kernels are written next to the sources and reused by later
# processes (the first JIT of the core costs seconds, a cached load a fraction of it).
# nogil=True: solver workers may run kernels from threads.
JIT_OPTIONS = dict(cache=True, nogil=True)


def jit(fn):
    """Compile `fn` in nopython mode with the project's options."""
    return numba.njit(**JIT_OPTIONS)(fn)
