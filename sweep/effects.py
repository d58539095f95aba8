"""The value of a rule: for each option of the grid, the change in each metric when that
option alone flips (from one of its values to the next), the other options held fixed.

Every pair of finished variants that differ in that option only gives one difference;
a flip's effect is their mean over the other options' settings, with the smallest and
largest difference (they differ when rules interact). Sampled metrics carry a 95%
interval: the two variants are independent samples, so half-widths add in quadrature.

When an option that sets the table size varies (Robin Wood: `players`, `teams`), the
fair share 1/N moves with it, so balance is read against it: the headline is the
starter's win share minus the fair share (`starter_edge`, a draw counting 1/N), not
their raw win rate, of which most of the change from 2 to 3 players is 1/2 falling to
1/3 (game.fair_headline, sweep.games.balance_headlines).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .catalogue import game_named
from .games import DEFAULT_GAME, SweepGame, balance_headlines, complete_table

BALANCE = "first_player_value"
BALANCE_FALLBACK = "first_player_win_rate"  # 3-4 players have no two-sided value
FAIR = "starter_edge"  # when the table size varies: against the fair share


def grid_axes(table: pd.DataFrame, options: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Each varying option's values in grid order, as the table spells them."""
    return [(name, tuple(pd.unique(table[name].dropna()))) for name in options]


def rule_effects(table: pd.DataFrame, axes: list[tuple[str, tuple[str, ...]]],
                 game: SweepGame | None = None) -> pd.DataFrame:
    """Long frame: option, change ('a -> b'), metric, delta (mean), delta_lo, delta_hi,
    min_delta, max_delta, pairs. Only options with two or more values appear; axes
    as grid_axes gives them (the table's spelling); the metrics are the game's
    (default Robin Wood's)."""
    game = game or game_named(DEFAULT_GAME)
    metrics = game.metrics
    table = complete_table(game, table)
    done = table[table["status"] == "done"]
    names = [name for name, values in axes if len(values) > 1]
    if done.empty or not names:
        return _empty()
    values = done.set_index(names + ["metric"])[["value", "lo", "hi"]]
    rows = []
    for name, options in axes:
        if len(options) < 2:
            continue
        others = [n for n in names if n != name]
        for a, b in zip(options, options[1:]):
            for metric in metrics:
                deltas, halves = [], []
                for key in _contexts(done, others):
                    va = _lookup(values, names, {**key, name: a}, metric)
                    vb = _lookup(values, names, {**key, name: b}, metric)
                    if va is None or vb is None:
                        continue
                    deltas.append(vb[0] - va[0])
                    halves.append(math.hypot(va[1], vb[1]))
                if not deltas:
                    continue
                mean = float(np.mean(deltas))
                sampled = all(np.isfinite(halves))
                half = math.sqrt(sum(h * h for h in halves)) / len(halves) if sampled \
                    else float("nan")
                rows.append({"option": name, "change": f"{a} -> {b}", "metric": metric,
                             "delta": mean, "delta_lo": mean - half, "delta_hi": mean + half,
                             "min_delta": float(np.min(deltas)),
                             "max_delta": float(np.max(deltas)), "pairs": len(deltas)})
    return pd.DataFrame(rows) if rows else _empty()


def _empty() -> pd.DataFrame:
    return pd.DataFrame(columns=["option", "change", "metric", "delta", "delta_lo",
                                 "delta_hi", "min_delta", "max_delta", "pairs"])


def _contexts(done: pd.DataFrame, others: list[str]) -> list[dict]:
    if not others:
        return [{}]
    combos = done[others].drop_duplicates()
    return [dict(zip(others, row)) for row in combos.itertuples(index=False)]


def _lookup(values: pd.DataFrame, names: list[str], key: dict, metric: str):
    """(value, half-width) of one variant's metric; None if missing or NaN."""
    index = tuple(key[n] for n in names) + (metric,)
    if index not in values.index:
        return None
    row = values.loc[index]
    if not np.isfinite(row["value"]):
        return None
    half = (row["hi"] - row["lo"]) / 2 if np.isfinite(row["lo"]) else float("nan")
    return float(row["value"]), float(half)


def balance_metric(effects: pd.DataFrame, game: SweepGame | None = None) -> str | None:
    """The balance metric the effects table has, the game's first headline present
    (Robin Wood: the first player's value, else (3-4 players only) their win rate);
    when an option changing the table size flips, the edge over the fair share."""
    game = game or game_named(DEFAULT_GAME)
    for headline in balance_headlines(game, set(effects["option"])):
        if (effects["metric"] == headline.metric).any():
            return headline.metric
    return None


