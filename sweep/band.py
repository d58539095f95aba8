"""Into a band: which single rule changes bring a metric into a target band, through
the sweep machinery (one one-axis sweep per option, each on the executors it is given).

`--target "starter_edge in [-0.02,0.02]"` names one of the sweep's Robin Wood metrics
(sweep.metrics.METRICS) and a closed band. The candidates are every single change of
the base variant: strikes 1 to 4, the turn cap one either side, the other first player,
the other challenge order, traitor strikes on reveal flipped, and every one-card change
of the deck (one card, not the Traitor, swapped for a character the deck lacks). Pairs
of the best changes are not searched yet.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pandas as pd

from game_def.characters import NAMES, Character
from game_def.errors import VariantError
from game_def.variant import Variant, parse

from .catalogue import spec_from_text
from .grid import GridError
from .metrics import METRICS

_TARGET = re.compile(r"^\s*(\w+)\s+in\s+\[\s*([-+0-9.eE]+)\s*,\s*([-+0-9.eE]+)\s*\]\s*$")


@dataclasses.dataclass(frozen=True)
class Target:
    metric: str
    lo: float
    hi: float

    def __str__(self) -> str:
        return f"{self.metric} in [{self.lo:g}, {self.hi:g}]"


def parse_target(text: str) -> Target:
    """'METRIC in [LO,HI]' with a sweep metric and LO <= HI; else a one-line GridError."""
    m = _TARGET.match(text or "")
    if not m:
        raise GridError(f"target {text!r} is not 'METRIC in [LO,HI]', e.g. "
                        f"'starter_edge in [-0.02,0.02]'")
    metric, lo, hi = m.group(1), float(m.group(2)), float(m.group(3))
    if metric not in METRICS:
        raise GridError(f"target metric {metric!r} is not a sweep metric: "
                        f"{', '.join(METRICS)}")
    if lo > hi:
        raise GridError(f"target band [{lo:g}, {hi:g}] is empty: give LO <= HI")
    return Target(metric, lo, hi)


def _deck_text(counts) -> str:
    return "+".join(name for name, n in zip(NAMES, counts) for _ in range(n))


def single_changes(base: Variant) -> list[tuple[str, str]]:
    """(option, value) for every single change of `base` (module docstring), each a
    variant that parses."""
    p = base.to_params()
    out = [("strikes", str(s)) for s in range(1, 5) if s != p["strikes"]]
    out += [("max_turns", str(t)) for t in (p["max_turns"] - 1, p["max_turns"] + 1)
            if t >= 1]
    out += [("first_player", str(s)) for s in range(base.players)
            if s != p["first_player"]]
    out.append(("challenge_order", "random" if p["challenge_order"] == "clockwise"
                else "clockwise"))
    out.append(("traitor_strikes_on_reveal", str(not p["traitor_strikes_on_reveal"]).lower()))
    counts = list(base.counts)
    for card, n in enumerate(counts):
        if n == 0 or card == Character.TRAITOR:
            continue
        for other, m in enumerate(counts):
            if m == 0 and other != Character.TRAITOR:
                changed = counts.copy()
                changed[card] -= 1
                changed[other] += 1
                out.append(("deck", _deck_text(changed)))
    kept = []
    for option, value in out:
        try:
            base.replace(**{option: value})
        except (VariantError, TypeError, ValueError):
            continue
        kept.append((option, value))
    return kept


def meeting(table: pd.DataFrame, target: Target, base: str) -> pd.DataFrame:
    """The finished variants of a sweep table other than `base`, one row each: the
    target metric, whether it lies in the band, and the other metrics beside it;
    those in the band first, then by distance to the band."""
    done = table[(table["status"] == "done") & (table["variant"] != base)]
    wide = done.pivot_table(index="variant", columns="metric", values="value",
                            aggfunc="first")
    if wide.empty or target.metric not in wide:
        return pd.DataFrame(columns=["variant", target.metric, "in_band"])
    value = wide[target.metric]
    wide.insert(0, "in_band", (value >= target.lo) & (value <= target.hi))
    wide.insert(1, "distance", (target.lo - value).clip(lower=0)
                + (value - target.hi).clip(lower=0))
    order = [target.metric] + [m for m in METRICS if m in wide and m != target.metric]
    wide = wide[["in_band", "distance"] + order]
    return wide.sort_values(["in_band", "distance"], ascending=[False, True])


def band_search(base_text: str, target: Target, out, *, workers: int = 1,
                options=None, executor: str = "process", say=None) -> pd.DataFrame:
    """Sweep every single change of the base (`options`: only these options) in
    out/<option>/ and return `meeting` over all of them."""
    from .run import run_sweep

    base = parse(base_text)
    changes = single_changes(base)
    if options is not None:
        changes = [(o, v) for o, v in changes if o in options]
    tables = []
    p = base.to_params()
    for option in dict.fromkeys(o for o, _ in changes):
        values = [v for o, v in changes if o == option]
        current = str(p[option]).lower() if option != "deck" else base_text.split(":")[0]
        grid = f"{option}={','.join([current] + values)}"
        spec = spec_from_text(grid, base_text, f"band-{option}")
        result = run_sweep(spec, Path(out) / option, executor=executor, workers=workers,
                           progress=False, report=False, say=say)
        tables.append(result.table)
    table = pd.concat(tables, ignore_index=True)
    return meeting(table, target, str(base))
