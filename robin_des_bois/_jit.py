"""The numba options of the Robin des Bois core (the counterpart of game_def/_jit.py:
this package imports no other, docs/architecture.md).

cache=True: compiled kernels are written to disk and reused by later processes (the
first compile costs seconds, a cached load a fraction of one); nogil=True as in
game_def. numba invalidates a cached kernel when its own file changes, but not when a
constant it froze from another module does (`_core` reads MAX_VALUES, ... from
`rules`), so the cache directory is keyed by a digest of every source file of this
package: a change gives a new, empty directory and a stale kernel is never loaded.
The directory is chosen only while this package's kernels are decorated (numba reads
`config.CACHE_DIR` then); the setting is restored at once, so game_def's is untouched.
Directories of old digests unused for a week are removed, best effort.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

import numba
from numba.misc.appdirs import AppDirs

JIT_OPTIONS = dict(cache=True, nogil=True)
_PACKAGE = Path(__file__).resolve().parent
_PROJECT_CACHE = _PACKAGE.parent / ".numba-cache"
_PREFIX = "robin_des_bois-"
_KEEP_SECONDS = 7 * 24 * 3600


def _sources_digest(package: Path = _PACKAGE) -> str:
    digest = hashlib.sha1()
    for path in sorted(package.glob("*.py")):
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _writable_dir(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
        os.utime(path)  # mtime = last use
        return True
    except OSError:
        return False


def _choose_cache_dir(digest: str) -> "Path | None":
    """First writable of: the user's NUMBA_CACHE_DIR, the project's .numba-cache, the
    user-wide numba cache, each keyed by the digest; None: compile in memory."""
    name = _PREFIX + digest
    candidates = []
    if os.environ.get("NUMBA_CACHE_DIR"):
        candidates.append(Path(os.environ["NUMBA_CACHE_DIR"]) / name)
    candidates.append(_PROJECT_CACHE / name)
    candidates.append(Path(AppDirs("numba", appauthor=False).user_cache_dir) / name)
    return next((path for path in candidates if _writable_dir(path)), None)


def _drop_unused_caches(keep: str) -> None:
    try:
        entries = list(_PROJECT_CACHE.iterdir())
    except OSError:
        return
    cutoff = time.time() - _KEEP_SECONDS
    for entry in entries:
        try:
            if (entry.name.startswith(_PREFIX) and entry.name != _PREFIX + keep
                    and entry.is_dir() and not entry.is_symlink()
                    and entry.stat().st_mtime < cutoff):
                shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            pass


def _set_up_cache() -> "Path | None":
    try:
        digest = _sources_digest()
    except OSError:
        return None
    cache_dir = _choose_cache_dir(digest)
    _drop_unused_caches(keep=digest)
    return cache_dir


CACHE_DIR = _set_up_cache()
_OPTIONS = JIT_OPTIONS if CACHE_DIR is not None else dict(JIT_OPTIONS, cache=False)


def jit(fn):
    """Compile `fn` in nopython mode with this package's options and cache directory."""
    if CACHE_DIR is None:
        return numba.njit(**_OPTIONS)(fn)
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(CACHE_DIR)
    try:
        return numba.njit(**_OPTIONS)(fn)
    finally:
        numba.config.CACHE_DIR = saved
