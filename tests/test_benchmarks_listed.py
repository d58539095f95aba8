"""benchmarks/README.md lists every benchmark and probe, each with what it measures and
its command (a script nobody can find, or run the way its result was made, measures
nothing for anyone)."""

from __future__ import annotations

from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPTS = sorted([*BENCHMARKS.glob("*.py"), *BENCHMARKS.glob("probes/bench_*.py")])


def _rows() -> dict[str, list[str]]:
    """The README's table rows by their first cell: [name, what, command]."""
    rows = {}
    for line in (BENCHMARKS / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) >= 3:
            rows[cells[0].strip("`")] = cells
    return rows


def test_there_are_scripts_to_check():
    assert len(SCRIPTS) > 10


@pytest.mark.parametrize("script", SCRIPTS,
                         ids=lambda p: p.relative_to(BENCHMARKS).as_posix())
def test_every_benchmark_has_a_row_with_what_and_command(script):
    """Catches a new benchmark left out of the README (bench_robin_des_bois_players.py
    and probes/bench_table_fallback.py were)."""
    name = script.relative_to(BENCHMARKS).as_posix()
    rows = _rows()
    assert name in rows, f"benchmarks/README.md has no row for {name}"
    _, what, command = rows[name][:3]
    assert what, name
    assert f"benchmarks/{name}" in command or "make bench" in command, (name, command)
