"""Figures of a sweep, from its tidy table (matplotlib Figure objects, no pyplot state,
as analysis.figures). What each figure draws is the game's (sweep.games.SweepGame):
its balance headline, its bar groups, its length panels and its effect metrics."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from analysis.figures import RATE_COLOURS

from .catalogue import game_named
from .effects import is_probability
from .games import DEFAULT_GAME, BarGroup, SweepGame, balance_headlines

METHOD_COLOURS = {"exact": "#4c72b0", "mccfr": "#dd8452", "play": "#55a868",
                  "random": "#8c8c8c"}
GROUP_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860")


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


def _game(game: SweepGame | None) -> SweepGame:
    return game or game_named(DEFAULT_GAME)


def _method_legend(ax, methods, game: SweepGame):
    ax.legend(handles=[Patch(color=METHOD_COLOURS[m], label=game.method_names[m])
                       for m in METHOD_COLOURS if m in set(methods)],
              fontsize=8, loc="best")


def balance_figure(table: pd.DataFrame, options: list[str],
                   game: SweepGame | None = None) -> Figure | None:
    """The game's balance headline per variant (Robin Wood: the first player's value,
    their win rate when some variant has 3-4 players), with 95% intervals where
    sampled; colour = how it was measured."""
    game = _game(game)
    v = _variants(table)
    if v.empty:
        return None
    names = list(v["variant"])
    headlines = balance_headlines(game, options)
    headline = headlines[0]
    value, lo, hi = _metric(table, headline.metric, names)
    for fallback in headlines[1:]:
        if not np.isnan(value).any():
            break
        headline = fallback
        value, lo, hi = _metric(table, headline.metric, names)
    fig = Figure(figsize=(7.5, 1.2 + 0.42 * len(names)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(names))[::-1]
    ax.barh(y, np.nan_to_num(value), color=[METHOD_COLOURS[m] for m in v["method"]],
            xerr=_errors(value, lo, hi), capsize=3)
    for yi, x in zip(y, value):
        if np.isfinite(x):
            ax.annotate(f"{100 * x:.1f}%" if headline.probability else f"{x:+.3f}", (x, yi),
                        xytext=(4 if x >= 0 else -4, 0), textcoords="offset points",
                        ha="left" if x >= 0 else "right", va="center", fontsize=8)
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_yticks(y, _labels(table, names, options), fontsize=8)
    ax.set_xlabel(headline.label)
    ax.set_title(f"{game.balance_title}\n(error bars: 95% intervals where sampled)",
                 fontsize=10)
    ax.margins(x=0.15)
    ax.grid(axis="x", alpha=0.3)
    _method_legend(ax, v["method"], game)
    return fig


def group_figure(table: pd.DataFrame, options: list[str], group: BarGroup) -> Figure | None:
    """A group of metrics side by side per variant (Robin Wood: bluff, challenge and
    right-challenge rates)."""
    v = _variants(table)
    if v.empty:
        return None
    names = list(v["variant"])
    series = group.series
    fig = Figure(figsize=(max(7.5, 1.8 + 0.37 * len(series) * len(names)), 5.0),
                 layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(len(names))
    width = 0.8 / len(series)
    middle = (len(series) - 1) / 2
    for i, (metric, label) in enumerate(series.items()):
        value, lo, hi = _metric(table, metric, names)
        colour = RATE_COLOURS.get(metric, GROUP_COLOURS[i % len(GROUP_COLOURS)])
        ax.bar(x + (i - middle) * width, np.nan_to_num(value), width, label=label,
               color=colour, yerr=_errors(value, lo, hi), capsize=2)
    ax.set_xticks(x, _labels(table, names, options), fontsize=7, rotation=25, ha="right",
                  rotation_mode="anchor")
    if group.probability:
        ax.set_ylim(0, 1.12)
    else:
        ax.margins(y=0.15)
    ax.set_ylabel(group.ylabel)
    random = [n for n, m in zip(names, v["method"]) if m == "random"]
    ax.set_title(group.title
                 + (" (random-play variants: rates of random moves)" if random else ""),
                 fontsize=10)
    ax.legend(fontsize=8, ncol=3, loc="upper center", frameon=False)
    ax.grid(axis="y", alpha=0.3)
    return fig


def rates_figure(table: pd.DataFrame, options: list[str]) -> Figure | None:
    """Robin Wood's bluff, challenge and right-challenge rates per variant."""
    return group_figure(table, options, game_named(DEFAULT_GAME).groups[0])


