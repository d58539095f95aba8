"""What the probes share: bench_mccfr's result header, a writer into
benchmarks/probes/results/ (bench_mccfr's own writer fills benchmarks/results/), and one
seeded step of a round played by an OpenSpiel policy."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:  # benchmarks/, for bench_mccfr
    sys.path.insert(0, str(HERE.parent))

import bench_mccfr  # noqa: E402
from bench_mccfr import _header  # noqa: E402

RESULTS = HERE / "results"

__all__ = ["RESULTS", "_header", "_write", "sample_action"]


def _write(name: str, lines: list[str]) -> None:
    bench_mccfr._write(name, lines, RESULTS)


def sample_action(state, policy, rng) -> int:
    """The next action of an OpenSpiel `state`: a chance outcome by its probability, or
    the current player's action drawn from `policy` (action_probabilities(state))."""
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        return int(rng.choice(outcomes, p=probs))
    probs = policy.action_probabilities(state)
    actions = list(probs)
    return int(rng.choice(actions, p=[probs[a] for a in actions]))
