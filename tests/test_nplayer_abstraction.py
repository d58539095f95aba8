"""The information abstraction beyond two seats (docs/abstraction.md, "Three and four
players"): the numba kernels agree with the plain-Python twin (tests/naive_abstraction.py)
at every decision of random rounds of three- and four-player tables and of the 2-vs-2
team mode, value for value: the eleven globals (with the table features), the sorted
position codes (with the team's Innkeeper signal), the coarse features and the abstract
actions. The twin reads only information-state and observation strings.
"""

from __future__ import annotations

import pprint
from collections import Counter

import numpy as np
import pytest

import game_def
from game_def import _core as k
from solver.mccfr import _abstraction as ab

try:
    from tests import naive_abstraction as naive
except ImportError:  # tests/ is not a package: pytest puts it on sys.path
    import naive_abstraction as naive

THREE = "standard:players=3"
FOUR = "standard:players=4"
TEAM = "team:teams=true,players=4"
RANDOM_ORDER = "standard:players=4,challenge_order=random"
SIGNAL_BITS = 15 << naive.SIGNAL_SHIFT


def observe(know, before, action, after, rules):
    ab._observe(know, before, action, after, rules)


def decisions(game, rng, tracker=observe):
    """Play one random round; yield (state, knowledge) at each player decision (the
    knowledge array follows every action, chance included; use both before resuming)."""
    rules = game.rules
    state = game.new_initial_state()
    know = ab._initial_knowledge(state.core_state, rules)
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
        tracker(know, before, action, state.core_state, rules)


def kernel_features(state, know, seat):
    rules = state.get_game().rules
    n = int(rules[k.R_N])
    codes = np.zeros(k.MAX_POSITIONS, np.int64)
    sorted_codes = np.zeros(k.MAX_POSITIONS, np.int64)
    glob = np.zeros(ab.GLOBALS + ab.TABLE_FEATURES, np.int64)
    ab._features(state.core_state, rules, know, seat, codes, sorted_codes, glob)
    nglob = int(ab._globals_length(rules))
    return tuple(int(x) for x in glob[:nglob]), tuple(int(x) for x in sorted_codes[:n])


def kernel_coarse_features(state, know, seat):
    out = np.zeros(ab.COARSE_FEATURES, np.int64)
    ab._coarse_features(state.core_state, state.get_game().rules, know, seat, out)
    return tuple(int(x) for x in out)


def kernel_abstract(core, rules, know, seat):
    """(number of abstract actions, {legal action: abstract action})."""
    legal = np.zeros(k.MAX_LEGAL, np.int64)
    m = k._legal_actions(core, rules, legal)
    scratch = np.zeros((ab.SCRATCH_ROWS, k.MAX_LEGAL), np.int64)
    abstract_of = np.full(k.MAX_LEGAL, -1, np.int64)
    _, _, count, _ = ab._decision_keys(core, rules, know, seat, legal, m, scratch,
                                       abstract_of, False, False)
    return int(count), {int(legal[i]): int(abstract_of[i]) for i in range(m)}


def partition(abstract):
    """The abstract actions as a partition of the legal actions (numbering forgotten)."""
    groups = {}
    for a, j in abstract.items():
        groups.setdefault(j, set()).add(a)
    return sorted(sorted(g) for g in groups.values())


def compare(spec, rounds, seed, numbering=True, tracker=observe):
    """Compare kernel and twin on every decision of `rounds` random rounds.

    The player to move is compared on everything; every other seat on its features too
    (its view while a hidden step is pending), except at the Innkeeper's `name`, whose
    pick only the actor's team sees (the kernel's role bit there is the mover's view).
    The mover's abstract actions are compared with their numbering, or with
    numbering=False only as a partition of the legal actions.
    Returns (first disagreement or None, statistics of what the rounds reached).
    """
    game = game_def.load_game(spec)
    players = game.variant.players
    rng = np.random.default_rng(seed)
    stats = Counter()
    table_values = [set() for _ in range(ab.TABLE_FEATURES)]
    for _ in range(rounds):
        for state, know in decisions(game, rng, tracker):
            cur = state.current_player()
            phase = int(state.core_state[k.S_PHASE])
            actor = int(state.core_state[k.S_ACTOR])
            for seat in range(players):
                if phase == k.PH_NAME and seat % 2 != actor % 2:
                    continue
                ours = kernel_features(state, know, seat), kernel_coarse_features(
                    state, know, seat)
                theirs = naive.features(state, seat), naive.coarse_features(state, seat)
                if ours != theirs:
                    return dict(spec=spec, seat=seat, mover=cur, kernel=ours, twin=theirs,
                                record=state.information_state_string(seat),
                                observation=state.observation_string(seat),
                                history=list(state.history())), stats
                if seat == cur:
                    glob, codes = ours[0]
                    stats["decisions"] += 1
                    stats["signalled"] += any(c & SIGNAL_BITS for c in codes)
                    for i, v in enumerate(glob[ab.GLOBALS:]):
                        table_values[i].add(v)
                    stats["respond"] += phase == k.PH_RESPOND
                    stats["name"] += phase == k.PH_NAME
                    stats["witch choice"] += phase == k.PH_WITCH_CHOICE
                    stats["deputy pick"] += (phase == k.PH_PICK
                                             and state.core_state[k.S_POWER] == k.DEPUTY)
                elif any(c & SIGNAL_BITS for c in ours[0][1]):
                    stats["signalled elsewhere"] += 1
            count, abstract = kernel_abstract(state.core_state, game.rules, know, cur)
            twin = naive.abstract_actions(state, cur)
            same = abstract == twin if numbering else partition(abstract) == partition(twin)
            if not same or count != len(set(twin.values())):
                return dict(spec=spec, seat=cur, kernel=abstract, twin=twin,
                            record=state.information_state_string(cur),
                            observation=state.observation_string(cur)), stats
    stats["table values"] = [len(v) for v in table_values]
    return None, stats


