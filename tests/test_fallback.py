"""The table's fallback rules (solver.players.agents.Fallback): where a table has not
learned, a league player moves instead.

The table is built so that the answer is known at every decision of the exact tree: an
entry with random probabilities for the fine key of most decisions, with visit counts
chosen per decision, and none for the rest. The expected move at each decision is then
worked out here, from that construction alone: the plain table's probabilities where the
entry has enough visits for its decision kind, the league player's (a bot of that name)
everywhere else."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from game_def import _core as k
from robinwood.cli import cli
from robinwood.options import DEFAULT_FALLBACK_TEXT
from solver.mccfr import MCCFRConfig, solve_mccfr
from solver.players import kernels as ka
from solver.players.agents import (AUTO_FALLBACK, DEFAULT_FALLBACK, AgentError, AgentPolicy,
                                   Fallback, bot, load_agent, parse_fallback, table_agent)
from solver.evaluation.tournament import head_to_head
from decision_keys import decisions_with_fine_keys

VARIANT = game_def.parse("rspx:max_turns=3")
CLAIMS = (k.PH_AFTER_PEEK, k.PH_RESPOND)


@pytest.fixture(scope="module")
def built():
    """A table over the fine keys of the tree (a key in five has no entry), random
    probabilities, visits drawn from 0-19; the decisions, in the tree's order."""
    rng = np.random.default_rng(7)
    decisions = list(decisions_with_fine_keys(VARIANT))
    entries = [{}, {}]   # seat -> fine key -> (abstract actions, visits)
    for state, key, count in decisions:
        seat = state.current_player()
        if key not in entries[seat] and rng.random() < 0.8:
            entries[seat][key] = (count, int(rng.integers(0, 20)))
    tables, visits = [], []
    for seat in (0, 1):
        keys = list(entries[seat])
        nact = np.array([entries[seat][key][0] for key in keys], dtype=np.int64)
        offset = np.concatenate([[0], np.cumsum(nact)[:-1]]).astype(np.int64)
        probs = np.concatenate([rng.dirichlet(np.ones(n)) for n in nact]).astype(np.float32)
        tables.append((np.array(keys, dtype=np.int64), offset, nact, probs))
        visits.append(np.array([entries[seat][key][1] for key in keys], dtype=np.int64))
    return tables, visits, entries, decisions


def _policy(agent):
    return AgentPolicy(game_def.load_game(VARIANT), agent)


@pytest.mark.parametrize("player,claims,turns", [("baiter", 10, 10), ("counter", 15, 4),
                                                 ("silent", 0, 20)])
def test_the_fallback_moves_exactly_where_the_entry_is_missing_or_thin(built, player,
                                                                        claims, turns):
    tables, visits, entries, decisions = built
    plain = _policy(table_agent("plain", VARIANT, tables, visits, 10))
    rules = _policy(bot(player))
    hybrid_agent = table_agent("hybrid", VARIANT, tables, visits, 10,
                               fallback=Fallback(player, claims, turns))
    hybrid = _policy(hybrid_agent)
    counts = {"table": 0, "rules": 0, "differ": 0}
    for state, key, _ in decisions:
        seat = state.current_player()
        threshold = claims if state.core_state[k.S_PHASE] in CLAIMS else turns
        entry = entries[seat].get(key)
        learned = entry is not None and entry[1] >= threshold
        want = (plain if learned else rules).action_probabilities(state)
        other = (rules if learned else plain).action_probabilities(state)
        got = hybrid.action_probabilities(state)
        assert got.keys() == want.keys()
        assert np.allclose([got[a] for a in want], list(want.values()), atol=1e-6), (
            state.history(), learned)
        counts["table" if learned else "rules"] += 1
        counts["differ"] += not np.allclose([other[a] for a in want], list(want.values()),
                                            atol=1e-3)
    # both branches are exercised, and they usually disagree (so the check has teeth)
    assert counts["table"] > 100 and counts["rules"] > 100
    assert counts["differ"] > 0.5 * len(decisions)
    # coverage still counts the fallback's decisions as not learned: the policy's own
    # tally of entry-less decisions equals the construction's
    missing = sum(entries[s.current_player()].get(key) is None for s, key, _ in decisions)
    assert hybrid.unlearned == missing and hybrid.table_decisions == len(decisions)


def test_without_a_fallback_the_table_plays_uniformly_where_it_has_no_entry(built):
    tables, visits, entries, decisions = built
    plain = _policy(table_agent("plain", VARIANT, tables, visits, 10))
    for state, key, count in decisions[:2000]:
        if entries[state.current_player()].get(key) is None:
            probs = plain.action_probabilities(state)
            assert len(set(np.round(list(probs.values()), 6))) <= 2   # uniform over classes


