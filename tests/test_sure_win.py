"""Sure wins (solver/knowledge/_sure_win.py): the kernel against a plain-Python twin written
from docs/rules.md ("Powers"), a scenario played through action strings, and the
trainer and table agents taking them by rule.

The twin reads only the seat's information-state string (its knowledge, through
tests/naive_abstraction.py's record reader), the legal action strings and the variant's
deck: never the core's state.
"""

from __future__ import annotations

import numpy as np
import pytest

import game_def
from game_def import kernels as gk
from solver.mccfr import kernels as mk
from solver.mccfr.trainer import MCCFRConfig, MCCFRSolver
from solver.players import trained_agent
from solver.players import kernels as ka

try:
    from tests import naive_abstraction as naive
except ImportError:  # tests/ is not a package: pytest puts it on sys.path
    import naive_abstraction as naive

ROBIN, COMPANION, SHERIFF, DEPUTY = 0, 1, 2, 3
NAME = {"Robin": ROBIN, "Sheriff": SHERIFF}
TARGET_CAMP = {ROBIN: (SHERIFF, DEPUTY), SHERIFF: (ROBIN, COMPANION)}


def twin_sure_wins(state, player: int) -> tuple[set[int], set[int]]:
    """(actions that win at once or within the power, peeks of a located leader that
    win next), from what `player` knows: docs/rules.md, "Powers"."""
    variant = state.get_game().variant
    record = state.information_state_string(player)
    view, _ = naive.view_from_record(record, player, variant, False)

    def located(p):
        c = view.cand[p]
        return c.bit_length() - 1 if c and c & (c - 1) == 0 else -1

    def target_located(leader):
        if variant.counts[leader] == 0:
            return False
        camp = TARGET_CAMP[leader]
        need = sum(variant.counts[c] for c in camp)
        return sum(located(p) in camp for p in range(variant.num_positions)) == need

    tokens = record.split("; ")[1:]
    mine = [t.split(":", 1)[1] for t in tokens if t.startswith(f"{player}:")]
    now, later = set(), set()
    for a in state.legal_actions():
        verb, _, arg = state.action_to_string(player, a).partition(" ")
        if verb == "use" and located(int(arg)) in (ROBIN, SHERIFF):
            if target_located(located(int(arg))):
                now.add(a)
        elif verb == "peek" and located(int(arg)) in (ROBIN, SHERIFF):
            if target_located(located(int(arg))):
                later.add(a)
        elif verb == "announce" and arg in NAME:
            peeked = int([t for t in mine if t.startswith("peek ")][-1].split()[1])
            if located(peeked) == NAME[arg] and target_located(NAME[arg]):
                now.add(a)
        elif verb == "reveal":
            last = [t for t in mine if t.startswith(("use ", "announce "))][-1]
            verb0, arg0 = last.split(" ", 1)
            leader = located(int(arg0)) if verb0 == "use" else NAME.get(arg0, -1)
            if leader in TARGET_CAMP and target_located(leader) and \
                    located(int(arg)) in TARGET_CAMP[leader]:
                now.add(a)
    return now, later


def kernel_sure_win(state, know) -> int:
    """The kernel's choice as an action id, -1 for none."""
    legal = np.array(state.legal_actions(), dtype=np.int64)
    i = mk.sure_win(state.core_state, state.get_game().rules, know,
                    state.current_player(), legal, len(legal))
    return -1 if i < 0 else int(legal[i])


def random_decisions(spec: str, rounds: int, seed: int):
    game = game_def.load_game(spec)
    rules = game.rules
    rng = np.random.default_rng(seed)
    for _ in range(rounds):
        state = game.new_initial_state()
        know = mk.initial_knowledge(state.core_state, rules)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                action = int(rng.choice(outcomes, p=probs))
            else:
                yield state, know
                legal = state.legal_actions()
                action = int(legal[rng.integers(len(legal))])
            before = state.core_state
            state.apply_action(action)
            mk.observe(know, before, action, state.core_state, rules)


@pytest.mark.parametrize("spec, rounds, least", [
    ("Robin+Sheriff+Deputy+Peasant+Traitor:max_turns=12", 300, 100),
    ("Robin+Companion+Sheriff+Deputy+Peasant+Monk+Witch+Traitor:max_turns=16", 200, 30),
    ("standard", 300, 10),
])
def test_kernel_agrees_with_twin(spec, rounds, least):
    """On every decision of random rounds: the kernel finds a sure win exactly when the
    twin does, and picks one the twin accepts (a use/announce/reveal before a peek)."""
    found = 0
    for state, know in random_decisions(spec, rounds, seed=7):
        now, later = twin_sure_wins(state, state.current_player())
        chosen = kernel_sure_win(state, know)
        expected = now or later
        assert (chosen >= 0) == bool(expected), (state.history_str(), chosen, expected)
        if chosen >= 0:
            assert chosen in expected, (state.history_str(), chosen, expected)
            found += 1
    # the comparison means something only if sure wins occurred
    assert found >= least