@pytest.mark.parametrize("spec, rounds, numbering", [
    (THREE, 500, True), (FOUR, 400, True), (RANDOM_ORDER, 300, True), (TEAM, 400, True),
], ids=["three", "four", "random_order", "team"])
def test_kernel_agrees_with_twin_beyond_two_seats(spec, rounds, numbering):
    found, stats = compare(spec, rounds, seed=7, numbering=numbering)
    assert found is None, pprint.pformat(found, width=88)
    assert stats["decisions"] > 20 * rounds and stats["respond"] > 5 * rounds, stats
    # The hidden steps other seats must follow happen (Witch exchanges, shuffles).
    assert stats["witch choice"] > 10 and stats["deputy pick"] > 10, stats
    # The table features are exercised: every one takes more than one value (but the
    # strikes of a seat past the table, always -1).
    players = game_def.load_game(spec).variant.players
    varied = [n > 1 for n in stats["table values"]]
    assert varied == [r < players for r in (1, 2, 3)] + [True, True], stats


def test_team_signal_is_exercised():
    """The team comparison is not vacuous: Innkeeper names happen and partners decide
    with a signalled card in their codes."""
    found, stats = compare(TEAM, 400, seed=11, numbering=True)
    assert found is None, pprint.pformat(found, width=88)
    assert stats["name"] >= 20 and stats["signalled"] >= 100, stats
    assert stats["signalled elsewhere"] >= 100, stats


def test_twin_globals_shape():
    """Two seats keep six globals; beyond, eleven with the opponent's strikes at -1."""
    for spec, length in (("standard", 6), (THREE, 11), (FOUR, 11), (TEAM, 11)):
        game = game_def.load_game(spec)
        state = game.new_initial_state()
        glob, _ = naive.features(state, 0)
        assert len(glob) == length
        if length == 11:
            assert glob[3] == -1 and glob[9:] == (-1, -1)
            players = game.variant.players
            assert glob[6:9] == tuple(0 if r < players else -1 for r in (1, 2, 3))
        assert kernel_features(state, ab._initial_knowledge(state.core_state, game.rules),
                               0)[0] == glob


# ----- the comparison can fail -----------------------------------------------------------
def forget(part):
    """A tracker that gets one multi-seat update of the real one wrong."""
    def tracker(know, before, action, after, rules):
        old = know.copy()
        ab._observe(know, before, action, after, rules)
        phase, actor = before[k.S_PHASE], before[k.S_ACTOR]
        players = int(rules[k.R_PLAYERS])
        m = k.MAX_POSITIONS
        third = (actor + 2) % players          # a seat neither the actor nor the next one

        def restore(base, seat):
            know[base + seat * m:base + seat * m + m] = old[base + seat * m:base + seat * m + m]

        if part == "peek marks the next seat only" and after[k.S_SEEN_SCOPE] == k.SCOPE_ACTOR:
            restore(ab.K_OTHER_LOOKED, third)
        elif part == "witch blind for the next seat only" and phase == k.PH_WITCH_CHOICE:
            for base in (ab.K_CAND, ab.K_OTHER_LOOKED):
                restore(base, third)
        elif part == "signal to the actor only" and phase == k.PH_NAME:
            restore(ab.K_SIGNAL, third)
        elif part == "signal survives a shuffle" and phase == k.PH_SHUFFLE:
            for seat in range(players):
                restore(ab.K_SIGNAL, seat)
    return tracker


@pytest.mark.parametrize("spec, part", [
    (THREE, "peek marks the next seat only"),
    (FOUR, "witch blind for the next seat only"),
    (TEAM, "signal to the actor only"),
    (TEAM, "signal survives a shuffle"),
])
def test_wrong_tracker_is_caught(spec, part):
    found, _ = compare(spec, 150, seed=7, numbering=False, tracker=forget(part))
    assert found is not None
