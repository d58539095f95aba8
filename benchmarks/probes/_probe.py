"""What the probes share: bench_mccfr's result header, and a writer into
benchmarks/probes/results/ (bench_mccfr's own writer fills benchmarks/results/)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:  # benchmarks/, for bench_mccfr
    sys.path.insert(0, str(HERE.parent))

import bench_mccfr  # noqa: E402
from bench_mccfr import _header  # noqa: E402

RESULTS = HERE / "results"

__all__ = ["RESULTS", "_header", "_write"]


def _write(name: str, lines: list[str]) -> None:
    bench_mccfr._write(name, lines, RESULTS)
