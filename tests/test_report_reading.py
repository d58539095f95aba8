"""Reports say only what holds, in words a reader can take in: labels that do not
collide, comparisons that say when they mix exact and sampled results or two decks,
no section for a character the deck lacks, headers and glossary in words, code as code,
and a Monte Carlo CFR run's strength over training."""

from __future__ import annotations

import json
import re
import shutil
import types

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analysis import figures
from analysis.pages import code_spans, in_words
from robinwood.cli import cli

TINY = "rspx:max_turns=2"


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("reading")
    invoke("solve", "--variant", TINY, "--iterations", "30", "--out", root / "exact")
    invoke("solve", "--variant", "Robin+Sheriff+Trickster+Witch+Traitor:max_turns=1",
           "--iterations", "10", "--out", root / "witch")
    invoke("solve", "--variant", TINY, "--algo", "mccfr", "--iterations", "400",
           "--workers", "1", "--out", root / "mccfr")
    return root


def fake_stats(turns: int):
    length = pd.Series(np.r_[0.0, np.full(turns, 1.0 / turns)], index=range(turns + 1))
    return types.SimpleNamespace(
        round_length=lambda: length, variant=types.SimpleNamespace(max_turns=turns),
        outcomes=lambda: {"mean_turns": [turns / 2]})


def test_round_length_bars_are_labelled_only_while_the_labels_fit():
    few = figures.round_length_histogram(fake_stats(figures.MAX_LABELLED_BARS))
    assert len(few.axes[0].texts) == figures.MAX_LABELLED_BARS
    many = figures.round_length_histogram(fake_stats(40))
    assert len(many.axes[0].texts) == 0
    assert "tables/round_length.csv" in many.axes[0].get_title()


def test_words_and_code():
    assert in_words("seat0_value") == "seat 0 value"
    assert in_words("challenge_right_rate") == "challenge right rate"
    assert str(code_spans("run `robinwood exploit` <now>")) == \
        "run <code>robinwood exploit</code> &lt;now&gt;"
    assert str(code_spans("one ` alone")) == "one ` alone"


def test_a_deck_without_the_witch_has_no_witch_section(runs, tmp_path):
    out = tmp_path / "rspx"
    invoke("report", runs / "exact", "--out", out)
    html = (out / "index.html").read_text()
    assert "Witch" not in html
    assert not (out / "tables" / "witch_choices.csv").exists()
    assert "Forced lies" not in html  # no Trickster either
    out = tmp_path / "witch"
    invoke("report", runs / "witch", "--out", out)
    html = (out / "index.html").read_text()
    assert "Witch: keep or swap" in html and "Forced lies" in html
    assert (out / "tables" / "witch_choices.csv").exists()


def test_headers_glossary_and_code_in_words(runs, tmp_path):
    out = tmp_path / "r"
    invoke("report", runs / "mccfr", "--out", out, "--rounds", "300")
    html = (out / "index.html").read_text()
    md = (out / "report.md").read_text()
    headers = re.findall(r"<th>([^<]*)</th>", html)
    assert headers and not [h for h in headers if "_" in h], headers
    assert "<th>seat 0 value</th>" in html
    assert "<dt>exploitability</dt>" in html and "<dt>infosets (information sets)</dt>" in html
    assert "`" not in html
    assert "<code>robinwood exploit</code>" in html
    assert "`robinwood exploit`" in md  # Markdown keeps its own backticks
    assert "| seat 0 value |" in md or "seat 0 value" in md
    # the CSV files keep the names code uses
    assert "seat0_value" in pd.read_csv(out / "tables" / "outcomes.csv").columns


def test_comparing_exact_with_sampled_and_two_decks_says_so(runs, tmp_path):
    out = tmp_path / "cmp"
    invoke("report", runs / "exact", "--compare", runs / "witch", "--out", out)
    html = (out / "index.html").read_text()
    assert "play different decks (rspx and Robin+Sheriff+Trickster+Witch+Traitor" in html
    assert "Peasant only in exact" in html and "Trickster, Witch only in witch" in html
    assert "exact result with a sampled one" not in html
    out = tmp_path / "cmp2"
    invoke("report", runs / "exact", "--compare", runs / "mccfr", "--out", out,
           "--rounds", "300")
    html = (out / "index.html").read_text()
    assert "This compares an exact result with a sampled one: exact is analysed exactly" \
        in html
    assert "mccfr from 300 sampled self-play rounds of a Monte Carlo CFR approximation" in html


