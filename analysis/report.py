"""`robinwood report`: a run directory's strategy as an HTML page, a Markdown page, PNG
figures and CSV (or Parquet) tables, readable offline.

Works from the run directory alone: metadata.json, convergence.csv and the strategy.
Exact runs are analysed exactly (analysis.exact); MCCFR runs by sampled self-play
(analysis.sampled). index.html embeds its figures (base64), so the one file can be
moved or mailed and still show everything; the same PNGs sit beside it for report.md.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import re
import time
from pathlib import Path

import numpy as np
import pandas as pd

from game_def.characters import NAMES
from game_def.errors import RobinWoodError
from game_def.errors import RobinWoodError

from . import figures
from .compare import compare as compare_profiles
from .statistics import ProfileStatistics, export_tables
from .summary import comparison_paragraph, summary_paragraph

DEFAULT_SAMPLED_ROUNDS = 100_000


class ReportError(RobinWoodError):
    """A run directory that cannot be reported on (one line: what is wrong, what to do)."""


@dataclasses.dataclass
class Run:
    """What a report needs from a run directory."""

    path: Path
    name: str
    metadata: dict
    convergence: pd.DataFrame | None
    stats: ProfileStatistics


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


def load_run(run_dir, rounds: int | None = None, seed: int = 0) -> Run:
    """Metadata, convergence curve and statistics of the strategy in run_dir: exact for
    the exact solvers, sampled self-play (`rounds` rounds) for MCCFR runs."""
    from solver.store import read_metadata

    path = Path(run_dir)
    if not path.is_dir():
        raise ReportError(f"{run_dir} is not a run directory (make one with "
                          f"`robinwood solve ... --out {run_dir}`)")
    metadata = read_metadata(path)
    algorithm = metadata.get("algorithm") or {}
    name = algorithm.get("name") if isinstance(algorithm, dict) else algorithm
    if name == "mccfr":
        try:
            from .sampled import profile_statistics_sampled
        except ImportError:
            raise ReportError(f"{run_dir} holds an MCCFR strategy, and this robinwood has "
                              f"no sampled analysis (analysis.sampled) to report on it"
                              ) from None
        stats = profile_statistics_sampled(path, rounds=rounds or DEFAULT_SAMPLED_ROUNDS,
                                           seed=seed)
    else:
        from .exact import profile_statistics_from_run

        stats = profile_statistics_from_run(path)
    return Run(path, path.resolve().name, metadata, read_convergence(path), stats)


# ----- formatting ---------------------------------------------------------------------
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


def display_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Strings for reading: probabilities as percentages, other numbers to 4 decimals.
    Comparison tables (a `metric` index level) are formatted row by row, deltas of
    probabilities in percentage points."""
    out = frame.astype(object).copy()
    if "metric" in (frame.index.names or []):
        metrics = frame.index.get_level_values("metric")
        for i, metric in enumerate(metrics):
            prob = is_probability(metric)
            for j, column in enumerate(frame.columns):
                out.iat[i, j] = format_number(frame.iat[i, j], prob, column == "delta")
        return out
    for column in frame.columns:
        prob = is_probability(column)
        out[column] = [format_number(x, prob) for x in frame[column]]
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


def _for_reading(frame: pd.DataFrame) -> pd.DataFrame:
    """display_frame with the index as leading columns and headers (and the metric
    names of comparison tables) in words."""
    shown = display_frame(frame)
    if any(name is not None for name in shown.index.names):
        shown = shown.reset_index()
    if "metric" in shown.columns:
        shown["metric"] = shown["metric"].map(in_words)
    return shown.rename(columns=in_words)


def markdown_table(frame: pd.DataFrame) -> str:
    shown = _for_reading(frame)
    header = [str(c) for c in shown.columns]
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    for row in shown.itertuples(index=False):
        lines.append("| " + " | ".join(str(x) for x in row) + " |")
    return "\n".join(lines)


def html_table(frame: pd.DataFrame) -> str:
    """One header row: named index levels become ordinary leading columns, and a bare
    row number (one-row tables) is dropped."""
    shown = _for_reading(frame)
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


