"""A Robin des Bois audit as files: reports/<name>/index.html and report.md (the first
screen, then each section's table and figure), one CSV per table and the PNG figures,
in the look of `robinwood audit` (analysis/audit_page.py).

`run_audit` measures the sections (robin_des_bois.audit, audit_band) and writes them;
with resume=True a section whose CSV is in the folder with the same settings
(sections.json) is read back instead of played again.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pandas as pd

from . import audit as AU
from . import balance as B
from .audit_words import band_sentence, first_screen
from .rules import Rules
from .tables import html_table, markdown_table

HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Audit: {{ variant }}</title>
<style>body{font-family:system-ui,sans-serif;max-width:72em;margin:2em auto;padding:0 1em;line-height:1.45}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}img{max-width:100%}.summary{font-size:1.05em}.sub{color:#555}</style></head><body>
<h1>Audit: {{ variant }}</h1>
<p class="sub">{{ sub }}</p>
{% for s in screen %}<p class="summary">{{ s }}</p>{% endfor %}
{% for title, note, table, fig in sections %}<h2>{{ title }}</h2><p>{{ note }}</p>
{% if fig %}<figure><img alt="{{ title }}" src="{{ fig }}"><figcaption><a href="{{ fig }}">{{ fig }}</a></figcaption></figure>{% endif %}
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
![{{ title }}]({{ fig }})
{% endif %}
{{ table }}
{% endfor %}"""

NOTES = {
    "seats": "{player} in every seat, {games} games stepped on the fast core. A seat's "
             "win share in a game is 1 when its score is best alone, 1/k when k seats "
             "tie for best (all tied: 1/N each), else 0; against the fair share 1/N, "
             "95% Wilson intervals over the games (audit.share_interval). seats.csv.",
    "metrics": "Ludii's names where they mean the same; the best-of-3 interval is a "
               "bootstrap over the games (200 draws), starter_edge seat 0's Wilson interval, "
               "the others normal over the games. "
               "seat_metrics.csv.",
    "ladder": "Round robin: the row player in one seat against copies of the column "
              "player in the others, each seat in turn ({search} games a seat in cells "
              "with the search, {scripted} in the others); the row player's win share "
              "against the fair share 1/N, 95% Wilson intervals over the games. The diagonal "
              "is measured like any cell and must hold 1/N within its interval. "
              "skill_ladder.csv (tidy, with intervals); strength.csv.",
    "restricted": "Each restriction forbids one seat a kind of action wherever another "
                  "legal action exists (robin_des_bois/restrict.py), the restricted "
                  "{player} against free copies, each seat in turn ({games} games a "
                  "seat). share lost: the fair share 1/N (the free game's share, exact "
                  "by symmetry) minus the restricted seat's win share, 95% Wilson interval. "
                  "restricted_play.csv.",
    "band": "Every single change of the box parameters the rules accept, then pairs of "
            "the {pairs} best (audit_band), {games} games each with {player} in every "
            "seat; a variant meets the band when its measured value lies in it (lo, hi: "
            "its 95% interval). band.csv.",
}


# ----- figures ------------------------------------------------------------------------------
def seats_figure(seats: pd.DataFrame):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 1.2 + 0.45 * len(seats)), layout="constrained")
    ax = fig.add_subplot()
    y = list(range(len(seats)))[::-1]
    v = seats["win_share_minus_fair"]
    ax.barh(y, v, color="#4c72b0", capsize=3,
            xerr=[v - seats["minus_fair_lo"], seats["minus_fair_hi"] - v])
    ax.set_yticks(y, [f"seat {s}" for s in seats["seat"]])
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_xlabel("win share minus the fair share 1/N (95% interval)")
    return fig


