"""Figures of a strategy profile, as matplotlib Figure objects (no pyplot state: safe in
scripts, tests and notebooks, where a returned Figure displays itself)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from .statistics import ProfileStatistics

RARE = 0.05  # announcements per round below which a bar is drawn faded (a noisy rate)


def _percent(p: float) -> str:
    if p == 0:
        return "0"
    if p < 0.001:
        return "<0.1%"
    return f"{100 * p:.1f}%" if p < 0.1 else f"{100 * p:.0f}%"


RATE_COLOURS = {"bluff_rate": "#d95f02", "challenge_rate": "#1b9e77",
                "challenge_right_rate": "#7570b3"}


def bluff_heatmap(stats: ProfileStatistics, seat: int | None = None) -> Figure:
    """P(action | peeked card): peeked card down, what is said across; the truth
    (diagonal) outlined, everything else in a card's row is a bluff or silence."""
    matrix = stats.announcement_matrix(seat)
    probs = matrix.drop(columns="reach")
    fig = Figure(figsize=(1.3 + 1.05 * probs.shape[1], 1.4 + 0.62 * probs.shape[0]),
                 layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(probs.to_numpy(dtype=float), cmap="Blues", vmin=0, vmax=1,
                      aspect="auto")
    many = probs.shape[1] > 5  # long labels would overlap: slant them
    ax.set_xticks(range(probs.shape[1]),
                  [c if c == "silent" else f"say {c}" for c in probs.columns],
                  rotation=30 if many else 0, ha="right" if many else "center")
    ax.set_yticks(range(probs.shape[0]),
                  [f"{card}\n{reach:.2f}/round" for card, reach in matrix["reach"].items()])
    ax.set_xlabel("what the peeker does")
    ax.set_ylabel("peeked card (peeks per round)")
    for i in range(probs.shape[0]):
        for j in range(probs.shape[1]):
            p = probs.iat[i, j]
            text = "-" if np.isnan(p) else _percent(p) if p < 0.001 or p == 0 \
                else f"{100 * p:.1f}%"
            ax.text(j, i, text, ha="center", va="center", fontsize=9,
                    color="white" if p > 0.6 else "black")
            if probs.columns[j] == probs.index[i]:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False,
                                       edgecolor="#d95f02", linewidth=2.2))
    who = "both seats" if seat is None else f"seat {seat}"
    ax.set_title(f"After a peek ({who}): truth outlined, bluffs off it", fontsize=11)
    fig.colorbar(image, ax=ax, label="P(action | peeked card)", shrink=0.85)
    return fig


def challenge_bars(stats: ProfileStatistics, min_per_round: float = 0.0) -> Figure:
    """Per announced character: how often it is a bluff, how often it is challenged and
    how often a challenge is right (95% intervals when sampled)."""
    bluffs = stats.bluff_rates()
    rates = stats.challenge_rates()
    rows = [c for c in rates.index if rates.at[c, "responses_per_round"] > min_per_round]
    series = {"bluff_rate": ("P(bluff | announced)", bluffs),
              "challenge_rate": ("P(challenged | announced)", rates),
              "challenge_right_rate": ("P(bluff | challenged): challenge right", rates)}
    fig = Figure(figsize=(max(7.5, 1.5 + 1.4 * len(rows)), 4.2), layout="constrained")
    ax = fig.add_subplot()
    width = 0.8 / len(series)
    x = np.arange(len(rows))
    for i, (column, (label, frame)) in enumerate(series.items()):
        values = frame.loc[rows, column].to_numpy(dtype=float)
        errors = None
        if f"{column}_lo" in frame.columns:
            lo = frame.loc[rows, f"{column}_lo"].to_numpy(dtype=float)
            hi = frame.loc[rows, f"{column}_hi"].to_numpy(dtype=float)
            errors = np.vstack([values - lo, hi - values])
        bars = ax.bar(x + (i - 1) * width, np.nan_to_num(values), width, label=label,
                      color=RATE_COLOURS[column], yerr=errors, capsize=2)
        for bar, v, c in zip(bars, values, rows):
            rare = rates.at[c, "responses_per_round"] < RARE
            if rare:
                bar.set_alpha(0.35)
            if np.isfinite(v):
                ax.annotate(_percent(v), (bar.get_x() + bar.get_width() / 2, v),
                            ha="center", va="bottom", fontsize=8, xytext=(0, 1),
                            textcoords="offset points", alpha=0.5 if rare else 1.0)
    ax.set_xticks(x, [f"{c}\n{rates.at[c, 'responses_per_round']:.2f}/round" for c in rows])
    ax.set_ylim(0, 1.25)
    ax.set_ylabel("probability")
    ax.set_xlabel(f"announced character (announcements per round; faded: under {RARE} a "
                  f"round, a rate from rare events)", fontsize=9)
    ax.set_title("Bluffs and challenges per announced character", fontsize=11)
    ax.legend(fontsize=8, loc="upper center", ncol=3, frameon=False)
    ax.grid(axis="y", alpha=0.3)
    return fig


