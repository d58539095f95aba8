"""Run directories on disk: the files every solver writes and how they are written.

A run directory holds `metadata.json` (variant string, algorithm and parameters,
iterations, exploitability, seed, package version, wall time, sizes) beside the
strategy itself: `strategy.npz` for an exact solve (solver.exact.stored), `table.npz`
for Monte Carlo CFR (solver.mccfr.table_file). Every file is written atomically
(temporary file, fsync, rename), so a crash never leaves half a file. Loading any
strategy as an OpenSpiel policy: solver.strategies.load_strategy.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from game_def.errors import RobinWoodError

FORMAT_VERSION = 1
METADATA = "metadata.json"
CONVERGENCE = "convergence.csv"


class StrategyFileError(RobinWoodError):
    """A strategy file that is missing, corrupt, or made for another variant."""


@contextlib.contextmanager
def _atomic_file(path: Path):
    """A binary file object whose content replaces `path` only once it is complete and
    synced: a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write via a temporary file and rename, so a crash never leaves half a file."""
    with _atomic_file(path) as f:
        f.write(data)


def atomic_savez(path: Path, **arrays: np.ndarray) -> None:
    """np.savez streamed into a temporary file and renamed (no in-memory copy: Monte
    Carlo CFR checkpoints are gigabytes)."""
    with _atomic_file(path) as f:
        np.savez(f, **arrays)


def read_metadata(run_dir: str | os.PathLike) -> dict[str, Any]:
    path = Path(run_dir) / METADATA
    if not path.exists():
        raise StrategyFileError(f"no strategy in {run_dir}: {METADATA} is missing "
                                f"(run `robinwood solve ... --out {run_dir}` first)")
    try:
        meta = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise StrategyFileError(f"{path} is corrupt ({e}); solve again or restore it") from None
    if not isinstance(meta, dict) or "variant" not in meta:
        raise StrategyFileError(f"{path} does not describe a strategy (no 'variant' field)")
    if meta.get("format_version") != FORMAT_VERSION:
        raise StrategyFileError(f"{path} has format version {meta.get('format_version')}; "
                                f"this robinwood reads version {FORMAT_VERSION}")
    return meta
