"""The sweep report: sweeps/<name>/index.html and report.md with the figures (PNG beside
them, embedded in the HTML), the variants, their main metrics, the value of each rule and
a generated paragraph, for whichever game the sweep took (sweep.games: its title,
metrics, figures and methods). Tables and formatting come from analysis.pages."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.pages import PAGE_STYLE, format_number, html_table, markdown_table, save_png

from . import figures
from .effects import SAME, effects_paragraph, grid_axes, is_probability, rule_effects
from .games import SweepGame, balance_caption, complete_table
from .grid import SweepSpec

HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{{ title }} sweep: {{ name }}</title>
<style>
""" + PAGE_STYLE + """</style></head><body>
<h1>{{ title }} sweep: {{ name }}</h1>
<p class="sub">base {{ base }} &middot; grid {{ grid }} &middot; {{ count }} variants &middot; generated {{ generated }}</p>
<p class="summary">{{ summary }}</p>
<p>{{ methods }}</p>
{% for fig in figures %}<figure><img alt="{{ fig.caption }}" src="data:image/png;base64,{{ fig.data }}">
<figcaption>{{ fig.caption }} (<a href="{{ fig.file }}">{{ fig.file }}</a>)</figcaption></figure>{% endfor %}
{% for title, table in tables %}<h2>{{ title }}</h2>{{ table }}{% endfor %}
<h2>What the metrics mean</h2><dl>
{% for term, meaning in glossary %}<dt>{{ term }}</dt><dd>{{ meaning }}</dd>{% endfor %}</dl>
<p>The tidy table (one row per variant and metric, 95% intervals in <code>lo</code>, <code>hi</code> where sampled) is <code>table.csv</code>{% if parquet %} and <code>table.parquet</code>{% endif %}; each variant's solve is in <code>runs/</code>.</p>
</body></html>
"""

MARKDOWN = """# {{ title }} sweep: {{ name }}

base {{ base }} · grid {{ grid }} · {{ count }} variants · generated {{ generated }}

{{ summary }}

{{ methods }}
{% for fig in figures %}
![{{ fig.caption }}]({{ fig.file }})
{% endfor %}{% for title, table in tables %}
## {{ title }}

{{ table }}
{% endfor %}
## What the metrics mean
{% for term, meaning in glossary %}
- **{{ term }}**: {{ meaning }}{% endfor %}

The tidy table (one row per variant and metric, 95% intervals in `lo`, `hi` where sampled) is `table.csv`{% if parquet %} and `table.parquet`{% endif %}; each variant's solve is in `runs/`.
"""


def metrics_wide(table: pd.DataFrame, metrics) -> pd.DataFrame:
    """Variants down, the game's metrics across (with *_lo, *_hi where sampled)."""
    done = table[table["status"] == "done"]
    if done.empty:
        return pd.DataFrame()
    order = list(dict.fromkeys(done["variant"]))
    wide = done.pivot(index="variant", columns="metric", values=["value", "lo", "hi"])
    columns = {}
    for metric in metrics:
        if ("value", metric) not in wide.columns:
            continue
        columns[metric] = wide[("value", metric)]
        if wide[("lo", metric)].notna().any():
            columns[f"{metric}_lo"] = wide[("lo", metric)]
            columns[f"{metric}_hi"] = wide[("hi", metric)]
    frame = pd.DataFrame(columns).reindex(order)
    frame.index.name = "variant"
    return frame


def variants_overview(table: pd.DataFrame, variants: pd.DataFrame) -> pd.DataFrame:
    """Per variant: method, how its statistics were measured, its quality measure."""
    first = table.drop_duplicates("variant").set_index("variant")
    rows = []
    for _, v in variants.iterrows():
        t = first.loc[v["variant"]]
        quality = ""
        if t["status"] == "done" and pd.notna(t["quality"]):
            quality = f"{t['quality_measure']}: {t['quality']:.3g}"
            if pd.notna(t["quality_lo"]):
                quality += f" [{t['quality_lo']:.3g}, {t['quality_hi']:.3g}]"
        elif t["status"] == "done":
            quality = t["quality_measure"]
        rows.append({"variant": v["variant"], "method": v["method"],
                     "solver": v["solver"] or "–",
                     "statistics": t["statistics"] if t["status"] == "done" else "–",
                     "quality": quality or "–",
                     "status": t["status"] if t["status"] != "failed" else
                     f"failed: {t['error']}"})
    return pd.DataFrame(rows).set_index("variant")