SAME = 5e-4  # differences below this (0.05 points, 0.0005 of value) count as none


def is_probability(metric: str) -> bool:
    """Whether a metric is a probability (or a difference of two), shown in points."""
    return metric.endswith("_rate") or metric in ("starter_match_win", "starter_edge")


def _fmt(metric: str, x: float) -> str:
    if abs(x) < SAME:
        x = 0.0
    if is_probability(metric):
        return f"{100 * x:+.1f} percentage points"
    if metric == "mean_turns":
        return f"{x:+.2f} turns"
    return f"{x:+.3f}"


def _threshold(metric: str) -> str:
    """SAME in the metric's unit, for 'no option moves it by more than ...'."""
    if is_probability(metric):
        return "0.05 percentage points"
    return "0.0005 turns" if metric == "mean_turns" else "0.0005"


def effects_paragraph(effects: pd.DataFrame, game: SweepGame | None = None) -> str:
    """Which rules move balance most (and what moves the game's other headline
    metrics: bluffing and round length for Robin Wood), from rule_effects; says where
    the sign depends on the other options."""
    game = game or game_named(DEFAULT_GAME)
    metric = balance_metric(effects, game)
    if metric is None:
        return ("No option flips between two finished variants, so the grid measures no "
                "rule's effect; give an option two or more values.")
    bal = effects[effects["metric"] == metric].copy()
    bal["size"] = bal["delta"].abs()
    bal = bal.sort_values("size", ascending=False, kind="stable")
    what = {BALANCE: "the first player's value a round",
            BALANCE_FALLBACK: "the first player's win rate",
            FAIR: "the first player's win share minus the fair share (a draw "
                  "counting 1/N)"}.get(
                metric, game.effect_metrics.get(metric, metric).replace(
                    "first player's", "the first player's"))
    sentences = []
    still = bal[(bal["min_delta"].abs() < SAME) & (bal["max_delta"].abs() < SAME)]
    top = bal.iloc[0]
    if len(still) == len(bal):
        sentences.append(f"No option in this grid moves {what} (under 0.0005 in every "
                         f"pair).")
        bal = bal.iloc[0:0]
    if len(bal):
        text = (f"Of the rules in this grid, {top['option']} ({top['change']}) moves "
                f"balance most: it changes {what} by {_fmt(metric, top['delta'])}")
        sentences.append(text + _spread(top, metric) + ".")
    moving = bal.iloc[1:].drop(index=still.index, errors="ignore")
    if len(moving):
        rest = [f"{r['option']} ({r['change']}) by {_fmt(metric, r['delta'])}"
                + _spread(r, metric) for _, r in moving.iloc[:3].iterrows()]
        sentences.append("Next: " + "; ".join(rest) + ".")
    if len(still) and len(bal):
        sentences.append("Balance does not move with "
                         + _join([f"{r['option']} ({r['change']})" for _, r in still.iterrows()])
                         + " in this grid (under 0.0005 in every pair).")
    for other, words in game.effect_words:
        part = effects[effects["metric"] == other]
        if part.empty:
            continue
        r = part.loc[part["delta"].abs().idxmax()]
        if abs(r["delta"]) < SAME:
            sentences.append(f"No option moves {words} by more than {_threshold(other)}.")
            continue
        sentences.append(f"{words[0].upper() + words[1:]} moves most with {r['option']} "
                         f"({r['change']}): {_fmt(other, r['delta'])}.")
    return " ".join(sentences)


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _spread(r, metric: str) -> str:
    parts = []
    if r["pairs"] > 1 and r["max_delta"] - r["min_delta"] < SAME:
        parts.append(f"the same in all {r['pairs']} pairs")
    elif r["pairs"] > 1:
        if r["min_delta"] < 0 < r["max_delta"]:
            parts.append(f"its sign depends on the other options (from "
                         f"{_fmt(metric, r['min_delta'])} to {_fmt(metric, r['max_delta'])} "
                         f"over {r['pairs']} pairs)")
        else:
            parts.append(f"from {_fmt(metric, r['min_delta'])} to "
                         f"{_fmt(metric, r['max_delta'])} over {r['pairs']} pairs")
    if np.isfinite(r["delta_lo"]):
        excludes = r["delta_lo"] > 0 or r["delta_hi"] < 0
        parts.append(f"95% interval {_fmt(metric, r['delta_lo'])} to "
                     f"{_fmt(metric, r['delta_hi'])}"
                     + ("" if excludes else ", which includes no change"))
    return f" ({'; '.join(parts)})" if parts else ""
