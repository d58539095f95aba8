"""sweeps/<name>/ on disk: a variant is finished once its row file is written.

Layout: sweep.json (the grid), plan.json (methods and counted trees, so a rerun does
not count again), rows/<variant>.json (one per finished or failed variant, written
atomically after its run directory), runs/<variant>/ (the solve: metadata.json, the
strategy, convergence.csv, tables/), table.csv / table.parquet, variants.csv and the
report. A run directory is assembled under runs/.partial/ and renamed into place, so a
driver killed at any moment leaves either no run directory or a whole one; a variant
without its row file is solved again.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from pathlib import Path

import pandas as pd

from solver.store import atomic_write_bytes

from .plan import Task

PARTIAL = ".partial"


def _clean(value):
    """JSON without NaN (null instead): the row files stay standard JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


class SweepStore:
    def __init__(self, root):
        self.root = Path(root)
        self.rows = self.root / "rows"
        self.runs = self.root / "runs"

    def prepare(self, spec_json: dict) -> None:
        """Create the folders, record the grid and drop what a killed driver left half
        done (runs/.partial)."""
        self.rows.mkdir(parents=True, exist_ok=True)
        self.runs.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(self.runs / PARTIAL, ignore_errors=True)
        atomic_write_bytes(self.root / "sweep.json", json.dumps(spec_json, indent=2).encode())

    def read_plan_cache(self) -> dict:
        try:
            return json.loads((self.root / "plan.json").read_text())
        except (OSError, ValueError):
            return {}

    def write_plan_cache(self, cache: dict) -> None:
        atomic_write_bytes(self.root / "plan.json", json.dumps(cache, indent=1).encode())

    def _row_path(self, task: Task) -> Path:
        return self.rows / f"{task.slug}.json"

    def record(self, task: Task) -> dict | None:
        """The stored record of this task, if one was written with the same fingerprint."""
        try:
            data = json.loads(self._row_path(task).read_text())
        except (OSError, ValueError):
            return None
        return data if data.get("fingerprint") == task.fingerprint else None

    def finished(self, task: Task) -> bool:
        """Finished: a 'done' record with this task's fingerprint and its run directory.
        Failed variants are tried again on a rerun."""
        record = self.record(task)
        return bool(record) and record["status"] == "done" and (self.runs / task.slug).is_dir()

    def commit(self, task: Task, result: dict) -> dict:
        """Write the run directory (when the job finished) and then the row file."""
        if result["status"] == "done":
            partial = self.runs / PARTIAL / task.slug
            shutil.rmtree(partial, ignore_errors=True)
            for name, data in result["files"].items():
                path = partial / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            final = self.runs / task.slug
            if final.exists():
                shutil.rmtree(final)
            os.replace(partial, final)
            try:
                partial.parent.rmdir()
            except OSError:
                pass
        record = {"fingerprint": task.fingerprint, "task": task.to_json(),
                  **{k: v for k, v in result.items() if k != "files"}}
        atomic_write_bytes(self._row_path(task),
                           json.dumps(_clean(record), indent=1).encode())
        return record

    def records(self, tasks: list[Task]) -> list[tuple[Task, dict | None]]:
        return [(task, self.record(task)) for task in tasks]


def tidy_table(spec_name: str, axes: list[str], pairs) -> pd.DataFrame:
    """One row per variant and metric (grid order); a failed or unfinished variant is
    one row with metric 'error' or 'missing'. Only what decides the results is here
    (no timings), so the same seeds give the same table on any executor."""
    rows = []
    for task, record in pairs:
        head = {"sweep": spec_name, "variant": task.key,
                **{a: task.options.get(a) for a in axes}, "method": task.method}
        if record is None or record["status"] != "done":
            failed = record is not None
            rows.append({**head, "statistics": None, "quality_measure": None,
                         "quality": None, "quality_lo": None, "quality_hi": None,
                         "metric": "error" if failed else "missing",
                         "value": None, "lo": None, "hi": None,
                         "status": "failed" if failed else "missing",
                         "error": record["error"] if failed else None})
            continue
        for r in record["rows"]:
            rows.append({**head, "statistics": record["statistics"],
                         "quality_measure": record["quality_measure"],
                         "quality": record["quality"], "quality_lo": record["quality_lo"],
                         "quality_hi": record["quality_hi"], **r, "status": "done",
                         "error": None})
    frame = pd.DataFrame(rows)
    for column in ("quality", "quality_lo", "quality_hi", "value", "lo", "hi"):
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    return frame


def variants_table(pairs) -> pd.DataFrame:
    """One row per variant: method, solver, measured cost (these vary between runs)."""
    rows = []
    for task, record in pairs:
        record = record or {}
        rows.append({"variant": task.key, "label": task.label, "method": task.method,
                     "status": record.get("status", "missing"),
                     "solver": record.get("solver"), "nodes": task.nodes,
                     "memory_estimate_gib": task.memory_bytes / 1024**3,
                     "peak_memory_gib": (record["peak_memory_bytes"] / 1024**3
                                         if record.get("peak_memory_bytes") else None),
                     "wall_seconds": record.get("wall_seconds"),
                     "error": record.get("error")})
    return pd.DataFrame(rows)
