"""The audit (analysis.audit, `robinwood audit`): the skill ladder's matrix against an
independent reach walk, a player against itself at the fair share, the seats against the
exact statistics, the first screen's sentences, bad input as one line.

Planted bugs these catch: the ladder's seat-1 share read with the wrong sign
(value instead of value.T: the reach walk disagrees off the diagonal), a draw counted as
0 in a win share (the seats' shares would not sum to 1 on a variant that draws), the
strongest player picked as the weakest (the sentence names uniform as strongest)."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from analysis.audit import AuditError, audit, check_variant
from analysis.audit_words import first_screen
from analysis.equilibrium import solve
from analysis.seat_balance import seat_balance
from analysis.skill_ladder import skill_ladder
from robinwood.cli import cli
from solver.evaluation.table_strength import draw_probability, mixed, win_probabilities
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.exact.tree import uniform_strategy

SPEC = "rspx:max_turns=3"


def _random_strategy(tree, seed):
    w = np.random.default_rng(seed).random(tree.num_action_slots) + 0.05
    sums = np.add.reduceat(w, tree.infoset_offset.astype(np.int64))
    return w / np.repeat(sums, tree.infoset_num_actions)


@pytest.fixture(scope="module")
def small():
    variant = game_def.parse(SPEC)
    tree = build_robinwood_tree(variant)
    strategies = {"uniform": uniform_strategy(tree), "random": _random_strategy(tree, 1),
                  "equilibrium": solve(tree, 1e-4).strategy}
    return variant, tree, strategies


def test_the_ladder_equals_a_reach_walk_and_a_player_against_itself_gets_half(small):
    variant, tree, strategies = small
    ladder = skill_ladder(variant, tree, strategies)
    m = ladder.matrix
    assert np.allclose(np.diag(m.to_numpy()), 0.5, atol=1e-12)   # against its copies
    assert np.allclose(m.to_numpy() + m.to_numpy().T, 1.0, atol=1e-12)
    for a in strategies:
        for b in strategies:
            shares = []
            for seat in (0, 1):   # a in `seat`, b in the other: wins + draws / 2
                profile = mixed(tree, strategies[a], strategies[b], (seat,))
                shares.append(win_probabilities(tree, profile)[seat]
                              + draw_probability(tree, profile) / 2)
            assert m.at[a, b] == pytest.approx(np.mean(shares), abs=1e-12)
    pays = ladder.skill_pays()
    assert pays["strongest"] == "equilibrium" and pays["weakest"] != "equilibrium"
    assert pays["over_weakest"] > 0.05


def test_the_seats_read_the_exact_statistics_and_their_shares_sum_to_one():
    variant = game_def.parse("rspmx:max_turns=3")   # 22% of its rounds are drawn
    tree = build_robinwood_tree(variant, symmetric=True)
    solved = solve(tree, 1e-5)
    seats, metrics = seat_balance(variant, tree, solved, symmetric=True)
    assert seats["win_share"].sum() == pytest.approx(1.0, abs=1e-9)
    assert seats.at[0, "draws"] > 0.01   # the variant draws: a draw must count 1/2
    for seat in (0, 1):
        r = seats.loc[seat]
        assert r["win_share"] == pytest.approx(r["wins"] + r["draws"] / 2, abs=1e-9)
        assert r["win_share_lo"] <= r["win_share"] + 1e-9 <= r["win_share_hi"] + 2e-9
    # the starter's value is +1/3 (docs/locks.md): an edge of +1/6
    assert metrics["starter_edge"] == pytest.approx(1 / 6, abs=1e-4)
    assert 0.5 < metrics["starter_match_win"] < 1
    assert 0 < metrics["decisiveness"] <= 1 and metrics["lead_changes"] >= 0


def test_bad_variants_are_one_line_and_exit_2():
    for text, needle in (("standard", "more than 20,000,000 nodes"),
                         ("rspx:players=3,max_turns=2", "two-player variants"),
                         ("nonsense", "unknown deck")):
        with pytest.raises(AuditError, match=needle):
            check_variant(text)
        result = CliRunner().invoke(cli, ["audit", text, "--method", "exact"])
        assert result.exit_code == 2 and needle in result.output
        assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [["--exploitability", "0"], ["--exploitability", "abc"],
                                  ["--full-exploitability", "1.5"], ["--out", "/proc/nope"],
                                  ["--target", "starter_edge"], ["--target", "x in [0,1]"],
                                  ["--workers", "0"]])
def test_bad_options_are_one_line_and_exit_2(args):
    result = CliRunner().invoke(cli, ["audit", "Robin+Peasant+Traitor:max_turns=1", *args])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


@pytest.mark.slow   # writing every scripted player onto the tree compiles a walk (~60 s)
def test_the_audit_command_writes_the_page_and_its_first_screen_answers(tmp_path):
    out = tmp_path / "audit"
    result = CliRunner().invoke(cli, ["audit", SPEC, "--out", str(out)])
    assert result.exit_code == 0, result.output
    for name in ("index.html", "report.md", "seats.csv", "metrics.csv",
                 "restricted_play.csv", "skill_ladder.csv", "strength.csv",
                 "restricted_play.png", "skill_ladder.png"):
        assert (out / name).exists(), name
    text = (out / "report.md").read_text()
    assert "The player who starts is favoured" in text and "Skill pays" in text
    assert "matters most" in text and "Costing nothing" in text
    result = audit(SPEC, ladder=("uniform", "sound"))
    screen = first_screen(result)
    assert "strongest over the round robin (uniform" not in screen[1]
    assert result.ladder.matrix.loc["sound", "sound"] == pytest.approx(0.5, abs=1e-12)