def test_comparison_ticks_say_n_a_not_nan(runs):
    from analysis.compare import compare
    from analysis.exact import profile_statistics_from_run

    tables = compare(profile_statistics_from_run(runs / "exact"),
                     profile_statistics_from_run(runs / "witch"), ("a", "b"))
    fig = figures.comparison_bars(tables)
    for ax in fig.axes:
        ticks = [t.get_text() for t in ax.get_xticklabels()]
        assert ticks and not [t for t in ticks if "nan" in t], ticks
        assert any("n/a" in t for t in ticks)
        assert {t.get_rotation() for t in ax.texts} == {90.0}


def test_mccfr_report_shows_strength_over_training(runs, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(runs / "mccfr", run)
    invoke("exploit", run, "--rounds", "300", "--lbr-rounds", "0")
    out = tmp_path / "one"
    invoke("report", run, "--out", out, "--rounds", "300")
    html = (out / "index.html").read_text()
    assert "measured at the end of training only" in html
    assert "Strength over training" in html
    # an earlier snapshot, measured too
    snap = run / "snapshots" / "1s"
    snap.mkdir(parents=True)
    meta = json.loads((run / "metadata.json").read_text())
    for name in ("table.npz", "strength.json"):
        shutil.copy(run / name, snap / name)
    strength = json.loads((run / "strength.json").read_text())
    strength["exploitability_lower_bound"] += 0.25
    (snap / "strength.json").write_text(json.dumps(strength))
    (snap / "metadata.json").write_text(json.dumps({**meta, "iterations": 200,
                                                    "seconds": 0.5}))
    out = tmp_path / "two"
    invoke("report", run, "--out", out, "--rounds", "300")
    html = (out / "index.html").read_text()
    bound = strength["exploitability_lower_bound"]
    assert (f"Over training its exploitability bound went from {bound:+.3f} after 200 "
            f"traversals to {bound - 0.25:+.3f} after 400") in html
    quality = pd.read_csv(out / "tables" / "quality.csv")
    assert list(quality["iterations"]) == [200, 400]
    assert (out / "quality.png").exists()


def test_an_old_strength_file_is_read_and_called_a_selection_maximum(runs, tmp_path):
    """strength.json written before held-out replays (as under reports/ and
    benchmarks/results/) has no bound_method, holdout, simultaneous or lbr_by_decision
    (the split by decision): the report
    still reads it, says its bound is a selection maximum, and computes the Bonferroni
    statement from the opponents' intervals."""
    run = tmp_path / "run"
    shutil.copytree(runs / "mccfr", run)
    invoke("exploit", run, "--rounds", "300", "--lbr-rounds", "0")
    strength = json.loads((run / "strength.json").read_text())
    for key in ("bound_method", "selection_gain", "selection_half_width", "holdout",
                "simultaneous", "lbr_by_decision"):
        strength.pop(key)
    for row in strength["opponents"]:
        row.pop("rounds"), row.pop("seed")
    best = max(strength["opponents"], key=lambda row: row["gain"])
    strength["exploitability_lower_bound"] = best["gain"]
    strength["strongest"] = best["opponent"]
    (run / "strength.json").write_text(json.dumps(strength))
    out = tmp_path / "old"
    invoke("report", run, "--out", out, "--rounds", "300")
    html = (out / "index.html").read_text()
    assert f"{best['opponent']}, gains {best['gain']:+.3f}" in html
    assert "That is a selection maximum" in html and "predates held-out replays" in html
    assert "opponents&#39; intervals at once (Bonferroni)" in html or \
        "opponents' intervals at once (Bonferroni)" in html
    stated = pd.read_csv(out / "tables" / "bound.csv")
    assert stated["statement"].iloc[0].startswith("selection maximum")
    quality = pd.read_csv(out / "tables" / "quality.csv")
    assert list(quality["bound_method"]) == ["selection maximum"]


def test_kinds_say_how_a_column_reads_where_its_name_does_not():
    """A matrix whose columns are players' names reads as win shares when told so, an
    edge as signed points; without `kinds` the names decide (a column named like a
    league player, `silent`, must not turn one column of a matrix into percentages)."""
    import pandas as pd

    from analysis.pages import NUMBER, POINTS, PROBABILITY, display_frame

    frame = pd.DataFrame({"silent": [0.25], "tempo": [0.5], "edge": [0.0136],
                          "duration": [11.5]})
    shown = display_frame(frame, {"silent": PROBABILITY, "tempo": PROBABILITY,
                                  "edge": POINTS, "duration": NUMBER})
    assert list(shown.iloc[0]) == ["25.0%", "50.0%", "+1.4 pp", "11.5000"]
    plain = display_frame(frame)
    assert plain.iloc[0]["tempo"] == "0.5000"
    metrics = pd.DataFrame({"value": {"learned_share": 0.0268, "lead_changes": 0.25}}
                           ).rename_axis("metric")
    shown = display_frame(metrics, {"learned_share": PROBABILITY, "lead_changes": NUMBER})
    assert list(shown["value"]) == ["2.7%", "0.2500"]
