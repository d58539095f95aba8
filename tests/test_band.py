"""Into a band (sweep.band): the target parsed or refused in one line, the single
changes of a variant, the variants meeting the band on a synthetic table with known
values, and (slow) the search on a small exact variant against each candidate solved
independently (analysis.equilibrium, analysis.seat_balance). Planted bugs these catch:
an open band (a value on its edge left out), the base counted as a change, the
distance's sign flipped (the nearest variant not first)."""

from __future__ import annotations

import pandas as pd
import pytest

import game_def
from sweep.band import Target, band_search, meeting, parse_target, single_changes
from sweep.grid import GridError


@pytest.mark.parametrize("text, needle", [("starter_edge", "is not 'METRIC in"),
                                          ("nope in [0,1]", "not a sweep metric"),
                                          ("starter_edge in [0.1,-0.1]", "is empty")])
def test_a_bad_target_is_one_line(text, needle):
    with pytest.raises(GridError, match=needle):
        parse_target(text)


def test_a_target_parses():
    assert parse_target(" starter_edge in [ -0.02 , 0.02 ] ") == Target("starter_edge",
                                                                        -0.02, 0.02)


def test_the_single_changes_each_change_one_thing():
    base = game_def.parse("rspx:max_turns=6")
    changes = single_changes(base)
    assert ("strikes", "1") in changes and ("max_turns", "7") in changes
    assert ("first_player", "1") in changes
    decks = [v for o, v in changes if o == "deck"]
    assert "Robin+Sheriff+Monk+Traitor" in decks and len(decks) == len(set(decks))
    for option, value in changes:
        changed = base.replace(**{option: value})
        assert changed != base


def test_meeting_lists_the_variants_in_the_band_first_and_not_the_base():
    values = {"base": 0.1, "a": 0.02, "b": -0.02, "c": 0.05, "d": -0.03, "e": 0.0}
    rows = [{"variant": v, "status": "done", "metric": m, "value": x}
            for v, x in values.items()
            for m, x in (("starter_edge", x), ("mean_turns", 3.0))]
    rows.append({"variant": "f", "status": "failed", "metric": "starter_edge",
                 "value": 0.0})
    got = meeting(pd.DataFrame(rows), Target("starter_edge", -0.02, 0.02), "base")
    assert set(got.index[got["in_band"]]) == {"a", "b", "e"}   # edges included
    assert "base" not in got.index and "f" not in got.index
    assert list(got.index[~got["in_band"]]) == ["d", "c"]      # nearest first
    assert "mean_turns" in got.columns


@pytest.mark.slow   # a sweep per option on the process pool (numba in each worker)
def test_the_search_finds_what_each_variant_solved_alone_says(tmp_path):
    from analysis.equilibrium import solve
    from analysis.seat_balance import seat_balance
    from solver.exact.robinwood_tree import build_robinwood_tree

    base = "rspx:max_turns=2"
    target = Target("starter_edge", 0.1, 0.3)
    got = band_search(base, target, tmp_path, options={"strikes", "first_player",
                                                       "max_turns"}, pairs=0)
    expected = {}
    for option, value in single_changes(game_def.parse(base)):
        if option not in {"strikes", "first_player", "max_turns"}:
            continue
        variant = game_def.parse(base).replace(**{option: value})
        tree = build_robinwood_tree(variant, symmetric=True)
        _, metrics = seat_balance(variant, tree, solve(tree, 1e-4), symmetric=True)
        edge = metrics["starter_edge"]
        assert not abs(edge - 0.1) < 2e-3 and not abs(edge - 0.3) < 2e-3  # clear of edges
        expected[str(variant)] = 0.1 <= edge <= 0.3
    assert set(got.index) == set(expected)
    assert {v for v in got.index if got.at[v, "in_band"]} == \
        {v for v, inside in expected.items() if inside}


def test_a_sampled_variant_meets_the_band_with_or_without_its_interval():
    """Monte Carlo CFR rows carry the target's 95% interval; `interval_in_band` says
    whether all of it lies in the band, an exact row (no interval) whether its value
    does. Planted bugs: interval_in_band read from the estimate alone (b would pass), an
    exact row's missing interval counted as outside (e would fail), the interval
    columns left out."""
    rows = []
    for v, x, lo, hi in (("a", 0.01, 0.0, 0.02), ("b", 0.025, 0.015, 0.035),
                         ("d", 0.05, 0.04, 0.06), ("e", 0.0, float("nan"), float("nan"))):
        rows += [{"variant": v, "status": "done", "metric": "starter_edge", "value": x,
                  "lo": lo, "hi": hi},
                 {"variant": v, "status": "done", "metric": "mean_turns", "value": 3.0,
                  "lo": 2.9, "hi": 3.1}]
    got = meeting(pd.DataFrame(rows), Target("starter_edge", -0.02, 0.03), "base")
    assert set(got.index[got["in_band"]]) == {"a", "b", "e"}
    assert set(got.index[got["interval_in_band"]]) == {"a", "e"}
    assert got.at["b", "starter_edge_lo"] == 0.015 and got.at["b", "starter_edge_hi"] == 0.035
    assert pd.isna(got.at["e", "starter_edge_lo"])


