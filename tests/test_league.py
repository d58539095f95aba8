"""The league of scripted players (solver.scripted._league, solver.evaluation.league, docs/bots.md): legal,
normalised play everywhere; play from the seat's own information only (the exact
projection finds no information state played two ways); the documented behaviour in
scenario states; play_league's intervals and gains against exact values."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from game_def import _core as k
from game_def.core import rules_array
from robinwood.cli import cli
from solver.mccfr import _abstraction as ab
from solver.players import _kernels as ka
from solver.evaluation.abstraction_cost import project
from solver.players.agents import BOT_NAMES, LEAGUE_BOTS, AgentError, AgentPolicy, bot, load_agent
from solver.exact.best_response import expected_value, exploitability
from solver.evaluation.league import HELD_OUT, LEAGUE, play_league
from solver.exact.robinwood_tree import build_robinwood_tree

RSPX4 = game_def.parse("rspx:max_turns=4")
# 0 Robin, 1 Sheriff, 2 Peasant, 3 Deputy, 4 Companion, 5 Trickster, 6 Traitor (face up)
CAMPS = "Robin+Sheriff+Peasant+Deputy+Companion+Trickster+Traitor"
# 0 Witch, 1 Monk, 2 Robin, 3 Sheriff, 4 Peasant, 5 Traitor
POWERS = "Witch+Monk+Robin+Sheriff+Peasant+Traitor"


def _load(layout: str):
    return game_def.load_game(f"{layout}:layout={layout}")


def _named(game, state, name_or_agent):
    agent = bot(name_or_agent) if isinstance(name_or_agent, str) else name_or_agent
    probs = AgentPolicy(game, agent).action_probabilities(state)
    assert sum(probs.values()) == pytest.approx(1.0)
    assert set(probs) == set(state.legal_actions())
    return {state.action_to_string(state.current_player(), a): pytest.approx(p)
            for a, p in probs.items() if p > 0}


def _even(*actions):
    return {a: pytest.approx(1 / len(actions)) for a in actions}


# ----- legality everywhere --------------------------------------------------------------
def _sweep(variant, rounds: int, seed: int, players=LEAGUE_BOTS,
           opponents=BOT_NAMES) -> set[int]:
    """Every one of `players` against every one of `opponents`, `rounds` rounds a pair
    (seats alternating), chance and moves sampled in Python; at every decision the
    probabilities must be finite, >= 0, sum to 1 and stay within legal[:m]. Returns
    the phases `players` decided in."""
    rules = rules_array(variant)
    rng = np.random.default_rng(seed)
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    chance_p = np.empty(k.MAX_CHANCE_OUTCOMES)
    out = np.empty(k.MAX_LEGAL)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    phases = set()
    for name in players:
        for other in opponents:
            for r in range(rounds):
                agents = (bot(name), bot(other)) if r % 2 == 0 else (bot(other), bot(name))
                state = k._initial_state(rules)
                know = ab._initial_knowledge(state, rules)
                while state[k.S_PHASE] != k.PH_TERMINAL:
                    seat = k._current_player(state)
                    if seat == k.CHANCE_PLAYER:
                        m = k._chance_outcomes(state, rules, legal, chance_p)
                        p = chance_p[:m]
                    else:
                        m = k._legal_actions(state, rules, legal)
                        agent = agents[seat]
                        out[:] = np.nan
                        ka._agent_probs(agent.player(seat), state, rules, know, seat, legal,
                                        m, scratch, abst, out)
                        p = out[:m]
                        assert np.isnan(out[m:]).all(), (name, other, state)
                        assert np.isfinite(p).all() and (p >= 0).all(), (name, other, p)
                        assert abs(p.sum() - 1) < 1e-12, (name, other, p)
                        if agent.name in players:
                            phases.add(int(state[k.S_PHASE]))
                    a = legal[min(np.searchsorted(np.cumsum(p), rng.random() * p.sum(),
                                                  side="right"), m - 1)]
                    assert p[np.flatnonzero(legal[:m] == a)[0]] > 0
                    before = state.copy()
                    k._apply_action(state, rules, a)
                    ab._observe(know, before, a, state, rules)
    return phases


def test_league_players_play_legal_normalised_probabilities_on_every_deck():
    phases = set()
    for deck in ("standard", "rspx", "rspmx", "duel6", "duel8"):
        phases |= _sweep(game_def.parse(f"{deck}:max_turns=20"), rounds=16, seed=len(deck))
    # every two-player decision kind was met (PH_NAME is team mode only)
    assert phases == {k.PH_TURN, k.PH_AFTER_PEEK, k.PH_RESPOND, k.PH_REVEAL, k.PH_PICK,
                      k.PH_WITCH_CHOICE}


# ----- own information only, and exact values ------------------------------------------
@pytest.fixture(scope="module")
def rspx4():
    tree = build_robinwood_tree(RSPX4, symmetric=False)
    # project() raises if one information state gets two different distributions: a
    # player that peeked at a hidden card (the state, not its knowledge) would
    strategies = {name: project(bot(name), RSPX4, tree)
                  for name in LEAGUE + HELD_OUT + ("heuristic", "uniform")}
    return tree, strategies


def _exact_value(tree, first, second):
    """Seat 0's exact payoff, `first` in seat 0 and `second` in seat 1."""
    seat = np.repeat(tree.infoset_player, tree.infoset_num_actions)
    return expected_value(tree, np.where(seat == 0, first, second))


