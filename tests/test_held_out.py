"""The scripted players held out for evaluation (solver.evaluation.league.HELD_OUT,
docs/bots.md, "Held out"): they play as documented in scenario states, legally and from
their own information only, gain at most the exact exploitability; training refuses
them; `measure` and the report state their results apart from the league's."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import game_def
from game_def import _core as k
from robinwood.cli import cli
from solver.evaluation.abstraction_cost import project
from solver.evaluation.league import HELD_OUT, LEAGUE
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.mccfr.trainer import MCCFRConfig, MCCFRError
from solver.players.agents import BOT_NAMES, FALLBACK_PLAYERS, AgentError, Fallback, bot
from solver.scripted import FALLBACK_RULE_KINDS, HELD_OUT_KINDS, LEAGUE_KINDS
from solver.scripted import kernels as lg

from test_league import _sweep

RSPX4 = game_def.parse("rspx:max_turns=4")
# 0 Robin, 1 Sheriff, 2 Peasant, 3 Deputy, 4 Companion, 5 Trickster, 6 Traitor (face up)
CAMPS = "Robin+Sheriff+Peasant+Deputy+Companion+Trickster+Traitor"


def _load(layout: str):
    return game_def.load_game(f"{layout}:layout={layout}")


def _named(game, state, name):
    from solver.players.agents import AgentPolicy
    probs = AgentPolicy(game, bot(name)).action_probabilities(state)
    assert sum(probs.values()) == pytest.approx(1.0)
    assert set(probs) == set(state.legal_actions())
    return {state.action_to_string(state.current_player(), a): pytest.approx(p)
            for a, p in probs.items() if p > 0}


def _even(*actions):
    return {a: pytest.approx(1 / len(actions)) for a in actions}


# ----- what they are -----------------------------------------------------------------
def test_held_out_players_are_new_kinds_outside_the_league_and_training():
    assert set(HELD_OUT) == set(HELD_OUT_KINDS) and len(HELD_OUT) >= 3
    assert not set(HELD_OUT) & set(LEAGUE) and not set(HELD_OUT) & set(BOT_NAMES)
    assert not set(HELD_OUT) & set(FALLBACK_PLAYERS)
    # the league's kinds are unchanged; the held-out ones follow them, up to LAST_KIND,
    # by membership: the fallback rules' kind (CLAIM_COUNTER) sits among them
    assert sorted(LEAGUE_KINDS.values()) == list(range(lg.FIRST_KIND, lg.FIRST_HELD_OUT_KIND))
    held = sorted(HELD_OUT_KINDS.values())
    assert len(set(held)) == len(held)
    assert lg.FIRST_HELD_OUT_KIND == held[0] and held[-1] == lg.LAST_KIND
    assert not set(held) & set(FALLBACK_RULE_KINDS.values())
    assert {bot(n).kind for n in HELD_OUT} == set(HELD_OUT_KINDS.values())
    with pytest.raises(AgentError):
        Fallback("mirror")


# ----- legality everywhere ------------------------------------------------------------
def test_held_out_players_play_legal_normalised_probabilities_on_every_deck():
    phases = set()
    for deck in ("standard", "rspx", "rspmx", "duel6", "duel8"):
        phases |= _sweep(game_def.parse(f"{deck}:max_turns=20"), rounds=6, seed=len(deck),
                         players=HELD_OUT, opponents=BOT_NAMES + HELD_OUT)
    assert {k.PH_TURN, k.PH_AFTER_PEEK, k.PH_RESPOND, k.PH_REVEAL} <= phases


# Exact gains against heuristic and uniform play, and one distribution per information
# state on the exact tree: tests/test_league.py, with the league's players.


def test_held_out_players_use_only_their_own_information_with_the_witch():
    variant = game_def.parse("duel8:max_turns=1")
    tree = build_robinwood_tree(variant, symmetric=False)
    for name in HELD_OUT:
        project(bot(name), variant, tree)    # raises on an inconsistent information state


# ----- behaviour in scenario states ------------------------------------------------------
def test_mirror_challenges_everything_unconfirmed_once_behind_on_strikes():
    g = _load(CAMPS)
    name = "mirror"
    assert _named(g, game_def.play(g, "peek 0"), name) == {"announce Robin": 1}
    assert _named(g, game_def.play(g, "peek 2"), name) == {"silent": 1}
    # level on strikes: only claims it knows are false
    assert _named(g, game_def.play(g, "peek 2", "announce Robin"), name) == {"pass": 1}
    seen = game_def.play(g, "peek 0", "silent", "peek 4", "silent", "peek 4")
    assert _named(g, game_def.play(seen, "announce Peasant"), name) == {"challenge": 1}
    # seat 1 challenges a true Companion claim: a strike for it, seat 0 plays again
    behind = game_def.play(g, "peek 4", "announce Companion", "challenge")
    assert "strikes 0,1" in str(behind)
    assert _named(g, game_def.play(behind, "peek 2", "announce Peasant"), name) == {
        "challenge": 1}
    assert _named(g, game_def.play(behind, "peek 0", "announce Robin"), name) == {
        "challenge": 1}
    # the truthful challenger in the same spot passes a Peasant claim it cannot check
    assert _named(g, game_def.play(behind, "peek 2", "announce Peasant"),
                  "truthful_challenger") == {"pass": 1}


def test_careful_tells_the_truth_but_hides_unsure_leaders():
    g = _load(CAMPS)
    name = "careful"
    assert _named(g, game_def.play(g, "peek 0"), name) == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 1"), name) == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 2"), name) == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 3"), name) == {"announce Deputy": 1}
    assert _named(g, game_def.play(g, "peek 4"), name) == {"announce Companion": 1}
    assert _named(g, game_def.play(g, "peek 5"), name) == {"announce Peasant": 1}
    # seat 0 locates the Sheriff's camp: then Robin is announced (a sure win)
    located = game_def.play(g, "peek 1", "silent", "peek 2", "silent", "peek 3", "silent",
                            "peek 2", "silent")
    assert _named(g, game_def.play(located, "peek 0"), name) == {"announce Robin": 1}
    # challenges only claims of characters it knows are out of play there
    assert _named(g, game_def.play(g, "peek 2", "announce Robin"), name) == {"pass": 1}
    knows = game_def.play(g, "peek 1", "silent", "peek 0", "silent", "peek 2")
    assert _named(g, game_def.play(knows, "announce Robin"), name) == {"challenge": 1}
    assert _named(g, game_def.play(knows, "announce Companion"), name) == {"pass": 1}


def test_late_bluffer_bluffs_leaders_after_its_first_strike():
    g = _load(CAMPS)
    name = "late_bluffer"
    assert _named(g, game_def.play(g, "peek 2"), name) == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 4"), name) == {"announce Companion": 1}
    assert _named(g, game_def.play(g, "peek 3"), name) == {"announce Deputy": 1}
    # seat 0 is caught lying (a strike), then seat 1 passes its turn silently
    struck = game_def.play(g, "peek 2", "announce Robin", "challenge")
    while struck.current_player() != 0:
        struck = game_def.play(struck, struck.action_to_string(
            struck.current_player(), struck.legal_actions()[0]))
    state = game_def.play(struck, "peek 3")
    got = _named(g, state, name)
    assert got == _named(g, state, "leader_bluffer")
    assert set(got) <= {"announce Robin", "announce Sheriff"}
    # it challenges only claims it knows are false
    assert _named(g, game_def.play(g, "peek 2", "announce Robin"), name) == {"pass": 1}
    seen = game_def.play(g, "peek 0", "silent", "peek 4", "silent", "peek 4")
    assert _named(g, game_def.play(seen, "announce Peasant"), name) == {"challenge": 1}


def test_peek_hoarder_unmasks_once_it_has_located_a_target_card():
    g = _load(CAMPS)
    name = "peek_hoarder"
    for pos in (0, 1, 2, 3, 4):
        assert _named(g, game_def.play(g, f"peek {pos}"), name) == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 5"), name) == _even("announce Robin",
                                                                 "announce Sheriff")
    # having seen the Deputy (one of Robin's targets), Robin is announced at once
    deputy = game_def.play(g, "peek 3", "silent", "peek 2", "silent")
    assert _named(g, game_def.play(deputy, "peek 0"), name) == {"announce Robin": 1}
    # knowing Robin but none of his targets, it peeks cards it cannot place
    robin = game_def.play(g, "peek 0", "silent", "peek 2", "silent")
    assert _named(g, robin, name) == _even(*(f"peek {p}" for p in range(1, 6)))
    # knowing Robin and a Deputy, it peeks Robin to unmask
    both = game_def.play(robin, "peek 3", "silent", "peek 2", "silent")
    assert _named(g, both, name) == {"peek 0": 1}
    reveal = game_def.play(both, "peek 0", "announce Robin", "pass")
    assert _named(g, reveal, name) == {"reveal 3": 1}
    # challenges claims card counting makes impossible
    knows = game_def.play(g, "peek 1", "silent", "peek 0", "silent", "peek 2")
    assert _named(g, game_def.play(knows, "announce Robin"), name) == {"challenge": 1}
    assert _named(g, game_def.play(knows, "announce Companion"), name) == {"pass": 1}


def test_proportional_challenges_with_the_probability_a_claim_is_false():
    g = _load(CAMPS)
    name = "proportional"
    assert _named(g, game_def.play(g, "peek 0"), name) == {"announce Robin": 1}
    # nothing located: P(a Peasant claim is false) = 5/6
    claim = game_def.play(g, "peek 2", "announce Peasant")
    assert _named(g, claim, name) == {"challenge": pytest.approx(5 / 6),
                                      "pass": pytest.approx(1 / 6)}
    # seat 1 has located the Sheriff, the Deputy and the Companion: P(false) = 2/3
    seen = game_def.play(g, "peek 0", "silent", "peek 1", "silent", "peek 0", "silent",
                         "peek 3", "silent", "peek 0", "silent", "peek 4", "silent", "peek 2",
                         "announce Peasant")
    assert _named(g, seen, name) == {"challenge": pytest.approx(2 / 3),
                                     "pass": pytest.approx(1 / 3)}
    known = game_def.play(g, "peek 0", "silent", "peek 4", "silent", "peek 4")
    assert _named(g, game_def.play(known, "announce Companion"), name) == {"pass": 1}
    assert _named(g, game_def.play(known, "announce Peasant"), name) == {"challenge": 1}


# ----- training refuses them ------------------------------------------------------------
@pytest.mark.parametrize("name", HELD_OUT)
def test_training_refuses_a_held_out_player(name):
    with pytest.raises(MCCFRError, match=f"{name} is held out for evaluation: training may "
                                         f"not meet it; choose from truthful_challenger"):
        MCCFRConfig(RSPX4, league_opponents=("tempo", name), league_share=0.2)


def test_cli_training_never_meets_held_out_players(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--algo", "mccfr",
        "--iterations", "200", "--league-opponents", "tempo,baiter",
        "--league-share", "0.25", "--workers", "1", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    meta = json.loads((out / "metadata.json").read_text())
    met = meta["algorithm"]["league_opponents"]
    assert met == ["tempo", "baiter"] and not set(met) & set(HELD_OUT)
    refused = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--algo", "mccfr",
        "--iterations", "200", "--league-opponents", "tempo,mirror",
        "--league-share", "0.25", "--workers", "1", "--out", str(tmp_path / "no")])
    assert refused.exit_code == 2, refused.output
    assert "mirror is held out for evaluation: training may not meet it" in refused.output
    assert not (tmp_path / "no" / "table.npz").exists()


# ----- reported apart -----------------------------------------------------------------
def test_exploit_and_report_state_held_out_results_apart(tmp_path):
    from analysis.strength_notes import beaten_by_method, caveat, strength_tables

    run = tmp_path / "run"
    result = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--algo", "mccfr",
        "--iterations", "200", "--workers", "1", "--out", str(run)])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, ["exploit", str(run), "--rounds", "200",
                                      "--lbr-rounds", "0"])
    assert result.exit_code == 0, result.output
    strength = json.loads((run / "strength.json").read_text())
    methods = {row["opponent"]: row["method"] for row in strength["opponents"]}
    assert {n for n, m in methods.items() if m == "held-out"} == set(HELD_OUT)
    assert {n for n, m in methods.items() if m == "league"} == set(LEAGUE)
    counts = beaten_by_method(strength)
    won, total = counts["held-out"]
    assert total == len(HELD_OUT)
    league_won = counts["league"][0]
    assert (f"beats {league_won} of {len(LEAGUE)} league players and {won} of "
            f"{len(HELD_OUT)} held-out players") in result.output
    meta = json.loads((run / "metadata.json").read_text())
    text = caveat(meta, strength)
    assert (f"It beats {league_won} of {len(LEAGUE)} league players and {won} of "
            f"{len(HELD_OUT)} held-out players (never met in training) with 95% "
            f"confidence") in text
    gains, _ = strength_tables(strength)
    assert set(gains[gains["method"] == "held-out"].index) == set(HELD_OUT)
    # an old file without held-out rows still reads, and says nothing of them
    strength["opponents"] = [r for r in strength["opponents"] if r["method"] != "held-out"]
    assert "held-out" not in beaten_by_method(strength)
    text = caveat(meta, strength)
    assert "league players with 95% confidence" in text and "held-out players" not in text
    strength_tables(strength)


def test_the_summary_says_how_much_of_the_play_is_learned():
    """The report's opening names the fallback and the share of self-play decisions on
    learned entries, so that a reader knows whose frequencies follow: the table's or the
    rules'. A file without self-play coverage says nothing of it."""
    from analysis.strength_notes import caveat

    meta = {"kind": "mccfr", "iterations": 9600, "seconds": 420}
    coverage = [{"decision": "turn", "decisions": 10, "learned": 0.2},
                {"decision": "all", "decisions": 100, "learned": 0.38, "thin": 0.5,
                 "unlearned": 0.12}]
    strength = {"exploitability_lower_bound": 0.5,
                "exploitability_lower_bound_half_width": 0.05, "strongest": "x",
                "opponents": [{"opponent": "x", "method": "bot", "gain": 0.5,
                               "gain_lo": 0.45, "gain_hi": 0.55}],
                "fallback": {"player": "sound"}, "coverage": {"self-play": coverage}}
    text = caveat(meta, strength)
    assert ("the sound default (docs/sound-play.md) elsewhere (docs/mccfr.md): 38% of its "
            "self-play decisions land on learned table entries and the rest (62%)") in text
    assert "describe mostly the fallback" in text
    coverage[-1]["learned"] = 0.9
    assert "describe mostly the table" in caveat(meta, strength)
    del strength["coverage"]
    assert "(docs/mccfr.md). " in caveat(meta, strength)
    strength["fallback"] = {"player": "baiter"}
    assert "the baiter's rules elsewhere (docs/mccfr.md). " in caveat(meta, strength)


@pytest.mark.parametrize("gain, verdict", [(-0.10, "so the table adds to the default"),
                                           (0.10, "so the table takes away from the default"),
                                           (0.01, "so it cannot be told from the default")])
def test_the_summary_says_whether_the_table_adds_to_the_default(gain, verdict):
    """exploit measures the sound default alone (method "default"); the summary reads
    its gain as the strategy's score with the interval turned round, and says whether
    the table adds to what it falls back on."""
    from analysis.strength_notes import beaten_sentence

    rows = [{"opponent": "baiter", "method": "league", "gain": -0.5, "gain_lo": -0.55,
             "gain_hi": -0.45},
            {"opponent": "sound", "method": "default", "gain": gain,
             "gain_lo": gain - 0.03, "gain_hi": gain + 0.03}]
    text = beaten_sentence({"opponents": rows})
    assert (f"it scores {-gain:+.3f} a round (95% {-gain - 0.03:+.3f} to "
            f"{-gain + 0.03:+.3f}), {verdict}") in text