# ----- column glossary (every column of every table) -------------------------------------
GLOSSARY = {
    "reach / *_per_round": "expected number of times per round (an event can happen "
                           "more than once in a round)",
    "silent, Robin, Sheriff, ...": "announcement matrix: P(the peeker says nothing / "
                                   "announces this character | the peeked card)",
    "truth_rate, silent_rate, bluff_rate (peeks)": "after peeking a card: P(announce the "
                                                   "card itself), P(say nothing), "
                                                   "P(announce another character)",
    "bluff_rate (announced)": "P(the card is not the announced character | announced)",
    "challenge_rate": "P(the opponent challenges | announced)",
    "challenge_right_rate": "P(the claim was a bluff | challenged): the challenger wins "
                            "the challenge",
    "pass_on_bluff_rate": "P(the opponent lets a bluff pass | a bluff is announced)",
    "announcer_strikes, opponent_strikes, challenger_strikes": "strikes held at the "
                                                               "moment of the decision",
    "turns": "turn number within the round, from 1 (Companion extra turns count)",
    "runs_after_announcement_per_round": "powers run after an announcement that was not "
                                         "challenged, or challenged and true",
    "face_up_uses_per_round": "`use` of a face-up card (a Peasant/Trickster use is a pass)",
    "success_rate (unmasking)": "P(the unmasking wins the round | Robin's/the Sheriff's "
                                "power runs)",
    "reveal_hit_rate": "P(a single reveal turns up a card of the camp being unmasked)",
    "seat0_value": "expected payoff of seat 0 per round (+1 win, -1 loss, 0 draw)",
    "turn_cap_rate": "P(the round reaches the turn cap): a draw",
    "ended_by_unmask, ended_by_elimination": "how decided rounds end",
    "starter_match_win": "P(the player who starts a best-of-3 match wins it), the loser "
                         "of each round starting the next, a draw starting with the "
                         "other player",
    "*_lo, *_hi": "95% interval (sampled statistics only; approximate for rates); "
                  "shown as [low, high] after the estimate",
    "delta (comparison)": "second profile minus first; pp = percentage points",
    "exploitability": "how much a best-responding opponent would win per round against "
                      "the strategy, averaged over the two seats (0 at an equilibrium)",
    "infosets (information sets)": "the situations a player can tell apart: everything "
                                   "the player has seen so far in the round; a strategy "
                                   "gives one probability per action in each (in a Monte "
                                   "Carlo CFR run: each table entry of the abstraction)",
    "iterations (traversals)": "rounds of updates of the solver: exact solvers update "
                               "every infoset once an iteration; Monte Carlo CFR samples "
                               "one round per traversal and seat",
    "gain (strength)": "an opponent's seat-averaged payoff per round against the "
                       "strategy (the strategy's own seat-averaged self-play payoff is 0): "
                       "in expectation a lower bound on exploitability; gain_lo, gain_hi "
                       "its 95% interval",
    "held-out (strength)": "the strongest opponent on the rounds that chose it, played "
                           "again on fresh rounds: its gain there is the stated bound, "
                           "since the largest of many noisy gains overstates",
    "learned, thin, unlearned (coverage)": "share of decisions whose table entry had at "
                                           "least the run's fine_visits updates, fewer, "
                                           "or no entry (played by the fallback "
                                           "player's rules, or uniformly without one)",
}

TABLE_TITLES = {
    "outcomes": "Round outcomes (seat 0 starts)",
    "match": "Best-of-3 match for the player who starts",
    "round_length": "Round length",
    "announcement_matrix": "Announcement matrix: P(action | peeked card), both seats",
    "announcement_matrix_seat0": "Announcement matrix, seat 0",
    "announcement_matrix_seat1": "Announcement matrix, seat 1",
    "peek_summary": "After a peek: truth, silence, bluff",
    "forced_lies": "Forced lies: what a peeked Trickster is announced as",
    "bluff_rates": "Bluff rate per announced character",
    "bluff_rates_by_strikes": "Bluff rate by strikes (announcer, opponent)",
    "bluff_rates_by_turn": "Bluff rate by turn",
    "challenge_rates": "Challenge rate per announced character",
    "challenge_rates_by_strikes": "Challenge rate by strikes (challenger, announcer)",
    "challenge_rates_by_turn": "Challenge rate by turn",
    "power_use": "Powers: announced, run, used face up",
    "unmasking": "Unmasking (Robin, Sheriff)",
    "traitor": "Traitor strikes",
    "witch_choices": "Witch: keep or swap",
    "run": "This run",
    "locks": "Locked decisions (played as fixed; the rest solved)",
    "convergence": "Convergence measurements",
    "evaluation": "Evaluation (from the run's metadata)",
    "strength": "Opponents' gains against this strategy (robinwood exploit), on the "
                "selection sample",
    "bound": "The stated lower bound on exploitability and how it was reached",
    "quality": "Strength over training: the lower bound on exploitability of each saved "
               "strategy (robinwood exploit on the run and its snapshots)",
    "coverage": "Coverage: self-play decisions on trained table entries",
    "search": "With play-time search: its seat-averaged payoff against each opponent, "
              "beside the strategy without search (robinwood search), worst first",
}
MAIN_TABLES = ("outcomes", "match", "peek_summary", "forced_lies", "bluff_rates",
               "challenge_rates", "power_use", "unmasking", "traitor")