def ladder_figure(ladder: pd.DataFrame):
    from matplotlib.figure import Figure

    m = ladder_matrix(ladder)
    fair = float(ladder["fair_share"].iloc[0])
    fig = Figure(figsize=(1.8 + 0.7 * len(m), 1.4 + 0.55 * len(m)), layout="constrained")
    ax = fig.add_subplot()
    im = ax.imshow(m.to_numpy(float) - fair, cmap="RdBu", vmin=-fair, vmax=fair)
    ax.set_xticks(range(len(m)), m.columns, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(m)), m.index, fontsize=8)
    for i in range(len(m)):
        for j in range(len(m)):
            ax.text(j, i, f"{100 * m.iat[i, j]:.0f}", ha="center", va="center", fontsize=7)
    fig.colorbar(im, ax=ax, label="row's win share minus 1/N")
    ax.set_title("Row player's win share (%) against copies of the column player",
                 fontsize=9)
    return fig


def restricted_figure(restricted: pd.DataFrame):
    from matplotlib.figure import Figure

    r = restricted
    fig = Figure(figsize=(7.0, 1.0 + 0.4 * len(r)), layout="constrained")
    ax = fig.add_subplot()
    y = list(range(len(r)))[::-1]
    ax.barh(y, r["share_lost"], color="#c44e52", capsize=3,
            xerr=[r["share_lost"] - r["lost_lo"], r["lost_hi"] - r["share_lost"]])
    ax.set_yticks(y, r["restriction"], fontsize=8)
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_xlabel("win share the restricted seat loses (95% interval)")
    return fig


def ladder_matrix(ladder: pd.DataFrame) -> pd.DataFrame:
    """The row player's win share against the column player, as a square table."""
    order = list(dict.fromkeys(ladder["row"]))
    return ladder.pivot(index="row", columns="column", values="win_share").loc[
        order, order]


# ----- measuring, with resume ---------------------------------------------------------------
def _section(out: Path, name: str, key: dict, resume: bool, measure, say):
    """The section's tables ({file stem: frame}): read back when resuming with the same
    settings, else measured and written at once (so a later run can resume)."""
    index_file = out / "sections.json"
    index = json.loads(index_file.read_text()) if index_file.exists() else {}
    stems = index.get(name, {}).get("files", [])
    if resume and index.get(name, {}).get("key") == key and stems and all(
            (out / f"{s}.csv").exists() for s in stems):
        say(f"{name}: reusing {', '.join(f'{s}.csv' for s in stems)}")
        return {s: pd.read_csv(out / f"{s}.csv") for s in stems}, index[name]["seconds"]
    start = time.perf_counter()
    tables = measure()
    seconds = time.perf_counter() - start
    for stem, frame in tables.items():
        frame.to_csv(out / f"{stem}.csv", index=False)
    index[name] = {"key": key, "files": list(tables), "seconds": seconds}
    index_file.write_text(json.dumps(index, indent=2))
    return tables, seconds


def run_audit(rules: Rules, out, games: int = AU.DEFAULT_GAMES, seed: int = 0,
              workers: int = 2, target=None, band_games: int = 20, resume: bool = False,
              players=AU.LADDER, player: str = B.STRONGEST, say=None) -> Path:
    """Measure every section and write the page into `out`; returns index.html.
    target: an audit_band.Target, or None for no band search; player: the one in every
    seat of the seats, restricted-play and band sections (default the strongest);
    players: the skill ladder's."""
    from . import audit_band

    say = say or (lambda line: None)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    sizes = AU.plan(games)
    base = {"variant": str(rules), "seed": seed, "player": player}
    tables, seconds = {}, {}

    def seats():
        s, m, _ = AU.seats_section(rules, sizes["seats"], seed, workers, say, player)
        return {"seats": s, "seat_metrics": m}

    def ladder():
        return {"skill_ladder": AU.ladder_section(rules, players, sizes, seed, workers,
                                                  say)}

    def restricted():
        return {"restricted_play": AU.restricted_section(
            rules, sizes["restricted"], seed, workers, say, player)}

    for name, measure, key in (
            ("seats", seats, {"games": sizes["seats"]}),
            ("skill_ladder", ladder, {"search": sizes["ladder_search"],
                                      "scripted": sizes["ladder_scripted"],
                                      "players": list(players)}),
            ("restricted_play", restricted, {"games": sizes["restricted"]})):
        say(f"section {name}")
        got, seconds[name] = _section(out, name, {**base, **key}, resume, measure, say)
        tables.update(got)
    band = None
    if target is not None:
        say(f"section band: {target}")
        got, seconds["band"] = _section(
            out, "band", {**base, "target": str(target), "games": band_games}, resume,
            lambda: {"band": audit_band.band_search(rules, target, band_games, seed,
                                                    player, workers, say)}, say)
        band = got["band"]
    settings = {"variant": str(rules), "seed": seed, "player": player, "sizes": sizes,
                "band_games": band_games if target is not None else None,
                "workers": workers, "ladder": list(players)}
    return write_page(out, tables, settings, seconds, target, band)


