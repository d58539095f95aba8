"""The parts every report page shares: its one-line error, tables read as people read
them (probabilities as percentages, intervals beside their estimates, headers in words)
as HTML and Markdown, figures saved as PNG (base64 for inlining), and the solve's
convergence file."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from game_def.characters import NAMES
from game_def.errors import RobinWoodError

if TYPE_CHECKING:
    from markupsafe import Markup


# the look of every report page (analysis.report, sweep.report)
PAGE_STYLE = """body { font-family: system-ui, sans-serif; max-width: 72em; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.1em; } .sub { color: #666; margin-top: 0; }
.summary { background: #f4f7fb; border-left: 4px solid #4c72b0; padding: 0.8em 1em; }
table.table { border-collapse: collapse; margin: 0.4em 0 1.2em; font-size: 0.9em; }
table.table th, table.table td { padding: 0.2em 0.7em; text-align: right;
       border-bottom: 1px solid #e3e3e3; }
table.table thead th { border-bottom: 2px solid #999; }
figure { margin: 1em 0; } figure img { max-width: 100%; }
figcaption { color: #555; font-size: 0.9em; }
details { margin: 0.5em 0 1em; } summary { cursor: pointer; color: #4c72b0; }
dt { font-weight: 600; } dd { margin: 0 0 0.4em 1.5em; }
code { background: #f3f3f3; padding: 0 0.2em; }
"""


class ReportError(RobinWoodError):
    """A run directory that cannot be reported on (one line: what is wrong, what to do)."""


def read_convergence(run_dir: Path) -> pd.DataFrame | None:
    """convergence.csv as a frame, or None if the run has none (or an empty one)."""
    path = Path(run_dir) / "convergence.csv"
    if not path.exists():
        return None
    try:
        frame = pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
        raise ReportError(f"{path} is corrupt ({type(e).__name__}); solve again or delete "
                          f"it") from None
    return frame if len(frame) else None


# ----- formatting ----------------------------------------------------------------------
_PROBABILITY = re.compile(r"(rate|wins|draws|probability|cumulative|_win|_loss|round_draw"
                          r"|ended_by_\w+)"
                          r"(_lo|_hi)?$")


def is_probability(column: str) -> bool:
    return bool(_PROBABILITY.search(str(column))) or column in NAMES or column == "silent"


def format_number(x, probability: bool, delta: bool = False) -> str:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "–"
    if isinstance(x, (bool, np.bool_, str)) or not isinstance(x, (int, float, np.number)):
        return str(x)
    if isinstance(x, (int, np.integer)):
        return f"{x:,}"
    if probability:
        if delta:
            return "0.0 pp" if abs(x) < 0.0005 else f"{100 * x:+.1f} pp"
        if x == 0:
            return "0%"
        if abs(x) < 0.001:
            return "<0.1%"
        return f"{100 * x:.1f}%"
    if x == 0:
        return "0"
    if abs(x) < 1e-4 or abs(x) >= 1e6:
        return f"{x:+.2e}" if delta else f"{x:.2e}"
    return f"{x:+.4f}" if delta else f"{x:.4f}"


# how a column reads where its name does not say (display_frame's `kinds`)
PROBABILITY, POINTS, NUMBER = "probability", "points", "number"


def _column_kind(column, kinds: dict | None) -> tuple[bool, bool]:
    """(as a percentage, as signed percentage points) for a column."""
    kind = (kinds or {}).get(column)
    if kind is None:
        return is_probability(column), False
    return kind in (PROBABILITY, POINTS), kind == POINTS


def display_frame(frame: pd.DataFrame, kinds: dict | None = None) -> pd.DataFrame:
    """Strings for reading: probabilities as percentages, other numbers to 4 decimals.
    Comparison tables (a `metric` index level) are formatted row by row, deltas of
    probabilities in percentage points. `kinds` names how a column reads where its name
    does not say (column -> PROBABILITY, POINTS: a difference of probabilities, or
    NUMBER), e.g. a matrix whose columns are players' names."""
    out = frame.astype(object).copy()
    if "metric" in (frame.index.names or []):
        metrics = frame.index.get_level_values("metric")
        for i, metric in enumerate(metrics):
            prob, points = _column_kind(metric, kinds)
            for j, column in enumerate(frame.columns):
                out.iat[i, j] = format_number(frame.iat[i, j], prob,
                                              points or column == "delta")
        return out
    for column in frame.columns:
        prob, points = _column_kind(column, kinds)
        out[column] = [format_number(x, prob, points) for x in frame[column]]
    # A sampled interval reads best next to its estimate: "55.1% [54.4%, 55.8%]".
    for column in frame.columns:
        lo, hi = f"{column}_lo", f"{column}_hi"
        if lo in frame.columns and hi in frame.columns:
            out[column] = [est if low == "–" else f"{est} [{low}, {high}]"
                           for est, low, high in zip(out[column], out[lo], out[hi])]
            out = out.drop(columns=[lo, hi])
    return out


def in_words(name) -> str:
    """A column name as a header reads: 'seat0_value' -> 'seat 0 value'. The files in
    tables/ keep the names code uses."""
    return re.sub(r"seat(\d)", r"seat \1", str(name)).replace("_", " ")


def _for_reading(frame: pd.DataFrame, kinds: dict | None = None) -> pd.DataFrame:
    """display_frame with the index as leading columns and headers (and the metric
    names of comparison tables) in words."""
    shown = display_frame(frame, kinds)
    if any(name is not None for name in shown.index.names):
        shown = shown.reset_index()
    if "metric" in shown.columns:
        shown["metric"] = shown["metric"].map(in_words)
    return shown.rename(columns=in_words)


def markdown_table(frame: pd.DataFrame, kinds: dict | None = None) -> str:
    """A Markdown table of display_frame's strings (`kinds` as there)."""
    shown = _for_reading(frame, kinds)
    header = [str(c) for c in shown.columns]
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    for row in shown.itertuples(index=False):
        lines.append("| " + " | ".join(str(x) for x in row) + " |")
    return "\n".join(lines)


def html_table(frame: pd.DataFrame, kinds: dict | None = None) -> str:
    """One header row: named index levels become ordinary leading columns, and a bare
    row number (one-row tables) is dropped (`kinds` as display_frame's)."""
    shown = _for_reading(frame, kinds)
    return shown.to_html(classes="table", border=0, na_rep="–", index=False)


def dict_table(d: dict) -> pd.DataFrame:
    """A metadata dict (e.g. `evaluation`) as a table: one row per entry when every
    entry is itself a dict, else flattened `key.subkey` / value rows."""
    if d and all(isinstance(v, dict) for v in d.values()):
        frame = pd.DataFrame.from_dict(d, orient="index")
        frame.index.name = "entry"
    else:
        flat = pd.json_normalize(d, sep=".").iloc[0] if d else pd.Series(dtype=object)
        frame = flat.rename("value").to_frame()
        frame.index.name = "key"
    return frame.map(lambda x: json.dumps(x) if isinstance(x, (list, dict)) else x)


def code_spans(text) -> "Markup":
    """Markdown's `code` as HTML <code>, the rest escaped."""
    from markupsafe import Markup, escape

    parts = str(text).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: leave the text as it is
        return escape(text)
    return Markup("").join(escape(part) if i % 2 == 0 else Markup("<code>%s</code>") % part
                           for i, part in enumerate(parts))


def save_png(fig, path: Path) -> str:
    """Save a figure as a PNG at `path`; return it base64-encoded, to inline in HTML."""
    fig.savefig(path, dpi=110)
    return base64.b64encode(path.read_bytes()).decode("ascii")
