"""An audit as files: reports/<name>/index.html and report.md (the first screen, then
each section's table and figure) and one CSV per table (analysis.audit)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pandas as pd

from .audit_words import band_sentence, first_screen
from .pages import PAGE_STYLE, html_table, markdown_table, save_png

HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Audit: {{ variant }}</title>
<style>
""" + PAGE_STYLE + """</style></head><body>
<h1>Audit: {{ variant }}</h1>
<p class="sub">{{ sub }}</p>
{% for s in screen %}<p class="summary">{{ s }}</p>{% endfor %}
{% for title, note, table, fig in sections %}<h2>{{ title }}</h2><p>{{ note }}</p>
{% if fig %}<figure><img alt="{{ title }}" src="data:image/png;base64,{{ fig.data }}"><figcaption><a href="{{ fig.file }}">{{ fig.file }}</a></figcaption></figure>{% endif %}
{{ table }}{% endfor %}
</body></html>
"""

MARKDOWN = """# Audit: {{ variant }}

{{ sub }}
{% for s in screen %}
{{ s }}
{% endfor %}{% for title, note, table, fig in sections %}
## {{ title }}

{{ note }}
{% if fig %}
![{{ title }}]({{ fig.file }})
{% endif %}
{{ table }}
{% endfor %}"""

NOTES = {
    "seats": "Each seat's win share (P(win) + P(draw)/2) under the exact equilibrium, "
             "against the fair share 1/2; lo and hi bracket it by the game value (the "
             "solve's exploitability). seats.csv; the variant's metrics in metrics.csv "
             "(starter_edge as Ludii's AdvantageP1 against the fair share, balance the "
             "gap between the seats, drawishness the turn-cap rate, duration in turns, "
             "decisiveness the share of a won round gone when the winner takes a strike "
             "lead it keeps, lead changes how often the strike lead passes).",
    "restricted": "Each restriction forbids one seat a kind of move (the lock names the "
                  "forbidden actions; where every action would be forbidden it does not "
                  "apply); the game is solved exactly with that seat choosing freely "
                  "among the rest. value lost: the seat's game value free minus "
                  "restricted (+1 a win, -1 a loss), bracketed by both solves' "
                  "exploitability. restricted_play.csv.",
    "ladder": "Round robin, exact on the full tree: the row player's win share against "
              "the column player, both seats averaged (fair share 50%; a player against "
              "itself gets exactly 50%). skill_ladder.csv; each player's mean in "
              "strength.csv.",
}


def _ladder_figure(ladder):
    from matplotlib.figure import Figure

    m = ladder.matrix
    fig = Figure(figsize=(1.6 + 0.55 * len(m), 1.2 + 0.45 * len(m)), layout="constrained")
    ax = fig.add_subplot()
    im = ax.imshow(m.to_numpy(float) - 0.5, cmap="RdBu", vmin=-0.5, vmax=0.5)
    ax.set_xticks(range(len(m)), m.columns, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(m)), m.index, fontsize=8)
    for i in range(len(m)):
        for j in range(len(m)):
            ax.text(j, i, f"{100 * m.iat[i, j]:.0f}", ha="center", va="center", fontsize=6)
    fig.colorbar(im, ax=ax, label="row's win share minus 1/2")
    ax.set_title("Skill ladder: row player's win share (%) against the column player",
                 fontsize=9)
    return fig


def _restricted_figure(restricted: pd.DataFrame):
    from matplotlib.figure import Figure

    r = restricted[restricted["applies"]]
    if r.empty:
        return None
    labels = [f"{a} (seat {s})" for a, s in zip(r["restriction"], r["seat"])]
    fig = Figure(figsize=(7.5, 1.0 + 0.3 * len(r)), layout="constrained")
    ax = fig.add_subplot()
    y = range(len(r))[::-1]
    ax.barh(list(y), r["value_lost"], color="#c44e52",
            xerr=[r["value_lost"] - r["lost_lo"], r["lost_hi"] - r["value_lost"]],
            capsize=2)
    ax.set_yticks(list(y), labels, fontsize=8)
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_xlabel("value the restricted seat loses (+1 win, -1 loss)")
    ax.set_title("What each mechanic is worth (restricted play, exact)", fontsize=10)
    return fig


