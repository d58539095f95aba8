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
from typing import Any

import numpy as np

from game_def.errors import RobinWoodError

FORMAT_VERSION = 1
METADATA = "metadata.json"
CONVERGENCE = "convergence.csv"


class StrategyFileError(RobinWoodError):
    """A strategy file that is missing, corrupt, or made for another variant."""


def _umask() -> int:
    """The process's umask, read without changing it where Linux allows (/proc), else
    by setting and restoring it."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def _atomic_file(path: Path):
    """A binary file object whose content replaces `path` only once it is complete and
    synced: a crash never leaves half a file. The file gets the mode any new file gets
    (0666 less the umask), not tempfile's private 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())
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


CHECKPOINT = "checkpoint.npz"


def _interrupted_run(run_dir: Path) -> str | None:
    """What an interrupted job left in `run_dir` (a checkpoint, no metadata.json): the
    variant and algorithm it was solving, in words, or None if there is no checkpoint."""
    path = run_dir / CHECKPOINT
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            name = "settings" if "settings" in data.files else "info"
            info = json.loads(str(data[name]))
        config = info.get("settings") or info.get("config") or {}
        algo = config.get("algorithm", {}).get("name") or config.get("name") or "?"
        return f"{config['variant']} with {algo}"
    except Exception:
        return "an unreadable checkpoint"


def read_metadata(run_dir: str | os.PathLike) -> dict[str, Any]:
    path = Path(run_dir) / METADATA
    if not path.exists():
        interrupted = _interrupted_run(Path(run_dir))
        if interrupted is not None:
            raise StrategyFileError(
                f"the solve in {run_dir} ({interrupted}) was interrupted before it "
                f"finished: it holds a checkpoint but no strategy yet; finish it with "
                f"`robinwood solve <the same options> --out {run_dir} --resume`")
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


def players_of(run_dir: str | os.PathLike) -> int:
    """The table size of the strategy in run_dir (2, 3 or 4; a team table is 4): the one
    reader of it, so that every command decides two-player or table pages alike. A
    missing or corrupt metadata file, or a variant string this version cannot parse, is
    one StrategyFileError naming the file and what to do, never a guess."""
    import game_def

    metadata = read_metadata(run_dir)
    try:
        return game_def.parse(metadata["variant"]).players
    except ValueError as e:
        raise StrategyFileError(f"{Path(run_dir) / METADATA} names a variant this robinwood "
                                f"cannot read ({e}); solve again or restore it") from None
