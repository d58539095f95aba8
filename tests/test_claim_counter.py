"""The claim counter (docs/bots.md, "Fallback rules"): the baiter's claims, but it
challenges only a claim it has ruled out, or one that the cards it has located plus the
other public claims of that character already over-count (then some claim of it is
false, not necessarily this one). It plays where a table has not learned at three or four seats and in
teams (solver.players.agents.TABLE_FALLBACK), chosen by table size (`default_fallback`).
Scenario states are driven through action strings; its challenges equal a plain-Python
twin reading information-state strings; its probabilities are legal at every
table size; it reads only its own information."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from game_def import _core as k
from game_def.core import rules_array
from robinwood.cli import cli
from robinwood.options import DEFAULT_FALLBACK_TEXT
from solver.evaluation.abstraction_cost import project
from solver.evaluation.table_play import table_play
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.mccfr import _abstraction as ab
from solver.mccfr.job import solve_mccfr
from solver.mccfr.trainer import MCCFRConfig
from solver.players import _kernels as ka
from solver.players.agents import (AUTO_FALLBACK, BOT_NAMES, DEFAULT_FALLBACK,
                                   FALLBACK_PLAYERS, TABLE_FALLBACK, AgentError,
                                   AgentPolicy, Fallback, bot, default_fallback, load_agent,
                                   load_table_agent, parse_fallback)
from solver.scripted import FALLBACK_RULE_NAMES, HELD_OUT_NAMES, LEAGUE_NAMES

NAME = "claim_counter"
# 0 Robin, 1 Sheriff, 2 Peasant, 3 Deputy, 4 Companion, 5 Trickster, 6 Traitor (face up)
CAMPS = "Robin+Sheriff+Peasant+Deputy+Companion+Trickster+Traitor"
# two Companions: 2 and 3
TWO_COMPANIONS = "Robin+Sheriff+Companion+Companion+Peasant+Deputy+Trickster+Traitor"


def _load(layout: str, players: int = 2):
    return game_def.load_game(f"{layout}:layout={layout},players={players}")


def _named(game, state, name=NAME):
    probs = AgentPolicy(game, bot(name)).action_probabilities(state)
    assert sum(probs.values()) == pytest.approx(1.0)
    assert set(probs) == set(state.legal_actions())
    return {state.action_to_string(state.current_player(), a): pytest.approx(p)
            for a, p in probs.items() if p > 0}


# ----- what it is ---------------------------------------------------------------------
def test_it_is_a_fallback_rule_loadable_by_name_but_not_a_measuring_player():
    assert NAME in FALLBACK_RULE_NAMES
    assert NAME in FALLBACK_PLAYERS
    assert NAME not in LEAGUE_NAMES + HELD_OUT_NAMES + BOT_NAMES   # the measuring sets
    assert bot(NAME).name == NAME
    assert Fallback(NAME).player == NAME


# ----- behaviour in scenario states -----------------------------------------------------
def test_it_claims_as_the_baiter_does():
    g = _load(CAMPS)
    for peek, claim in (("peek 2", "announce Peasant"), ("peek 4", "announce Companion"),
                        ("peek 0", "silent"), ("peek 3", "announce Deputy")):
        assert _named(g, game_def.play(g, peek)) == {claim: 1}
        assert _named(g, game_def.play(g, peek)) == _named(g, game_def.play(g, peek), "baiter")


def test_it_passes_a_claim_that_may_be_true_where_the_baiter_challenges():
    g = _load(CAMPS)
    claim = game_def.play(g, "peek 2", "announce Peasant")   # true, and unknown to seat 1
    assert _named(g, claim) == {"pass": 1}
    assert _named(g, claim, "baiter") == {"challenge": 1}
    # a claim it knows to be false (seat 1 saw the Companion at 4) is challenged
    seen = game_def.play(g, "peek 0", "silent", "peek 4", "silent", "peek 4")
    assert _named(g, game_def.play(seen, "announce Peasant")) == {"challenge": 1}
    assert _named(g, game_def.play(seen, "announce Companion")) == {"pass": 1}
    # Robin located at 0: a Robin claim anywhere else is impossible
    knows = game_def.play(g, "peek 1", "silent", "peek 0", "silent", "peek 2")
    assert _named(g, game_def.play(knows, "announce Robin")) == {"challenge": 1}


def test_a_claim_beyond_the_copies_claimed_elsewhere_is_challenged_at_three_seats():
    g = _load(TWO_COMPANIONS, players=3)
    # seat 0 claims the Companion at 2 (true) and plays again; seat 1 claims it at 3 (true)
    # and plays again; seat 2 claims a third Companion at 4 (a Peasant): seat 0 answers
    # first, having seen 2 and heard 3: both copies are accounted for
    two = game_def.play(g, "peek 2", "announce Companion", "pass", "pass", "peek 0", "silent",
                        "peek 3", "announce Companion", "pass", "pass", "peek 0", "silent",
                        "peek 4")
    third = game_def.play(two, "announce Companion")
    assert third.current_player() == 0
    assert _named(g, third) == {"challenge": 1}
    assert _named(g, third, "honest") == {"pass": 1}
    # the second claim, with one copy accounted for, may be true: passed
    second = game_def.play(g, "peek 2", "announce Companion", "pass", "pass", "peek 0",
                           "silent", "peek 4", "announce Companion")
    assert second.current_player() == 2
    assert _named(g, second) == {"pass": 1}
    # a claim repeated at the same position is not counted twice
    again = game_def.play(g, "peek 2", "announce Companion", "pass", "pass", "peek 0",
                          "silent", "peek 2", "announce Companion")
    assert _named(g, again) == {"pass": 1}


# ----- legality and information ---------------------------------------------------------
@pytest.mark.parametrize("text", ["standard:players=3,max_turns=30",
                                  "standard:players=4,max_turns=30",
                                  "team:players=4,teams=true,max_turns=30",
                                  "rspmx:max_turns=20"])
def test_it_plays_legal_normalised_probabilities_at_every_table_size(text):
    variant = game_def.parse(text)
    rules = rules_array(variant)
    rng = np.random.default_rng(7)
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    chance_p = np.empty(k.MAX_CHANCE_OUTCOMES)
    out = np.empty(k.MAX_LEGAL)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    player = bot(NAME)
    phases = set()
    for _ in range(40):
        state = k._initial_state(rules)
        know = ab._initial_knowledge(state, rules)
        while state[k.S_PHASE] != k.PH_TERMINAL:
            seat = k._current_player(state)
            if seat == k.CHANCE_PLAYER:
                m = k._chance_outcomes(state, rules, legal, chance_p)
                p = chance_p[:m]
            else:
                m = k._legal_actions(state, rules, legal)
                out[:] = np.nan
                ka._agent_probs(player.player(seat), state, rules, know, seat, legal, m,
                                scratch, abst, out)
                p = out[:m]
                assert np.isnan(out[m:]).all()
                assert np.isfinite(p).all() and (p >= 0).all() and abs(p.sum() - 1) < 1e-12
                phases.add(int(state[k.S_PHASE]))
            a = legal[min(np.searchsorted(np.cumsum(p), rng.random() * p.sum(),
                                          side="right"), m - 1)]
            before = state.copy()
            k._apply_action(state, rules, a)
            ab._observe(know, before, a, state, rules)
    assert {k.PH_TURN, k.PH_AFTER_PEEK, k.PH_RESPOND, k.PH_REVEAL} <= phases


def test_it_uses_only_its_own_information():
    variant = game_def.parse("rspx:max_turns=4")
    project(bot(NAME), variant, build_robinwood_tree(variant, symmetric=False))


def test_against_honest_copies_it_keeps_the_strikes_the_baiter_throws_away():
    """Why it is the fallback beyond two seats: honest players tell the truth, so every
    challenge of theirs costs the challenger a strike. Against three honest copies the
    baiter (challenges every claim not known true) wins less than the fair share; the
    claim counter more, each with 95% confidence."""
    four = game_def.parse("standard:players=4")
    counter = table_play(four, bot(NAME), opponents=("honest",), rounds=400, seed=3).summary()
    baiter = table_play(four, bot("baiter"), opponents=("honest",), rounds=400,
                        seed=3).summary()
    assert counter.loc["honest", "low"] > 0.25 > baiter.loc["honest", "high"]


# ----- the default fallback by table size -----------------------------------------------
def test_the_default_fallback_follows_the_table_size(tmp_path):
    assert default_fallback(game_def.parse("standard")) == DEFAULT_FALLBACK
    for text in ("standard:players=3", "standard:players=4", "team:players=4,teams=true"):
        assert default_fallback(game_def.parse(text)) == TABLE_FALLBACK
    assert TABLE_FALLBACK == Fallback("sound", visits="all", turn_visits=1000)
    assert parse_fallback("auto") == AUTO_FALLBACK == parse_fallback(DEFAULT_FALLBACK_TEXT)
    with pytest.raises(AgentError, match="auto takes no options"):
        parse_fallback("auto:visits=3")
    run = tmp_path / "three"
    solve_mccfr(MCCFRConfig(game_def.parse("rspmx:players=3"), workers=1, seed=0,
                            batch_iterations=10), run, max_iterations=10)
    assert load_table_agent(run).fallback == TABLE_FALLBACK
    assert load_agent(str(run)).fallback == TABLE_FALLBACK
    assert load_table_agent(run, None).fallback is None
    assert load_table_agent(run, Fallback("baiter")).fallback == Fallback("baiter")
    with pytest.raises(AgentError, match="not a Fallback"):
        load_table_agent(run, "baiter")
    result = CliRunner().invoke(cli, ["exploit", str(run), "--rounds", "5"])
    assert result.exit_code == 0, result.output
    assert str(TABLE_FALLBACK) in result.output   # the fallback it was measured with


def test_coverage_beyond_two_seats_counts_every_table_decision(tmp_path):
    """table_coverage plays the strategy in every seat and sorts its table decisions
    into learned, thin and unlearned entries: a threshold no entry reaches leaves none
    learned, the run's own threshold some; bots make no table decisions."""
    import dataclasses

    from solver.evaluation.table_play import table_coverage

    run = tmp_path / "three"
    solve_mccfr(MCCFRConfig(game_def.parse("rspmx:players=3"), workers=1, seed=0,
                            batch_iterations=50), run, max_iterations=200)
    agent = load_table_agent(run, None)
    cov = table_coverage(agent, rounds=50, seed=1)
    assert list(cov.index) == ["turn", "after peek", "respond", "power", "all"]
    assert cov.loc["all", "decisions"] == cov["decisions"].iloc[:4].sum() > 0
    shares = cov.loc["all", ["learned", "thin", "unlearned"]]
    assert shares.sum() == pytest.approx(1.0) and shares["learned"] > 0
    never = dataclasses.replace(agent, min_visits=10**12)
    again = table_coverage(never, rounds=50, seed=1)
    assert again.loc["all", "learned"] == 0
    assert again.loc["all", "decisions"] == cov.loc["all", "decisions"]   # same rounds
    with pytest.raises(AgentError, match="rounds"):
        table_coverage(agent, rounds=0)