FIGURES = {
    "bluff_heatmap": "Announcement matrix (bluff heatmap)",
    "challenge_rates": "Bluff and challenge rates per announced character",
    "round_length": "Round length",
    "convergence": "Solver convergence",
    "quality": "Strength over training (lower bound on exploitability)",
    "comparison": "Side by side",
}


def _run_facts(run: Run) -> pd.DataFrame:
    m = run.metadata
    algo = m.get("algorithm")
    if isinstance(algo, dict):
        params = ", ".join(f"{k}={v}" for k, v in algo.items() if k != "name")
        algo = f"{algo.get('name')} ({params})" if params else algo.get("name")
    rows = {"run": str(run.path), "variant": m.get("variant"), "algorithm": algo,
            "iterations": m.get("iterations"), "exploitability": m.get("exploitability"),
            "solve seconds": m.get("seconds"),
            "statistics": ("exact (every deal, reach-weighted)" if run.stats.exact else
                           f"sampled self-play, {run.stats.rounds_sampled:,} rounds")}
    tree = m.get("tree")
    if isinstance(tree, dict):
        rows["tree"] = ", ".join(f"{v:,} {k}" if isinstance(v, int) else f"{v} {k}"
                                 for k, v in tree.items())
    rows = {k: v for k, v in rows.items() if v is not None}
    frame = pd.Series(rows, name="value").to_frame()
    frame.index.name = "fact"
    return frame.map(lambda x: f"{x:.3g}" if isinstance(x, float) else x)


# ----- templates -----------------------------------------------------------------------
# The page style, shared with the sweep report (sweep.report).
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

HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Robin Wood report: {{ name }}</title>
<style>
""" + PAGE_STYLE + """</style></head><body>
<h1>Robin Wood strategy report: {{ name }}</h1>
<p class="sub">{{ variant }} &middot; {{ algorithm }} &middot; generated {{ generated }}</p>
<p class="summary">{{ summary | code }}</p>
{% if comparison %}<h2>Compared with {{ other }}</h2>
<p class="summary">{{ compare_summary | code }}</p>
<p><b>{{ other }}</b>: {{ other_summary | code }}</p>
{% if comparison_figure %}<figure><img alt="{{ comparison_figure.caption }}" src="data:image/png;base64,{{ comparison_figure.data }}">
<figcaption>{{ comparison_figure.caption }}: {{ name }} and {{ other }}</figcaption></figure>{% endif %}
<p>Each table: the value for {{ name }}, for {{ other }}, and the difference (second minus first).</p>
{% for title, table in comparison %}<h3>{{ title }}</h3>{{ table }}{% endfor %}{% endif %}
{% for section in sections %}<h2>{{ section.title }}</h2>
{% for fig in section.figures %}<figure><img alt="{{ fig.caption }}" src="data:image/png;base64,{{ fig.data }}">
<figcaption>{{ fig.caption }} (<a href="{{ fig.file }}">{{ fig.file }}</a>)</figcaption></figure>{% endfor %}
{% for title, table in section.tables %}<h3>{{ title }}</h3>{{ table }}{% endfor %}
{% for title, table in section.details %}<details><summary>{{ title }}</summary>{{ table }}</details>{% endfor %}
{% endfor %}
<h2>What the columns mean</h2><dl>
{% for term, meaning in glossary %}<dt>{{ term }}</dt><dd>{{ meaning | code }}</dd>{% endfor %}</dl>
<p>Every table is also in <code>tables/</code> as {{ table_format }}.</p>
</body></html>
"""

MARKDOWN = """# Robin Wood strategy report: {{ name }}

{{ variant }} · {{ algorithm }} · generated {{ generated }}

{{ summary }}
{% if comparison %}
## Compared with {{ other }}

{{ compare_summary }}

**{{ other }}**: {{ other_summary }}
{% if comparison_figure %}
![{{ comparison_figure.caption }}]({{ comparison_figure.file }})
{% endif %}
Each table: the value for {{ name }}, for {{ other }}, and the difference (second minus first).
{% for title, table in comparison %}
### {{ title }}

{{ table }}
{% endfor %}{% endif %}
{% for section in sections %}
## {{ section.title }}
{% for fig in section.figures %}
![{{ fig.caption }}]({{ fig.file }})
{% endfor %}{% for title, table in section.tables %}
### {{ title }}

