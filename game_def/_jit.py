"""The one place where numba options are set (STYLE: never sprinkled)."""

import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

import numba
from numba.core import caching
from numba.misc.appdirs import AppDirs

try:
    import fcntl
except ImportError:  # Windows: numba's own unlocked saving
    fcntl = None

# cache=True: compiled kernels are written to disk and reused by later processes
# (the first JIT of the core costs seconds, a cached load a fraction of it).
# nogil=True: solver workers may run kernels from threads.
JIT_OPTIONS = dict(cache=True, nogil=True)

# numba invalidates a cached kernel when its own file changes, not when a kernel it
# calls in another file does: a caller would keep running the old callee. So the
# cache directory is keyed by a digest of every kernel source: any change gives a
# new, empty directory and a stale kernel can never be found. Nothing is deleted to
# stay correct, so processes importing at once (pytest -n, sweep workers, a process
# still running the old code) never remove files another one is loading; numba
# writes each index/data file to a temporary name and renames it into place, and
# _LockedIndexDataCacheFile makes its update of an index whole.
# Directories of old digests unused for a week are removed, best effort.
_ROOT = Path(__file__).resolve().parent.parent
_KERNEL_DIRS = ("game_def", "solver", "analysis")
_PROJECT_CACHE = _ROOT / ".numba-cache"
_KEEP_SECONDS = 7 * 24 * 3600


def _sources_digest(root: Path = _ROOT) -> str:
    """sha1 of every .py under the kernel packages (subpackages too), path and bytes."""
    files = []
    for name in _KERNEL_DIRS:
        files += [p for p in (root / name).rglob("*.py") if "__pycache__" not in p.parts]
    digest = hashlib.sha1()
    for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _writable_dir(path: Path) -> bool:
    """Create `path` and check a file can be written there (as numba's locators do)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
        os.utime(path)  # mtime = last use, read by _drop_unused_caches
        return True
    except OSError:
        return False


def _choose_cache_dir(digest: str) -> "Path | None":
    """First writable of: the user's NUMBA_CACHE_DIR, the project's .numba-cache, the
    user-wide cache; each keyed by the digest. None: compile in memory, no cache.
    numba's own fallbacks (next to the sources, the user-wide cache) are not keyed by
    the digest and could serve a stale callee, so they are never left to it."""
    candidates = []
    if os.environ.get("NUMBA_CACHE_DIR"):
        candidates.append(Path(os.environ["NUMBA_CACHE_DIR"]) / f"robinwood-{digest}")
    candidates.append(_PROJECT_CACHE / digest)
    user_wide = Path(AppDirs("numba", appauthor=False).user_cache_dir)
    candidates.append(user_wide / f"robinwood-{digest}")
    return next((path for path in candidates if _writable_dir(path)), None)


def _drop_unused_caches(keep: str) -> None:
    """Remove digest directories of the project's .numba-cache unused for a week."""
    try:
        entries = list(_PROJECT_CACHE.iterdir())
    except OSError:
        return
    cutoff = time.time() - _KEEP_SECONDS
    for entry in entries:
        try:
            if (entry.name != keep and len(entry.name) == 40 and entry.is_dir()
                    and not entry.is_symlink() and entry.stat().st_mtime < cutoff):
                shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            pass


def _set_up_cache() -> "Path | None":
    try:
        digest = _sources_digest()
    except OSError:
        return None  # sources unreadable: nothing safe to key a cache by
    cache_dir = _choose_cache_dir(digest)
    if cache_dir is not None:
        # Read by numba when a @jit(cache=True) is decorated, so set before any is.
        numba.config.CACHE_DIR = str(cache_dir)
    _drop_unused_caches(keep=digest)
    return cache_dir


CACHE_DIR = _set_up_cache()
_OPTIONS = JIT_OPTIONS if CACHE_DIR is not None else dict(JIT_OPTIONS, cache=False)


class _LockedIndexDataCacheFile(caching.IndexDataCacheFile):
    """numba saves an overload by reading the kernel's index, adding the entry and
    writing the index back, then the data file it numbered from that index. Each file is
    replaced atomically, but two processes saving overloads of one kernel at once can
    lose an index entry or number two overloads' data alike, so an index could name the
    data of another signature. An exclusive lock on a file beside the index makes the
    update whole; where no lock can be taken, numba's unlocked saving is used."""

    def save(self, key, data):
        try:
            lock = open(self._index_path + ".lock", "ab")
        except OSError:
            return super().save(key, data)
        with lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX)  # released on close
            except OSError:
                pass
            return super().save(key, data)


def jit(fn):
    """Compile `fn` in nopython mode with the project's options."""
    dispatcher = numba.njit(**_OPTIONS)(fn)
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if fcntl is not None and type(cache_file) is caching.IndexDataCacheFile:
        cache_file.__class__ = _LockedIndexDataCacheFile
    return dispatcher