def length_figure(table: pd.DataFrame, options: list[str],
                  game: SweepGame | None = None) -> Figure | None:
    """The game's length panels per variant (Robin Wood: mean round length and the
    turn-cap (draw) rate)."""
    game = _game(game)
    v = _variants(table)
    if v.empty:
        return None
    names = list(v["variant"])
    fig = Figure(figsize=(11, 1.4 + 0.42 * len(names)), layout="constrained")
    axes = fig.subplots(1, len(game.length), sharey=True, squeeze=False)[0]
    y = np.arange(len(names))[::-1]
    colours = [METHOD_COLOURS[m] for m in v["method"]]
    for ax, panel in zip(axes, game.length):
        value, lo, hi = _metric(table, panel.metric, names)
        ax.barh(y, np.nan_to_num(value), color=colours, xerr=_errors(value, lo, hi),
                capsize=3)
        for yi, x in zip(y, value):
            if np.isfinite(x):
                ax.annotate(f"{100 * x:.1f}%" if panel.probability else f"{x:.2f}",
                            (x, yi), xytext=(4, 0), textcoords="offset points",
                            va="center", fontsize=8)
        ax.set_xlabel(panel.label)
        ax.margins(x=0.18)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(y, _labels(table, names, options), fontsize=8)
    _method_legend(axes[-1], v["method"], game)
    fig.suptitle(game.length_title, fontsize=10)
    return fig


def effects_figure(effects: pd.DataFrame, game: SweepGame | None = None) -> Figure | None:
    """The value of a rule: per metric, the change when one option alone flips (mean
    over the other options' settings; bars 95% intervals where sampled, dots the
    smallest and largest single difference)."""
    game = _game(game)
    if effects.empty:
        return None
    titles = game.effect_metrics
    metrics = [m for m in titles if (effects["metric"] == m).any()]
    headlines = [h.metric for h in balance_headlines(game, set(effects["option"]))
                 if h.metric in metrics]
    for later in headlines[1:]:   # only the first balance headline the table has
        metrics.remove(later)
    if game.fair_headline is not None and game.fair_headline.metric not in headlines:
        metrics = [m for m in metrics if m != game.fair_headline.metric]
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
        scale = 100 if is_probability(metric) else 1
        errors = _errors(delta, part["delta_lo"].to_numpy(float),
                         part["delta_hi"].to_numpy(float))
        ax.barh(y, np.nan_to_num(delta) * scale, color=np.where(delta >= 0, "#4c72b0",
                                                                "#c44e52"),
                xerr=None if errors is None else errors * scale, capsize=3)
        ax.scatter(part["min_delta"] * scale, y, marker="|", color="#222", s=60, zorder=3)
        ax.scatter(part["max_delta"] * scale, y, marker="|", color="#222", s=60, zorder=3)
        ax.axvline(0, color="#333", linewidth=0.8)
        ax.set_title(titles[metric] + (" (pp)" if scale == 100 else ""), fontsize=9)
        ax.grid(axis="x", alpha=0.3)
        ax.set_yticks(y, labels, fontsize=8)
    for ax in axes.flat[len(metrics):]:
        ax.set_visible(False)
    fig.suptitle("The value of a rule: change when one option alone flips, the others "
                 "held fixed (| = smallest and largest pair)", fontsize=10)
    return fig