def test_league_gains_are_lower_bounds_on_exact_exploitability(rspx4):
    """The league's and the held-out players' (docs/bots.md) exact gains."""
    tree, strategies = rspx4
    for target_name in ("heuristic", "uniform"):
        target = strategies[target_name]
        bound = exploitability(tree, target).exploitability
        gains = {}
        for name in LEAGUE + HELD_OUT:
            s = strategies[name]
            gains[name] = (_exact_value(tree, s, target) - _exact_value(tree, target, s)) / 2
            assert gains[name] <= bound + 1e-12, (target_name, name, gains[name], bound)
    # and the league has teeth: against uniform play (exploitability 0.759 here) the
    # threshold challenger gains 0.725 (measured on rspx:max_turns=4)
    assert max(gains.values()) >= 0.9 * bound, (gains, bound)


def test_play_league_intervals_contain_the_exact_values(rspx4):
    tree, strategies = rspx4
    target = strategies["heuristic"]
    frame = play_league(bot("heuristic"), RSPX4, rounds=20_000, seed=3)
    assert list(frame.index) == list(LEAGUE)
    for name in LEAGUE:
        s = strategies[name]
        first, second = _exact_value(tree, target, s), -_exact_value(tree, s, target)
        row = frame.loc[name]
        assert row.value_lo <= (first + second) / 2 <= row.value_hi, (name, row)
        assert row.gain == pytest.approx(-row.value)
        assert row.gain_lo == pytest.approx(-row.value_hi)
        # per-seat values: one seat's standard error is below 0.007 here, so 0.05 is
        # more than 7 of them
        assert abs(row.seat0_value - first) < 0.05 and abs(row.seat1_value - second) < 0.05
    assert frame["strongest"].sum() == 1
    assert frame.attrs["strongest"] == frame["gain"].idxmax()
    assert frame.attrs["gain"] == frame["gain"].max()


@pytest.mark.parametrize("variant", [
    "duel8:max_turns=1",                             # the Witch: a private look, a swap
    pytest.param("standard:max_turns=1", marks=pytest.mark.slow),  # every power; 20 s
    pytest.param("rspmx:max_turns=3", marks=pytest.mark.slow),   # 40 s
    pytest.param("duel6:max_turns=2", marks=pytest.mark.slow)])  # 80 s
def test_league_players_use_only_their_own_information_on_larger_decks(variant):
    variant = game_def.parse(variant)
    tree = build_robinwood_tree(variant, symmetric=False)
    for name in LEAGUE:
        project(bot(name), variant, tree)    # raises on an inconsistent information state


# ----- behaviour in scenario states --------------------------------------------------------
def test_truthful_challenger():
    g = _load(CAMPS)
    name = "truthful_challenger"
    assert _named(g, game_def.play(g), name) == _even(*(f"peek {p}" for p in range(6)))
    assert _named(g, game_def.play(g, "peek 0"), name) == {"announce Robin": 1}
    assert _named(g, game_def.play(g, "peek 4"), name) == {"announce Companion": 1}
    assert _named(g, game_def.play(g, "peek 2"), name) == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 5"), name) == _even("announce Robin",
                                                                 "announce Sheriff")
    # every leader claim challenged, true or not; others only when known to be false
    assert _named(g, game_def.play(g, "peek 2", "announce Robin"), name) == {"challenge": 1}
    assert _named(g, game_def.play(g, "peek 1", "announce Sheriff"), name) == {"challenge": 1}
    assert _named(g, game_def.play(g, "peek 2", "announce Companion"), name) == {"pass": 1}
    seen = game_def.play(g, "peek 0", "silent", "peek 4", "silent", "peek 4")  # seat 1 saw 4
    assert _named(g, game_def.play(seen, "announce Peasant"), name) == {"challenge": 1}
    assert _named(g, game_def.play(seen, "announce Companion"), name) == {"pass": 1}
    # an unmasking with nothing located: any face-down card that may be in the camp
    reveal = game_def.play(g, "peek 0", "announce Robin", "pass")
    assert _named(g, reveal, name) == _even(*(f"reveal {p}" for p in range(1, 6)))


