"""An audit as files: reports/<name>/index.html and report.md (the first screen, then
each section's table and figure) and one CSV per table (analysis.audit)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import numpy as np
import pandas as pd

from .audit_words import band_sentence, first_screen
from .pages import (NUMBER, PAGE_STYLE, POINTS, PROBABILITY, html_table, markdown_table,
                    save_png)

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


# how the page's tables read where a column's name does not say (analysis.pages)
SEAT_KINDS = {**dict.fromkeys(("win_share", "win_share_lo", "win_share_hi", "fair_share",
                               "wins", "losses", "draws"), PROBABILITY),
              **dict.fromkeys(("edge", "edge_lo", "edge_hi"), POINTS)}
METRIC_KINDS = {**dict.fromkeys(("starter_edge", "starter_edge_lo", "starter_edge_hi",
                                 "balance"), POINTS),
                **dict.fromkeys(("starter_match_win", "drawishness", "bluff_rate",
                                 "challenge_rate", "challenge_right_rate", "learned_share",
                                 "decisiveness"), PROBABILITY),
                **dict.fromkeys(("duration", "lead_changes"), NUMBER)}
SAMPLED_RESTRICTED_KINDS = {**dict.fromkeys(("free_share", "restricted_share"), PROBABILITY),
                            **dict.fromkeys(("share_lost", "lost_lo", "lost_hi"), POINTS)}
# exact restriction values are in game-value units (+1 a win, -1 a loss)
EXACT_RESTRICTED_KINDS = dict.fromkeys(("free_value", "restricted_value", "value_lost",
                                        "lost_lo", "lost_hi"), NUMBER)

SAMPLED_NOTES = {
    "seats": "Each seat's (team's) win share in {rounds:,} rounds of the Monte Carlo CFR "
             "table's self-play ({iterations:,} traversals a seat; {rules}), a draw "
             "counting the fair share "
             "{fair:.3g}; lo and hi are its 95% interval. seats.csv; metrics.csv "
             "(starter_edge against the fair share, balance the largest gap between "
             "seats, drawishness the turn-cap rate, duration in turns, decisiveness the "
             "share of a won round gone when the winner takes a strike lead it keeps, "
             "a side leading when it has fewer strikes than every other, a team's "
             "strikes its seats' together; lead changes how often the strike lead "
             "passes; learned_share the share of decisions from learned entries).",
    "restricted": "Each restriction forbids one seat (team) a kind of move by forbid "
                  "locks (solver.decisions): Monte Carlo CFR trains the game again at "
                  "{restricted_iterations:,} traversals a seat and the same seed, that "
                  "seat choosing freely among the actions left and the others free. "
                  "share lost: the seat's win share in the self-play of the free game "
                  "trained at that budget minus in the restricted game's, each over "
                  "{rounds:,} rounds; lo and hi its 95% interval. A negative loss means "
                  "the free table plays that mechanic at a loss at this budget. "
                  "restricted_play.csv.",
    "ladder": "Round robin by play: the row player in one seat (team) against copies of "
              "the column player, rotated over every seat, {ladder_rounds:,} rounds a "
              "seat on seeds that trained nothing; fair share {fair:.1%}. The diagonal "
              "(a player against copies of itself) reads the fair share within its "
              "interval.{search} skill_ladder.csv, its 95% half-widths in "
              "skill_ladder_half_width.csv; each player's mean in strength.csv.",
}


def _search_words(settings: dict) -> str:
    """`, N with search` in the subtitle where the ladder has the searched table."""
    rounds = settings.get("search_rounds", 0)
    return f", {rounds:,} a seat with search" if rounds else ""


def _search_note(settings: dict) -> str:
    """The ladder note's words on the searched table's row, where there is one."""
    rounds = settings.get("search_rounds", 0)
    if not rounds:
        return ""
    return (f" The row table+search, the free table with play-time search "
            f"(solver.search, its default settings), is played {rounds:,} rounds a seat "
            f"against each player; its column is the other side of the same rounds, "
            f"and its diagonal is blank (the searcher plays agents, not another "
            f"searcher).")


def _ladder_figure(ladder):
    from matplotlib.figure import Figure

    m = ladder.matrix
    fig = Figure(figsize=(1.6 + 0.55 * len(m), 1.2 + 0.45 * len(m)), layout="constrained")
    ax = fig.add_subplot()
    fair = ladder.fair_share
    im = ax.imshow(m.to_numpy(float) - fair, cmap="RdBu", vmin=-0.5, vmax=0.5)
    ax.set_xticks(range(len(m)), m.columns, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(m)), m.index, fontsize=8)
    for i in range(len(m)):
        for j in range(len(m)):
            if np.isfinite(m.iat[i, j]):   # a cell not played stays blank
                ax.text(j, i, f"{100 * m.iat[i, j]:.0f}", ha="center", va="center",
                        fontsize=6)
    fig.colorbar(im, ax=ax, label=f"row's win share minus the fair {fair:.3g}")
    ax.set_title("Skill ladder: row player's win share (%) against the column player",
                 fontsize=9)
    return fig


def _restricted_figure(restricted: pd.DataFrame, sampled: bool = False):
    from matplotlib.figure import Figure

    r = restricted[restricted["applies"]]
    if r.empty:
        return None
    labels = [f"{a} (seat {s})" for a, s in zip(r["restriction"], r["seat"])]
    fig = Figure(figsize=(7.5, 1.0 + 0.3 * len(r)), layout="constrained")
    ax = fig.add_subplot()
    y = range(len(r))[::-1]
    lost = r["share_lost"] if sampled else r["value_lost"]
    ax.barh(list(y), lost, color="#c44e52",
            xerr=[lost - r["lost_lo"], r["lost_hi"] - lost], capsize=2)
    ax.set_yticks(list(y), labels, fontsize=8)
    ax.axvline(0, color="#333", linewidth=0.8)
    if sampled:
        ax.set_xlabel("win share the restricted seat loses (95% interval)")
        ax.set_title("What each mechanic is worth (restricted play, Monte Carlo CFR)",
                     fontsize=10)
    else:
        ax.set_xlabel("value the restricted seat loses (+1 win, -1 loss)")
        ax.set_title("What each mechanic is worth (restricted play, exact)", fontsize=10)
    return fig


def _rules_words(settings: dict) -> str:
    """Who plays where a sampled audit's table has not learned."""
    if settings["fallback"] == "auto":
        return ("the sound default at every claim and response and where the table has "
                "not learned")
    return f"fallback {settings['fallback']} where the table has not learned"


