"""The audit by Monte Carlo CFR and play (analysis.audit_sampled, `robinwood audit
--method sampled`), on decks small enough to train in seconds.

Planted bugs these catch (each tried): a draw counted as 0 in a side's share (the
shares then sum to less than 1 on a variant that draws); the restriction not applied in
training (never challenging then costs nothing, where the exact audit says it costs a
third of a round's win share); a finished piece retrained on --resume (the
monkeypatched trainer raises); a resume with other settings accepted; a page written
again by --rewrite that differs from the one measured (the time of measuring replaced
by the time of writing, or the decisiveness left out).
"""

from __future__ import annotations

import dataclasses

import pytest
from click.testing import CliRunner

from analysis import audit_sampled as sampled
from analysis.audit_sampled import SampledAuditError, SampledSettings, sampled_audit
from analysis.audit_words import first_screen
from robinwood.cli import cli

SPEC = "rspx:max_turns=3"
# the tables play their own entries once visited (the project's default plays the sound
# default at every claim and response, which on this deck never challenges at all)
TINY = SampledSettings(iterations=300, rounds=3000, ladder_rounds=200, search_rounds=0,
                       seed=0,
                       restrictions=("never_challenge", "never_claim_peasant"),
                       fallback="sound:visits=1,turn_visits=1")


@pytest.fixture(scope="module")
def audited(tmp_path_factory):
    work = tmp_path_factory.mktemp("audit")
    return work, sampled_audit(SPEC, work, TINY)


def test_the_seats_count_a_draw_as_the_fair_share(audited):
    _, result = audited
    seats = result.seats
    assert seats["win_share"].sum() == pytest.approx(1.0, abs=1e-9)
    assert (seats["fair_share"] == 0.5).all()
    m = result.metrics
    assert m["starter_edge_lo"] < m["starter_edge"] < m["starter_edge_hi"]
    assert 0 <= m["starter_match_win"] <= 1 and 0 <= m["learned_share"] <= 1
    assert 0 < m["decisiveness"] <= 1 and m["lead_changes"] >= 0


def test_a_share_counts_a_draw_as_the_fair_share_on_a_synthetic_table():
    """Rounds: 30% won, 40% drawn, 30% lost at three seats: the share is 0.3 + 0.4/3,
    and the per-round variance that of outcomes 1, 1/3, 0 with those weights."""
    share, variance = sampled._share_interval(0.3, 0.4, 1 / 3)
    assert share == pytest.approx(0.3 + 0.4 / 3, abs=1e-12)
    outcomes = [(1.0, 0.3), (1 / 3, 0.4), (0.0, 0.3)]
    assert variance == pytest.approx(sum(w * (x - share) ** 2 for x, w in outcomes),
                                     abs=1e-12)


def test_never_challenging_costs_what_the_exact_audit_says(audited):
    """Exact (tests/test_forbid.py): seat 0 never challenging moves its value from +1/3
    to -1/3, a third of a round's win share; by play it must cost clearly more than
    nothing in both seats. Never claiming the Peasant (a card a player announces when
    it has nothing better) is measured too; its sign is not asserted."""
    _, result = audited
    r = result.restricted.set_index(["restriction", "side"])
    for side in (0, 1):
        row = r.loc[("never_challenge", side)]
        assert row["lost_lo"] > 0.1, row
        assert row["lost_lo"] < row["share_lost"] < row["lost_hi"]
    assert len(result.restricted) == 4


def test_the_ladder_puts_a_player_against_itself_at_the_fair_share(audited):
    _, result = audited
    ladder = result.ladder
    for name in ladder.matrix.index:
        share = ladder.matrix.at[name, name]
        width = ladder.half_width.at[name, name]
        assert abs(share - 0.5) <= 2 * width + 0.02, (name, share, width)
    assert "table" in ladder.matrix.index and "sound" in ladder.matrix.index
    screen = first_screen(result)
    assert "self-play" in screen[0] and "Skill" in screen[1] and "matters most" in screen[2]


def test_resume_reads_the_finished_pieces_and_refuses_other_settings(audited, monkeypatch):
    work, first = audited

    with pytest.raises(SampledAuditError, match="--resume"):
        sampled_audit(SPEC, work, TINY)
    with pytest.raises(SampledAuditError, match="other settings"):
        sampled_audit(SPEC, work, dataclasses.replace(TINY, iterations=301), resume=True)
    monkeypatch.setattr(sampled, "train", lambda variant, folder, *a, **k: folder)

    real_side_share = sampled.side_share

    def played_again(*args, **kwargs):
        raise AssertionError("the free game's shares were played again")

    # planted bug caught: the free shares played on every resume (before any row needs
    # them), not when a row does
    monkeypatch.setattr(sampled, "side_share", played_again)
    again = sampled_audit(SPEC, work, TINY, resume=True)
    # the resumed audit's time is both runs' (planted bug caught: the last run's alone)
    assert again.settings["runs"] == 2
    assert again.seconds["restricted_play"] >= first.seconds["restricted_play"]
    assert again.restricted.equals(first.restricted)
    assert again.ladder.matrix.equals(first.ladder.matrix)
    # one row lost: the resume plays that row's restricted game, and reads the free
    # game's share it is compared with (planted bug caught: the free share not kept,
    # so played again: two calls)
    (work / "restricted" / "never_challenge-side0.json").unlink()
    calls = []

    def counted(*args, **kwargs):
        calls.append(args[3])
        return real_side_share(*args, **kwargs)

    monkeypatch.setattr(sampled, "side_share", counted)
    third = sampled_audit(SPEC, work, TINY, resume=True)
    assert len(calls) == 1
    assert third.restricted.equals(first.restricted)
    with pytest.raises(SampledAuditError, match="unknown restriction"):
        sampled_audit(SPEC, work.parent / "other", SampledSettings(
            iterations=10, restrictions=("never_sneeze",)))


