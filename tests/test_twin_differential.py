"""Differential test: the numba core against the plain-Python twin (tests/naive.py).

Random trajectories (seeded) are walked through both implementations in lockstep; at
every node they must agree on the player to move, terminality, legal actions, chance
outcomes and probabilities, every player's information state string, the chosen
action's string and, at the end, the returns. A mismatch prints the variant and the
action strings so far, so it can be replayed by hand.
"""

from __future__ import annotations

import random
import zlib

import pyspiel
import pytest

import game_def  # noqa: F401  (registers the OpenSpiel game "robin_wood")
from game_def.variant import parse

try:
    from tests.naive import NaiveGame
except ImportError:  # tests/ imported as a plain directory (no package)
    from naive import NaiveGame

# (variant, compared steps in the CI run). The slow run multiplies every budget by 10.
# Together they cover every named deck, 2/3/4 players, teams, the random challenge
# order, traitor_strikes_on_reveal, strikes 1 and 3, short turn caps, fixed layouts,
# first_player != 0, decks with two Traitors and with none.
VARIANTS: list[tuple[str, int]] = [
    ("rspx:max_turns=6", 4000),
    ("rspx", 4000),
    ("rspx:players=3,first_player=1", 3000),
    ("rspx:strikes=1,traitor_strikes_on_reveal=true", 3000),
    ("rspmx", 4000),
    ("rspmx:players=3,challenge_order=random", 4000),
    ("rspmx:players=4,strikes=3,max_turns=12", 4000),
    ("duel6", 4000),
    ("duel6:players=4,challenge_order=random,first_player=3", 4000),
    ("duel7:strikes=1", 4000),
    ("duel7:max_turns=2,first_player=1", 3000),
    ("duel8", 5000),
    ("duel8:strikes=3,traitor_strikes_on_reveal=true", 5000),
    ("duel8:players=3,challenge_order=random,traitor_strikes_on_reveal=true", 5000),
    ("standard", 6000),
    ("standard:max_turns=3", 3000),
    ("standard:players=3", 6000),
    ("standard:players=3,first_player=2,strikes=1", 4000),
    ("standard:players=4,challenge_order=random", 6000),
    ("standard:strikes=3,traitor_strikes_on_reveal=true,max_turns=10", 5000),
    ("team:players=4,teams=true", 6000),
    ("team:players=4,teams=true,challenge_order=random,strikes=1", 5000),
    ("team:players=4,teams=true,strikes=3,first_player=3,max_turns=15", 5000),
    ("rspx:layout=Robin+Sheriff+Peasant+Traitor", 2000),
    ("duel8:layout=Witch+Traitor+Robin+Deputy+Sheriff+Companion+Trickster+Peasant", 3000),
    ("standard:players=3,challenge_order=random,layout=Traitor+Monk+Witch+Robin"
     "+Companion+Companion+Sheriff+Deputy+Deputy+Peasant+Peasant+Trickster", 4000),
    ("team:players=4,teams=true,first_player=1,layout=Innkeeper+Robin+Companion"
     "+Companion+Sheriff+Deputy+Deputy+Peasant+Trickster+Monk+Witch+Traitor", 4000),
    ("Robin+Sheriff+Deputy+Monk+Witch+Traitor+Traitor:strikes=3", 3000),
    ("Robin+Companion+Sheriff+Peasant+Monk+Trickster:players=3", 3000),
    # No Sheriff's camp at all: Robin's power unmasks an empty camp and wins at once.
    ("Robin+Peasant+Monk+Traitor", 2000),
    ("Innkeeper+Monk+Robin+Sheriff+Deputy+Traitor:players=4,teams=true,strikes=1,"
     "challenge_order=random", 2000),
]
CI_STEPS_TOTAL = sum(budget for _, budget in VARIANTS)
assert CI_STEPS_TOTAL >= 100_000


class Mismatch(AssertionError):
    pass


def _load_core(variant):
    return pyspiel.load_game("robin_wood", variant.to_params())


def _walk(variant_text: str, min_steps: int, seed: int) -> int:
    """Random trajectories on core and twin until `min_steps` nodes are compared."""
    variant = parse(variant_text)
    core_game = _load_core(variant)
    twin_game = NaiveGame(variant)
    players = variant.players
    rng = random.Random(seed)
    steps = 0
    trajectories = 0
    while steps < min_steps:
        trajectories += 1
        core = core_game.new_initial_state()
        twin = twin_game.new_initial_state()
        history: list[str] = []

        def check(what, got_core, got_twin):
            if got_core != got_twin:
                raise Mismatch(
                    f"{what} differs\n  variant: {variant}\n"
                    f"  history ({len(history)} actions): {'; '.join(history)}\n"
                    f"  core: {got_core!r}\n  twin: {got_twin!r}\n"
                    f"  twin state: {twin}")

        while True:
            steps += 1
            player = twin.current_player()
            check("current_player", core.current_player(), player)
            check("is_terminal", core.is_terminal(), twin.is_terminal())
            check("is_chance_node", core.is_chance_node(), twin.is_chance_node())
            for p in range(players):
                check(f"information_state_string({p})",
                      core.information_state_string(p), twin.information_state_string(p))
            if twin.is_terminal():
                core_returns = list(core.returns())
                twin_returns = twin.returns()
                if any(abs(a - b) > 1e-12 for a, b in zip(core_returns, twin_returns)) \
                        or len(core_returns) != len(twin_returns):
                    check("returns", core_returns, twin_returns)
                break
            if twin.is_chance_node():
                core_outcomes = list(core.chance_outcomes())
                twin_outcomes = twin.chance_outcomes()
                check("chance outcome ids", [a for a, _ in core_outcomes],
                      [a for a, _ in twin_outcomes])
                if any(abs(pc - pt) > 1e-12
                       for (_, pc), (_, pt) in zip(core_outcomes, twin_outcomes)):
                    check("chance probabilities", core_outcomes, twin_outcomes)
                ids = [a for a, _ in twin_outcomes]
                action = rng.choices(ids, weights=[pr for _, pr in twin_outcomes])[0]
            else:
                legal = twin.legal_actions()
                check("legal_actions", list(core.legal_actions()), legal)
                action = rng.choice(legal)
            text = twin.action_to_string(player, action)
            check(f"action_to_string({player}, {action})",
                  core.action_to_string(player, action), text)
            history.append(text)
            core.apply_action(action)
            twin.apply_action(action)
            # Now and then continue on clones: cloning must keep everything.
            if rng.random() < 0.02:
                core, twin = core.clone(), twin.clone()
    return steps


def _seed(variant_text: str, salt: int) -> int:
    return zlib.crc32(f"{salt}:{variant_text}".encode())


@pytest.mark.parametrize("variant_text,budget", VARIANTS, ids=[v for v, _ in VARIANTS])
def test_core_matches_twin(variant_text, budget):
    assert _walk(variant_text, budget, _seed(variant_text, 0)) >= budget


@pytest.mark.slow
@pytest.mark.parametrize("variant_text,budget", VARIANTS, ids=[v for v, _ in VARIANTS])
def test_core_matches_twin_long(variant_text, budget):
    assert _walk(variant_text, 10 * budget, _seed(variant_text, 1)) >= 10 * budget