{{ table }}
{% endfor %}{% if section.details %}
More in `tables/`: {% for title, file in section.detail_files %}[{{ title }}]({{ file }}){% if not loop.last %}, {% endif %}{% endfor %}.
{% endif %}{% endfor %}
## What the columns mean
{% for term, meaning in glossary %}
- **{{ term }}**: {{ meaning }}{% endfor %}
"""


def code_spans(text) -> "Markup":
    """Markdown's `code` as HTML <code>, the rest escaped."""
    from markupsafe import Markup, escape

    parts = str(text).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: leave the text as it is
        return escape(text)
    return Markup("").join(escape(part) if i % 2 == 0 else Markup("<code>%s</code>") % part
                           for i, part in enumerate(parts))


def comparison_caveats(a: "Run", b: "Run") -> str:
    """What a reader must know before reading two runs' differences: one analysed
    exactly and one by sampling (with Monte Carlo CFR's approximation), or two decks."""
    notes = []
    if a.stats.exact != b.stats.exact:
        exact, sampled = (a, b) if a.stats.exact else (b, a)
        notes.append(
            f"This compares an exact result with a sampled one: {exact.name} is analysed "
            f"exactly (every deal, reach-weighted), {sampled.name} from "
            f"{sampled.stats.rounds_sampled:,} sampled self-play rounds"
            + (" of a Monte Carlo CFR approximation" if sampled.metadata.get("kind")
               == "mccfr" else "")
            + "; a difference within the sampled side's 95% interval, or within what its "
              "approximation may be off by, is not a difference between the games.")
    elif not a.stats.exact:
        notes.append("Both runs are sampled: differences within their 95% intervals are "
                     "noise.")
    if a.stats.variant.counts != b.stats.variant.counts:
        only = lambda x, y: [c.label for c in x.stats.variant.in_deck  # noqa: E731
                             if c not in y.stats.variant.in_deck]
        missing = [f"{', '.join(only(x, y))} only in {x.name}"
                   for x, y in ((a, b), (b, a)) if only(x, y)]
        notes.append(f"The two runs play different decks ({a.stats.variant.deck} and "
                     f"{b.stats.variant.deck}"
                     + (f": {'; '.join(missing)}" if missing else "")
                     + "); a character one deck lacks shows as – (n/a) on that side.")
    return " ".join(notes)


def save_png(fig, path: Path) -> str:
    """Save a figure as a PNG at `path`; return it base64-encoded, to inline in HTML."""
    fig.savefig(path, dpi=110)
    return base64.b64encode(path.read_bytes()).decode("ascii")