def write_page(out: Path, tables: dict, settings: dict, seconds: dict, target=None,
               band: pd.DataFrame | None = None) -> Path:
    """index.html, report.md, audit.json, strength.csv and the figures from the
    sections' tables."""
    import jinja2
    from markupsafe import Markup

    sizes, player = settings["sizes"], settings["player"]
    ladder = tables["skill_ladder"]
    strength = AU.skill_pays(ladder)["strength"].rename("mean_win_share").reset_index()
    strength = strength.rename(columns={"row": "player"})
    strength.to_csv(out / "strength.csv", index=False)
    figures = {"seats": seats_figure(tables["seats"]), "skill_ladder": ladder_figure(ladder),
               "restricted_play": restricted_figure(tables["restricted_play"])}
    for name, fig in figures.items():
        fig.savefig(out / f"{name}.png", dpi=110)
    matrix = ladder_matrix(ladder).rename_axis(None, axis=1).reset_index().rename(
        columns={"row": "player"})
    sections = [
        ("Seats", NOTES["seats"].format(player=player, games=sizes["seats"]),
         tables["seats"], "seats.png"),
        ("Seat metrics", NOTES["metrics"], tables["seat_metrics"], None),
        ("The skill ladder", NOTES["ladder"].format(search=sizes["ladder_search"],
                                                    scripted=sizes["ladder_scripted"]),
         matrix, "skill_ladder.png"),
        ("Strength", "Mean win share against copies of the other players.", strength, None),
        ("What each mechanic is worth", NOTES["restricted"].format(
            player=player, games=sizes["restricted"]),
         tables["restricted_play"].drop(columns=["player"]), "restricted_play.png"),
    ]
    band_text = None
    if band is not None:
        band_text = band_sentence(target, band)
        sections.append((f"Into the band {target}", NOTES["band"].format(
            pairs=3, games=settings["band_games"], player=player), band, None))
    screen = first_screen(tables, player, band_text)
    secs = ", ".join(f"{k.replace('_', ' ')} {v:.0f} s" for k, v in seconds.items())
    sub = (f"{player} in every seat unless a section says otherwise, games stepped on "
           f"the fast core, seed {settings['seed']}, {settings['workers']} worker "
           f"processes · {secs} · generated {time.strftime('%Y-%m-%d %H:%M')}")
    context = {"variant": settings["variant"], "sub": sub, "screen": screen}
    html = jinja2.Environment(autoescape=True).from_string(HTML).render(
        **context, sections=[(t, n, Markup(html_table(f)), g) for t, n, f, g in sections])
    (out / "index.html").write_text(html, encoding="utf-8")
    md = jinja2.Environment(autoescape=False, keep_trailing_newline=True).from_string(
        MARKDOWN).render(**context, sections=[(t, n, markdown_table(f), g)
                                              for t, n, f, g in sections])
    (out / "report.md").write_text(re.sub(r"\n{3,}", "\n\n", md), encoding="utf-8")
    (out / "audit.json").write_text(json.dumps(
        {**settings, "first_screen": screen, "seconds": seconds}, indent=2))
    return out / "index.html"
