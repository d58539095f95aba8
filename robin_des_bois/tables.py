"""Tables of the Robin des Bois reports as Markdown and HTML, numbers rounded for
reading (the CSV files keep every digit); shared by the balance report and the audit."""

from __future__ import annotations

import pandas as pd


def rounded(frame: pd.DataFrame) -> pd.DataFrame:
    """Floats as text: 4 significant digits from 1 up, 3 decimals below."""
    out = frame.copy()
    for col in out.columns:
        if out[col].dtype.kind == "f":
            out[col] = out[col].map(lambda x: f"{x:.4g}" if abs(x) >= 1 else f"{x:.3f}")
    return out


def markdown_table(frame: pd.DataFrame) -> str:
    shown = rounded(frame)
    header = [str(c) for c in shown.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for row in shown.itertuples(index=False):
        lines.append("| " + " | ".join(str(x) for x in row) + " |")
    return "\n".join(lines)


def html_table(frame: pd.DataFrame) -> str:
    return rounded(frame).to_html(border=0, na_rep="–", index=False)