def write_report(run_dir, out_dir=None, compare_dir=None, parquet: bool = False,
                 rounds: int | None = None, seed: int = 0) -> Path:
    """Write index.html, report.md, the figures (PNG) and tables/ for the run in
    run_dir (and a side-by-side comparison with compare_dir); returns index.html."""
    import jinja2
    from markupsafe import Markup

    if players_of_run(run_dir) > 2:  # 3-4 players, teams: the balance page
        if compare_dir is not None:
            raise ReportError("--compare sets two-player runs side by side; for 3-4 "
                              "players, write each report and read their seats tables")
        raise ReportError(f"{run_dir} holds a strategy of 3-4 players or teams: its "
                          f"report is analysis.table_report.write_table_report (`robinwood "
                          f"report` picks it)")
    run = load_run(run_dir, rounds, seed)
    other = load_run(compare_dir, rounds, seed) if compare_dir is not None else None
    out = Path(out_dir) if out_dir is not None else Path("reports") / run.name
    out.mkdir(parents=True, exist_ok=True)
    fmt = "parquet" if parquet else "csv"
    stats = run.stats
    tables = stats.tables()
    if run.convergence is not None:
        tables["convergence"] = run.convergence
    evaluation = run.metadata.get("evaluation")
    if isinstance(evaluation, dict) and evaluation:
        tables["evaluation"] = dict_table(evaluation)
    tables["run"] = _run_facts(run)
    locks = locks_table(run.metadata)
    if locks is not None:
        tables["locks"] = locks
    strength = read_strength(run.path) if run.metadata.get("kind") == "mccfr" else None
    if strength is not None:
        tables["strength"], tables["coverage"] = strength_tables(strength)
        tables["bound"] = bound_table(strength)
    searched = read_search(run.path) if run.metadata.get("kind") == "mccfr" else None
    if searched is not None:
        tables["search"] = search_table(searched)
    if run.metadata.get("kind") == "mccfr":
        quality = quality_over_training(run.path)
        if quality is not None:
            tables["quality"] = quality
    comparison = None
    if other is not None:
        comparison = compare_profiles(stats, other.stats, (run.name, other.name))
        tables.update({f"compare_{k}": v for k, v in comparison.items()})
    export_tables(tables, out / "tables", fmt)

    figs = {"bluff_heatmap": figures.bluff_heatmap(stats),
            "challenge_rates": figures.challenge_bars(stats),
            "round_length": figures.round_length_histogram(stats),
            "convergence": figures.convergence_figure(run.convergence)}
    if "quality" in tables and len(tables["quality"]) >= 2:
        figs["quality"] = figures.quality_figure(tables["quality"])
    if comparison is not None:
        figs["comparison"] = figures.comparison_bars(comparison)
    images = {}
    for key, fig in figs.items():
        if fig is not None:
            images[key] = {"file": f"{key}.png", "caption": FIGURES[key],
                           "data": save_png(fig, out / f"{key}.png")}

    def section(title, fig_keys, main, details, table_fn):
        present = [t for t in main if t in tables and len(tables[t])]
        extra = [t for t in details if t in tables and len(tables[t])]
        return {"title": title, "figures": [images[f] for f in fig_keys if f in images],
                "tables": [(TABLE_TITLES.get(t, t), table_fn(tables[t])) for t in present],
                "details": [(TABLE_TITLES.get(t, t), table_fn(tables[t])) for t in extra],
                "detail_files": [(TABLE_TITLES.get(t, t), f"tables/{t}.{fmt}")
                                 for t in extra]}

    def sections(table_fn):
        return [
            section("Balance", ["round_length"], ["outcomes", "match"], ["round_length"],
                    table_fn),
            section("Announcements and bluffs", ["bluff_heatmap"],
                    ["peek_summary", "forced_lies", "bluff_rates"],
                    ["announcement_matrix", "announcement_matrix_seat0",
                     "announcement_matrix_seat1", "bluff_rates_by_strikes",
                     "bluff_rates_by_turn"], table_fn),
            section("Challenges", ["challenge_rates"], ["challenge_rates"],
                    ["challenge_rates_by_strikes", "challenge_rates_by_turn"], table_fn),
            section("Powers", [], ["power_use", "unmasking", "traitor"], ["witch_choices"],
                    table_fn),
            section("The solve", ["quality", "convergence"],
                    ["locks", "quality", "run", "evaluation"],
                    ["convergence"], table_fn),
        ] + ([section("Strength: who beats it", [],
                      ["bound", "strength", "coverage", "search"], [],
                      table_fn)] if strength is not None or searched is not None else [])

    algo = run.metadata.get("algorithm")
    context = {
        "name": run.name, "variant": str(stats.variant),
        "algorithm": algo.get("name") if isinstance(algo, dict) else algo,
        "generated": time.strftime("%Y-%m-%d %H:%M"),
        "summary": (_locks_note(run.metadata) + _caveat(run.metadata, strength)
                    + _quality_note(tables.get("quality"))
                    + _search_note(searched) + summary_paragraph(stats)),
        "glossary": [(k if "*" in k else in_words(k), v) for k, v in GLOSSARY.items()], "table_format": fmt.upper(),
        "other": other.name if other else None,
        "compare_summary": (" ".join(filter(None, (
            comparison_caveats(run, other),
            comparison_paragraph(comparison, (run.name, other.name))))) if other else None),
        "other_summary": summary_paragraph(other.stats) if other else None,
        "comparison_figure": images.get("comparison"),
    }
    env = jinja2.Environment(autoescape=True, trim_blocks=False)
    env.filters["code"] = code_spans
    html_comparison = md_comparison = None
    if comparison is not None:
        html_comparison = [(k.replace("_", " ").capitalize(), Markup(html_table(v)))
                           for k, v in comparison.items()]
        md_comparison = [(k.replace("_", " ").capitalize(), markdown_table(v))
                         for k, v in comparison.items()]
    html = env.from_string(HTML).render(
        **context, comparison=html_comparison,
        sections=sections(lambda f: Markup(html_table(f))))
    (out / "index.html").write_text(html, encoding="utf-8")
    md_env = jinja2.Environment(autoescape=False, keep_trailing_newline=True)
    md = md_env.from_string(MARKDOWN).render(**context, comparison=md_comparison,
                                             sections=sections(markdown_table))
    (out / "report.md").write_text(re.sub(r"\n{3,}", "\n\n", md), encoding="utf-8")
    return out / "index.html"


