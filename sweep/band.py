"""Into a band: which single rule changes bring a metric into a target band, through
the sweep machinery (one one-axis sweep per option, each on the executors it is given).

`--target "starter_edge in [-0.02,0.02]"` names one of the sweep's Robin Wood metrics
(sweep.metrics.METRICS) and a closed band. The candidates are every single change of
the base variant: strikes 1 to 4, the turn cap one either side, the other first player,
the other challenge order, traitor strikes on reveal flipped, and every one-card change
of the deck (one card, not the Traitor, swapped for a character the deck lacks). Then
pairs of the K singles nearest the band (sweep.band_pairs; K = `pairs`, default
DEFAULT_PAIRS, 0 for singles only). The smallest change that meets the band is a single
in it if any, else a pair in it; among several, the one nearest the band's centre.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from game_def.characters import Character
from game_def.errors import VariantError
from game_def.variant import Variant, parse

from .band_pairs import change_text, deck_text, nearest, pair_grids, pairs_of
from .catalogue import spec_from_text
from common.band import Target, parse_target as parse_band

from .grid import GridError
from .metrics import METRICS

# pairs of this many of the singles nearest the band are swept (--pairs)
DEFAULT_PAIRS = 4

def parse_target(text: str) -> Target:
    """'METRIC in [LO,HI]' with a sweep metric and LO <= HI; else a one-line GridError."""
    return parse_band(text, METRICS, "starter_edge in [-0.02,0.02]", "a sweep metric",
                      GridError)


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
                out.append(("deck", deck_text(changed)))
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
    those in the band first, then by distance to the band.

    A variant solved by Monte Carlo CFR has the target's 95% interval beside it
    (`<metric>_lo`, `<metric>_hi`; NaN where solved exactly), and `interval_in_band`
    says whether the whole interval lies in the band (for an exact variant, whether its
    value does). `in_band` is the estimate's."""
    done = table[(table["status"] == "done") & (table["variant"] != base)]
    wide = done.pivot_table(index="variant", columns="metric", values="value",
                            aggfunc="first", dropna=False)
    if wide.empty or target.metric not in wide:  # nothing finished (every solve failed)
        return pd.DataFrame({"in_band": pd.Series(dtype=bool),
                             "interval_in_band": pd.Series(dtype=bool),
                             "distance": pd.Series(dtype=float),
                             **{c: pd.Series(dtype=float) for c in (
                                 target.metric, f"{target.metric}_lo",
                                 f"{target.metric}_hi")}},
                            index=pd.Index([], name="variant"))
    rows = done[done["metric"] == target.metric].groupby("variant").first()
    lo, hi = (rows[end].reindex(wide.index).astype(float) if end in rows
              else pd.Series(float("nan"), index=wide.index) for end in ("lo", "hi"))
    value = wide[target.metric]
    inside = (value >= target.lo) & (value <= target.hi)
    exact = lo.isna() | hi.isna()
    wide.insert(0, "in_band", inside)
    wide.insert(1, "interval_in_band",
                inside.where(exact, (lo >= target.lo) & (hi <= target.hi)).astype(bool))
    wide.insert(2, "distance", (target.lo - value).clip(lower=0)
                + (value - target.hi).clip(lower=0))
    wide[f"{target.metric}_lo"], wide[f"{target.metric}_hi"] = lo, hi
    order = [target.metric, f"{target.metric}_lo", f"{target.metric}_hi"] + [
        m for m in METRICS if m in wide and m != target.metric]
    wide = wide[["in_band", "interval_in_band", "distance"] + order]
    return wide.sort_values(["in_band", "distance"], ascending=[False, True])


def smallest_change(found: pd.DataFrame, target: Target) -> str | None:
    """The variant of `band_search`'s frame that meets the band with the fewest changes:
    a single if any single meets it, else a pair; among those, the nearest the band's
    centre, then the first by variant string. None when nothing meets it."""
    inside = found[found["in_band"]]
    if inside.empty:
        return None
    centre = (target.lo + target.hi) / 2
    order = pd.DataFrame({"rank": inside["kind"].map({"single": 0, "pair": 1}).to_numpy(),
                          "off_centre": (inside[target.metric] - centre).abs().to_numpy(float),
                          "variant": list(inside.index)})
    order = order.sort_values(["rank", "off_centre", "variant"], kind="mergesort")
    return order["variant"].iloc[0]