def test_scenario_peeked_robin_with_the_sheriffs_camp_located():
    """Seat 0 has located the Deputy and the Sheriff; it peeks Robin: announcing Robin
    wins whether or not it is challenged (a true claim: the challenger takes a strike,
    the power runs), and every reveal is a located camp card."""
    game = game_def.load_game(
        "Robin+Sheriff+Deputy+Peasant+Traitor:layout=Deputy+Sheriff+Robin+Peasant+Traitor")
    rules = game.rules
    state = game.new_initial_state()
    know = mk.initial_knowledge(state.core_state, rules)
    texts = ["peek 0", "silent", "peek 3", "silent", "peek 1", "silent", "peek 3",
             "silent"]
    for text in texts:
        before = state.core_state
        a = state.string_to_action(text)
        state.apply_action(a)
        mk.observe(know, before, a, state.core_state, rules)
    # Robin is not located (it may be at 2 or 3): no sure win yet
    assert kernel_sure_win(state, know) == -1
    for text, expected in (("peek 2", "announce Robin"), ("announce Robin", None),
                           ("challenge", "reveal 0"), ("reveal 0", "reveal 1")):
        before = state.core_state
        a = state.string_to_action(text)
        state.apply_action(a)
        mk.observe(know, before, a, state.core_state, rules)
        if expected is not None:
            assert state.current_player() == 0
            assert kernel_sure_win(state, know) == state.string_to_action(expected)
        else:   # the responder knows only the Peasant: nothing sure for it
            assert kernel_sure_win(state, know) == -1
    before = state.core_state
    state.apply_action(state.string_to_action("reveal 1"))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    # the challenger took the strike of a true claim
    assert list(state.strikes) == [0, 1]


def test_no_sure_win_without_the_whole_camp():
    """Only the Deputy located: peeking Robin does not surely win (the Sheriff is not
    placed), so nothing is forced."""
    game = game_def.load_game(
        "Robin+Sheriff+Deputy+Peasant+Traitor:layout=Deputy+Sheriff+Robin+Peasant+Traitor")
    rules = game.rules
    state = game.new_initial_state()
    know = mk.initial_knowledge(state.core_state, rules)
    for text in ["peek 0", "silent", "peek 3", "silent", "peek 2"]:
        before = state.core_state
        a = state.string_to_action(text)
        state.apply_action(a)
        mk.observe(know, before, a, state.core_state, rules)
    assert kernel_sure_win(state, know) == -1


def test_trained_agents_take_sure_wins_by_rule():
    """A table trained with sure_wins plays the sure win with probability 1 even where
    its table would mix; one trained without follows its table."""
    spec = "Robin+Sheriff+Deputy+Peasant+Traitor:max_turns=6"
    variant = game_def.parse(spec)
    probs = {}
    for sure in (True, False):
        trainer = MCCFRSolver(MCCFRConfig(variant, sure_wins=sure, workers=1,
                                          batch_iterations=50))
        trainer.run(4)
        agent = trained_agent(trainer)
        assert (agent.params[ka.P_SURE_WINS] > 0) == sure
        probs[sure] = agent
    checked = 0
    for state, know in random_decisions(spec, 100, seed=3):
        chosen = kernel_sure_win(state, know)
        if chosen < 0:
            continue
        policy = _probabilities(probs[True], state, know)
        assert policy[chosen] == pytest.approx(1.0)
        checked += 1
    assert checked >= 20


def _probabilities(agent, state, know) -> dict[int, float]:
    legal = np.array(state.legal_actions(), dtype=np.int64)
    m = len(legal)
    out = np.zeros(m)
    scratch = np.zeros((mk.SCRATCH_ROWS, gk.MAX_LEGAL), dtype=np.int64)
    abst = np.zeros(gk.MAX_LEGAL, dtype=np.int64)
    seat = state.current_player()
    ka.agent_probs(agent.player(seat), state.core_state, state.get_game().rules, know, seat,
                   legal, m, scratch, abst, out)
    return {int(a): float(p) for a, p in zip(legal, out)}


def test_sure_win_scenario_from_the_turn():
    """Having located Robin and the Sheriff's camp earlier, seat 0 peeks the located
    Robin (or the located Sheriff, whose target camp is Robin alone): a sure win."""
    game = game_def.load_game(
        "Robin+Sheriff+Deputy+Peasant+Traitor:layout=Deputy+Sheriff+Robin+Peasant+Traitor")
    rules = game.rules
    state = game.new_initial_state()
    know = mk.initial_knowledge(state.core_state, rules)
    for text in ["peek 0", "silent", "peek 3", "silent", "peek 1", "silent", "peek 3",
                 "silent", "peek 2", "silent", "peek 3", "silent"]:
        before = state.core_state
        a = state.string_to_action(text)
        state.apply_action(a)
        mk.observe(know, before, a, state.core_state, rules)
    assert state.current_player() == 0
    assert kernel_sure_win(state, know) in {state.string_to_action("peek 1"),
                                            state.string_to_action("peek 2")}