# At 6.4 inches wide, "12.3%" labels in 8 points fit side by side up to this many bars.
MAX_LABELLED_BARS = 16


def round_length_histogram(stats: ProfileStatistics) -> Figure:
    """P(the round lasts t turns); the turn cap (a draw) marked."""
    length = stats.round_length()
    cap = stats.variant.max_turns
    last = int(np.flatnonzero(length.to_numpy() > 0).max()) if length.sum() > 0 else cap
    shown = length.loc[1:max(last, 1)]
    fig = Figure(figsize=(6.4, 3.6), layout="constrained")
    ax = fig.add_subplot()
    colours = ["#999999" if t == cap else "#4c72b0" for t in shown.index]
    bars = ax.bar(shown.index, shown.to_numpy(), color=colours)
    # Label every reached length, so tiny bars are not mistaken for none, as long as
    # the labels fit side by side; past that many bars they would run into each other
    # ("0.0%0.0%..."), and the values are in tables/round_length.csv.
    labelled = len(shown) <= MAX_LABELLED_BARS
    for bar, p in zip(bars, shown.to_numpy()):
        if p > 0 and labelled:
            ax.annotate(_percent(p), (bar.get_x() + bar.get_width() / 2, p), ha="center",
                        va="bottom", fontsize=8, xytext=(0, 1), textcoords="offset points")
    mean = stats.outcomes()["mean_turns"][0]
    handles = [ax.axvline(mean, color="#d95f02", linestyle="--",
                          label=f"mean {mean:.2f} turns")]
    if last >= cap:
        handles.append(Patch(color="#999999", label=f"turn cap ({cap}): a draw"))
    ax.set_ylim(0, shown.max() * 1.15)
    ax.set_xlabel("turns played in the round")
    ax.set_ylabel("probability")
    ax.set_xticks(shown.index if len(shown) <= 20 else shown.index[::max(1, len(shown) // 20)])
    ax.set_title("Round length" if labelled else
                 "Round length (values in tables/round_length.csv)", fontsize=11)
    ax.legend(handles=handles, fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return fig


def quality_figure(quality: pd.DataFrame) -> Figure:
    """The lower bound on exploitability (with its 95% interval) against training time."""
    fig = Figure(figsize=(6.4, 3.6), layout="constrained")
    ax = fig.add_subplot()
    minutes = quality["training_seconds"] / 60
    ax.errorbar(minutes, quality["exploitability_bound"],
                yerr=quality["half_width"].fillna(0), marker="o", capsize=3,
                color="#4c72b0")
    ax.axhline(0, color="#999999", linewidth=0.8)
    ax.set_xlabel("minutes of training")
    ax.set_ylabel("strongest opponent's gain a round")
    ax.set_title("Strength over training (lower bound on exploitability, 95%)",
                 fontsize=11)
    ax.grid(alpha=0.3)
    return fig


def convergence_figure(curve: pd.DataFrame | None) -> Figure | None:
    """The solver's progress: exploitability (log scale) against seconds when measured,
    else every other numeric column of the curve against seconds, one panel each."""
    if curve is None or curve.empty:
        return None
    x_name = "seconds" if "seconds" in curve.columns else curve.columns[0]
    x = curve[x_name]
    if "exploitability" in curve.columns:
        fig = Figure(figsize=(6.4, 3.8), layout="constrained")
        ax = fig.add_subplot()
        y = curve["exploitability"].where(curve["exploitability"] > 0)
        ax.plot(x, y, marker="o", markersize=3, color="#4c72b0")
        ax.set_yscale("log")
        ax.set_xlabel(f"{x_name} of solving")
        ax.set_ylabel("exploitability (round-win units)")
        ax.grid(alpha=0.3, which="both")
        last = curve.iloc[-1]
        note = f"final {last['exploitability']:.3g}"
        if "iteration" in curve.columns:
            note += f" after {int(last['iteration'])} iterations"
        ax.set_title(f"Solver convergence ({note})", fontsize=11)
        return fig
    columns = [c for c in curve.columns
               if c != x_name and pd.api.types.is_numeric_dtype(curve[c])]
    if not columns:
        return None
    cols = 2 if len(columns) > 1 else 1
    rows = -(-len(columns) // cols)
    fig = Figure(figsize=(4.2 * cols, 2.6 * rows + 0.5), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    for ax, column in zip(axes.flat, columns):
        values = curve[column]
        ax.plot(x, values, marker="o", markersize=2)
        if (values > 0).all() and values.max() > 100 * values.min():
            ax.set_yscale("log")
        ax.set_title(column, fontsize=9)
        ax.set_xlabel(x_name, fontsize=8)
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(columns):]:
        ax.set_visible(False)
    fig.suptitle("Solver progress", fontsize=11)
    return fig


def comparison_bars(comparison: dict[str, pd.DataFrame]) -> Figure:
    """Bluff and challenge rates of two profiles per announced character, side by side."""
    bluffs = comparison["bluff_rates"].xs("bluff_rate", level="metric")
    challenges = comparison["challenge_rates"].xs("challenge_rate", level="metric")
    often = comparison["bluff_rates"].xs("announcements_per_round", level="metric")
    labels = [c for c in bluffs.columns if c != "delta"]
    fig = Figure(figsize=(10, 3.8), layout="constrained")
    for ax, (title, frame) in zip(fig.subplots(1, 2),
                                  (("P(bluff | announced)", bluffs),
                                   ("P(challenged | announced)", challenges))):
        x = np.arange(len(frame))
        for i, label in enumerate(labels):
            values = frame[label].to_numpy(dtype=float)
            bars = ax.bar(x + (i - 0.5) * 0.4, np.nan_to_num(values), 0.4, label=label,
                          color=("#4c72b0", "#dd8452")[i])
            for bar, v, c in zip(bars, values, frame.index):
                rare = not often.at[c, label] >= RARE  # NaN too: not in that profile
                if rare:
                    bar.set_alpha(0.35)
                # Upright labels on two narrow bars side by side overlap: turn them.
                ax.annotate("n/a" if np.isnan(v) else _percent(v),
                            (bar.get_x() + bar.get_width() / 2, np.nan_to_num(v)),
                            ha="center", va="bottom", fontsize=7, xytext=(0, 2),
                            textcoords="offset points", rotation=90,
                            alpha=0.5 if rare else 1.0)

        def per_round(c, lab):
            n = often.at[c, lab]
            return "n/a" if np.isnan(n) else f"{n:.2f}"

        ax.set_xticks(x, [f"{c}\n" + "\n".join(per_round(c, lab) for lab in labels)
                          for c in frame.index], fontsize=8)
        ax.set_ylim(0, 1.3)
        ax.set_title(title, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8, loc="upper right")
    fig.supxlabel(f"announced character, then its announcements per round in "
                  f"{' and in '.join(labels)} (one line each); faded: under {RARE} a "
                  f"round, n/a: not in that deck or never announced", fontsize=9)
    fig.suptitle(f"{labels[0]} against {labels[1]}", fontsize=11)
    return fig