def locks_table(metadata: dict) -> pd.DataFrame | None:
    """The run's locks (solver.locks), one row each, or None for a run without. Exact
    runs count the information sets each lock selected and fixed; Monte Carlo CFR runs
    cannot enumerate theirs and list the locks alone."""
    locks = metadata.get("locks")
    trained = (metadata.get("algorithm") or {}).get("locks")
    if not locks and trained:
        return pd.DataFrame({"lock": trained, "played": "as locked, in training and in "
                                                        "play"}).set_index("lock")
    if not locks:
        return None
    frame = pd.DataFrame(locks).rename(columns={"text": "lock"}).set_index("lock")
    return frame[["selected", "fixed", "not_applicable"]]


def _locks_note(metadata: dict) -> str:
    """A sentence saying the strategy answers locked play, with the value shift."""
    locks = metadata.get("locks")
    trained = (metadata.get("algorithm") or {}).get("locks")
    if not locks and trained:
        texts = "; ".join(f"`{text}`" for text in trained)
        return (f"Some decisions are locked ({texts}): they are played as the locks say, "
                f"in training and in play, and Monte Carlo CFR trained the rest against "
                f"them, so these figures describe that play, not an equilibrium. ")
    if not locks:
        return ""
    texts = "; ".join(f"`{lock['text']}`" for lock in locks)
    values = metadata.get("values") or []
    shift = metadata.get("value_shift") or []
    note = (f"Some decisions are locked ({texts}): they are played as the locks say and "
            f"the rest is solved against them, so these figures describe that play, not "
            f"an equilibrium. ")
    if values and shift:
        note += (f"Seat 0's value is {values[0]:+.4f}, {shift[0]:+.4f} from the solve "
                 f"without locks; the free decisions are within "
                 f"{metadata.get('exploitability', float('nan')):.2g} of a best answer "
                 f"to the locked ones. ")
    return note


def players_of_run(run_dir) -> int:
    """The player count of the run's variant (2 when unreadable: load_run says why)."""
    import game_def
    from solver.store import read_metadata

    try:
        return game_def.parse(read_metadata(run_dir).get("variant", "")).players
    except (ValueError, RobinWoodError, OSError):
        return 2


def read_strength(run_dir: Path) -> dict | None:
    """RUN/strength.json written by `robinwood exploit`, or None."""
    path = Path(run_dir) / "strength.json"
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        data["opponents"], data["exploitability_lower_bound"]
    except (ValueError, KeyError, TypeError):
        raise ReportError(f"{path} is damaged; write it again with `robinwood exploit "
                          f"{run_dir}`") from None
    return data


def read_search(run_dir: Path) -> dict | None:
    """RUN/search.json written by `robinwood search`, or None."""
    path = Path(run_dir) / "search.json"
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        for row in data["opponents"]:
            row["opponent"], row["search"], row["search_lo"], row["blueprint"]
        data["searcher"]
    except (ValueError, KeyError, TypeError):
        raise ReportError(f"{path} is damaged; write it again with `robinwood search "
                          f"{run_dir}`") from None
    return data


def search_table(data: dict) -> pd.DataFrame:
    """The searcher's and the table's payoffs against each opponent, worst first."""
    frame = pd.DataFrame(data["opponents"]).set_index("opponent")
    columns = ["search", "search_lo", "search_hi", "blueprint", "blueprint_lo",
               "blueprint_hi", "difference"]
    return frame.sort_values("search")[columns]


def _search_note(data: dict | None) -> str:
    """What play-time search changed, in a sentence (nothing when it was not run)."""
    if data is None:
        return ""
    rows = [r for r in data["opponents"] if r["opponent"] != "blueprint"]
    if not rows:
        return ""
    beaten = sum(r["search_lo"] > 0 for r in rows)
    better = sum(r["search_lo"] > r["blueprint_hi"] for r in rows)
    worst = min(rows, key=lambda r: r["search"])
    note = (f"Played with play-time search (`robinwood search`, docs/search.md) it beats "
            f"{beaten} of {len(rows)} opponents with 95% confidence and is better than the "
            f"strategy without search against {better}; its worst opponent is "
            f"{worst['opponent']} "
            f"({worst['search']:+.3f} a round). ")
    bounds = {b["opponent_searches"]: b for b in data.get("local_best_response", [])}
    if True in bounds:
        searched = bounds[True]
        note += (f"A local best response that models the searcher by its table gains "
                 f"{searched['gain']:+.3f} ± {searched['gain_half_width_95']:.3f} against it"
                 + (f" ({bounds[False]['gain']:+.3f} against the table alone)"
                    if False in bounds else "")
                 + ": a weaker lower bound on its exploitability than the table's. ")
    return note