def effects_wide(effects: pd.DataFrame, metrics) -> pd.DataFrame:
    """Flips down, metrics across: mean change [95% interval] (min to max over pairs)."""
    if effects.empty:
        return pd.DataFrame()
    cells: dict[tuple[str, str], dict[str, str]] = {}
    for _, r in effects.iterrows():
        probability = is_probability(r["metric"])
        text = format_number(r["delta"], probability, delta=True)
        if np.isfinite(r["delta_lo"]):
            text += (f" [{format_number(r['delta_lo'], probability, True)}, "
                     f"{format_number(r['delta_hi'], probability, True)}]")
        if r["pairs"] > 1 and r["max_delta"] - r["min_delta"] >= SAME:
            text += (f" ({format_number(r['min_delta'], probability, True)} to "
                     f"{format_number(r['max_delta'], probability, True)}, "
                     f"{r['pairs']} pairs)")
        cells.setdefault((r["option"], r["change"]), {})[r["metric"]] = text
    frame = pd.DataFrame.from_dict(cells, orient="index")
    frame.index = pd.MultiIndex.from_tuples(frame.index, names=["option", "change"])
    return frame[[m for m in metrics if m in frame.columns]].fillna("–")


def _methods_sentence(variants: pd.DataFrame, game: SweepGame) -> str:
    counts = variants["method"].value_counts()
    words = game.method_words
    parts = [f"{n} {'variant' if n == 1 else 'variants'} {words[m]}" for m, n in counts.items()]
    failed = variants[variants["status"] == "failed"]
    text = "; ".join(parts) + "."
    if len(failed):
        text += (f" {len(failed)} failed and are left out of the figures: "
                 + "; ".join(f"{r['variant']} ({r['error']})" for _, r in failed.iterrows())
                 + ".")
    missing = variants[variants["status"] == "missing"]
    if len(missing):
        text += f" {len(missing)} have not been solved yet (run the sweep again)."
    return text


def write_sweep_report(spec: SweepSpec, root, table: pd.DataFrame,
                       variants: pd.DataFrame) -> Path:
    """Write index.html, report.md, the PNG figures and effects.csv; returns index.html."""
    import jinja2
    from markupsafe import Markup

    root = Path(root)
    game = spec.game
    options = [name for name, _ in spec.axes if name in spec.varying]
    table = complete_table(game, table)   # metrics an older table lacks, derived
    effects = rule_effects(table, grid_axes(table, options), game)
    effects.to_csv(root / "effects.csv", index=False)
    figs = {"balance": (figures.balance_figure(table, options, game),
                        balance_caption(game, options)),
            **{group.key: (figures.group_figure(table, options, group), group.caption)
               for group in game.groups},
            "length": (figures.length_figure(table, options, game), game.length_caption),
            "rule_effects": (figures.effects_figure(effects, game), "The value of a rule")}
    images = [{"file": f"{key}.png", "caption": caption,
               "data": save_png(fig, root / f"{key}.png")}
              for key, (fig, caption) in figs.items() if fig is not None]
    tables = [("The value of a rule (change when the option alone flips; mean over the "
               "other options, [95% interval] where sampled, (smallest to largest pair))",
               effects_wide(effects, game.metrics)),
              ("Main metrics per variant", metrics_wide(table, game.metrics)),
              ("Variants: method and quality", variants_overview(table, variants))]
    tables = [(title, frame) for title, frame in tables if len(frame)]
    try:
        import pyarrow  # noqa: F401
        parquet = True
    except ImportError:
        parquet = False
    context = {"title": game.title, "name": spec.name, "base": str(spec.base),
               "grid": " ".join(f"{n}={','.join(v)}" for n, v in spec.axes),
               "count": len(variants), "generated": time.strftime("%Y-%m-%d %H:%M"),
               "summary": effects_paragraph(effects, game),
               "methods": _methods_sentence(variants, game),
               "figures": images, "glossary": list(game.metrics.items()), "parquet": parquet}
    html = jinja2.Environment(autoescape=True).from_string(HTML).render(
        **context, tables=[(t, Markup(html_table(f))) for t, f in tables])
    (root / "index.html").write_text(html, encoding="utf-8")
    md = jinja2.Environment(autoescape=False, keep_trailing_newline=True).from_string(
        MARKDOWN).render(**context, tables=[(t, markdown_table(f)) for t, f in tables])
    (root / "report.md").write_text(re.sub(r"\n{3,}", "\n\n", md), encoding="utf-8")
    (root / "report.json").write_text(json.dumps({"summary": context["summary"],
                                                  "methods": context["methods"]}, indent=2))
    return root / "index.html"