def test_the_band_sentence_gives_sampled_figures_with_their_intervals():
    """Planted bugs: a sampled figure printed without its interval, the count of those
    wholly in the band taken from in_band (2, not 1)."""
    from analysis.audit_words import band_sentence

    found = pd.DataFrame({
        "kind": ["single", "single", "single"], "change": ["strikes=1", "strikes=3",
                                                          "max_turns=39"],
        "in_band": [True, True, False], "interval_in_band": [True, False, False],
        "distance": [0.0, 0.0, 0.03],
        "starter_edge": [0.001, 0.018, 0.05], "starter_edge_lo": [-0.006, 0.011, 0.043],
        "starter_edge_hi": [0.008, 0.025, 0.057]}, index=["v1", "v3", "v39"])
    text = band_sentence("starter_edge in [-0.02, 0.02]", found)
    assert "strikes=1 (+0.0010 [-0.0060, +0.0080])" in text
    assert "each figure with its 95% interval" in text
    assert "Of those, 1 lies in the band with the whole of its 95% interval" in text


@pytest.mark.slow   # three Monte Carlo CFR solves on the process pool
def test_a_band_search_by_monte_carlo_cfr_gives_every_row_its_interval(tmp_path):
    """The sampled audit's band search (robinwood audit --method sampled --target):
    every variant solved by Monte Carlo CFR at the budget given, its starter edge with
    a 95% interval around it. Planted bug: the settings not passed to the sweeps (the
    variants then solved exactly, with no interval)."""
    from sweep.grid import SolveSettings

    settings = SolveSettings(method="mccfr", mccfr_iterations=200, mccfr_seconds=None,
                             rounds=2000, quality_rounds=200)
    got = band_search("rspx:max_turns=3", Target("starter_edge", -0.5, 0.5), tmp_path,
                      options={"strikes"}, pairs=0, workers=2, settings=settings)
    assert len(got) == 3
    lo, hi = got["starter_edge_lo"], got["starter_edge_hi"]
    assert (lo < got["starter_edge"]).all() and (got["starter_edge"] < hi).all()
    assert (hi - lo < 0.1).all()
    assert got["interval_in_band"].all()
    table = pd.read_csv(tmp_path / "strikes" / "variants.csv")
    assert set(table["method"]) == {"mccfr"}


def test_a_search_whose_every_solve_failed_says_so_and_does_not_crash(monkeypatch):
    """Planted bug (seen): meeting() of a table with no finished variant returned a
    frame without `distance`, and ordering it raised KeyError deep inside pandas."""
    from analysis.audit_words import band_sentence
    from sweep import band

    def failed(grid, base_text, name, root, executor, workers, say, stop, settings, seed):
        return pd.DataFrame([{"variant": "x", "status": "failed", "metric": "starter_edge",
                              "value": float("nan")}])

    monkeypatch.setattr(band, "_sweep", failed)
    found = band_search("rspx:max_turns=2", Target("starter_edge", 0, 1), "unused",
                        options={"strikes"})
    assert found.empty
    assert "No single rule change was measured" in band_sentence(
        "starter_edge in [0, 1]", found)


def test_the_band_sentence_says_where_the_audited_variant_itself_lies():
    """Planted bugs: the base's place read against the wrong edge (a value above the
    band said to lie in it), or its interval dropped."""
    from analysis.audit_words import band_sentence

    found = pd.DataFrame({"kind": ["single"], "change": ["strikes=1"], "in_band": [False],
                          "interval_in_band": [False], "distance": [0.03],
                          "starter_edge": [0.05]}, index=["v1"])
    inside = band_sentence("starter_edge in [-0.02, 0.02]", found,
                           base=(0.0136, 0.0038, 0.0234))
    assert "The variant itself lies in the band (starter_edge +0.0136 [+0.0038, " \
        "+0.0234])." in inside
    above = band_sentence("starter_edge in [-0.02, 0.02]", found,
                          base=(0.1667, float("nan"), float("nan")))
    assert "The variant itself lies outside the band (starter_edge +0.1667)." in above
    assert "The variant itself" not in band_sentence("starter_edge in [-0.02, 0.02]", found)
