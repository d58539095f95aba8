"""Into a band: which changes of the box parameters bring a balance metric into a target
band (`python -m robin_des_bois audit --target "first_player_advantage in [-0.02,0.02]"`).

The candidates are every single change of the variant's box parameters that the rules
accept (single_changes, each by Rules.replace, so options left at the box's
defaults follow a new player count as the box says): one player more or fewer, one colour, value or copy more or
fewer, one card more or fewer in hand or at the hand limit, no gold, the gold taken in
the other order, the other end of the game. Each is played with the same player in
every seat (balance.counted_figures: the metric's value and 95% interval); then the
PAIRS best single changes (nearest the band, distinct parameters) are combined two by
two and played too. A variant meets the band when its measured value lies in it (the
interval is listed beside: with few games, a value in the band may be chance).
"""

from __future__ import annotations

import itertools

import pandas as pd

from common.band import Target, parse_target as parse_band

from . import balance as B
from .audit import chunked, concat, run_jobs
from .rules import Rules, RulesError

PAIRS = 3
def parse_target(text: str) -> Target:
    """'METRIC in [LO,HI]' with a balance metric and LO <= HI; else a one-line
    ValueError naming the fix."""
    return parse_band(text, B.METRICS, "first_player_advantage in [-0.02,0.02]",
                      "a balance metric")


def single_changes(rules: Rules) -> list[dict]:
    """Every single parameter change the rules accept, as {parameter: value}."""
    tried: list[dict] = []
    for name in ("players", "colours", "values", "copies", "hand_size", "hand_limit"):
        for step in (-1, 1):
            tried.append({name: getattr(rules, name) + step})
    if rules.gold:
        tried.append({"gold": "none"})
        tried.append({"gold_order": "low" if rules.gold_order == "high" else "high"})
    tried.append({"end": "pile" if rules.end == "display" else "display"})
    kept = []
    for change in tried:
        try:
            if rules.replace(**change) != rules:
                kept.append(change)
        except RulesError:
            continue
    return kept


def label(change: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in change.items())


def distance(value: float, target: Target) -> float:
    """How far a value lies outside the band (0 inside)."""
    return max(target.lo - value, 0.0) + max(value - target.hi, 0.0)


def measure(rules: Rules, changes: list[dict], games: int, seed: int, player: str,
            workers: int = 1, say=None, stage: str = "band") -> pd.DataFrame:
    """Each change played for `games` games with `player` in every seat: one row per
    (variant, metric) with value, lo, hi."""
    jobs, owner = [], []
    for change in changes:
        params = rules.replace(**change).to_params()
        for job in chunked(params, [player] * params["players"], games, seed, "band",
                           label(change)):
            jobs.append(job)
            owner.append(label(change))
    results = run_jobs(jobs, workers, say, stage)
    frames = []
    for change in changes:
        name = label(change)
        d = concat([r for r, o in zip(results, owner) if o == name])
        _, metrics = B.counted_figures(d)
        frames.append(pd.DataFrame([{"variant": name, "changes": len(change), "metric": m,
                                     "value": v[0], "lo": v[1], "hi": v[2]}
                                    for m, v in metrics.items()]))
    return pd.concat(frames, ignore_index=True)


def meeting(tidy: pd.DataFrame, target: Target) -> pd.DataFrame:
    """One row per variant: in_band, distance, the target metric with its interval,
    the other headline metrics beside; in the band first (fewest changes first), then
    by distance to the band."""
    wide = tidy.pivot_table(index=["variant", "changes"], columns="metric",
                            values="value", aggfunc="first")
    t = tidy[tidy["metric"] == target.metric].set_index(["variant", "changes"])
    out = pd.DataFrame(index=wide.index)
    value = wide[target.metric]
    out["in_band"] = (value >= target.lo) & (value <= target.hi)
    out["distance"] = [distance(v, target) for v in value]
    out[target.metric] = value
    out["lo"], out["hi"] = t["lo"], t["hi"]
    for m in B.HEADLINE:
        if m != target.metric and m in wide:
            out[m] = wide[m]
    out = out.reset_index()
    return out.sort_values(["in_band", "changes", "distance"],
                           ascending=[False, True, True]).reset_index(drop=True)


def best_pairs(singles: pd.DataFrame, changes: list[dict], pairs: int = PAIRS
               ) -> list[dict]:
    """The `pairs` single changes nearest the band, of distinct parameters, combined two
    by two (each pair the rules accept)."""
    by_label = {label(c): c for c in changes}
    best, seen = [], set()
    for name in singles.sort_values("distance")["variant"]:
        change = by_label[name]
        key = next(iter(change))
        if key not in seen:
            best.append(change)
            seen.add(key)
        if len(best) == pairs:
            break
    return [{**a, **b} for a, b in itertools.combinations(best, 2)]


def band_search(rules: Rules, target: Target, games: int, seed: int,
                player: str = B.STRONGEST, workers: int = 1, say=None,
                pairs: int = PAIRS) -> pd.DataFrame:
    """Single changes, then pairs of the best: `meeting` over all of them."""
    say = say or (lambda line: None)
    changes = single_changes(rules)
    say(f"band {target}: {len(changes)} single changes, {games} games each")
    tidy = measure(rules, changes, games, seed, player, workers, say, "band singles")
    combos = []
    for combo in best_pairs(meeting(tidy, target), changes, pairs):
        try:
            rules.replace(**combo)
            combos.append(combo)
        except RulesError:
            continue
    if combos:
        say(f"band {target}: {len(combos)} pairs of the best single changes")
        tidy = pd.concat([tidy, measure(rules, combos, games, seed, player, workers, say,
                                        "band pairs")], ignore_index=True)
    return meeting(tidy, target)