def _base_figure(audit, target: str):
    """The audited variant's (value, lo, hi) of the band's metric, if the audit
    measured that metric (starter_edge); else None."""
    metric = target.split()[0]
    if metric not in audit.metrics:
        return None
    nan = float("nan")
    return (float(audit.metrics[metric]), float(audit.metrics.get(f"{metric}_lo", nan)),
            float(audit.metrics.get(f"{metric}_hi", nan)))


def write_audit(audit, out, band=None, generated: str | None = None) -> Path:
    """Write the page and tables into `out`; returns index.html. band: (target text,
    sweep.band.meeting's frame) when a band search ran; generated: when the audit was
    measured (default now; read_audit gives a rewritten page its original time)."""
    import jinja2
    from markupsafe import Markup

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    generated = generated or time.strftime("%Y-%m-%d %H:%M")
    metrics = pd.DataFrame({"value": audit.metrics}).rename_axis("metric")
    strength = audit.ladder.strength().to_frame()
    tables = {"seats": audit.seats, "metrics": metrics,
              "restricted_play": audit.restricted.set_index(["restriction", "seat"]),
              "skill_ladder": audit.ladder.matrix.rename_axis("player"),
              "strength": strength.rename_axis("player")}
    sampled = audit.method == "sampled"
    if audit.ladder.half_width is not None:
        tables["skill_ladder_half_width"] = audit.ladder.half_width.rename_axis("player")
    for name, frame in tables.items():
        frame.to_csv(out / f"{name}.csv")
    figs = {}
    for key, fig in (("restricted_play", _restricted_figure(audit.restricted, sampled)),
                     ("skill_ladder", _ladder_figure(audit.ladder))):
        if fig is not None:
            figs[key] = {"file": f"{key}.png", "data": save_png(fig, out / f"{key}.png")}
    shown = audit.restricted.drop(columns=["tree", "side"], errors="ignore").set_index(
        ["restriction", "seat"])
    notes = ({key: text.format(fair=audit.settings["fair_share"],
                               rules=_rules_words(audit.settings),
                               search=_search_note(audit.settings), **audit.settings)
              for key, text in SAMPLED_NOTES.items()}
             if sampled else NOTES)
    sections = [("Seats", notes["seats"], audit.seats, None, SEAT_KINDS),
                ("Metrics", "", metrics, None, METRIC_KINDS),
                ("What each mechanic is worth", notes["restricted"], shown,
                 figs.get("restricted_play"),
                 SAMPLED_RESTRICTED_KINDS if sampled else EXACT_RESTRICTED_KINDS),
                ("The skill ladder", notes["ladder"], audit.ladder.matrix.rename_axis(
                    "player"), figs.get("skill_ladder"),
                 dict.fromkeys(audit.ladder.matrix.columns, PROBABILITY)),
                ("Strength", "Mean win share against the other players.",
                 strength.rename_axis("player"), None, {"mean_win_share": PROBABILITY})]
    secs = ", ".join(f"{k.replace('_', ' ')} {v:.0f} s" for k, v in audit.seconds.items())
    runs = audit.settings.get("runs", 1)
    if runs > 1:
        secs += f" (the sum of {runs} runs: the first and {runs - 1} resumed)"
    if sampled:
        st = audit.settings
        rules = _rules_words(st)
        restricted = st.get("restricted_iterations", st["iterations"])
        each = ("" if restricted == st["iterations"] else
                f", {restricted:,} for each restricted game and the free one compared")
        sub = (f"by Monte Carlo CFR ({st['iterations']:,} traversals a seat{each}, seed "
               f"{st['seed']}, {rules}) and "
               f"seeded play ({st['rounds']:,} rounds a measure, {st['ladder_rounds']:,} "
               f"a seat in the ladder{_search_words(st)}) · {secs} · generated "
               f"{generated}")
    else:
        sub = (f"exact (DCFR to exploitability {audit.settings['target']:g} on the "
               f"position-symmetric tree of {audit.settings['symmetric_nodes']:,} nodes, "
               f"{audit.settings['full_target']:g} on the full tree of "
               f"{audit.settings['nodes']:,}) · {secs} · generated "
               f"{generated}")
    screen = first_screen(audit, None if band is None else band_sentence(
        *band, base=_base_figure(audit, band[0])))
    if band is not None:
        band[1].to_csv(out / "band.csv")
        sections.append((f"Into the band {band[0]}", "Every single rule change of the "
                         "variant, then every pair of the single changes nearest the "
                         "band (kind, and change: what each row changes), swept "
                         "(sweep.band) exactly where the variant's tree fits and by Monte "
                         "Carlo CFR otherwise (then the target's 95% interval beside it, "
                         "and interval_in_band: whether all of it lies in the band); "
                         "those in the band first, singles before pairs, "
                         "nearer the band's centre first; then the rest by distance to "
                         "the band. band.csv; each sweep in band/ (pairs in band/pairs/).",
                         band[1], None, None))
    context = {"variant": str(audit.variant), "sub": sub, "screen": screen}
    html = jinja2.Environment(autoescape=True).from_string(HTML).render(
        **context, sections=[(t, n, Markup(html_table(f, kinds)), g)
                                for t, n, f, g, kinds in sections])
    (out / "index.html").write_text(html, encoding="utf-8")
    md = jinja2.Environment(autoescape=False, keep_trailing_newline=True).from_string(
        MARKDOWN).render(**context, sections=[(t, n, markdown_table(f, kinds), g)
                                              for t, n, f, g, kinds in sections])
    (out / "report.md").write_text(re.sub(r"\n{3,}", "\n\n", md), encoding="utf-8")
    (out / "audit.json").write_text(json.dumps(
        {"variant": str(audit.variant), "first_screen": context["screen"],
         "metrics": audit.metrics, "seconds": audit.seconds,
         "settings": audit.settings, "method": audit.method, "generated": generated,
         "band_target": None if band is None else band[0]}, indent=2))
    return out / "index.html"


