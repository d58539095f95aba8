"""`robinwood report`: renders from a run directory alone, compares two variants, and
turns a corrupt or mismatched run into one line on stderr."""

from __future__ import annotations

import json
import shutil
import sys
import types

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import game_def
from analysis import figures
from game_def.characters import Character
from solver.scripted.sound import claim_break_even
from analysis.compare import compare
from analysis.exact import profile_statistics_from_run
from analysis.pages import dict_table, display_frame
from analysis.report import write_report
from robinwood.cli import cli
from solver.evaluation.strength import LBR_CONTINUATIONS
from solver.exact.cfr import algorithm
from solver.exact.job import SolveConfig, solve

PNG = b"\x89PNG\r\n\x1a\n"


def solved_run(root, spec, iterations=100):
    out = root / spec.replace(":", "_").replace(",", "_").replace("+", "_")
    solve(SolveConfig(game_def.parse(spec), algorithm("dcfr"), out, max_iterations=iterations))
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    return {"rspx3": solved_run(root, "rspx:max_turns=3"),
            "strikes1": solved_run(root, "rspx:max_turns=3,strikes=1"),
            "trickster": solved_run(root, "Robin+Sheriff+Trickster+Traitor:max_turns=2")}


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def one_line_error(result, *words):
    """Exit 2, a single `robinwood: error:` line naming `words`, no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("robinwood: error:"), result.output
    assert "Traceback" not in result.output
    for w in words:
        assert w in lines[0], lines[0]


def test_report_renders_from_the_strategy_files_alone(runs, tmp_path):
    run = tmp_path / "bare"
    run.mkdir()
    for name in ("metadata.json", "strategy.npz"):  # no checkpoint, no convergence.csv
        shutil.copy(runs["rspx3"] / name, run / name)
    out = tmp_path / "report"
    result = invoke("report", run, "--out", out)
    assert result.exit_code == 0, result.output
    html = (out / "index.html").read_text()
    md = (out / "report.md").read_text()
    for name in ("bluff_heatmap", "challenge_rates", "round_length"):
        assert (out / f"{name}.png").read_bytes().startswith(PNG)
        assert f"]({name}.png)" in md
    assert not (out / "convergence.png").exists()  # no curve, no figure
    # Self-contained: every image is embedded, nothing is fetched from elsewhere.
    assert html.count('src="data:image/png;base64,') == 3
    assert "http://" not in html and "https://" not in html
    assert "the player who starts (seat 0) wins" in html
    outcomes = pd.read_csv(out / "tables" / "outcomes.csv")
    stats = profile_statistics_from_run(run)
    assert outcomes["seat0_value"][0] == pytest.approx(stats.outcome[0] - stats.outcome[1])
    matrix = pd.read_csv(out / "tables" / "announcement_matrix.csv")
    assert list(matrix.columns[:2]) == ["peeked", "silent"]


def test_report_with_convergence_and_default_folder(runs, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("report", runs["rspx3"])
    assert result.exit_code == 0, result.output
    out = tmp_path / "reports" / runs["rspx3"].name
    assert (out / "convergence.png").read_bytes().startswith(PNG)
    assert (out / "tables" / "convergence.csv").exists()


def test_compare_two_variants_side_by_side(runs, tmp_path):
    out = tmp_path / "cmp"
    result = invoke("report", runs["rspx3"], "--compare", runs["strikes1"], "--out", out)
    assert result.exit_code == 0, result.output
    balance = pd.read_csv(out / "tables" / "compare_balance.csv")
    a, b = runs["rspx3"].name, runs["strikes1"].name
    assert list(balance.columns) == ["metric", a, b, "delta"]
    np.testing.assert_allclose(balance["delta"], balance[b] - balance[a])
    assert (out / "comparison.png").read_bytes().startswith(PNG)
    assert "Compared with" in (out / "index.html").read_text()


def test_compare_leaves_rows_of_one_side_only_as_nan(runs):
    with_peasant = profile_statistics_from_run(runs["rspx3"])
    with_trickster = profile_statistics_from_run(runs["trickster"])
    tables = compare(with_peasant, with_trickster, ("rspx", "trickster"))
    peeks = tables["peeks"]
    assert np.isnan(peeks.loc[("Peasant", "truth_rate"), "trickster"])
    assert np.isnan(peeks.loc[("Trickster", "truth_rate"), "rspx"])
    assert np.isnan(peeks.loc[("Peasant", "truth_rate"), "delta"])
    robin = peeks.loc[("Robin", "truth_rate")]
    assert robin["delta"] == pytest.approx(robin["trickster"] - robin["rspx"])
    assert display_frame(tables["balance"]).loc["draws", "delta"].endswith("pp")


@pytest.mark.parametrize("damage, words", [
    ("truncate strategy", ["strategy.npz is corrupt"]),
    ("other variant", ["action slots"]),
    ("bad json", ["metadata.json is corrupt"]),
    ("no metadata", ["metadata.json is missing"]),
    ("interrupted", ["was interrupted", "--resume"]),
    ("bad convergence", ["convergence.csv is corrupt"]),
    ("bad probabilities", ["not a valid strategy"]),
])
def test_a_damaged_run_is_one_line_not_a_traceback(runs, tmp_path, damage, words):
    run = tmp_path / "run"
    shutil.copytree(runs["rspx3"], run)
    meta = run / "metadata.json"
    if damage == "truncate strategy":
        data = (run / "strategy.npz").read_bytes()
        (run / "strategy.npz").write_bytes(data[:len(data) // 2])
    elif damage == "other variant":
        m = json.loads(meta.read_text())
        m["variant"] = "rspx:max_turns=2"
        m["tree"].pop("infosets")  # let the file pass its own consistency check
        meta.write_text(json.dumps(m))
    elif damage == "bad json":
        meta.write_text("{not json")
    elif damage == "no metadata":
        meta.unlink()
        (run / "checkpoint.npz").unlink()
    elif damage == "interrupted":  # what Ctrl-C leaves: a checkpoint, no metadata yet
        meta.unlink()
    elif damage == "bad convergence":
        (run / "convergence.csv").write_bytes(b"\xff\xfe\x00garbage")
    elif damage == "bad probabilities":
        with np.load(run / "strategy.npz") as f:
            arrays = dict(f)
        arrays["strategy"] = arrays["strategy"] * 2
        np.savez(run / "strategy.npz", **arrays)
    one_line_error(invoke("report", run, "--out", tmp_path / "out"), *words)


def test_an_mccfr_run_without_sampled_analysis_is_one_line(runs, tmp_path, monkeypatch):
    run = tmp_path / "mccfr"
    shutil.copytree(runs["rspx3"], run)
    m = json.loads((run / "metadata.json").read_text())
    m["algorithm"] = {"name": "mccfr"}
    (run / "metadata.json").write_text(json.dumps(m))
    monkeypatch.setitem(sys.modules, "analysis.sampled", None)  # import fails
    one_line_error(invoke("report", run, "--out", tmp_path / "out"), "MCCFR", "sampled")


def test_an_mccfr_run_is_reported_through_the_sampled_hook(runs, tmp_path, monkeypatch):
    """The hook analysis.sampled.profile_statistics_sampled(run_dir, rounds, seed) is
    stood in for by exact counts scaled to `rounds` rounds."""
    from analysis import ProfileStatistics

    run = tmp_path / "mccfr"
    shutil.copytree(runs["rspx3"], run)
    m = json.loads((run / "metadata.json").read_text())
    m["algorithm"] = {"name": "mccfr", "sampling": "external"}
    m["evaluation"] = {"vs_random": {"win_rate": 0.9, "ci95": [0.88, 0.92]},
                       "vs_greedy": {"win_rate": 0.7, "ci95": [0.66, 0.74]}}
    (run / "metadata.json").write_text(json.dumps(m))
    pd.DataFrame({"seconds": [1.0, 2.0, 4.0], "iterations": [1e4, 2e4, 4e4],
                  "infosets": [100, 150, 170], "table_bytes": [1e5, 2e5, 2.2e5],
                  "exploiter_gain": [0.3, 0.2, 0.1]}).to_csv(run / "convergence.csv",
                                                              index=False)
    calls = []

    def fake(run_dir, rounds, seed=0):
        calls.append((rounds, seed))
        exact = profile_statistics_from_run(run_dir)
        counts = type(exact.counts)(*(a * rounds for a in exact.counts))
        return ProfileStatistics(exact.variant, counts, rounds_sampled=rounds)

    monkeypatch.setitem(sys.modules, "analysis.sampled",
                        types.SimpleNamespace(profile_statistics_sampled=fake))
    out = tmp_path / "out"
    result = invoke("report", run, "--out", out, "--rounds", 5000, "--seed", 3)
    assert result.exit_code == 0, result.output
    assert calls == [(5000, 3)]
    html = (out / "index.html").read_text()
    assert "5,000 sampled self-play rounds" in html and "95% CI" in html
    assert "vs_greedy" in html
    outcomes = pd.read_csv(out / "tables" / "outcomes.csv")
    assert {"seat0_wins_lo", "seat0_value_hi", "rounds_sampled"} <= set(outcomes.columns)
    assert (out / "convergence.png").exists()


def test_convergence_figure_without_exploitability_plots_what_there_is():
    curve = pd.DataFrame({"seconds": [1, 2, 3], "iterations": [10, 20, 30],
                          "infosets": [5, 7, 8], "note": ["a", "b", "c"]})
    fig = figures.convergence_figure(curve)
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert titles == ["iterations", "infosets"]
    fig = figures.convergence_figure(pd.DataFrame({"iteration": [1, 2], "seconds": [1, 2],
                                                   "exploitability": [0.1, 0.01]}))
    assert fig.axes[0].get_yscale() == "log"
    assert figures.convergence_figure(None) is None


def test_parquet_tables_or_a_clear_error(runs, tmp_path, monkeypatch):
    pytest.importorskip("pyarrow")
    out = tmp_path / "pq"
    write_report(runs["rspx3"], out, parquet=True)
    frame = pd.read_parquet(out / "tables" / "bluff_rates.parquet")
    assert "bluff_rate" in frame.columns
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    one_line_error(invoke("report", runs["rspx3"], "--out", tmp_path / "pq2", "--parquet"),
                   "pip install pyarrow")


def test_evaluation_dicts_become_tables():
    nested = dict_table({"vs_random": {"win_rate": 0.9, "ci95": [0.8, 1.0]}})
    assert nested.loc["vs_random", "ci95"] == "[0.8, 1.0]"
    flat = dict_table({"rounds": 1000, "bots": {"greedy": 0.6}})
    assert flat.loc["bots.greedy", "value"] == 0.6


def test_an_mccfr_report_opens_with_how_exploitable_the_strategy_is(tmp_path):
    """A real (tiny) Monte Carlo CFR run: before `robinwood exploit` the report says
    the strength is unmeasured; after it, the summary names the strongest opponent and
    its gain, and a Strength section lists every opponent and the coverage."""
    run = tmp_path / "run"
    result = invoke("solve", "--variant", "rspx:max_turns=3", "--algo", "mccfr",
                    "--iterations", "400", "--workers", "1", "--out", run, "--json")
    assert result.exit_code == 0, result.output
    out = tmp_path / "before"
    assert invoke("report", run, "--out", out, "--rounds", 2000).exit_code == 0
    assert "has not been measured" in (out / "index.html").read_text()
    result = invoke("exploit", run, "--rounds", 1000, "--lbr-rounds", 200,
                    "--lbr-split", "every")
    assert result.exit_code == 0, result.output
    strength = json.loads((run / "strength.json").read_text())
    # where the strongest local best response gains, by decision, printed and kept
    split = strength["lbr_by_decision"]
    assert split["opponent"].startswith("local best response") and split["rows"]
    assert f"where {split['opponent']} gains over its continuation" in result.output
    assert len(split["each"]) == len(LBR_CONTINUATIONS)   # one per continuation
    out = tmp_path / "after"
    assert invoke("report", run, "--out", out, "--rounds", 2000).exit_code == 0
    html = (out / "index.html").read_text()
    bound = strength["exploitability_lower_bound"]
    assert strength["bound_method"] == "held-out"
    assert f"{strength['strongest']}, gains {bound:+.3f}" in html
    assert (f"replayed on {strength['holdout']['rounds']:,} fresh rounds a seat" in html
            and f"it gained {strength['selection_gain']:+.3f}" in html)
    assert (f"its exploitability is at least {strength['simultaneous']['lower']:+.3f}"
            in html)
    assert "Strength: who beats it" in html and "at least that" in html
    assert ("That is large" in html) == (bound > 0.10)
    gains = pd.read_csv(out / "tables" / "strength.csv")
    assert len(gains) == len(strength["opponents"])
    # strongest first, on the selection sample
    assert gains["gain"].iloc[0] == pytest.approx(strength["selection_gain"])
    stated = pd.read_csv(out / "tables" / "bound.csv").set_index("statement")
    assert stated["gain"].iloc[0] == pytest.approx(bound)     # the held-out replay
    leaks = pd.read_csv(out / "tables" / "lbr_by_decision.csv")
    assert list(leaks["kind"])[-1] == "all" and len(leaks) == len(split["rows"])
    top = leaks.iloc[0]
    assert top["gain"] == max(r["gain"] for r in split["rows"] if r["kind"] != "all")
    assert (f"The largest part comes from" in html
            and f"{top['gain']:+.3f} ± {top['half_width']:.3f} a round (95%)" in html)
    precision = pd.read_csv(out / "tables" / "challenge_precision.csv")
    assert list(precision.columns) == ["claim", "challenges_per_round", "precision", "lo",
                                       "hi", "break_even", "below_break_even"]
    even = precision.set_index("claim")["break_even"]
    # a Peasant claim runs no power: its break-even at each challenge's strikes (1/2 at
    # equal strikes, 1/3 for a challenger ahead), averaged over the challenges as the
    # split by strikes counts them; planted bug caught: the start's 1/2 alone
    by_strikes = pd.read_csv(out / "tables" / "challenge_rates_by_strikes.csv")
    peasant = by_strikes[(by_strikes["announced"] == "Peasant")
                         & (by_strikes["challenges_per_round"] > 0)]
    variant = game_def.parse("rspx:max_turns=3")
    expected = sum(row.challenges_per_round * claim_break_even(
        variant, int(Character.PEASANT),
        strikes=(row.announcer_strikes, row.challenger_strikes))
        for row in peasant.itertuples()) / peasant["challenges_per_round"].sum() \
        if len(peasant) else 0.5
    assert even["Peasant"] == pytest.approx(expected, rel=1e-6)
    assert np.isnan(even["Robin"])
    # play-time search: its table and a sentence in the summary, from search.json
    result = invoke("search", run, "honest", "counter", "blueprint", "--rounds", 30,
                    "--blueprint-rounds", 500, "--particles", 16, "--rollouts", 4,
                    "--lbr-rounds", 10)
    assert result.exit_code == 0, result.output
    searched = json.loads((run / "search.json").read_text())
    out = tmp_path / "searched"
    assert invoke("report", run, "--out", out, "--rounds", 2000).exit_code == 0
    html = (out / "index.html").read_text()
    table = pd.read_csv(out / "tables" / "search.csv")
    assert sorted(table["opponent"]) == ["blueprint", "counter", "honest"]
    assert list(table["search"]) == sorted(table["search"])        # worst first
    beaten = sum(r["search_lo"] > 0 for r in searched["opponents"]
                 if r["opponent"] != "blueprint")
    assert f"it beats {beaten} of 2 opponents" in html and "With play-time search" in html
    bound, table_bound = searched["local_best_response"]
    assert (f"models the searcher by its table gains {bound['gain']:+.3f} ± "
            f"{bound['gain_half_width_95']:.3f} against it ({table_bound['gain']:+.3f} "
            f"against the table alone)") in html
    (run / "search.json").write_text("[]")
    one_line_error(invoke("report", run, "--out", tmp_path / "bad"), "search.json",
                   "robinwood search")
    (run / "search.json").unlink()
    (run / "strength.json").write_text("{ not json")
    one_line_error(invoke("report", run, "--out", tmp_path / "bad"), "strength.json",
                   "robinwood exploit")
