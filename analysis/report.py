"""`robinwood report`: a run directory's strategy as an HTML page, a Markdown page, PNG
figures and CSV (or Parquet) tables, readable offline.

Works from the run directory alone: metadata.json, convergence.csv and the strategy.
Exact runs are analysed exactly (analysis.exact); MCCFR runs by sampled self-play
(analysis.sampled). index.html embeds its figures (base64), so the one file can be
moved or mailed and still show everything; the same PNGs sit beside it for report.md.
"""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path

import pandas as pd

from solver.evaluation.run_files import read_search, read_strength

from . import figures
from .compare import compare as compare_profiles
from .pages import (PAGE_STYLE, ReportError, code_spans, dict_table, html_table, in_words,
                    markdown_table, read_convergence, save_png)
from .statistics import ProfileStatistics, export_tables
from .strength_notes import (bound_table, caveat, leak_sentence, lbr_choice_table,
                             lbr_split_table,
                             quality_note, quality_over_training, search_note,
                             search_table, strength_tables)
from .summary import comparison_paragraph, summary_paragraph

DEFAULT_SAMPLED_ROUNDS = 100_000


@dataclasses.dataclass
class Run:
    """What a report needs from a run directory."""

    path: Path
    name: str
    metadata: dict
    convergence: pd.DataFrame | None
    stats: ProfileStatistics


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
    "kind, sub_key (where it leaks)": "the decisions the local best response looked "
                                      "ahead at: turn starts; after a peek, by the card "
                                      "peeked; responses, by the claimed character; "
                                      "powers, by the character whose power runs",
    "gain, decisions_per_round (where it leaks)": "the advantage of the local best "
                                                  "response's action over its "
                                                  "continuation's there, summed over a "
                                                  "round (the rows add up to its gain over "
                                                  "the continuation, `all`), and how many "
                                                  "such decisions a round a seat",
    "precision (challenges)": "P(the claim was false | it was challenged): the share of "
                              "challenges of that claim that caught a bluff; lo, hi its "
                              "95% Wilson interval",
    "learned, thin, unlearned (coverage)": "share of decisions the table played from "
                                           "an entry with at least the run's "
                                           "fine_visits updates; with an entry the "
                                           "fallback overrode (fewer updates than its "
                                           "threshold for that kind) or fewer; with no "
                                           "entry (the thin and unlearned ones are "
                                           "played by the fallback player's rules, or "
                                           "the table and uniformly without one)",
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
    "lbr_by_decision": "Where it leaks: the strongest local best response's gain over "
                       "its continuation, by decision (largest first)",
    "lbr_by_choice": "What it plays at the three largest leaks: the local best "
                     "response's share of each action there beside the strategy's own, "
                     "and its mean advantage where it took it",
    "challenge_precision": "Challenge precision per claimed character: the share of "
                           "challenges that caught a false claim, beside its break "
                           "even, the precision above which a challenge gains, taken "
                           "at the strikes where each challenge was made "
                           "(docs/sound-play.md)",
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
{% if section.note %}<p>{{ section.note | code }}</p>{% endif %}
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
{% if section.note %}
{{ section.note }}
{% endif %}{% for fig in section.figures %}
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


def write_report(run_dir, out_dir=None, compare_dir=None, parquet: bool = False,
                 rounds: int | None = None, seed: int = 0) -> Path:
    """Write index.html, report.md, the figures (PNG) and tables/ for the run in
    run_dir (and a side-by-side comparison with compare_dir); returns index.html."""
    import jinja2
    from markupsafe import Markup

    from solver.store import players_of

    if players_of(run_dir) > 2:  # 3-4 players, teams: the balance page
        from .table_report import write_table_report

        return write_table_report(run_dir, out_dir, parquet=parquet, compare_dir=compare_dir,
                                  rounds=rounds, seed=seed)
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
        split = lbr_split_table(strength)
        if split is not None:
            tables["lbr_by_decision"] = split
        choices = lbr_choice_table(strength)
        if choices is not None:
            tables["lbr_by_choice"] = choices
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

    def section(title, fig_keys, main, details, table_fn, note=""):
        present = [t for t in main if t in tables and len(tables[t])]
        extra = [t for t in details if t in tables and len(tables[t])]
        return {"title": title, "note": note,
                "figures": [images[f] for f in fig_keys if f in images],
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
            section("Challenges", ["challenge_rates"],
                    ["challenge_rates", "challenge_precision"],
                    ["challenge_rates_by_strikes", "challenge_rates_by_turn"], table_fn),
            section("Powers", [], ["power_use", "unmasking", "traitor"], ["witch_choices"],
                    table_fn),
            section("The solve", ["quality", "convergence"],
                    ["locks", "quality", "run", "evaluation"],
                    ["convergence"], table_fn),
        ] + ([section("Strength: who beats it", [],
                      ["bound", "strength", "lbr_by_decision", "lbr_by_choice", "coverage",
                       "search"], [],
                      table_fn, leak_sentence(strength) if strength is not None else "")]
             if strength is not None or searched is not None else [])

    algo = run.metadata.get("algorithm")
    context = {
        "name": run.name, "variant": str(stats.variant),
        "algorithm": algo.get("name") if isinstance(algo, dict) else algo,
        "generated": time.strftime("%Y-%m-%d %H:%M"),
        "summary": (_locks_note(run.metadata) + caveat(run.metadata, strength)
                    + quality_note(tables.get("quality"))
                    + search_note(searched) + summary_paragraph(stats)),
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