# ----- a plain-Python twin of its challenge, from information-state strings --------------
# No Deputy, Witch or Monk: cards never move, so what a seat has seen stays true and every
# claim stays on its position; the twin needs no candidate sets.
STILL_DECK = "Robin+Sheriff+Companion+Companion+Peasant+Peasant+Trickster+Traitor"
COPIES = {"Robin": 1, "Sheriff": 1, "Companion": 2, "Peasant": 2, "Trickster": 1}


def _twin_challenges(info_state: str) -> bool:
    """Would the claim counter challenge the claim this seat is asked about? Read from
    the seat's information-state string only: the cards it has seen (`pos=Card`), each
    position's last claim (`seat:peek pos` then `seat:announce Card`)."""
    tokens = [t.strip() for t in info_state.split(";")][1:]
    known, claims, peeked = {}, {}, {}
    pos = said = None
    for t in tokens:
        if "=" in t:
            p, card = t.split("=")
            known[int(p)] = card
            continue
        seat, action = t.split(":")
        words = action.split()
        if words[0] == "peek":
            peeked[seat] = int(words[1])
        elif words[0] == "announce":
            pos, said = peeked[seat], words[1]
            claims[pos] = said
    assert said is not None
    if pos in known:
        return known[pos] != said
    located = sum(1 for p, card in known.items() if card == said)
    if located >= COPIES[said]:
        return True            # every copy is somewhere else
    claimed = sum(1 for p, card in claims.items()
                  if p != pos and p not in known and card == said)
    return located + claimed >= COPIES[said]


@pytest.mark.parametrize("players", [3, 4])
def test_its_challenges_equal_a_plain_python_twin_on_information_strings(players):
    import random

    game = game_def.load_game(f"{STILL_DECK}:players={players}")
    policy = AgentPolicy(game, bot(NAME))
    rng = random.Random(players)
    answered = challenged = 0
    for _ in range(150):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            seat = state.current_player()
            texts = [state.action_to_string(seat, a) for a in state.legal_actions()]
            if "challenge" in texts:
                probs = policy.action_probabilities(state)
                challenge = state.legal_actions()[texts.index("challenge")]
                twin = _twin_challenges(state.information_state_string(seat))
                assert probs[challenge] == (1.0 if twin else 0.0), \
                    state.information_state_string(seat)
                answered += 1
                challenged += twin
            state.apply_action(rng.choice(state.legal_actions()))
    assert answered > 300 and 0 < challenged < answered   # both answers were checked
