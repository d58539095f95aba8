"""The one place where numba options are set (STYLE: never sprinkled): the project's
`jit`, built by common.jit (shared with robin_des_bois, docs/architecture.md).

Its cache directory is keyed by a digest of every source of the kernel packages,
game_def, solver and analysis (a kernel in solver calls the core's; numba would not
notice a changed callee), and set for the whole process (numba.config.CACHE_DIR): in
the project's .numba-cache/<digest>, or <NUMBA_CACHE_DIR>/robinwood-<digest>, or the
user-wide numba cache's robinwood-<digest>; None where nothing can be written
(compiled in memory). Index updates are locked between processes (common.jit).
"""

from pathlib import Path

from common.jit import CachedJit, sources_digest

_ROOT = Path(__file__).resolve().parent.parent
_KERNEL_DIRS = ("game_def", "solver", "analysis")


def _sources_digest(root: Path = _ROOT) -> str:
    """The digest keying the cache: every .py under root's kernel packages."""
    return sources_digest(root, _KERNEL_DIRS)


jit = CachedJit(_ROOT, _KERNEL_DIRS, prefix="robinwood-", project_prefix="",
                set_globally=True)
CACHE_DIR = jit.cache_dir