def write_audit(audit, out, band=None) -> Path:
    """Write the page and tables into `out`; returns index.html. band: (target text,
    sweep.band.meeting's frame) when a band search ran."""
    import jinja2
    from markupsafe import Markup

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    metrics = pd.DataFrame({"value": audit.metrics}).rename_axis("metric")
    strength = audit.ladder.strength().to_frame()
    tables = {"seats": audit.seats, "metrics": metrics,
              "restricted_play": audit.restricted.set_index(["restriction", "seat"]),
              "skill_ladder": audit.ladder.matrix.rename_axis("player"),
              "strength": strength.rename_axis("player")}
    for name, frame in tables.items():
        frame.to_csv(out / f"{name}.csv")
    figs = {}
    for key, fig in (("restricted_play", _restricted_figure(audit.restricted)),
                     ("skill_ladder", _ladder_figure(audit.ladder))):
        if fig is not None:
            figs[key] = {"file": f"{key}.png", "data": save_png(fig, out / f"{key}.png")}
    shown = audit.restricted.drop(columns=["tree"]).set_index(["restriction", "seat"])
    sections = [("Seats", NOTES["seats"], audit.seats, None),
                ("Metrics", "", metrics, None),
                ("What each mechanic is worth", NOTES["restricted"], shown,
                 figs.get("restricted_play")),
                ("The skill ladder", NOTES["ladder"], audit.ladder.matrix.rename_axis(
                    "player"), figs.get("skill_ladder")),
                ("Strength", "Mean win share against the other players.",
                 strength.rename_axis("player"), None)]
    secs = ", ".join(f"{k.replace('_', ' ')} {v:.0f} s" for k, v in audit.seconds.items())
    sub = (f"exact (DCFR to exploitability {audit.settings['target']:g} on the "
           f"position-symmetric tree of {audit.settings['symmetric_nodes']:,} nodes, "
           f"{audit.settings['full_target']:g} on the full tree of "
           f"{audit.settings['nodes']:,}) · {secs} · generated "
           f"{time.strftime('%Y-%m-%d %H:%M')}")
    screen = first_screen(audit, None if band is None else band_sentence(*band))
    if band is not None:
        band[1].to_csv(out / "band.csv")
        sections.append((f"Into the band {band[0]}", "Every single rule change of the "
                         "variant, then every pair of the single changes nearest the "
                         "band (kind, and change: what each row changes), swept exactly "
                         "(sweep.band); those in the band first, singles before pairs, "
                         "nearer the band's centre first; then the rest by distance to "
                         "the band. band.csv; each sweep in band/ (pairs in band/pairs/).",
                         band[1], None))
    context = {"variant": str(audit.variant), "sub": sub, "screen": screen}
    html = jinja2.Environment(autoescape=True).from_string(HTML).render(
        **context, sections=[(t, n, Markup(html_table(f)), g) for t, n, f, g in sections])
    (out / "index.html").write_text(html, encoding="utf-8")
    md = jinja2.Environment(autoescape=False, keep_trailing_newline=True).from_string(
        MARKDOWN).render(**context, sections=[(t, n, markdown_table(f), g)
                                              for t, n, f, g in sections])
    (out / "report.md").write_text(re.sub(r"\n{3,}", "\n\n", md), encoding="utf-8")
    (out / "audit.json").write_text(json.dumps(
        {"variant": str(audit.variant), "first_screen": context["screen"],
         "metrics": audit.metrics, "seconds": audit.seconds,
         "settings": audit.settings}, indent=2))
    return out / "index.html"