def test_the_ladder_takes_the_table_with_search_as_one_more_row(audited, monkeypatch):
    """The free table with play-time search against every ladder player, 3 rounds a
    seat: each cell is the searcher's seat-averaged share from its own play_search
    result, (1 + value) / 2, its column the other side of the same rounds (1 minus the
    row), its diagonal blank, and its mean over the round robin leaves the blank out.
    Planted bugs caught: the column written as the row's share (the two do not add to
    1); the blank diagonal counted in the mean (a NaN mean); the row played again on a
    resume (the monkeypatched search raises)."""
    import numpy as np

    from solver.search import Searcher, play_search

    work, first = audited
    settings = dataclasses.replace(TINY, search_rounds=3)
    free = settings.load(work / "free")
    variant = first.variant
    ladder = sampled.ladder_section(variant, work, free, settings, lambda line: None)
    m = ladder.matrix
    names = list(first.ladder.matrix.index)
    assert list(m.index) == names + [sampled.SEARCHED] == list(m.columns)
    assert m.loc[names, names].equals(first.ladder.matrix)
    row, column = m.loc[sampled.SEARCHED, names], m.loc[names, sampled.SEARCHED]
    assert np.allclose(row.to_numpy() + column.to_numpy(), 1.0)
    assert np.isnan(m.at[sampled.SEARCHED, sampled.SEARCHED])
    j = names.index("uniform")
    direct = play_search(Searcher(free), sampled.ladder_players(variant, free)["uniform"],
                         rounds=3, seed=sampled.LADDER_SEED + 100 * (len(names) ** 2 + j))
    assert row["uniform"] == pytest.approx((1 + direct.value) / 2, abs=1e-12)
    assert ladder.half_width.at[sampled.SEARCHED, "uniform"] == pytest.approx(
        direct.half_width / 2, abs=1e-12)
    mean = ladder.strength()[sampled.SEARCHED]
    assert mean == pytest.approx(row.mean(), abs=1e-12)

    def searched_again(*args, **kwargs):
        raise AssertionError("the searched row was played again")

    monkeypatch.setattr(sampled, "search_pair", searched_again)
    again = sampled.ladder_section(variant, work, free, settings, lambda line: None)
    assert again.matrix.equals(m)
    result = dataclasses.replace(first, ladder=ladder,
                                 settings={**first.settings, "search_rounds": 3})
    assert "holds the table with play-time search (3 rounds a seat" in \
        first_screen(result)[-1]
    assert "--search-rounds N adds it" in first_screen(first)[-1]


def test_restricted_games_and_their_free_reference_share_a_smaller_budget(
        audited, tmp_path, monkeypatch):
    """restricted_iterations below the free game's: each restricted game is trained at
    it, and its row compares with the free game trained again at it (same seed), played
    on the row's seeds. At the free game's budget no second free game is trained.
    Planted bugs caught: the restricted games trained at the full budget (their
    metadata says 400); the rows compared with the full-budget free game (it is then
    the one played); a budget above the free game's used as given (the property says
    900)."""
    work, first = audited
    assert not (work / "free-restricted").exists()
    assert first.settings["restricted_iterations"] == TINY.iterations
    settings = dataclasses.replace(TINY, iterations=400, restricted_iterations=200,
                                   restrictions=("never_challenge",))
    assert dataclasses.replace(settings, restricted_iterations=900).restricted_budget == 400
    variant = first.variant
    free = settings.load(sampled.train(variant, tmp_path / "free", 400, settings.seed))
    played = []
    real_side_share = sampled.side_share

    def recorded(variant, agent, opponent, *args):
        played.append(agent)
        return real_side_share(variant, agent, opponent, *args)

    monkeypatch.setattr(sampled, "side_share", recorded)
    rows = sampled.restricted_section(variant, tmp_path, free, settings, lambda line: None)
    assert all(agent is not free for agent in played) and len(played) == 4
    meta = sampled._read_json
    assert meta(tmp_path / "free-restricted" / "metadata.json")["iterations"] == 200
    reference = settings.load(tmp_path / "free-restricted")
    for side in (0, 1):
        run = tmp_path / "restricted" / f"never_challenge-side{side}"
        assert meta(run / "metadata.json")["iterations"] == 200
        row = rows.set_index("side").loc[side]
        share, _ = real_side_share(variant, reference, reference, (side,),
                                   settings.rounds, sampled.LADDER_SEED + 11 + side)
        assert row["free_share"] == pytest.approx(share, abs=1e-12)