def test_silent():
    g = _load(CAMPS)
    for pos in (0, 1, 2, 4):
        assert _named(g, game_def.play(g, f"peek {pos}"), "silent") == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 5"), "silent") == _even("announce Robin",
                                                                     "announce Sheriff")
    assert _named(g, game_def.play(g, "peek 2", "announce Robin"), "silent") == {"pass": 1}
    seen = game_def.play(g, "peek 0", "silent", "peek 4", "silent", "peek 4")
    assert _named(g, game_def.play(seen, "announce Peasant"), "silent") == {"challenge": 1}


def test_counter_unmasks_a_located_camp_and_challenges_impossible_claims():
    g = _load(CAMPS)
    name = "counter"
    assert _named(g, game_def.play(g, "peek 0"), name) == {"silent": 1}   # nothing located
    assert _named(g, game_def.play(g, "peek 4"), name) == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 5"), name) == {"announce Peasant": 1}
    # seat 0 locates the Sheriff's camp (1 Sheriff, 3 Deputy); seat 1 keeps peeking 2
    located = game_def.play(g, "peek 1", "silent", "peek 2", "silent", "peek 3", "silent",
                            "peek 2", "silent")
    assert _named(g, located, name) == _even("peek 0", "peek 2", "peek 4", "peek 5")
    assert _named(g, game_def.play(located, "peek 4"), name) == {"silent": 1}
    assert _named(g, game_def.play(located, "peek 1"), name) == {"silent": 1}  # Robin's unknown
    robin = game_def.play(located, "peek 0")
    assert _named(g, robin, name) == {"announce Robin": 1}
    # the Trickster's forced lie becomes a claim that wins unless challenged
    assert _named(g, game_def.play(located, "peek 5"), name) == {"announce Robin": 1}
    reveal = game_def.play(robin, "announce Robin", "pass")
    assert _named(g, reveal, name) == _even("reveal 1", "reveal 3")
    last = game_def.play(reveal, "reveal 3")
    assert _named(g, last, name) == {"reveal 1": 1}
    assert game_def.play(last, "reveal 1").returns() == [1.0, -1.0]
    # knowing Robin as well, it peeks him at once
    everything = game_def.play(located, "peek 0", "silent", "peek 2", "silent")
    assert _named(g, everything, name) == {"peek 0": 1}
    # seat 1 knows Robin is at 0: a Robin claim at 2 is impossible, a Companion claim not
    knows = game_def.play(g, "peek 1", "silent", "peek 0", "silent", "peek 2")
    assert _named(g, game_def.play(knows, "announce Robin"), name) == {"challenge": 1}
    assert _named(g, game_def.play(knows, "announce Companion"), name) == {"pass": 1}
    assert _named(g, game_def.play(knows, "announce Robin"), "silent") == {"pass": 1}


def test_counter_uses_a_face_up_leader_whose_target_camp_is_located():
    g = _load(CAMPS)
    # seat 0 claims Robin at 0 truthfully, seat 1 challenges: Robin goes face up and the
    # unmasking runs (seat 0 misses on the Peasant); seat 1 then locates the Sheriff's camp
    up = game_def.play(g, "peek 0", "announce Robin", "challenge", "reveal 2")
    assert up.current_player() == 1
    located = game_def.play(up, "peek 1", "silent", "peek 4", "silent", "peek 3", "silent",
                            "peek 4", "silent")
    assert located.current_player() == 1
    assert _named(g, located, "counter") == {"use 0": 1}
    unmask = game_def.play(located, "use 0")     # no challenge: straight to the reveals
    assert _named(g, unmask, "counter") == _even("reveal 1", "reveal 3")
    assert game_def.play(unmask, "reveal 1", "reveal 3").returns() == [-1.0, 1.0]


def test_leader_bluffer():
    g = _load(CAMPS)
    name = "leader_bluffer"
    assert _named(g, game_def.play(g, "peek 2"), name) == _even("announce Robin",
                                                                 "announce Sheriff")
    # the peeked leader is a located card of the other leader's target camp
    assert _named(g, game_def.play(g, "peek 0"), name) == {"announce Sheriff": 1}
    assert _named(g, game_def.play(g, "peek 1"), name) == {"announce Robin": 1}
    # the peeked Deputy is one of Robin's targets: Robin's unmasking is nearer
    assert _named(g, game_def.play(g, "peek 3"), name) == {"announce Robin": 1}
    assert _named(g, game_def.play(g, "peek 4"), name) == {"announce Sheriff": 1}
    assert _named(g, game_def.play(g, "peek 2", "announce Robin"), name) == {"pass": 1}


