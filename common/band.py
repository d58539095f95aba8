"""A target band for a balance metric, `METRIC in [LO,HI]`, as both games' band
searches read it (sweep.band for Robin Wood, robin_des_bois.audit_band)."""

from __future__ import annotations

import dataclasses
import re

_TARGET = re.compile(r"^\s*(\w+)\s+in\s+\[\s*([-+0-9.eE]+)\s*,\s*([-+0-9.eE]+)\s*\]\s*$")


@dataclasses.dataclass(frozen=True)
class Target:
    """A metric and the closed band [lo, hi] it should lie in."""

    metric: str
    lo: float
    hi: float

    def __str__(self) -> str:
        return f"{self.metric} in [{self.lo:g}, {self.hi:g}]"


def parse_target(text: str, metrics, example: str, kind: str = "a metric",
                 error=ValueError) -> Target:
    """'METRIC in [LO,HI]' with METRIC one of `metrics` and LO <= HI; else a one-line
    `error` naming the fix (`example`: a target to show, `kind`: what the metrics are)."""
    m = _TARGET.match(text or "")
    if not m:
        raise error(f"target {text!r} is not 'METRIC in [LO,HI]', e.g. {example!r}")
    metric, lo, hi = m.group(1), float(m.group(2)), float(m.group(3))
    if metric not in metrics:
        raise error(f"target metric {metric!r} is not {kind}: use one of "
                    f"{', '.join(metrics)}")
    if lo > hi:
        raise error(f"target band [{lo:g}, {hi:g}] is empty: give LO <= HI")
    return Target(metric, lo, hi)
