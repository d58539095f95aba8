"""The project's numba decorator, built once per game: `CachedJit(root, dirs, prefix)`
compiles in nopython mode with the project's options (JIT_OPTIONS) and caches compiled
kernels on disk in a directory keyed by a digest of the sources under `dirs`.

    jit = CachedJit(ROOT, ("game_def", "solver", "analysis"), "robinwood-")
    @jit
    def kernel(x): ...

game_def/_jit.py and robin_des_bois/_jit.py are its two users (each with its own
digest scope and cache directory); this module imports no other package.

Why a digest: numba invalidates a cached kernel when its own file changes, not when a
kernel it calls in another file does, nor a constant it froze from another module: a
caller would keep running the old callee. So the cache directory is keyed by a digest
of every source under `dirs` (subpackages too) and of this file (it sets the compile
options): any change gives a new, empty directory and a stale kernel can never be
found. Nothing is deleted to stay correct, so processes importing at once (pytest -n,
sweep workers, a process still running the old code) never remove files another one is
loading. Directories of old digests in the project's `.numba-cache` unused for a week
are removed, best effort.

Why a lock: numba writes each index and data file to a temporary name and renames it
into place, but saving an overload reads the kernel's index, adds an entry and writes
it back; two processes saving overloads of one kernel at once (parallel sweep workers)
could lose an entry or number two overloads' data alike. LockedIndexDataCacheFile makes
that update whole with an exclusive lock on a file beside the index.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Iterable

import numba
from numba.core import caching
from numba.misc.appdirs import AppDirs

try:
    import fcntl
except ImportError:  # Windows: numba's own unlocked saving
    fcntl = None

# cache=True: compiled kernels are written to disk and reused by later processes
# (the first JIT of a core costs seconds, a cached load a fraction of it).
# nogil=True: solver workers may run kernels from threads.
JIT_OPTIONS = dict(cache=True, nogil=True)
KEEP_SECONDS = 7 * 24 * 3600
LOCKING = fcntl is not None  # whether index updates can be locked on this system
_DIGEST = re.compile(r"[0-9a-f]{40}")
_THIS_FILE = Path(__file__).resolve()


def sources_digest(root: Path, dirs: Iterable[str]) -> str:
    """sha1 of every .py under root/<dir> for each of `dirs` (subpackages too, not
    __pycache__), path relative to `root` and bytes, and of this file's bytes."""
    root = Path(root)
    files = []
    for name in dirs:
        files += [p for p in (root / name).rglob("*.py") if "__pycache__" not in p.parts]
    digest = hashlib.sha1()
    named = [(p.relative_to(root).as_posix(), p) for p in files]
    named.append((f"<{_THIS_FILE.parent.name}>/{_THIS_FILE.name}", _THIS_FILE))
    for label, path in sorted(named):
        data = path.read_bytes()
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def writable_dir(path: Path) -> bool:
    """Create `path` and check a file can be written there (as numba's locators do);
    its mtime becomes the time of last use, read by the clean-up of old digests."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
        os.utime(path)
        return True
    except OSError:
        return False


class LockedIndexDataCacheFile(caching.IndexDataCacheFile):
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


class CachedJit:
    """A `jit` decorator for the kernels under root/<dirs>, cached in a directory named
    by the sources' digest.

    prefix: names the digest's directory where other programs' caches live too (the
    user's NUMBA_CACHE_DIR, the user-wide numba cache); project_prefix: its name in the
    project's own `.numba-cache` (default: prefix). set_globally: numba reads
    `numba.config.CACHE_DIR` when a kernel is decorated; True sets it once for the
    process (the project's main game), False sets it only while this decorator
    decorates and restores it at once (a second game, leaving the first one's setting
    untouched).
    """

    def __init__(self, root: Path, dirs: Iterable[str], prefix: str, *,
                 project_prefix: str | None = None, set_globally: bool = False):
        self.root = Path(root)
        self.dirs = tuple(dirs)
        self.prefix = prefix
        self.project_prefix = prefix if project_prefix is None else project_prefix
        self.set_globally = set_globally
        self.project_cache = self.root / ".numba-cache"
        self.cache_dir = self._set_up()
        self.options = (JIT_OPTIONS if self.cache_dir is not None
                        else dict(JIT_OPTIONS, cache=False))

    def digest(self) -> str:
        return sources_digest(self.root, self.dirs)

    def candidates(self, digest: str) -> list[Path]:
        """Where the digest's cache may go, first choice first: the user's
        NUMBA_CACHE_DIR, the project's .numba-cache, the user-wide numba cache. numba's
        own fallbacks (beside the sources, the user-wide cache) are not keyed by the
        digest and could serve a stale callee, so they are never left to it."""
        out = []
        if os.environ.get("NUMBA_CACHE_DIR"):
            out.append(Path(os.environ["NUMBA_CACHE_DIR"]) / f"{self.prefix}{digest}")
        out.append(self.project_cache / f"{self.project_prefix}{digest}")
        user_wide = Path(AppDirs("numba", appauthor=False).user_cache_dir)
        out.append(user_wide / f"{self.prefix}{digest}")
        return out

    def drop_unused(self, keep: str) -> None:
        """Remove this decorator's digest directories in the project's .numba-cache
        (named project_prefix + a digest) unused for KEEP_SECONDS, except `keep`'s."""
        try:
            entries = list(self.project_cache.iterdir())
        except OSError:
            return
        cutoff = time.time() - KEEP_SECONDS
        n = len(self.project_prefix)
        for entry in entries:
            try:
                if (entry.name.startswith(self.project_prefix)
                        and _DIGEST.fullmatch(entry.name[n:])
                        and entry.name[n:] != keep and entry.is_dir()
                        and not entry.is_symlink() and entry.stat().st_mtime < cutoff):
                    shutil.rmtree(entry, ignore_errors=True)
            except OSError:
                pass

    def _set_up(self) -> "Path | None":
        """The first writable candidate directory (None: compile in memory, no cache)."""
        try:
            digest = self.digest()
        except OSError:
            return None  # sources unreadable: nothing safe to key a cache by
        cache_dir = next((p for p in self.candidates(digest) if writable_dir(p)), None)
        if cache_dir is not None and self.set_globally:
            # read by numba when a @jit(cache=True) is decorated, so set before any is
            numba.config.CACHE_DIR = str(cache_dir)
        self.drop_unused(keep=digest)
        return cache_dir

    def __call__(self, fn):
        """Compile `fn` in nopython mode with the project's options, cached in
        cache_dir, its index updates locked."""
        if self.cache_dir is None or self.set_globally:
            dispatcher = numba.njit(**self.options)(fn)
        else:
            saved = numba.config.CACHE_DIR
            numba.config.CACHE_DIR = str(self.cache_dir)
            try:
                dispatcher = numba.njit(**self.options)(fn)
            finally:
                numba.config.CACHE_DIR = saved
        cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
        if LOCKING and type(cache_file) is caching.IndexDataCacheFile:
            cache_file.__class__ = LockedIndexDataCacheFile
        return dispatcher