def test_threshold_challenger_counts_cards():
    g = _load(CAMPS)
    # nothing located: P(a Peasant claim is false) = 5/6
    claim = game_def.play(g, "peek 2", "announce Peasant")
    assert _named(g, claim, "threshold_challenger") == {"challenge": 1}
    assert _named(g, claim, bot("threshold_challenger", t=0.9)) == {"pass": 1}
    # seat 1 has located the Sheriff, the Deputy and the Companion: 3 places left for
    # the Peasant, P(false) = 2/3
    seen = game_def.play(g, "peek 0", "silent", "peek 1", "silent", "peek 0", "silent",
                         "peek 3", "silent", "peek 0", "silent", "peek 4", "silent", "peek 2",
                         "announce Peasant")
    assert _named(g, seen, bot("threshold_challenger", t=0.6)) == {"challenge": 1}
    assert _named(g, seen, bot("threshold_challenger", t=0.7)) == {"pass": 1}
    assert _named(g, game_def.play(g, "peek 0"), "threshold_challenger") == {
        "announce Robin": 1}


def test_baiter_and_tempo():
    g = _load(CAMPS)
    assert _named(g, game_def.play(g, "peek 2"), "baiter") == {"announce Peasant": 1}
    assert _named(g, game_def.play(g, "peek 4"), "baiter") == {"announce Companion": 1}
    assert _named(g, game_def.play(g, "peek 0"), "baiter") == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 0", "announce Companion"), "baiter") == {
        "challenge": 1}
    seen = game_def.play(g, "peek 0", "silent", "peek 4", "silent", "peek 4")
    assert _named(g, game_def.play(seen, "announce Companion"), "baiter") == {"pass": 1}
    for pos in (0, 2, 3, 5):
        assert _named(g, game_def.play(g, f"peek {pos}"), "tempo") == {
            "announce Companion": 1}
    assert _named(g, game_def.play(g, "peek 2", "announce Companion"), "tempo") == {
        "pass": 1}


def test_powers_look_at_unknown_cards_and_keep():
    g = _load(POWERS)
    name = "truthful_challenger"
    witch = game_def.play(g, "peek 0", "announce Witch", "pass")
    assert _named(g, witch, name) == _even("pick 1", "pick 2", "pick 3", "pick 4")
    assert _named(g, game_def.play(witch, "pick 2"), name) == {"keep": 1}
    monk = game_def.play(g, "peek 1", "announce Monk", "pass")
    assert _named(g, monk, name) == _even("pick 0", "pick 2", "pick 3", "pick 4")
    deputy = game_def.play(_load(CAMPS), "peek 3", "announce Deputy", "pass")
    assert _named(_load(CAMPS), deputy, name) == _even(*(f"pick {p}" for p in range(7)))


# ----- names, options, CLI ---------------------------------------------------------------
def test_league_players_are_loaded_by_name_with_options():
    assert load_agent("counter").kind == bot("counter").kind >= 10
    assert len({bot(n).kind for n in BOT_NAMES}) == len(BOT_NAMES)
    tuned = load_agent("threshold_challenger:t=0.7")
    assert tuned.name == "threshold_challenger(t=0.7)" and tuned.params[0] == 0.7
    with pytest.raises(AgentError, match="counter takes no options"):
        load_agent("counter:t=0.3")
    with pytest.raises(AgentError, match="use t="):
        load_agent("threshold_challenger:bluff=0.3")
    with pytest.raises(AgentError, match=r"\[0, 1\]"):
        load_agent("threshold_challenger:t=2")
    with pytest.raises(AgentError, match="counter"):
        load_agent("counting")
    result = CliRunner().invoke(cli, ["tournament", "counter", "threshold_challenger:t=0.7",
                                      "--deck", "rspx", "--rounds", "200"])
    assert result.exit_code == 0, result.output
    assert "counter's mean payoff over both seats" in result.output


def test_cli_league_prints_every_opponent_and_the_strongest():
    runner = CliRunner()
    result = runner.invoke(cli, ["league", "honest", "--deck", "rspx", "--rounds", "300"])
    assert result.exit_code == 0, result.output
    assert all(name in result.output for name in LEAGUE)
    # honest never challenges: always claiming a leader is what beats it on rspx
    assert "strongest: leader_bluffer" in result.output
    result = runner.invoke(cli, ["league", "honest"])
    assert result.exit_code == 2 and "--deck" in result.output
    result = runner.invoke(cli, ["league", "honest", "grumpy", "--deck", "rspx"])
    assert result.exit_code == 2 and "neither a bot" in result.output
    assert "Traceback" not in result.output
