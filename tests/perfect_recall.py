"""A perfect-recall checker: OpenSpiel trusts games to have perfect recall and never checks.

Walks every history of a (small) game. For each player, each information-state string
must correspond to exactly one sequence of that player's own earlier (information
state, action) pairs, and to one set of legal actions.
"""

from __future__ import annotations

import pyspiel


def check_perfect_recall(game: pyspiel.Game, max_nodes: int = 2_000_000) -> dict:
    """Raise AssertionError on the first violation; return counts of what was checked."""
    seen: dict[tuple[int, str], tuple[tuple, tuple]] = {}
    nodes = 0
    stack = [(game.new_initial_state(), tuple(() for _ in range(game.num_players())))]
    while stack:
        state, own = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise RuntimeError(f"more than {max_nodes} nodes: pick a smaller game")
        if state.is_terminal():
            continue
        if state.is_chance_node():
            for action, _ in state.chance_outcomes():
                stack.append((state.child(action), own))
            continue
        player = state.current_player()
        info = state.information_state_string(player)
        legal = tuple(state.legal_actions())
        key = (player, info)
        record = (own[player], legal)
        previous = seen.setdefault(key, record)
        if previous != record:
            raise AssertionError(
                f"player {player}'s information state {info!r} is reached through two "
                f"different own histories or legal sets:\n{previous}\n{record}\n"
                f"history: {state.history_str()}")
        for action in legal:
            grown = list(own)
            grown[player] = own[player] + ((info, action),)
            stack.append((state.child(action), tuple(grown)))
    return {"nodes": nodes, "infostates": len(seen)}
