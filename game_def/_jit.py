"""The one place where numba options are set (STYLE: never sprinkled)."""

import hashlib
from pathlib import Path

import numba

# cache=True: compiled kernels are written next to the sources and reused by later
# processes (the first JIT of the core costs seconds, a cached load a fraction of it).
# nogil=True: solver workers may run kernels from threads.
JIT_OPTIONS = dict(cache=True, nogil=True)

# numba invalidates a cached kernel when its own file changes, not when a kernel it
# calls in another file does: a caller would keep running the old callee. So every
# cached kernel of the project is dropped whenever any kernel source changes.
_ROOT = Path(__file__).resolve().parent.parent
_KERNEL_DIRS = ("game_def", "solver", "analysis")
_STAMP = "robinwood-kernels.stamp"


def _sources_digest() -> str:
    digest = hashlib.sha1()
    for name in _KERNEL_DIRS:
        for path in sorted((_ROOT / name).rglob("*.py")):
            digest.update(str(path.relative_to(_ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _drop_stale_caches() -> None:
    try:
        digest = _sources_digest()
        stamp = _ROOT / "game_def" / "__pycache__" / _STAMP
        if stamp.exists() and stamp.read_text() == digest:
            return
        for name in _KERNEL_DIRS:
            for pattern in ("*.nbi", "*.nbc"):
                for cached in (_ROOT / name).rglob(f"__pycache__/{pattern}"):
                    cached.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass  # a read-only install: numba then recompiles in memory, never stale


_drop_stale_caches()


def jit(fn):
    """Compile `fn` in nopython mode with the project's options."""
    return numba.njit(**JIT_OPTIONS)(fn)
