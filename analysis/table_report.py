"""`robinwood report` for a strategy of 3-4 players or teams: what each seat gets, who is
eliminated first, how long a round lasts and how often players bluff and challenge
(analysis.table_balance, exact), with the solve's convergence, as index.html, report.md,
PNG figures and tables/.

The two-player report (analysis.report) breaks every rate down by card, strikes and turn
against "the opponent"; at a table of three or four this page answers the balance
questions instead, with the same look.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from solver.evaluation.run_files import TABLE_PARTS, read_table_strength

from . import figures
from .pages import ReportError, html_table, markdown_table, read_convergence, save_png
from .table_balance import TableBalance, table_balance_from_run

_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ name }}: Robin Wood strategy report</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.45}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}
th:first-child,td:first-child{text-align:left}img{max-width:100%}</style></head><body>
<h1>Robin Wood strategy report: {{ name }}</h1>
<p>{{ variant }} · {{ algorithm }} · {{ players }} players{% if teams %} in two teams{% endif %} · generated {{ generated }}</p>
<p>{{ summary }}</p>
{% for title, table in tables %}<h2>{{ title }}</h2>{{ table }}{% endfor %}
{% for fig in figures %}<figure><img src="{{ fig.file }}" alt="{{ fig.caption }}"><figcaption>{{ fig.caption }}</figcaption></figure>{% endfor %}
<p>Tables as {{ table_format }} files in <code>tables/</code>. Method: {{ method }}.</p>
</body></html>
"""

_MARKDOWN = """# Robin Wood strategy report: {{ name }}

{{ variant }} · {{ algorithm }} · {{ players }} players{% if teams %} in two teams{% endif %} · generated {{ generated }}

{{ summary }}
{% for title, table in tables %}
## {{ title }}

{{ table }}
{% endfor %}
{% for fig in figures %}
![{{ fig.caption }}]({{ fig.file }})
{% endfor %}
Tables as {{ table_format }} files in `tables/`. Method: {{ method }}.
"""

TITLES = {"strength": "Against scripted players (robinwood exploit: the strategy in each "
                      "seat, copies of the player in the others; exact)",
          "held_out": "Against held-out players (never training opponents; by play, "
                      "95% intervals)",
          "fallback_rules": "Against copies of its own fallback rules (does the table add "
                            "to the rules it plays where it has not learned? By play, 95% "
                            "intervals)",
          "coverage": "Coverage: the share of the strategy's decisions in self-play on a "
                      "table entry with at least the run's fine_visits updates (learned), "
                      "fewer (thin) or none (unlearned); the fallback rules move at thin "
                      "and unlearned ones, and at turns and powers below 1,000 updates",
          "seats": "Seats (in turn order from the first player)",
          "rates": "Rates per round", "locks": "Locked decisions",
          "run": "This run"}


def summary_paragraph(balance: TableBalance, metadata: dict) -> str:
    """The balance in a few plain sentences."""
    v = balance.variant
    seats = balance.seats()
    first = seats.iloc[0]
    rates = balance.rates()
    nash_conv = metadata.get("nash_conv")
    quality = (f" CFR need not reach a Nash equilibrium beyond two players; this "
               f"strategy's NashConv (what all players together could gain by best "
               f"responses) is {nash_conv:.2g}." if nash_conv is not None else "")
    sides = ", ".join(f"{side} {p:.1%}" for side, p in zip(balance.sides, balance.side_wins))
    best = seats["value"].idxmax()
    worst = seats["value"].idxmin()
    how = ("measured exactly over every deal" if balance.value_half_width is None
           else f"measured by {balance.method}")
    text = (f"When every player follows this strategy ({v}, {how}), the rounds are won by: {sides}; {balance.totals['draws']:.1%} reach "
            f"the turn cap and are drawn. The player who starts (seat {v.first_player}) "
            f"has a value of {first['value']:+.3f} a round. Seat {best} does best "
            f"({seats.at[best, 'value']:+.3f}) and seat {worst} worst "
            f"({seats.at[worst, 'value']:+.3f}). Rounds last {rates['mean_turns']:.2f} "
            f"turns on average; in {1 - rates['nobody_eliminated']:.1%} of rounds "
            f"someone is eliminated, first most often seat "
            f"{seats['first_eliminated'].idxmax()}. "
            f"{rates['bluff_rate']:.1%} of announcements are bluffs and "
            f"{rates['challenge_rate']:.1%} are challenged.{quality}")
    return text


def round_length_figure(balance: TableBalance) -> Figure:
    length = balance.length
    cap = balance.variant.max_turns
    fig = Figure(figsize=(6.4, 3.6), layout="constrained")
    ax = fig.add_subplot()
    turns = np.arange(1, len(length))
    ax.bar(turns, length[1:], color=["#999999" if t == cap else "#4c72b0" for t in turns])
    ax.set_xlabel("turns played (grey: the turn cap, a draw)")
    ax.set_ylabel("P(round lasts this long)")
    return fig


def seats_figure(balance: TableBalance) -> Figure:
    seats = balance.seats()
    fig = Figure(figsize=(6.4, 3.6), layout="constrained")
    ax = fig.add_subplot()
    labels = [f"seat {s}\n(plays {p})" for s, p in zip(seats.index, seats["plays"])]
    ax.bar(labels, seats["value"], color="#4c72b0")
    ax.axhline(0, color="#333333", linewidth=0.8)
    ax.set_ylabel("value a round (+1 a win)")
    return fig


