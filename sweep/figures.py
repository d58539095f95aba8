"""Figures of a sweep, from its tidy table (matplotlib Figure objects, no pyplot state,
as analysis.figures)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from analysis.figures import RATE_COLOURS

from .effects import BALANCE, BALANCE_FALLBACK

METHOD_COLOURS = {"exact": "#4c72b0", "mccfr": "#dd8452", "random": "#8c8c8c"}
METHOD_NAMES = {"exact": "exact solve", "mccfr": "Monte Carlo CFR (sampled)",
                "random": "random play (not a strategy)"}


def _variants(table: pd.DataFrame) -> pd.DataFrame:
    """One row per finished variant, in grid order: variant, label, method."""
    done = table[table["status"] == "done"]
    first = done.drop_duplicates("variant")
    return first[["variant", "method"]].reset_index(drop=True)


def _metric(table: pd.DataFrame, metric: str, variants: list[str]):
    part = table[table["metric"] == metric].set_index("variant")
    part = part.reindex(variants)
    return (part["value"].to_numpy(float), part["lo"].to_numpy(float),
            part["hi"].to_numpy(float))


def _errors(value, lo, hi):
    if not np.isfinite(lo).any():
        return None
    return np.vstack([np.where(np.isfinite(lo), value - lo, 0),
                      np.where(np.isfinite(hi), hi - value, 0)])


def _labels(table: pd.DataFrame, variants: list[str], options: list[str]) -> list[str]:
    rows = table.drop_duplicates("variant").set_index("variant")
    if not options:
        return variants
    return ["  ".join(f"{o}={rows.at[v, o]}" for o in options) for v in variants]


def _method_legend(ax, methods):
    ax.legend(handles=[Patch(color=METHOD_COLOURS[m], label=METHOD_NAMES[m])
                       for m in METHOD_COLOURS if m in set(methods)],
              fontsize=8, loc="best")


def balance_figure(table: pd.DataFrame, options: list[str]) -> Figure | None:
    """The first player's value per variant (their win rate when some variant has 3-4
    players), with 95% intervals where sampled; colour = how it was measured."""
    v = _variants(table)
    if v.empty:
        return None
    names = list(v["variant"])
    metric = BALANCE
    value, lo, hi = _metric(table, BALANCE, names)
    if np.isnan(value).any():
        metric = BALANCE_FALLBACK
        value, lo, hi = _metric(table, BALANCE_FALLBACK, names)
    fig = Figure(figsize=(7.5, 1.2 + 0.42 * len(names)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(names))[::-1]
    ax.barh(y, np.nan_to_num(value), color=[METHOD_COLOURS[m] for m in v["method"]],
            xerr=_errors(value, lo, hi), capsize=3)
    for yi, x in zip(y, value):
        if np.isfinite(x):
            ax.annotate(f"{x:+.3f}" if metric == BALANCE else f"{100 * x:.1f}%", (x, yi),
                        xytext=(4 if x >= 0 else -4, 0), textcoords="offset points",
                        ha="left" if x >= 0 else "right", va="center", fontsize=8)
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_yticks(y, _labels(table, names, options), fontsize=8)
    ax.set_xlabel("value a round for the player who starts (+1 win, -1 loss)"
                  if metric == BALANCE else "P(the player who starts wins the round)")
    ax.set_title("Balance: the first player's edge per variant\n(error bars: 95% "
                 "intervals where sampled)", fontsize=10)
    ax.margins(x=0.15)
    ax.grid(axis="x", alpha=0.3)
    _method_legend(ax, v["method"])
    return fig


def rates_figure(table: pd.DataFrame, options: list[str]) -> Figure | None:
    """Bluff, challenge and right-challenge rates per variant."""
    v = _variants(table)
    if v.empty:
        return None
    names = list(v["variant"])
    series = {"bluff_rate": "P(bluff | announced)",
              "challenge_rate": "P(challenged | announced)",
              "challenge_right_rate": "P(bluff | challenged)"}
    fig = Figure(figsize=(max(7.5, 1.8 + 1.1 * len(names)), 5.0), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(len(names))
    width = 0.8 / len(series)
    for i, (metric, label) in enumerate(series.items()):
        value, lo, hi = _metric(table, metric, names)
        ax.bar(x + (i - 1) * width, np.nan_to_num(value), width, label=label,
               color=RATE_COLOURS[metric], yerr=_errors(value, lo, hi), capsize=2)
    ax.set_xticks(x, _labels(table, names, options), fontsize=7, rotation=25, ha="right",
                  rotation_mode="anchor")
    ax.set_ylim(0, 1.12)
    ax.set_ylabel("probability")
    random = [n for n, m in zip(names, v["method"]) if m == "random"]
    ax.set_title("Bluffs and challenges per variant"
                 + (" (random-play variants: rates of random moves)" if random else ""),
                 fontsize=10)
    ax.legend(fontsize=8, ncol=3, loc="upper center", frameon=False)
    ax.grid(axis="y", alpha=0.3)
    return fig


def length_figure(table: pd.DataFrame, options: list[str]) -> Figure | None:
    """Mean round length and turn-cap (draw) rate per variant."""
    v = _variants(table)
    if v.empty:
        return None
    names = list(v["variant"])
    fig = Figure(figsize=(11, 1.4 + 0.42 * len(names)), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    y = np.arange(len(names))[::-1]
    colours = [METHOD_COLOURS[m] for m in v["method"]]
    for ax, metric, xlabel in ((axes[0], "mean_turns", "turns a round lasts (mean)"),
                               (axes[1], "turn_cap_rate", "P(the round reaches the turn "
                                                          "cap): a draw")):
        value, lo, hi = _metric(table, metric, names)
        ax.barh(y, np.nan_to_num(value), color=colours, xerr=_errors(value, lo, hi),
                capsize=3)
        for yi, x in zip(y, value):
            if np.isfinite(x):
                ax.annotate(f"{x:.2f}" if metric == "mean_turns" else f"{100 * x:.1f}%",
                            (x, yi), xytext=(4, 0), textcoords="offset points",
                            va="center", fontsize=8)
        ax.set_xlabel(xlabel)
        ax.margins(x=0.18)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(y, _labels(table, names, options), fontsize=8)
    _method_legend(axes[1], v["method"])
    fig.suptitle("Round length and turn cap per variant", fontsize=10)
    return fig


EFFECT_METRICS = {BALANCE: "first player's value", BALANCE_FALLBACK: "first player's win rate",
                  "bluff_rate": "bluff rate", "challenge_rate": "challenge rate",
                  "mean_turns": "mean turns", "turn_cap_rate": "turn-cap rate"}


def effects_figure(effects: pd.DataFrame) -> Figure | None:
    """The value of a rule: per metric, the change when one option alone flips (mean
    over the other options' settings; bars 95% intervals where sampled, dots the
    smallest and largest single difference)."""
    if effects.empty:
        return None
    metrics = [m for m in EFFECT_METRICS if (effects["metric"] == m).any()]
    if BALANCE in metrics and BALANCE_FALLBACK in metrics:
        metrics.remove(BALANCE_FALLBACK)
    flips = effects[["option", "change"]].drop_duplicates()
    labels = [f"{o}: {c}" for o, c in flips.itertuples(index=False)]
    cols = min(3, len(metrics))
    rows = -(-len(metrics) // cols)
    fig = Figure(figsize=(4.2 * cols + 1.5, 0.9 + rows * (0.6 + 0.38 * len(labels))),
                 layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False, sharey=True)
    y = np.arange(len(labels))[::-1]
    for ax, metric in zip(axes.flat, metrics):
        part = effects[effects["metric"] == metric].set_index(["option", "change"])
        part = part.reindex(pd.MultiIndex.from_frame(flips))
        delta = part["delta"].to_numpy(float)
        scale = 100 if metric.endswith("_rate") else 1
        errors = _errors(delta, part["delta_lo"].to_numpy(float),
                         part["delta_hi"].to_numpy(float))
        ax.barh(y, np.nan_to_num(delta) * scale, color=np.where(delta >= 0, "#4c72b0",
                                                                "#c44e52"),
                xerr=None if errors is None else errors * scale, capsize=3)
        ax.scatter(part["min_delta"] * scale, y, marker="|", color="#222", s=60, zorder=3)
        ax.scatter(part["max_delta"] * scale, y, marker="|", color="#222", s=60, zorder=3)
        ax.axvline(0, color="#333", linewidth=0.8)
        ax.set_title(EFFECT_METRICS[metric] + (" (pp)" if scale == 100 else ""), fontsize=9)
        ax.grid(axis="x", alpha=0.3)
        ax.set_yticks(y, labels, fontsize=8)
    for ax in axes.flat[len(metrics):]:
        ax.set_visible(False)
    fig.suptitle("The value of a rule: change when one option alone flips, the others "
                 "held fixed (| = smallest and largest pair)", fontsize=10)
    return fig
