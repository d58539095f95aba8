"""Sampled self-play statistics (analysis.sampled) against the exact ones: an agent
projected onto the exact tree of a small deck gives the expected counts, and sampling
must agree within its intervals. Also reproducibility, errors, and reports of MCCFR runs."""

from __future__ import annotations

import numpy as np
import pytest

import game_def
from analysis.exact import profile_statistics
from analysis.report import write_report
from analysis.sampled import profile_statistics_sampled
from solver.evaluation.abstraction_cost import project
from solver.players.agents import AgentError, bot, load_table_agent
from solver.mccfr.trainer import MCCFRConfig
from solver.mccfr.job import solve_mccfr
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.store import StrategyFileError

ROUNDS = 100_000


def exact_statistics(agent, spec):
    variant = game_def.parse(spec)
    tree = build_robinwood_tree(variant, symmetric=False)
    return profile_statistics(variant, tree, project(agent, variant, tree), symmetric=False)


def close_to_interval(exact, est, lo, hi, widen=2.0):
    """The exact value within `widen` half-widths of the sampled 95% interval (about
    2 x 1.96 standard errors): both NaN, or close."""
    if np.isnan(exact) or np.isnan(est):
        return np.isnan(exact) and np.isnan(est)
    return abs(exact - est) <= widen * max(hi - est, est - lo) + 1e-12


def assert_agrees(exact, sampled):
    n = sampled.rounds_sampled
    max_turns = exact.variant.max_turns
    # Every recorded cell: an expected count per round, within 5 (rough) standard errors;
    # and nothing the profile never does shows up in the sample.
    for name, e, s in zip(exact.counts._fields, exact.counts, sampled.counts):
        e, s = np.asarray(e), np.asarray(s) / n
        se = np.sqrt(np.maximum(e, 1 / n) * (max_turns + 1) / n)
        assert np.all(np.abs(s - e) <= 5 * se), name
        assert np.all(s[e == 0] == 0), name
    # Outcomes: every rate and the value within its interval (widened).
    eo, so = exact.outcomes().iloc[0], sampled.outcomes().iloc[0]
    for col in ("seat0_wins", "seat1_wins", "draws", "seat0_value"):
        assert close_to_interval(eo[col], so[col], so[f"{col}_lo"], so[f"{col}_hi"]), col
    # Announcement matrix: P(action | peeked card) within 4 binomial standard errors.
    em, sm = exact.announcement_matrix(), sampled.announcement_matrix()
    assert list(em.index) == list(sm.index) and list(em.columns) == list(sm.columns)
    probs = [c for c in em.columns if c != "reach"]
    for card in em.index:
        trials = em.loc[card, "reach"] * n
        for col in probs:
            p = em.loc[card, col]
            se = np.sqrt(p * (1 - p) / trials) if trials > 0 else 0.0
            assert abs(sm.loc[card, col] - p) <= 4 * se + 1e-12, (card, col)
    # Bluff and challenge rates, with their intervals.
    for table, rates in (("bluff_rates", ["bluff_rate"]),
                         ("challenge_rates", ["challenge_rate", "challenge_right_rate"])):
        et, st = getattr(exact, table)(), getattr(sampled, table)()
        for who in et.index:
            for rate in rates:
                assert close_to_interval(et.loc[who, rate], st.loc[who, rate],
                                         st.loc[who, f"{rate}_lo"],
                                         st.loc[who, f"{rate}_hi"]), (table, who, rate)


@pytest.mark.parametrize("spec, name", [
    ("rspx:max_turns=3", "heuristic"),
    ("Robin+Sheriff+Trickster+Traitor:max_turns=2", "uniform"),
    ("rspx:max_turns=4", "heuristic"),
])
def test_sampled_bot_statistics_agree_with_the_exact_ones(spec, name):
    agent = bot(name)
    sampled = profile_statistics_sampled(agent, rounds=ROUNDS, seed=1, variant=spec)
    assert not sampled.exact and sampled.rounds_sampled == ROUNDS
    assert_agrees(exact_statistics(agent, spec), sampled)


@pytest.fixture(scope="module")
def mccfr_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("mccfr")
    runs = {}
    for spec in ("rspx:max_turns=3", "rspx:max_turns=4"):
        out = root / spec.replace(":", "_")
        solve_mccfr(MCCFRConfig(game_def.parse(spec), batch_iterations=100), out,
                    max_iterations=2000)
        runs[spec] = out
    return runs


def test_a_table_agent_agrees_with_its_exact_projection(mccfr_runs):
    run = mccfr_runs["rspx:max_turns=3"]
    agent = load_table_agent(run)
    sampled = profile_statistics_sampled(run, rounds=ROUNDS, seed=2)
    assert str(sampled.variant) == "rspx:max_turns=3"
    assert_agrees(exact_statistics(agent, "rspx:max_turns=3"), sampled)
    # A run directory, its path as text and the loaded agent: the same rounds.
    again = profile_statistics_sampled(agent, rounds=ROUNDS, seed=2)
    as_text = profile_statistics_sampled(str(run), rounds=ROUNDS, seed=2)
    for a, b, c in zip(sampled.counts, again.counts, as_text.counts):
        assert np.array_equal(a, b) and np.array_equal(a, c)


def test_same_seed_same_counts():
    def counts(seed, rounds=5_001):
        return profile_statistics_sampled("heuristic", rounds=rounds, seed=seed,
                                          variant="standard").counts

    first, second, other = counts(7), counts(7), counts(8)
    for name, a, b in zip(first._fields, first, second):
        assert np.array_equal(a, b), name
    assert not np.array_equal(first.outcome, other.outcome)
    assert first.rounds[0] == 5_001           # an odd number of rounds splits unevenly
    assert counts(3, rounds=1).rounds[0] == 1  # one thread may have nothing to play


def test_bad_requests_are_one_line_errors(mccfr_runs, tmp_path):
    with pytest.raises(AgentError, match="variant="):
        profile_statistics_sampled(bot("honest"), rounds=10)
    with pytest.raises(AgentError, match="rounds"):
        profile_statistics_sampled("honest", rounds=0, variant="rspx")
    with pytest.raises(AgentError, match="trained on"):
        profile_statistics_sampled(mccfr_runs["rspx:max_turns=3"], rounds=10,
                                   variant="rspx:max_turns=4")
    with pytest.raises(AgentError, match="two-player"):
        profile_statistics_sampled("honest", rounds=10, variant="standard:players=3")
    with pytest.raises(StrategyFileError):
        profile_statistics_sampled(tmp_path, rounds=10)  # no metadata.json


def test_a_report_renders_for_an_mccfr_run(mccfr_runs, tmp_path):
    index = write_report(mccfr_runs["rspx:max_turns=4"], out_dir=tmp_path / "rep",
                         rounds=20_000)
    rep = index.parent
    names = {p.name for p in rep.iterdir()}
    assert {"index.html", "report.md", "bluff_heatmap.png", "challenge_rates.png",
            "round_length.png", "convergence.png", "tables"} <= names
    for png in rep.glob("*.png"):
        assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    html, md = index.read_text(), (rep / "report.md").read_text()
    for text in (html, md):
        assert "20,000 sampled self-play rounds" in text and "95% CI" in text
        assert "mccfr" in text
    assert "[" in md and "%]" in md  # estimates shown with their [low, high] intervals
