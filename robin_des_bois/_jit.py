"""The numba decorators of the Robin des Bois core, built by common.jit (the project's
one implementation, shared with game_def; this package imports no other but that
bottom one, docs/architecture.md).

`jit` compiles a kernel; `inline_jit` compiles one that numba also inlines into every
kernel calling it (numba's inline='always', at its IR level). The core's helpers and
its per-move kernels are inlined: a call between kernels passes each array with a
reference count taken and dropped (two atomic operations per array). The engineer who
inlined them profiled those calls at about a quarter of the simulator's time; that
profile was not kept, and the gain has not been re-measured (the speed at the box is in
docs/robin-des-bois-rules.md, "Fast core").

Their cache directory is keyed by a digest of every source file of this package
(`_core` freezes MAX_VALUES, ... from `rules`: numba would not notice them change):
<project>/.numba-cache/robin_des_bois-<digest>, or under NUMBA_CACHE_DIR or the
user-wide numba cache by the same name; None where nothing can be written (compiled in
memory). The directory is set only while this package's kernels are decorated (numba
reads `config.CACHE_DIR` then) and restored at once, so game_def's setting is
untouched. Index updates are locked between processes, as `robinwood sweep --game
robin_des_bois` runs parallel workers that may compile the same kernels at once.
"""

from __future__ import annotations

from pathlib import Path

from common.jit import CachedJit, sources_digest

_PACKAGE = Path(__file__).resolve().parent


def _sources_digest(package: Path = _PACKAGE) -> str:
    """The digest keying the cache: every .py of the package at `package`."""
    return sources_digest(package.parent, (package.name,))


jit = CachedJit(_PACKAGE.parent, (_PACKAGE.name,), prefix="robin_des_bois-")
CACHE_DIR = jit.cache_dir
# The same cache directory and locking; only numba's inline option differs.
inline_jit = CachedJit(_PACKAGE.parent, (_PACKAGE.name,), prefix="robin_des_bois-")
inline_jit.options = dict(inline_jit.options, inline="always")