def read_audit(folder):
    """(audit, band, generated) from a page's folder as write_audit left it (its tables
    and audit.json), to write the page again without measuring anything, e.g. after
    its words or formats change (`robinwood audit VARIANT --rewrite`)."""
    from game_def.variant import parse

    from .audit import Audit, AuditError
    from .skill_ladder import SkillLadder

    folder = Path(folder)
    needed = ("audit.json", "seats.csv", "restricted_play.csv", "skill_ladder.csv")
    missing = [name for name in needed if not (folder / name).is_file()]
    if missing:
        raise AuditError(f"{folder} holds no audit page ({', '.join(missing)} missing): "
                         f"run `robinwood audit VARIANT --out {folder}` to measure one")
    info = json.loads((folder / "audit.json").read_text())
    settings = info["settings"]
    method = info.get("method", settings.get("method", "exact"))
    if method == "sampled":   # pages before restricted_iterations: the free budget
        settings.setdefault("restricted_iterations", settings["iterations"])
    variant = parse(info["variant"])
    matrix = pd.read_csv(folder / "skill_ladder.csv", index_col=0)
    matrix.columns.name = None
    half = folder / "skill_ladder_half_width.csv"
    ladder = SkillLadder(variant, matrix, settings.get("fair_share", 0.5),
                         pd.read_csv(half, index_col=0) if half.is_file() else None)
    audit = Audit(variant, pd.read_csv(folder / "seats.csv", index_col=0), info["metrics"],
                  pd.read_csv(folder / "restricted_play.csv"), ladder, info["seconds"],
                  settings, method=method)
    band = None
    if (folder / "band.csv").is_file():
        if not info.get("band_target"):
            raise AuditError(f"{folder}'s band search predates the record of its target: "
                             f"run the audit again with --target to write its page")
        band = (info["band_target"], pd.read_csv(folder / "band.csv", index_col=0))
    generated = info.get("generated")
    if generated is None:   # pages written before audit.json kept it: the page says it
        found = re.search(r"generated (\d{4}-\d\d-\d\d \d\d:\d\d)",
                          (folder / "report.md").read_text(encoding="utf-8"))
        generated = found.group(1) if found else None
    return audit, band, generated