def test_search_in_the_ladder_is_refused_where_it_cannot_play():
    """Exact audits and tables of more than two seats get one line each, before any
    work."""
    runner = CliRunner()
    result = runner.invoke(cli, ["audit", SPEC, "--search-rounds", "3"])
    assert result.exit_code == 2 and "--method sampled" in result.output
    result = runner.invoke(cli, ["audit", "standard:players=3", "--search-rounds", "3"])
    assert result.exit_code == 2 and "two seats" in result.output


def test_three_seats_are_audited_against_a_third():
    import tempfile

    with tempfile.TemporaryDirectory() as work:
        result = sampled_audit("rspx:players=3,max_turns=2", work, SampledSettings(
            iterations=100, rounds=1000, ladder_rounds=50,
            restrictions=("never_challenge",)))
    assert result.seats["fair_share"].iloc[0] == pytest.approx(1 / 3)
    assert result.seats["win_share"].sum() == pytest.approx(1.0, abs=1e-9)
    assert len(result.restricted) == 3 and result.ladder.fair_share == pytest.approx(1 / 3)


def test_the_command_writes_the_sampled_page_and_refuses_a_band(tmp_path):
    out, work = tmp_path / "page", tmp_path / "work"
    args = ["audit", SPEC, "--method", "sampled", "--iterations", "100", "--rounds",
            "500", "--ladder-rounds", "20", "--restrictions", "never_challenge",
            "--out", str(out), "--work", str(work)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    for name in ("index.html", "report.md", "seats.csv", "restricted_play.csv",
                 "skill_ladder.csv", "skill_ladder_half_width.csv"):
        assert (out / name).exists(), name
    assert "Monte Carlo CFR" in (out / "report.md").read_text()
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "--resume" in result.output
    result = CliRunner().invoke(cli, args + ["--resume"])
    assert result.exit_code == 0, result.output
    page = (out / "report.md").read_text()
    assert "decisiveness" in page and "| learned share |" in page
    # --rewrite writes the same page from the tables alone, the time it was measured kept
    import json

    info = json.loads((out / "audit.json").read_text())
    page = page.replace(f"generated {info['generated']}", "generated 2000-01-01 00:00")
    info["generated"] = "2000-01-01 00:00"
    (out / "audit.json").write_text(json.dumps(info))
    (out / "report.md").write_text("stale")
    result = CliRunner().invoke(cli, ["audit", SPEC, "--rewrite", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "report.md").read_text() == page
    result = CliRunner().invoke(cli, ["audit", "rspx", "--rewrite", "--out", str(out)])
    assert result.exit_code == 2 and "not rspx" in result.output
    result = CliRunner().invoke(cli, ["audit", SPEC, "--rewrite", "--out", str(work)])
    assert result.exit_code == 2 and "holds no audit page" in result.output


def test_the_first_screen_names_a_later_seat_off_its_fair_share():
    """Three seats, synthetic shares: the starter within its interval, seat 2 below it
    beyond its interval, named with its place in the turn order (planted bug caught:
    the place counted from seat 0 rather than from the first player)."""
    import types

    import pandas as pd

    import game_def
    from analysis.audit_words import sampled_seats_sentence

    fair = 1 / 3
    rows = []
    for side, share, hw in ((0, 0.36, 0.03), (1, 0.34, 0.03), (2, 0.30, 0.01)):
        rows.append({"side": side, "seats": str(side), "starts": side == 1,
                     "win_share": share, "win_share_lo": share - hw,
                     "win_share_hi": share + hw, "fair_share": fair, "edge": share - fair,
                     "edge_lo": share - hw - fair, "edge_hi": share + hw - fair,
                     "wins": share, "losses": 1 - share, "draws": 0.0, "rounds": 1000})
    seats = pd.DataFrame(rows).set_index("side")
    starter = seats.loc[1]
    metrics = {"starter_edge": starter["edge"], "starter_edge_lo": starter["edge_lo"],
               "starter_edge_hi": starter["edge_hi"], "drawishness": 0.0, "duration": 12.0,
               "learned_share": 0.02, "decisiveness": 0.9, "lead_changes": 0.3,
               "starter_match_win": float("nan")}
    audit = types.SimpleNamespace(seats=seats, metrics=metrics,
                                  variant=game_def.parse("standard:players=3,first_player=1"),
                                  settings={"fair_share": fair, "rounds": 1000,
                                            "fallback": "auto"})
    text = sampled_seats_sentence(audit)
    assert "seat 2 (plays second) below it by 3.3 points" in text, text
    assert "seat 0 (plays" not in text and "neither favoured" in text
    assert "decisiveness" in text