def quality_over_training(run_dir: Path) -> pd.DataFrame | None:
    """The lower bound on exploitability of the run's snapshots and final strategy, by
    training time, from each one's strength.json (None when none was measured)."""
    from solver.store import read_metadata

    rows = []
    places = sorted(p for p in (Path(run_dir) / "snapshots").glob("*") if p.is_dir())
    for place in places + [Path(run_dir)]:
        strength = read_strength(place)
        if strength is None:
            continue
        meta = read_metadata(place)
        rows.append({"training_seconds": float(meta.get("seconds", float("nan"))),
                     "iterations": int(meta.get("iterations", 0)),
                     "exploitability_bound": strength["exploitability_lower_bound"],
                     "half_width": strength.get("exploitability_lower_bound_half_width",
                                                float("nan")),
                     "strongest": strength["strongest"],
                     "bound_method": _bound_method(strength)})
    if not rows:
        return None
    frame = pd.DataFrame(rows).sort_values(["iterations", "training_seconds"]).reset_index(
        drop=True)
    frame.index = pd.Index(range(1, len(frame) + 1), name="measurement")
    return frame


def strength_tables(strength: dict):
    """The opponents' gains (strongest first) and the self-play coverage table."""
    import pandas as pd

    gains = pd.DataFrame(strength["opponents"]).set_index("opponent")
    gains = gains.sort_values("gain", ascending=False)[["method", "gain", "gain_lo",
                                                         "gain_hi", "detail"]]
    coverage = pd.DataFrame(strength["coverage"]["self-play"]).set_index("decision")
    return gains, coverage


def beaten_by_method(strength: dict) -> dict[str, tuple[int, int]]:
    """For each opponent method of strength.json ("bot", "league", "held-out", ...), how
    many of its opponents the strategy beats with 95% confidence (the opponent's gain
    interval lies below 0) and how many there are. Files written before held-out players
    have no "held-out" rows, so no "held-out" key."""
    counts: dict[str, tuple[int, int]] = {}
    for row in strength["opponents"]:
        method = row.get("method", "")
        gain_hi = row.get("gain_hi")
        beaten = isinstance(gain_hi, (int, float)) and gain_hi < 0
        won, total = counts.get(method, (0, 0))
        counts[method] = (won + beaten, total + 1)
    return counts


def _beaten_sentence(strength: dict) -> str:
    """How many league players and, apart, how many held-out players (scripted players
    training may not meet) the strategy beats with 95% confidence."""
    counts = beaten_by_method(strength)
    parts = [f"{counts[m][0]} of {counts[m][1]} {words}"
             for m, words in (("league", "league players"),
                              ("held-out", "held-out players (never met in training)"))
             if m in counts]
    if not parts:
        return ""
    return f"It beats {' and '.join(parts)} with 95% confidence. "


def _bound_method(strength: dict) -> str:
    """How strength.json's stated bound was reached: "held-out" (the strongest opponent
    replayed on fresh rounds) or "selection maximum" (the largest gain on one sample,
    biased upward: files written before held-out replays say nothing and are that)."""
    method = strength.get("bound_method")
    return method if isinstance(method, str) else "selection maximum"


def _simultaneous(strength: dict) -> dict | None:
    """strength.json's Bonferroni statement over all opponents, or, in files written
    before it, the same computed from the opponents' 95% intervals."""
    every = strength.get("simultaneous")
    if isinstance(every, dict):
        return every
    from statistics import NormalDist

    rows = strength["opponents"]
    try:
        k = len(rows)
        scale = NormalDist().inv_cdf(1 - 0.025 / k) / NormalDist().inv_cdf(0.975)
        ends = [(r["gain"] - (r["gain_hi"] - r["gain_lo"]) / 2 * scale, r["opponent"])
                for r in rows]
    except (KeyError, TypeError, ZeroDivisionError):
        return None
    lower, name = max(ends)
    return {"method": "bonferroni", "confidence": 0.95, "candidates": k, "lower": lower,
            "opponent": name}


def bound_table(strength: dict) -> pd.DataFrame:
    """The stated bound beside the selection maximum and the simultaneous statement."""
    rows = []
    holdout = strength.get("holdout")
    best = strength["strongest"]
    if _bound_method(strength) == "held-out" and isinstance(holdout, dict):
        rows.append({"statement": "held-out replay of the strongest (stated)",
                     "opponent": best, "gain": holdout["gain"],
                     "gain_lo": holdout["gain_lo"], "gain_hi": holdout["gain_hi"],
                     "rounds": holdout.get("rounds"), "seed": holdout.get("seed")})
        selection, half = strength["selection_gain"], strength["selection_half_width"]
        rows.append({"statement": "the strongest on the selection sample (biased upward)",
                     "opponent": best, "gain": selection, "gain_lo": selection - half,
                     "gain_hi": selection + half, "rounds": None, "seed": None})
    else:
        bound = strength["exploitability_lower_bound"]
        half = strength.get("exploitability_lower_bound_half_width", float("nan"))
        rows.append({"statement": "selection maximum (stated; biased upward, written "
                                  "before held-out replays)",
                     "opponent": best, "gain": bound, "gain_lo": bound - half,
                     "gain_hi": bound + half, "rounds": None, "seed": None})
    every = _simultaneous(strength)
    if every is not None:
        rows.append({"statement": f"all {every['candidates']} opponents at once "
                                  f"(Bonferroni, 95%): the largest lower end",
                     "opponent": every["opponent"], "gain": float("nan"),
                     "gain_lo": every["lower"], "gain_hi": float("nan"), "rounds": None,
                     "seed": None})
    return pd.DataFrame(rows).set_index("statement")