def compare_tables(a: TableBalance, b: TableBalance, names: tuple[str, str]
                   ) -> dict[str, pd.DataFrame]:
    """Two runs' seats and rates side by side, with the difference (second minus
    first)."""
    out = {}
    for key, first, second in (("compare_seats", a.seats(), b.seats()),
                               ("compare_rates", a.tables()["rates"],
                                b.tables()["rates"])):
        cols = [c for c in first.columns if c != "plays"]
        frame = pd.concat({names[0]: first[cols], names[1]: second[cols],
                           "delta": second[cols] - first[cols]}, axis=1)
        frame.columns = [f"{col} ({run})" for run, col in frame.columns]
        out[key] = frame
    return out


def write_table_report(run_dir, out_dir=None, parquet: bool = False,
                       compare_dir=None, rounds: int | None = None, seed: int = 0) -> Path:
    """Write the report of a 3-4 player or team run (and, with compare_dir, its seats
    and rates beside another run's of the same table size); returns index.html. A Monte
    Carlo CFR run's balance is sampled from `rounds` rounds of self-play (default 20,000)."""
    import jinja2
    from markupsafe import Markup

    from solver.store import read_metadata

    from .statistics import export_tables

    run_dir = Path(run_dir)
    metadata = read_metadata(run_dir)
    sampling = {"rounds": rounds or 20_000, "seed": seed}
    balance = table_balance_from_run(run_dir, **sampling)
    name = run_dir.resolve().name
    out = Path(out_dir) if out_dir is not None else Path("reports") / name
    out.mkdir(parents=True, exist_ok=True)
    fmt = "parquet" if parquet else "csv"
    tables = balance.tables()
    facts = {"run": str(run_dir), "variant": str(balance.variant),
             "iterations": metadata.get("iterations"),
             "nash_conv": metadata.get("nash_conv"),
             "seconds": metadata.get("seconds")}
    if metadata.get("kind") == "mccfr":   # the rules it plays where it has not learned
        from solver.players import default_fallback

        facts["fallback"] = str(default_fallback(balance.variant))
    tables["run"] = pd.DataFrame({"value": {k: str(v) for k, v in facts.items()}})
    tables["run"].index.name = "fact"
    if metadata.get("locks"):
        tables["locks"] = pd.DataFrame(metadata["locks"]).set_index("text")
    strength = read_table_strength(run_dir)
    if strength is not None:
        tables["strength"] = strength
    for part in TABLE_PARTS:
        frame = read_table_strength(run_dir, part)
        if frame is not None:
            tables[part] = frame
    if "coverage" in tables:
        tables["coverage"].index.name = "decision"

    convergence = read_convergence(run_dir)
    if convergence is not None:
        tables["convergence"] = convergence
    compared = ""
    titles = dict(TITLES)
    if metadata.get("kind") == "mccfr":
        titles["strength"] = TITLES["strength"].replace("exact", "by play, 95% intervals")
    if compare_dir is not None:
        other = table_balance_from_run(compare_dir, **sampling)
        v, w = balance.variant, other.variant
        if (v.players, v.teams) != (w.players, w.teams):
            raise ReportError(f"--compare needs the same table: {v} has {v.players} "
                              f"players{' in teams' if v.teams else ''}, {w} has "
                              f"{w.players}{' in teams' if w.teams else ''}")
        other_name = Path(compare_dir).resolve().name
        tables.update(compare_tables(balance, other, ("this run", "other")))
        titles["compare_seats"] = (f"Compared with {other_name} ({w}, \"other\"): "
                                   f"seats; delta = other minus this run")
        titles["compare_rates"] = (f"Compared with {other_name} ({w}, \"other\"): "
                                   f"rates; delta = other minus this run")
        first = v.first_player
        compared = (f" Compared with {other_name} ({w}): the starter's value goes from "
                    f"{balance.seat_values[first]:+.3f} to "
                    f"{other.seat_values[w.first_player]:+.3f}, the bluff rate from "
                    f"{balance.rates()['bluff_rate']:.1%} to "
                    f"{other.rates()['bluff_rate']:.1%} and the mean round length from "
                    f"{balance.rates()['mean_turns']:.2f} to "
                    f"{other.rates()['mean_turns']:.2f} turns.")
    export_tables(tables, out / "tables", fmt)
    images = []
    for key, fig, caption in (
            ("seat_values", seats_figure(balance), "Each seat's value a round"),
            ("round_length", round_length_figure(balance), "How long a round lasts"),
            ("convergence", figures.convergence_figure(convergence),
             "The training's progress (iterations, infosets, speed, memory)"
             if metadata.get("kind") == "mccfr" else
             "The solve's progress (exploitability: NashConv / players)")):
        if fig is not None:
            save_png(fig, out / f"{key}.png")
            images.append({"file": f"{key}.png", "caption": caption})
    shown = [t for t in ("seats", "rates", "compare_seats", "compare_rates", "strength",
                         "held_out", "fallback_rules", "coverage", "locks", "run")
             if t in tables]
    algorithm = metadata.get("algorithm") or {}
    context = {"name": name, "variant": str(balance.variant),
               "algorithm": algorithm.get("name") if isinstance(algorithm, dict)
               else algorithm,
               "players": balance.variant.players, "teams": balance.variant.teams,
               "generated": time.strftime("%Y-%m-%d %H:%M"),
               "summary": summary_paragraph(balance, metadata) + compared,
               "figures": images,
               "table_format": fmt.upper(), "method": balance.method}
    html = jinja2.Environment(autoescape=True).from_string(_HTML).render(
        **context, tables=[(titles[t], Markup(html_table(tables[t]))) for t in shown])
    (out / "index.html").write_text(html, encoding="utf-8")
    md = jinja2.Environment(autoescape=False, keep_trailing_newline=True).from_string(
        _MARKDOWN).render(**context,
                          tables=[(titles[t], markdown_table(tables[t])) for t in shown])
    (out / "report.md").write_text(re.sub(r"\n{3,}", "\n\n", md), encoding="utf-8")
    return out / "index.html"