def test_a_table_without_visit_counts_falls_back_only_where_it_has_no_entry(built):
    tables, _, entries, decisions = built
    plain = _policy(table_agent("plain", VARIANT, tables))
    rules = _policy(bot("baiter"))
    hybrid = _policy(table_agent("hybrid", VARIANT, tables, fallback=Fallback("baiter", 50)))
    for state, key, _ in decisions[:3000]:
        want = (plain if entries[state.current_player()].get(key) else rules)
        want = want.action_probabilities(state)
        got = hybrid.action_probabilities(state)
        assert np.allclose([got[a] for a in want], list(want.values()), atol=1e-6)


def test_the_fallback_is_what_tournaments_play(built):
    """The numba tournament plays the same hybrid: a table with no entry at all and the
    baiter's rules gets exactly the baiter's result against a bot, round for round."""
    tables, _, _, _ = built
    empty = [(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
              np.zeros(0, np.float32))] * 2
    hybrid = table_agent("empty", VARIANT, empty, fallback=Fallback("baiter"))
    a = head_to_head(VARIANT, hybrid, bot("honest"), rounds=2000, seed=3)
    b = head_to_head(VARIANT, bot("baiter"), bot("honest"), rounds=2000, seed=3)
    assert a.value == b.value
    assert a.coverage_table(0).loc["all", "unlearned"] == 1.0


def test_bad_fallbacks_get_one_line():
    with pytest.raises(AgentError, match="not one of .*baiter"):
        Fallback("uniform")
    with pytest.raises(AgentError, match="threshold_challenger.*not one of|not one of"):
        Fallback("threshold_challenger")
    with pytest.raises(AgentError, match="whole number"):
        Fallback("baiter", -1)
    assert parse_fallback("none") is None
    for fallback in (Fallback(), Fallback("counter", 5), Fallback("tempo", None, 7)):
        assert parse_fallback(str(fallback)) == fallback
    assert parse_fallback(DEFAULT_FALLBACK_TEXT) == AUTO_FALLBACK   # the CLI's default
    assert parse_fallback("counter:visits=50,turn_visits=9") == Fallback("counter", 50, 9)
    with pytest.raises(AgentError, match="unknown fallback option 'visit'"):
        parse_fallback("counter:visit=5")
    with pytest.raises(AgentError, match="not a whole number or 'all'"):
        parse_fallback("counter:visits=many")
    with pytest.raises(AgentError, match="whole number .* or 'all'"):
        Fallback("sound", visits="most")
    # 'all': the rules at every such decision, read back from its text form
    every = parse_fallback("sound:visits=all,turn_visits=1000")
    assert every == Fallback("sound", "all", 1000) == DEFAULT_FALLBACK
    assert parse_fallback(str(every)) == every
    result = CliRunner().invoke(cli, ["tournament", "baiter", "honest", "--fallback", "bogus",
                                      "--rounds", "10"])
    assert result.exit_code == 2 and "fallback player 'bogus'" in result.output
    assert "Traceback" not in result.output


def test_a_run_directory_is_loaded_with_the_fallback_it_is_given(tmp_path):
    """load_agent on a run directory (what `tournament` and `league` call) passes the
    fallback on: it once dropped it, so `tournament RUN RUN --fallback none` played the
    default rules."""
    run = tmp_path / "run"
    solve_mccfr(MCCFRConfig(VARIANT, workers=1, seed=0, batch_iterations=20), run,
                max_iterations=20)
    assert load_agent(str(run), None).fallback is None
    counter = load_agent(str(run), Fallback("counter", 5))
    assert counter.fallback == Fallback("counter", 5)
    assert counter.params[ka.P_FALLBACK] == bot("counter").kind
    assert load_agent(str(run)).fallback == DEFAULT_FALLBACK


def test_coverage_counts_as_learned_only_what_the_table_plays(built):
    """A decision the fallback's rules played is not learned, whatever its entry's
    updates: with the rules at every announcement and response (visits='all') none of
    those is counted learned, though the same table alone learns some of each; at turns
    and powers a threshold above the table's own moves decisions from learned to thin.
    Catches coverage counted by the entry's updates alone, as it once was."""
    tables, visits, _, _ = built
    alone = table_agent("t", VARIANT, tables, visits, 10)
    claims_by_rules = table_agent("t", VARIANT, tables, visits, 10,
                                  fallback=Fallback("sound", "all", 0))
    strict = table_agent("t", VARIANT, tables, visits, 10,
                         fallback=Fallback("sound", 0, 1_000))
    cover = {name: head_to_head(VARIANT, agent, bot("honest"), rounds=400,
                                seed=3).coverage_table(0)
             for name, agent in (("alone", alone), ("claims", claims_by_rules),
                                 ("strict", strict))}
    for kind in ("after peek", "respond"):
        assert cover["alone"].loc[kind, "learned"] > 0
        assert cover["claims"].loc[kind, "learned"] == 0
        assert cover["claims"].loc[kind, "thin"] > 0
    for kind in ("turn", "power"):
        assert cover["alone"].loc[kind, "learned"] > 0
        assert cover["strict"].loc[kind, "learned"] == 0