def _sweep(grid: str, base_text: str, name: str, root: Path, executor: str, workers: int,
           say, stop, settings, seed) -> pd.DataFrame:
    from .run import run_sweep

    spec = spec_from_text(grid, base_text, name, seed=seed, settings=settings)
    return run_sweep(spec, root, executor=executor, workers=workers, progress=False,
                     report=False, say=say, stop=stop).table


def _labelled(table: pd.DataFrame, target: Target, base: str, kind: str,
              changes: dict) -> pd.DataFrame:
    found = meeting(table, target, base)
    found = found[found.index.isin(list(changes))]
    found.insert(0, "kind", kind)
    found.insert(1, "change", [changes[v] for v in found.index])
    return found


def band_search(base_text: str, target: Target, out, *, workers: int = 1,
                options=None, executor: str = "process", say=None,
                pairs: int = DEFAULT_PAIRS, stop=None, settings=None,
                seed: int = 0) -> pd.DataFrame:
    """Sweep every single change of the base (`options`: only these options), one sweep
    per option in out/<option>/, then every pair of the `pairs` singles nearest the band
    (sweep.band_pairs), one sweep per two options in out/pairs/<a>.<b>/. Returns
    `meeting`'s frame over both, with `kind` (single or pair) and `change` (what it
    changes, `option=value + option=value`) first, in `ordered`'s order. `stop`: a
    threading.Event that calls the search off (sweep.run.run_sweep). `settings`
    (sweep.grid.SolveSettings; default its defaults) and `seed`: how every variant is
    solved, exactly where its tree fits and by Monte Carlo CFR otherwise (its budget
    in traversals for a reproducible search)."""
    base = parse(base_text)
    changes = single_changes(base)
    if options is not None:
        changes = [(o, v) for o, v in changes if o in options]
    named = {str(base.replace(**{o: v})): (o, v) for o, v in changes}
    tables = []
    for option in dict.fromkeys(o for o, _ in changes):
        values = [v for o, v in changes if o == option]
        tables.append(_sweep(f"{option}={','.join(values)}", base_text, f"band-{option}",
                             Path(out) / option, executor, workers, say, stop,
                             settings, seed))
    found = _labelled(pd.concat(tables, ignore_index=True) if tables else
                      pd.DataFrame(columns=["variant", "status", "metric", "value"]),
                      target, str(base), "single",
                      {v: change_text(c) for v, c in named.items()})
    chosen = [named[v] for v in nearest(found, target, pairs)]
    both = pairs_of(base, chosen)
    if both:
        tables = [_sweep(grid, base_text, f"band-pair-{suffix}", Path(out) / "pairs" / suffix,
                         executor, workers, say, stop, settings, seed)
                  for suffix, grid in pair_grids(base, both)]
        found = pd.concat([found, _labelled(
            pd.concat(tables, ignore_index=True), target, str(base), "pair",
            {v: change_text(a, b) for v, (a, b) in both.items()})])
    return ordered(found, target)


def ordered(found: pd.DataFrame, target: Target) -> pd.DataFrame:
    """In the band first, singles before pairs, each nearer the band's centre first
    (so the first row is `smallest_change`); then the rest by distance to the band,
    singles first on a tie; variant string last."""
    centre = (target.lo + target.hi) / 2
    inside = found["in_band"].astype(bool).to_numpy()
    pair = (found["kind"] == "pair").to_numpy()
    key = pd.DataFrame({"out": ~inside, "pair_in": pair & inside,
                        "distance": found["distance"].to_numpy(float),
                        "off": (found[target.metric] - centre).abs().to_numpy(float),
                        "pair": pair, "variant": list(found.index)})
    order = key.sort_values(["out", "pair_in", "distance", "off", "pair", "variant"],
                            kind="mergesort").index
    return found.iloc[order]