# a lower bound on exploitability above this is called large in the report's summary
LARGE_BOUND = 0.10


def _caveat(metadata: dict, strength: dict | None = None) -> str:
    """Monte Carlo CFR strategies are approximations: say how much training this one had
    and how exploitable it is at least, before the numbers are read as the game's."""
    if metadata.get("kind") != "mccfr":
        return ""
    iterations, seconds = metadata.get("iterations"), metadata.get("seconds")
    if not isinstance(iterations, int) or not isinstance(seconds, (int, float)):
        return ""
    minutes = round(seconds / 60)
    span = f"{minutes} minute{'s' if minutes != 1 else ''}" if minutes else f"{seconds:.0f} s"
    text = (f"This strategy is a Monte Carlo CFR approximation after {iterations:,} "
            f"traversals per seat ({span} of training). ")
    if strength is None:
        return text + ("How exploitable it is has not been measured: run `robinwood "
                       "exploit` on the run directory and write the report again. ")
    bound = strength["exploitability_lower_bound"]
    half = strength.get("exploitability_lower_bound_half_width", 0.0)
    worst = {o["opponent"]: o for o in strength["opponents"]}
    fallback = strength.get("fallback")
    if isinstance(fallback, dict) and fallback.get("player"):
        text += (f"It plays its table where the table has learned and the "
                 f"{fallback['player']}'s rules elsewhere (docs/mccfr.md). ")
    holdout = strength.get("holdout")
    if _bound_method(strength) == "held-out" and isinstance(holdout, dict):
        text += (f"The strongest of {len(worst)} opponents measured against it, "
                 f"{strength['strongest']}, gains {bound:+.3f} ± {half:.3f} a round "
                 f"(seat-averaged, 95%) replayed on {holdout['rounds']:,} fresh rounds a "
                 f"seat: its exploitability is at least that. On the rounds that chose "
                 f"it, it gained {strength['selection_gain']:+.3f}, but the largest of "
                 f"many noisy gains overstates, so the replay's gain is the one stated. ")
    else:
        text += (f"The strongest of {len(worst)} opponents measured against it, "
                 f"{strength['strongest']}, gains {bound:+.3f} ± {half:.3f} a round "
                 f"(seat-averaged, 95%). That is a selection maximum: the largest of the "
                 f"opponents' noisy gains on one sample of rounds, which overstates on "
                 f"average (this strength.json predates held-out replays; run `robinwood "
                 f"exploit` again for an unbiased bound). ")
    text += _beaten_sentence(strength)
    every = _simultaneous(strength)
    if every is not None:
        text += (f"Taking all {every['candidates']} opponents' intervals at once "
                 f"(Bonferroni), its exploitability is at least {every['lower']:+.3f} "
                 f"with 95% confidence. ")
    if bound > LARGE_BOUND:
        text += ("That is large: an opponent who knows its weaknesses wins clearly, so "
                 "the frequencies below describe this strategy, not good play. ")
    return text


def _quality_note(quality: pd.DataFrame | None) -> str:
    """How the strength changed over training, in a sentence, or how to measure it."""
    if quality is None:
        return ""
    if len(quality) < 2:
        return ("Its strength was measured at the end of training only (train with "
                "`--snapshot-minutes` and run `robinwood exploit` on each snapshot to "
                "see it over training). ")
    first, last = quality.iloc[0], quality.iloc[-1]
    text = (f"Over training its exploitability bound went from "
            f"{first['exploitability_bound']:+.3f} after {first['iterations']:,} "
            f"traversals to {last['exploitability_bound']:+.3f} after "
            f"{last['iterations']:,}. ")
    if "bound_method" in quality and (quality["bound_method"] != "held-out").any():
        old = int((quality["bound_method"] != "held-out").sum())
        text += (f"{old} of those {len(quality)} measurements are selection maxima "
                 f"(written before held-out replays), which overstate on average. ")
    return text
